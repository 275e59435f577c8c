# The whole pipeline on the corpus TPU capture (issue 19, "What users
# must get"), each figure checked in python3 against the kernel records
# prof-ingest wrote (tests/xplane-corpus.sh checks those against the
# file's own bytes): the by-source groups (prof-ops -k source: the
# source line, else the scope, else the category) with a tail that adds
# up to the kernel time, the non-compute audit, the roofline's coverage
# and MFU against the TPU v6e's per-device peaks, and the verdict: the
# device waits on copies to and from host memory (a host offload test),
# so memory-bound by copies far below the HBM roof, not by HBM traffic.
f=$CORPUS/tpu_xla/xprof/tpu_inference_2.xplane.pb
[ -r "$f" ] || exit 77
command -v python3 >/dev/null 2>&1 || exit 77
prof-ingest -q "$f" | prof-steps -q | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor | prof-layers | prof-roofline |
    prof-ops -k source -n 3 | prof-verdict >run.tsv
python3 - run.tsv <<'PY'
import sys
from collections import defaultdict
from fractions import Fraction as F
hdr, recs = None, []
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    if hdr is None:
        hdr = f
        continue
    recs.append(dict(zip(hdr, f)))
ok = lambda c: "ok" if c else "DIFFERS"
kern = [r for r in recs if r["kind"] == "kernel"]
devs = sorted({r["dev"] for r in kern}, key=int)
peak_f = {r["dtype"]: int(r["value"]) for r in recs
          if r["kind"] == "metric" and r["name"] == "peak_flops_per_s"}
peak_b = [int(r["value"]) for r in recs
          if r["kind"] == "metric" and r["name"] == "peak_hbm_bytes_per_s"][0]
chip = [r["chip"] for r in recs if r["kind"] == "metric" and
        r["name"] == "peak_hbm_bytes_per_s"][0]
