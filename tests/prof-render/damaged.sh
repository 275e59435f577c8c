# A damaged stream: the report is made from the records before the
# damage, the diagnostic names the file, line and fault, and the exit
# status is 1.  -o DIR leaves no hidden or half-written file behind on
# any error (a full disk is a file size limit here).
r() { "$@" 2>&1; echo "exit $?"; }
# rq: the diagnostic and status, the report left out.
rq() { "$@" 2>&1 >/dev/null; echo "exit $?"; }
hdr='#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
# A stream cut inside its last field: two kernels, the third cut.
printf "${hdr}kernel\t10\t5\t0\t1\tk1\nkernel\t20\t5\t0\t1\tk2\nkernel\t30\t5\t0\t1\tk" >cut.tsv
prof-render -f chrome cut.tsv >chrome.out 2>err; echo "exit $?"; cat err
python3 -c 'import json, sys; json.load(sys.stdin)' <chrome.out && echo "valid JSON"
echo "kernels in the trace: $(grep -c '"name":"k[0-9]"' chrome.out)"
r prof-render -f text cut.tsv | grep -E 'exit|cut short|kernel'
# Cut before the header, and a version this program does not know.
printf '#prof-tsv 1\n#origin_ns 5\n' | r prof-render -f md
printf '#prof-tsv 2\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' | r prof-render -f md
# -2^63 is no time, and a kernel has both times.
printf "${hdr}kernel\t-9223372036854775808\t1\t0\t1\tk\n" | rq prof-render -f json
printf "${hdr}kernel\t5\t\t0\t1\tk\n" | rq prof-render -f json
# -o DIR on a full disk: the write fails, and nothing is left behind.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" >run.tsv
(trap '' XFSZ; ulimit -f 8; prof-render -o full run.tsv 2>err; echo "exit $?")
cat err
echo "left in full: $(ls -A full | wc -l)"
# The Chrome trace cannot be renamed into place: its hidden file goes.
mkdir -p ren/trace_alexnet_2rank.json
r prof-render -o ren -f chrome run.tsv
ls -A ren
# Bad input found while the reports are made: nothing half-made stays.
printf "${hdr%\\n}\tvalue\nmetric\t1\t\t0\t\tcapture_span_ns\tabc\n" | r prof-render -o bad
echo "left in bad: $(ls -A bad | wc -l)"
