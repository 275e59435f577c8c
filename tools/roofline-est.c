/*
 * FLOPs and bytes of an op from the shapes and dtypes the trace carries,
 * for the ops whose work the shapes determine: GEMM (plain, batched,
 * grouped), attention and convolution.  The formulas are those of
 * prof-roofline(1), ESTIMATES; every result is tagged as an estimate by
 * the caller.  Bytes are the sizes of the inputs and outputs: a lower
 * bound on the memory traffic, since tiles are re-read.
 */
#include <config.h>

#include <string.h>
#include <strings.h>

#include "roofline.h"
#include "strtab.h"

/*
 * The op names of every kind, in one hash table built on first use:
 * the lookup runs on every kernel that has shapes.
 */
static struct strtab ktab;	/* of an int, the kind */

/* Add the names of LIST as KIND: a name listed twice keeps its first. */
static void
ktab_add(const char *const *list, int kind)
{
	size_t id;
	int isnew;

	for (; *list != NULL; list++) {
		id = strtab_intern(&ktab, *list, strlen(*list), &isnew);
		if (isnew)
			*(int *)strtab_val(&ktab, id) = kind;
	}
}

static int
ktab_find(const char *s, size_t n)
{
	size_t id = strtab_find(&ktab, s, n);

	return id != STRTAB_NONE ? *(int *)strtab_val(&ktab, id) : OPK_NONE;
}

static int
has_prefix(const char *s, size_t n, const char *p)
{
	size_t l = strlen(p);

	return n >= l && strncmp(s, p, l) == 0;
}

int
rf_op_kind(const char *s, size_t n)
{
	static const char *const gemm[] = {
		"aten::mm", "aten::matmul", "aten::bmm", "aten::_int_mm",
		"aten::_scaled_mm", "MatMul", "MatMulV2", "MatMulV3",
		"BatchMatMul", "BatchMatMulV2", "BatchMatMulV3", "MatMulV2Compress",
		"QuantBatchMatmulV3", "WeightQuantBatchMatmulV2", NULL
	};
	static const char *const addmm[] = {
		"aten::addmm", "aten::baddbmm", "aten::addbmm", NULL
	};
	static const char *const grouped[] = {
		"GroupedMatmul", "aten::_grouped_mm", "GroupedMatmulV2",
		"GroupedMatMulAllReduce", NULL
	};
	static const char *const attn[] = {
		"FlashAttentionScore", "FusedInferAttentionScore",
		"PromptFlashAttention", "IncreFlashAttention",
		"aten::_scaled_dot_product_flash_attention",
		"aten::_scaled_dot_product_efficient_attention",
		"aten::_scaled_dot_product_cudnn_attention",
		"aten::_scaled_dot_product_flash_attention_for_cpu", NULL
	};
	static const char *const attn_bwd[] = {
		"FlashAttentionScoreGrad",
		"aten::_scaled_dot_product_flash_attention_backward",
		"aten::_scaled_dot_product_efficient_attention_backward",
		"aten::_scaled_dot_product_cudnn_attention_backward", NULL
	};
	static const char *const bsnd[] = {
		"aten::_flash_attention_forward", "flash_attn::_flash_attn_forward",
		NULL
	};
	static const char *const bsnd_bwd[] = {
		"aten::_flash_attention_backward",
		"flash_attn::_flash_attn_backward", NULL
	};
	static const char *const linear[] = { "aten::linear", NULL };
	static const char *const conv[] = {
		"Conv2D", "Conv3D", "Conv2DV2", NULL
	};
	static const char *const move[] = {
		"TransData", "Cast", "Slice", "StridedSlice", "TensorMove",
		"ConcatD", "Concat", "Transpose", "TransposeD", "MemSet",
		"Identity", "aten::copy_", "aten::_to_copy", "aten::cat",
		"aten::clone", "aten::contiguous", NULL
	};
	static const char *const fill[] = {
		"ZerosLike", "OnesLike", "Fill", "aten::fill_", "aten::zero_",
		NULL
	};
	static const char *const eltwise[] = {
		"Add", "AddV2", "Adds", "Sub", "Subs", "Mul", "Muls", "Div",
		"RealDiv", "Neg", "Maximum", "Minimum", "Relu", "ReluGrad",
		"Gelu", "GeluGrad", "Silu", "Swish", "Sigmoid", "Tanh", "Exp",
		"Sqrt", "Rsqrt", "Pows", "Pow", "Sin", "Cos", "Greater", "Less",
		"Equal", "NotEqual", "LogicalNot", "LogicalOr", "LogicalAnd",
		"aten::add", "aten::add_", "aten::sub", "aten::sub_", "aten::mul",
		"aten::mul_", "aten::div", "aten::div_", "aten::neg",
		"aten::relu", "aten::relu_", "aten::gelu", "aten::silu",
		"aten::silu_", "aten::sigmoid", "aten::tanh", "aten::exp",
		"aten::sqrt", "aten::rsqrt", "aten::pow", "aten::sin",
		"aten::cos", "aten::where", "aten::threshold_backward", NULL
	};
	static const char *const gather[] = {
		"GatherV2", "Gather", "aten::index_select", "aten::embedding",
		NULL
	};

	static int built;
	int k;

	if (!built) {
		strtab_init(&ktab, sizeof(int));
		ktab_add(gemm, OPK_GEMM);
		ktab_add(addmm, OPK_ADDMM);
		ktab_add(linear, OPK_LINEAR);
		ktab_add(grouped, OPK_GROUPED);
		ktab_add(attn, OPK_ATTN);
		ktab_add(attn_bwd, OPK_ATTN_BWD);
		ktab_add(bsnd, OPK_ATTN_BSND);
		ktab_add(bsnd_bwd, OPK_ATTN_BSND_BWD);
		ktab_add(conv, OPK_CONV);
		ktab_add(move, OPK_MOVE);
		ktab_add(fill, OPK_FILL);
		ktab_add(eltwise, OPK_ELTWISE);
		ktab_add(gather, OPK_GATHER);
		built = 1;
	}
	if ((k = ktab_find(s, n)) != OPK_NONE)
		return k;
	if (n > 0 && s[0] == 'C') {
		if (has_prefix(s, n, "Conv2DBackpropInput") ||
		    has_prefix(s, n, "Conv3DBackpropInput"))
			return OPK_CONV_BWD_IN;
		if (has_prefix(s, n, "Conv2DBackpropFilter") ||
		    has_prefix(s, n, "Conv3DBackpropFilter"))
			return OPK_CONV_BWD_W;
	}
	return OPK_NONE;
}

