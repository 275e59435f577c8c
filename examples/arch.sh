# The model architecture report of the bundled Qwen piece (rank 0 of a
# pipeline-parallel Qwen LLM training run, PP 2 x DP 2: two forward and
# two backward passes of 14 layers).  Every section is there; the
# AlexNet example's report (a CNN) has convolution layers instead of
# attention ones.
# From any directory: the data is found beside this script.
cd "$(dirname "$0")" || exit 1
prof-ingest -q data/qwen_pp2dp2 | prof-steps | prof-layers | prof-render -f arch
