# Two ranks on different origins: merged onto the smaller origin (rank0's
# ts_ns grow by 10), #source, #evidence and src renumbered, the union of
# the columns, timeless records first, ties in the order of the operands;
# then the busy records of each device.
cp "$top_srcdir/tests/prof-merge/rank0.tsv" "$top_srcdir/tests/prof-merge/rank1.tsv" .
prof-merge -m rank0.tsv rank1.tsv
echo --
prof-merge rank0.tsv rank1.tsv | grep -v '^#'
echo --
prof-merge rank1.tsv - <rank0.tsv | grep -v '^#' | cut -f 1-7
