# bench/lib.sh: what the benchmark scripts share (sourced, not run).
# The caller sets $me (its name for messages) before sourcing, and $tmp
# (a scratch directory) before calling timing_init.

die() { printf '%s: %s\n' "$me" "$*" >&2; exit 1; }
note() { printf '%s: %s\n' "$me" "$*" >&2; }

# timing_init: find how to time commands (needs $tmp).
timing_init() {
	# Nanosecond wall clock if date has %N (GNU), else none.
	case $(date +%N 2>/dev/null) in
	''|*[!0-9]*) have_ns=0 ;;
	*) have_ns=1 ;;
	esac
	if [ -x /usr/bin/time ] && /usr/bin/time -f '%e %M' -o "$tmp/t" true 2>/dev/null &&
	    [ -s "$tmp/t" ]; then
		have_time=1
	else
		have_time=0
		note "/usr/bin/time (GNU time) is missing or not GNU: peak RSS will not be"
		note "measured (Debian/Ubuntu: apt-get install time); timing with the shell"
		[ "$have_ns" = 1 ] || die "no way to time commands: need GNU time or date +%N"
	fi
}

now_ns() { date +%s%N; }

# measure OUT CMD...: run CMD (stdout to /dev/null, stderr to $tmp/err) and
# append "seconds rss_kib cpu_seconds" to OUT (CPU: user + system, of every
# thread; "-" without GNU time).  Returns CMD's exit status.
measure() {
	out=$1
	shift
	rc=0
	if [ "$have_time" = 1 ]; then
		t0=0
		[ "$have_ns" = 1 ] && t0=$(now_ns)
		/usr/bin/time -f '%e %M %U %S' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || rc=$?
		t1=0
		[ "$have_ns" = 1 ] && t1=$(now_ns)
		# GNU time writes "Command exited with non-zero status N" first.
		tail -n 1 "$tmp/t" | awk -v t0="$t0" -v t1="$t1" -v ns="$have_ns" '
			{ s = ns ? (t1 - t0) / 1e9 : $1
			  printf "%.4f %s %.2f\n", s, $2, $3 + $4 }' >>"$out"
	else
		t0=$(now_ns)
		"$@" >/dev/null 2>"$tmp/err" || rc=$?
		t1=$(now_ns)
		awk -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%.4f - -\n", (t1 - t0) / 1e9 }' >>"$out"
	fi
	return $rc
}

# median FILE: median of the first column.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# range FILE: "min-max" of the first column.
range() { sort -n "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f\n", lo, hi }'; }
# median3 FILE: median of the third column (CPU seconds), or "-".
median3() { awk '$3 != "-" { print $3 }' "$1" | sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# maxcol2 FILE: the largest second column (peak RSS over the runs), or "-".
maxcol2() { awk '$2 != "-" && $2 > m { m = $2 } END { print m ? m : "-" }' "$1"; }

# fsize FILE: its size in bytes.
fsize() { wc -c <"$1" | awk '{ print $1 }'; }

# machine_lines: the "- date/machine/cpu/memory" lines of a report.
machine_lines() {
	printf -- '- date: %s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf -- '- machine: %s\n' "$(uname -srm)"
	if command -v lscpu >/dev/null 2>&1; then
		printf -- '- cpu: %s, %s logical CPUs\n' \
		    "$(lscpu | awk -F: '/^Model name/ { sub(/^[ \t]+/, "", $2); print $2; exit }')" \
		    "$(lscpu | awk -F: '/^CPU\(s\)/ { gsub(/[ \t]/, "", $2); print $2; exit }')"
	fi
	[ -r /proc/meminfo ] && printf -- '- memory: %s\n' \
	    "$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	return 0
}
