# A negative wait_ns, and a wait_ns that is not an integer (from stdin).
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in.tsv
printf 'kernel\t10\t5\t0\t1\ta\t-3\n' >>in.tsv
prof-waitanchor in.tsv >/dev/null
echo "exit $?"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in2.tsv
printf 'kernel\t10\t5\t0\t1\ta\t1.5\n' >>in2.tsv
prof-waitanchor - <in2.tsv >/dev/null
