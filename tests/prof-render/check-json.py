#!/usr/bin/python3
# Check a prof-render -f json report against the JSON Schema of the
# analysis rules (a real validator: python3-jsonschema) and, value by
# value, against the prof-tsv stream it was made from, reading the
# stream here with Python's csv-free split and Decimal arithmetic, apart
# from prof-render's C code: every step, the longest bubbles of each
# rank, the chosen rank's capture figures, the ops and the causes, the
# step shown (the busiest, recomputed here), and
# prof-ops' groups and the op simulator's in-core view.
# With prof-verdict's records, the verdict array (one object per rank:
# the run's verdict, its budget, each group's) and the recommendations
# (every advice record, by rank and order) too.
# Usage: check-json.py SCHEMA STREAM.tsv REPORT.json [TOP]
# Prints "ok: N values checked"; exit 1 on a mismatch, 77 when the
# validator is not installed.
import json
import sys
from decimal import Decimal

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema is not installed")
    sys.exit(77)

schema_path, stream_path, report_path = sys.argv[1:4]
top = int(sys.argv[4]) if len(sys.argv) > 4 else 5
schema = json.load(open(schema_path))
report = json.load(open(report_path), parse_float=Decimal)
jsonschema.Draft202012Validator.check_schema(schema)
# Validate the document as a plain JSON reader sees it.
jsonschema.Draft202012Validator(schema).validate(json.load(open(report_path)))

header, recs = None, []
for line in open(stream_path, encoding="utf-8"):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    if header is None:
        header = f
        continue
    recs.append(dict(zip(header, f)))

n = 0
bad = []


def same(what, got, want):
    global n
    n += 1
    if want is None or want == "":
        ok = got is None
    else:
        ok = got is not None and Decimal(str(got)) == Decimal(want)
    if not ok:
        bad.append("%s: report %r, stream %r" % (what, got, want))


def ms(v):
    return None if v in (None, "") else Decimal(v) / Decimal(10**6)


def us(v):
    return None if v in (None, "") else Decimal(v) / Decimal(1000)


# Per-step results.
steps = {(s["dev"], s["step_id"]): s for s in report["steps"]}
for r in recs:
    if r["kind"] == "window":
        s = steps.get((r["dev"], r["step"]))
        if s is None:
            bad.append("step %s/%s missing" % (r["dev"], r["step"]))
            continue
        same("start_us", s["start_us"], us(r["ts_ns"]))
        same("window_ms", s["window_ms"], ms(r["dur_ns"]))
for r in recs:
    if r["kind"] == "metric" and r.get("step") and (r["dev"], r["step"]) in steps:
        s = steps[(r["dev"], r["step"])]
        name = r["name"]
        key = name[:-3] + "_ms" if name.endswith("_ns") else name
        if key in s:
            want = ms(r["value"]) if name.endswith("_ns") else r["value"]
            same("%s %s" % (r["step"], key), s[key], want)

# The step shown: with no --step, the busiest step id (busy_union_ns
# summed over the ranks), the earliest window start on a tie.
shown = report.get("step_shown")
if shown is not None and shown["chosen"] != "named":
    busy, start = {}, {}
    for r in recs:
        if r["kind"] == "window" and r["step"]:
            t = int(r["ts_ns"])
            start[r["step"]] = min(start.get(r["step"], t), t)
        if (r["kind"] == "metric" and r["name"] == "busy_union_ns" and
                r.get("step")):
            busy[r["step"]] = busy.get(r["step"], 0) + int(r["value"])
    best = min(busy, key=lambda k: (-busy[k], start.get(k, 0)))
    same("step_shown id", 1 if shown["step_id"] == best else 0, 1)
    same("step_shown busy_ms", shown["busy_ms"], ms(str(busy[best])))
    same("step_shown steps", shown["steps"], str(len(start)))

# The TOP longest bubbles of each rank, earlier first among equals.
by_dev = {}
for r in recs:
    if r["kind"] == "bubble":
        by_dev.setdefault(r["dev"], []).append(r)
want = []
for dev in sorted(by_dev, key=lambda d: (len(d), d)):
    bs = sorted(by_dev[dev], key=lambda b: -int(b["dur_ns"]))  # stable
    want += bs[:top]