print("chip %s: bf16 %d TFLOP/s, HBM %d GB/s per device" %
      (chip, peak_f["bf16"] // 10**12, peak_b // 10**9))
for d in devs:
    k = [r for r in kern if r["dev"] == d]
    total = sum(int(r["dur_ns"]) for r in k)
    # by source: the source stack's hash (ext stack=), shown by its
    # innermost line (the frame) unless another stack has the same line,
    # else the frame, else the scope (ext), else the category
    key = defaultdict(int)
    stacks = defaultdict(set)
    stack_of = {}
    for r in k:
        ext = dict(x.split("=", 1) for x in r["ext"].split(";") if "=" in x)
        if "stack" in ext:
            stacks[r["frame"]].add(ext["stack"])
    for r in k:
        ext = dict(x.split("=", 1) for x in r["ext"].split(";") if "=" in x)
        if "stack" in ext:
            line = r["frame"] or "(no source line)"
            name = (line if len(stacks[r["frame"]]) == 1 else
                    "%s [stack %s]" % (line, ext["stack"]))
            key[name] += int(r["dur_ns"])
            stack_of[name] = ext["stack"]
        elif r["frame"]:
            key[r["frame"]] += int(r["dur_ns"])
        elif "scope" in ext:
            key["(no source) scope " + ext["scope"]] += int(r["dur_ns"])
        elif r["name"].startswith("copy"):
            key["(no source) data_movement/copy"] += int(r["dur_ns"])
        else:
            key["(no source) other"] += int(r["dur_ns"])
    groups = [r for r in recs if r["kind"] == "opgroup" and r["dev"] == d
              and "tail" not in r["tags"].split(",")]
    tail = [r for r in recs if r["kind"] == "opgroup" and r["dev"] == d
            and "tail" in r["tags"].split(",")]
    gsum = sum(int(r["dur_total_ns"]) for r in groups + tail)
    print("rank %s: %d kernels, %d ns; %d groups + tail %d ns: %s" %
          (d, len(k), total, len(groups), gsum, ok(gsum == total)))
    top = sorted(key.values(), reverse=True)
    for r in tail:
        print("  tail %s: %d ns, the rest after the top %d: %s" %
              (r["name"], int(r["dur_total_ns"]), len(groups),
               ok(int(r["dur_total_ns"]) == sum(top[len(groups):]))))
    for r in groups:
        print("  %-60s %5.1f%% %s" % (r["name"][-60:],
              100 * int(r["dur_total_ns"]) / total,
              ok(key.get(r["name"]) == int(r["dur_total_ns"]) and
                 stack_of.get(r["name"], "") == r["stack"])))
    copy = sum(int(r["dur_ns"]) for r in k if r["name"].startswith("copy"))
    bcast = sum(int(r["dur_ns"]) for r in k if r["type"] == "broadcast")
    audit = {r["name"]: int(r["dur_total_ns"]) for r in recs
             if r["kind"] == "opaudit" and r["dev"] == d}
    print("  audit copy %d ns = kernels named copy*: %s; broadcast %d ns = "
          "category broadcast: %s; other classes %s" %
          (audit.get("copy", 0), ok(audit.get("copy") == copy),
           audit.get("broadcast", 0), ok(audit.get("broadcast", 0) == bcast),
           sorted(set(audit) - {"copy", "broadcast"}) or "none"))
    # what they change, from the HLO text (ext changes, in_layout,
    # layout): the memory space S(n) (0 when none) apart from the layout
    chg = defaultdict(int)
    for r in k:
        ext = dict(x.split("=", 1) for x in r["ext"].split(";") if "=" in x)
        if "changes" not in ext:
            continue
        cls = ("copy" if r["name"].startswith("copy") else "broadcast"
               if r["type"] == "broadcast" else None)
        words = []
        if "dtype" in ext["changes"].split(","):
            words.append("dtype %s->%s" % (r["in_dtypes"].split(";")[0],
                                          r["out_dtypes"]))
        if "layout" in ext["changes"].split(","):
            sp = lambda l: (l.split("S(")[0], "S(" + l.split("S(")[1]
                            if "S(" in l else "S(0)")
            (ib, isp), (ob, osp) = sp(ext["in_layout"]), sp(ext["layout"])
            if ib != ob:
                words.append("layout %s->%s" % (ib, ob))
            if isp != osp:
                words.append("space %s->%s" % (isp, osp))
        if cls and words:
            chg[(cls, ",".join(words))] += int(r["dur_ns"])
    for r in recs:
        if r["kind"] != "opaudit" or r["dev"] != d:
            continue
        want = sorted(((t, c) for (cl, c), t in chg.items()
                       if cl == r["name"]), reverse=True)[:3]
        got = [(int(x.split(" ", 1)[0]), x.split(" ", 1)[1])
               for x in r["top_changes"].split(";") if x]
        print("  %s changes: %s: %s" % (r["name"], "; ".join(
              "%s %d ns" % (c, t) for t, c in got) or "none",
              ok(got == want)))
    # XLA while containers: the union of their marks' spans, apart
    wm = sorted((int(r["ts_ns"]), int(r["dur_ns"])) for r in recs
                if r["kind"] == "mark" and r["cat"] == "xla_while" and
                r["dev"] == d)
    wu, wend = 0, None
    for ts, du in wm:
        if wend is None or ts >= wend:
            wu, wend = wu + du, ts + du
        elif ts + du > wend:
            wu, wend = wu + ts + du - wend, ts + du
    wmet = [int(r["value"]) for r in recs if r["kind"] == "metric" and
            r["dev"] == d and r["name"] == "ops_while_ns"]
    print("  while containers: %d marks, %d ns apart: %s" % (len(wm), wu,
          ok(wmet == ([wu] if wm else []))))
    # the roofline's run: coverage and MFU against the bf16 peak
    roof = [r for r in recs if r["kind"] == "roof" and r["dev"] == d and
            r["scope"] == "run"][0]
    fl = sum(int(r["flops"] or 0) for r in k)
    dur = sum(int(r["dur_ns"]) for r in k if r["flops"] != "")
    mfu = F(fl * 10**9, dur * peak_f["bf16"])
    print("  roofline: coverage %s, MFU %s (%.6f from the kernels): %s" %
          (roof["cov_ratio"], roof["mfu_ratio"], float(mfu),
           ok(abs(F(roof["mfu_ratio"]) - mfu) <= F(1, 10**6))))
    # the verdict, and the evidence for it: copy-done's share and speed
    v = [r for r in recs if r["kind"] == "verdict" and r["dev"] == d and
         r["scope"] == "run"][0]
    cd = [r for r in k if r["name"].startswith("copy-done")]
    cdt = sum(int(r["dur_ns"]) for r in cd)
    gbs = sum(int(r["bytes"]) for r in cd) / cdt
    print("  verdict %s (%s): copy-done %.1f%% of the kernel time at "
          "%.1f GB/s, %.1f%% of HBM: %s" % (v["name"], v["tags"],
          100 * cdt / total, gbs, 100 * gbs * 1e9 / peak_b,
          ok(v["name"] == "memory" and "slow_transfers" in v["tags"] and
             cdt * 2 > total and gbs * 1e9 * 10 < peak_b)))
PY
prof-render -f md run.tsv >r.md
grep -c '^- \*\*Rank [0-3]: memory-bound, by copies far below the HBM roof\*\*' r.md
grep '^Shown:' r.md | cut -c1-70
grep -o 'hide_slow_transfers' r.md | sort -u
# the Ops section by source line, each line shortened at its front so
# that the file and line stay
sed -n '/^### Rank 0: device time by source line/,/^### Rank 1/p' r.md |
    awk -F' [|] ' '/^\| [0-9]/ { print $2 }'
# prof-report runs prof-ops -k source on an XPlane by itself
prof-report -q -o rep "$f" 2>/dev/null
grep '^### Rank 0: device time by' rep/anomaly_report_*.md
