#!/usr/bin/env python3
"""Write extreme-lo.tsv and extreme-hi.tsv: prof-tsv streams whose integers
reach the ends prof-tsv(5) allows, for tests/prof-pipeline/extreme.sh.

Times run over a capture just short of 2^63 ns, from -(2^63) + 1 (lo) or
from 0 up to 2^63 - 1 (hi); kernels last near 2^62 ns and overlap on two
streams, so that sums of durations pass 2^63; wait_ns, flops, bytes and the
profiler's step_trace_time split are 2^63 - 1; three devices, one of them
named by text.  Window records stand in for prof-steps.

    python3 tests/data/extreme.py tests/data
"""
import os
import sys

MAX = 2**63 - 1
Q = 2**62
COLS = ["kind", "ts_ns", "dur_ns", "dev", "track", "name", "cat", "type",
        "core", "step", "wait_ns", "in_shapes", "in_dtypes", "flops",
        "bytes", "value", "src", "step_group", "tags"]


def stream(base):
    recs = []

    def rec(**kw):
        r = dict.fromkeys(COLS, "")
        r.update({k: str(v) for k, v in kw.items()})
        recs.append(r)

    L = base
    for d in ["0", "1", "npu:a"]:
        for m in ("computing", "communication_not_overlapped",
                  "overlapped", "stage"):
            rec(kind="metric", dev=d, name="profiler_%s_ns" % m,
                value=MAX, cat="step_trace_time", step=1, src=0)
        rec(kind="device", dev=d, track="0", name="NVIDIA H100 80GB HBM3",
            cat="deviceProperties", value=MAX)
    for d in ["0", "1", "npu:a"]:
        k = dict(dev=d, cat="kernel", type="MatMul", core="AI_CORE", src=0)
        rec(kind="step", ts_ns=L, dur_ns=Q, dev=d, track="1",
            name="ProfilerStep#1", step=1, src=0)
        rec(kind="window", ts_ns=L, dur_ns=Q, dev=d, name="ProfilerStep#1",
            cat="marker", step=1, step_group="g0", tags="confirmed")
        rec(kind="host", ts_ns=L, dur_ns=Q - 1, dev=d, track="1",
            name="aten::mm", cat="cpu_op", src=0)
        rec(kind="host", ts_ns=L, dur_ns=10, dev=d, track="2",
            name="cudaStreamSynchronize", cat="cuda_runtime", src=0)
        rec(kind="kernel", ts_ns=L, dur_ns=1, track="7", name="gemm_a",
            step=1, wait_ns=MAX, flops=MAX, bytes=MAX,
            in_shapes="8192,8192;8192,8192", in_dtypes="BF16;BF16", **k)
        rec(kind="kernel", ts_ns=L + 5, dur_ns=Q - 10, track="7",
            name="gemm_a", step=1, wait_ns=MAX, flops=MAX, bytes=1, **k)
        rec(kind="kernel", ts_ns=L + 6, dur_ns=Q - 10, track="9",
            name="gemm_a", step=1, wait_ns=MAX, flops=MAX, bytes=1, **k)
        rec(kind="kernel", ts_ns=L + Q - 4, dur_ns=3, dev=d, track="8",
            name="hcom_allReduce_", cat="kernel", core="HCCL", step=1,
            wait_ns=MAX, src=0)
        rec(kind="comm", ts_ns=L + Q - 4, dur_ns=3, dev=d,
            name="hcom_allReduce_", cat="communication", type="collective",
            src=0)
        rec(kind="step", ts_ns=L + Q, dur_ns=Q - 1, dev=d, track="1",
            name="ProfilerStep#2", step=2, src=0)
        rec(kind="window", ts_ns=L + Q, dur_ns=Q - 1, dev=d,
            name="ProfilerStep#2", cat="marker", step=2, step_group="g0",
            tags="cut_end")
        rec(kind="kernel", ts_ns=L + Q + 1, dur_ns=1, dev=d, track="7",
            name="gemm_b", cat="kernel", type="MatMul", core="AI_CPU",
            step=2, wait_ns=0, flops=1, bytes=MAX, src=0)
        rec(kind="kernel", ts_ns=L + Q + 2, dur_ns=Q - 3, track="7",
            name="gemm_b", step=2, wait_ns=MAX, flops=MAX, bytes=MAX, **k)
        rec(kind="kernel", ts_ns=L + Q + 2, dur_ns=Q - 3, track="9",
            name="gemm_b", step=2, wait_ns=MAX, flops=MAX, bytes=MAX, **k)
        rec(kind="kernel", ts_ns=L + 2 * Q - 2, dur_ns=0, track="7",
            name="gemm_z", step=2, wait_ns=MAX, **k)
        rec(kind="mark", ts_ns=L + 2 * Q - 2, dur_ns=1, dev=d, track="7",
            name="layer", src=0)
    recs.sort(key=lambda r: (0, 0) if r["ts_ns"] == ""
              else (1, int(r["ts_ns"])))
    out = ["#prof-tsv 1", "#origin_ns %d" % (MAX if base >= 0 else -MAX),
           "#source 0 kineto 0 extreme.json", "\t".join(COLS)]
    out += ["\t".join(r[c] for c in COLS) for r in recs]
    return "\n".join(out) + "\n"


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, base in (("extreme-lo.tsv", -MAX), ("extreme-hi.tsv", 0)):
        with open(os.path.join(d, name), "w") as f:
            f.write(stream(base))


if __name__ == "__main__":
    main()
