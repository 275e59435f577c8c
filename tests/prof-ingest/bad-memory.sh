# A usage error: exit 2 and the "Try" line.
prof-ingest -m 12Q /dev/null