/* ---- parsing ---- */

static const char *
skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Dims "4096,1024" (or inside a JSON list) into T; up to a stop char. */
static const char *
parse_dims(const char *p, const char *e, char stop, struct rf_tensor *t)
{
	int64_t v;
	int digits;

	t->nd = 0;
	for (;;) {
		p = skip_ws(p, e);
		if (p >= e || *p == stop)
			return p;
		for (v = 0, digits = 0; p < e && (unsigned)(*p - '0') < 10;
		    p++, digits++) {
			if (v > (INT64_MAX - 9) / 10)
				return NULL;
			v = v * 10 + (*p - '0');
		}
		if (digits == 0 || t->nd == RF_MAXDIM)
			return NULL;
		t->d[t->nd++] = v;
		p = skip_ws(p, e);
		if (p < e && *p == ',')
			p++;
		else if (p < e && *p != stop)
			return NULL;
	}
}

/* Ascend: "a,b;c,d;;e".  An empty entry is no tensor. */
static int
shapes_ascend(const char *p, const char *e, struct rf_tensor *t)
{
	int n = 0;
	const char *q;

	for (;;) {
		if (n == RF_MAXT)
			return n;
		q = memchr(p, ';', (size_t)(e - p));
		if (q == NULL)
			q = e;
		if (skip_ws(p, q) == q)
			t[n].nd = -1;
		else if (parse_dims(p, q, ';', &t[n]) != q)
			return -1;
		n++;
		if (q == e)
			return n;
		p = q + 1;
	}
}

/* Kineto: "[[a, b], [], [[c], [d]]]".  A nested list is no tensor. */
static int
shapes_json(const char *p, const char *e, struct rf_tensor *t)
{
	int n = 0, depth;

	p = skip_ws(p + 1, e);
	while (p < e && *p != ']') {
		if (*p != '[')
			return -1;
		p = skip_ws(p + 1, e);
		if (n == RF_MAXT)
			return n;
		if (p < e && *p == '[') {		/* a TensorList */
			for (depth = 2; p < e && depth > 1; p++)
				depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
			t[n].nd = -2;
		} else if (p < e && *p == ']') {
			t[n].nd = -1;
			p++;
		} else {
			p = parse_dims(p, e, ']', &t[n]);
			if (p == NULL || p >= e)
				return -1;
			p++;
		}
		n++;
		p = skip_ws(p, e);
		if (p < e && *p == ',')
			p = skip_ws(p + 1, e);
	}
	return n;
}

