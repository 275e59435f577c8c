/*
 * prof-layers: what a kernel name says.  Each distinct name is looked at
 * once, when it is first seen, and interned: whether it is an attention
 * marker and of which direction, its functional role group (the table
 * of doc/analysis-rules.md, Role groups: the method's, widened to the
 * GPU names of the corpus),
 * and the flags the layer type and the cross-check need.  Matching is by
 * case-insensitive substring, since the same op is "hcom_allReduce_" on
 * Ascend, "ncclDevKernel_AllReduce" on NVIDIA and "all_reduce" in vLLM.
 */
#include <config.h>

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "layers.h"
#include "strtab.h"
#include "xalloc.h"

const char *const role_names[NROLES] = {
	"attention", "conv", "matmul", "norm", "layer_prep", "activation",
	"pooling", "moe_routing", "expert", "tp_comm", "ep_comm", "pp_comm",
	"sampling", "memory", "other"
};

const char *const ltype_names[NLTYPES] = {
	"Dense", "MoE", "MoE+GMM", "MoE+DFC", "Conv", "Head", "Block"
};

/*
 * The cross-check (doc/analysis-rules.md, Cross-checks): what is
 * counted, and by which flag.
 */
const char *const check_names[NCHECK] = {
	"attention_marker", "dispatch_ffn_combine", "grouped_matmul",
	"moe_gating_topk", "kv_cache_update", "split_qkv_rmsnorm_rope"
};
const unsigned check_flags[NCHECK] = {
	0, NF_DFC, NF_GMM, NF_ROUTE, NF_KVC, NF_QKV
};

/*
 * Default markers: one attention kernel per layer and pass.  Ascend
 * inference (FusedInferAttentionScore and the older Prompt/Incre pair),
 * Ascend training (FlashAttentionScore, ...Grad), FlashAttention 2/3 as
 * built into PyTorch and vLLM (only the main kernel: the split-KV
 * combine and the backward dot/convert kernels are extra kernels of the
 * same layer), fmha kernels (cuDNN/TRT-LLM/CK/xformers), Triton's and
 * AMD's flash attention (attn_fwd, attn_bwd), and the fused softmax of
 * an unfused attention (Megatron's and Ascend's scaled masked softmax).
 */
static const char *const def_markers[] = {
	"FusedInferAttentionScore", "PromptFlashAttention",
	"IncreFlashAttention", "FlashAttentionScore", "flash_fwd_kernel",
	"flash_fwd_splitkv_kernel", "flash_bwd_dq_dk_dv", "FlashAttnFwd",
	"FlashAttnBwd", "fmha", "Fmha", "attn_fwd", "attn_bwd",
	"ScaledMaskedSoftmax", "scaled_masked_softmax",
	"scaled_upper_triang_masked_softmax"
};

/*
 * Words that make a marker a backward one, and a convolution run a
 * gradient: "wrw" is MIOpen's weight gradient, "backprop" Ascend's
 * Conv2DBackpropInput/Filter.
 */
static const char *const bwd_words[] = {
	"grad", "bwd", "backward", "cutlassb", "wrw", "backprop"
};

