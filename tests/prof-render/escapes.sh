# A kernel name with every character that needs care: XML's < > & ",
# a backslash, a control character and a newline (escaped in prof-tsv).
# The SVG stays well-formed (the control character becomes U+FFFD), the
# Chrome trace reads back to the same name, the Markdown cell stays one
# line with its '|' escaped.
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tai\tflops\tbound\n' >e.tsv
printf 'kernel\t0\t1000\t0\t1\ta<b>&"c|\\\\\001\\n\t1\t1000\tmem\n' >>e.tsv
printf 'op\t1000\t\t0\t\ta<b>&"c|\\\\\001\\n\t\t\t\n' >>e.tsv
prof-render -f svg -c roofline e.tsv >e.svg || exit 1
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout e.svg || echo "FAIL: e.svg is not well-formed"
fi
grep -c "$(printf '\357\277\275')" e.svg
prof-render -f chrome e.tsv >e.json || exit 1
prof-ingest -q e.json | awk -F'\t' '$1 == "kernel" { print $6 }' >back
awk -F'\t' '$1 == "kernel" { print $6 }' e.tsv | cmp - back && echo "chrome: same name"
prof-render -f json e.tsv | grep -c '"op_name": "a<b>&\\"c|\\\\\\u0001\\n"'
prof-render -f md e.tsv | grep -F '| 0 | - | `a<b>&"c\|\'
