# -m replaces the default patterns and also takes host and mark records:
# here decode iterations annotated by the user; the ProfilerStep marker
# is then no marker.  Names without a trailing number are no markers.
{
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\n'
	printf 'step\t0\t1000\t0\t1\tProfilerStep#1\tuser_annotation\n'
	printf 'host\t10\t50\t0\t1\tdecode_step_1\tuser_annotation\n'
	printf 'kernel\t20\t5\t0\t7\tattn\tkernel\n'
	printf 'host\t60\t50\t0\t1\tdecode_step_x\tuser_annotation\n'
	printf 'host\t70\t50\t0\t1\tdecode_step_2\tuser_annotation\n'
	printf 'kernel\t80\t5\t0\t7\tattn\tkernel\n'
	printf 'kernel\t90\t5\t0\t7\tattn\tkernel\n'
} >m.tsv
prof-steps -m 'decode_step_*' m.tsv | grep -v '^#'
echo "-- defaults"
prof-steps m.tsv | awk -F'\t' '$1 == "window"'
