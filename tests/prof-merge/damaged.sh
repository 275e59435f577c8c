# Several inputs, one of them damaged: its records before the damage
# and every record of the others are merged, the diagnostic names the
# file and line, and the exit status is 1 (with and without busy
# records).  A ts_ns that leaves int64 once rebased onto the common
# origin is damage too.
hdr='kind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
printf "#prof-tsv 1\n#origin_ns 1000\n${hdr}kernel\t10\t5\t0\t1\ta1\nkernel\t20\t5\t0\t1\ta2\nkernel\t30\t5\t0\t1\ta3\n" >a.tsv
printf "#prof-tsv 1\n#origin_ns 1000\n${hdr}kernel\t12\t5\t1\t1\tb1\nkernel\t22\t5\t1\t1\tb" >b.tsv
prof-merge -m a.tsv b.tsv; echo "exit $?"
prof-merge a.tsv b.tsv >out; echo "exit $?"
grep -v '^#' out
printf "#prof-tsv 1\n#origin_ns 0\n${hdr}kernel\t10\t5\t1\t1\tc1\n" >c.tsv
printf "#prof-tsv 1\n#origin_ns 1000\n${hdr}kernel\t10\t5\t0\t1\td1\nkernel\t9223372036854775000\t5\t0\t1\td2\n" >d.tsv
prof-merge -m c.tsv d.tsv >out; echo "exit $?"
grep -v '^#' out
