# A stream that already went through prof-verdict is refused: its
# summary records would be written twice.
prof-verdict "$top_srcdir/tests/prof-verdict/budget.tsv" | prof-verdict
