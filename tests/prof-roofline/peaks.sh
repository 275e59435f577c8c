# Choosing the peaks: the built-in table (-c list), a chip by name in
# any case with '-' or '_' and the SoC spelling msprof prints, options
# over a chip, and a peaks file (comments, blank lines and a header are
# skipped; a file that names one chip selects it; -c picks among many).
f="$top_srcdir/tests/cols.awk"
prof-roofline -c list
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
for c in H100 ascend910B3 tpu_v7x; do
	echo "--- -c $c"
	prof-roofline -c $c in.tsv | awk -v kind=metric -v want=name,chip,dtype,value -f "$f"
done
echo '--- -c a100 --peak-flops fp32=156000000000000 --peak-bw 1000'
prof-roofline -c a100 --peak-flops fp32=156000000000000 --peak-bw 1000 in.tsv |
    awk -v kind=metric -v want=name,chip,dtype,value -f "$f"
printf '# my chips\nchip\tdtype\tflops_per_s\thbm_bytes_per_s\n\nmine\tbf16\t100\t10\nmine\tfp8\t200\t10\n' >one.tsv
echo '--- -f one.tsv'
prof-roofline -f one.tsv in.tsv | awk -v kind=metric -v want=name,chip,dtype,value -f "$f"
echo '--- -f one.tsv -c list: the file chip first'
prof-roofline -f one.tsv -c list | head -3
printf 'x\tbf16\t100\t10\ny\tbf16\t300\t30\n' >two.tsv
echo '--- -f two.tsv (no chip chosen), then -c y'
prof-roofline -f two.tsv in.tsv | awk -v kind=metric -v want=name,chip,dtype,value,tags -f "$f"
prof-roofline -f two.tsv -c Y in.tsv | awk -v kind=metric -v want=name,chip,dtype,value -f "$f"
