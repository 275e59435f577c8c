# The non-compute audit of XLA ops reads what each op changes from its
# HLO text (prof-ingest's ext changes=, in_layout=, layout= and the
# dtype columns): a convert f32->bf16 is a cast; a copy that converts is
# a cast too; a copy {1,0}->{0,1} a layout change; a copy between
# memory spaces (S(5), host memory) stays a copy, its change "space";
# a broadcast is a class of its own, but a fusion named
# broadcast_add_fusion (category loop fusion) computes, and so does a
# GPU fusion whose opcode names a convert (loop_convert_fusion).  Each group
# shows its first task's change, the audit its three largest changes.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\text\tin_dtypes\tout_dtypes\n' >in.tsv
m='module=jit_f'
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 100 0 'XLA Ops' convert.1 xla_op convert "$m;changes=dtype" f32 bf16 \
    kernel 100 50 0 'XLA Ops' convert.1 xla_op convert "$m;changes=dtype" f32 bf16 \
    kernel 150 70 0 'XLA Ops' copy.2 xla_op copy "$m;changes=dtype,layout;in_layout=1,0;layout=0,1" f32 bf16 \
    kernel 220 80 0 'XLA Ops' copy.3 xla_op copy "$m;changes=layout;in_layout=1,0:T(8,128);layout=0,1:T(8,128)" bf16 bf16 \
    kernel 300 30 0 'XLA Ops' copy-start.4 xla_op copy-start "$m;changes=layout;in_layout=1,0:T(8,128);layout=1,0:T(8,128)S(5)" f32 f32 \
    kernel 330 20 0 'XLA Ops' copy-start.5 xla_op copy-start "$m;changes=layout;in_layout=1,0:T(8,128)S(5);layout=1,0:T(8,128)" f32 f32 \
    kernel 350 40 0 'XLA Ops' broadcast.6 xla_op broadcast "$m;changes=shape" f32 f32 \
    kernel 390 200 0 'XLA Ops' broadcast_add_fusion xla_op 'loop fusion' "$m" 'f32;f32' f32 \
    kernel 590 10 0 'Stream #1' loop_convert_fusion.kd kernel loop_convert_fusion "$m" '' '' >>in.tsv
prof-ops -k name in.tsv >out.tsv || exit 1
awk -v kind=opgroup,opaudit -v want=kind,name,calls,dur_total_ns,category,nc_class,change,top_changes \
    -f "$top_srcdir/tests/cols.awk" out.tsv
# prof-render: the audit's "what changes" column (md) and top_changes
# (JSON)
prof-render -f md out.tsv | sed -n '/^| class/,/^$/p'
prof-render -f json out.tsv | tr '{' '\n' | grep '"change"'
