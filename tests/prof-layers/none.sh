# A trace with no repeating structure: a small multilayer perceptron
# trained for five steps (tests/data/step_based_trace.json.gz, HTA's
# step_based_trace: GEMV, sigmoid, MSE loss; 28 kernels a step).  The
# steps repeat, but a step is not a layer: no attention kernel, no
# convolution, and no layer anchor (GEMM, norm, ...) repeats within a
# step, so no layer, and a model record that says so, with the best
# confidence the detection saw (below 0.5).  Elementwise, fill and copy
# kernels repeat too and are never anchors.  The same with prof-steps
# before it (one detection window per step).
J="$top_srcdir/tests/data/step_based_trace.json.gz"
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$J" >in.tsv || exit 1
awk -F'\t' '$1 == "kernel" { n++ } END { print n, "kernels" }' in.tsv
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=pass,layer,model -v want=kind,name,value,tags,evidence -f "$f" out.tsv
awk -v kind=metric -v want=name,value -f "$f" out.tsv |
    awk -F'\t' '$1 ~ /^(pass_count|layer_count|layer_detect_confidence_ratio)$/'
echo '--- after prof-steps'
prof-steps in.tsv | prof-layers >steps.tsv || exit 1
awk -v kind=pass,layer,model -v want=kind,name,value,tags -f "$f" steps.tsv
echo '--- -p 28 forces the step as the period: a GEMM that runs once a'
echo '--- step then anchors "layers" that are steps, at a high confidence:'
echo '--- a period given is believed, so give the layer'"'"'s'
prof-layers -p 28 in.tsv | awk -v kind=model -v want=kind,name,value,tags,evidence -f "$f"
