# The inventory of the bundled two-rank example profile.
ln -s "$top_srcdir/examples/data" data
prof-ingest -i data/alexnet_2rank
