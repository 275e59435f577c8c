# Run twice, prof-layers would add every pass, layer, check and summary
# record again: input that shows it already ran (its "#stage
# prof-layers" line, or a layer_type column) is refused, naming the line.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
printf 'kernel\t%s\t10\t0\t1\tflash_fwd_kernel\n' 0 100 200 >>in.tsv
prof-layers in.tsv >once.tsv || exit 1
prof-layers once.tsv >/dev/null
echo "exit $?"
# the columns without the preamble line (it was cut away)
grep -v '^#stage prof-layers' once.tsv >cols.tsv
prof-layers cols.tsv >/dev/null
echo "exit $?"
# and through a pipe
prof-layers in.tsv | prof-layers
