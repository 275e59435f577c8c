# A fast decode loop: FusedInferAttentionScore markers of 0.2 ms, two
# layers 1 ms apart per pass, and only 1.2 ms from a pass's last marker
# to the next pass's first: below the gap rule (1.5 x 1 ms).  Each pass
# ends with ArgMax (sampling), so each next marker starts a new pass
# (rule sampling): 3 passes of 2 layers.  Without the ArgMax kernels
# the three passes are one of 6 layers.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
k() { printf 'kernel\t%s\t%s\t0\t1\t%s\n' "$@" >>in.tsv; }
p=0
for i in 1 2 3; do
	k $p 200000 FusedInferAttentionScore
	k $((p + 300000)) 100000 MatMulV3
	k $((p + 1000000)) 200000 FusedInferAttentionScore
	k $((p + 1300000)) 100000 MatMulV3
	k $((p + 1600000)) 50000 ArgMax
	p=$((p + 2200000))
done
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv | awk -v kind=pass,layer -v want=kind,ts_ns,dur_ns,name,pass,layer,rule,layers,kernel_count,tags -f "$f"
echo '--- without ArgMax'
grep -v ArgMax in.tsv | prof-layers | awk -v kind=pass -v want=kind,ts_ns,dur_ns,rule,layers -f "$f"
