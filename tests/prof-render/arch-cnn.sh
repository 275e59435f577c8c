# The architecture report of a convolutional network: one ResNet-50
# training step (tests/data/resnet50_step6.json.gz, see
# tests/prof-layers/cnn-resnet50.sh for the counts from the kernel
# names).  The structure row says how it was found (cnn, with its
# confidence and evidence); section 2 the residual blocks per stage;
# section 3 what each pass costs; section 9 where the idle time is and
# which side carries the cost.
J="$top_srcdir/tests/data/resnet50_step6.json.gz"
prof-ingest -q "$J" | prof-steps | prof-layers >run.tsv || exit 1
prof-render -f arch run.tsv
echo "exit $?"
