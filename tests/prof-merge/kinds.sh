# --kinds: communication op spans counted as busy too; --capture: windows
# ignored, one union per device over the whole capture.
f="$top_srcdir/tests/prof-merge/straddle.tsv"
prof-merge --kinds=kernel,comm "$f" | grep '^busy'
echo --
prof-merge -c "$f" | grep '^busy'
