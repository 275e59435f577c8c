# Activation checkpointing on a ResNet-18 training run on an MI300X
# (tracelens mi300_resnet_act_checkpoint_train): the backward pass reruns
# each checkpointed stage's forward convolutions before it computes their
# gradients.  Without a step column (no prof-steps), those segments are
# passes of their own, tagged recompute: forward passes with fewer layers
# than a full one, between backward passes.  A full forward pass has 20
# convolution layers in 8 residual blocks and 4 stages, and a Head; the
# recomputed stages 2 blocks each, 19 convolutions in all (the stem is
# not checkpointed), as tests/data/structure-expected.tsv counts them
# from the host's convolution ops inside the autograd engine.
# tests/prof-layers/recompute.sh shows a step column keeping them in the
# backward pass.
J="$CORPUS/pytorch_kineto/tracelens/mi300_resnet_act_checkpoint_train.json.gz"
[ -f "$J" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest -q "$J" >in.tsv || exit 1
prof-layers in.tsv >out.tsv || exit 1
awk -v kind=pass -v want=name,rule,layers,residual_blocks,stages,tags -f "$f" out.tsv |
    awk -F'\t' 'NR <= 13'
awk -v kind=pass -v want=layers,tags -f "$f" out.tsv |
    awk -F'\t' '$2 ~ /recompute/ { n++; l += $1 }
    END { print "passes tagged recompute:", n, "with", l, "convolution layers" }'
