#!/usr/bin/env python3
"""Check docs/schema.json against the examples of docs/format.md. Standard library only.

    python3 tests/schema_samples.py

- docs/schema.json must be valid JSON, use only the JSON Schema keywords the small
  validator below implements, and every `$ref` must resolve.
- Every ```json and ```jsonl block of docs/format.md must parse (jsonl: each non-blank
  line) and validate: as an item by default, or as the `$defs` named by a marker comment
  on the line before the fence (`<!-- check: document -->`, `<!-- check: journal -->`,
  `<!-- check: origin -->`, `<!-- check: declared -->`).
- Hand-written items that break the format must be rejected, and a few lenient-but-valid
  ones accepted, so the schema's `required`, `enum` and `if`/`then` really constrain.
- When the `jsonschema` package happens to be installed, the schema is also checked
  against the draft 2020-12 meta-schema, and its verdicts must match this validator's.
  It is never required.

Exit status 0 when everything passes; the last line reads `N passed, N failed`.
"""

import json
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = ROOT / "docs" / "schema.json"
FORMAT_PATH = ROOT / "docs" / "format.md"

# ---------------------------------------------------------------------------------------
# A small JSON Schema (draft 2020-12) validator for the keywords the schema uses.

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "examples", "default",
               "format", "$defs"}
APPLICATORS_ONE = {"items", "additionalProperties", "not", "if", "then", "else"}
APPLICATORS_LIST = {"allOf", "anyOf", "oneOf", "prefixItems"}
APPLICATORS_MAP = {"properties", "$defs"}
ASSERTIONS = {"$ref", "type", "enum", "const", "required", "minItems", "maxItems",
              "uniqueItems", "minimum", "maximum", "pattern", "minLength"}
SUPPORTED = ANNOTATIONS | APPLICATORS_ONE | APPLICATORS_LIST | APPLICATORS_MAP | ASSERTIONS


def walk_schema(node, where, problems, root):
    """Report unsupported keywords and unresolvable $refs."""
    if isinstance(node, bool):
        return
    if not isinstance(node, dict):
        problems.append(f"{where}: a schema must be an object or a boolean")
        return
    for k, v in node.items():
        if k not in SUPPORTED:
            problems.append(f"{where}: keyword {k!r} is not supported by this checker")
        elif k in APPLICATORS_ONE:
            walk_schema(v, f"{where}/{k}", problems, root)
        elif k in APPLICATORS_LIST:
            for i, s in enumerate(v):
                walk_schema(s, f"{where}/{k}/{i}", problems, root)
        elif k in APPLICATORS_MAP:
            for name, s in v.items():
                walk_schema(s, f"{where}/{k}/{name}", problems, root)
        elif k == "$ref":
            try:
                resolve(root, v)
            except (KeyError, ValueError) as e:
                problems.append(f"{where}: $ref {v!r} does not resolve ({e})")


def resolve(root, ref):
    if not ref.startswith("#"):
        raise ValueError("only local references are supported")
    node = root
    for part in ref[1:].split("/")[1:]:
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def has_type(x, t):
    if t == "null":
        return x is None
    if t == "boolean":
        return isinstance(x, bool)
    if t == "integer":
        return is_number(x) and (isinstance(x, int) or (math.isfinite(x) and x.is_integer()))
    if t == "number":
        return is_number(x)
    if t == "string":
        return isinstance(x, str)
    if t == "array":
        return isinstance(x, list)
    if t == "object":
        return isinstance(x, dict)
    raise ValueError(f"unknown type {t!r}")


