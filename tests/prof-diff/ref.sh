# Against a reference table shaped like an Ascend microbenchmark table
# (CSV, signature columns, Duration(us)): the key is the signature parts
# both sides have (the stream has no formats), the reference's rows of
# one signature are averaged, and the difference is the run's time over
# the reference's for the run's own calls.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\ttype\tin_shapes\tin_dtypes\tout_shapes\tout_dtypes\n' >run.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 346567 0 1 MatMulV2_1 MatMulV2 '32,9216;4096,9216;4096' 'FLOAT;FLOAT;FLOAT' 32,4096 FLOAT \
    kernel 400000 313886 0 1 Conv2D1 Conv2D '32,1,224,224,8;121,4,16,8;64' 'FLOAT;FLOAT;FLOAT' 32,8,55,55,8 FLOAT \
    kernel 800000 252385 0 1 TensorMove_1 TensorMove 4096,9216 FLOAT 4096,9216 FLOAT \
    kernel 1100000 287666 0 1 MatMulV2_2 MatMulV2 '32,4096;4096,9216' 'FLOAT;FLOAT' 32,9216 FLOAT \
    kernel 1400000 287666 0 1 MatMulV2_3 MatMulV2 '32,4096;4096,9216' 'FLOAT;FLOAT' 32,9216 FLOAT \
    kernel 1700000 1000 0 1 Cast_1 Cast 8 FLOAT 8 FLOAT16 >>run.tsv
cp "$DATA/ops-ref-ascend.csv" ref.csv
prof-diff ref.csv run.tsv
prof-diff -f tsv ref.csv run.tsv | awk -v want=kind,name,flag,calls_a,calls_b,diff_ns,ratio -f "$top_srcdir/tests/cols.awk"
# The same table as TSV, and a part the stream lacks asked for.
printf 'op_type\tin_shapes\tin_formats\tdur_ns\n' >ref.tsv
printf 'Conv2D\t32,1,224,224,8;121,4,16,8;64\tNC1HWC0;FRACTAL_Z;ND\t300000\n' >>ref.tsv
printf 'Cast\t8\tND\t2000\n' >>ref.tsv
prof-diff -f tsv -p type,in_shapes,in_formats ref.tsv run.tsv | awk -v want=kind,name,flag,ratio -f "$top_srcdir/tests/cols.awk"
