# The bundled Ascend profile (2 ranks, torch_npu trace_view host events
# with python_function frames and shapes): bubbles injected at the gaps
# of each rank's kernels in ProfilerStep#50 (prelaunch, internal gaps of
# at least 0.5 ms, tail) stand in for prof-bubbles.  Every ratio, the
# partition (idle_*_ns) and host_top here were checked against a
# brute-force union over the same events.  The internal gaps, covered by
# DistributedDataParallel.forward and the operators that launch through
# the task queue (Dequeue@*, Node@launch), are launch_bound.
t=$top_srcdir/tests/prof-attrib
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" >in.tsv || exit 1
awk -v min=500000 -f "$t/inject.awk" in.tsv in.tsv >bub.tsv
prof-attrib bub.tsv | awk -F'\t' '$1 == "bubble" || $1 == "cause"' |
    cut -f 1-4,6,26,28-
