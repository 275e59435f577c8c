# Kernel names in the human formats: over 60 columns, the return type
# goes, template arguments and the signature become <…> and (…), and the
# rest is cut with …; free text (an advice's sentence, its evidence)
# loses its long argument lists and has every word cut at 60 columns,
# however many there are.  JSON keeps the names whole; the Chrome trace
# keeps them up to 256 bytes (the 2,000-byte one as 253 bytes and
# "...", prof-render(1)).
t='void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)'
long=$(printf 'x%.0s' $(seq 1 2000))
# Words of 61 columns: each is cut to 59 and "…", 3 bytes for 2.
w=$(printf 'aclnnMaxPool2dWithMaskBackward_MaxPoolGradWithArgmaxV1AiCor%02d ' $(seq 1 40) | sed 's/ $//')
{
	printf '#stage prof-ingest 0.1.0 -q names\n#stage prof-verdict 0.1.0\n'
	printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tcalls\tcost_avg_ns\twait_ratio\trank_cost\trank\tprio\tscope\tstake_ns\tshare_ratio\ttext\tevidence\tfollowup\n'
	printf 'kernel\t0\t10\t0\t7\t%s\t\t\t\t\t\t\t\t\t\t\t\t\n' "$t"
	printf 'kernel\t10\t10\t0\t7\t%s\t\t\t\t\t\t\t\t\t\t\t\t\n' "$long"
	printf 'op\t20\t\t0\t\t%s\t1\t10\t0\t1\t\t\t\t\t\t\t\t\n' "$t"
	printf 'advice\t20\t\t0\t\tfix_it\t\t\t\t\t1\tP1\trun\t5\t0.25\tdo not optimise %s: %s\tops %s\t0\n' "$t" "$w" "$w"
} >n.tsv
prof-render -f text n.tsv
prof-render -f md n.tsv | grep -F -e '| 1 |' -e '| 0 | 1 |'
echo '--- whole in JSON, cut at 256 bytes in the Chrome trace'
prof-render -f json n.tsv | grep -c -F "$t"
prof-render -f chrome n.tsv | grep -c -F "\"$(printf 'x%.0s' $(seq 1 253))...\""
