# Sparse host data: a real Kineto trace (HTA's critical-path AlexNet)
# with every host record removed before prof-attrib.  The anomaly
# section must still be there, with possible_untraced_host_blocking or
# insufficient_evidence and UNTRACED_HOST_BLOCKING_RISK, never empty.
f=$CORPUS/pytorch_kineto/hta/critical_path_alexnet_trace.json.gz
[ -r "$f" ] || exit 77
prof-ingest -q "$f" | grep -v '^host	' | prof-steps | prof-merge |
    prof-bubbles | prof-attrib | prof-waitanchor >run.tsv || exit 1
prof-render -f md run.tsv >report.md || exit 1
grep -c '^host	' run.tsv
grep -Eq 'possible_untraced_host_blocking|insufficient_evidence' report.md ||
    echo "FAIL: no sparse-host label in the report"
sed -n '/^## Summary/,/^## Metrics/p;/^### Candidate causes/,/^### Wait/p' \
    report.md
prof-render -f text run.tsv