/* Dtypes: "DT_BF16;DT_BF16" or ["float", "c10::BFloat16"]. */
static void
parse_dtypes(const char *p, const char *e, struct rf_tensor *t, int n)
{
	int i = 0;
	const char *q;

	if (p < e && *p == '[') {
		while (i < n && (p = memchr(p, '"', (size_t)(e - p))) != NULL) {
			q = memchr(p + 1, '"', (size_t)(e - p - 1));
			if (q == NULL)
				break;
			t[i++].dt = rf_dtype_of(p + 1, (size_t)(q - p - 1));
			p = q + 1;
		}
		return;
	}
	while (i < n && p <= e) {
		q = memchr(p, ';', (size_t)(e - p));
		if (q == NULL)
			q = e;
		t[i++].dt = rf_dtype_of(p, (size_t)(q - p));
		p = q + 1;
	}
}

int
rf_parse_shapes(const char *sh, size_t sl, const char *dt, size_t dl,
    struct rf_tensor *t)
{
	const char *p = skip_ws(sh, sh + sl);
	int n, i;

	if (p == sh + sl)
		return 0;
	n = *p == '[' ? shapes_json(p, sh + sl, t) :
	    shapes_ascend(p, sh + sl, t);
	for (i = 0; i < n; i++)
		t[i].dt = DT_NONE;
	if (n > 0 && dl > 0)
		parse_dtypes(skip_ws(dt, dt + dl), dt + dl, t, n);
	return n;
}

/* ---- formulas ---- */

#define BIG	((__int128)INT64_MAX)

/* Number of elements of T, -1 when T is no tensor or too big. */
static __int128
numel(const struct rf_tensor *t)
{
	__int128 v = 1;
	int i;

	if (t->nd < 0)
		return -1;
	for (i = 0; i < t->nd; i++)
		if ((v *= t->d[i]) > BIG)
			return -1;
	return v;
}

/* Dim I from the end (1: last), or -1. */
static int64_t
dim_end(const struct rf_tensor *t, int i)
{
	return t->nd >= i ? t->d[t->nd - i] : -1;
}

/* Sum of the tensor sizes; -1 when a tensor's size is unknown. */
static __int128
tensor_bytes(const struct rf_tensor *t, int n)
{
	__int128 sum = 0, e;
	int i;

	for (i = 0; i < n; i++) {
		if (t[i].nd == -1)
			continue;
		if (t[i].nd == -2 || (e = numel(&t[i])) < 0 ||
		    rf_dtype_size(t[i].dt) == 0)
			return -1;
		sum += e * rf_dtype_size(t[i].dt);
	}
	return sum;
}

static const struct rf_tensor *
in_at(const struct rf_shapes *s, int i)
{
	return i < s->nin && s->in[i].nd >= 1 ? &s->in[i] : NULL;
}

static const struct rf_tensor *
out_at(const struct rf_shapes *s, int i)
{
	return i < s->nout && s->out[i].nd >= 1 ? &s->out[i] : NULL;
}

/*
 * GEMM with an output shape (Ascend, whose transposes are attributes the
 * trace does not carry): K is the dim of A's last two that is not M =
 * out[-2]; FLOPs = 2 * numel(out) * K.  Without one (Kineto, PyTorch
 * semantics A[..., M, K] x B[..., K, N], linear's W[N, K]):
 * FLOPs = 2 * numel(A) * N; the output is numel(A) / K * N elements.
 */
static void
est_gemm(int kind, const struct rf_shapes *s, struct rf_est *e)
{
	int ia = kind == OPK_ADDMM ? 1 : 0;
	const struct rf_tensor *a = in_at(s, ia), *b = in_at(s, ia + 1);
	const struct rf_tensor *o = out_at(s, 0);
	__int128 na, no, f;
	int64_t k, m, n;

	if (a == NULL || b == NULL) {
		e->note = "gemm_shapes";
		return;
	}
	e->dt = a->dt;
	na = numel(a);
	if (o != NULL) {
		m = o->nd >= 2 ? dim_end(o, 2) : 1;
		if (a->nd == 1)
			k = a->d[0];
		else if (dim_end(a, 2) == m)
			k = dim_end(a, 1);
		else if (dim_end(a, 1) == m)
			k = dim_end(a, 2);
		else {
			e->note = "gemm_shapes";
			return;
		}
		no = numel(o);
		if (no < 0 || (f = 2 * no * k) > BIG) {
			e->note = "gemm_shapes";
			return;
		}
		e->flops = (int64_t)f;
		return;
	}
	k = dim_end(a, 1);
	n = kind == OPK_LINEAR ? b->d[0] : dim_end(b, 1);
	if (na < 0 || k <= 0 || n < 0 || (f = 2 * na * n) > BIG) {
		e->note = "gemm_shapes";
		return;
	}
	e->flops = (int64_t)f;
	e->out_elems = na / k * n;
}

