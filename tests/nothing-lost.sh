#!/bin/sh
# Nothing lost: every pass-through stage (each tools/prof-* program that
# reads a prof-tsv stream and writes one, found by running it, so stages
# added later are included) writes every input record again, and what it
# writes beyond them is only records of the kinds it documents as added.
#
# For each stage and each input (the bundled example; one Kineto trace of
# the corpus), the input is the stream after the stages that come before
# it in the pipeline order below (a stage not in the list comes last).
# Records are compared as multisets of lines projected onto the input's
# columns, leaving out the columns the stage itself writes (its "add"
# list, read from its header on an empty stream: prof-steps rewrites
# `step`, later stages append to `tags`).  Output records that match no
# input record must have a kind from the stage's list below; a stage not
# listed may add any kind that prof-ingest does not write (metric and
# group excepted: stages write those).
. "${top_srcdir:-.}/tests/lib.sh"
PATH="$top_builddir/tools:$PATH"; export PATH

order="prof-steps prof-merge prof-bubbles prof-attrib prof-waitanchor
prof-layers prof-roofline prof-ops prof-verdict prof-cluster"
# The record kinds each stage documents as added (HACKING.md's table).
added_kinds() {
	case $1 in
	prof-steps) echo "window metric group";;
	prof-merge) echo "busy";;
	prof-bubbles) echo "bubble metric bubble_group";;
	prof-attrib) echo "cause hostcov";;
	prof-waitanchor) echo "op metric";;
	prof-layers) echo "pass layer check metric layer_type role layer_seq stream stream_overlap model";;
	prof-roofline) echo "roof bottleneck metric";;
	prof-ops) echo "opgroup opaudit metric";;
	prof-verdict) echo "budget verdict advice";;
	prof-cluster) echo "rank_step step_skew collective rank_wait link cluster";;
	*) echo "-";;
	esac
}
ingest_kinds="kernel host step comm flow counter mark pipe"

tmp=$(scratch_dir)
trap 'rm -rf "$tmp"' EXIT
empty="$tmp/empty.tsv"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\n' >"$empty"

stages=$(echo $(stage_names))
for t in $(tool_names); do
	case " $stages " in *" $t "*) ;; *) echo "not a pass-through stage: $t";; esac
done
# In pipeline order, unknown ones last.
sorted=
for t in $order; do
	case " $stages " in *" $t "*) sorted="$sorted $t";; esac
done
for t in $stages; do
	case " $sorted " in *" $t "*) ;; *) sorted="$sorted $t";; esac
done
[ -n "$sorted" ] || fail_ "no stage found"

# project IN OUT DROP: the data lines of OUT holding, in order, the
# columns named in IN's header except those in DROP (a space-separated
# list), sorted.
project() {
	awk -F '\t' -v drop=" $3 " '
	FNR == 1 { file++ }
	/^#/ { next }
	file == 1 && !hdr1 { hdr1 = 1
		for (i = 1; i <= NF; i++)
			if (index(drop, " " $i " ") == 0) want[++n] = $i
		next }
	file == 1 { next }
	!hdr2 { hdr2 = 1
		for (i = 1; i <= NF; i++) col[$i] = i
		for (k = 1; k <= n; k++)
			if (!(want[k] in col)) {
				print "column " want[k] " is lost" >"/dev/stderr"
				exit 1
			}
		next }
	{ line = $col[want[1]]
	  for (k = 2; k <= n; k++) line = line "\t" $col[want[k]]
	  print line }' "$1" "$2" | sort
}

check() {	# check NAME STREAM
	cur=$2 st=0
	for t in $sorted; do
		out="$tmp/$1.$t.out"
		if ! "$t" <"$cur" >"$out" 2>"$tmp/err"; then
			echo "FAIL: $1: $t exits non-zero:"; cat "$tmp/err"
			return 1
		fi
		# The columns the stage writes: its header on the empty stream.
		adds=$("$t" <"$empty" 2>/dev/null | grep -v '^#' | head -n 1 |
		    cut -f 7- | tr '\t' ' ')
		project "$cur" "$cur" "$adds" >"$tmp/in" || return 1
		project "$cur" "$out" "$adds" >"$tmp/out" || return 1
		nin=$(wc -l <"$tmp/in")
		comm -23 "$tmp/in" "$tmp/out" >"$tmp/lost"
		comm -13 "$tmp/in" "$tmp/out" | cut -f 1 | sort | uniq -c \
		    >"$tmp/new"
		if [ -s "$tmp/lost" ]; then
			echo "FAIL: $1: $t lost $(wc -l <"$tmp/lost") of $nin records, e.g.:"
			head -n 3 "$tmp/lost"
			st=1
		fi
		allowed=$(added_kinds "$t")
		while read -r n kind; do
			ok=0
			if [ "$allowed" = - ]; then
				ok=1
				case " $ingest_kinds " in *" $kind "*) ok=0;; esac
			else
				case " $allowed " in *" $kind "*) ok=1;; esac
			fi
			if [ $ok -eq 0 ]; then
				echo "FAIL: $1: $t adds $n '$kind' records, not a kind it documents"
				st=1
			fi
		done <"$tmp/new"
		echo "$1: $t: $nin records in, all out; added:" \
		    $(awk '{ printf "%s %s, ", $1, $2 }' "$tmp/new")
		cur=$out
	done
	return $st
}

status=0
prof-ingest -q "$top_srcdir/examples/data/alexnet_2rank" >"$tmp/example.tsv" ||
    fail_ "prof-ingest on the example"
check example "$tmp/example.tsv" || status=1

kineto="$(corpus_dir)/pytorch_kineto/hta/step_based_trace_gpu_user_annotation.json.gz"
if [ -f "$kineto" ]; then
	prof-ingest -q "$kineto" >"$tmp/kineto.tsv" || fail_ "prof-ingest on $kineto"
	check kineto "$tmp/kineto.tsv" || status=1
else
	echo "corpus absent: the Kineto case is not run"
fi
exit $status
