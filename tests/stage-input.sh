#!/bin/sh
# Hostile input to every pass-through stage (found by stage_names, so a
# stage added later is tested too): each damaged stream must stop the
# stage with status 1 and the exact diagnostic of the stage library,
# "PROG: FILE:LINE: what is wrong", value in single quotes, after
# writing every record before the damaged one; an empty input gives an
# empty stream and status 0; a record with an 8 MiB name (made here)
# passes through whole.  The other readers of the stream, prof-merge's
# k-way merge (-m) and prof-render, read it through the same reader of
# the contract: they must stop with the same diagnostic.
. "${top_srcdir:-.}/tests/lib.sh"
PATH="$top_builddir/tools:$PATH"; export PATH
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

stages=$(stage_names)
[ -n "$stages" ] || fail_ "no stage found"
hdr='#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n'
status=0 n=0

# bad NAME BODY MESSAGE: the header, then BODY (printf format), must
# give "PROG: in.tsv:MESSAGE" and status 1 from every stage, and the
# records before the line MESSAGE names must be in its output.
bad() {
	printf "$hdr$2" >in.tsv
	rawbad "$1" "$3"
}

# refused CMD NAME MESSAGE: CMD (a program and its options) on in.tsv
# exits 1 with "PROG: in.tsv:MESSAGE" alone on stderr; its stdout in out.
refused() {
	n=$((n + 1))
	$1 in.tsv >out 2>err
	st=$?
	want="${1%% *}: in.tsv:$3"
	if [ $st -ne 1 ] || [ "$(cat err)" != "$want" ]; then
		echo "FAIL: $1, $2: exit $st, stderr:"; cat err
		echo "  want exit 1 and: $want"
		status=1
	fi
}

# rawbad NAME MESSAGE: the same for a stream in.tsv already made.
rawbad() {
	at=${2%%:*}
	awk -v at="$at" 'NR > 2 && NR < at' in.tsv | cut -f 1-6 >before
	for t in $stages; do
		refused "$t" "$1" "$2"
		cut -f 1-6 out >out6
		while IFS= read -r rec; do
			grep -Fxq "$rec" out6 && continue
			echo "FAIL: $t, $1: record before the damage lost: $rec"
			status=1
		done <before
	done
	for t in "prof-merge -m" "prof-render -f text"; do
		refused "$t" "$1" "$2"
	done
}

bad order 'kernel\t10\t1\t0\tt\ta\nkernel\t5\t1\t0\tt\tb\n' \
    "4: records out of order: ts_ns 5 after 10"
bad timeless-after 'kernel\t10\t1\t0\tt\ta\nmetric\t\t\t0\t\tm\n' \
    "4: records out of order: a timeless record after timed ones"
bad negative-dur 'kernel\t10\t-1\t0\tt\ta\n' \
    "3: column 'dur_ns': negative duration '-1'"
bad end-overflow 'kernel\t9223372036854775800\t100\t0\tt\ta\n' \
    "3: ts_ns + dur_ns overflows 64-bit nanoseconds: '9223372036854775800' + '100'"
bad ts-range 'kernel\t99999999999999999999\t1\t0\tt\ta\n' \
    "3: column 'ts_ns': invalid integer '99999999999999999999'"
bad ts-text 'kernel\t1.5\t1\t0\tt\ta\n' \
    "3: column 'ts_ns': invalid integer '1.5'"
bad few-fields 'kernel\t10\t1\t0\tt\n' "3: expected 6 fields, got 5"
bad many-fields 'kernel\t10\t1\t0\tt\ta\tb\n' "3: expected 6 fields, got 7"
bad nul 'kernel\t10\t1\t0\tt\ta\000b\n' "3: NUL byte"
bad crlf 'kernel\t10\t1\t0\tt\ta\r\n' "3: CR before LF"
bad escape 'kernel\t10\t1\t0\tt\ta\\qb\n' \
    "3: column 'name': invalid escape in 'a\\qb'"
# Damage after good records: those before it are written.
bad late-order 'kernel\t10\t1\t0\tt\ta\nhost\t12\t1\t0\th\tb\nkernel\t11\t1\t0\tt\tc\n' \
    "5: records out of order: ts_ns 11 after 12"
bad late-fields 'kernel\t10\t1\t0\tt\ta\nhost\t12\t1\t0\th\tb\nkernel\t13\t1\t0\tt\n' \
    "5: expected 6 fields, got 5"
