# Diagnostics of the peak options: an unknown chip and a bad option
# value are usage errors (2); a bad peaks-file line is bad data (1),
# named by file and line.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
prof-roofline -c h900 in.tsv; echo "exit $?"
prof-roofline --peak-flops bf17=1 in.tsv; echo "exit $?"
prof-roofline --peak-flops bf16 in.tsv; echo "exit $?"
prof-roofline --peak-flops bf16=-5 in.tsv; echo "exit $?"
prof-roofline --peak-bw 0 in.tsv; echo "exit $?"
prof-roofline --pipe-pct 101 in.tsv; echo "exit $?"
prof-roofline -f missing.tsv in.tsv; echo "exit $?"
printf 'a\tbf16\t1\n' >p1.tsv
printf '# ok\na\tbf16\t1\t2\na\tfp4\t1\t2\n' >p2.tsv
printf 'a\tbf16\t1.5e12\t2\n' >p3.tsv
printf 'a\tbf16\t1\t-2\n' >p4.tsv
printf 'a\tbf16\t1\t2\na\tfp16\t1\t3\n' >p5.tsv
printf '\tbf16\t1\t2\n' >p6.tsv
printf 'a\tbf16\t1\t2\textra\n' >p7.tsv
for p in p1 p2 p3 p4 p5 p6 p7; do
	prof-roofline -f $p.tsv in.tsv; echo "exit $?"
done