/* Role table: first match wins; patterns are lower case. */
static const struct {
	const char	*pat;
	int		 role;
	unsigned	 flags;
} roles[] = {
	/*
	 * Convolutions (cuDNN, MIOpen, Composable Kernel, Ascend), pooling
	 * and batch norms first: some contain GEMM names
	 * (implicit_convolve_sgemm, igemm_fwd, xmma_fprop_implicit_gemm),
	 * Ascend's max pooling contains "argmax", its average pooling runs
	 * as a batched matmul.
	 */
	/* fbgemm_gpu's embedding and sparse ops are no GEMMs */
	{ "fbgemm_gpu::", ROLE_OTHER, 0 },
	{ "convolution", ROLE_CONV, 0 },
	{ "convolve", ROLE_CONV, 0 },
	{ "conv1d", ROLE_CONV, 0 },
	{ "conv2d", ROLE_CONV, 0 },
	{ "conv3d", ROLE_CONV, 0 },
	{ "depthwiseconv", ROLE_CONV, 0 },
	{ "conv_fwd", ROLE_CONV, 0 },
	{ "conv_bwd", ROLE_CONV, 0 },
	{ "winograd", ROLE_CONV, 0 },
	{ "scudnn", ROLE_CONV, 0 },
	{ "hcudnn", ROLE_CONV, 0 },
	{ "cudnn::cnn", ROLE_CONV, 0 },
	{ "cask_cudnn", ROLE_CONV, 0 },
	{ "im2col", ROLE_CONV, 0 },
	{ "dgrad_", ROLE_CONV, 0 },
	{ "_dgrad", ROLE_CONV, 0 },
	{ "dgrad2d", ROLE_CONV, 0 },
	{ "wgrad_", ROLE_CONV, 0 },
	{ "_wgrad", ROLE_CONV, 0 },
	{ "xmma_fprop", ROLE_CONV, 0 },
	{ "fprop_implicit", ROLE_CONV, 0 },
	{ "igemm_fwd", ROLE_CONV, 0 },
	{ "igemm_bwd", ROLE_CONV, 0 },
	{ "igemm_wrw", ROLE_CONV, 0 },
	{ "gemm_xdlops_bwd_weight", ROLE_CONV, 0 },
	{ "fft2d_", ROLE_CONV, 0 },
	{ "max_pool", ROLE_POOL, 0 },
	{ "maxpool", ROLE_POOL, 0 },
	{ "avg_pool", ROLE_POOL, 0 },
	{ "avgpool", ROLE_POOL, 0 },
	{ "pooling", ROLE_POOL, 0 },
	{ "bn_fw", ROLE_NORM, 0 },
	{ "bn_bw", ROLE_NORM, NF_BWDN },
	{ "batch_norm", ROLE_NORM, 0 },
	{ "batchnorm", ROLE_NORM, 0 },
	{ "bntraining", ROLE_NORM, 0 },
	{ "bninfer", ROLE_NORM, 0 },
	{ "group_norm", ROLE_NORM, 0 },
	{ "groupnorm", ROLE_NORM, 0 },
	{ "instance_norm", ROLE_NORM, 0 },
	{ "dispatchffncombine", ROLE_EXPERT, NF_DFC },
	{ "groupedmatmul", ROLE_EXPERT, NF_GMM },
	{ "grouped_gemm", ROLE_EXPERT, NF_GMM },
	{ "groupgemm", ROLE_EXPERT, NF_GMM },
	{ "group_gemm", ROLE_EXPERT, NF_GMM },
	{ "fused_moe", ROLE_EXPERT, NF_GMM },
	{ "moe::dev::finalize", ROLE_EXPERT, NF_GMM },
	{ "moefinalizerouting", ROLE_EXPERT, 0 },
	{ "moeinitrouting", ROLE_ROUTE, NF_ROUTE },
	{ "moegatingtopk", ROLE_ROUTE, NF_ROUTE },
	{ "top_k_top_p", ROLE_SAMPLE, NF_SAMPLE },
	{ "topktopp", ROLE_SAMPLE, NF_SAMPLE },
	{ "routing", ROLE_ROUTE, NF_ROUTE },
	{ "topk", ROLE_ROUTE, NF_ROUTE },
	{ "histogramv2", ROLE_ROUTE, 0 },
	{ "alltoall", ROLE_EPCOMM, NF_A2A | NF_COMM },
	{ "all_to_all", ROLE_EPCOMM, NF_A2A | NF_COMM },
	{ "aivkernel", ROLE_EPCOMM, 0 },
	{ "sendrecv", ROLE_PPCOMM, NF_COMM },
	{ "hcom_send", ROLE_PPCOMM, NF_COMM },
	{ "hcom_receive", ROLE_PPCOMM, NF_COMM },
	{ "reducescatter", ROLE_TPCOMM, NF_COMM },
	{ "reduce_scatter", ROLE_TPCOMM, NF_COMM },
	{ "allgather", ROLE_TPCOMM, NF_COMM },
	{ "all_gather", ROLE_TPCOMM, NF_COMM },
	{ "allreduce", ROLE_TPCOMM, NF_COMM },
	{ "all_reduce", ROLE_TPCOMM, NF_COMM },
	{ "broadcast", ROLE_TPCOMM, NF_COMM },
	{ "nccl", ROLE_TPCOMM, NF_COMM },
	{ "rccl", ROLE_TPCOMM, NF_COMM },
	{ "hcom_", ROLE_TPCOMM, NF_COMM },
	{ "argmax", ROLE_SAMPLE, NF_SAMPLE },
	{ "rejection_", ROLE_SAMPLE, NF_SAMPLE },
	{ "sampling", ROLE_SAMPLE, NF_SAMPLE },
	{ "indexfill", ROLE_SAMPLE, 0 },
	{ "logicaland", ROLE_SAMPLE, 0 },
	{ "split_qkv_rmsnorm_rope", ROLE_PREP, NF_QKV },
	{ "reshapeandcache", ROLE_PREP, NF_KVC },
	{ "reshape_and_cache", ROLE_PREP, NF_KVC },
	{ "store_kvcache", ROLE_PREP, NF_KVC },
	{ "rotary", ROLE_PREP, 0 },
	{ "rope", ROLE_PREP, 0 },
	{ "attention", ROLE_ATTN, 0 },
	{ "flash_", ROLE_ATTN, 0 },
	{ "flash::", ROLE_ATTN, 0 },
	{ "fmha", ROLE_ATTN, 0 },
	{ "sdpa", ROLE_ATTN, 0 },
	{ "rmsnorm", ROLE_NORM, 0 },
	{ "rms_norm", ROLE_NORM, 0 },
	{ "layernorm", ROLE_NORM, 0 },
	{ "layer_norm", ROLE_NORM, 0 },
	{ "swiglu", ROLE_ACT, 0 },
	{ "silu", ROLE_ACT, 0 },
	{ "gelu", ROLE_ACT, 0 },
	{ "act_and_mul", ROLE_ACT, 0 },
	{ "matmul", ROLE_MATMUL, 0 },
	{ "gemm", ROLE_MATMUL, 0 },
	{ "cijk_", ROLE_MATMUL, 0 },
	{ "nvjet", ROLE_MATMUL, 0 },
	{ "xmma", ROLE_MATMUL, 0 },
	{ "cutlass", ROLE_MATMUL, 0 },
	{ "bmm", ROLE_MATMUL, 0 },
	/* after the GEMMs, whose fused epilogues name them (gemm_relu) */
	{ "relu", ROLE_ACT, 0 },
	{ "threshold", ROLE_ACT, 0 },
	{ "clamp_min", ROLE_ACT, 0 },
	{ "sigmoid", ROLE_ACT, 0 },
	{ "tanh", ROLE_ACT, 0 },
	{ "hardswish", ROLE_ACT, 0 },
	{ "memcpy", ROLE_MEM, 0 },
	{ "memset", ROLE_MEM, 0 },
	{ "tensormove", ROLE_MEM, 0 },
	{ "copy", ROLE_MEM, 0 },
};

