# Prefill and decode where the method's thresholds (> 10 ms, < 1 ms) do
# not fit: GPU fmha markers of 0.4 ms, then 0.05, 0.06 and 0.4 ms, two
# layers 1 ms apart per pass, passes 10 ms apart.  Pass 0 has no
# earlier pass: forward.  Pass 1's median marker (0.05 ms) is at least
# 4 times shorter than pass 0's: decode.  Pass 2 (0.06 ms) is within 4
# times of pass 1: decode again.  Pass 3 (0.4 ms) is at least 4 times
# longer than pass 2's: prefill.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
k() { printf 'kernel\t%s\t%s\t0\t7\t%s\n' "$@" >>in.tsv; }
p=0
for d in 400000 50000 60000 400000; do
	k $p $d fmha_fwd
	k $((p + 500000)) 100000 gemm
	k $((p + 1000000)) $d fmha_fwd
	k $((p + 1500000)) 100000 gemm
	p=$((p + 10000000))
done
prof-layers in.tsv | awk -v kind=pass -v want=ts_ns,dur_ns,name,pass,rule,layers,marker_dur_ns \
    -f "$top_srcdir/tests/cols.awk"
