# -o DIR writes every report of the bundled profile under the documented
# names, reading the stream once; -f narrows it to one format, -N names
# the profile.  The files are the ones the formats write to stdout.
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor >run.tsv
prof-render -o rep <run.tsv 2>err || exit 1
ls rep
cat err
prof-render -f md run.tsv | cmp - rep/anomaly_report_alexnet_2rank.md && echo "md same"
prof-render -f json run.tsv | cmp - rep/anomaly_discovery_alexnet_2rank.json && echo "json same"
prof-render -f text run.tsv | cmp - rep/summary_alexnet_2rank.txt && echo "text same"
prof-render -f chrome run.tsv | cmp - rep/trace_alexnet_2rank.json && echo "chrome same"
prof-render -f svg -c breakdown run.tsv | cmp - rep/breakdown_alexnet_2rank.svg && echo "svg same"
prof-render -f arch run.tsv | cmp - rep/model_architecture_report_alexnet_2rank.md && echo "arch same"
prof-render -o rep2 -f svg -c timeline -N my-run run.tsv && ls rep2
prof-render -o rep3 -f chrome run.tsv && ls -a rep3
prof-render -f html run.tsv | cmp - rep/report_alexnet_2rank.html && echo "html same"
