# -f text never breaks a word: a kernel name wider than a continuation
# line starts further left, and only one wider than the line is cut
# with an ellipsis.  Every long name in the summary of the bundled
# profile is a whole kernel name of the stream, at 80, 60 and 44
# columns (tags in capitals aside), and no line is wider than asked.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor |
    prof-roofline | prof-verdict >run.tsv
awk -F'\t' '$1 == "kernel" || $1 == "op" { print $6 }' run.tsv | sort -u >names
widest() { tr -d '\200-\277' | awk '{ n = length($0) } n > w { w = n } END { print w + 0 }'; }
for w in 80 60 44; do
	COLUMNS=$w prof-render -f text run.tsv >t.txt || exit 1
	tr ' ,;()[]' '\n\n\n\n\n\n\n' <t.txt | grep -E '^[A-Za-z0-9]+_[A-Za-z0-9_]{16,}' |
	    grep -v '^[A-Z0-9_]*$' | sort -u >long
	grep -v "$(printf '\342\200\246')\$" long >whole
	printf 'COLUMNS=%s: widest %s, %s long names, %s not a kernel name, %s shortened\n' \
	    "$w" "$(widest <t.txt)" "$(wc -l <long)" \
	    "$(grep -cvxFf names whole)" "$(grep -c "$(printf '\342\200\246')\$" long)"
	grep -vxFf names whole | head -n 3
done
