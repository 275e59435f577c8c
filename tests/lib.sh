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

# corpus_runs: the bundled example, then every run of the corpus (a
# directory two levels down), one a line; a note on standard error when
# there is no corpus.
corpus_runs() {
	echo "$top_srcdir/examples/data/alexnet_2rank"
	_c=$(corpus_dir)
	if [ -d "$_c" ]; then
		for _r in "$_c"/*/*; do [ -d "$_r" ] && echo "$_r"; done
	else
		echo "note: no corpus at $_c: the bundled example only" >&2
	fi
	return 0
}

skip_() { echo "SKIP: $*"; exit 77; }
fail_() { echo "FAIL: $*" >&2; exit 1; }

# Every installed program, found from the tools/*.c sources and the
# tools/*.in scripts (prof-report).
tool_names() {
	for src in "$top_srcdir"/tools/prof-*.c "$top_srcdir"/tools/prof-*.in; do
		[ -e "$src" ] || continue
		src=${src%.in}
		basename "$src" .c
	done
}

scratch_dir() {
	d=$(mktemp -d "${TMPDIR:-/tmp}/proftest.XXXXXX") || fail_ "mktemp"
	echo "$d"
}

# corpus_test [COMMAND...]: a test of the corpus begins: the built tools
# first in PATH, $corpus the corpus, $tmp a scratch directory removed at
# exit; skipped (77) without the corpus or one of the COMMANDs.
corpus_test() {
	PATH="$top_builddir/tools:$PATH"; export PATH
	corpus=$(corpus_dir)
	[ -d "$corpus" ] || skip_ "no corpus at $corpus"
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || skip_ "no $_c"
	done
	tmp=$(scratch_dir)
	trap 'rm -rf "$tmp"' EXIT
}

# The pass-through stages among the programs: those that, given a minimal
# prof-tsv stream on stdin, write one with a "#stage NAME" line of their
# own (so prof-ingest and report writers are left out, and a stage added
# later is found without a list to update).  Needs PATH to hold the tools.
stage_names() {
	_in=$(scratch_dir)
	printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >"$_in/in"
	for _t in $(tool_names); do
		[ "$_t" = prof-ingest ] && continue
		"$_t" <"$_in/in" >"$_in/out" 2>/dev/null &&
		    head -n 1 "$_in/out" | grep -q '^#prof-tsv ' &&
		    grep -q "^#stage $_t " "$_in/out" && echo "$_t"
	done
	rm -rf "$_in"
}

# evidence_table SCRIPT CORPUS TABLE TMP: the expectation table TABLE is
# exactly what the independent SCRIPT (python3, no proftools) writes from
# CORPUS; says what differs and returns 1 when not.  Without python3 it
# says so and returns 0: the comparisons with the table still run.
evidence_table() {
	_py=
	if [ -x /usr/bin/python3 ]; then _py=/usr/bin/python3
	else _py=$(command -v python3 2>/dev/null) || _py=
	fi
	if [ -z "$_py" ]; then
		echo "note: no python3: the table is not checked against the evidence"
		return 0
	fi
	if ! "$_py" "$1" "$2" >"$4/table" 2>"$4/py.err"; then
		echo "FAIL: ${1##*/}:"; cat "$4/py.err"; return 1
	fi
	if ! cmp -s "$4/table" "$3"; then
		echo "FAIL: ${1##*/} no longer writes tests/data/${3##*/}" \
		    "(review, then regenerate):"
		diff "$3" "$4/table" | cut -c1-240 | head -n 40
		return 1
	fi
}

# same_paths NAME FILE [OPTION...]: prof-ingest's direct output of a
# lone FILE against its stored path (PROF_INGEST_DIRECT=0), with -m 12M
# and -m 1M (runs merged two at a time), and OPTIONs: stdout, stderr
# and the exit status must agree byte for byte.  Counts in $n, sets
# $failed on a difference; needs $tmp.
same_paths() {
	_sp_name=$1 _sp_f=$2
	shift 2
	for _sp_m in 12M 1M; do
		PROF_INGEST_MERGE_FAN=2 prof-ingest -q -m $_sp_m "$@" \
		    "$_sp_f" >"$tmp/d.out" 2>"$tmp/d.err"
		echo $? >>"$tmp/d.err"
		PROF_INGEST_DIRECT=0 PROF_INGEST_MERGE_FAN=2 prof-ingest -q \
		    -m $_sp_m "$@" "$_sp_f" >"$tmp/s.out" 2>"$tmp/s.err"
		echo $? >>"$tmp/s.err"
		n=$((n + 1))
		if cmp -s "$tmp/d.out" "$tmp/s.out" &&
		    cmp -s "$tmp/d.err" "$tmp/s.err"; then
			echo "same: $_sp_name -m $_sp_m" \
			    "($(grep -vc '^#' "$tmp/d.out") lines," \
			    "exit $(tail -n 1 "$tmp/d.err"))"
		else
			echo "DIFFERS: $_sp_name -m $_sp_m"
			diff "$tmp/s.err" "$tmp/d.err" | head -n 5
			cmp "$tmp/s.out" "$tmp/d.out" | head -n 2
			failed=1
		fi
	done
}