/*
 * B of an Ascend attention op from its softmax statistics [B, N, S, 8]
 * (an output of the forward, an input of the backward); 0 when they
 * are [T, N, 8] (TND, variable lengths); -1 when absent.
 */
static int64_t
softmax_batch(const struct rf_shapes *s)
{
	int i, n = s->nout + s->nin;
	const struct rf_tensor *t;

	for (i = 0; i < n; i++) {
		t = i < s->nout ? &s->out[i] : &s->in[i - s->nout];
		if (i >= s->nout && i - s->nout < 3)
			continue;		/* q, k, v */
		if (t->nd == 4 && t->d[3] == 8 && t->d[0] > 0)
			return t->d[0];
		if (t->nd == 3 && t->d[2] == 8)
			return 0;
	}
	return -1;
}

/*
 * Attention forward: 4 * numel(q) * Skv (Q K^T and P V over the whole
 * score matrix; a causal mask halves the useful work).  Skv: k[2] of a
 * 4-D [B, N, S, D] key, k[1] of [B, S, N, D] (flash_attn), and for a
 * 3-D key (BSH or SBH) k[0] * k[1] / B with B from Ascend's softmax
 * statistics [B, N, S, 8]; without them a 3-D key is taken as BSH.
 * Backward: 2.5 times the forward (five GEMMs of that size for two).
 */
static void
est_attn(int kind, const struct rf_shapes *s, struct rf_est *e)
{
	const struct rf_tensor *q = in_at(s, 0), *k = in_at(s, 1);
	int bsnd = kind == OPK_ATTN_BSND || kind == OPK_ATTN_BSND_BWD;
	int bwd = kind == OPK_ATTN_BWD || kind == OPK_ATTN_BSND_BWD;
	__int128 nq, f;
	int64_t skv, b = -1;

	if (q == NULL || k == NULL || q->nd != k->nd || (nq = numel(q)) < 0) {
		e->note = "attn_shapes";
		return;
	}
	e->dt = q->dt;
	if (k->nd == 4)
		skv = bsnd ? k->d[1] : k->d[2];
	else if (k->nd == 3 && (b = softmax_batch(s)) > 0 &&
	    k->d[0] * k->d[1] % b == 0)
		skv = k->d[0] * k->d[1] / b;
	else if (k->nd == 3 && b == 0) {
		e->note = "attn_varlen";	/* TND: lengths not in trace */
		return;
	} else if (k->nd == 3) {
		skv = k->d[1];
		e->note = "attn_layout_assumed";
	} else {
		e->note = "attn_shapes";
		return;
	}
	if ((f = 4 * nq * skv) > BIG / 5) {
		e->note = "attn_shapes";
		return;
	}
	e->flops = (int64_t)(bwd ? f * 5 / 2 : f);
	if (s->nout == 0)
		e->out_elems = nq;
}

/* Output channels of a 4-D NCHW or 5-D NC1HWC0 tensor, or -1. */
static int64_t
channels(const struct rf_tensor *t)
{
	if (t->nd == 4)
		return t->d[1];
	if (t->nd == 5)
		return t->d[1] * t->d[4];
	return -1;
}

/*
 * Convolution: 2 * numel(Y) * numel(W) / channels(Y), Y the output of
 * the forward pass (the gradient input of the backward ones): every
 * output element is a dot product over numel(W) / Cout weights.  Ascend
 * fractal formats pad channels to C0; the padded work is what the cube
 * does.
 */
