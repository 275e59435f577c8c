# Two devices interleaved (a merged multi-rank stream): the kernels of
# the Qwen H100 trace on dev 0, and the same kernels 1 us later on dev
# 1.  Every computation is per device, so dev 1 gets the same passes
# and layers, 1000 ns later, while its records wait behind dev 0's.
J="$CORPUS/pytorch_kineto/tracelens/h100_Qwen1.5-0.5B-Chat_infer.json.gz"
[ -f "$J" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest "$J" | awk -F'\t' 'BEGIN { OFS = "\t" }
/^#/ { print; next }
!h { h = 1; print; next }
$1 == "kernel" { print; $2 += 1000; $4 = 1; print; next }' |
    awk -F'\t' '/^#/ || !h { if (!/^#/) h = 1; print; next }
	{ print | "sort -s -t \"\t\" -k2,2n" }' >in.tsv
prof-layers in.tsv >out.tsv || exit 1
for d in 0 1; do
	awk -v kind=pass,layer -v want=dev,ts_ns,dur_ns,pass,layer,kernel_count,tags -f "$f" out.tsv |
	    awk -F'\t' -v d=$d 'NR > 1 && $1 == d { print $2 - 1000 * d, $3, $4, $5, $6, $7 }' >dev$d
done
wc -l <dev0 | awk '{ print "dev 0:", $1, "pass and layer records" }'
cmp -s dev0 dev1 && echo 'dev 1 has the same passes and layers, 1000 ns later' || echo 'DIFFERENT'
awk -v kind=metric -v want=dev,name,value -f "$f" out.tsv | awk -F'\t' '$2 ~ /^(pass_count|layer_count)$/'
