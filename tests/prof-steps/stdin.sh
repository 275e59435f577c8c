# Standard input from a pipe is spooled and read again: same output as
# the file read by name, and as a regular file on standard input.
cp "$top_srcdir/tests/prof-steps/markers.tsv" . && f=markers.tsv	# its name in the warnings
prof-steps "$f" | sed '/^#stage /d' >byname
cat "$f" | prof-steps | sed '/^#stage /d' >piped
prof-steps <"$f" | sed '/^#stage /d' >redirected
prof-steps - <"$f" | sed '/^#stage /d' >dash
cmp byname piped && cmp byname redirected && cmp byname dash && echo same
