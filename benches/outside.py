#!/usr/bin/env python3
"""Measure the release binary from outside, as a person would: in tmux, reading the screen.

    benches/outside.py big FILE    open, index, 200 steps, a jump by id, searches typed
                                   letter by letter, memory, a verdict, quit (the shell
                                   back), the fold, the reopen with the kept index and its
                                   first search; each beside its floor
    benches/outside.py folder DIR  an lm-eval output folder of 100 samples files of 1,000
                                   lines (written into DIR from the real fixture's lines
                                   when DIR does not exist) opened as one set: the first
                                   item, the count, the index, a verdict and quit

FILE is a generated set (`cargo bench --bench generate -- N DIR`); it gets one verdict.
Times are from the key (or the start) to the first screen that shows its effect, polled
with `tmux capture-pane` (a poll costs 2-5 ms: figures under ~10 ms are at that
resolution); a search keystroke's time is to the screen's last change before it stays
the same for 4 s (its matches come in as nucleo finds them). The load average is printed
with every figure. Each run uses a data and a config folder of its own
(VERDICT_DATA_DIR, VERDICT_CONFIG_DIR) in a temporary folder, so it finds no kept index
and no session of an earlier run. docs/performance.md has the figures.
"""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("VERDICT_BIN", os.path.join(ROOT, "target", "release", "verdict"))
SESSION = "verdict-outside-%d" % os.getpid()


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


# VERDICT_TMUX_SOCKET: a tmux server of its own (`tmux -L NAME`), not the default one.
TMUX = ["tmux"] + (["-L", os.environ["VERDICT_TMUX_SOCKET"]] if os.environ.get("VERDICT_TMUX_SOCKET") else [])


def tmux(*args):
    return subprocess.run([*TMUX, *args], check=True, capture_output=True, text=True).stdout


def screen():
    return tmux("capture-pane", "-p", "-t", SESSION)


def wait_for(pred, timeout=600.0, every=0.002):
    """Poll the screen until pred(screen) holds; the seconds it took and the screen."""
    t0 = time.monotonic()
    while True:
        s = screen()
        if pred(s):
            return time.monotonic() - t0, s
        if time.monotonic() - t0 > timeout:
            raise SystemExit("timed out; the screen:\n" + s)
        time.sleep(every)


def keys(*k):
    tmux("send-keys", "-t", SESSION, *k)


def pid():
    return int(tmux("display-message", "-p", "-t", SESSION, "#{pane_pid}").strip())


def memory(p):
    """Private memory of process p: Anonymous and Private_Dirty of smaps_rollup, in MiB."""
    out = {}
    with open("/proc/%d/smaps_rollup" % p) as f:
        for line in f:
            k, _, v = line.partition(":")
            if k in ("Anonymous", "Private_Dirty", "Rss"):
                out[k] = int(v.split()[0]) / 1024
    return out


def start(file, w, h, env):
    cmd = "exec %s --reviewer bench --image-protocol none %s" % (BIN, file)
    t0 = time.monotonic()
    subprocess.run(
        [*TMUX, "new-session", "-d", "-s", SESSION, "-x", str(w), "-y", str(h), cmd],
        check=True,
        env=env,
    )
    tmux("set-option", "-t", SESSION, "remain-on-exit", "on")
    return t0


def alive(p):
    try:
        os.kill(p, 0)
    except ProcessLookupError:
        return False
    # a zombie (remain-on-exit keeps the pane) has exited
    with open("/proc/%d/stat" % p) as f:
        return f.read().split(")")[-1].split()[0] != "Z"


def quit_and_wait(p, every):
    """Press q and wait until process p has exited, polling every `every` seconds."""
    keys("q")
    while alive(p):
        time.sleep(every)


def kill_session():
    subprocess.run([*TMUX, "kill-session", "-t", SESSION], capture_output=True)


def row(what, secs, floor="", note=""):
    print("| %s | %s | %s | %s | %s |" % (what, fmt(secs), floor, load(), note), flush=True)


def fmt(secs):
    if isinstance(secs, str):
        return secs
    return "%.0f ms" % (secs * 1000) if secs < 10 else "%.1f s" % secs


def timed(cmd):
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.monotonic() - t0


def last_id(file):
    import json

    with open(file, "rb") as f:
        f.seek(max(0, os.path.getsize(file) - 200_000))
        line = f.read().rstrip(b"\n").split(b"\n")[-1]
    return json.loads(line)["id"]


