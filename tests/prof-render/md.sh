# The Markdown anomaly report of the bundled two-rank Ascend profile
# after the whole anomaly pipeline.  Its numbers are the stream's, in ms
# with three decimals: json.sh checks the same values exactly against
# the stream with an independent reader (check-json.py).
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" | prof-steps |
    prof-merge | prof-bubbles | prof-attrib | prof-waitanchor |
    prof-render -f md
