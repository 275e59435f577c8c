# A dev is any text (prof-tsv(5)): ranks named "npu:a", "10" and "2"
# each get their bubbles measured and their causes, reported in rank
# order (numbers by value, then text); an integer was once required.
h='kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\tstep\tstep_group\n'
{
	printf "#prof-tsv 1\n$h"
	for d in npu:a 10 2; do
		printf 'window\t0\t10000000\t%s\t\tstep 1\tmarker\t1\tg0\n' $d
	done
	for d in npu:a 10 2; do
		printf 'host\t0\t9000000\t%s\t1\taten::item\tcpu_op\t\t\n' $d
	done
	for d in npu:a 10 2; do
		printf 'kernel\t8000000\t2000000\t%s\t7\tgemm\t\t1\t\n' $d
	done
} >in.tsv
prof-merge in.tsv | prof-bubbles | prof-attrib >out.tsv
echo "exit $?"
awk -v kind=cause -f "$top_srcdir/tests/cols.awk" -v want=kind,dev,name,scope <out.tsv
awk -v kind=bubble -f "$top_srcdir/tests/cols.awk" \
    -v want=dev,name,dur_ns,host_cov_ratio,idle_sync_ns <out.tsv
