# Kernels held in a layer are written back as they were read: a line
# with escapes (a TAB and a backslash in a name, a newline in another
# column) is re-escaped from its values, one without is copied; both
# come out as they went in, with the added columns after them.
f="$top_srcdir/tests/cols.awk"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\n' >in.tsv
printf 'kernel\t0\t10\t0\t1\tflash_fwd_kernel\tk\n' >>in.tsv
printf 'kernel\t20\t10\t0\t1\tgemm\\\\t<a\\tb>\tline\\nbreak\n' >>in.tsv
printf 'kernel\t40\t10\t0\t1\tplain_gemm\t\n' >>in.tsv
printf 'kernel\t100\t10\t0\t1\tflash_fwd_kernel\tk\n' >>in.tsv
printf 'kernel\t120\t10\t0\t1\tgemm\\\\t<a\\tb>\tline\\nbreak\n' >>in.tsv
prof-layers in.tsv >out.tsv || exit 1
grep '^kernel' in.tsv >want
awk -F'\t' -v OFS='\t' '$1 == "kernel" { NF = 7; print }' out.tsv >got
cmp want got && echo 'kernel lines as read'
awk -v kind=kernel -v want=ts_ns,name,pass,layer,layer_type -f "$f" out.tsv