got = report["bubble_windows"]
same("bubble count", len(got), len(want))
for g, w in zip(got, want):
    same("bubble id", 1 if g["bubble_id"] == w["bubble_id"] else 0, 1)
    same("start_us", g["start_us"], us(w["ts_ns"]))
    same("end_us", g["end_us"], us(int(w["ts_ns"]) + int(w["dur_ns"])))
    same("duration_ms", g["duration_ms"], ms(w["dur_ns"]))
    same("host cov", g.get("host_visible_coverage_ratio"), w.get("host_cov_ratio"))
    same("sync cov", g.get("sync_marker_overlap_ratio"), w.get("sync_cov_ratio"))
    same("comm cov", g.get("comm_marker_overlap_ratio"), w.get("comm_cov_ratio"))
    labels = [x for x in w.get("labels", "").split(",") if x]
    same("labels", 1 if g["candidate_labels"] == labels else 0, 1)
    ev = []
    for side, word in (("prev", "before"), ("next", "after")):
        if w.get(side + "_name"):
            d = Decimal(w.get(side + "_dur_ns") or "0") / 1000
            ev.append("%s: %s (%s, %s us, stream %s)" % (
                word, w[side + "_name"], w.get(side + "_core") or "?",
                format(d.normalize(), "f"), w.get(side + "_track") or "?"))
    same("evidence_ops " + w["bubble_id"], 1 if g["evidence_ops"] == ev else 0, 1)

# The chosen rank's whole-capture figures.
gda = report["global_device_gap_analysis"]
cap = {}
for r in recs:
    if r["kind"] == "metric" and r["name"].startswith(("capture_", "largest_gap")):
        cap[(r["dev"], r["name"])] = r["value"]
if gda["dev"] is not None:
    worst = max((Decimal(v), -i, d) for i, ((d, k), v) in enumerate(cap.items())
                if k == "capture_gap_ns")
    same("chosen rank", 1 if gda["dev"] == worst[2] else 0, 1)
    d = gda["dev"]
    same("capture_span_ms", gda["capture_span_ms"], ms(cap[(d, "capture_span_ns")]))
    same("device_busy_union_ms", gda["device_busy_union_ms"],
         ms(cap[(d, "capture_busy_union_ns")]))
    same("device_gap_ms", gda["device_gap_ms"], ms(cap[(d, "capture_gap_ns")]))
    same("device_gap_ratio", gda["device_gap_ratio"], cap[(d, "capture_gap_ratio")])
    same("largest_gap_ms", gda["largest_gap_ms"], ms(cap[(d, "largest_gap_ns")]))

# Ops and causes, matched by rank and name.
ops = {(o["dev"], o["op_name"]): o for o in report["wait_anchor_ops"]}
for r in recs:
    if r["kind"] == "op" and (r["dev"], r["name"]) in ops:
        o = ops[(r["dev"], r["name"])]
        same("dur avg", o["duration_us_avg"], us(r["dur_avg_ns"]))
        same("wait avg", o["wait_us_avg"], us(r["wait_avg_ns"]) if r["wait_avg_ns"] else "0")
        same("cost avg", o["total_cost_us_avg"], us(r["cost_avg_ns"]))
        same("false hotspot", 1 if o["is_false_hotspot_risk"] else 0,
             1 if "WAIT_ANCHOR_FALSE_HOTSPOT" in r["tags"].split(",") else 0)
causes = [r for r in recs if r["kind"] == "cause"]
same("cause count", len(report["soft_root_cause_summary"]), len(causes))
for g, w in zip(report["soft_root_cause_summary"], causes):
    same("cause " + w["name"], 1 if (g["label"], g["scope"], g["dev"]) ==
         (w["name"], w["scope"], w["dev"]) else 0, 1)

# The verdict array and the recommendations, against prof-verdict's records.
def text_same(what, got, want):
    global n
    n += 1
    if (got if got is not None else "") != want:
        bad.append("%s: report %r, stream %r" % (what, got, want))


verdicts = {v["dev"]: v for v in report.get("verdict", [])}
for r in recs:
    if r["kind"] != "verdict":
        continue
    v = verdicts.get(r["dev"])
    if v is None:
        bad.append("verdict of rank %s missing" % r["dev"])
        continue
    if r.get("scope") == "group":
        v = {g["group_id"]: g for g in v.get("groups", [])}.get(r["step_group"])
        if v is None:
            bad.append("verdict of %s/%s missing" % (r["dev"], r["step_group"]))
            continue
    text_same("bottleneck", v["bottleneck"], r["name"])
    same("share", v["share"], r.get("share_ratio"))
    text_same("confidence", v["confidence"], r.get("confidence", ""))
    same("mfu", v["mfu"], r.get("mfu_ratio"))
    text_same("evidence", v["evidence"], r.get("evidence", ""))
    same("stake", v["stake_ms_per_step"], ms(r.get("stake_ns")))
    same("window", v["window_ms_per_step"], ms(r.get("window_ns")))
