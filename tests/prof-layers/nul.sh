# The reader finds NUL bytes in the pass that splits a record into
# fields: in a long record's first block, in its last short block, and
# before a CR at the end of the line (the NUL is the complaint).
h='#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
printf "${h}kernel\t1\t1\t0\t1\ta\000b\n" >first.tsv
printf "${h}kernel\t1\t1\t0\t1\tflash_fwd_kernel_with_a_long_name\000\n" >tail.tsv
printf "${h}kernel\t1\t1\t0\t1\tab\000\r\n" >cr.tsv
for f in first tail cr; do
	prof-layers $f.tsv >/dev/null
	echo "exit $?"
done
