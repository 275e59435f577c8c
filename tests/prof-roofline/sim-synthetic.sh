# Simulator cores: a cube core whose CUBE lane never ran (only MTE2 and
# FIXPIPE, plus a WAIT_FLAG) is degenerate (no_compute_pipe, cube_zero)
# even with 3000 ns of pipe work; a vector core with VECTOR 2000 ns of
# 2500 busy is bound by the vector pipe, and not degenerate.
f="$top_srcdir/tests/cols.awk"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcore\n' >in.tsv
r() { printf 'pipe\t%s\t%s\t0\t%s\t%s\t%s\n' "$@" >>in.tsv; }
r 0 1000 MTE2 MOV_OUT_TO_L1 core0.cubecore0
r 0 500 VECTOR VADD core0.veccore0
r 500 1500 VECTOR VMUL core0.veccore0
r 1000 2000 FIXPIPE FIX_L0C_TO_OUT core0.cubecore0
r 2000 500 MTE3 MOV_UB_TO_OUT core0.veccore0
r 3000 100 MTE2 WAIT_FLAG core0.cubecore0
prof-roofline in.tsv | awk -v kind=roof -v want=track,name,scope,calls,busy_ns,dur_total_ns,pipe_bound,pipe_ratio,bound,value,evidence,tags -f "$f"
