# The bundled two-rank profile: records per kind and rank, the first
# records, and exact duration sums of the device kernels.
ln -s "$top_srcdir/examples/data" data
prof-ingest data/alexnet_2rank >stream.tsv
grep '^#' stream.tsv | grep -v '^#stage'
grep -v '^#' stream.tsv | awk -F'\t' 'NR > 1 { n[$1 "\t" $4]++ } END { for (k in n) print k "\t" n[k] }' | sort
grep -v '^#' stream.tsv | head -n 12
awk -F'\t' '$1 == "kernel" { s[$4] += $3 } END { for (d in s) printf "rank %s kernel_ns %.0f\n", d, s[d] }' stream.tsv | sort
