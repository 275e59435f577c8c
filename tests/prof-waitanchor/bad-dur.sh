# A kernel record without dur_ns is bad data: the op's cost is unknown.
# So is a timeless kernel (it has no place on the device timeline), and
# a negative duration.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
printf 'kernel\t10\t5\t0\t1\ta\nkernel\t20\t\t0\t1\tb\n' >>in.tsv
prof-waitanchor in.tsv >/dev/null
echo "exit $?"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in2.tsv
printf 'kernel\t\t5\t0\t1\ta\n' >>in2.tsv
prof-waitanchor in2.tsv >/dev/null
echo "exit $?"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in3.tsv
printf 'kernel\t5\t-2\t0\t1\ta\n' >>in3.tsv
prof-waitanchor in3.tsv >/dev/null
echo "exit $?"
# A total that no longer fits 64-bit nanoseconds (292 years) cannot be
# written: its field stays empty, the averages and ranks (exact, in 128
# bits) are written, and the status is 1.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in4.tsv
printf 'kernel\t5\t2\t0\t1\ta\t9223372036854775806\n' >>in4.tsv
printf 'kernel\t6\t9223372036854775801\t0\t2\ta\t9223372036854775806\n' >>in4.tsv
prof-waitanchor in4.tsv >out4.tsv
echo "exit $?"
grep '^op' out4.tsv | cut -f 6,8-15,17
