# The corpus's Qwen pipeline-parallel training run (PP2 x DP2, rank 0 =
# the first pipeline stage): 28 FlashAttentionScore and 28
# FlashAttentionScoreGrad kernels on stream 2, two micro-batches, so two
# forward and two backward passes of 14 layers.  The counts, the pass
# starts and the communication structure are taken here independently
# from kernel_details.csv with awk (passes split where a
# hcom_batchSendRecv_ - the pipeline send/receive - or a change of
# direction lies between two attention kernels, not by the time gaps
# prof-layers uses), and compared with prof-layers' records.
R="$CORPUS/ascend_torch_npu/msinsight_qwen_llm_pp2dp2_4rank_2025-11/rank_0_ascend_pt"
csv="$R/ASCEND_PROFILER_OUTPUT/kernel_details.csv"
[ -f "$csv" ] || exit 77
f="$top_srcdir/tests/cols.awk"
prof-ingest "$R" | prof-layers >out.tsv || exit 1

# start_ns,name,type from the CSV, in ns since the first kernel: the
# last 12 integer digits of the microseconds are exact in awk.
tail -n +2 "$csv" | awk -F, '{ t = $10; sub(/[\t ]+$/, "", t)
	split(t, p, "."); printf "%s%s,%s,%s\n",
	    substr(p[1], length(p[1]) - 11), p[2], $6, $7 }' |
    sort -s -t, -k1,1n | awk -F, 'NR == 1 { t0 = $1 }
	{ printf "%d,%s,%s\n", $1 - t0, $2, $3 }' >csv.txt
echo '--- from kernel_details.csv'
awk -F, '$3 == "FlashAttentionScore" { f++ }
    $3 == "FlashAttentionScoreGrad" { b++ }
    END { print "forward markers", f, "backward markers", b }' csv.txt
awk -F, '$2 ~ /^hcom_/ { k = $2; sub(/_[0-9_]*$/, "", k); n[k]++ }
    END { for (k in n) print k, n[k] }' csv.txt | sort
# Marker groups: a new group after a send/receive or a change of
# direction; and the kernels from a group's first marker to its last
# (the layers but the last of a pass, whose end prof-layers estimates).
awk -F, '
{ m = $3 == "FlashAttentionScore" || $3 == "FlashAttentionScoreGrad" }
$2 ~ /^hcom_batchSendRecv/ { sr = 1 }
m {
	dir = $3 == "FlashAttentionScore" ? "forward" : "backward"
	if (g == 0 || sr || dir != dirs[g]) {
		g++; dirs[g] = dir; start[g] = $1; sr = 0
	}
	n[g]++; upto[g] = seen[g]
}
g > 0 { seen[g]++ }
END {
	for (i = 1; i <= g; i++)
		printf "group %d %s: %d markers, first at %d ns\n", i - 1, dirs[i], n[i], start[i]
	for (i = 1; i <= g; i++)
		printf "pass %d: %d kernels from its first marker to its last\n", i - 1, upto[i]
}' csv.txt >groups.csv
cat groups.csv
echo '--- prof-layers'
awk -v kind=pass -v want=ts_ns,pass,phase,layers -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 { printf "group %d %s: %d markers, first at %d ns\n", $2, $3, $4, $1 }' >groups.pl
awk -v kind=layer -v want=pass,tags,kernel_count -f "$f" out.tsv |
    awk -F'\t' 'NR > 1 && $2 !~ /last/ { c[$1] += $3; if ($1 > np) np = $1 }
	END { for (p = 0; p <= np; p++) printf "pass %d: %d kernels from its first marker to its last\n", p, c[p] }' >>groups.pl
cat groups.pl
if cmp -s groups.csv groups.pl; then
	echo 'passes, layers and kernel counts agree with the CSV'
else
	echo 'DISAGREE with the CSV'
fi
echo '--- pass and check records'
awk -v kind=pass,check -v want=kind,ts_ns,dur_ns,name,pass,rule,layers,kernel_count,kernel_sum_ns,busy_ns,marker_dur_ns,value,expect_layers,per_layer,tags -f "$f" out.tsv
echo '--- layers of pass 0 and the first and last of the others'
awk -v kind=layer -v want=ts_ns,dur_ns,track,name,pass,layer,phase,kernel_count,kernel_sum_ns,busy_ns,marker_dur_ns,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $5 == 0 || $6 == 0 || $12 ~ /last/'
echo '--- communication: step_trace_time.csv (in the same stream) against prof-layers'
awk -v kind=metric -v want=name,value -f "$f" out.tsv | awk -F'\t' '
$1 == "profiler_communication_ns" && !sc { sc = $2 }
$1 == "profiler_overlapped_ns" && !so { so = $2 }
$1 == "comm_union_ns" { lu = $2 }
$1 == "comm_overlap_ns" { lo = $2 }
END { print "communication", sc, lu, sc == lu ? "agree" : "DISAGREE"
	print "overlapped", so, lo, so == lo ? "agree" : "DISAGREE" }'
echo '--- summary'
awk -v kind=metric,layer_type,role,stream -v want=kind,dev,track,name,layer_type,phase,value,kernel_sum_ns,busy_ns,min_ns,median_ns,max_ns,cv_ratio,share_ratio,src -f "$f" out.tsv |
    awk -F'\t' '$15 == "" || NR == 1' | cut -f 1-14
echo '--- the collapsed sequence of a backward layer'
awk -v kind=layer_seq -v want=phase,pass,layer,seq,track,name,repeat,kernel_sum_ns,tags -f "$f" out.tsv |
    awk -F'\t' 'NR == 1 || $1 == "backward"'
echo '--- kernels of pass 1, layer 13 (the last) and the first after it'
awk -v kind=kernel -v want=ts_ns,dur_ns,name,pass,layer,layer_type -f "$f" out.tsv |
    awk -F'\t' '$1 >= 152081860 && $1 < 160000000'
echo '--- -d: without markers, the detection finds one period per device:'
echo '--- the backward attention (FlashAttentionScoreGrad, 28 kernels, 36'
echo '--- apart): 2 backward passes of 14, confidence (hits + 1) / (n + 2);'
echo '--- the forward layers, with another period, are missed (ConcatD and'
echo '--- the elementwise kernels are no anchors)'
prof-ingest "$R" | prof-layers -d >det.tsv || exit 1
awk -v kind=pass,metric -v want=kind,ts_ns,dur_ns,phase,rule,layers,marker_dur_ns,name,value,src -f "$f" det.tsv |
    awk -F'\t' 'NR == 1 || $1 == "pass" || $8 ~ /^(layer_count|forward_pass_count|layer_detect)/' | cut -f 1-9
awk -v kind=layer_seq -v want=seq,name,layer_type -f "$f" det.tsv | awk -F'\t' '$1 == 0'
