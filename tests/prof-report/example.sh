# The README's main job: prof-report on the bundled two-rank profile.
# Its summary leads with the verdict; report.html is the HTML report;
# the rank pipelines (-s ranks: the capture is below the 8 MiB where
# they start by themselves) run two at a time (-j2) write exactly what
# they write one at a time (-j1); and the Markdown report of the rank
# pipelines is the one the README's pipeline, typed by hand on the
# whole capture, renders (but
# for its list of stages and its record count, and the prof-merge -m
# line with the names of its temporary files: each rank's pipeline
# adds its own #stage lines and prof-roofline's peaks_known metric).
cd "$top_srcdir/examples" || exit 1
out=$OLDPWD/out
prof-report data/alexnet_2rank -o "$out" | sed "s|$out|OUT|"
echo "exit $?"
ls "$out"
cmp "$out/report.html" "$out/report_alexnet_2rank.html" && echo "report.html: the HTML report"
# -j1: both ranks in one rank pipeline; -j2: one each.  The streams differ
# in their stage lines and where the rank stages' summary records sit
# (each pipeline's end of capture), the reports not.
prof-report -q -k -s ranks -j1 -o "$out/j1" data/alexnet_2rank &&
    prof-report -q -k -s ranks -j2 -o "$out/j2" data/alexnet_2rank &&
    grep -v '^Stages: ' "$out/j1/anomaly_report_alexnet_2rank.md" >"$out/j1.md" &&
    grep -v '^Stages: ' "$out/j2/anomaly_report_alexnet_2rank.md" |
    cmp - "$out/j1.md" && echo "-j1 and -j2: the same report"
prof-ingest -q data/alexnet_2rank | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-waitanchor | prof-layers | prof-roofline | prof-ops |
    prof-verdict | prof-cluster | prof-render -f md -N alexnet_2rank |
    grep -v '^Stages: ' >"$out/byhand.md"
prof-render -f md -N alexnet_2rank "$out/j2/stages/report.tsv" |
    grep -v '^Stages: ' | diff - "$out/byhand.md" &&
    echo "the Markdown report of the rank pipelines: as by hand"
grep -v '^Stages: ' "$out/anomaly_report_alexnet_2rank.md" |
    diff - "$out/byhand.md" && echo "the Markdown report: as by hand"
