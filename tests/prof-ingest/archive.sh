# The same profile as a .tar.gz and as a directory gives the same records.
ln -s "$top_srcdir/examples/data" data
tar czhf p.tgz data/alexnet_2rank
prof-ingest data/alexnet_2rank | grep -v '^#' | cut -f1-23 | sort >dir.tsv
prof-ingest p.tgz | grep -v '^#' | cut -f1-23 | sort >tar.tsv
cmp dir.tsv tar.tsv && wc -l <tar.tsv
