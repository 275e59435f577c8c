# With no -c, -f or --peak-* the chip comes from prof-ingest's device
# records (Kineto deviceProperties).  The independent check prints each
# trace's first deviceProperties entry from the raw JSON with python3;
# the chip picked must follow from it by the rules of prof-roofline(1):
# A100-PG509-200 with 42.3e9 bytes is the 40 GB A100, "H100 80GB HBM3"
# the h100 row, MI300X the mi300x row; MI210 and Quadro GP100 are not in
# the table, so peaks_known is 0 with the device named, and a warning.
command -v python3 >/dev/null || exit 77
f="$top_srcdir/tests/cols.awk"
for t in hta/critical_path_alexnet_trace tracelens/h100_bert-small_infer \
    tracelens/mi300x_torch_compile_triton tracelens/mi210_gpu_only_trace \
    hta/step_based_trace_gpu_user_annotation; do
	K="$CORPUS/pytorch_kineto/$t.json.gz"
	[ -f "$K" ] || exit 77
	echo "=== $t"
	python3 - "$K" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1])).get("deviceProperties", [])
print("json: %d devices, first: %s, %s bytes" %
      (len(d), d[0]["name"], d[0].get("totalGlobalMem")))
PY
	prof-ingest -q "$K" >in.tsv
	printf 'device records: %s\n' "$(grep -c '^device' in.tsv)"
	prof-roofline in.tsv 2>err >out.tsv
	echo "exit $?"
	sed 's|^prof-roofline: .*: device|prof-roofline: FILE: device|' err
	awk -v kind=metric -v want=name,chip,dtype,value,evidence,tags -f "$f" out.tsv |
	    awk -F'\t' 'NR == 1 || $1 ~ /^peak/'
done
echo '=== a chip given on the command line wins, with no tag'
prof-roofline -c a100 in.tsv 2>&1 >out.tsv
awk -v kind=metric -v want=name,chip,value,tags -f "$f" out.tsv |
    awk -F'\t' '$1 == "peak_hbm_bytes_per_s"'
echo '=== devices of two kinds: the first, tagged'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\n' >mixed.tsv
printf 'device\t\t\t0\t0\tNVIDIA H100 80GB HBM3\t85018279936\n' >>mixed.tsv
printf 'device\t\t\t1\t1\tNVIDIA A100-SXM4-80GB\t84990623744\n' >>mixed.tsv
printf 'kernel\t10\t5\t0\t1\ta\t\n' >>mixed.tsv
prof-roofline mixed.tsv >out.tsv; echo "exit $?"
awk -v kind=metric -v want=name,chip,value,tags -f "$f" out.tsv |
    awk -F'\t' '$1 == "peak_hbm_bytes_per_s"'
echo '=== an A100 of unstated memory, a PCIe board, a 95 GiB H100 are not guessed'
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\n' >a.tsv
printf 'device\t\t\t0\t0\tNVIDIA A100\t\n' >>a.tsv
prof-roofline a.tsv 2>&1 >out.tsv | sed 's|^prof-roofline: [^:]*:|prof-roofline: FILE:|'
awk -v kind=metric -v want=name,value,evidence,tags -f "$f" out.tsv
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\n' >p.tsv
printf 'device\t\t\t0\t0\tNVIDIA H100 PCIe\t85018279936\n' >>p.tsv
prof-roofline p.tsv 2>/dev/null |
    awk -v kind=metric -v want=name,value,evidence,tags -f "$f"
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tvalue\n' >n.tsv
printf 'device\t\t\t0\t0\tNVIDIA H100\t102085492736\n' >>n.tsv
prof-roofline n.tsv 2>/dev/null |
    awk -v kind=metric -v want=name,value,evidence,tags -f "$f"
