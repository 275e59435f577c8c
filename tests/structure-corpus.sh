#!/bin/sh
# The model's structure on real profiles (issue 13, "What users must
# get"): on every run of ../shared/corpus, prof-steps and prof-layers find
# the number of steps, the passes per step, the layers per pass and the
# layer type that an independent reading of the raw files finds.
#
# (a) tests/structure-evidence.py (python3, standard library, no
#     proftools) counts them from the raw files (ProfilerStep markers and
#     Ascend step ids; attention and convolution kernels and ops per step;
#     nn.Module frames; the model's published layer count where the trace
#     names the model; see its header) and must write exactly
#     tests/data/structure-expected.tsv, so the table cannot drift from
#     the evidence.  Skipped, with a message, when there is no python3;
#     (b) still runs.
# (b) For each run of the table,
#       prof-ingest -q -k RUN | prof-steps | prof-layers
#     runs once, and for each (run, dev) row, from records and columns
#     found by name:
#       steps            the window records of the dev;
#       passes_per_step  the median, over the windows whose kernel_count
#                        metric is not 0 (all windows if none is), of the
#                        pass records that start in the window;
#       layers_per_pass  the median `layers` of the dev's pass records not
#                        tagged cut_start or cut_end that start in a
#                        window counted above (the table counts per
#                        step; a pass of kernels outside every step,
#                        such as work queued before the capture, is not
#                        one), else of those not cut, else of all; 0
#                        without pass records;
#       layer_type       the name of the dev's layer_type record with the
#                        most layers (`value`), none without one;
#     each must equal the table's column or one of its `accept`
#     alternatives (`column=v1,lo..hi;...`).  Layer types are compared
#     lower case without spaces, by family: a name with moe is moe, with
#     conv conv, with dense or transformer dense, with mlp mlp.  A dev
#     with pass records but no row is a disagreement too.  Every
#     disagreement is printed in one table and fails the test.
#
# A missing prof-layers fails.  Skipped (77) when the corpus is not
# beside the repository.
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$(corpus_dir)
[ -d "$corpus" ] || skip_ "no corpus at $corpus"
PATH="$top_builddir/tools:$PATH"; export PATH
table="$top_srcdir/tests/data/structure-expected.tsv"
tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
failed=0

# (a) the table is what the evidence says
evidence_table "$top_srcdir/tests/structure-evidence.py" "$corpus" "$table" \
    "$tmp" || failed=1

# (b) prof-steps and prof-layers agree with the table
for t in prof-ingest prof-steps prof-layers; do
	command -v "$t" >/dev/null 2>&1 ||
	    fail_ "$t is not built: the structure cannot be checked"
done

# What the stream says per dev, as
# "dev<TAB>steps<TAB>passes_per_step<TAB>layers_per_pass<TAB>layer_type
# <TAB>passes", every column found by name.
structure() {
	awk -F'\t' '
	function median(a, n,   i, j, t) {
		if (n == 0) return 0
		for (i = 2; i <= n; i++) {
			t = a[i]
			for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
			a[j + 1] = t
		}
		if (n % 2) return a[(n + 1) / 2]
		return (a[n / 2] + a[n / 2 + 1]) / 2
	}
	/^#/ { next }
	!hdr {
		for (i = 1; i <= NF; i++) col[$i] = i
		hdr = 1
		split("kind ts_ns dur_ns dev name step tags layers value", need,
		    " ")
		for (i in need)
			if (!(need[i] in col)) {
				print "no column " need[i] >"/dev/stderr"
				bad = 1; exit 1
			}
		next
	}
	{ d = $col["dev"]; k = $col["kind"] }
	k == "window" {
		n = ++nw[d]; devs[d] = 1
		ws[d, n] = $col["ts_ns"] + 0
		we[d, n] = $col["ts_ns"] + $col["dur_ns"]
		wstep[d, $col["step"]] = n
	}
	k == "metric" && $col["name"] == "kernel_count" &&
	    $col["step"] != "" && (d, $col["step"]) in wstep {
		wk[d, wstep[d, $col["step"]]] = $col["value"] + 0
	}
	k == "pass" {
		n = ++np[d]; devs[d] = 1
		pts[d, n] = $col["ts_ns"] + 0
		pl[d, n] = $col["layers"] + 0
		pcut[d, n] = ($col["tags"] ~ /(^|,)cut_(start|end)(,|$)/)
	}
	k == "layer_type" {
		lt[d, $col["name"]] += $col["value"]; devs[d] = 1
		if (!((d, $col["name"]) in seen)) {
			seen[d, $col["name"]] = 1
			ltn[d] = ltn[d] "\t" $col["name"]
		}
	}
	END {
		if (bad) exit 1
		for (d in devs) {
			for (w = 1; w <= nw[d]; w++) cnt[w] = 0
			for (p = 1; p <= np[d]; p++)
				for (w = 1; w <= nw[d]; w++)
					if (pts[d, p] >= ws[d, w] &&
					    (pts[d, p] < we[d, w] ||
					    (w == nw[d] && pts[d, p] <= we[d, w]))) {
						cnt[w]++
						pw[p] = w
						break
					}
			busy = 0
			for (w = 1; w <= nw[d]; w++) if (wk[d, w] > 0) busy++
			n = 0
			for (w = 1; w <= nw[d]; w++)
				if (!busy || wk[d, w] > 0) a[++n] = cnt[w]
			pps = median(a, n)
			n = 0
			for (p = 1; p <= np[d]; p++)
				if (!pcut[d, p] && (p in pw) &&
				    (!busy || wk[d, pw[p]] > 0))
					b[++n] = pl[d, p]
			if (n == 0)
				for (p = 1; p <= np[d]; p++)
					if (!pcut[d, p]) b[++n] = pl[d, p]
			if (n == 0) for (p = 1; p <= np[d]; p++) b[++n] = pl[d, p]
			delete pw
			lpp = median(b, n)
			best = "none"; bv = 0
			m = split(substr(ltn[d], 2), names, "\t")
			for (i = 1; i <= m; i++)
				if (lt[d, names[i]] > bv) {
					bv = lt[d, names[i]]; best = names[i]
				}
			printf "%s\t%d\t%s\t%s\t%s\t%d\n", d, nw[d], pps, lpp,
			    best, np[d]
		}
	}' "$1"
}