/*
 * Flags every matching pattern adds, whatever the role: what may sit
 * inside a convolution's run of kernels without ending it (layout
 * transforms and the helpers cuDNN, MIOpen and Ascend launch around a
 * convolution), what is never a structural anchor (elementwise, fill,
 * copy), and the tensor-tensor adds that join a residual branch.
 */
static const struct {
	const char	*pat;
	unsigned	 flags;
} flagpats[] = {
	{ "transdata", NF_HELP },
	{ "trans_cast", NF_HELP },	/* Ascend's inserted format casts */
	{ "transpose", NF_HELP },
	{ "nchwtonhwc", NF_HELP },
	{ "nhwctonchw", NF_HELP },
	{ "splitkreduce", NF_HELP },
	{ "subtensorop", NF_HELP },
	{ "memset", NF_HELP | NF_ELEM },
	{ "memcpy", NF_HELP | NF_ELEM },
	{ "elementwise", NF_ELEM },
	{ "fill", NF_ELEM },
	{ "copy", NF_ELEM },
	{ "cast", NF_ELEM },
	{ "zeros", NF_ELEM },
	{ "addfunctor<float", NF_RESADD },
	{ "addfunctor<c10::", NF_RESADD },
	{ "addfunctor<double", NF_RESADD },
	{ "functor_add<float", NF_RESADD },
	{ "functor_add<c10::", NF_RESADD },
	{ "functor_add<double", NF_RESADD },
	{ "aclnnadd_", NF_RESADD },
	{ "aclnninplaceadd_", NF_RESADD },
};

