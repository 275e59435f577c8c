# Scope keys: the innermost scope of each op by default (an op counts
# once); -d 1 the outermost part; names without '/' have no scope.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 10 0 1 'Default/net/layer1/attn/MatMul-op1' \
    kernel 10 20 0 1 'Default/net/layer1/mlp/MatMul-op2' \
    kernel 30 40 0 1 'Default/net/layer2/attn/MatMul-op3' \
    kernel 70 5 0 1 'Default/optimizer/Adam-op4' \
    kernel 75 1 0 1 'Cast' >>in.tsv
prof-ops -k scope in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
prof-ops -k scope -d 3 in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
