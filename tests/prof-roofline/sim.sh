# The op simulator's pipe lanes (a minimal real trace: one vector core,
# MOV_OUT_TO_UB 154 ns on MTE2, VADD 13 ns on VECTOR, MOV_UB_TO_OUT
# 209 ns on MTE3, a SET_FLAG on MTE2 counted as sync): MTE3 bounds it,
# and 376 ns of pipe work in all is below 1 us, so it is flagged
# degenerate rather than reported as a fast kernel.
S="$CORPUS/ascend_msprof_op_simulator/neo-pan_real_simulator_minimal"
[ -d "$S" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$S" | prof-roofline >out.tsv
awk -v kind=roof,metric -v want=kind,dev,track,name,scope,calls,busy_ns,dur_total_ns,pipe_bound,pipe_ratio,bound,value,evidence,tags -f "$f" out.tsv
echo '--- --degenerate-ns 300: enough pipe work now'
prof-ingest -q "$S" | prof-roofline --degenerate-ns 300 |
    awk -v kind=roof -v want=scope,name,pipe_bound,tags -f "$f" | awk -F'\t' 'NR == 1 || $1 == "core"'
