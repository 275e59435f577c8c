# A torch_npu db export (export_type=db): an excerpt of the alexnet job's
# level1 rank0 database (tests/data/sqlite-excerpts.py), the whole stream
# and the inventory of its tables.  Kernels carry kernel_details.csv's
# columns (wait computed, PMU times in us), the HCCL op is a kernel on
# the HCCL core and a comm op, ProfilerStep#50 is the step marker.
command -v sqlite3 >/dev/null || exit 77
d=r/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT
mkdir -p $d
sqlite3 $d/ascend_pytorch_profiler_0.db <"$DATA/ascend_pt_db.sql"
prof-ingest r | sed '/^#stage /d'
prof-ingest -i r