# One pipeline per run; the exit status of every stage is kept.
pipeline() {
	{ prof-ingest -q -k "$1"; echo "prof-ingest $?" >>"$tmp/rc"; } |
	{ prof-steps; echo "prof-steps $?" >>"$tmp/rc"; } |
	{ prof-layers; echo "prof-layers $?" >>"$tmp/rc"; }
}

# The table's rows as "run<TAB>dev<TAB>steps<TAB>passes<TAB>layers<TAB>
# type<TAB>accept", its columns found by name.
rows() {
	awk -F'\t' '
	/^#/ { next }
	!hdr { for (i = 1; i <= NF; i++) col[$i] = i; hdr = 1; next }
	{
		print $col["run"] "\t" $col["dev"] "\t" $col["steps"] "\t" \
		    $col["passes_per_step"] "\t" $col["layers_per_pass"] "\t" \
		    $col["layer_type"] "\t" $col["accept"]
	}' "$table"
}

rows >"$tmp/rows"
cut -f1 "$tmp/rows" | uniq >"$tmp/runs"
printf 'run\tdev\tcolumn\texpect\taccept\tgot\n' >"$tmp/dis"
runs=0
while IFS= read -r run; do
	runs=$((runs + 1))
	: >"$tmp/rc"
	pipeline "$corpus/$run" >"$tmp/out" 2>"$tmp/err"
	if grep -v ' 0$' "$tmp/rc" >"$tmp/bad"; then
		printf '%s\t\tpipeline\t\t\tfailed: %s\n' "$run" \
		    "$(tr '\n' ' ' <"$tmp/bad")" >>"$tmp/dis"
		echo "$run: $(tr '\n' ' ' <"$tmp/bad")"
		sed "s|^|    |" "$tmp/err" | head -n 5
		continue
	fi
	structure "$tmp/out" >"$tmp/got" || {
		printf '%s\t\tcolumns\t\t\tmissing\n' "$run" >>"$tmp/dis"
		continue
	}
	awk -F'\t' -v run="$run" '$1 == run' "$tmp/rows" >"$tmp/want"
	awk -F'\t' -v run="$run" '
	function family(t) {
		t = tolower(t); gsub(/[^a-z0-9]/, "", t)
		if (t == "" || t == "none") return "none"
		if (t ~ /moe/) return "moe"
		if (t ~ /conv/) return "conv"
		if (t ~ /dense|transformer/) return "dense"
		if (t ~ /mlp/) return "mlp"
		return t
	}
	# the alternatives of column c in acc, as text
	function alts(c, acc,   n, i, e) {
		n = split(acc, e, ";")
		for (i = 1; i <= n; i++)
			if (index(e[i], c "=") == 1)
				return substr(e[i], length(c) + 2)
		return ""
	}
	# whether got is want or one of the alternatives of column c
	function ok(c, want, got, acc,   n, i, e, v, k, r) {
		if (c == "layer_type") {
			if (family(got) == family(want)) return 1
		} else if (got + 0 == want + 0) return 1
		n = split(acc, e, ";")
		for (i = 1; i <= n; i++) {
			if (index(e[i], c "=") != 1) continue
			k = split(substr(e[i], length(c) + 2), v, ",")
			for (j = 1; j <= k; j++) {
				if (c == "layer_type") {
					if (family(v[j]) == family(got)) return 1
				} else if (split(v[j], r, /\.\./) == 2) {
					if (got + 0 >= r[1] + 0 && got + 0 <= r[2] + 0)
						return 1
				} else if (got + 0 == v[j] + 0) return 1
			}
		}
		return 0
	}
	NR == FNR { want[$2] = $0; next }
	{ got[$1] = $0 }
	END {
		split("steps passes_per_step layers_per_pass layer_type", name,
		    " ")
		for (d in want) {
			split(want[d], w, "\t")
			if (d in got) split(got[d], g, "\t")
			else { g[2] = 0; g[3] = 0; g[4] = 0; g[5] = "none" }
			for (i = 1; i <= 4; i++)
				if (!ok(name[i], w[i + 2], g[i + 1], w[7]))
					print run "\t" d "\t" name[i] "\t" w[i + 2] \
					    "\t" (alts(name[i], w[7]) == "" ? "-" : \
					    alts(name[i], w[7])) "\t" g[i + 1]
		}
		for (d in got) {
			split(got[d], g, "\t")
			if (!(d in want) && g[6] > 0)
				print run "\t" d "\t(no row)\t\t\t" g[6] \
				    " passes, " g[4] " layers, " g[5]
		}
	}' "$tmp/want" "$tmp/got" | sort >>"$tmp/dis"
done <"$tmp/runs"

nrows=$(awk 'END { print NR }' "$tmp/rows")
bad=$(awk 'END { print NR - 1 }' "$tmp/dis")
if [ "$bad" -gt 0 ]; then
	echo "FAIL: $bad disagreements with the evidence over $nrows ranks" \
	    "(tests/data/structure-expected.tsv; its why column says why):"
	column -t -s '	' "$tmp/dis" 2>/dev/null || cat "$tmp/dis"
	failed=1
fi
echo "$runs runs, $nrows ranks checked against the structure table"
exit $failed
