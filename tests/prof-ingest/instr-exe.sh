# The op simulator's CORE_instr_exe.csv: cycles and calls summed per pipe
# in dataflow order, one core_cycles metric per core; a near-empty table
# (under 1000 cycles) or a cube core without CUBE cycles is typed
# degenerate_trace.  prof-ops -k cycles then ranks the pipes, the first
# bounding the kernel, and its total equals the table's sum.
mkdir -p sim/core0.cubecore0
cat >sim/core0.cubecore0/core0.cubecore0_instr_exe.csv <<'CSV'
instr,addr,pipe,call_count,cycles,running_time(us),detail
MOV_UB_TO_OUT,1,MTE3,2,300,0.1,"Src:UB,Dst:OUT"
MOV_OUT_TO_UB,2,MTE2,2,500,0.1,"Src:OUT,Dst:UB"
VADD,3,VECTOR,1,100,0.01,"Dtype:F16"
CSV
prof-ingest sim/core0.cubecore0/core0.cubecore0_instr_exe.csv | awk -v want=kind,dev,track,name,type,core,value -f "$top_srcdir/tests/cols.awk"
prof-ingest sim | prof-ops -k cycles | awk -v want=kind,name,calls,dur_total_ns,share_ratio,rank -f "$top_srcdir/tests/cols.awk" -v kind=opgroup
printf 'instr,addr,pipe,call_count,cycles\nX,1,MTE2,1,many\n' >bad_instr_exe.csv
prof-ingest bad_instr_exe.csv >/dev/null; echo "exit $?"
[ -d "$CORPUS" ] || exit 77
prof-ingest "$CORPUS/ascend_msprof_op_simulator/neo-pan_real_simulator_minimal/simulator" | prof-ops -k cycles |
    awk -v want=kind,name,track,core,type,dur_total_ns,share_ratio,value -f "$top_srcdir/tests/cols.awk" -v kind=opgroup,metric