static void
est_conv(int kind, const struct rf_shapes *s, struct rf_est *e)
{
	const struct rf_tensor *y, *w;
	__int128 ny, nw, f;
	int64_t c;

	if (kind == OPK_CONV) {
		y = out_at(s, 0);
		w = in_at(s, 1);
	} else {
		y = in_at(s, 2);
		w = kind == OPK_CONV_BWD_IN ? in_at(s, 1) : out_at(s, 0);
	}
	if (y == NULL || w == NULL || (c = channels(y)) <= 0 ||
	    (ny = numel(y)) < 0 || (nw = numel(w)) < 0 || nw % c != 0 ||
	    (f = 2 * ny * (nw / c)) > BIG) {
		e->note = s->nout == 0 ? "conv_no_out_shape" : "conv_shapes";
		return;
	}
	e->dt = y->dt;
	e->flops = (int64_t)f;
}

/*
 * Element-wise ops: one FLOP per output element (a transcendental costs
 * the vector unit more, so this is a lower bound).  Without an output
 * shape the output is the largest input (the broadcast result).
 */
static void
est_eltwise(const struct rf_shapes *s, struct rf_est *e)
{
	const struct rf_tensor *o = out_at(s, 0);
	__int128 n = o != NULL ? numel(o) : -1, v;
	int i;

	if (o != NULL)
		e->dt = o->dt;
	for (i = 0; o == NULL && i < s->nin; i++)
		if ((v = numel(&s->in[i])) > n) {
			n = v;
			e->dt = s->in[i].dt;
		}
	if (n < 0) {
		e->note = "eltwise_shapes";
		return;
	}
	e->flops = (int64_t)n;
	if (o == NULL)
		e->out_elems = n;
}

/*
 * Ops that do not read all of their inputs: a fill writes its output
 * (Kineto: its in-place self) and reads nothing; a gather reads the
 * rows it writes and the indices, not the whole table.
 */
static void
est_partial(int kind, const struct rf_shapes *s, struct rf_est *e)
{
	const struct rf_tensor *o = out_at(s, 0), *t;
	__int128 b;
	int ix = kind == OPK_GATHER && s->nin > 1 && s->in[0].nd == 1 &&
	    s->in[1].nd >= 2 ? 0 : 1;	/* aten::embedding(weight, idx) */

	if (kind == OPK_FILL) {
		t = o != NULL ? o : in_at(s, 0);
		b = t != NULL ? tensor_bytes(t, 1) : -1;
	} else if (o != NULL && in_at(s, ix) != NULL) {
		b = tensor_bytes(o, 1);
		if (b >= 0 && tensor_bytes(&s->in[ix], 1) >= 0)
			b = 2 * b + tensor_bytes(&s->in[ix], 1);
		else
			b = -1;
	} else {
		e->note = "gather_no_out_shape";
		b = -1;
	}
	e->dt = o != NULL ? o->dt : s->nin > 0 ? s->in[0].dt : DT_NONE;
	if (b > 0 && b <= BIG)
		e->bytes = (int64_t)b;
}

void
rf_estimate(int kind, const struct rf_shapes *s, struct rf_est *e)
{
	__int128 bi, bo;

	e->flops = e->bytes = -1;
	e->out_elems = -1;
	e->in_only = 0;
	e->dt = DT_NONE;
	e->kind = kind;
	e->note = NULL;
	switch (kind) {
	case OPK_GEMM:
	case OPK_ADDMM:
	case OPK_LINEAR:
	case OPK_GROUPED:
		est_gemm(kind, s, e);
		break;
	case OPK_ATTN:
	case OPK_ATTN_BWD:
	case OPK_ATTN_BSND:
	case OPK_ATTN_BSND_BWD:
		est_attn(kind, s, e);
		break;
	case OPK_CONV:
	case OPK_CONV_BWD_IN:
	case OPK_CONV_BWD_W:
		est_conv(kind, s, e);
		break;
	case OPK_MOVE:
		e->flops = 0;
		break;
	case OPK_ELTWISE:
		est_eltwise(s, e);
		break;
	case OPK_FILL:
	case OPK_GATHER:
		e->flops = 0;
		est_partial(kind, s, e);
		return;
	default:
		break;
	}
	if (e->dt == DT_NONE && s->nin > 0)
		e->dt = s->in[0].dt;
	bi = tensor_bytes(s->in, s->nin);
	bo = tensor_bytes(s->out, s->nout);
	if (bi < 0 || bo < 0)
		return;
	if (s->nout == 0 && e->out_elems >= 0)
		bo = (__int128)e->out_elems * rf_dtype_size(e->dt);
	else if (s->nout == 0 && kind != OPK_MOVE)
		e->in_only = 1;
	if (bi + bo > 0 && bi + bo <= BIG)
		e->bytes = (int64_t)(bi + bo);
}