/* Task classes: the core column's values as met, then the GPU kinds. */
static char *classes[NCLASS];
static int nclasses;

static struct strtab tab;	/* the kernel names, of struct lname */

/* Lower-case copy of S, LEN bytes, NUL-terminated. */
static char *
lower(const char *s, size_t len)
{
	char *p = xmalloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (char)tolower((unsigned char)s[i]);
	p[len] = '\0';
	return p;
}

/* Whether PAT matches S: a glob when it has one, else a substring. */
static int
pat_match(const char *pat, const char *s)
{
	if (strpbrk(pat, "*?[") != NULL)
		return fnmatch(pat, s, 0) == 0;
	return strstr(s, pat) != NULL;
}

/* DIR_BWD when NAME says it is a gradient kernel, else DIR_FWD. */
static int
name_dir(const char *name, size_t nlen)
{
	char *l = lower(name, nlen);
	size_t i;
	int dir = DIR_FWD;

	for (i = 0; i < sizeof(bwd_words) / sizeof(bwd_words[0]); i++) {
		const char *p;

		/* "grad" in cuDNN's winograd is no gradient */
		for (p = l; (p = strstr(p, bwd_words[i])) != NULL; p++)
			if (p - l < 4 || memcmp(p - 4, "wino", 4) != 0 ||
			    strcmp(bwd_words[i], "grad") != 0)
				dir = DIR_BWD;
	}
	free(l);
	return dir;
}

/* The direction a detected anchor's name says (no pattern needed). */
int
names_anchor_dir(uint32_t id)
{
	const struct lname *e = names_get(id);

	return name_dir(e->name, e->len);
}

/*
 * The marker direction of a kernel NAME of op TYPE: DIR_NONE when no
 * marker pattern (-m, or the defaults) matches the name or the type.
 */
int
names_marker_dir(const char *name, size_t nlen, const char *type,
    size_t tlen)
{
	char *n = xstrndup(name, nlen), *t = xstrndup(type, tlen);
	const char *const *pats = def_markers;
	size_t i, npats = sizeof(def_markers) / sizeof(def_markers[0]);
	int dir = DIR_NONE;

	if (lopts.markers != NULL) {
		pats = (const char *const *)lopts.markers;
		npats = lopts.nmarkers;
	}
	for (i = 0; i < npats && dir == DIR_NONE; i++)
		if (pat_match(pats[i], n) || (tlen > 0 &&
		    pat_match(pats[i], t)))
			dir = DIR_FWD;
	if (dir == DIR_FWD)
		dir = name_dir(name, nlen);
	free(n);
	free(t);
	return dir;
}

