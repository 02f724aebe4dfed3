#!/usr/bin/env python3
"""Write the lm-evaluation-harness sample logs in this folder.

The questions and answers are ours, made up for verdict's tests and demos; the layout is
what `lm_eval --log_samples` writes (lm-eval 0.4): `<output>/<model>/samples_<task>_<date>.jsonl`,
one JSON object a line, `arguments` as {"gen_args_<i>": {"arg_<j>": ...}}, `resps` and
`filtered_resps` with every leaf turned into text, `target` as text, one line per document
and filter, the metric values last. Run: python3 sample-data/lm-eval/make.py
"""
import hashlib
import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODEL = "example__tiny-llama-1b"
DATE = "2026-11-20T10-15-42.518246"


def sha(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


def line(doc_id, doc, target, args, resps, filtered, flt, metrics):
    d = {
        "doc_id": doc_id,
        "doc": doc,
        "target": str(target),
        "arguments": {
            f"gen_args_{i}": {f"arg_{j}": a for j, a in enumerate(arg)}
            for i, arg in enumerate(args)
        },
        "resps": resps,
        "filtered_resps": filtered,
        "filter": flt,
        "metrics": list(metrics),
        "doc_hash": sha(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": sha(args[0][0]),
        "target_hash": sha(str(target)),
    }
    d.update(metrics)
    return json.dumps(d, ensure_ascii=False)


# gsm8k: generate_until, two filters (strict-match, flexible-extract), exact_match.
GEN = {"until": ["Question:", "</s>", "<|im_end|>"], "do_sample": False, "temperature": 0.0}
GSM = [
    # (question, worked answer ending in "#### N", raw model response)
    ("Mira buys 3 packs of pencils with 12 pencils in each pack. She gives 9 pencils to her brother. How many pencils does she have left?",
     "Mira buys 3 * 12 = <<3*12=36>>36 pencils.\nShe has 36 - 9 = <<36-9=27>>27 pencils left.\n#### 27",
     " Mira has 3 * 12 = 36 pencils. After giving 9 away she has 36 - 9 = 27.\n#### 27"),
    ("A baker makes 14 loaves on Monday and twice as many on Tuesday. How many loaves does he make on the two days together?",
     "On Tuesday he makes 14 * 2 = <<14*2=28>>28 loaves.\nTogether he makes 14 + 28 = <<14+28=42>>42 loaves.\n#### 42",
     " On Tuesday the baker makes 2 * 14 = 28 loaves, so in total he makes 14 + 28 = 42 loaves. The answer is 42."),
    ("Tom reads 15 pages a day. His book has 240 pages. He has already read 90 pages. How many more days does he need to finish the book?",
     "He has 240 - 90 = <<240-90=150>>150 pages left.\nHe needs 150 / 15 = <<150/15=10>>10 days.\n#### 10",
     " Tom has read 90 pages, so 240 + 90 = 330 pages are left. 330 / 15 = 22.\n#### 22"),
    ("A class has 30 students. A third of them walk to school and half of the rest come by bus. How many students come by bus?",
     "10 students walk, so 30 - 10 = <<30-10=20>>20 do not.\nHalf of them, 20 / 2 = <<20/2=10>>10, come by bus.\n#### 20",
     " A third of 30 is 10, so 20 students do not walk. Half of those 20 take the bus: 10 students.\n#### 10"),
    ("A bike costs $250. The shop raises the price by 10% and then Ana buys 5 bikes for her club. How much does she pay?",
     "The new price is 250 * 1.1 = <<250*1.1=275>>275 dollars.\n5 bikes cost 5 * 275 = <<5*275=1375>>1375 dollars.\n#### 1375",
     " The price goes up by 25 dollars to $275. Five bikes cost 5 x 275 = $1,375."),
]


def strict(resp):
    m = re.search(r"#### (\-?[0-9\.\,]+)", resp)
    return m.group(1) if m else "[invalid]"


def flexible(resp):
    found = re.findall(r"(-?[$0-9.,]{2,})|(-?[0-9]+)", resp)
    if not found:
        return "[invalid]"
    a, b = found[-1]
    return a or b


def norm(s):
    for r in [",", r"\$", r"(?s).*#### ", r"\.$"]:
        s = re.sub(r, "", s)
    return s.strip().lower()


def gsm8k():
    out = []
    for flt, pick in [("strict-match", strict), ("flexible-extract", flexible)]:
        for k, (q, a, resp) in enumerate(GSM):
            doc = {"question": q, "answer": a}
            prompt = f"Question: {q}\nAnswer:"
            got = pick(resp)
            em = 1.0 if norm(got) == norm(a) else 0.0
            out.append(line(k, doc, a, [(prompt, GEN)], [[resp]], [got], flt, {"exact_match": em}))
    return out


# arc_easy: multiple_choice (loglikelihood of each choice), acc and acc_norm.
ARC = [
    # (id, question, choices, key letter, loglikelihood of each choice)
    ("sample-arc-0001", "Which of these is a source of light?", ["a mirror", "the Moon", "a candle flame", "a window"], "C", [-6.91, -5.02, -3.88, -7.40]),
    ("sample-arc-0002", "What do plants take in from the air to make food?", ["oxygen", "carbon dioxide", "nitrogen", "water vapor"], "B", [-4.10, -6.72, -5.95, -8.03]),
    ("sample-arc-0003", "Which unit is used to measure the mass of an apple?", ["grams", "meters", "liters", "degrees"], "A", [-2.31, -5.87, -6.02, -7.15]),
    ("sample-arc-0004", "Which animal is a mammal?", ["shark", "frog", "bat", "snake"], "C", [-5.42, -5.89, -4.75, -6.11]),
    ("sample-arc-0005", "What happens to water when it freezes?", ["it becomes a gas", "it expands", "it becomes lighter than air", "it shrinks a great deal"], "B", [-9.80, -4.95, -14.20, -10.40]),
    ("sample-arc-0006", "Which of these is a renewable resource?", ["coal", "wind", "natural gas", "oil"], "B", [-4.02, -4.21, -7.48, -4.60]),
    ("sample-arc-0007", "A student pushes a box across the floor. Which force slows the box down?", ["gravity", "magnetism", "friction", "air pressure"], "C", [-5.06, -7.93, -4.11, -8.02]),
    ("sample-arc-0008", "Which tool best measures how long a plant grows in a week?", ["a ruler", "a balance", "a thermometer", "a stopwatch"], "D", [-3.20, -6.66, -7.01, -5.55]),
]


def arc_easy():
    out = []
    for k, (ident, q, choices, key, lls) in enumerate(ARC):
        labels = ["A", "B", "C", "D"][: len(choices)]
        doc = {"id": ident, "question": q, "choices": {"text": choices, "label": labels}, "answerKey": key}
        gold = labels.index(key)
        prompt = f"Question: {q}\nAnswer:"
        best = max(range(len(lls)), key=lambda i: lls[i])
        best_norm = max(range(len(lls)), key=lambda i: lls[i] / len(choices[i]))  # as lm-eval: characters of the choice
        resps = [[[f"{ll}", str(i == best)]] for i, ll in enumerate(lls)]
        filtered = [[f"{ll}", str(i == best)] for i, ll in enumerate(lls)]
        metrics = {"acc": 1.0 if best == gold else 0.0, "acc_norm": 1.0 if best_norm == gold else 0.0}
        args = [(prompt, " " + c) for c in choices]
        out.append(line(k, doc, gold, args, resps, filtered, "none", metrics))
    return out


def main():
    folder = HERE / MODEL
    folder.mkdir(exist_ok=True)
    for task, lines in [("gsm8k", gsm8k()), ("arc_easy", arc_easy())]:
        (folder / f"samples_{task}_{DATE}.jsonl").write_text("".join(l + "\n" for l in lines), encoding="utf-8")


main()
