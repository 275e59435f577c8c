# Two ranks of one stream: -A and -B pick the device of each side.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >run.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 100 0 1 MatMul \
    kernel 0 130 7 1 MatMul \
    kernel 100 20 0 1 Add \
    kernel 130 10 7 1 Add >>run.tsv
prof-diff -f tsv -A 0 -B 7 run.tsv run.tsv | awk -v want=kind,name,flag,total_a_ns,total_b_ns,diff_ns,ratio,value -f "$top_srcdir/tests/cols.awk"
