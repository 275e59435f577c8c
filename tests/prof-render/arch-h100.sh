# The architecture report of a PyTorch Kineto trace of Qwen1.5-0.5B-Chat
# inference on an H100 (tracelens): the capture starts inside a forward
# pass, so a pass of 10 layers, then a whole one of 24; one stream, no
# communication, no decode pass (the report says what is missing); the
# model and the mode are parsed from the file name.  Checked against the
# raw JSON with awk, independently of prof-ingest and prof-layers: the
# device events (kernel, memcpy, memset), the flash attention kernels,
# and the passes (a new pass where the number of device events from one
# flash kernel to the next differs from the layers' modal count).
J="$CORPUS/pytorch_kineto/tracelens/h100_Qwen1.5-0.5B-Chat_infer.json.gz"
[ -f "$J" ] || exit 77
prof-ingest -q "$J" | prof-layers | prof-render -f arch >report.md || exit 1
cat report.md
echo '--- checked against the JSON'
same() { if cmp -s "$1" "$2"; then echo agree; else echo DISAGREE; fi; }
gzip -dc "$J" | awk '
/"cat": "(kernel|gpu_memcpy|gpu_memset)"/ { k = 1; fl = 0; next }
k && /"name":/ { fl = /flash_fwd_kernel/; next }
k && /"ts":/ { v = $2; sub(/,$/, "", v); print v, fl; k = 0 }' |
    sort -s -n -k1,1 | awk '
{ ndev++ }
$2 == 1 { if (nf > 0) cnt[nf] = n; nf++; n = 0 }
{ n++ }
END {
	for (i = 1; i < nf; i++) c[cnt[i]]++
	for (v in c) if (c[v] > best) { best = c[v]; mode = v }
	g = 1; size[1] = 1
	for (i = 1; i < nf; i++) { if (cnt[i] != mode) g++; size[g]++ }
	printf "%d device events, %d attention markers, %d passes:", ndev, nf, g
	for (i = 1; i <= g; i++) printf "%s %d", (i > 1 ? " +" : ""), size[i]
	printf " layers\n"
}' | tee a
awk -F'|' '$2 == " Kernels " { gsub(/ /, "", $3); n = $3 }
    $2 == " Markers " { gsub(/ /, "", $3); m = $3 }
    $2 == " Passes " && $3 ~ /layers/ { p = $3; sub(/^ /, "", p); sub(/ $/, "", p); sub(/:/, " passes:", p) }
    END { printf "%s device events, %s attention markers, %s\n", n, m, p }' report.md >b
same a b
