# Recomputation with a step column (by hand, times in us, Ascend names):
# step 1 runs a forward pass of three convolution layers (Conv2D, then
# BNTrainingUpdate and Relu), then the backward pass: the gradients of
# the third and second convolutions (Conv2DBackpropInput and ...Filter,
# then the bias gradient's ReduceSum),
# then a checkpointed segment recomputed (Conv2D, BNTrainingUpdate,
# Relu), then the first convolution's gradients; step 2 starts the next
# forward pass.  In step 1 the recomputed Conv2D after the backward pass
# began stays in that pass: a layer tagged recompute, which the pass's
# layers do not count (recompute_layers 1, the pass tagged recompute);
# the Conv2D of step 2 starts a new pass (rule step).
printf '#prof-tsv 1\nkind\tts_ns\tdur_ns\tdev\ttrack\tname\tstep\n' >in.tsv
t=0
k() { printf 'kernel\t%s\t%s\t0\t1\t%s\t%s\n' "$t" "$2" "$1" "$3" >>in.tsv
	t=$((t + $2 + 5000)); }
unit() { k Conv2D 50000 "$1"; k BNTrainingUpdate 20000 "$1"; k Relu 10000 "$1"; }
grad() { k ReluGrad 10000 1; k BNTrainingUpdateGrad 20000 1
	k Conv2DBackpropInput 60000 1; k Conv2DBackpropFilter 60000 1
	k ReduceSum 5000 1; }
unit 1; unit 1; unit 1
grad; grad
unit 1
grad
unit 2; unit 2
f="$top_srcdir/tests/cols.awk"
prof-layers in.tsv | awk -v kind=pass,layer,model -v want=kind,ts_ns,name,step,phase,rule,layers,recompute_layers,kernel_count,tags -f "$f"
