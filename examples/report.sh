# The anomaly pipeline on the bundled two-rank Ascend profile, rendered
# by prof-render as the terminal summary: per rank the verdict (what
# bounds the step, its share and evidence), then the idle time per
# step and its pattern, the longest bubbles with the kernels around them
# and their labels, the causes, the costliest op, the recommendations.
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
prof-ingest -q data/alexnet_2rank | prof-steps | prof-merge |
    prof-bubbles | prof-attrib | prof-waitanchor | prof-roofline |
    prof-verdict | prof-cluster | prof-render -f text
