# Busy time that is not the kernel union: the whole-capture gaps get their
# own global records, with their own evidence.
prof-bubbles <"$top_srcdir/tests/prof-bubbles/mismatch.tsv" | sed '/^#stage /d'
