/*
 * gen-trace: write large, deterministic profiler inputs for the proftools
 * benchmark (bench/run.sh).  Standalone: C99 and libc only.
 *
 *	gen-trace [-s SEED] chrome-kineto SIZE
 *	gen-trace [-s SEED] chrome-ascend SIZE
 *	gen-trace [-s SEED] [--lf] kernel-details ROWS
 *	gen-trace [-s SEED] [--lf] kernel-details-size SIZE
 *
 * SIZE is a byte count with an optional binary suffix (K, M, G, T; "1G" is
 * 1073741824).  Output goes to stdout and stops after the first whole step
 * that reaches SIZE, so a file is at least SIZE bytes (plus the trailer).
 * The same arguments always give the same bytes.
 *
 * The shapes follow the corpus (shared/corpus, see shared/notes/formats.md):
 *
 * chrome-kineto  libkineto's own layout (leading newline, one key line per
 *	field group, "ts" relative to baseTimeNanoseconds with 3 decimals):
 *	a dict with schemaVersion, deviceProperties, CUDA versions,
 *	distributedInfo, traceEvents, then traceName, displayTimeUnit and
 *	baseTimeNanoseconds after the events, as real files have them.  One
 *	ProfilerStep#N per training step of a transformer: cpu_op nests with
 *	External id / Input Dims / Input type / Call stack (frames joined by an
 *	escaped newline), python_function, cuda_runtime launches with ac2g
 *	flows, kernels (pid 0, tid 7; NCCL on tid 20) with stream, correlation,
 *	grid and block, gpu_memcpy, user_annotation and gpu_user_annotation,
 *	a synchronising aten::item per step.  GPU events are written in
 *	batches after the CPU events that launched them, so the file is only
 *	roughly time-ordered.  M metadata and the "Spans"/"Traces" events close
 *	the array.
 *
 * chrome-ascend  torch_npu trace_view.json: a bare array on one line, Python
 *	json.dumps separators, "ts" as a string of absolute epoch microseconds
 *	with 3 decimals, int pids/tids.  Python cpu_op with Input Dims, Input
 *	type and Call stack joined by an escaped CR LF, python_function,
 *	Enqueue/Dequeue with async_task_queue flows, async_npu torch_to_npu
 *	flows with integer ids above 2^53, CANN AscendCL@/Node@ APIs with
 *	HostToDevice flows (string ids), Ascend Hardware tasks without "cat",
 *	HCCL op- and task-level events, Overlap Analysis, C counter events.
 *	Events come in per-process sections per chunk of ops, as the real
 *	file is sectioned; the Python process_name group is written about 10 %
 *	into the file and the other M groups about half way.
 *
 * kernel-details  torch_npu kernel_details.csv, the 2025-01 46-column
 *	header, CRLF line ends (as in the corpus copy; --lf for LF), a raw TAB
 *	after Start Time(us), shapes as """32,3,224,224""", N/A fields, HCCL
 *	and DSA_SQE rows.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *progname = "gen-trace";

static void
die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* ---- growable byte buffers ---------------------------------------------- */

struct buf {
	char	*p;
	size_t	 n, cap;
};

static void
bgrow(struct buf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 65536;
	char *p;

	while (cap - b->n < need)
		cap *= 2;
	if ((p = realloc(b->p, cap)) == NULL)
		die("out of memory");
	b->p = p;
	b->cap = cap;
}

