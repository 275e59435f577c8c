# Every diagnostic of prof-attrib: bad input records (exit 1), a bad
# markers file or option (exit 2, with the Try line), and the warning
# for a stream without bubble records (exit 0, records passed through).
h='kind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
printf "#prof-tsv 1\n$h"'bubble\t\t\t0\t\tglobal\n' >nots.tsv
printf "#prof-tsv 1\n$h"'bubble\t5\t10\t\t\tglobal\n' >nodev.tsv
printf "#prof-tsv 1\n$h"'host\t5\t10\t0\t1\tx\nhost\t4\t1\t0\t1\ty\n' >order.tsv
printf "#prof-tsv 1\n$h"'host\t5\t10\t0\t1\tx\n' >nobubble.tsv
printf '# families\nsync cudaMemcpy*\n\nhots aten::*\n' >bad.markers
printf 'sync\n' >short.markers
for args in nots.tsv nodev.tsv order.tsv nobubble.tsv \
    '-M bad.markers nobubble.tsv' '-M short.markers nobubble.tsv' \
    '-M absent.markers nobubble.tsv' '--sync-min=0.2x nobubble.tsv' \
    '--par-max=.5. nobubble.tsv' '--comm-min= nobubble.tsv' \
    '--significant=-1 nobubble.tsv' '--small-count=x nobubble.tsv' \
    '--launch-share=0.1.2 nobubble.tsv' 'nobubble.tsv extra'; do
	echo "prof-attrib $args"
	prof-attrib $args >out
	echo "exit $?"
	grep -v '^#' out
done 2>&1
echo 'prof-attrib <nots.tsv'
prof-attrib <nots.tsv 2>&1 >/dev/null
echo "exit $?"
