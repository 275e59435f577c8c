# Ill-formed UTF-8 in names is replaced at ingest, once, by U+FFFD (one
# per maximal ill-formed subpart, as Unicode recommends), counted in a
# warning and in the inventory; the records are kept and the status is 0.
# A CSV name with 0xFF 0xFE (two subparts) and a truncated two-byte
# sequence in a Chrome trace name (one).
printf 'Name,Type,Start Time(us),Duration(us)\nbad\377\376name,MatMul,1.0,2.0\nok,MatMul,5.0,1.0\n' >kernel_details.csv
printf '{"traceEvents":[{"ph":"X","name":"cut\303","ts":1,"dur":2,"pid":1,"tid":1,"cat":"kernel"}]}' >trace.json
prof-ingest kernel_details.csv trace.json | grep -v '^#' | cut -f1,6 | od -An -c
prof-ingest -i kernel_details.csv trace.json 2>/dev/null | cut -f1,4,19
