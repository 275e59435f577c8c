# Shared helpers for the shell tests.  Sourced; expects top_srcdir and
# top_builddir from the test environment (tests/local.mk).

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
export LC_ALL=C

# The real-profile corpus lives beside the repository, never inside it.
corpus_dir() {
	if [ -n "${PROF_CORPUS:-}" ]; then
		echo "$PROF_CORPUS"
	else
		echo "$top_srcdir/../shared/corpus"
	fi
}

skip_() { echo "SKIP: $*"; exit 77; }
fail_() { echo "FAIL: $*" >&2; exit 1; }

# Every installed program, found from the tools/*.c sources.
tool_names() {
	for src in "$top_srcdir"/tools/prof-*.c; do
		basename "$src" .c
	done
}

scratch_dir() {
	d=$(mktemp -d "${TMPDIR:-/tmp}/proftest.XXXXXX") || fail_ "mktemp"
	echo "$d"
}
