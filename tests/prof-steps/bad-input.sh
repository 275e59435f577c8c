# Bad input: a missing file, a stream that is not prof-tsv, a short record.
prof-steps no-such.tsv; echo "exit $?"
printf 'a\tb\n' | prof-steps; echo "exit $?"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\nhost\t5\t1\t0\t1\n' >short.tsv
prof-steps short.tsv; echo "exit $?"
# A pipe is spooled to a temporary file: a directory that cannot hold it.
cat "$top_srcdir/tests/prof-steps/markers.tsv" | prof-steps -T /nonexistent; echo "exit $?"
# A format version this program does not know.
printf '#prof-tsv 2\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' | prof-steps; echo "exit $?"
