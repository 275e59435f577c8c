# Categories and the non-compute classes, by type then name (prof-ops(1)
# lists the patterns): broadcast is not a cast, npu_format_cast is a
# layout change, Kineto's gpu_memcpy and gpu_memset categories are copy
# and fill.
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tcat\ttype\tcore\n' >in.tsv
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
    kernel 0 1 0 1 BroadcastTo_1 '' BroadcastTo AI_VECTOR_CORE \
    kernel 1 2 0 1 npu_format_cast '' '' AI_VECTOR_CORE \
    kernel 3 3 0 1 'Memcpy HtoD (Pinned -> Device)' gpu_memcpy '' '' \
    kernel 6 4 0 1 'Memset (Device)' gpu_memset '' '' \
    kernel 10 5 0 1 'void at::native::elementwise_kernel<direct_copy_kernel_cuda>' kernel '' '' \
    kernel 15 6 0 1 'PadV3_1' '' PadV3 AI_VECTOR_CORE \
    kernel 21 7 0 1 'ncclDevKernel_AllReduce_Sum_f32' kernel '' '' \
    kernel 28 8 0 1 'Transpose_2' '' TransposeD AI_VECTOR_CORE \
    kernel 36 9 0 1 'sm90_xmma_gemm' kernel '' '' >>in.tsv
prof-ops in.tsv | awk -v want=kind,name,category,op_cat,nc_class,dur_total_ns,top_groups -f "$top_srcdir/tests/cols.awk"
prof-ops -k category in.tsv | awk -v want=kind,name,dur_total_ns -f "$top_srcdir/tests/cols.awk" | grep opgroup
