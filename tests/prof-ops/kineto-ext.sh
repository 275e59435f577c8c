# Kineto kernels carry no type or shapes: the cpu_op with the same
# External id gives them, so -k type groups by the aten operator.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\text\tin_shapes\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    host 0 50 0 7 aten::mm cpu_op 11 '[[8, 4], [4, 8]]' \
    host 60 50 0 7 aten::mm cpu_op 12 '[[16, 4], [4, 8]]' \
    kernel 100 10 0 7 sm80_gemm_a kernel 11 '' \
    kernel 120 30 0 7 sm80_gemm_b kernel 12 '' \
    kernel 150 5 0 7 orphan_kernel kernel 99 '' >>in.tsv
prof-ops -k type in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
prof-ops -k sig -p type,in_shapes in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
