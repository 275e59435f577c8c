# By op type: the two TransData kernels are one group; by signature the
# parts chosen with -p make the key, empty parts written '-'.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tin_shapes\tin_dtypes\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 10 0 1 trans_TransData_0 TransData 8,16 FLOAT16 \
    kernel 10 30 0 1 trans_TransData_1 TransData 8,16 FLOAT \
    kernel 40 20 0 1 MatMul_1 MatMulV2 '' '' >>in.tsv
prof-ops -k type in.tsv | awk -v want=kind,name,calls,dur_total_ns,nc_class -f "$top_srcdir/tests/cols.awk" | grep -v metric
prof-ops -k sig -p type,in_shapes,in_dtypes in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
prof-ops -k sig -p type,in_shapes in.tsv | awk -v want=kind,name,calls,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
