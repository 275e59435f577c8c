# An XPlane of one TPU (tests/xplane-gen.py tpu): XLA Ops as kernels with
# category, flops (an execution's own count over its op's), bytes, shapes
# and dtypes read from the HLO text, the ext keys (module, source line,
# stack hash, scope, layouts, what a one-operand op changes, sub-ns
# remainders ps=S:E); the while loop, the module runs and the async copy
# as marks; the Steps line and the host's step_num marker as Step#N; the
# counter line skipped (-i says so); Task Environment's start as origin.
command -v python3 >/dev/null 2>&1 || exit 77
python3 "$top_srcdir/tests/xplane-gen.py" tpu t.xplane.pb
prof-ingest t.xplane.pb
prof-ingest -i t.xplane.pb | cut -f1-3,15-
