# A truncated gzip stream is an error, never a short file.
cd "$DATA" && prof-ingest kineto_trunc.json.gz >/dev/null
