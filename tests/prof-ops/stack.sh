# -k source on XLA ops keys on the hash of the whole source stack (ext
# stack=), as the TPU breakdown tools do: model.py:7 reached from two
# call paths (stacks aaaa..., bbbb...) makes two groups, each shown with
# its stack since they share the line; model.py:9 has one stack and is
# shown by its line alone, with its hash in the stack column; then the
# line without a stack, the scope, the category.  The groups add up to
# the task time; the audit names groups as the opgroup records do.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\text\tframe\n' >in.tsv
a=aaaaaaaaaaaaaaaa b=bbbbbbbbbbbbbbbb c=cccccccccccccccc
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 100 0 'XLA Ops' fusion.1 xla_op 'loop fusion' "stack=$a;scope=jit(f)/a:" model.py:7 \
    kernel 100 200 0 'XLA Ops' fusion.2 xla_op 'loop fusion' "stack=$b;scope=jit(f)/b:" model.py:7 \
    kernel 300 40 0 'XLA Ops' fusion.1 xla_op 'loop fusion' "stack=$a;scope=jit(f)/a:" model.py:7 \
    kernel 340 30 0 'XLA Ops' copy.4 xla_op 'data formatting' "stack=$c;scope=jit(f)/c:" model.py:9 \
    kernel 370 20 0 'XLA Ops' fusion.3 xla_op 'loop fusion' "scope=jit(f)/d:" model.py:11 \
    kernel 390 10 0 'XLA Ops' fusion.4 xla_op 'loop fusion' "scope=jit(f)/e:" '' \
    kernel 400 5 0 'XLA Ops' copy-done.1 xla_op 'copy-done' '' '' \
    kernel 405 60 1 'XLA Ops' fusion.2 xla_op 'loop fusion' "stack=$b;scope=jit(f)/b:" model.py:7 >>in.tsv
prof-ops -k source -n 5 in.tsv >out.tsv || exit 1
awk -v kind=opgroup,opaudit -v want=kind,dev,name,stack,calls,dur_total_ns,top_groups,tags \
    -f "$top_srcdir/tests/cols.awk" out.tsv
g=$(awk -v kind=opgroup -v want=dur_total_ns -f "$top_srcdir/tests/cols.awk" out.tsv |
    awk 'NR > 1 { s += $1 } END { print s }')
k=$(awk -F'\t' '$1 == "kernel" { s += $3 } END { print s }' in.tsv)
echo "groups add up to $g ns of the kernels' $k ns"
[ "$g" = "$k" ] || exit 1