static void
bmem(struct buf *b, const void *s, size_t n)
{
	if (b->cap - b->n < n)
		bgrow(b, n);
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

#define BS(b, lit)	bmem((b), (lit), sizeof(lit) - 1)

static void
bstr(struct buf *b, const char *s)
{
	bmem(b, s, strlen(s));
}

static void
bch(struct buf *b, char c)
{
	bmem(b, &c, 1);
}

static void
bu(struct buf *b, uint64_t v)
{
	char t[24];
	int i = sizeof t;

	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	bmem(b, t + i, sizeof t - i);
}

static void
bi(struct buf *b, int64_t v)
{
	if (v < 0) {
		bch(b, '-');
		bu(b, (uint64_t)0 - (uint64_t)v);
	} else
		bu(b, (uint64_t)v);
}

/* V / 10^DEC with exactly DEC decimals. */
static void
bfix(struct buf *b, uint64_t v, int dec)
{
	char t[40];
	int i = sizeof t, d;

	for (d = 0; d < dec; d++) {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	}
	if (dec)
		t[--i] = '.';
	do {
		t[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	bmem(b, t + i, sizeof t - i);
}

/* V / 10^DEC the way Python prints a float: no trailing zeros, "x.0". */
static void
bfixt(struct buf *b, uint64_t v, int dec)
{
	while (dec > 0 && v % 10 == 0) {
		v /= 10;
		dec--;
	}
	bfix(b, v, dec);
	if (dec == 0)
		BS(b, ".0");
}

/* ---- deterministic random numbers (splitmix64) -------------------------- */

static uint64_t rstate = 0x5eed2025ULL;

static uint64_t
rnd64(void)
{
	uint64_t z = (rstate += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t
rn(uint64_t n)
{
	return n ? rnd64() % n : 0;
}

/* Uniform in [lo, hi]. */
static uint64_t
rr(uint64_t lo, uint64_t hi)
{
	return lo + rn(hi - lo + 1);
}

static uint64_t
umax(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* A float-looking number with many digits, as Python repr prints them. */
static void
blongfloat(struct buf *b, uint64_t whole)
{
	int i, nd = (int)rr(12, 14);

	bu(b, whole);
	bch(b, '.');
	for (i = 0; i < nd - 1; i++)
		bch(b, (char)('0' + rn(10)));
	bch(b, (char)('1' + rn(9)));
}

/* ---- output --------------------------------------------------------------- */

static struct buf out;
static uint64_t flushed;
static const char *first_sep;	/* dropped from the first event written */

static void
out_flush(void)
{
	if (out.n && fwrite(out.p, 1, out.n, stdout) != out.n)
		die("write error: %s", strerror(errno));
	flushed += out.n;
	out.n = 0;
}

static uint64_t
written(void)
{
	return flushed + out.n;
}

/* Move B's bytes to the output. */
static void
out_put(struct buf *b)
{
	size_t skip = 0;

	if (first_sep != NULL && b->n > 0) {
		size_t l = strlen(first_sep);

		if (b->n >= l && memcmp(b->p, first_sep, l) == 0)
			skip = l;
		first_sep = NULL;
	}
	bmem(&out, b->p + skip, b->n - skip);
	b->n = 0;
	if (out.n >= (1u << 20))
		out_flush();
}

static uint64_t
parse_size(const char *s, int allow_suffix)
{
	char *end;
	unsigned long long v;
	uint64_t m = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		die("bad size '%s'", s);
	if (allow_suffix) {
		switch (*end) {
		case 'k': case 'K': m = 1ULL << 10; end++; break;
		case 'm': case 'M': m = 1ULL << 20; end++; break;
		case 'g': case 'G': m = 1ULL << 30; end++; break;
		case 't': case 'T': m = 1ULL << 40; end++; break;
		}
		if (m > 1 && (*end == 'i' || *end == 'I'))
			end++;
		if (*end == 'b' || *end == 'B')
			end++;
	}
	if (*end != '\0')
		die("bad %s '%s'", allow_suffix ? "size" : "row count", s);
	if (v > UINT64_MAX / m)
		die("size '%s' too large", s);
	return (uint64_t)v * m;
}

/* ===========================================================================
 * chrome-kineto
 * ======================================================================== */

#define K_PID		2087
#define K_TID_MAIN	2087
#define K_TID_BWD	2391
#define K_NSTREAM	2
static const int k_stream[K_NSTREAM] = { 7, 20 };
/* Kineto's relative clock: base 1767189312000000000 ns. */
#define K_BASE_NS	1767189312000000000ULL
#define K_T0		3743411222594212ULL	/* ns after the base */

struct kern {
	const char	*name;
	int		 grid[3], block[3];
	int		 regs, smem;
	unsigned	 dlo, dhi;		/* duration range, ns */
};

static const struct kern KN_GEMM = {
	"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
	"warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
	{ 132, 1, 1 }, { 384, 1, 1 }, 168, 213248, 18000, 110000 };
static const struct kern KN_GEMM_NN = {
	"sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x256x64_"
	"warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
	{ 132, 1, 1 }, { 384, 1, 1 }, 168, 213248, 20000, 120000 };
static const struct kern KN_LN = {
	"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel"
	"<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 "
	"const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
	{ 8192, 1, 1 }, { 256, 1, 1 }, 40, 0, 6000, 15000 };
static const struct kern KN_LN_BWD = {
	"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_"
	"vectorized<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 "
	"const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)",
	{ 8192, 1, 1 }, { 256, 1, 1 }, 48, 2048, 8000, 20000 };
static const struct kern KN_FLASH = {
	"void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_"
	"traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, pytorch_flash::"
	"Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, "
	"false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)",
	{ 8, 32, 8 }, { 128, 1, 1 }, 255, 49152, 40000, 140000 };
static const struct kern KN_FLASH_BWD = {
	"void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_"
	"flash::Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
	"cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, 128, 8, "
	"cutlass::bfloat16_t> >, true, false, false, false, false, false>"
	"(pytorch_flash::Flash_bwd_params)",
	{ 16, 8, 32 }, { 256, 1, 1 }, 255, 147456, 80000, 260000 };
static const struct kern KN_GELU = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::"
	"GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
	"{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::"
	"{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::"
	"GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::"
	"{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::"
	"{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
	{ 65536, 1, 1 }, { 128, 1, 1 }, 26, 0, 9000, 30000 };
static const struct kern KN_ADD = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::"
	"CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int, "
	"at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
	{ 32768, 1, 1 }, { 128, 1, 1 }, 28, 0, 4000, 16000 };
static const struct kern KN_MUL = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::"
	"BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::"
	"binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int, "
	"at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
	"at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul>)",
	{ 32768, 1, 1 }, { 128, 1, 1 }, 30, 0, 4000, 16000 };
static const struct kern KN_SOFTMAX = {
	"void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, "
	"float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>"
	"(float*, float const*, int)",
	{ 8192, 1, 1 }, { 1024, 1, 1 }, 38, 0, 30000, 90000 };
static const struct kern KN_NLL = {
	"void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_"
	"kernel_2d<float, float, long>(float*, float*, float const*, long const*, "
	"float const*, bool, long, long, long, long)",
	{ 1, 1, 1 }, { 1024, 1, 1 }, 32, 0, 3000, 9000 };
static const struct kern KN_ADAM = {
	"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::"
	"native::(anonymous namespace)::TensorListMetadata<4>, at::native::"
	"(anonymous namespace)::FusedAdamMathFunctor<c10::BFloat16, 4, "
	"(at::native::ADAM_MODE)1, false>, double*, double, double, double, double, "
	"double, bool, float*, float*>(at::native::(anonymous namespace)::"
	"TensorListMetadata<4>, at::native::(anonymous namespace)::"
	"FusedAdamMathFunctor<c10::BFloat16, 4, (at::native::ADAM_MODE)1, false>, "
	"double*, double, double, double, double, double, bool, float*, float*)",
	{ 320, 1, 1 }, { 512, 1, 1 }, 64, 0, 40000, 120000 };
static const struct kern KN_NCCL = {
	"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
	{ 16, 1, 1 }, { 640, 1, 1 }, 96, 0, 150000, 900000 };

enum { A_CPU, A_CPU_STACK, A_CPU_BARE, A_PY, A_COMM };
enum { L_BARE, L_KERN, L_MEMCPY, L_SYNC };

struct klvl {
	const char	*cat, *name;
	int		 a;
};

struct klaunch {
	const char		*rt;		/* runtime API */
	int			 cbid;
	int			 kind;
	const struct kern	*k;
	int			 s;		/* stream index */
	const char		*mname;		/* memcpy name */
	unsigned		 bytes;
};

struct kop {
	struct klvl	 v[4];
	int		 nv;
	const char	*dims, *types, *leaf;
	struct klaunch	 l[6];
	int		 nl;
};

#define LK(k)	{ "cudaLaunchKernel", 211, L_KERN, &(k), 0, NULL, 0 }
#define CPU(n)	{ "cpu_op", (n), A_CPU }
#define CPUS(n)	{ "cpu_op", (n), A_CPU_STACK }
#define PYF(n)	{ "python_function", (n), A_PY }
#define CPUB(n)	{ "cpu_op", (n), A_CPU_BARE }

#define DIM_X	"[[8, 1024, 4096]"
#define TY_BF	"\"c10::BFloat16\""
#define ST_TORCH "/opt/conda/lib/python3.11/site-packages/torch/"

static const struct kop ko_ln = {
	{ PYF("nn.Module: LayerNorm_0"), CPUS("aten::layer_norm"),
	  CPU("aten::native_layer_norm") }, 3,
	DIM_X ", [], [4096], [4096], [], []]",
	"[" TY_BF ", \"ScalarList\", " TY_BF ", " TY_BF ", \"Scalar\", \"Scalar\"]",
	ST_TORCH "nn/functional.py(2900): layer_norm;\\n"
	ST_TORCH "nn/modules/normalization.py(217): forward",
	{ LK(KN_LN) }, 1 };
static const struct kop ko_qkv = {
	{ PYF("nn.Module: Linear_0"), CPUS("aten::linear"), CPU("aten::addmm") }, 3,
	DIM_X ", [12288, 4096], [12288]]",
	"[" TY_BF ", " TY_BF ", " TY_BF "]",
	ST_TORCH "nn/modules/linear.py(125): forward",
	{ LK(KN_GEMM) }, 1 };
static const struct kop ko_attn = {
	{ PYF("llm/model.py(88): attention"),
	  CPUS("aten::scaled_dot_product_attention"),
	  CPU("aten::_scaled_dot_product_flash_attention"),
	  CPU("aten::_flash_attention_forward") }, 4,
	"[[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024, 128], [], [], []]",
	"[" TY_BF ", " TY_BF ", " TY_BF ", \"\", \"Scalar\", \"Scalar\"]",
	"/workspace/llm/model.py(88): attention;\\n"
	"/workspace/llm/model.py(131): forward",
	{ { "cudaFuncSetAttribute", 239, L_BARE, NULL, 0, NULL, 0 },
	  LK(KN_FLASH) }, 2 };
static const struct kop ko_proj = {
	{ PYF("nn.Module: Linear_1"), CPUS("aten::linear"), CPU("aten::addmm") }, 3,
	DIM_X ", [4096, 4096], [4096]]",
	"[" TY_BF ", " TY_BF ", " TY_BF "]",
	ST_TORCH "nn/modules/linear.py(125): forward",
	{ LK(KN_GEMM) }, 1 };
static const struct kop ko_fc1 = {
	{ PYF("nn.Module: Linear_2"), CPUS("aten::linear"), CPU("aten::addmm") }, 3,
	DIM_X ", [16384, 4096], [16384]]",
	"[" TY_BF ", " TY_BF ", " TY_BF "]",
	ST_TORCH "nn/modules/linear.py(125): forward",
	{ LK(KN_GEMM) }, 1 };
static const struct kop ko_fc2 = {
	{ PYF("nn.Module: Linear_3"), CPUS("aten::linear"), CPU("aten::addmm") }, 3,
	"[[8, 1024, 16384], [4096, 16384], [4096]]",
	"[" TY_BF ", " TY_BF ", " TY_BF "]",
	ST_TORCH "nn/modules/linear.py(125): forward",
	{ LK(KN_GEMM) }, 1 };
static const struct kop ko_gelu = {
	{ PYF("nn.Module: GELU_0"), CPUS("aten::gelu") }, 2,
	"[[8, 1024, 16384], []]", "[" TY_BF ", \"\"]",
	ST_TORCH "nn/modules/activation.py(734): forward",
	{ LK(KN_GELU) }, 1 };
static const struct kop ko_add = {
	{ PYF("llm/model.py(142): forward"), CPUS("aten::add") }, 2,
	DIM_X ", [8, 1024, 4096], []]", "[" TY_BF ", " TY_BF ", \"Scalar\"]",
	"/workspace/llm/model.py(142): forward",
	{ LK(KN_ADD) }, 1 };
static const struct kop ko_view = {
	{ CPU("aten::view") }, 1,
	DIM_X ", []]", "[" TY_BF ", \"ScalarList\"]", NULL, { { 0 } }, 0 };
static const struct kop ko_t = {
	{ CPU("aten::t"), CPU("aten::transpose"), CPU("aten::as_strided") }, 3,
	"[[4096, 4096], [], []]", "[" TY_BF ", \"Scalar\", \"Scalar\"]", NULL,
	{ { 0 } }, 0 };
static const struct kop ko_h2d = {
	{ CPUS("aten::to"), CPU("aten::_to_copy"), CPU("aten::copy_") }, 3,
	"[[8, 1024], [8, 1024], []]", "[\"long int\", \"long int\", \"Scalar\"]",
	"/workspace/llm/train.py(196): to_device",
	{ { "cudaMemcpyAsync", 41, L_MEMCPY, NULL, 0,
	    "Memcpy HtoD (Pinned -> Device)", 65536 } }, 1 };
static const struct kop ko_loss = {
	{ CPUS("aten::cross_entropy_loss"), CPU("aten::log_softmax"),
	  CPU("aten::_log_softmax") }, 3,
	"[[8192, 32000], [8192], [], [], [], []]",
	"[\"float\", \"long int\", \"\", \"Scalar\", \"Scalar\", \"Scalar\"]",
	ST_TORCH "nn/functional.py(3104): cross_entropy",
	{ LK(KN_SOFTMAX), LK(KN_NLL) }, 2 };
static const struct kop ko_b_mm = {
	{ CPUB("autograd::engine::evaluate_function: AddmmBackward0"),
	  CPUB("AddmmBackward0"), CPU("aten::mm") }, 3,
	"[[8192, 4096], [4096, 16384]]", "[" TY_BF ", " TY_BF "]", NULL,
	{ LK(KN_GEMM_NN), LK(KN_GEMM_NN) }, 2 };
static const struct kop ko_b_gelu = {
	{ CPUB("autograd::engine::evaluate_function: GeluBackward0"),
	  CPUB("GeluBackward0"), CPU("aten::gelu_backward") }, 3,
	"[[8, 1024, 16384], [8, 1024, 16384], []]",
	"[" TY_BF ", " TY_BF ", \"\"]", NULL, { LK(KN_GELU) }, 1 };
static const struct kop ko_b_ln = {
	{ CPUB("autograd::engine::evaluate_function: NativeLayerNormBackward0"),
	  CPUB("NativeLayerNormBackward0"), CPU("aten::native_layer_norm_backward") }, 3,
	DIM_X ", [8, 1024, 4096], [], [8, 1024, 1], [8, 1024, 1], [4096], [4096], []]",
	"[" TY_BF ", " TY_BF ", \"ScalarList\", \"float\", \"float\", " TY_BF
	", " TY_BF ", \"ScalarList\"]", NULL,
	{ LK(KN_LN_BWD), LK(KN_MUL) }, 2 };
static const struct kop ko_b_attn = {
	{ CPUB("autograd::engine::evaluate_function: "
	      "ScaledDotProductFlashAttentionBackward0"),
	  CPUB("ScaledDotProductFlashAttentionBackward0"),
	  CPU("aten::_scaled_dot_product_flash_attention_backward") }, 3,
	"[[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024, 128], "
	"[8, 32, 1024, 128], [8, 32, 1024, 128], [8, 32, 1024]]",
	"[" TY_BF ", " TY_BF ", " TY_BF ", " TY_BF ", " TY_BF ", \"float\"]", NULL,
	{ LK(KN_FLASH_BWD), LK(KN_ADD) }, 2 };
static const struct kop ko_b_acc = {
	{ CPUB("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad"),
	  CPUB("torch::autograd::AccumulateGrad"), CPU("aten::add_") }, 3,
	"[[4096, 4096], [4096, 4096], []]", "[" TY_BF ", " TY_BF ", \"Scalar\"]",
	NULL, { LK(KN_ADD) }, 1 };
static const struct kop ko_comm = {
	{ CPU("c10d::allreduce_"), { "cpu_op", "record_param_comms", A_COMM } }, 2,
	"[[[50331648]], [], [], [], []]",
	"[\"GenericList\", \"\", \"\", \"\", \"\"]", NULL,
	{ { "cudaEventRecord", 135, L_BARE, NULL, 1, NULL, 0 },
	  { "cudaStreamWaitEvent", 147, L_BARE, NULL, 1, NULL, 0 },
	  { "cudaLaunchKernel", 211, L_KERN, &KN_NCCL, 1, NULL, 0 },
	  { "cudaEventRecord", 135, L_BARE, NULL, 1, NULL, 0 } }, 4 };
static const struct kop ko_adam = {
	{ CPUS("aten::_fused_adamw_") }, 1,
	"[[], [], [], [], [], [], [], [], [], [], [], [], [], []]",
	"[\"TensorList\", \"TensorList\", \"TensorList\", \"TensorList\", "
	"\"TensorList\", \"TensorList\", \"Scalar\", \"Scalar\", \"Scalar\", "
	"\"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"\"]",
	ST_TORCH "optim/adamw.py(718): _fused_adamw",
	{ LK(KN_ADAM), LK(KN_ADAM), LK(KN_ADAM), LK(KN_ADAM) }, 4 };
static const struct kop ko_item = {
	{ CPUS("aten::item"), CPU("aten::_local_scalar_dense") }, 2,
	"[[]]", "[\"float\"]", "/workspace/llm/train.py(241): train_step",
	{ { "cudaMemcpyAsync", 41, L_MEMCPY, NULL, 0,
	    "Memcpy DtoH (Device -> Pageable)", 4 },
	  { "cudaStreamSynchronize", 131, L_SYNC, NULL, 0, NULL, 0 } }, 2 };

struct kctx {
	uint64_t	 cpu_t[2];	/* main and autograd threads */
	uint64_t	 gpu_t[K_NSTREAM];
	uint64_t	 ext, corr, evidx, seq, pyid;
	uint64_t	 step;
	uint64_t	 g_first, g_last;	/* GPU span of the step */
	int		 flush_in;
	int		 layer;
	struct buf	 stack[6];	/* [0]: the step, then open spans */
	int		 depth;
	struct buf	 gpu;		/* GPU events not written yet */
	struct buf	 tmp;
};

static void
k_flush_gpu(struct kctx *c)
{
	struct buf *b = &c->stack[c->depth];

	bmem(b, c->gpu.p, c->gpu.n);
	c->gpu.n = 0;
}

static void
k_head(struct buf *b, const char *cat, const char *name, int64_t pid,
    int64_t tid, uint64_t ts, uint64_t dur)
{
	BS(b, ",\n  {\n    \"ph\": \"X\", \"cat\": \"");
	bstr(b, cat);
	BS(b, "\", \"name\": \"");
	bstr(b, name);
	BS(b, "\", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ",\n    \"ts\": ");
	bfix(b, ts, 3);
	BS(b, ", \"dur\": ");
	bfix(b, dur, 3);
	BS(b, ",\n    \"args\": {\n      ");
}

static void
k_tail(struct buf *b)
{
	BS(b, "\n    }\n  }");
}

static void
k_flow(struct buf *b, int fin, uint64_t id, int64_t pid, int64_t tid,
    uint64_t ts)
{
	BS(b, ",\n  {\n    \"ph\": \"");
	bch(b, fin ? 'f' : 's');
	BS(b, "\", \"id\": ");
	bu(b, id);
	BS(b, ", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ", \"ts\": ");
	bfix(b, ts, 3);
	BS(b, ",\n    \"cat\": \"ac2g\", \"name\": \"ac2g\"");
	if (fin)
		BS(b, ", \"bp\": \"e\"");
	BS(b, "\n  }");
}

/* A Kineto "Call stack": frames joined by ";\n" (an escaped newline). */
static void
k_stack(struct kctx *c, struct buf *b, const char *leaf)
{
	static const char *const mid[] = {
		ST_TORCH "nn/modules/module.py(1762): _call_impl",
		ST_TORCH "nn/modules/module.py(1751): _wrapped_call_impl",
	};
	int i, n;

	bstr(b, leaf);
	n = (int)rr(1, 2);
	for (i = 0; i < n; i++) {
		BS(b, ";\\n");
		bstr(b, mid[0]);
		BS(b, ";\\n");
		bstr(b, mid[1]);
		if (i == 0) {
			BS(b, ";\\n/workspace/llm/model.py(");
			bu(b, 180 + (uint64_t)c->layer % 4 * 7);
			BS(b, "): forward");
		}
	}
	BS(b, ";\\n/workspace/llm/train.py(214): train_step"
	    ";\\n/workspace/llm/train.py(388): main"
	    ";\\ntrain.py(402): <module>");
}

static void
k_note_gpu(struct kctx *c, uint64_t ts, uint64_t end)
{
	if (c->g_first == 0 || ts < c->g_first)
		c->g_first = ts;
	if (end > c->g_last)
		c->g_last = end;
}

static void
k_op(struct kctx *c, int th, const struct kop *op)
{
	struct buf *b = &c->stack[c->depth];
	struct buf *g = &c->gpu;
	int64_t tid = th ? K_TID_BWD : K_TID_MAIN;
	uint64_t t, ls[4], le[4], rts[6], rdur[6], kts[6], kdur[6], corr[6];
	uint64_t ext[4], ext_in = 0;
	int i, j;

	t = c->cpu_t[th] + rr(1500, 6000);
	for (i = 0; i < op->nv; i++) {
		ls[i] = t;
		t += rr(800, 3500);
	}
	for (j = 0; j < op->nl; j++) {
		const struct klaunch *l = &op->l[j];

		rts[j] = t;
		if (l->kind == L_SYNC) {
			uint64_t gmax = umax(c->gpu_t[0], c->gpu_t[1]);

			rdur[j] = (gmax > t ? gmax - t : 0) + rr(2000, 6000);
		} else
			rdur[j] = rr(2500, 9000);
		if (l->kind == L_KERN || l->kind == L_MEMCPY) {
			uint64_t k0 = umax(t + rr(4000, 12000),
			    c->gpu_t[l->s] + rr(300, 1500));

			if (l->s != 0)		/* NCCL waits for compute */
				k0 = umax(k0, c->gpu_t[0] + rr(300, 1500));
			if (l->kind == L_KERN)
				kdur[j] = rr(l->k->dlo, l->k->dhi);
			else		/* about 20 GB/s plus 1.5 us */
				kdur[j] = 1500 + l->bytes / 20;
			kts[j] = k0;
			c->gpu_t[l->s] = k0 + kdur[j];
			k_note_gpu(c, k0, k0 + kdur[j]);
		}
		t = rts[j] + rdur[j] + rr(600, 2500);
	}
	for (i = op->nv - 1; i >= 0; i--) {
		t += rr(400, 2000);
		le[i] = t;
	}
	c->cpu_t[th] = t;

	for (i = 0; i < op->nv; i++) {
		const struct klvl *v = &op->v[i];

		k_head(b, v->cat, v->name, K_PID, tid, ls[i], le[i] - ls[i]);
		if (v->a == A_PY) {
			c->pyid++;
			BS(b, "\"Python parent id\": ");
			bu(b, c->pyid - rr(1, 40));
			BS(b, ", \"Python id\": ");
			bu(b, c->pyid);
			BS(b, ", \"Python module id\": ");
			bu(b, 10 + (uint64_t)c->layer);
		} else {
			ext[i] = ext_in = ++c->ext;
			BS(b, "\"External id\": ");
			bu(b, ext[i]);
			BS(b, ",\"Record function id\": 0");
			if (v->a == A_CPU_BARE ||
			    (i == 0 && op->leaf != NULL)) {
				BS(b, ", \"Sequence number\": ");
				bu(b, ++c->seq);
				BS(b, ", \"Fwd thread id\": 0");
			}
			if (v->a == A_COMM)
				BS(b, ", \"Collective name\": \"allreduce\", "
				    "\"dtype\": \"BFloat16\", \"In msg nelems\": "
				    "50331648, \"Out msg nelems\": 50331648, "
				    "\"In split size\": \"[]\", \"Out split size\": "
				    "\"[]\", \"Global rank start\": 0, "
				    "\"Global rank stride\": 1, \"Group size\": 8, "
				    "\"Process Group Name\": \"0\", "
				    "\"Process Group Description\": \"default_pg\", "
				    "\"Process Group Ranks\": "
				    "\"[0, 1, 2, 3, 4, 5, 6, 7]\", \"Rank\": 0");
			if (v->a != A_CPU_BARE) {
				BS(b, ", \"Input type\": ");
				bstr(b, op->types);
				BS(b, ", \"Input Dims\": ");
				bstr(b, op->dims);
			}
			/* Not every op: stacks are cut at the profiler's depth
			 * limit and absent for ops called from C++. */
			if (v->a == A_CPU_STACK && op->leaf != NULL &&
			    rn(5) < 3) {
				BS(b, ", \"Call stack\": \"");
				k_stack(c, b, op->leaf);
				bch(b, '"');
			}
		}
		BS(b, ", \"Ev Idx\": ");
		bu(b, c->evidx++);
		k_tail(b);
	}
	for (j = 0; j < op->nl; j++) {
		const struct klaunch *l = &op->l[j];
		int64_t stream = k_stream[l->s];

		corr[j] = ++c->corr;
		k_head(b, "cuda_runtime", l->rt, K_PID, tid, rts[j], rdur[j]);
		BS(b, "\"External id\": ");
		bu(b, ext_in);
		BS(b, ", \"cbid\": ");
		bu(b, (uint64_t)l->cbid);
		BS(b, ", \"correlation\": ");
		bu(b, corr[j]);
		k_tail(b);
		if (l->kind != L_KERN && l->kind != L_MEMCPY)
			continue;
		k_flow(b, 0, corr[j], K_PID, tid, rts[j]);
		if (l->kind == L_KERN) {
			const struct kern *k = l->k;
			uint64_t blocks = (uint64_t)k->grid[0] * k->grid[1] *
			    k->grid[2];
			uint64_t bps = blocks * 1000000 / 132;	/* 132 SMs */
			uint64_t wps = bps * (uint64_t)k->block[0] / 32;

			k_head(g, "kernel", k->name, 0, stream, kts[j], kdur[j]);
			BS(g, "\"External id\": ");
			bu(g, ext_in);
			BS(g, ",\n      \"queued\": 0, \"device\": 0, "
			    "\"context\": 1,\n      \"stream\": ");
			bi(g, stream);
			BS(g, ", \"correlation\": ");
			bu(g, corr[j]);
			BS(g, ",\n      \"registers per thread\": ");
			bu(g, (uint64_t)k->regs);
			BS(g, ",\n      \"shared memory\": ");
			bu(g, (uint64_t)k->smem);
			BS(g, ",\n      \"blocks per SM\": ");
			bfixt(g, bps, 6);
			BS(g, ",\n      \"warps per SM\": ");
			bfixt(g, wps, 6);
			BS(g, ",\n      \"grid\": [");
			for (i = 0; i < 3; i++) {
				if (i)
					BS(g, ", ");
				bu(g, (uint64_t)k->grid[i]);
			}
			BS(g, "],\n      \"block\": [");
			for (i = 0; i < 3; i++) {
				if (i)
					BS(g, ", ");
				bu(g, (uint64_t)k->block[i]);
			}
			BS(g, "],\n      \"est. achieved occupancy %\": ");
			bu(g, wps >= 64000000 ? 100 : wps / 640000);
			k_tail(g);
		} else {
			k_head(g, "gpu_memcpy", l->mname, 0, stream, kts[j],
			    kdur[j]);
			BS(g, "\"External id\": ");
			bu(g, ext_in);
			BS(g, ",\n      \"device\": 0, \"context\": 1,\n"
			    "      \"stream\": ");
			bi(g, stream);
			BS(g, ", \"correlation\": ");
			bu(g, corr[j]);
			BS(g, ",\n      \"bytes\": ");
			bu(g, l->bytes);
			BS(g, ", \"memory bandwidth (GB/s)\": ");
			bfixt(g, (uint64_t)l->bytes * 1000000 / kdur[j], 6);
			k_tail(g);
		}
		k_flow(g, 1, corr[j], 0, stream, kts[j]);
	}
	if (--c->flush_in <= 0) {
		k_flush_gpu(c);
		c->flush_in = (int)rr(6, 30);
	}
}

/* Cheap ops without launches, sprinkled between the real ones. */
static void
k_filler(struct kctx *c, int th)
{
	if (rn(3) == 0)
		k_op(c, th, rn(2) ? &ko_view : &ko_t);
}

static void
k_span_begin(struct kctx *c)
{
	if (c->depth + 1 >= (int)(sizeof c->stack / sizeof c->stack[0]))
		die("internal error: spans nested too deep");
	c->depth++;
	c->stack[c->depth].n = 0;
}

/* Close the innermost span: its annotation, then what it holds. */
static void
k_span_end(struct kctx *c, const char *name, uint64_t ext, uint64_t ts,
    uint64_t end)
{
	struct buf *in = &c->stack[c->depth];
	struct buf *up = &c->stack[c->depth - 1];

	k_head(up, "user_annotation", name, K_PID, K_TID_MAIN, ts, end - ts);
	BS(up, "\"External id\": ");
	bu(up, ext);
	BS(up, ",\"Record function id\": 0, \"Ev Idx\": ");
	bu(up, c->evidx++);
	k_tail(up);
	bmem(up, in->p, in->n);
	in->n = 0;
	c->depth--;
}

static void
k_annotated(struct kctx *c, const char *name, void (*body)(struct kctx *))
{
	uint64_t ts = c->cpu_t[0] + rr(1000, 3000), ext = ++c->ext;

	c->cpu_t[0] = ts + rr(500, 1500);
	k_span_begin(c);
	body(c);
	c->cpu_t[0] += rr(500, 1500);
	k_span_end(c, name, ext, ts, c->cpu_t[0]);
}

#define K_LAYERS 12

static void
k_forward(struct kctx *c)
{
	for (c->layer = 0; c->layer < K_LAYERS; c->layer++) {
		k_op(c, 0, &ko_ln);
		k_filler(c, 0);
		k_op(c, 0, &ko_qkv);
		k_filler(c, 0);
		k_op(c, 0, &ko_attn);
		k_op(c, 0, &ko_proj);
		k_op(c, 0, &ko_add);
		k_op(c, 0, &ko_ln);
		k_op(c, 0, &ko_fc1);
		k_filler(c, 0);
		k_op(c, 0, &ko_gelu);
		k_op(c, 0, &ko_fc2);
		k_op(c, 0, &ko_add);
	}
	k_op(c, 0, &ko_loss);
}

static void
k_backward(struct kctx *c)
{
	c->cpu_t[1] = c->cpu_t[0] + rr(3000, 9000);
	for (c->layer = K_LAYERS - 1; c->layer >= 0; c->layer--) {
		k_op(c, 1, &ko_b_mm);
		k_op(c, 1, &ko_b_gelu);
		k_op(c, 1, &ko_b_mm);
		k_op(c, 1, &ko_b_ln);
		k_op(c, 1, &ko_b_mm);
		k_op(c, 1, &ko_b_attn);
		k_op(c, 1, &ko_b_mm);
		k_op(c, 1, &ko_b_ln);
		k_op(c, 1, &ko_b_acc);
		k_op(c, 1, &ko_b_acc);
		if (c->layer % 4 == 0)
			k_op(c, 1, &ko_comm);
	}
	c->cpu_t[0] = c->cpu_t[1] + rr(2000, 6000);
}

static void
k_optim(struct kctx *c)
{
	k_op(c, 0, &ko_adam);
}

static void
k_step(struct kctx *c)
{
	char name[40];
	uint64_t ts, ext;

	c->g_first = c->g_last = 0;
	ts = c->cpu_t[0] + rr(5000, 20000);
	ext = ++c->ext;
	c->cpu_t[0] = ts + rr(2000, 5000);
	k_span_begin(c);
	k_op(c, 0, &ko_h2d);
	k_op(c, 0, &ko_h2d);
	k_annotated(c, "## forward ##", k_forward);
	k_backward(c);
	k_annotated(c, "Optimizer.step#AdamW.step", k_optim);
	k_op(c, 0, &ko_item);
	c->cpu_t[0] += rr(1000, 3000);

	/* The step as the GPU saw it, then the rest of the GPU events. */
	snprintf(name, sizeof name, "ProfilerStep#%llu",
	    (unsigned long long)c->step);
	k_head(&c->gpu, "gpu_user_annotation", name, 0, 7, c->g_first,
	    c->g_last - c->g_first);
	BS(&c->gpu, "\"External id\": ");
	bu(&c->gpu, ext);
	k_tail(&c->gpu);
	k_flush_gpu(c);
	k_span_end(c, name, ext, ts, c->cpu_t[0]);
	c->step++;
	out_put(&c->stack[0]);
}

static void
k_meta(struct buf *b, const char *name, int64_t pid, int64_t tid,
    const char *key, const char *sval, int64_t ival)
{
	BS(b, ",\n  {\n    \"name\": \"");
	bstr(b, name);
	BS(b, "\", \"ph\": \"M\", \"ts\": ");
	bfix(b, K_T0, 3);
	BS(b, ", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ",\n    \"args\": {\n      \"");
	bstr(b, key);
	BS(b, "\": ");
	if (sval != NULL) {
		bch(b, '"');
		bstr(b, sval);
		bch(b, '"');
	} else
		bi(b, ival);
	BS(b, "\n    }\n  }");
}

static void
gen_kineto(uint64_t size)
{
	static struct kctx c;
	struct buf *b = &c.tmp;
	int d;

	BS(&out, "\n{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n");
	for (d = 0; d < 8; d++) {
		BS(&out, "    {\n      \"id\": ");
		bu(&out, (uint64_t)d);
		BS(&out, ", \"name\": \"NVIDIA H100 80GB HBM3\", "
		    "\"totalGlobalMem\": 85028569088,\n"
		    "      \"computeMajor\": 9, \"computeMinor\": 0,\n"
		    "      \"maxThreadsPerBlock\": 1024, "
		    "\"maxThreadsPerMultiprocessor\": 2048,\n"
		    "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": "
		    "65536, \"warpSize\": 32,\n"
		    "      \"sharedMemPerBlock\": 49152, "
		    "\"sharedMemPerMultiprocessor\": 233472,\n"
		    "      \"numSms\": 132, \"sharedMemPerBlockOptin\": 232448\n"
		    "    }");
		bstr(&out, d < 7 ? ",\n" : "\n");
	}
	BS(&out, "  ],\n  \"cupti_version\": 24,\n"
	    "  \"cuda_runtime_version\": 12040,\n"
	    "  \"cuda_driver_version\": 12040,\n"
	    "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, "
	    "\"world_size\": 8, \"pg_count\": 2, \"pg_config\": "
	    "[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", "
	    "\"backend_config\": \"cuda:nccl\", \"pg_size\": 8, "
	    "\"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}, {\"pg_name\": \"1\", "
	    "\"pg_desc\": \"undefined\", \"backend_config\": "
	    "\"cpu:gloo,cuda:gloo\", \"pg_size\": 8, "
	    "\"ranks\": [0, 1, 2, 3, 4, 5, 6, 7]}], "
	    "\"nccl_version\": \"2.21.5\"},\n"
	    "  \"record_shapes\": 1,\n  \"with_stack\": 1,\n"
	    "  \"trace_id\": \"5B2F0C6D9E1A4C7F8D3B6A2E1F0C9D8B\",\n"
	    "  \"traceEvents\": [\n");
	first_sep = ",\n";

	c.cpu_t[0] = c.cpu_t[1] = K_T0;
	c.gpu_t[0] = c.gpu_t[1] = K_T0;
	c.ext = 0;
	c.corr = 100;
	c.pyid = 10;
	c.flush_in = 10;
	c.step = 1;
	while (written() < size)
		k_step(&c);

	k_meta(b, "process_name", K_PID, 0, "name", "python3", 0);
	k_meta(b, "process_labels", K_PID, 0, "labels", "CPU", 0);
	k_meta(b, "process_sort_index", K_PID, 0, "sort_index", NULL, K_PID);
	k_meta(b, "process_name", 0, 0, "name", "python3", 0);
	k_meta(b, "process_labels", 0, 0, "labels", "GPU 0", 0);
	k_meta(b, "process_sort_index", 0, 0, "sort_index", NULL, 5000000);
	k_meta(b, "thread_name", 0, 7, "name", "stream 7 ", 0);
	k_meta(b, "thread_sort_index", 0, 7, "sort_index", NULL, 7);
	k_meta(b, "thread_name", 0, 20, "name", "stream 20 ", 0);
	k_meta(b, "thread_sort_index", 0, 20, "sort_index", NULL, 20);
	k_meta(b, "thread_name", K_PID, K_TID_MAIN, "name",
	    "thread 2087 (python3)", 0);
	k_meta(b, "thread_sort_index", K_PID, K_TID_MAIN, "sort_index", NULL,
	    K_TID_MAIN);
	k_meta(b, "thread_name", K_PID, K_TID_BWD, "name",
	    "thread 2391 (pt_autograd_0)", 0);
	k_meta(b, "thread_sort_index", K_PID, K_TID_BWD, "sort_index", NULL,
	    K_TID_BWD);
	BS(b, ",\n  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
	bfix(b, K_T0 - 107149, 3);
	BS(b, ", \"dur\": ");
	bfix(b, c.cpu_t[0] - K_T0 + 107149, 3);
	BS(b, ",\n    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n"
	    "    \"name\": \"PyTorch Profiler (0)\",\n"
	    "    \"args\": {\n      \"Op count\": 0\n    }\n  },\n"
	    "  {\n    \"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
	bfix(b, K_T0 - 107149, 3);
	BS(b, ",\n    \"pid\": \"Spans\", \"tid\": 0,\n    \"args\": {\n"
	    "      \"sort_index\": 536870912\n    }\n  },\n"
	    "  {\n    \"name\": \"Iteration Start: PyTorch Profiler\", "
	    "\"ph\": \"i\", \"s\": \"g\",\n    \"pid\": \"Traces\", "
	    "\"tid\": \"Trace PyTorch Profiler\", \"ts\": ");
	bfix(b, K_T0 - 107149, 3);
	BS(b, "\n  },\n  {\n    \"name\": \"Record Window End\", \"ph\": \"i\", "
	    "\"s\": \"g\",\n    \"pid\": \"\", \"tid\": \"\", \"ts\": ");
	bfix(b, c.cpu_t[0] + 1000, 3);
	BS(b, "\n  }\n  ],\n  \"traceName\": \"/tmp/traces/rank0.1767189312000."
	    "pt.trace.json\",\n  \"displayTimeUnit\": \"ms\",\n"
	    "  \"baseTimeNanoseconds\": ");
	bu(b, K_BASE_NS);
	BS(b, "\n}\n");
	out_put(b);
	out_flush();
}

/* ===========================================================================
 * Ascend ops: shared by chrome-ascend and kernel-details
 * ======================================================================== */

struct aop {
	const char	*aten;		/* Python cpu_op */
	const char	*aclnn;		/* CANN API and inner cpu_op */
	const char	*hw;		/* device task, kernel_details Name */
	const char	*type;		/* OP Type */
	const char	*core;		/* Accelerator Core */
	const char	*dims, *types;	/* trace_view Input Dims / Input type */
	const char	*ish, *idt, *ifmt, *osh, *odt, *ofmt;
	unsigned	 bdim;
	unsigned	 dlo, dhi;	/* ns */
	int		 hf32;
};

#define RN	";\\r\\n"
#define Q3(s)	"\"\"\"" s "\"\"\""

static const struct aop A_OPS_FWD[] = {
	{ "aten::conv2d", "aclnnConvolution", "Conv2D1", "Conv2D", "AI_CORE",
	  "32,3,224,224" RN "64,3,11,11" RN "64" RN RN RN RN RN,
	  "float" RN "float" RN "float" RN "ScalarList" RN "ScalarList" RN
	  "ScalarList" RN "Scalar",
	  Q3("32,1,224,224,8;121,4,16,8;64"), "FLOAT;FLOAT;FLOAT",
	  "NC1HWC0;FRACTAL_Z;NCHW", Q3("32,8,55,55,8"), "FLOAT", "NC1HWC0",
	  16, 120000, 330000, 1 },
	{ "aten::contiguous", "aclnnInplaceCopy", "trans_TransData_2",
	  "TransData", "AI_VECTOR_CORE", "32,64,55,55" RN, "float" RN "Scalar",
	  Q3("32,8,55,55,8"), "FLOAT", "NC1HWC0", Q3("32,64,55,55"), "FLOAT",
	  "NCHW", 32, 15000, 60000, 0 },
	{ "aten::relu_", "aclnnInplaceRelu", "aclnnInplaceRelu_Relu_Relu", "Relu",
	  "AI_VECTOR_CORE", "32,64,55,55", "float",
	  Q3("32,64,55,55"), "FLOAT", "NCHW", Q3("32,64,55,55"), "FLOAT", "NCHW",
	  48, 6000, 25000, 0 },
	{ "aten::max_pool2d_with_indices", "aclnnMaxPool2dWithMask",
	  "aclnnMaxPool2dWithMask_MaxPoolWithArgmaxV1AiCore_MaxPoolWithArgmaxV1",
	  "MaxPoolWithArgmaxV1", "AI_VECTOR_CORE",
	  "32,64,55,55" RN RN RN RN RN, "float" RN "ScalarList" RN "ScalarList"
	  RN "ScalarList" RN "ScalarList" RN "Scalar",
	  Q3("32,4,55,55,16"), "FLOAT", "NC1HWC0:1",
	  Q3("32,4,27,27,16;32,4,9,47,16"), "FLOAT;UINT16",
	  "NC1HWC0:1;NC1HWC0:1", 43, 60000, 180000, 0 },
	{ "aten::native_dropout", "aclnnDropoutGenMaskV2",
	  "aclnnDropoutGenMaskV2_DSAGenBitMask_DSAGenBitMask", "DSAGenBitMask",
	  "DSA_SQE", "32,9216" RN RN, "float" RN "Scalar" RN "Scalar",
	  "N/A", "N/A", "N/A", Q3("36864"), "UINT8", "FORMAT_ND",
	  0, 2000, 4000, 0 },
	{ "aten::mul", "aclnnMuls", "aclnnMuls_MulAiCore_Mul", "Mul",
	  "AI_VECTOR_CORE", "32,9216" RN, "float" RN "Scalar",
	  Q3("32,9216;1"), "FLOAT;FLOAT", "FORMAT_ND;FORMAT_ND", Q3("32,9216"),
	  "FLOAT", "FORMAT_ND", 48, 4000, 15000, 0 },
	{ "aten::addmm", "aclnnAddmm", "aclnnAddmm_MatMulCommon_MatMulV2",
	  "MatMulV2", "AI_CORE", "4096" RN "32,9216" RN "9216,4096" RN RN,
	  "float" RN "float" RN "float" RN "Scalar" RN "Scalar",
	  Q3("32,9216;4096,9216;4096"), "FLOAT;FLOAT;FLOAT",
	  "FORMAT_ND;FORMAT_ND;FORMAT_ND", Q3("32,4096"), "FLOAT", "FORMAT_ND",
	  16, 50000, 350000, 0 },
	{ "aten::nll_loss_nd", "aclnnNLLLoss",
	  "aclnnNLLLoss_NLLLossAiCore_NLLLoss", "NLLLoss", "MIX_AIV",
	  "32,1000" RN "32" RN RN RN, "float" RN "long int" RN "None" RN
	  "Scalar" RN "Scalar",
	  Q3("32,1000;32;1000"), "FLOAT;INT64;FLOAT",
	  "FORMAT_ND;FORMAT_ND;FORMAT_ND", Q3(";"), "FLOAT;FLOAT",
	  "FORMAT_ND;FORMAT_ND", 48, 8000, 16000, 0 },
};

static const struct aop A_OPS_BWD[] = {
	{ "aten::threshold_backward", "aclnnThresholdBackward",
	  "aclnnThresholdBackward_ReluGrad_ReluGrad", "ReluGrad",
	  "AI_VECTOR_CORE", "32,4096" RN "32,4096" RN, "float" RN "float" RN
	  "Scalar", Q3("32,4096;32,4096"), "FLOAT;FLOAT",
	  "FORMAT_ND;FORMAT_ND", Q3("32,4096"), "FLOAT", "FORMAT_ND",
	  47, 5000, 20000, 0 },
	{ "aten::convolution_backward", "aclnnConvolutionBackward",
	  "Conv2DBackpropFilter6", "Conv2DBackpropFilter", "AI_CORE",
	  "32,256,13,13" RN "32,384,13,13" RN "256,384,3,3" RN RN RN RN RN RN
	  RN, "float" RN "float" RN "float" RN "ScalarList" RN "ScalarList" RN
	  "ScalarList" RN "ScalarList" RN "Scalar" RN "Scalar" RN "BoolList",
	  Q3("32,32,13,13,8;4;32,32,13,13,8"), "FLOAT;INT32;FLOAT",
	  "NC1HWC0;NCHW;NC1HWC0", Q3("288,16,16,8"), "FLOAT", "FRACTAL_Z",
	  24, 40000, 200000, 1 },
	{ "aten::convolution_backward", "aclnnConvolutionBackward",
	  "Conv2DBackpropInput3", "Conv2DBackpropInput", "AI_CORE",
	  "32,256,13,13" RN "32,384,13,13" RN "256,384,3,3" RN RN RN RN RN RN
	  RN, "float" RN "float" RN "float" RN "ScalarList" RN "ScalarList" RN
	  "ScalarList" RN "ScalarList" RN "Scalar" RN "Scalar" RN "BoolList",
	  Q3("4;288,16,16,8;32,32,13,13,8"), "INT32;FLOAT;FLOAT",
	  "NCHW;FRACTAL_Z;NC1HWC0", Q3("32,48,13,13,8"), "FLOAT", "NC1HWC0",
	  24, 40000, 220000, 1 },
	{ "aten::max_pool2d_with_indices_backward",
	  "aclnnMaxPool2dWithMaskBackward",
	  "aclnnMaxPool2dWithMaskBackward_MaxPoolGradWithArgmaxV1AiCore_"
	  "MaxPoolGradWithArgmaxV1", "MaxPoolGradWithArgmaxV1", "AI_VECTOR_CORE",
	  "32,256,6,6" RN "32,256,13,13" RN RN RN RN RN RN "32,256,6,6",
	  "float" RN "float" RN "ScalarList" RN "ScalarList" RN "ScalarList" RN
	  "ScalarList" RN "Scalar" RN "long int",
	  Q3("32,16,13,13,16;32,16,6,6,16;32,16,9,12,16"), "FLOAT;FLOAT;UINT16",
	  "NC1HWC0:1;NC1HWC0:1;NC1HWC0:1", Q3("32,16,13,13,16"), "FLOAT",
	  "NC1HWC0:1", 32, 30000, 120000, 0 },
	{ "aten::sum", "aclnnReduceSum",
	  "aclnnReduceSum_ReduceSumOpAiCore_ReduceSum", "ReduceSum", "MIX_AIV",
	  "32,4096" RN RN RN, "float" RN "ScalarList" RN "Scalar" RN "None",
	  Q3("32,4096;1"), "FLOAT;INT64", "FORMAT_ND;FORMAT_ND", Q3("4096"),
	  "FLOAT", "FORMAT_ND", 1, 4000, 9000, 0 },
	{ "aten::zero_", "aclnnInplaceZero", "Conv2DBackpropFilter6_MemSet",
	  "MemSet", "AI_VECTOR_CORE", "256,384,3,3", "float",
	  "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", 48, 8000, 14000, 0 },
	{ "aten::_foreach_add_", "aclnnForeachAddListV2",
	  "aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList",
	  "ForeachAddList", "AI_VECTOR_CORE", RN RN, "TensorList" RN
	  "TensorList" RN "Scalar",
	  Q3("64,3,11,11;64;192,64,5,5;192;384,192,3,3;384"),
	  "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT;FLOAT",
	  "NCHW;FORMAT_ND;NCHW;FORMAT_ND;NCHW;FORMAT_ND",
	  Q3("64,3,11,11;64;192,64,5,5;192;384,192,3,3;384"),
	  "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT;FLOAT",
	  "NCHW;FORMAT_ND;NCHW;FORMAT_ND;NCHW;FORMAT_ND", 48, 200000, 650000, 0 },
};

#define N_FWD	(sizeof A_OPS_FWD / sizeof A_OPS_FWD[0])
#define N_BWD	(sizeof A_OPS_BWD / sizeof A_OPS_BWD[0])

/* The op at position I of a step: a forward run, then a backward run. */
static const struct aop *
a_pick(int bwd)
{
	uint64_t r = rn(100);

	if (!bwd) {
		/* conv/transdata/relu/pool heavy, like the AlexNet capture */
		static const unsigned char w[N_FWD] = {
		    14, 22, 16, 8, 4, 14, 14, 8 };
		unsigned i, acc = 0;

		for (i = 0; i < N_FWD; i++)
			if (r < (acc += w[i]))
				return &A_OPS_FWD[i];
		return &A_OPS_FWD[N_FWD - 1];
	} else {
		static const unsigned char w[N_BWD] = {
		    18, 18, 16, 12, 16, 14, 6 };
		unsigned i, acc = 0;

		for (i = 0; i < N_BWD; i++)
			if (r < (acc += w[i]))
				return &A_OPS_BWD[i];
		return &A_OPS_BWD[N_BWD - 1];
	}
}

static int
a_stream(const struct aop *o)
{
	return strcmp(o->core, "DSA_SQE") == 0 ? 1 : 0;
}

/* ===========================================================================
 * chrome-ascend
 * ======================================================================== */

#define A_PY		3096504
#define A_TID_MAIN	3096504
#define A_TID_BWD	3105075
#define A_TID_DEQ	3099702
#define A_CANN		3170820320
#define A_HW		3170820512
#define A_HCCL		3170820576
#define A_OVL		3170820832
#define A_FREQ		3170820544
#define A_HBM		3170820640
#define A_LLC		3170820672
#define A_NPUMEM	3170820704
#define A_STARS		3170820736
#define A_ACCPMU	3170820768
#define A_QOS		3170820800
#define A_T0		1736408883573887920ULL	/* ns */
static const int a_stream_id[3] = { 2, 3, 4 };

struct actx {
	uint64_t	 py_t[3];	/* main, bwd, dequeue threads */
	uint64_t	 hw_t[3];	/* streams 2, 3, 4 */
	uint64_t	 ov_t;		/* end of the last Computing/Free */
	uint64_t	 cnt_t, tick;	/* counter clock */
	uint64_t	 cid, corr, seq, pyid, fwdbwd;
	uint64_t	 task[3];
	uint64_t	 step, hcom;
	int		 m_py, m_dev;
	uint64_t	 size;
	struct buf	 py, cann, hw, hccl, ov, cnt, step_b, tmp;
};

/* The object start: ", {" then "ph" first (Python-side layout). */
static void
a_pyhead(struct buf *b, const char *ph, const char *name, int64_t pid,
    int64_t tid, uint64_t ts)
{
	BS(b, ", {\"ph\": \"");
	bstr(b, ph);
	BS(b, "\", \"name\": \"");
	bstr(b, name);
	BS(b, "\", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ", \"ts\": \"");
	bfix(b, ts, 3);
	bch(b, '"');
}

/* Python-side durations: 10 ns resolution, Python float text. */
static void
a_dur2(struct buf *b, uint64_t ns)
{
	BS(b, ", \"dur\": ");
	bfixt(b, ns / 10, 2);
}

static void
a_pyflow(struct buf *b, int fin, const char *name, const char *cat,
    uint64_t id, int64_t pid, int64_t tid, uint64_t ts)
{
	BS(b, ", {\"ph\": \"");
	bch(b, fin ? 'f' : 's');
	BS(b, "\", \"bp\": \"e\", \"name\": \"");
	bstr(b, name);
	BS(b, "\", \"id\": ");
	bu(b, id);
	BS(b, ", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ", \"ts\": \"");
	bfix(b, ts, 3);
	BS(b, "\", \"cat\": \"");
	bstr(b, cat);
	BS(b, "\"}");
}

/* An Ascend "Call stack": frames joined by ";\r\n" (escaped). */
static void
a_stack(struct buf *b, int bwd)
{
	static const char *const fr[] = {
	    "/home/user/.local/lib/python3.9/site-packages/torch/nn/modules/"
	    "module.py(1527): _call_impl",
	    "/home/user/.local/lib/python3.9/site-packages/torch/nn/modules/"
	    "module.py(1518): _wrapped_call_impl",
	    "/home/user/.local/lib/python3.9/site-packages/torch/nn/modules/"
	    "container.py(215): forward",
	    "/home/user/.local/lib/python3.9/site-packages/torchvision/models/"
	    "alexnet.py(48): forward",
	    "/home/user/.local/lib/python3.9/site-packages/torch/nn/parallel/"
	    "distributed.py(1519): forward",
	};
	int i, n = (int)rr(2, 5);

	if (bwd)
		BS(b, "/home/user/.local/lib/python3.9/site-packages/torch/"
		    "autograd/__init__.py(251): backward" RN
		    "/home/user/.local/lib/python3.9/site-packages/torch/"
		    "_tensor.py(492): backward");
	else
		BS(b, "/home/user/.local/lib/python3.9/site-packages/torch/nn/"
		    "modules/conv.py(456): _conv_forward" RN
		    "/home/user/.local/lib/python3.9/site-packages/torch/nn/"
		    "modules/conv.py(460): forward");
	for (i = 0; i < n; i++) {
		BS(b, RN);
		bstr(b, fr[(i + (int)rn(2)) % 5]);
	}
	BS(b, RN "/home/user/imagenet_script/main.py(354): train" RN
	    "/home/user/imagenet_script/main.py(282): main_worker" RN
	    "/home/user/.local/lib/python3.9/site-packages/torch/"
	    "multiprocessing/spawn.py(74): _wrap" RN
	    "/home/user/miniconda3/lib/python3.9/multiprocessing/"
	    "process.py(108): run" RN
	    "/home/user/miniconda3/lib/python3.9/multiprocessing/"
	    "process.py(315): _bootstrap" RN
	    "<string>(1): <module>");
}

/* A device-side X event: "name" first, no "cat", "ph" last. */
static void
a_devhead(struct buf *b, const char *name, int64_t pid, int64_t tid,
    uint64_t ts)
{
	BS(b, ", {\"name\": \"");
	bstr(b, name);
	BS(b, "\", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ", \"ts\": \"");
	bfix(b, ts, 3);
	bch(b, '"');
}

/* Device durations: multiples of 1/32 ns on top of whole ns. */
static void
a_dur8(struct buf *b, uint64_t ns)
{
	BS(b, ", \"dur\": ");
	bfixt(b, ns * 100000 + rn(32) * 3125, 8);
}

static void
a_hwtask(struct actx *c, const char *name, const char *ttype, int s,
    uint64_t ts, uint64_t dur, uint64_t taskid, uint64_t sub, uint64_t cid)
{
	struct buf *b = &c->hw;

	a_devhead(b, name, A_HW, a_stream_id[s], ts);
	a_dur8(b, dur);
	BS(b, ", \"args\": {\"Model Id\": 4294967295, \"Task Type\": \"");
	bstr(b, ttype);
	BS(b, "\", \"Physic Stream Id\": ");
	bu(b, (uint64_t)a_stream_id[s]);
	BS(b, ", \"Task Id\": ");
	bu(b, taskid);
	BS(b, ", \"Batch Id\": 0, \"Subtask Id\": ");
	bu(b, sub);
	BS(b, ", \"connection_id\": ");
	bu(b, cid);
	BS(b, "}, \"ph\": \"X\"}");
}

static void
a_overlap(struct actx *c, int tid, const char *name, uint64_t ts,
    uint64_t dur)
{
	a_devhead(&c->ov, name, A_OVL, tid, ts);
	BS(&c->ov, ", \"dur\": ");
	bfixt(&c->ov, dur, 3);
	BS(&c->ov, ", \"ph\": \"X\"}");
}

static void
a_op(struct actx *c, int th, const struct aop *o)
{
	struct buf *p = &c->py;
	int64_t tid = th ? A_TID_BWD : A_TID_MAIN;
	uint64_t t, pf_ts = 0, pf_end, o_ts, o_end, i_ts, i_end, e_ts, e_dur;
	uint64_t dq_ts, dq_dur, acl_ts, acl_dur, nd_ts, nd_dur, h_ts, h_dur;
	uint64_t cid, corr, task;
	int pf = rn(10) < 5, s = a_stream(o), k, nfill;

	/* Host timing: python_function > aten op > aclnn op > Enqueue. */
	t = c->py_t[th] + rr(3000, 20000);
	if (pf) {
		pf_ts = t;
		t += rr(1000, 4000);
	}
	o_ts = t;
	i_ts = o_ts + rr(8000, 30000);
	e_ts = i_ts + rr(4000, 12000);
	e_dur = rr(6000, 16000);
	i_end = e_ts + e_dur + rr(2000, 6000);
	o_end = i_end + rr(3000, 12000);
	pf_end = o_end + rr(500, 3000);
	c->py_t[th] = pf ? pf_end : o_end;

	/* The task queue thread, CANN, the device. */
	dq_ts = umax(c->py_t[2], e_ts + rr(3000, 20000));
	acl_ts = dq_ts + rr(1000, 4000);
	acl_dur = rr(12000, 40000);
	nd_ts = acl_ts + rr(2000, 6000);
	nd_dur = acl_dur - (nd_ts - acl_ts) - rr(500, 1500);
	dq_dur = acl_ts + acl_dur - dq_ts + rr(2000, 8000);
	c->py_t[2] = dq_ts + dq_dur;
	h_ts = umax(c->hw_t[s] + rr(1000, 90000), nd_ts + rr(8000, 30000));
	h_dur = rr(o->dlo, o->dhi);
	c->hw_t[s] = h_ts + h_dur;
	cid = ++c->cid;
	corr = ++c->corr;
	task = c->task[s]++;

	/* Python process */
	if (pf) {
		c->pyid++;
		a_pyhead(p, "X", th ? "torch/autograd/graph.py(744): "
		    "_engine_run_backward" : "torch/nn/modules/module.py(1527)"
		    ": _call_impl", A_PY, tid, pf_ts);
		a_dur2(p, pf_end - pf_ts);
		BS(p, ", \"cat\": \"python_function\", \"args\": {\"Python id\": ");
		bu(p, c->pyid);
		BS(p, ", \"Python parent id\": ");
		bu(p, c->pyid - rr(1, 30));
		BS(p, "}}");
	}
	a_pyhead(p, "X", o->aten, A_PY, tid, o_ts);
	a_dur2(p, o_end - o_ts);
	BS(p, ", \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": ");
	if (rn(3))
		bu(p, ++c->seq);
	else
		BS(p, "-1");
	BS(p, ", \"Fwd thread id\": ");
	bu(p, th ? 1 : 0);
	if (rn(100) < 64) {
		BS(p, ", \"Input Dims\": \"");
		bstr(p, o->dims);
		BS(p, "\", \"Input type\": \"");
		bstr(p, o->types);
		bch(p, '"');
	}
	if (rn(100) < 60) {
		BS(p, ", \"Call stack\": \"");
		a_stack(p, th);
		bch(p, '"');
	}
	BS(p, "}}");
	/* Cheap host ops inside it that launch nothing. */
	nfill = (int)rn(3);
	for (k = 0; k < nfill; k++) {
		uint64_t f_ts = o_ts + 1000 + (uint64_t)k * 2500;

		a_pyhead(p, "X", k ? "aten::result_type" : "empty_tensor",
		    A_PY, tid, f_ts);
		a_dur2(p, rr(300, 2000));
		BS(p, ", \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": "
		    "-1, \"Fwd thread id\": 0}}");
	}
	a_pyhead(p, "X", o->aclnn, A_PY, tid, i_ts);
	a_dur2(p, i_end - i_ts);
	BS(p, ", \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": -1, "
	    "\"Fwd thread id\": 0}}");
	a_pyhead(p, "X", "Enqueue", A_PY, tid, e_ts);
	a_dur2(p, e_dur);
	BS(p, ", \"cat\": \"enqueue\", \"args\": {\"correlation_id\": ");
	bu(p, corr);
	BS(p, "}}");
	a_pyflow(p, 0, "enqueue_to_dequeue", "async_task_queue", corr, A_PY,
	    tid, e_ts);
	a_pyflow(p, 0, "torch_to_npu", "async_npu", h_ts, A_PY, tid, i_ts);
	if (th == 0 && rn(16) == 0) {
		c->fwdbwd++;
		a_pyflow(p, 0, "fwdbwd", "fwdbwd", c->fwdbwd, A_PY, tid, o_ts);
		a_pyflow(p, 1, "fwdbwd", "fwdbwd", c->fwdbwd, A_PY, A_TID_BWD,
		    o_ts + rr(2000000, 9000000));
	}
	{
		char dq[96];

		snprintf(dq, sizeof dq, "Dequeue@%s", o->aclnn);
		a_pyhead(p, "X", dq, A_PY, A_TID_DEQ, dq_ts);
	}
	a_dur2(p, dq_dur);
	BS(p, ", \"cat\": \"dequeue\", \"args\": {\"correlation_id\": ");
	bu(p, corr);
	BS(p, "}}");
	a_pyflow(p, 1, "enqueue_to_dequeue", "async_task_queue", corr, A_PY,
	    A_TID_DEQ, dq_ts);

	/* CANN */
	{
		struct buf *b = &c->cann;
		char nm[96];

		snprintf(nm, sizeof nm, "AscendCL@%s", o->aclnn);
		a_devhead(b, nm, A_CANN, A_TID_DEQ, acl_ts);
		a_dur2(b, acl_dur);
		BS(b, ", \"args\": {\"Thread Id\": 3099702, \"Mode\": "
		    "\"ACL_NN\", \"level\": \"acl\", \"id\": \"");
		bstr(b, o->aclnn);
		BS(b, "\", \"item_id\": \"0\", \"connection_id\": ");
		bu(b, cid - 1);
		BS(b, "}, \"ph\": \"X\"}");
		a_devhead(b, "Node@launch", A_CANN, A_TID_DEQ, nd_ts);
		a_dur2(b, nd_dur);
		BS(b, ", \"args\": {\"Thread Id\": 3099702, \"Mode\": "
		    "\"launch\", \"level\": \"node\", \"id\": \"0\", "
		    "\"item_id\": \"");
		bstr(b, o->hw);
		BS(b, "\", \"connection_id\": ");
		bu(b, cid);
		BS(b, "}, \"ph\": \"X\"}");
		BS(b, ", {\"name\": \"HostToDevice");
		bu(b, cid);
		BS(b, "\", \"ph\": \"s\", \"cat\": \"HostToDevice\", \"id\": \"");
		bu(b, cid);
		BS(b, "\", \"pid\": 3170820320, \"tid\": 3099702, \"ts\": \"");
		bfix(b, nd_ts, 3);
		BS(b, "\"}");
	}

	/* Ascend Hardware */
	a_hwtask(c, o->hw, strcmp(o->core, "MIX_AIV") == 0 ? "MIX_AIV" :
	    s == 1 ? "DSA_SQE" : "AI_CORE", s, h_ts, h_dur, task, 4294967295ULL,
	    cid);
	BS(&c->hw, ", {\"name\": \"HostToDevice");
	bu(&c->hw, cid);
	BS(&c->hw, "\", \"ph\": \"f\", \"id\": \"");
	bu(&c->hw, cid);
	BS(&c->hw, "\", \"ts\": \"");
	bfix(&c->hw, h_ts, 3);
	BS(&c->hw, "\", \"cat\": \"HostToDevice\", \"pid\": 3170820512, "
	    "\"tid\": ");
	bu(&c->hw, (uint64_t)a_stream_id[s]);
	BS(&c->hw, ", \"bp\": \"e\"}");
	a_pyflow(&c->hw, 1, "torch_to_npu", "async_npu", h_ts, A_HW,
	    a_stream_id[s], h_ts);

	/* Overlap Analysis: Free up to the task, then Computing. */
	if (s == 0) {
		if (h_ts > c->ov_t && c->ov_t != 0)
			a_overlap(c, 3, "Free", c->ov_t, h_ts - c->ov_t);
		if (h_ts + h_dur > c->ov_t) {
			uint64_t from = umax(h_ts, c->ov_t);

			a_overlap(c, 0, "Computing", from, h_ts + h_dur - from);
			c->ov_t = h_ts + h_dur;
		}
	}
}

/* One HCCL all-reduce: op level, task level, its SDMA/notify tasks. */
static void
a_allreduce(struct actx *c)
{
	static const char *const tn[] = {
		"Notify_Record", "Memcpy", "Reduce_Inline", "Notify_Wait" };
	static const char *const hn[] = {
		"Write Value", "SDMA", "SDMA", "Notify Wait" };
	struct buf *b = &c->hccl;
	uint64_t ts = umax(c->hw_t[2], c->hw_t[0] + rr(2000, 20000));
	uint64_t dur = rr(300000, 3000000), t, cid = ++c->cid;
	uint64_t task = c->task[2]++, ntask = rr(8, 16), i;
	char name[64];

	snprintf(name, sizeof name, "hcom_allReduce__586_%llu_1",
	    (unsigned long long)c->hcom++);
	a_devhead(b, name, A_HCCL, 0, ts);
	a_dur8(b, dur);
	BS(b, ", \"args\": {\"connection_id\": ");
	bu(b, cid);
	BS(b, ", \"model id\": 4294967295, \"data_type\": \"FP32\", "
	    "\"alg_type\": \"MESH-RING\", \"count\": ");
	bu(b, 4097000 + rn(8) * 65536);
	BS(b, "}, \"ph\": \"X\"}");
	t = ts;
	for (i = 0; i < ntask; i++) {
		int k = (int)(i % 4);
		uint64_t d = k == 3 ? dur / ntask : rr(600, 4000);
		uint64_t plane = 1 + i % 8, sz = k == 1 ? 2064384 : k == 2 ? 4 : 0;

		a_devhead(b, tn[k], A_HCCL, (int64_t)plane, t);
		a_dur8(b, d);
		BS(b, ", \"args\": {\"notify_id\": \"");
		bu(b, k == 1 ? 18446744073709551615ULL : (plane << 32) + 68);
		BS(b, "\", \"duration estimated(us)\": ");
		blongfloat(b, rn(120));
		BS(b, ", \"stream id\": 4, \"task id\": ");
		bu(b, task);
		BS(b, ", \"context id\": ");
		bu(b, i);
		BS(b, ", \"task type\": \"");
		bstr(b, tn[k]);
		BS(b, "\", \"src rank\": 0, \"dst rank\": ");
		bu(b, plane - 1);
		BS(b, ", \"transport type\": \"");
		bstr(b, k == 3 ? "LOCAL" : "SDMA");
		BS(b, "\", \"size(Byte)\": ");
		bu(b, sz);
		BS(b, ", \"data type\": \"");
		bstr(b, k == 2 ? "INT32" : "INVALID_TYPE");
		BS(b, "\", \"link type\": \"");
		bstr(b, k == 1 || k == 2 ? "ON_CHIP" : "INVALID_TYPE");
		BS(b, "\", \"bandwidth(GB/s)\": ");
		if (sz)
			blongfloat(b, rn(700));
		else
			BS(b, "0.0");
		BS(b, ", \"model id\": 4294967295}, \"ph\": \"X\"}");
		a_hwtask(c, hn[k], hn[k], 2, t, d, task, i, cid);
		t += d + rr(200, 1500);
	}
	if (t < ts + dur)
		t = ts + dur;
	c->hw_t[2] = t;
	a_overlap(c, 1, "Communication", ts, dur);
	a_overlap(c, 2, "Communication(Not Overlapped)", ts, dur / rr(3, 40));
}

static void
a_counter(struct buf *b, const char *name, uint64_t ts, int64_t pid,
    const char *args)
{
	BS(b, ", {\"name\": \"");
	bstr(b, name);
	BS(b, "\", \"ts\": \"");
	bfix(b, ts, 3);
	BS(b, "\", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": 0, \"args\": {");
	bstr(b, args);
	BS(b, "}, \"ph\": \"C\"}");
}

/* Counter samples up to time END, every 200 us. */
static void
a_counters(struct actx *c, uint64_t end)
{
	static const char *const pmu[] = {
		"read_bandwidth", "write_band_width", "read_ost", "write_ost" };
	static const char *const mem[] = {
		"APP/DDR", "APP/HBM", "APP/Memory", "Device/DDR", "Device/HBM",
		"Device/Memory" };
	struct buf *b = &c->cnt;
	char args[96];
	int i;

	while (c->cnt_t < end) {
		uint64_t t = c->cnt_t;

		snprintf(args, sizeof args, "\"value\": %u",
		    (unsigned)rr(1500, 2300));
		a_counter(b, "QoS OTHERS", t, A_QOS, args);
		for (i = 0; i < 4; i++) {
			snprintf(args, sizeof args,
			    "\"value\": %u, \"acc_id\": %u",
			    (unsigned)(rn(4) ? 0 : rr(1, 90000)),
			    (unsigned)(c->tick % 3));
			a_counter(b, pmu[i], t + 2000, A_ACCPMU, args);
		}
		if (c->tick % 10 == 0) {
			for (i = 0; i < 8; i++) {
				char nm[32];

				snprintf(nm, sizeof nm, "HBM %d/%s", i / 2,
				    i % 2 ? "Write" : "Read");
				snprintf(args, sizeof args,
				    "\"%s(MB/s)\": %u.%u",
				    i % 2 ? "Write" : "Read",
				    (unsigned)rn(30000), (unsigned)rn(10));
				a_counter(b, nm, t + 5000, A_HBM, args);
			}
			for (i = 0; i < 6; i++) {
				snprintf(args, sizeof args, "\"KB\": %u.%u",
				    (unsigned)rn(4000000), (unsigned)rn(10));
				a_counter(b, mem[i], t + 7000, A_NPUMEM, args);
			}
			snprintf(args, sizeof args,
			    "\"Throughput(MB/s)\": %u.%u", (unsigned)rn(9000),
			    (unsigned)rn(10));
			a_counter(b, "LLC 0 Read/Throughput", t + 9000, A_LLC,
			    args);
			snprintf(args, sizeof args, "\"Mata Bw Level\": %u",
			    (unsigned)rn(4));
			a_counter(b, "Mata Bw Level", t + 9500, A_STARS, args);
		}
		if (c->tick % 500 == 0)
			a_counter(b, "AI Core Freq", t + 300, A_FREQ,
			    "\"MHz\": 1800");
		c->tick++;
		c->cnt_t += 200000;
	}
}

static void
a_meta_py(struct buf *b)
{
	static const int64_t th[3][2] = {
		{ A_TID_MAIN, A_TID_MAIN }, { A_TID_BWD, A_TID_BWD },
		{ A_TID_DEQ, A_TID_BWD + 1 } };
	int i;

	BS(b, ", {\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 3096504, "
	    "\"tid\": 0, \"args\": {\"name\": \"Python\"}}"
	    ", {\"ph\": \"M\", \"name\": \"process_labels\", \"pid\": 3096504, "
	    "\"tid\": 0, \"args\": {\"labels\": \"CPU\"}}"
	    ", {\"ph\": \"M\", \"name\": \"process_sort_index\", \"pid\": "
	    "3096504, \"tid\": 0, \"args\": {\"sort_index\": 0}}");
	for (i = 0; i < 3; i++) {
		BS(b, ", {\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": "
		    "3096504, \"tid\": ");
		bi(b, th[i][0]);
		BS(b, ", \"args\": {\"name\": \"Thread ");
		bi(b, th[i][0]);
		BS(b, "\"}}, {\"ph\": \"M\", \"name\": \"thread_sort_index\", "
		    "\"pid\": 3096504, \"tid\": ");
		bi(b, th[i][0]);
		BS(b, ", \"args\": {\"sort_index\": ");
		bi(b, th[i][1]);
		BS(b, "}}");
	}
}

static void
a_meta1(struct buf *b, const char *name, int64_t pid, int64_t tid,
    const char *key, const char *sval, int64_t ival)
{
	BS(b, ", {\"name\": \"");
	bstr(b, name);
	BS(b, "\", \"pid\": ");
	bi(b, pid);
	BS(b, ", \"tid\": ");
	bi(b, tid);
	BS(b, ", \"args\": {\"");
	bstr(b, key);
	BS(b, "\": ");
	if (sval != NULL) {
		bch(b, '"');
		bstr(b, sval);
		bch(b, '"');
	} else
		bi(b, ival);
	BS(b, "}, \"ph\": \"M\"}");
}

static void
a_proc(struct buf *b, const char *name, int64_t pid, const char *label,
    int64_t sort)
{
	a_meta1(b, "process_name", pid, 0, "name", name, 0);
	a_meta1(b, "process_labels", pid, 0, "labels", label, 0);
	a_meta1(b, "process_sort_index", pid, 0, "sort_index", NULL, sort);
}

static void
a_meta_dev(struct buf *b)
{
	static const char *const ovl[] = {
		"Computing", "Communication", "Communication(Not Overlapped)",
		"Free" };
	char nm[32];
	int i;

	a_meta1(b, "process_name", A_HW, 0, "name", "Ascend Hardware", 0);
	for (i = 0; i < 3; i++) {
		snprintf(nm, sizeof nm, "Stream %d", a_stream_id[i]);
		a_meta1(b, "thread_name", A_HW, a_stream_id[i], "name", nm, 0);
		a_meta1(b, "thread_sort_index", A_HW, a_stream_id[i],
		    "sort_index", NULL, a_stream_id[i]);
	}
	a_meta1(b, "process_labels", A_HW, 0, "labels", "NPU", 0);
	a_meta1(b, "process_sort_index", A_HW, 0, "sort_index", NULL, 13);
	a_proc(b, "HBM", A_HBM, "NPU", 17);
	a_proc(b, "LLC", A_LLC, "NPU", 18);
	a_proc(b, "NPU MEM", A_NPUMEM, "NPU", 19);
	a_meta1(b, "process_name", A_HCCL, 0, "name", "HCCL", 0);
	a_meta1(b, "thread_name", A_HCCL, 0, "name", "Group 0 Communication", 0);
	a_meta1(b, "thread_sort_index", A_HCCL, 0, "sort_index", NULL, 0);
	for (i = 0; i < 8; i++) {
		snprintf(nm, sizeof nm, "Plane %d", i);
		a_meta1(b, "thread_name", A_HCCL, i + 1, "name", nm, 0);
	}
	for (i = 0; i < 8; i++)
		a_meta1(b, "thread_sort_index", A_HCCL, i + 1, "sort_index",
		    NULL, i + 1);
	a_meta1(b, "process_labels", A_HCCL, 0, "labels", "NPU", 0);
	a_meta1(b, "process_sort_index", A_HCCL, 0, "sort_index", NULL, 15);
	a_proc(b, "Stars Soc Info", A_STARS, "NPU", 20);
	a_proc(b, "Acc PMU", A_ACCPMU, "NPU", 21);
	a_meta1(b, "process_name", A_CANN, 0, "name", "CANN", 0);
	a_meta1(b, "thread_name", A_CANN, A_TID_MAIN, "name",
	    "Thread 3096504", 0);
	a_meta1(b, "thread_name", A_CANN, A_TID_DEQ, "name", "Thread 3099702", 0);
	a_meta1(b, "thread_sort_index", A_CANN, A_TID_MAIN, "sort_index", NULL,
	    A_TID_MAIN);
	a_meta1(b, "thread_sort_index", A_CANN, A_TID_DEQ, "sort_index", NULL,
	    A_TID_DEQ);
	a_meta1(b, "process_labels", A_CANN, 0, "labels", "CPU", 0);
	a_meta1(b, "process_sort_index", A_CANN, 0, "sort_index", NULL, 7);
	a_proc(b, "QoS", A_QOS, "NPU", 22);
	a_meta1(b, "process_name", A_OVL, 0, "name", "Overlap Analysis", 0);
	for (i = 0; i < 4; i++)
		a_meta1(b, "thread_name", A_OVL, i, "name", ovl[i], 0);
	a_meta1(b, "process_labels", A_OVL, 0, "labels", "NPU", 0);
	a_meta1(b, "process_sort_index", A_OVL, 0, "sort_index", NULL, 23);
	a_proc(b, "AI Core Freq", A_FREQ, "NPU", 14);
}

static uint64_t
a_pos(struct actx *c)
{
	return written() + c->step_b.n;
}

/* Write one chunk's sections to the step buffer, in process order. */
static void
a_chunk_out(struct actx *c)
{
	struct buf *s = &c->step_b;

	bmem(s, c->py.p, c->py.n);
	c->py.n = 0;
	if (!c->m_py && a_pos(c) >= c->size / 10) {
		a_meta_py(s);
		c->m_py = 1;
	}
	bmem(s, c->cann.p, c->cann.n);
	c->cann.n = 0;
	if (!c->m_dev && a_pos(c) >= c->size / 2) {
		a_meta_dev(s);
		c->m_dev = 1;
	}
	a_counters(c, umax(c->hw_t[0], c->hw_t[2]));
	bmem(s, c->hw.p, c->hw.n);
	bmem(s, c->hccl.p, c->hccl.n);
	bmem(s, c->ov.p, c->ov.n);
	bmem(s, c->cnt.p, c->cnt.n);
	c->hw.n = c->hccl.n = c->ov.n = c->cnt.n = 0;
}

static void
a_step(struct actx *c)
{
	uint64_t ts, nops, i, chunk;
	struct buf *h = &c->tmp;
	char name[40];

	ts = c->py_t[0] + rr(10000, 40000);
	c->py_t[0] = ts + rr(20000, 60000);
	chunk = rr(40, 120);
	nops = rr(140, 220);
	for (i = 0; i < nops; i++) {
		int bwd = i >= nops * 45 / 100;

		if (bwd && c->py_t[1] < c->py_t[0])
			c->py_t[1] = c->py_t[0];
		a_op(c, bwd, a_pick(bwd));
		if (bwd && rn(40) == 0)
			a_allreduce(c);
		if (--chunk == 0) {
			a_chunk_out(c);
			chunk = rr(40, 120);
		}
	}
	a_allreduce(c);
	/* The loss .item(): the host waits for the device. */
	c->py_t[0] = umax(umax(c->py_t[0], c->py_t[1]),
	    umax(c->hw_t[0], c->hw_t[2])) + rr(20000, 80000);
	a_chunk_out(c);

	snprintf(name, sizeof name, "ProfilerStep#%llu",
	    (unsigned long long)c->step++);
	a_pyhead(h, "X", name, A_PY, A_TID_MAIN, ts);
	a_dur2(h, c->py_t[0] - ts);
	BS(h, ", \"cat\": \"cpu_op\", \"args\": {\"Sequence number\": -1, "
	    "\"Fwd thread id\": 0, \"Call stack\": \"/home/user/.local/lib/"
	    "python3.9/site-packages/torch/autograd/profiler.py(631): __enter__"
	    RN "/home/user/miniconda3/lib/python3.9/site-packages/torch_npu/"
	    "profiler/profiler.py(244): step" RN "/home/user/imagenet_script/"
	    "main.py(377): train" RN "<string>(1): <module>\"}}");
	out_put(h);
	out_put(&c->step_b);
}

static void
gen_ascend(uint64_t size)
{
	static struct actx c;
	int i;

	c.size = size;
	for (i = 0; i < 3; i++) {
		c.py_t[i] = A_T0 + 112000000;
		c.hw_t[i] = A_T0 + 112000000;
	}
	c.cnt_t = A_T0;
	c.cid = 936;
	c.corr = 8226;
	c.task[0] = 11049;
	c.task[1] = 300;
	c.task[2] = 800;
	c.step = 1;
	c.seq = 1200;
	c.pyid = 10;
	BS(&out, "[");
	first_sep = ", ";
	while (written() < size)
		a_step(&c);
	if (!c.m_py)
		a_meta_py(&c.tmp);
	if (!c.m_dev)
		a_meta_dev(&c.tmp);
	BS(&c.tmp, "]");
	out_put(&c.tmp);
	out_flush();
}

/* ===========================================================================
 * kernel-details
 * ======================================================================== */

static const char KD_HEADER[] =
    "Step Id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,"
    "Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,"
    "HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,"
    "Output Data Types,Output Formats,Context ID,aicore_time(us),"
    "aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),"
    "aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),"
    "aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
    "aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),"
    "aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),"
    "aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
    "cube_utilization(%)";

static const char *kd_eol = "\r\n";

/*
 * Busy time T (ns) on BDIM cores: time, cycles, NPAIR time/ratio pairs
 * (5 for the cube unit, 4 for the vector unit), icache miss rate.
 */
static void
kd_unit(struct buf *b, uint64_t t, unsigned bdim, int npair)
{
	int i;

	bch(b, ',');
	bfixt(b, t, 3);
	bch(b, ',');
	bu(b, t * 18 * bdim / 10);		/* 1.8 GHz */
	for (i = 0; i < npair; i++) {
		uint64_t r = rr(1, 990);	/* thousandths */

		bch(b, ',');
		bfixt(b, t * r / 1000, 3);
		bch(b, ',');
		bfixt(b, r, 3);
	}
	bch(b, ',');
	bfixt(b, rn(30), 3);
}

#define KD_AIC0	",0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0"
#define KD_AIV0	",0.0,0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0,0.0"

static void
kd_row(struct buf *b, uint64_t step, uint64_t task, const struct aop *o,
    uint64_t ts, uint64_t dur, uint64_t wait, int first)
{
	int i;

	bu(b, step);
	BS(b, ",4294967295,");
	bu(b, task);
	bch(b, ',');
	bu(b, a_stream(o) ? 3 : 2);
	bch(b, ',');
	bstr(b, o->hw);
	bch(b, ',');
	bstr(b, o->type);
	BS(b, ",dynamic,");
	bstr(b, o->core);
	bch(b, ',');
	bfix(b, ts, 3);
	BS(b, "\t,");
	bfixt(b, dur, 3);
	bch(b, ',');
	if (first)
		bch(b, '0');
	else
		bfixt(b, wait, 3);
	bch(b, ',');
	bu(b, o->bdim);
	BS(b, ",0,");
	bstr(b, o->hf32 ? "YES" : "NO");
	bch(b, ',');
	bstr(b, o->ish);
	bch(b, ',');
	bstr(b, o->idt);
	bch(b, ',');
	bstr(b, o->ifmt);
	bch(b, ',');
	bstr(b, o->osh);
	bch(b, ',');
	bstr(b, o->odt);
	bch(b, ',');
	bstr(b, o->ofmt);
	if (strcmp(o->core, "DSA_SQE") == 0) {
		for (i = 0; i < 26; i++)
			BS(b, ",N/A");
	} else if (strcmp(o->core, "AI_CORE") == 0) {
		BS(b, ",N/A");
		kd_unit(b, dur * rr(960, 995) / 1000, o->bdim, 5);
		BS(b, KD_AIV0 ",");
		bfixt(b, rr(20000, 90000), 3);
	} else {
		bstr(b, strcmp(o->core, "MIX_AIV") == 0 ? ",0" : ",N/A");
		BS(b, KD_AIC0);
		kd_unit(b, dur * rr(860, 960) / 1000, o->bdim, 4);
		BS(b, ",0");
	}
	bstr(b, kd_eol);
}

static void
kd_hccl(struct buf *b, uint64_t step, uint64_t n, uint64_t ts, uint64_t dur,
    uint64_t wait)
{
	int i;

	bu(b, step);
	BS(b, ",4294967295,N/A,N/A,hcom_allReduce__586_");
	bu(b, n);
	BS(b, "_1,hcom_allReduce_,N/A,HCCL,");
	bfix(b, ts, 3);
	BS(b, "\t,");
	bfixt(b, dur, 3);
	bch(b, ',');
	bfixt(b, wait, 3);
	BS(b, ",0");
	for (i = 0; i < 34; i++)
		BS(b, ",N/A");
	bstr(b, kd_eol);
}

/* ROWS data rows, or (ROWS == 0) rows until SIZE bytes. */
static void
gen_kernel_details(uint64_t rows, uint64_t size)
{
	struct buf b = { 0 };
	uint64_t n = 0, t = 1736408883704643212ULL, step = 50, task = 11051;
	uint64_t in_step = 0, step_len = rr(600, 2000), hcom = 0;

	bstr(&b, KD_HEADER);
	bstr(&b, kd_eol);
	out_put(&b);
	while (rows ? n < rows : written() < size) {
		uint64_t wait, dur;
		int bwd = in_step > step_len * 45 / 100;

		if (in_step == step_len) {
			step++;
			in_step = 0;
			step_len = rr(600, 2000);
			t += rr(20000000, 60000000);	/* between steps */
		}
		wait = rn(8) ? rr(80000, 1300000) : rr(0, 5000);
		if (bwd && rn(60) == 0) {
			dur = rr(300000, 80000000);
			kd_hccl(&b, step, hcom++, t + wait, dur, wait);
		} else {
			const struct aop *o = a_pick(bwd);

			dur = rr(o->dlo, o->dhi);
			kd_row(&b, step, task, o, t + wait, dur, wait,
			    in_step == 0);
			task = task == 65535 ? 0 : task + 1;
		}
		t += wait + dur;
		n++;
		in_step++;
		if (b.n >= 65536)
			out_put(&b);
	}
	out_put(&b);
	out_flush();
	free(b.p);
}

/* ---- main --------------------------------------------------------------- */

static void
usage(void)
{
	fprintf(stderr,
	    "usage: %s [-s SEED] chrome-kineto SIZE\n"
	    "       %s [-s SEED] chrome-ascend SIZE\n"
	    "       %s [-s SEED] [--lf] kernel-details ROWS\n"
	    "       %s [-s SEED] [--lf] kernel-details-size SIZE\n"
	    "SIZE: bytes, with an optional K, M, G or T suffix (powers of 1024)\n",
	    progname, progname, progname, progname);
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *mode;
	uint64_t n;
	int i = 1;

	while (i < argc && argv[i][0] == '-' && argv[i][1] != '\0') {
		if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
			rstate ^= parse_size(argv[i + 1], 0) *
			    0xD1B54A32D192ED03ULL;
			i += 2;
		} else if (strcmp(argv[i], "--lf") == 0) {
			kd_eol = "\n";
			i++;
		} else if (strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "--help") == 0) {
			usage();
		} else {
			fprintf(stderr, "%s: unknown option '%s'\n", progname,
			    argv[i]);
			usage();
		}
	}
	if (argc - i != 2)
		usage();
	mode = argv[i];
	if (strcmp(mode, "kernel-details") == 0) {
		n = parse_size(argv[i + 1], 0);
		gen_kernel_details(n, 0);
	} else {
		n = parse_size(argv[i + 1], 1);
		if (n == 0)
			die("SIZE must be positive");
		if (strcmp(mode, "chrome-kineto") == 0)
			gen_kineto(n);
		else if (strcmp(mode, "chrome-ascend") == 0)
			gen_ascend(n);
		else if (strcmp(mode, "kernel-details-size") == 0)
			gen_kernel_details(0, n);
		else {
			fprintf(stderr, "%s: unknown mode '%s'\n", progname,
			    mode);
			usage();
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		die("write error: %s", strerror(errno));
	return 0;
}
