#!/usr/bin/env python3
"""Mutation fuzzing of the analysis stages themselves, on prof-tsv streams
with extreme integer values (issue 14).

The libFuzzer harnesses run library code in-process; the stages keep
their state in statics and end with exit(), so they are run here as the
programs of a sanitizer build (./configure --enable-sanitizers), one
process per stage and input.  Each round takes a seed stream, mutates it
towards the ends of the format's integers (a value set to one of them,
the times moved near -(2^63) + 1 or 2^63 - 1, durations scaled to 2^62,
records repeated until sums pass 2^63, many devices, devices named by
text, ill-formed UTF-8 in names, a stream cut short), mostly keeps it in
time order, and runs every stage on it, chained as a pipeline, then
prof-render's JSON formats on the result.

A finding is a run that ends with a signal or a status other than 0 or
1, a status of 1 without a diagnostic, a sanitizer report, an "internal
error", output that is not valid JSON (render), or a percentile or
average of a non-negative metric that is negative.  Each finding's input
is written to OUT/finding-N.tsv with a note of what happened.

    python3 fuzz/stages.py --tools BUILD/tools --seeds DIR... \\
        --time SECONDS --out DIR [--seed N] [--skip prof-steps,...]
    python3 fuzz/stages.py --tools BUILD/tools --replay FILE...

--replay runs the same checks on the FILEs as they are (no mutation):
the findings kept in fuzz/regress/stage, once fixed, pass.

One line per minute reports rounds, executions, distinct outcomes (a
stage, its status and its first diagnostic with the numbers taken out)
and findings; the run is at a plateau when the outcomes stop growing.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

MAX = 2**63 - 1
EXTREMES = [0, 1, -1, 2**31, 2**32, 2**53 + 1, 2**62 - 1, 2**62, 2**62 + 1,
            MAX - 1, MAX, -MAX, -(2**63), 2**63, 10**18, -(10**18)]
INT_COLS = ("ts_ns", "dur_ns", "wait_ns", "flops", "bytes", "value",
            "calls", "busy_ns", "covered_ns", "budget_ns", "step")
CHAIN = ["prof-steps", "prof-merge", "prof-bubbles", "prof-attrib",
         "prof-waitanchor", "prof-layers", "prof-roofline", "prof-verdict"]
STATS = re.compile(r"_(avg|median|p90|p95)$")


def parse(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    pre = [l for l in lines if l.startswith("#")]
    rest = [l for l in lines if not l.startswith("#")]
    if not rest:
        return None
    return pre, rest[0].split("\t"), [l.split("\t") for l in rest[1:]]


def unparse(pre, cols, recs):
    return "\n".join(pre + ["\t".join(cols)] +
                     ["\t".join(r) for r in recs]) + "\n"


def as_int(s):
    try:
        return int(s)
    except ValueError:
        return None


def mutate(rng, pre, cols, recs):
    recs = [list(r) for r in recs]
    idx = {c: i for i, c in enumerate(cols)}
    its, idur = idx.get("ts_ns", 1), idx.get("dur_ns", 2)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        if not recs:
            break
        r = rng.choice(recs)
        if op == 0:		# one integer field to an extreme
            c = rng.choice([c for c in INT_COLS if c in idx] or ["ts_ns"])
            r[idx.get(c, its)] = str(rng.choice(EXTREMES))
        elif op == 1:		# every time moved near one end
            base = rng.choice([-MAX, MAX - 2**62, 2**62, -2**62])
            first = min((as_int(x[its]) for x in recs
                         if as_int(x[its]) is not None), default=0)
            for x in recs:
                t = as_int(x[its])
                if t is not None:
                    x[its] = str(t - first + base)
        elif op == 2:		# durations scaled up
            k = rng.choice([2**20, 2**40, 2**60])
            for x in recs:
                d = as_int(x[idur])
                if d is not None and d > 0:
                    x[idur] = str(min(d * k, MAX))
        elif op == 3:		# a record repeated: sums pass 2^63
            recs.extend([list(r) for _ in range(rng.randint(2, 40))])
        elif op == 4:		# many devices
            n = rng.choice([10, 1000, 5000])
            for x in recs:
                x[idx.get("dev", 3)] = str(rng.randrange(n))
        elif op == 5:		# devices named by text
            for x in recs:
                if rng.random() < 0.5:
                    x[idx.get("dev", 3)] = "npu:" + x[idx.get("dev", 3)]
        elif op == 6:		# ill-formed UTF-8 in a name
            r[idx.get("name", 5)] += rng.choice(["\udcff", "\udcc0\udcaf",
                                                 "\udced\udca0\udc80"])
        elif op == 7:		# a wait, FLOPs, bytes at the top
            for c in ("wait_ns", "flops", "bytes"):
                if c in idx and rng.random() < 0.5:
                    r[idx[c]] = str(MAX)
        else:			# a duration near the end of the capture
            t = as_int(r[its])
            if t is not None:
                r[idur] = str(max(0, min(MAX - t, rng.choice(EXTREMES))))
    # mostly in order: the stages refuse the rest at once
    if rng.random() < 0.9:
        def key(x):
            t = as_int(x[its]) if its < len(x) else None
            return (0, 0) if t is None else (1, t)
        recs.sort(key=key)
    text = unparse(pre, cols, recs)
    if rng.random() < 0.05:		# cut short
        text = text[:rng.randrange(1, len(text))]
    return text


def run(cmd, data, timeout=20):
    try:
        p = subprocess.run(cmd, input=data, capture_output=True,
                           timeout=timeout)
        return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", "timeout"


def outcome(prog, rc, err):
    first = err.splitlines()[0] if err else ""
    first = re.sub(r"'[^']*'", "'X'", first)
    first = re.sub(r"-?\d+", "N", first)
    return (prog, rc, first)


def judge(prog, rc, out, err):
    """What is wrong with one run, or None."""
    if rc == "timeout":
        return "timeout"
    if rc not in (0, 1):
        return "status %s" % rc
    if "runtime error" in err or "Sanitizer" in err:
        return "sanitizer report"
    if "internal error" in err:
        return "internal error"
    if rc == 1 and not err.startswith(prog.split()[0] + ":"):
        return "status 1 without a diagnostic"
    return None


def negative_stats(out):
    lines = out.decode("utf-8", "replace").split("\n")
    cols = None
    for l in lines:
        if l.startswith("#") or not l:
            continue
        f = l.split("\t")
        if cols is None:
            cols = {c: i for i, c in enumerate(f)}
            continue
        v = cols.get("value")
        if (f[0] == "metric" and v is not None and v < len(f) and
                STATS.search(f[5]) and f[v].startswith("-")):
            return "negative %s %s" % (f[5], f[v])
    return None


def check(tools, chain, data):
    """Every stage on DATA, chained, then prof-render: the problems, and
    the outcomes seen."""
    stream, problems, seen = data, [], set()
    for t in chain:
        cmd = [os.path.join(tools, t)]
        if t == "prof-roofline":
            cmd += ["-c", "h100"]
        if t == "prof-steps" and b"\nwindow\t" in stream:
            continue	# windows already made: prof-steps refuses
        rc, out, err = run(cmd, stream)
        seen.add(outcome(t, rc, err))
        why = judge(t, rc, out, err) or negative_stats(out)
        if why:
            problems.append("%s: %s: %s" % (t, why, err.strip()[:400]))
        if rc == 0 or (rc == 1 and out):
            stream = out	# what it kept goes on
    for fmt in ("json", "chrome"):
        cmd = [os.path.join(tools, "prof-render"), "-f", fmt]
        rc, out, err = run(cmd, stream)
        seen.add(outcome("prof-render " + fmt, rc, err))
        why = judge("prof-render", rc, out, err)
        if why is None and rc == 0:
            try:
                json.loads(out.decode("utf-8"))
            except ValueError as e:
                why = "invalid JSON: %s" % e
        if why:
            problems.append("prof-render -f %s: %s: %s" %
                            (fmt, why, err.strip()[:400]))
    return problems, seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tools", required=True)
    ap.add_argument("--seeds", nargs="+", default=[])
    ap.add_argument("--replay", nargs="+", default=[])
    ap.add_argument("--time", type=int, default=600)
    ap.add_argument("--out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip", default="")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    skip = set(s for s in a.skip.split(",") if s)
    chain = [t for t in CHAIN if t not in skip and
             os.access(os.path.join(a.tools, t), os.X_OK)]
    seeds = []
    for s in a.seeds:
        with open(s, encoding="utf-8", errors="surrogateescape") as f:
            p = parse(f.read())
        if p:
            seeds.append(p)
    if a.replay:
        bad = 0
        for f in a.replay:
            with open(f, "rb") as fh:
                problems, _ = check(a.tools, chain, fh.read())
            for p in problems:
                print("%s: %s" % (f, p))
            bad += bool(problems)
        print("%d of %d inputs with problems" % (bad, len(a.replay)))
        return 1 if bad else 0
    if not a.seeds or not a.out:
        ap.error("--seeds and --out are needed without --replay")
    os.makedirs(a.out, exist_ok=True)
    seen, found = set(), 0
    rounds = execs = 0
    start = last = time.time()
    history = []
    while time.time() - start < a.time:
        pre, cols, recs = rng.choice(seeds)
        text = mutate(rng, pre, cols, recs)
        data = text.encode("utf-8", "surrogateescape")
        rounds += 1
        problems, out = check(a.tools, chain, data)
        seen |= out
        execs += len(chain) + 2
        if problems:
            found += 1
            base = os.path.join(a.out, "finding-%d" % found)
            with open(base + ".tsv", "wb") as f:
                f.write(data)
            with open(base + ".txt", "w") as f:
                f.write("\n".join(problems) + "\n")
        now = time.time()
        if now - last >= 60:
            last = now
            history.append(len(seen))
            print("%5ds rounds %d execs %d outcomes %d findings %d" %
                  (now - start, rounds, execs, len(seen), found),
                  flush=True)
    print("end %ds rounds %d execs %d outcomes %d findings %d" %
          (time.time() - start, rounds, execs, len(seen), found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
