# Reference vector (spec section 11): merge {[10,20],[0,5],[5,8],[15,25],
# [30,30],[40,35],[27,29]} gives [0,8],[10,25],[27,29].  No windows: one
# union over the whole capture; zero-length and reversed intervals vanish,
# touching ones merge.
prof-merge "$top_srcdir/tests/prof-merge/vector-merge.tsv" | grep '^busy'