def folds_running(file):
    """verdict processes folding `file` (started by the reviewer after `q`)."""
    n = 0
    for d in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(d, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if b"__fold" in argv and any(a.endswith(os.path.basename(file).encode()) for a in argv):
            n += 1
    return n


def settle(press, quiet=4.0, timeout=120.0, every=0.002):
    """Press keys (`press()`) and poll the screen until it has not changed for `quiet`
    seconds: the seconds from the press to its last change (search's matches come in
    when nucleo has them: the last change is the keystroke's answer)."""
    last = screen()
    t0 = time.monotonic()
    press()
    changed = t0
    while True:
        s, now = screen(), time.monotonic()
        if s != last:
            last, changed = s, now
        elif now - changed >= quiet:
            return changed - t0
        if now - t0 > timeout:
            raise SystemExit("never settled; the screen:\n" + s)
        time.sleep(every)


def cpu_ms(p):
    """The CPU time process p has used (user + system, every thread), in ms."""
    with open("/proc/%d/stat" % p) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


SEARCHED = ["flowers purple", "how many", "real-0004", "aeiou", "real"]


def search_rows(p, queries=SEARCHED):
    """In the open reviewer, with its index: each query typed into the search (`/`) one
    letter at a time, each letter's time until the screen settles (its matches all
    there) and the CPU it took; a row per query, its slowest keystroke."""
    for q in queries:
        keys("/")
        wait_for(lambda s: "Search" in s)
        times, cpus = [], []
        for c in q:
            c0 = cpu_ms(p)
            times.append(settle(lambda: keys("-l", c)))
            cpus.append(cpu_ms(p) - c0)
        slowest = max(range(len(q)), key=lambda k: times[k])
        row("search %r: each keystroke until its matches, the slowest" % q, times[slowest], "",
            "%r, CPU %.0f ms; every key: %s" % (q[: slowest + 1], cpus[slowest],
            ", ".join("%.0f (CPU %.0f)" % (t * 1000, c) for t, c in zip(times, cpus))))
        keys("Escape")
        wait_for(lambda s: "Search" not in s)


def big(file):
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    size = os.path.getsize(file)
    print("file %s, %.0f MB; load average %s" % (file, size / 1e6, load()))
    print("| step | time | floor | load average | note |")
    print("| --- | ---: | --- | --- | --- |")
    timed(["wc", "-l", file])  # warm the page cache as far as it holds the file
    row("floor: `wc -l` (newline scan)", timed(["wc", "-l", file]))
    row("floor: `head -1` (a process reads the first line)", timed(["head", "-1", file]))
    row("floor: `verdict --version` (the binary starts and exits)", timed([BIN, "--version"]))
    t0 = start(file, 80, 24, env)
    try:
        wait_for(lambda s: "/" in s.split("\n")[0] and "·" in s.split("\n")[0])
        # from the start (t0, before tmux starts the binary), not from the first poll
        row("first frame (start → the first item on screen)", time.monotonic() - t0)
        p = pid()
        m = memory(p)
        row("private memory at the first frame", "%.0f MiB" % m["Anonymous"], "", "%.4f× the file" % (m["Anonymous"] * 2**20 / size))
        t, s = wait_for(lambda s: "still reading" not in s)
        row("the whole file read: the count known (from the start)", time.monotonic() - t0)
        t, s = wait_for(lambda s: "indexing" not in s and "still reading" not in s)
        row("index: search and filters ready (from the start)", time.monotonic() - t0)
        m = memory(p)
        row("private memory, index built", "%.0f MiB" % m["Anonymous"], "", "%.4f× the file" % (m["Anonymous"] * 2**20 / size))
        t1 = time.monotonic()
        keys(*(["n"] * 200))
        t, s = wait_for(lambda s: " 201/" in s.split("\n")[0])
        t = time.monotonic() - t1
        row("200 steps (`n` × 200 sent at once → item 201 on screen)", t, "", "%.1f ms a step" % (t * 5))
        ident = last_id(file)
        t1 = time.monotonic()
        keys(":", ident, "Enter")
        t, s = wait_for(lambda s: ident in s.split("\n")[0] and ":" not in s.split("\n")[-1][:3])
        row("jump by id to the last item (`:` id Enter)", time.monotonic() - t1, "", ident)
        m = memory(p)
        row("private memory after the steps and the jump", "%.0f MiB" % m["Anonymous"], "", "%.4f× the file" % (m["Anonymous"] * 2**20 / size))
        idx = glob.glob(tmp + "/data/index/*.idx")
        if idx:
            timed(["cat", idx[0]])
            row("floor: `grep -c e` of the kept index (every search text read once, %.0f MB)" % (os.path.getsize(idx[0]) / 1e6), timed(["grep", "-c", "e", idx[0]]))
        search_rows(p)
        m = memory(p)
        row("private memory after the searches", "%.0f MiB" % m["Anonymous"], "", "%.4f× the file" % (m["Anonymous"] * 2**20 / size))
        keys("1")
        wait_for(lambda s: "journaled" in s.split("\n")[0])
        t1 = time.monotonic()
        quit_and_wait(p, 0.0005)
        row("quit with a verdict to fold: `q` → the shell back", time.monotonic() - t1)
        while folds_running(file) or glob.glob(file + ".folding") or glob.glob(
            os.path.join(os.path.dirname(file), "." + os.path.basename(file) + ".*.verdict-journal*")
        ):
            time.sleep(0.01)
        row("the fold done (the file holds the verdict; its kept index written)", time.monotonic() - t1)
        kill_session()
        idx = glob.glob(tmp + "/data/index/*.idx")
        t0 = start(file, 80, 24, env)
        wait_for(lambda s: "/" in s.split("\n")[0] and "·" in s.split("\n")[0])
        row("reopen: first frame (at the saved position, the last item)", time.monotonic() - t0)
        t, s = wait_for(lambda s: "indexing" not in s and "still reading" not in s)
        row("reopen: search and filters ready (the kept index)", time.monotonic() - t0, "`cat` of the kept index %s" % fmt(timed(["cat"] + idx[:1])) if idx else "")
        keys("/")
        wait_for(lambda s: "Search" in s)
        t1 = time.monotonic()
        t = settle(lambda: keys("e"))
        row("reopen: the first search answered (from the start: `/`, \"e\", its matches all there)", t1 + t - t0)
        keys("Escape")
        wait_for(lambda s: "Search" not in s)
        keys("q")
        p = pid()
        while alive(p):
            time.sleep(0.001)
    finally:
        kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


FIXTURE = os.path.join(ROOT, "tests/fixtures/real-logs/lm-eval/set/example__fixed-1b")


def make_folder(out, files=100, lines=1000):
    """lm-eval output: 2 model folders, `files` samples files of `lines` lines, each a
    real fixture line (lm_eval 0.4.13's vr_vote) with its doc_id renumbered and its
    prompt lengthened to ~3 KB, as a few-shot task's are."""
    import json
    src = sorted(glob.glob(os.path.join(FIXTURE, "samples_vr_vote_*.jsonl")))[0]
    with open(src) as f:
        template = [json.loads(l) for l in f if l.strip()]
    shots = "Question: What is 12 + 30?\nAnswer: 42\n\n" * 70
    for k in range(files):
        model = "org__model-%d" % (k % 2)
        os.makedirs(os.path.join(out, model), exist_ok=True)
        path = os.path.join(out, model, "samples_task%02d_2026-11-29T10-00-00.000000.jsonl" % (k // 2))
        with open(path, "w") as f:
            for i in range(lines):
                d = dict(template[i % len(template)])
                d["doc_id"] = i
                args = json.loads(json.dumps(d["arguments"]))
                args["gen_args_0"]["arg_0"] = shots + args["gen_args_0"]["arg_0"]
                d["arguments"] = args
                f.write(json.dumps(d) + "\n")


def folder(out):
    if not os.path.exists(out):
        make_folder(out)
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    files = glob.glob(os.path.join(out, "*", "samples_*.jsonl"))
    size = sum(os.path.getsize(f) for f in files)
    print("folder %s: %d samples files, %.0f MB; load average %s" % (out, len(files), size / 1e6, load()))
    print("| step | time | floor | load average | note |")
    print("| --- | ---: | --- | --- | --- |")
    timed(["cat"] + files)  # warm the page cache
    row("floor: `cat` of every samples file", timed(["cat"] + files))
    row("floor: `verdict --version` (the binary starts and exits)", timed([BIN, "--version"]))
    t0 = start(out, 80, 24, env)
    try:
        wait_for(lambda s: "/" in s.split("\n")[0] and "·" in s.split("\n")[0])
        row("first frame (start → the first item on screen)", time.monotonic() - t0)
        t, s = wait_for(lambda s: "indexing" not in s and "still reading" not in s)
        row("index: search and filters ready (from the start)", time.monotonic() - t0, "", s.split("\n")[0].strip())
        p = pid()
        keys("1")
        wait_for(lambda s: "journaled" in s.split("\n")[0])
        t1 = time.monotonic()
        quit_and_wait(p, 0.0005)
        row("quit with a verdict to fold: `q` → the shell back", time.monotonic() - t1)
    finally:
        kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "big":
        big(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "folder":
        folder(sys.argv[2])
    else:
        raise SystemExit(__doc__)