# Cut short (a full disk, a killed writer): a last line without its
# newline is never a record, wherever the cut fell.
bad cut-last-field 'kernel\t10\t1\t0\tt\ta\nkernel\t20\t1\t0\tt\tb' \
    "4: unexpected end of file: the last record has no newline (the stream is cut short)"
bad cut-in-number 'kernel\t10\t1\t0\tt\ta\nkernel\t20\t1' \
    "4: unexpected end of file: the last record has no newline (the stream is cut short)"
bad cut-after-cr 'kernel\t10\t1\t0\tt\ta\nkernel\t20\t1\t0\tt\tb\r' \
    "4: unexpected end of file: the last record has no newline (the stream is cut short)"
printf '#prof-tsv 1\n#origin_ns 5\n' >in.tsv
rawbad cut-before-header "2: unexpected end of file: no header line after the preamble (the stream is cut short)"
printf '#prof-tsv 1\nkind\tts_ns\tdur' >in.tsv
rawbad cut-in-header "2: unexpected end of file: the header line has no newline (the stream is cut short)"
printf '#prof-tsv 1\n#origin' >in.tsv
rawbad cut-in-preamble "2: unexpected end of file: the preamble line has no newline (the stream is cut short)"
printf '#prof-tsv 2\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >in.tsv
rawbad version "1: unsupported prof-tsv version '2'"
printf '#prof-tsv 1\nkind\tts\tdur_ns\tdev\ttrack\tname\nkernel\t1\t1\t0\tt\ta\n' >in.tsv
rawbad columns "2: not a prof-tsv stream: column 2 is 'ts', expected 'ts_ns'"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\n' >in.tsv
rawbad few-columns "2: not a prof-tsv stream: column 5 is '', expected 'track'"
# -2^63 stands for an empty ts_ns in every program: never a value.
bad ts-min 'kernel\t-9223372036854775808\t1\t0\tt\ta\n' \
    "3: column 'ts_ns': '-9223372036854775808' is out of range (the earliest time is -9223372036854775807)"
# A kernel always has an extent: every stage refuses one without.
bad kernel-no-dur 'kernel\t10\t1\t0\tt\ta\nkernel\t20\t\t0\tt\tb\n' \
    "4: kernel record without dur_ns"
bad kernel-no-ts 'kernel\t\t1\t0\tt\ta\n' "3: kernel record without ts_ns"
# A capture spans less than 2^63 ns, so that every difference of its
# times (a span, a gap, a union) is an int64 in every stage.
bad span 'kernel\t-9223372036854775807\t1\t0\tt\ta\nkernel\t1\t1\t0\tt\tb\n' \
    "4: capture span overflows 64-bit nanoseconds: from -9223372036854775807 to 2"
# A queue time is never negative: no stage sums what another refuses.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in.tsv
printf 'kernel\t10\t1\t0\tt\ta\t5\nkernel\t20\t1\t0\tt\tb\t-5\n' >>in.tsv
rawbad negative-wait "4: column 'wait_ns': negative wait '-5'"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\twait_ns\n' >in.tsv
printf 'kernel\t10\t1\t0\tt\ta\t5us\n' >>in.tsv
rawbad wait-text "3: column 'wait_ns': invalid integer '5us'"

for t in $stages; do
	n=$((n + 1))
	: >empty.tsv
	if ! "$t" empty.tsv >out 2>/dev/null || ! grep -q '^#prof-tsv 1$' out ||
	    [ "$(grep -v '^#' out | cut -f 1-6 | head -n 1)" != \
	    "$(printf 'kind\tts_ns\tdur_ns\tdev\ttrack\tname')" ]; then
		echo "FAIL: $t: empty input"; status=1
	fi
done

awk 'BEGIN {
	printf "#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n"
	s = "x"; while (length(s) < 8388608) s = s s
	printf "kernel\t0\t5\t0\tt\tshort\nkernel\t10\t5\t0\tt\t%s\n", s
}' >big.tsv
for t in $stages; do
	n=$((n + 1))
	got=$("$t" big.tsv 2>/dev/null | awk -F '\t' '$1 == "kernel" && length($6) == 8388608' | wc -l)
	[ "$got" -eq 1 ] || { echo "FAIL: $t: the 8 MiB name did not pass through"; status=1; }
done
echo "$n checks over: $(echo $stages)"
exit $status
