# XLA while containers (prof-ingest's marks, cat xla_while) are reported
# apart, per device: the union of their spans (a loop nested in a loop
# counts once; dev 0: [0,1000000) + [50000,250000) + [900000,1200000) =
# 1200000 ns), and their count; never a group, never task time (the ops
# inside are kernels of their own).  A conditional is not a while; a
# device with a while and no kernel still gets its line.  Then the Ops
# section of prof-render in md, text and JSON, and -a (the devices'
# unions added).
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    mark 0 1000000 0 'XLA Ops' while.1 xla_while while \
    kernel 10000 100000 0 'XLA Ops' fusion.1 xla_op 'loop fusion' \
    mark 50000 200000 0 'XLA Ops' while.2 xla_while while \
    kernel 100000 50000 0 'XLA Ops' copy.3 xla_op 'data formatting' \
    mark 200000 100000 1 'XLA Ops' while.1 xla_while while \
    kernel 210000 20000 1 'XLA Ops' fusion.1 xla_op 'loop fusion' \
    mark 900000 300000 0 'XLA Ops' while.3 xla_while while \
    mark 950000 10000 0 'XLA Ops' cond.1 xla_conditional conditional \
    mark 960000 10000 2 'XLA Ops' while.9 xla_while while >>in.tsv
prof-ops in.tsv >out.tsv || exit 1
awk -v kind=metric,opgroup -v want=kind,dev,name,dur_total_ns,tags,value \
    -f "$top_srcdir/tests/cols.awk" out.tsv
prof-render -f md out.tsv | grep -E '^Task time|^### Rank'
prof-render -f text out.tsv | sed -n '/^ops by/,/^rank/p' | grep -v '^rank'
prof-render -f json out.tsv | tr ',' '\n' | grep -E '"(dev|while_ms|while_calls)"'
prof-ops -a in.tsv | awk -v kind=metric -v want=dev,name,value \
    -f "$top_srcdir/tests/cols.awk" | grep while
