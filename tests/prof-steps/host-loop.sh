# Steps from the host's annotated loop when there is no step marker:
# three iterations of a training script, each running four annotated
# regions once in the same order (## zero_grad ##, ## forward ##,
# ## backward ##, Optimizer.step#SGD.step) and launching three kernels,
# which the device runs 450 ns after their launch, so that the
# optimizer kernel of one iteration runs after the next one's host
# work has begun.  K = 3 (four names occur three times), every name
# keeps the order: iterations from 0, 1000 and 2000 on the host, each
# kernel in the iteration that launched it; confidence 4/4 x 3/4 x 0.95
# = 0.7125.  Then: a region run twice in one iteration occurs four
# times and is not one of the loop's names (the same loop); a region
# whose second run is late, in the third iteration, breaks the order
# and is dropped (three names keep it: 3/4 x 3/4 x 0.95 = 0.534375);
# only two regions annotated: too few for a loop, so the kernels decide
# (detection).  Last, the same output from a pipe, a /dev/fd path and a
# FIFO (the second scan reads the spool, not the emptied input).
gen() {
	awk -v mode="$1" 'BEGIN {
	printf "#prof-tsv 1\n#origin_ns 0\n"
	printf "kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tcorr\n"
	split("## zero_grad ##,## forward ##,## backward ##,Optimizer.step#SGD.step", nm, ",")
	split("0 20 300 600", at, " ")
	for (i = 0; i < 3; i++) {
		t = i * 1000
		for (j = 1; j <= 4; j++) {
			s = t + at[j]
			late = mode == 2 && j == 2 && i == 1
			if (!(mode == 3 && (j == 1 || j == 4)))
				ev[++n] = sprintf("host\t%d\t10\t0\t1\t%s\tuser_annotation\t", late ? s + 1200 : s, nm[j])
			if (j > 1) {
				c++
				ev[++n] = sprintf("host\t%d\t5\t0\t1\tcudaLaunchKernel\tcuda_runtime\t%d", s + 5, c)
				ev[++n] = sprintf("kernel\t%d\t40\t0\t7\tk%d\tkernel\t%d", s + 450, j, c)
			}
		}
		if (mode == 1 && i == 1)
			ev[++n] = sprintf("host\t%d\t10\t0\t1\t## backward ##\tuser_annotation\t", t + 800)
	}
	for (a = 1; a <= n; a++) { split(ev[a], f, "\t"); key[a] = f[2] + 0 }
	for (a = 1; a <= n; a++)	# insertion sort by ts, stable
		for (b = a; b > 1 && key[b - 1] > key[b]; b--) {
			x = ev[b]; ev[b] = ev[b - 1]; ev[b - 1] = x
			y = key[b]; key[b] = key[b - 1]; key[b - 1] = y
		}
	for (a = 1; a <= n; a++) print ev[a]
	}'
}
show() {
	awk -v kind=window,kernel,metric -v want=kind,ts_ns,dur_ns,name,cat,step,value,tags \
	    -f "$top_srcdir/tests/cols.awk" | grep -v -e '_count' -e '_sum_ns' -e '^metric.*stream'
}
gen 0 >loop.tsv
prof-steps loop.tsv | show
echo '--- a region run twice in one iteration'
gen 1 | prof-steps | show | grep -e '^window' -e confidence
echo '--- a region out of order'
gen 2 | prof-steps | show | grep -e '^window' -e confidence
echo '--- two regions: no loop'
gen 3 | prof-steps -q | show | grep -e '^window' -e confidence
echo '--- the same steps from a pipe, <(...) and a FIFO'
prof-steps loop.tsv | grep -v '^#stage' >file.out
cat loop.tsv | prof-steps | grep -v '^#stage' | cmp - file.out && echo pipe same
prof-steps "/dev/fd/3" 3<loop.tsv | grep -v '^#stage' | cmp - file.out && echo fd same
mkfifo fifo
cat loop.tsv >fifo &
prof-steps fifo | grep -v '^#stage' | cmp - file.out && echo fifo same
wait
