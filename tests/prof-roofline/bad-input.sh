# A kernel without a duration or a place on the timeline is bad data.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
printf 'kernel\t10\t5\t0\t1\ta\nkernel\t20\t\t0\t1\tb\n' >>in.tsv
prof-roofline in.tsv >/dev/null; echo "exit $?"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in2.tsv
printf 'kernel\t\t5\t0\t1\ta\n' >>in2.tsv
prof-roofline in2.tsv >/dev/null; echo "exit $?"
