# A directory with no profile in it, empty or holding only files this
# version does not read, and an archive of such a directory: a warning
# that says so (the stream alone would be silently empty); exit 0, as
# all of it was read, and -i lists what is there.
mkdir empty notes
cp "$DATA/notes.txt" notes/
echo '{"version": 1}' >notes/profiler_info_0.json
echo '{"a": 1}' >notes/other.json
prof-ingest empty | grep -c -v '^#'
prof-ingest notes >/dev/null
echo "exit $?"
prof-ingest -i notes
tar cf notes.tar notes
prof-ingest notes.tar >/dev/null
echo "exit $?"
