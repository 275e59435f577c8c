# Marker matching: whole-name globs with '*', case-sensitive, 'cat:' on
# the cat column, '!' to exclude; events of 100 ns in a 1000 ns bubble:
#   cudaMemcpyAsync (host, sync), xcudaMemcpy (host: the glob is for the
#   whole name), CUDAMEMCPY (host: case counts), AscendCL@aclrtSynchronize
#   Stream (host, sync), AscendCL@aclrtStreamWaitEvent (host, comm),
#   HcclAllreduce (host, comm), aten::to as a Python frame (sync only),
#   Kineto's whole-trace span (cat Trace: nothing)
#   -> host 0.6, sync 0.3, comm 0.2.
# Own families only: host cat:cuda_* 0.3, sync *MEMCPY* 0.1, comm *Hccl*
# 0.1 -> launch lag.  Then the pattern list (six families), with
# defaults and without.
in=$top_srcdir/tests/prof-attrib/markers.tsv
prof-attrib "$in" | grep '^bubble' | cut -f 8-12
prof-attrib -n --host='cat:cuda_*' --sync='*MEMCPY*' --comm='*Hccl*' "$in" |
    grep '^bubble' | cut -f 8-12
prof-attrib --list-markers | cut -d ' ' -f 1 | uniq -c
prof-attrib -l -n --comm='c10d::*' --host='*' --host='!cat:python_function'
