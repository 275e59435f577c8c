# One Nsight Systems capture of two ranks' processes (as `nsys profile
# torchrun ...` writes): the saxpy excerpt, its kernels and CUDA calls
# copied as a second process (pid + 1) on GPU 1, 500 ns later.  The
# correlation ids, unique within a process only, are written PID:ID, and
# each process's calls go to the device its kernels ran on.
command -v sqlite3 >/dev/null || exit 77
sqlite3 two.sqlite <"$DATA/nsys_2022.sql"
sqlite3 two.sqlite <<'SQL'
CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL;
UPDATE k SET deviceId = 1, globalPid = globalPid + 16777216,
    start = start + 500, end = end + 500;
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k;
CREATE TEMP TABLE r AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME;
UPDATE r SET globalTid = globalTid + 16777216, start = start + 500,
    end = end + 500;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM r;
SQL
prof-ingest two.sqlite | awk -F'\t' '/^#/ { next }
    $1 == "kernel" || $1 == "host" { print $1, $4, $12, $13, $6 }'