def json_equal(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def errors(schema, x, root, path="$"):
    """Yield one message per violation of `schema` by instance `x`."""
    if schema is True:
        return
    if schema is False:
        yield f"{path}: not allowed here"
        return
    if "$ref" in schema:
        yield from errors(resolve(root, schema["$ref"]), x, root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(has_type(x, t) for t in types):
            yield f"{path}: expected {' or '.join(types)}, found {json.dumps(x)[:60]}"
    if "enum" in schema and not any(json_equal(x, e) for e in schema["enum"]):
        yield f"{path}: {json.dumps(x)[:60]} is not one of {schema['enum']}"
    if "const" in schema and not json_equal(x, schema["const"]):
        yield f"{path}: must be {json.dumps(schema['const'])}"
    if isinstance(x, dict):
        for k in schema.get("required", []):
            if k not in x:
                yield f"{path}: missing required {k!r}"
        props = schema.get("properties", {})
        for k, s in props.items():
            if k in x:
                yield from errors(s, x[k], root, f"{path}.{k}")
        if "additionalProperties" in schema:
            for k, v in x.items():
                if k not in props:
                    yield from errors(schema["additionalProperties"], v, root, f"{path}.{k}")
    if isinstance(x, list):
        prefix = schema.get("prefixItems", [])
        for i, s in enumerate(prefix[: len(x)]):
            yield from errors(s, x[i], root, f"{path}[{i}]")
        if "items" in schema:
            for i in range(len(prefix), len(x)):
                yield from errors(schema["items"], x[i], root, f"{path}[{i}]")
        if len(x) < schema.get("minItems", 0):
            yield f"{path}: fewer than {schema['minItems']} items"
        if "maxItems" in schema and len(x) > schema["maxItems"]:
            yield f"{path}: more than {schema['maxItems']} items"
        if schema.get("uniqueItems"):
            for i in range(len(x)):
                if any(json_equal(x[i], x[j]) for j in range(i)):
                    yield f"{path}: items are not unique"
                    break
    if is_number(x):
        if "minimum" in schema and x < schema["minimum"]:
            yield f"{path}: {x} is below {schema['minimum']}"
        if "maximum" in schema and x > schema["maximum"]:
            yield f"{path}: {x} is above {schema['maximum']}"
    if isinstance(x, str):
        if "pattern" in schema and not re.search(schema["pattern"], x):
            yield f"{path}: {x!r} does not match {schema['pattern']}"
        if len(x) < schema.get("minLength", 0):
            yield f"{path}: shorter than {schema['minLength']}"
    for s in schema.get("allOf", []):
        yield from errors(s, x, root, path)
    if "anyOf" in schema:
        if not any(not list(errors(s, x, root, path)) for s in schema["anyOf"]):
            yield f"{path}: matches none of the allowed forms (anyOf)"
    if "oneOf" in schema:
        n = sum(1 for s in schema["oneOf"] if not list(errors(s, x, root, path)))
        if n != 1:
            yield f"{path}: matches {n} of the oneOf forms, not exactly 1"
    if "not" in schema and not list(errors(schema["not"], x, root, path)):
        yield f"{path}: must not match the `not` schema"
    if "if" in schema:
        if not list(errors(schema["if"], x, root, path)):
            if "then" in schema:
                yield from errors(schema["then"], x, root, path)
        elif "else" in schema:
            yield from errors(schema["else"], x, root, path)


# ---------------------------------------------------------------------------------------
# The examples of docs/format.md

MARKER = re.compile(r"^<!--\s*check:\s*([a-z_]+)\s*-->\s*$")
KINDS = {"item": "#", "document": "#/$defs/document", "journal": "#/$defs/journal_record",
         "item_array": "#/$defs/item_array", "origin": "#/$defs/origin",
         "declared": "#/$defs/declared_item"}


def blocks(markdown):
    """(first line number, language, marker kind, text) of each ```json / ```jsonl block."""
    lines = markdown.splitlines()
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"^```(json|jsonl)\s*$", lines[i])
        if not m:
            i += 1
            continue
        lang = m.group(1)
        kind = "item"
        if i > 0:
            mk = MARKER.match(lines[i - 1].strip())
            if mk:
                kind = mk.group(1)
        start = i + 1
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        out.append((start + 1, lang, kind, "\n".join(lines[start:j])))
        i = j + 1
    return out


def slug(heading):
    """GitHub's anchor of a Markdown heading."""
    h = heading.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


# Items that break the format: each must be rejected.
BASE = {
    "chartom": {"id": "c", "benchmark": "chartom",
                "chart": {"pair": "P", "version": "original", "type": "bar", "manipulation": None},
                "fact": {"question": "q", "format": "choice", "options": ["a", "b"], "key": 2}},
    "chartom-qa": {"id": "q", "benchmark": "chartom-qa", "book": "Emma", "dimension": "belief",
                   "context": "c", "question": "q", "answer": "a", "bonus_points": ["p1", "p2"],
                   "responses": [{"model": "m", "text": "t"}]},
    "cvqa": {"id": "v", "benchmark": "cvqa", "split": "real", "group": "direct",
             "original": {"question": "q", "answer": "1"},
             "counterfactual": {"question": "q2", "answer": 2}},
}
AT = "2026-01-01T00:00:00Z"


def with_(bench, **changes):
    item = json.loads(json.dumps(BASE[bench]))
    for path, value in changes.items():
        node = item
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        if value is DELETE:
            del node[keys[-1]]
        else:
            node[keys[-1]] = value
    return item


DELETE = object()

BAD = [
    ("chartom without fact", "#", with_("chartom", fact=DELETE)),
    ("chart.version not in the enum", "#", with_("chartom", chart__version="edited")),
    ("chart without pair", "#", with_("chartom", chart__pair=DELETE)),
    ("fact.format not in the enum", "#", with_("chartom", fact__format="free")),
    ("choice key is a list", "#", with_("chartom", fact__key=[1, 2])),
    ("choice question without options", "#", with_("chartom", fact__options=DELETE)),
    ("rank key with option 0", "#",
     with_("chartom", fact__format="rank", fact__key=[0, 1])),
    ("number key is text", "#", with_("chartom", fact__format="number", fact__key="1.2")),
    ("human answer with three elements", "#",
     with_("chartom", fact__human_answers=[[1, 2, 3]])),
    ("human answer count negative", "#", with_("chartom", fact__human_answers=[[1, -2]])),
    ("strategies without skim", "#", with_("chartom", fact__strategies={"misled": 6})),
    ("hmi above 1", "#", with_("chartom", mind={"hmi": 1.5})),
    ("mind without hmi", "#", with_("chartom", mind={})),
    ("response mind above 1", "#",
     with_("chartom", responses=[{"model": "m", "mind": 2}])),
    ("justification not in the enum", "#",
     with_("chartom", reviews={"a": {"at": AT, "justification": "good"}})),
    ("per-model justification not in the enum", "#",
     with_("chartom", reviews={"a": {"at": AT, "models": {"m": {"justification": "great"}}}})),
    ("fact_correct not boolean", "#",
     with_("chartom", reviews={"a": {"at": AT, "fact_correct": "yes"}})),
    ("review without at", "#", with_("chartom", reviews={"a": {"justification": "misses"}})),
    ("final not boolean", "#", with_("chartom", reviews={"a": {"at": AT, "final": "yes"}})),
    ("seconds negative", "#", with_("chartom", reviews={"a": {"at": AT, "seconds": -1}})),
    ("response without model", "#", with_("chartom", responses=[{"fact": "1"}])),
    ("id is a number", "#", with_("chartom", id=3)),
    ("dimension not in the enum", "#", with_("chartom-qa", dimension="joy")),
    ("chartom-qa without bonus_points", "#", with_("chartom-qa", bonus_points=DELETE)),
    ("bonus point 0", "#", with_("chartom-qa", reviews={"a": {"at": AT, "bonus": [0]}})),
    ("bonus point repeated", "#",
     with_("chartom-qa", reviews={"a": {"at": AT, "bonus": [1, 1]}})),
    ("penalty a number", "#", with_("chartom-qa", reviews={"a": {"at": AT, "penalty": 3}})),
    ("context lengths not text", "#", with_("chartom-qa", context={"0": 1})),
    ("bonus_points not text", "#", with_("chartom-qa", bonus_points=[1, 2])),
    ("choice key 0", "#", with_("chartom-qa", choices=["a"], key=0)),
    ("status not in the enum", "#", with_("cvqa", reviews={"a": {"at": AT, "status": "maybe"}})),
    ("reason not in the enum", "#",
     with_("cvqa", reviews={"a": {"at": AT, "status": "reject", "reason": "typo"}})),
    ("reject without reason", "#", with_("cvqa", reviews={"a": {"at": AT, "status": "reject"}})),
    ("fix without a fixed field", "#",
     with_("cvqa", reviews={"a": {"at": AT, "status": "fix", "reason": "wrong-answer"}})),
    ("fix without reason", "#",
     with_("cvqa", reviews={"a": {"at": AT, "status": "fix", "fixed_answer": "3"}})),
    ("split not in the enum", "#", with_("cvqa", split="fake")),
    ("group abs_counting_9", "#", with_("cvqa", group="abs_counting_9")),
    ("counterfactual without answer", "#", with_("cvqa", counterfactual={"question": "q"})),
    ("original_correct not boolean", "#",
     with_("cvqa", reviews={"a": {"at": AT, "models": {"m": {"original_correct": 1}}}})),
    ("no benchmark and no book_name", "#", {"id": "x", "question": "q"}),
    ("evaluation line without bonus_points", "#",
     {"book_name": "Emma", "question": "q", "answer": "a", "response": "r"}),
    ("reserved key with a wrong type on another benchmark", "#",
     {"id": "g", "benchmark": "mmlu", "key": "B"}),
    ("document without items", "#/$defs/document", {"verdict": 1, "title": "t"}),
    ("document of version 2", "#/$defs/document", {"verdict": 2, "items": []}),
    ("document with a bad item", "#/$defs/document",
     {"verdict": 1, "items": [with_("cvqa", split="fake")]}),
    ("journal record without reviewer", "#/$defs/journal_record",
     {"item": 0, "id": None, "review": None}),
    ("journal record with a negative index", "#/$defs/journal_record",
     {"item": -1, "id": "a", "reviewer": "r", "review": None}),
]

# Valid, if unusual: each must be accepted.
GOOD = [
    ("unknown keys everywhere", "#",
     dict(with_("cvqa", source={"file": "q.csv", "row": 1}),
          reviews={"a": {"at": AT, "status": "accept", "x-extra": [1.0, 1e3]}})),
    ("chart type outside the five", "#", with_("chartom", chart__type="area")),
    ("manipulation null, no mind, no responses", "#", BASE["chartom"]),
    ("rank key with several accepted orders", "#",
     with_("chartom", fact__format="rank", fact__options=["a", "b", "c"],
           fact__key=[[1, 2, 3], [2, 1, 3]])),
    ("number question without options", "#",
     with_("chartom", fact__format="number", fact__key=1.2, fact__options=DELETE,
           fact__strategies={"misled": 6, "skim": 300}, fact__human_answers=[["1.2", 3]])),
    ("penalty null and no bonus point", "#",
     with_("chartom-qa", reviews={"a": {"at": AT, "bonus": [], "penalty": None}})),
    ("judge forms", "#",
     with_("chartom-qa", responses=[{"model": "a", "judge": {"bonus": "Null", "penalty": "None"}},
                                    {"model": "b", "judge": {"bonus": [1, "2"], "penalty": None}},
                                    {"model": "c", "judge": {"bonus": "1,2"}}])),
    ("final and verdict on another benchmark", "#",
     {"id": "g", "benchmark": "mmlu",
      "reviews": {"a": {"at": AT, "final": True, "verdict": "borderline", "seconds": 0}}}),
    ("synthetic group", "#", with_("cvqa", split="synthetic", group="abs_counting_6")),
    ("fix of the question only", "#",
     with_("cvqa", reviews={"a": {"at": AT, "status": "fix", "fixed_question": "q3",
                                  "reason": "ungrammatical"}})),
    ("bare array", "#/$defs/item_array", [BASE["cvqa"], BASE["chartom"]]),
    ("journal record of a removal", "#/$defs/journal_record",
     {"item": 3, "id": None, "reviewer": "r", "review": None}),
]


def main():
    passed = 0
    failed = []

    def check(ok, what):
        nonlocal passed
        if ok:
            passed += 1
        else:
            failed.append(what)

    try:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        print(f"FAIL {SCHEMA_PATH}: {e}")
        print("0 passed, 1 failed")
        return 1
    check(schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema",
          "schema: $schema is draft 2020-12")
    problems = []
    walk_schema(schema, "#", problems, schema)
    for p in problems:
        failed.append(f"schema: {p}")
    if not problems:
        passed += 1

    def validate(ref, instance):
        return list(errors(resolve(schema, ref), instance, schema))

    cases = []  # (what, ref, instance, should_pass)
    md = FORMAT_PATH.read_text(encoding="utf-8")
    found = blocks(md)
    check(len(found) >= 8, f"format.md: expected at least 8 JSON examples, found {len(found)}")
    for line, lang, kind, text in found:
        if kind not in KINDS:
            failed.append(f"format.md line {line}: unknown check marker {kind!r}")
            continue
        docs = ([(line, text)] if lang == "json" else
                [(line + k, t) for k, t in enumerate(text.splitlines()) if t.strip()])
        for at, t in docs:
            try:
                value = json.loads(t)
            except ValueError as e:
                failed.append(f"format.md line {at}: not valid JSON: {e}")
                continue
            passed += 1
            cases.append((f"format.md line {at} ({kind})", KINDS[kind], value, True))
    # Links within format.md point at headings that exist (GitHub's anchor rule).
    anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", md, flags=re.M)}
    for target in sorted(set(re.findall(r"\]\(#([^)]+)\)", md))):
        check(target in anchors, f"format.md: link to #{target}, which no heading has")
    for what, ref, inst in BAD:
        cases.append((f"rejects: {what}", ref, inst, False))
    for what, ref, inst in GOOD:
        cases.append((f"accepts: {what}", ref, inst, True))

    for what, ref, inst, should_pass in cases:
        errs = list(dict.fromkeys(validate(ref, inst)))
        if should_pass:
            check(not errs, f"{what}: " + "; ".join(errs[:5]))
        else:
            check(bool(errs), f"{what}: was accepted")

    # Optional cross-check with the `jsonschema` package, when it is there.
    try:
        import jsonschema  # noqa: PLC0415
    except ImportError:
        print("note: the jsonschema package is not installed; cross-check skipped")
    else:
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            passed += 1
        except jsonschema.exceptions.SchemaError as e:
            failed.append(f"jsonschema: the schema is not valid draft 2020-12: {e.message}")
        try:
            from referencing import Registry, Resource  # noqa: PLC0415
        except ImportError:
            Registry = None
        if Registry is None:
            print("note: the referencing package is missing; jsonschema cross-check skipped")
        else:
            base = "urn:verdict:result-set-item"
            registry = Registry().with_resource(base, Resource.from_contents(schema))
            for what, ref, inst, should_pass in cases:
                v = jsonschema.Draft202012Validator({"$ref": base + ref}, registry=registry)
                ok = v.is_valid(inst)
                check(ok == should_pass,
                      f"jsonschema: {what}: valid={ok}, expected valid={should_pass}")

    for f in failed:
        print(f"FAIL {f}")
    print(f"{passed} passed, {len(failed)} failed")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
