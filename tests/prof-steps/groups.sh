# Step grouping: steps 1, 2 and 4 run a, b, c; step 3 runs them twice
# (same name set, a third more kernels): its own group at the default
# tolerance, with the others at -t 40.  The dominant group has the most
# service time.  Step 5 runs other kernels: a group of its own always.
{
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\n'
	t=0
	for s in 1 2 3 4 5; do
		printf 'step\t%d\t10\t0\t1\tProfilerStep#%d\t%d\n' $t $s $s
		names="a b c"
		[ $s = 3 ] && names="a b c a"
		[ $s = 5 ] && names="x y z"
		for k in $names; do
			t=$((t + 10))
			printf 'kernel\t%d\t5\t0\t7\t%s\t\n' $t $k
		done
		t=$((t + 100))
	done
} >g.tsv
for tol in 10 40; do
	echo "-- tolerance $tol"
	prof-steps -t $tol g.tsv | awk -F'\t' '$1 == "window" || $1 == "group" {
	    print $1, $2, $3, $6, $(NF - 2), $(NF - 1), $NF }'
done
