# Grouping: by kernel name and device (default), across devices (-a),
# by type (-t); a peaks-file chip that hides a built-in one.
f="$top_srcdir/tests/cols.awk"
B=DT_BF16
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tin_shapes\tin_dtypes\tout_shapes\tout_dtypes\n' >in.tsv
r() { printf '%s\t%s\t%s\t%s\t1\t%s\t%s\t%s\t%s\t%s\t%s\n' kernel "$@" >>in.tsv; }
r 0 1000 0 mmA MatMulV2 '64,32;16,32' "$B;$B" '64,16' $B
r 0 3000 1 mmA MatMulV2 '64,32;16,32' "$B;$B" '64,16' $B
r 2000 1000 0 mmB MatMulV2 '64,32;16,32' "$B;$B" '64,16' $B
r 4000 1000 0 cast Cast '100' FLOAT '100' $B
w=dev,name,calls,dur_total_ns,flops,bytes,mfu_ratio,cov_ratio
o='--peak-flops bf16=1000000000000 --peak-bw 1000000000000'
echo '--- default'
prof-roofline $o in.tsv | awk -v kind=roof -v want=scope,$w -f "$f" | awk -F'\t' 'NR == 1 || $1 == "op"'
echo '--- -a'
prof-roofline -a $o in.tsv | awk -v kind=roof -v want=scope,$w -f "$f" | awk -F'\t' 'NR == 1 || $1 == "op"'
echo '--- -t'
prof-roofline -t $o in.tsv | awk -v kind=roof -v want=scope,$w -f "$f" | awk -F'\t' 'NR == 1 || $1 == "op"'
echo '--- a peaks file that redefines h100'
printf 'h100\tbf16\t1\t1\n' >p.tsv
prof-roofline -f p.tsv -c list | grep -c '^h100'
prof-roofline -f p.tsv -c h100 in.tsv | awk -v kind=metric -v want=name,chip,dtype,value -f "$f"
