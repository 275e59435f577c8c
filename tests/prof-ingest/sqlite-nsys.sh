# Nsight Systems exports of two schema versions (2.9.1 from nsys 2022.2,
# 3.13.2 from 2024.5), excerpts (tests/data/sqlite-excerpts.py): kernels
# and copies on the device with their stream and correlation, the CUDA
# calls that launched them on the host (the 2022 file's backtrace copies,
# event class 67, left out and counted), NVTX ranges, the GPUs, times on
# the UTC axis of the session start.
command -v sqlite3 >/dev/null || exit 77
sqlite3 saxpy.sqlite <"$DATA/nsys_2022.sql"
sqlite3 clover.sqlite <"$DATA/nsys_2024.sql"
for f in saxpy.sqlite clover.sqlite; do
	prof-ingest $f | sed '/^#stage /d'
done
prof-ingest -i saxpy.sqlite | cut -f1-4,19
