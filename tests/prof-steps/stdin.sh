# Standard input from a pipe is spooled and read again: same output as
# the file read by name, and as a regular file on standard input.  So
# is a pipe or FIFO named as the file (what <(cat FILE) gives bash).
cp "$top_srcdir/tests/prof-steps/markers.tsv" . && f=markers.tsv	# its name in the warnings
prof-steps "$f" | sed '/^#stage /d' >byname
cat "$f" | prof-steps | sed '/^#stage /d' >piped
prof-steps <"$f" | sed '/^#stage /d' >redirected
prof-steps - <"$f" | sed '/^#stage /d' >dash
cmp byname piped && cmp byname redirected && cmp byname dash && echo same
cat "$f" | prof-steps -q /dev/stdin | sed '/^#stage /d' >devstdin
mkfifo fifo
cat "$f" >fifo &
prof-steps -q fifo | sed '/^#stage /d' >fromfifo
wait
cmp byname devstdin && cmp byname fromfifo && echo same by name