for r in recs:
    if r["kind"] != "budget" or r.get("scope") not in ("run", "group"):
        continue
    v = verdicts.get(r["dev"], {})
    if r["scope"] == "group":
        v = {g["group_id"]: g for g in v.get("groups", [])}.get(r["step_group"], {})
    b = {x["part"]: x for x in v.get("budget", [])}.get(r["name"])
    if b is None:
        bad.append("budget %s %s %s missing" % (r["dev"], r["scope"], r["name"]))
        continue
    same("budget ms/step " + r["name"], b["ms_per_step"], ms(r.get("per_step_ns")))
    same("budget share " + r["name"], b["share"], r.get("share_ratio"))
    same("budget ms " + r["name"], b["ms"], ms(r.get("budget_ns")))
advice = {}
for rec in report.get("recommendations", []):
    for d in rec.get("per_dev", []):
        advice[(d["dev"], rec["id"], d["order"])] = (rec, d)
nadvice = 0
for r in recs:
    if r["kind"] != "advice":
        continue
    nadvice += 1
    order = r.get("rank") or r.get("order")
    got = advice.get((r["dev"], r["name"], int(order) if order else None))
    if got is None:
        bad.append("advice %s %s %s missing" % (r["dev"], r["name"], order))
        continue
    rec, d = got
    text_same("advice text", rec["action"], r.get("text", ""))
    text_same("advice prio", rec["priority"], r.get("prio", ""))
    same("advice stake", d["stake_ms_per_step"], ms(r.get("stake_ns")))
    same("advice share", d["share"], r.get("share_ratio"))
    text_same("advice evidence", d["evidence"], r.get("evidence", ""))
same("advice count", len(advice), nadvice)

# prof-ops' groups (the Ops section): every opgroup record's figures,
# the groups and the tail adding up to the task time to the ns, and the
# audit; the in-core view's cycles per pipe adding up to the core's.
ops = report.get("ops")
og = [r for r in recs if r["kind"] == "opgroup" and r.get("key") != "cycles"]
if og and ops is None:
    bad.append("opgroup records but no ops member")
if ops is not None:
    ranks = {x["dev"]: x for x in ops["ranks"]}
    for r in og:
        x = ranks.get(r["dev"])
        if x is None:
            bad.append("ops rank %s missing" % r["dev"])
            continue
        g = [y for y in x["groups"] if y["key"] == r["name"]]
        if len(g) != 1:
            bad.append("ops group %s/%s" % (r["dev"], r["name"]))
            continue
        g = g[0]
        same("ops total " + r["name"], g["total_ms"], ms(r["dur_total_ns"]))
        same("ops calls " + r["name"], g["calls"], r["calls"])
        same("ops share " + r["name"], g["share_ratio"], r["share_ratio"])
        same("ops avg " + r["name"], g["avg_us"], us(r["dur_avg_ns"]))
        same("ops median " + r["name"], g["median_us"], us(r.get("dur_median_ns")))
        same("ops max " + r["name"], g["max_us"], us(r["dur_max_ns"]))
    for dev, x in ranks.items():
        same("ops groups add up " + dev,
             sum(Decimal(str(y["total_ms"])) for y in x["groups"]),
             x["task_total_ms"])
        tot = [r for r in recs if r["kind"] == "metric" and r["dev"] == dev
               and r["name"] == "ops_task_total_ns"]
        same("ops task total " + dev, x["task_total_ms"], ms(tot[0]["value"]))
        for a in x["noncompute_audit"]:
            w = [r for r in recs if r["kind"] == "opaudit" and
                 r["dev"] == dev and r["name"] == a["class"]]
            same("ops audit " + a["class"], a["total_ms"], ms(w[0]["dur_total_ns"]))
    for c in ops["in_core"]:
        pc = {r["track"]: r["value"] for r in recs if r["kind"] == "metric"
              and r["name"] == "pipe_cycles" and r["core"] == c["core"]}
        same("in-core pipes " + c["core"], len(c["pipes"]), len(pc))
        for p in c["pipes"]:
            same("in-core " + p["pipe"], p["cycles"], pc.get(p["pipe"]))
        same("in-core cycles add up " + c["core"],
             sum(Decimal(str(p["cycles"])) for p in c["pipes"]), c["cycles"])
        best = max(c["pipes"], key=lambda p: Decimal(str(p["cycles"])))
        same("in-core bound " + c["core"], 1 if
             best["pipe"] == c["bounding_pipe"] else 0, 1)

if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
print("ok: %d values checked" % n)
