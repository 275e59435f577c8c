# The structure-level drill-down of the Markdown report on one ResNet-50
# training step (tests/data/resnet50_step6.json.gz): the largest bubbles
# placed by layer and pass (the step's prelaunch gap lies before the
# first layer: the input pipeline of a num_workers=0 DataLoader), then
# per layer type the device idle inside and before its layers, and the
# busy time and cost of its block and side, then the layers with the
# most idle.
J="$top_srcdir/tests/data/resnet50_step6.json.gz"
prof-ingest -q "$J" | prof-steps | prof-merge | prof-bubbles |
    prof-attrib | prof-layers >run.tsv || exit 1
prof-render -f md run.tsv >report.md
echo "exit $?"
sed -n '/^### Structure/,/^### Evidence gaps/p' report.md | sed '$d'