/* Role and flags of a name (lower case L), its type and its core. */
static void
classify(struct lname *e, const char *l, const char *type, size_t tlen,
    const char *core, size_t clen)
{
	size_t i;

	e->role = ROLE_OTHER;
	if (e->dir != DIR_NONE)
		e->role = ROLE_ATTN;
	for (i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if (strstr(l, roles[i].pat) != NULL) {
			/* a convolution's MemSet is a memset */
			if (roles[i].role == ROLE_CONV &&
			    strstr(l, "memset") != NULL)
				continue;
			e->flags |= roles[i].flags;
			if (e->role == ROLE_OTHER)
				e->role = roles[i].role;
			break;
		}
	if ((tlen == 13 && memcmp(type, "COMMUNICATION", 13) == 0) ||
	    (clen == 4 && memcmp(core, "HCCL", 4) == 0)) {
		e->flags |= NF_COMM;
		if (e->role == ROLE_OTHER)
			e->role = ROLE_TPCOMM;
	}
	if (clen == 6 && memcmp(core, "AI_CPU", 6) == 0)
		e->flags |= NF_AICPU;
	for (i = 0; i < sizeof(flagpats) / sizeof(flagpats[0]); i++)
		if (strstr(l, flagpats[i].pat) != NULL)
			e->flags |= flagpats[i].flags;
	/* a scalar or in-place counter add (num_batches_tracked) joins no branch */
	if (strstr(l, "unary") != NULL || strstr(l, "onself") != NULL ||
	    strstr(l, "scalar") != NULL)
		e->flags &= ~NF_RESADD;
	if (name_dir(l, strlen(l)) == DIR_BWD)
		e->flags |= NF_BWDN;
}

/*
 * The task class of a kernel for the cost columns: its core column
 * (AI_CORE, AI_VECTOR_CORE, AI_CPU, HCCL, MIX_AIC, ...) where it has
 * one, else what a GPU name says: memcpy, memset, comm or kernel.  The
 * classes are numbered as met; past NCLASS - 1 they share "other".
 */
static int
class_of(const struct lname *e, const char *l, const char *core,
    size_t clen)
{
	char buf[64];
	const char *c = buf;
	int i;

	if (clen > 0 && clen < sizeof(buf)) {
		memcpy(buf, core, clen);
		buf[clen] = '\0';
	} else if (strstr(l, "memcpy") != NULL)
		c = "memcpy";
	else if (strstr(l, "memset") != NULL)
		c = "memset";
	else if (e->flags & NF_COMM)
		c = "comm";
	else
		c = "kernel";
	for (i = 0; i < nclasses; i++)
		if (strcmp(classes[i], c) == 0)
			return i;
	if (nclasses == NCLASS - 1) {
		classes[nclasses++] = xstrdup("other");
		return nclasses - 1;
	}
	if (nclasses == NCLASS)
		return NCLASS - 1;
	classes[nclasses] = xstrdup(c);
	return nclasses++;
}

const char *
names_class(int i)
{
	return classes[i];
}

int
names_nclass(void)
{
	return nclasses;
}

/*
 * The id of kernel NAME; a name seen for the first time is classified
 * with the type and core of that first kernel.
 */
uint32_t
names_intern(const char *name, size_t len, const char *type, size_t tlen,
    const char *core, size_t clen)
{
	struct lname *e;
	char *l, *lc;
	size_t id;
	int isnew;

	if (tab.n == 0)
		strtab_init(&tab, sizeof(struct lname));
	id = strtab_intern(&tab, name, len, &isnew);
	if (!isnew)
		return (uint32_t)id;
	e = strtab_val(&tab, id);
	e->name = strtab_key(&tab, id, &e->len);
	e->dir = names_marker_dir(name, len, type, tlen);
	/* the op type helps where the name is an aclnn wrapper's */
	l = xmalloc(len + tlen + 2);
	memcpy(l, name, len);
	l[len] = ' ';
	memcpy(l + len + 1, type, tlen);
	l[len + tlen + 1] = '\0';
	lc = lower(l, len + tlen + 1);
	classify(e, lc, type, tlen, core, clen);
	e->cls = class_of(e, lc, core, clen);
	free(lc);
	free(l);
	return (uint32_t)id;
}

const struct lname *
names_get(uint32_t id)
{
	return strtab_val(&tab, id);
}
