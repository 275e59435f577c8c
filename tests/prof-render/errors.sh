# Every diagnostic of prof-render, with its exit status.
t() { "$@" 2>&1; echo "exit $?"; }
# tq: the same with the report itself left out (a damaged stream's
# report of the records before the damage: see damaged.sh).
tq() { "$@" 2>&1 >/dev/null; echo "exit $?"; }
printf 'a\tb\n1\t2\n' | t prof-render -f md
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\nmetric\t1\t\t0\t\tcapture_span_ns\tabc\n' >bad.tsv
t prof-render -f json bad.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\nwindow\tx\t1\t0\t\tstep\n' >badts.tsv
tq prof-render -f md badts.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\nkernel\t1\t2\t0\t1\n' >short.tsv
t prof-render -f md short.tsv
t prof-render -f md no-such-file.tsv
t prof-render -f arch short.tsv
t prof-render -f pdf short.tsv
t prof-render -f md -c roofline short.tsv
t prof-render -c pie short.tsv
t prof-render -n x short.tsv
t prof-render -N a/b short.tsv
t prof-render -f md a.tsv b.tsv
: >file
t prof-render -o file short.tsv
t prof-render -o file/sub short.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\nbubble\t10\t9223372036854775800\t0\t\tprelaunch\n' >ovf.tsv
t prof-render -f json ovf.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\nbusy\t10\t-3\t0\t\tbusy\n' >neg.tsv
t prof-render -f svg neg.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\nmetric\t1\t\t0\t\ttop_gap_start_ns\t9223372036854775800\nmetric\t1\t\t0\t\ttop_gap_ns\t100\n' >gap.tsv
t prof-render -f json gap.tsv
