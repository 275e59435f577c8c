# The Nsight Systems captures of the corpus through prof-report (issue
# 17, "What users must get": an nsys capture goes through the whole
# pipeline to a report with a verdict), read as a CUDA engineer would:
# saxpy's pageable memcpys (sqlite3 here: their bytes over their time, a
# few % of the A100's HBM bandwidth) are advised as slow transfers, not
# taken for compute; cloverleaf's chip is known (the A100 of
# TARGET_INFO_GPU) but its kernels have no FLOP count: the MFU is
# unknown for that reason (no_flops), not for want of a chip.
command -v sqlite3 >/dev/null 2>&1 || exit 77
n=$CORPUS/nsight_systems
sx=$n/pipit_saxpy_mpi_cuda/saxpy-mpi-cuda_nsys_perlmutter0.sqlite
cl=$n/pipit_cloverleaf_perlmutter/perlmutter-cloverleaf-cuda.sqlite
[ -r "$sx" ] && [ -r "$cl" ] || exit 77
q() { sqlite3 -readonly "file:$1?immutable=1" "$2"; }
echo "== saxpy: the GPU, and its memcpys by sqlite3"
q "$sx" "SELECT name FROM TARGET_INFO_GPU"
q "$sx" "SELECT CASE copyKind WHEN 1 THEN 'HtoD' WHEN 2 THEN 'DtoH' ELSE copyKind END,
    count(*), sum(bytes), sum(end - start),
    printf('%.1f GB/s', 1.0 * sum(bytes) / sum(end - start))
    FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY copyKind"
prof-report -k -o sx "$sx" 2>&1 | sed -n '/^Verdict/,/^Reports/p'
grep -v '^#' sx/stages/all/10-prof-verdict.tsv | awk -F'\t' '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == "metric" && $6 == "peak_hbm_bytes_per_s" { print "HBM peak", $c["value"], $c["chip"] }
    $1 == "kernel" && $7 == "gpu_memcpy" { b[$c["bound"] " " $c["tags"]]++ }
    END { for (k in b) print "memcpy records:", b[k], "bound", k }'
echo "== cloverleaf"
q "$cl" "SELECT name FROM TARGET_INFO_GPU"
prof-report -k -o cl "$cl" 2>&1 | sed -n '/^Verdict/,/^Do first/p'
grep -v '^#' cl/stages/all/10-prof-verdict.tsv | awk -F'\t' '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 == "verdict" && $c["scope"] == "run" { print "verdict", $6, $c["tags"], $c["chip"], $c["mfu_cov_ratio"] }
    $1 == "kernel" { t += $3; if ($c["flops"] != "") f += $3 }
    END { printf "kernel time with a FLOP count: %.6f\n", f / t }'
for d in sx cl; do
	grep -c '^- \*\*Rank 0: ' $d/anomaly_report_*.md
done
