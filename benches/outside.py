#!/usr/bin/env python3
"""Measure the release binary from outside, as a person would: in tmux, reading the screen.

    benches/outside.py big FILE          open, index, 200 steps, a jump by id, memory,
                                         a verdict, quit (shell back), the fold, the
                                         kept index's reopen, `verdict stats`
    benches/outside.py keys FILE         a long item: per key (j, PageDown, n, p) until
                                         the screen changes, and memory
    benches/outside.py moved FILE        a session that skips an item near the end and
                                         quits; a line put before every item (the file
                                         CHANGED: keep a copy); the reopen: first frame,
                                         the saved place and skip found again
    benches/outside.py changed FILE      another program saves the open file (a line
                                         appended, renamed over it: the file CHANGED,
                                         keep a copy): `n`
                                         pressed every 0.1 s meanwhile, each key's time
                                         until the screen shows the next item, until the
                                         changed file is taken up and a few keys after
    benches/outside.py carried FILE SAVED
                                         another verdict session's save of the open
                                         file (SAVED, e.g. from `saved-by-colleague`:
                                         copied beside FILE and renamed over it; FILE
                                         CHANGED): from the save until the changed file
                                         is on screen, and until search and filters work
                                         on it (the footer's "anyone"), and the CPU the
                                         process used meanwhile
    benches/outside.py reopened FILE SAVED
                                         the first open after another verdict session's
                                         save (SAVED renamed over FILE while no session
                                         has it open; FILE CHANGED): a session opens FILE
                                         and keeps its index, quits; SAVED goes in; the
                                         reopen, quiet and with a shell loop busy on CPU 0:
                                         until search and filters work (the footer's
                                         "anyone"), the CPU the process used, and how the
                                         index was made (the log)
    benches/outside.py saved-by-colleague FILE OUT
                                         write OUT: FILE as a colleague's save leaves it
                                         (a note of "dave" on every 1000th item that has
                                         no review yet, and one item appended)
    benches/outside.py long-lm-eval OUT  write the long item "keys" is run on: lm-eval's
                                         gsm8k sample log (sample-data/lm-eval) with its
                                         first prompt 20 MB of words (seeded), into the
                                         folder OUT (OUT/example__tiny-llama-1b/samples_…)
    benches/outside.py long-layouts OUT  the same 20 MB of words in every other layout,
                                         into OUT: generic.jsonl (a question),
                                         chartom.jsonl (a FACT question), chartom-qa.jsonl
                                         (the 2000-word context), inspect-input.json and
                                         inspect-messages.json (an Inspect log's first
                                         sample's input, a text and a user message)

Times are from the key (or the start) to the first screen that shows its effect, polled
with `tmux capture-pane` (a poll costs 2-5 ms: figures under ~10 ms are at that
resolution). The load average is printed with every figure. Each run uses a data and a
config folder of its own (VERDICT_DATA_DIR, VERDICT_CONFIG_DIR) in a temporary folder,
so it finds no kept index and no session of an earlier run. docs/performance.md, "10M
items" and "Long lines", has the figures and how they were run (benches/big.sh).
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


def big(file):
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    size = os.path.getsize(file)
    print("file %s, %.0f MB; load average %s" % (file, size / 1e6, load()))
    print("| step | time | floor | load average | note |")
    print("| --- | ---: | --- | --- | --- |")
    timed(["wc", "-l", file])  # warm the page cache as far as it holds the file
    row("floor: `wc -l` (newline scan)", timed(["wc", "-l", file]))
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
        row("200 steps (`n` × 200 sent at once → item 201 on screen)", time.monotonic() - t1)
        ident = last_id(file)
        t1 = time.monotonic()
        keys(":", ident, "Enter")
        t, s = wait_for(lambda s: ident in s.split("\n")[0] and ":" not in s.split("\n")[-1][:3])
        row("jump by id to the last item (`:` id Enter)", time.monotonic() - t1, "", ident)
        m = memory(p)
        row("private memory after the steps and the jump", "%.0f MiB" % m["Anonymous"], "", "%.4f× the file" % (m["Anonymous"] * 2**20 / size))
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
        t0 = start(file, 80, 24, env)
        wait_for(lambda s: "/" in s.split("\n")[0] and "·" in s.split("\n")[0])
        row("reopen: first frame (at the saved position, the last item)", time.monotonic() - t0)
        t, s = wait_for(lambda s: "indexing" not in s and "still reading" not in s)
        row("reopen: search and filters ready (the kept index)", time.monotonic() - t0)
        keys("q")
        p = pid()
        while alive(p):
            time.sleep(0.001)
    finally:
        kill_session()
    row("`verdict stats FILE`", timed([BIN, "stats", file]), "the plain `Value` parse: `cargo bench --bench store -- --stats-only`")
    shutil.rmtree(tmp, ignore_errors=True)


def header():
    return screen().split("\n")[0]


def id_at(file, n):
    """The id of item n (1-based) of a JSONL file."""
    import itertools
    import json

    with open(file, "rb") as f:
        return json.loads(next(itertools.islice(f, n - 1, None)))["id"]


def moved(file):
    """Skip an item near the end, quit, put a line before every item (another program
    changed the file between sessions), reopen: the first frame, and the saved place and
    skip found again by id."""
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    print("file %s, %.0f MB; load average %s" % (file, os.path.getsize(file) / 1e6, load()))
    print("| step | time | floor | load average | note |")
    print("| --- | ---: | --- | --- | --- |")
    n = sum(1 for _ in open(file, "rb"))
    k = n - 10
    skipped, after = id_at(file, k), id_at(file, k + 1)
    try:
        start(file, 80, 24, env)
        # the index built and kept (the usual day before the file changes)
        wait_for(lambda s: "indexing" not in s and "still reading" not in s and "·" in s)
        keys(":", str(k), "Enter")
        wait_for(lambda s: skipped in s.split("\n")[0])
        keys("S")
        wait_for(lambda s: after in s.split("\n")[0])
        p = pid()
        quit_and_wait(p, 0.001)
        kill_session()
        # another program puts a line before every item
        t1 = time.monotonic()
        with open(file, "rb") as f:
            first = f.readline()
        line = first.replace(b'"id": "', b'"id": "prepended-', 1).replace(b'"id":"', b'"id":"prepended-', 1)
        with open(file + ".new", "wb") as out, open(file, "rb") as f:
            out.write(line)
            shutil.copyfileobj(f, out, 1 << 24)
        os.replace(file + ".new", file)
        print("(a line put before every item: %.1f s)" % (time.monotonic() - t1))
        timed(["wc", "-l", file])  # warm the page cache
        t0 = start(file, 80, 24, env)
        wait_for(lambda s: "/" in s.split("\n")[0] and "·" in s.split("\n")[0], every=0.001)
        row("reopen: first frame", time.monotonic() - t0, "", header().strip()[:60])
        wait_for(lambda s: after in s.split("\n")[0], every=0.01)
        row("reopen: the saved item on screen (one further down)", time.monotonic() - t0)
        time.sleep(0.7)
        keys(":", str(k + 1), "Enter")
        _, s = wait_for(lambda s: skipped in s.split("\n")[0])
        print("the skipped item, now %d: %s" % (k + 1, "skipped" if "skipped" in s.split("\n")[0] else "NOT SKIPPED"))
        p = pid()
        quit_and_wait(p, 0.001)
    finally:
        kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


def changed(file):
    """Another program appends a line to the open file: how long keys go unanswered while
    the reviewer reads it again and takes it up."""
    import json
    import re

    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    print("file %s, %.0f MB; load average %s" % (file, os.path.getsize(file) / 1e6, load()))
    pos = lambda s: re.search(r"(\d+)/(\d+)", s.split("\n")[0])
    try:
        start(file, 80, 24, env)
        # the index there (the footer counts "anyone")
        wait_for(lambda s: "anyone" in s)
        m = pos(screen())
        total = int(m.group(2))
        with open(file, "rb") as f:
            f.seek(max(0, os.path.getsize(file) - 200_000))
            last = f.read().rstrip(b"\n").split(b"\n")[-1]
        item = json.loads(last)
        item["id"] = "appended-" + str(item.get("id"))
        # another program's save: the file with a line more, written aside and renamed
        # into place (as every save does)
        with open(file + ".new", "wb") as out, open(file, "rb") as f:
            shutil.copyfileobj(f, out, 1 << 24)
            out.write(json.dumps(item).encode() + b"\n")
        t_change = time.monotonic()
        os.replace(file + ".new", file)
        print("a line appended at t=0 (%d items before; written aside, renamed over the file)" % total)
        print("| key sent at | answered after | items on screen | status | load average |")
        print("| ---: | ---: | ---: | --- | --- |")
        worst, taken_up, after = 0.0, None, 0
        while after < 5 and time.monotonic() - t_change < 300:
            before = int(pos(screen()).group(1))
            t0 = time.monotonic()
            keys("n")
            dt, s = wait_for(lambda s: pos(s) and int(pos(s).group(1)) != before, timeout=300, every=0.002)
            worst = max(worst, dt)
            m = pos(s)
            status = s.rstrip("\n").split("\n")[-1].strip()[:40]
            print("| %.2f s | %s | %s | %s | %s |" % (t0 - t_change, fmt(dt), m.group(2), status, load()), flush=True)
            if int(m.group(2)) != total and taken_up is None:
                taken_up = time.monotonic() - t_change
            if taken_up is not None:
                after += 1
            time.sleep(0.1)
        print("the changed file on screen %.2f s after the change; the slowest key %s" % (taken_up or -1, fmt(worst)))
        p = pid()
        quit_and_wait(p, 0.001)
    finally:
        kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


def cpu_of(p):
    """CPU seconds (user + system) process p has used so far."""
    with open("/proc/%d/stat" % p) as f:
        fields = f.read().split(")")[-1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def carried(file, saved):
    """Another verdict session saves the open file: how long until the changed file is
    shown, and until search and filters work on it, and the CPU spent meanwhile."""
    import re

    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    print("file %s, %.0f MB; %s; load average %s" % (file, os.path.getsize(file) / 1e6, BIN, load()))
    pos = lambda s: re.search(r"(\d+)/(\d+)", s.split("\n")[0])
    try:
        t_start = start(file, 80, 24, env)
        wait_for(lambda s: "anyone" in s)
        # and kept (the index in place, as a session has it from then on)
        while not glob.glob(tmp + "/data/index/*.idx"):
            time.sleep(0.05)
        time.sleep(1.0)
        print("first open: search and filters ready, the index kept, after %.1f s" % (time.monotonic() - t_start))
        total = int(pos(screen()).group(2))
        p = pid()
        shutil.copyfile(saved, file + ".new")
        cpu0, t0 = cpu_of(p), time.monotonic()
        os.replace(file + ".new", file)
        shown = None
        while time.monotonic() - t0 < 600:
            s = screen()
            m = pos(s)
            now = time.monotonic() - t0
            if shown is None and m and int(m.group(2)) != total:
                shown = now
            if shown is not None and "anyone" in s:
                ready = now
                break
            time.sleep(0.005)
        else:
            raise SystemExit("timed out; the screen:\n" + screen())
        cpu1 = cpu_of(p)
        mem = memory(p)
        # and once what the file as it was held is let go of (the release thread)
        time.sleep(10)
        later = memory(p)
        print("| the changed file on screen | search and filters work on it | CPU of the process meanwhile | private memory then, and 10 s later | load average |")
        print("| ---: | ---: | ---: | ---: | --- |")
        print("| %.2f s | %.2f s | %.1f s | %.0f MiB, %.0f MiB | %s |" % (shown, ready, cpu1 - cpu0, mem.get("Anonymous", 0), later.get("Anonymous", 0), load()), flush=True)
        quit_and_wait(p, 0.01)
    finally:
        kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


def reopened(file, saved):
    """The first open after another verdict session's save: the earlier session's kept
    index carried across, quiet and with one core busy."""
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    print("file %s, %.0f MB; %s; load average %s" % (file, os.path.getsize(file) / 1e6, BIN, load()))

    def open_until_ready():
        t0 = start(file, 80, 24, env)
        p = pid()
        wait_for(lambda s: "anyone" in s)
        ready, cpu = time.monotonic() - t0, cpu_of(p)
        while not glob.glob(tmp + "/data/index/*.idx"):
            time.sleep(0.05)
        time.sleep(2.0)
        quit_and_wait(p, 0.01)
        kill_session()
        with open(tmp + "/data/verdict.log") as f:
            made = [l.strip() for l in f if "index of " in l][-1:]
        return ready, cpu, made

    def busy_loop():
        return subprocess.Popen(["taskset", "-c", "0", "sh", "-c", "while :; do :; done"])

    def put(src):
        shutil.copyfile(src, file + ".new")
        os.replace(file + ".new", file)

    orig = file + ".orig"
    shutil.copyfile(file, orig)
    print("| open | search and filters work | CPU of the process | how the index was made (the log) | load average |")
    print("| --- | ---: | ---: | --- | --- |")
    try:
        for what, src, busy in (
            ("first open (no kept index)", None, False),
            ("reopen after the save", saved, False),
            ("reopen after the save (back to the first file), one core busy", orig, True),
            ("first open (no kept index), one core busy", None, True),
        ):
            if src:
                put(src)
            else:
                shutil.rmtree(tmp + "/data/index", ignore_errors=True)
            loop = busy_loop() if busy else None
            try:
                ready, cpu, made = open_until_ready()
            finally:
                if loop:
                    loop.kill()
            print("| %s | %.2f s | %.1f s | %s | %s |" % (what, ready, cpu, " ".join(made)[-90:], load()), flush=True)
    finally:
        kill_session()
        os.replace(orig, file)
    shutil.rmtree(tmp, ignore_errors=True)


def saved_by_colleague(file, out):
    import json

    changed = 0
    last = None
    with open(file, "rb") as f, open(out, "wb") as o:
        for k, line in enumerate(f):
            body = line.rstrip(b"\r\n")
            if k % 1000 == 500 and b'"reviews"' not in body and body.endswith(b"}"):
                body = body[:-1] + b', "reviews": {"dave": {"note": "seen by dave"}}}'
                changed += 1
            o.write(body + b"\n")
            if body.strip():
                last = body
        item = json.loads(last)
        item["id"] = "appended-" + str(item.get("id"))
        o.write(json.dumps(item).encode() + b"\n")
    print("%s: %d items changed, one appended" % (out, changed))


def long_keys(file):
    tmp = tempfile.mkdtemp(prefix="verdict-outside-")
    env = dict(os.environ, VERDICT_DATA_DIR=tmp + "/data", VERDICT_CONFIG_DIR=tmp + "/config")
    print("file %s, %.0f MB; load average %s" % (file, os.path.getsize(file) / 1e6, load()))
    for w, h in ((80, 24), (200, 50)):
        print("\n%d×%d" % (w, h))
        print("| key | median | max | load average | private memory |")
        print("| --- | ---: | ---: | --- | ---: |")
        t0 = start(file, w, h, env)
        try:
            wait_for(lambda s: "lines" in s)
            # from the start (t0, before tmux starts the binary), not from the first poll
            first = time.monotonic() - t0
            p = pid()
            print("| first frame | %s | | %s | %.0f MiB |" % (fmt(first), load(), memory(p)["Anonymous"]))
            times = {}

            def press(k):
                before = screen()
                t1 = time.monotonic()
                keys(k)
                wait_for(lambda s: s != before)
                times.setdefault(k, []).append(time.monotonic() - t1)
                time.sleep(0.02)

            for k, reps in (("j", 30), ("PageDown", 30), ("k", 10)):
                for _ in range(reps):
                    press(k)
            # leave the long item (the next is short) and show it again
            for _ in range(5):
                press("n")
                press("p")
            for k in ("j", "PageDown", "k", "n", "p"):
                ts = sorted(times[k])
                print(
                    "| %s | %s | %s | %s | %.0f MiB |"
                    % (k, fmt(ts[len(ts) // 2]), fmt(ts[-1]), load(), memory(p)["Anonymous"])
                )
            print("```\n" + screen() + "```")
        finally:
            kill_session()
    shutil.rmtree(tmp, ignore_errors=True)


def twenty_mb_of_words():
    """20 MB of words (seeded)."""
    import random

    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    rng = random.Random(21)
    parts, n = [], 0
    while n < 20_000_000:
        w = rng.choice(words)
        parts.append(w)
        n += len(w) + 1
    return parts


def long_lm_eval(out):
    """The gsm8k sample log with its first prompt replaced by 20 MB of words."""
    import json

    name = "samples_gsm8k_2026-11-20T10-15-42.518246.jsonl"
    src = os.path.join(ROOT, "sample-data", "lm-eval", "example__tiny-llama-1b", name)
    parts = twenty_mb_of_words()
    with open(src) as f:
        lines = f.read().splitlines()
    first = json.loads(lines[0])
    first["arguments"]["gen_args_0"]["arg_0"] = "Question: " + " ".join(parts) + "\nAnswer:"
    lines[0] = json.dumps(first)
    os.makedirs(os.path.join(out, "example__tiny-llama-1b"), exist_ok=True)
    path = os.path.join(out, "example__tiny-llama-1b", name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(path)


def long_layouts(out):
    """The samples of every other layout with 20 MB of words in their first item."""
    import json

    text = " ".join(twenty_mb_of_words())
    os.makedirs(out, exist_ok=True)

    def jsonl(name, change):
        with open(os.path.join(ROOT, "sample-data", name)) as f:
            lines = f.read().splitlines()
        first = json.loads(lines[0])
        change(first)
        lines[0] = json.dumps(first)
        path = os.path.join(out, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        print(path)

    jsonl("generic.jsonl", lambda it: it.__setitem__("question", text))
    jsonl("chartom.jsonl", lambda it: it["fact"].__setitem__("question", text))
    jsonl("chartom-qa.jsonl", lambda it: it["context"].__setitem__("2000", text))
    log = os.path.join(ROOT, "tests", "fixtures", "real-logs", "inspect", "logs", "vr_mc.json")
    for name, value in (
        ("inspect-input.json", text),
        ("inspect-messages.json", [{"role": "user", "content": text}]),
    ):
        with open(log) as f:
            d = json.load(f)
        s = d["samples"][0]
        s["input"] = value
        for m in s.get("messages") or []:
            if m.get("role") == "user":
                m["content"] = text
        path = os.path.join(out, name)
        with open(path, "w") as f:
            json.dump(d, f, indent=2)  # as Inspect writes it (its sniffer asks)
        print(path)


if __name__ == "__main__":
    commands = {
        "big": big,
        "keys": long_keys,
        "long-lm-eval": long_lm_eval,
        "long-layouts": long_layouts,
        "moved": moved,
        "changed": changed,
    }
    two = {"carried": carried, "reopened": reopened, "saved-by-colleague": saved_by_colleague}
    if len(sys.argv) == 4 and sys.argv[1] in two:
        two[sys.argv[1]](sys.argv[2], sys.argv[3])
    elif len(sys.argv) != 3 or sys.argv[1] not in commands:
        raise SystemExit(__doc__)
    else:
        commands[sys.argv[1]](sys.argv[2])
