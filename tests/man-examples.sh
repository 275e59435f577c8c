#!/bin/sh
# Every command of the EXAMPLES of every man page, run as written
# (issue 20), by tests/man-examples.py: in a scratch directory per page
# where the names the examples use stand for the bundled data, each must
# succeed, write something, and write what the page shows where it reads
# data that is here.  Examples that need the corpus are run when it is
# present and named as skipped when not.
. "${top_srcdir:-.}/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_ "no python3"
PATH="$(cd "$top_builddir" && pwd)/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
corpus=$(corpus_dir)
[ -d "$corpus" ] || corpus=
python3 "$top_srcdir/tests/man-examples.py" "$(cd "$top_srcdir" && pwd)" \
    "$tmp" "$corpus"
