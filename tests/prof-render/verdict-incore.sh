# An op-simulator trace (prof-verdict's in_core verdict) is shown as the
# pipe that bounds the kernel, with no step or bubble analysis; the same
# stream without the verdict records gets the one line that says how to
# add prof-verdict.
printf '#prof-tsv 1\n#stage prof-ingest 0.1.0 -q sim\n#stage prof-verdict 0.1.0\n' >s.tsv
printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname\tscope\tshare_ratio\twindow_ns\tconfidence\tpipe\tevidence\ttags\tstake_ns\trank\tprio\ttext\tfollowup\n' >>s.tsv
printf 'pipe\t0\t376\t0\tmte3\tMTE3\t\t\t\t\t\t\t\t\t\t\t\t\n' >>s.tsv
printf 'verdict\t2277\t\t0\t\tin_core\trun\t0.091787\t2277\tlow\tmte3\top simulator: core busy 376 ns of 2277 ns; bounding pipe mte3 at 0.091787 of the span\tdegenerate,degenerate_trace\t\t\t\t\t\n' >>s.tsv
printf 'advice\t2277\t\t0\t\trelieve_the_pipe\trun\t\t\t\t\tdegenerate_trace\t\t0\t1\tP3\tthe kernel is bound by its mte3 pipe: balance the work across pipes\t0\n' >>s.tsv
prof-render -f text s.tsv
prof-render -f md s.tsv | sed -n '/^## Summary/,/^## Metrics/p'
echo '--- without prof-verdict'
grep -v '^verdict\|^advice\|prof-verdict' s.tsv >n.tsv
prof-render -f text n.tsv
prof-render -f md n.tsv | grep -A2 '^### Verdict\|^## Recommendations'
