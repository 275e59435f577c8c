# A file that does not exist.
prof-ingest no-such-file.json >/dev/null
