/*
 * gen-xplane SIZE [OPS]: an XPlane protobuf of about SIZE bytes (K, M, G
 * are powers of 1024) on stdout, shaped like the TPU capture of the
 * corpus (shared/corpus/tpu_xla/xprof/tpu_inference_2.xplane.pb, see
 * shared/notes/formats-sqlite-xplane.md 1.6): four /device:TPU:N planes
 * (XLA Modules, XLA Ops and Async XLA Ops lines, then OPS distinct HLO
 * ops of event metadata with the TPU op stats, then stat metadata and
 * the plane stats), a /host:metadata plane, a /host:CPU plane of 64
 * threads, and Task Environment last.  XLA Ops events are about 32 bytes
 * (metadata id, offset_ps, duration_ps, device_offset_ps and
 * device_duration_ps stats), host events about 25; half the bytes are
 * device events, half host events, as in the corpus file.  Times are
 * picoseconds with sub-ns parts.  libc only, a fixed seed: the same
 * arguments give the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	unsigned char	*b;
	size_t		 n, cap;
};

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		if ((b->b = realloc(b->b, b->cap)) == NULL) {
			perror("gen-xplane");
			exit(1);
		}
	}
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void
varint(struct buf *b, uint64_t v)
{
	unsigned char t[10];
	int n = 0;

	do {
		t[n] = v & 0x7f;
		v >>= 7;
		if (v)
			t[n] |= 0x80;
		n++;
	} while (v);
	put(b, t, (size_t)n);
}

static void
vi(struct buf *b, int f, uint64_t v)
{
	varint(b, (uint64_t)f << 3);
	varint(b, v);
}

static void
ld(struct buf *b, int f, const void *p, size_t n)
{
	varint(b, (uint64_t)f << 3 | 2);
	varint(b, n);
	put(b, p, n);
}

static void
lds(struct buf *b, int f, const char *s)
{
	ld(b, f, s, strlen(s));
}

/* A sub-message: written into T, then framed into B. */
static void
sub(struct buf *b, int f, struct buf *t)
{
	ld(b, f, t->b, t->n);
	t->n = 0;
}

/* Write P as an XSpace plane (field 1) and free it. */
static void
frame(FILE *out, struct buf *p)
{
	struct buf h = { 0 };

	varint(&h, (uint64_t)1 << 3 | 2);
	varint(&h, p->n);
	fwrite(h.b, 1, h.n, out);
	fwrite(p->b, 1, p->n, out);
	free(h.b);
	free(p->b);
	memset(p, 0, sizeof(*p));
}

enum { S_OFF = 1, S_DUR, S_CAT, S_FLOPS, S_BYTES, S_SRC, S_STACK, S_TFOP,
	S_SHAPE, S_PROG, S_TYPE, S_PEAK, S_START, S_STOP, S_N };
static const char *const sname[S_N] = { "", "device_offset_ps",
	"device_duration_ps", "hlo_category", "flops", "bytes_accessed",
	"source", "source_stack", "tf_op", "shape_with_layout", "program_id",
	"device_type_string", "peak_teraflops_per_second",
	"profile_start_time", "profile_stop_time" };

static void
stat_i(struct buf *b, int f, int id, uint64_t v)
{
	struct buf t = { 0 };

	vi(&t, 1, (uint64_t)id);
	vi(&t, 3, v);
	sub(b, f, &t);
	free(t.b);
}

static void
stat_s(struct buf *b, int f, int id, const char *s)
{
	struct buf t = { 0 };

	vi(&t, 1, (uint64_t)id);
	lds(&t, 5, s);
	sub(b, f, &t);
	free(t.b);
}

static void
stat_meta(struct buf *p)
{
	struct buf e = { 0 }, m = { 0 };
	int i;

	for (i = 1; i < S_N; i++) {
		vi(&m, 1, (uint64_t)i);
		lds(&m, 2, sname[i]);
		vi(&e, 1, (uint64_t)i);
		sub(&e, 2, &m);
		sub(p, 5, &e);
	}
	free(e.b);
	free(m.b);
}

static const char *const cats[] = { "loop fusion", "convolution fusion",
	"data formatting", "copy-done", "copy-start", "all-reduce",
	"custom-call", "broadcast" };

/* OPS ops of HLO text with the op stats xprof writes on TPU. */
static void
op_meta(struct buf *p, int ops)
{
	struct buf e = { 0 }, m = { 0 };
	char name[256], disp[64], src[64], stack[256];
	int i;

	for (i = 1; i <= ops; i++) {
		const char *c = cats[i % 8];

		snprintf(disp, sizeof(disp), "fusion.%d", i);
		snprintf(name, sizeof(name), "%%fusion.%d = bf16[%d,1024]{1,0:"
		    "T(8,128)(2,1)} fusion(bf16[%d,1024]{1,0:T(8,128)(2,1)} "
		    "%%param.%d, bf16[1024,1024]{1,0:T(8,128)(2,1)} "
		    "%%param.%d), kind=kOutput, calls=%%fused_computation.%d",
		    i, 8 * (i % 64 + 1), 8 * (i % 64 + 1), i, i + 1, i);
		snprintf(src, sizeof(src), "model/layers.py:%d", 100 + i % 300);
		snprintf(stack, sizeof(stack), "train.py:40:4\nmodel/model.py:"
		    "%d:8\nmodel/layers.py:%d:2", 10 + i % 50, 100 + i % 300);
		vi(&m, 1, (uint64_t)i);
		lds(&m, 2, name);
		lds(&m, 4, disp);
		stat_s(&m, 5, S_CAT, c);
		stat_i(&m, 5, S_PROG, 4242);
		stat_i(&m, 5, S_FLOPS, (uint64_t)(i % 64 + 1) * 16777216);
		stat_i(&m, 5, S_BYTES, (uint64_t)(i % 64 + 1) * 2097152);
		stat_s(&m, 5, S_SRC, src);
		stat_s(&m, 5, S_STACK, stack);
		stat_s(&m, 5, S_TFOP, "jit(train_step)/jit(main)/dot_general:");
		stat_s(&m, 5, S_SHAPE, "bf16[64,1024]{1,0:T(8,128)(2,1)}");
		vi(&e, 1, (uint64_t)i);
		sub(&e, 2, &m);
		sub(p, 4, &e);
	}
	vi(&m, 1, (uint64_t)ops + 1);
	lds(&m, 2, "jit_train_step(4242)");
	vi(&e, 1, (uint64_t)ops + 1);
	sub(&e, 2, &m);
	sub(p, 4, &e);
	free(e.b);
	free(m.b);
}

/* A TPU plane with about BYTES of XLA Ops events. */
static void
tpu_plane(FILE *out, int dev, size_t bytes, int ops)
{
	struct buf p = { 0 }, l = { 0 }, e = { 0 };
	char name[32];
	uint64_t t = 5000000000000ULL, d;

	snprintf(name, sizeof(name), "/device:TPU:%d", dev);
	vi(&p, 1, (uint64_t)dev + 1);
	lds(&p, 2, name);
	/* XLA Modules: a module run per 1000 ops */
	vi(&l, 1, 1);
	lds(&l, 2, "XLA Modules");
	while (l.n < bytes / 1000) {
		vi(&e, 1, (uint64_t)ops + 1);
		vi(&e, 2, t);
		vi(&e, 3, 900000000);
		sub(&l, 4, &e);
		t += 1000000000;
	}
	sub(&p, 3, &l);
	t = 5000000000000ULL;
	vi(&l, 1, 2);
	lds(&l, 2, "XLA Ops");
	while (l.n < bytes) {
		d = 1000 + rnd() % 2000000;
		vi(&e, 1, 1 + rnd() % (uint64_t)ops);
		vi(&e, 2, t);
		vi(&e, 3, d);
		stat_i(&e, 4, S_OFF, t - 14600000);
		stat_i(&e, 4, S_DUR, d);
		sub(&l, 4, &e);
		t += d + rnd() % 500000;
	}
	sub(&p, 3, &l);
	op_meta(&p, ops);
	stat_meta(&p);
	stat_s(&p, 6, S_TYPE, "TPU v6 Lite");
	frame(out, &p);
	free(l.b);
	free(e.b);
}

/* The host plane: 64 threads of about 25-byte events. */
static void
host_plane(FILE *out, size_t bytes)
{
	struct buf p = { 0 }, l = { 0 }, e = { 0 }, m = { 0 }, en = { 0 };
	char name[64];
	uint64_t t;
	int th, i;
	static const char *const ev[] = { "PjitFunction(train_step)",
		"TfrtTpuLoadedExecutable::Execute", "ReadSyncFlag",
		"CompleteCallbacks", "$train.py:40 train_step",
		"tpu::System::TransferToDevice", "H2D Dispatch",
		"XlaLinearize" };

	lds(&p, 2, "/host:CPU");
	for (th = 0; th < 64; th++) {
		snprintf(name, sizeof(name), "pjrt-tpu-tasks/%d", 3117377 + th);
		vi(&l, 1, (uint64_t)(3117377 + th));
		lds(&l, 2, name);
		vi(&l, 3, 212990);
		t = 3000000000000ULL + (uint64_t)th * 1000;
		while (l.n < bytes / 64) {
			vi(&e, 1, 1 + rnd() % 8);
			vi(&e, 2, t);
			vi(&e, 3, 10000 + rnd() % 100000000);
			sub(&l, 4, &e);
			t += 1000 + rnd() % 50000000;
		}
		sub(&p, 3, &l);
	}
	for (i = 0; i < 8; i++) {
		vi(&m, 1, (uint64_t)i + 1);
		lds(&m, 2, ev[i]);
		vi(&en, 1, (uint64_t)i + 1);
		sub(&en, 2, &m);
		sub(&p, 4, &en);
	}
	stat_meta(&p);
	frame(out, &p);
	free(l.b);
	free(e.b);
	free(m.b);
	free(en.b);
}

static void
env_plane(FILE *out)
{
	struct buf p = { 0 }, f = { 0 };

	lds(&p, 2, "Task Environment");
	stat_meta(&p);
	stat_i(&p, 6, S_START, 1741722099081044120ULL);
	stat_i(&p, 6, S_STOP, 1741722199081044120ULL);
	sub(&f, 1, &p);
	fwrite(f.b, 1, f.n, out);
	free(p.b);
	free(f.b);
}

int
main(int argc, char *argv[])
{
	char *end;
	double size;
	int ops, dev;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gen-xplane SIZE[K|M|G] [OPS]\n");
		return 2;
	}
	size = strtod(argv[1], &end);
	if (*end == 'K')
		size *= 1024;
	else if (*end == 'M')
		size *= 1024 * 1024;
	else if (*end == 'G')
		size *= 1024.0 * 1024 * 1024;
	ops = argc == 3 ? atoi(argv[2]) : 2000;
	if (size < 65536 || ops < 1) {
		fprintf(stderr, "gen-xplane: SIZE at least 64K, OPS at least "
		    "1\n");
		return 2;
	}
	for (dev = 0; dev < 4; dev++)
		tpu_plane(stdout, dev, (size_t)(size / 8), ops);
	host_plane(stdout, (size_t)(size / 2));
	env_plane(stdout);
	return fflush(stdout) != 0 || ferror(stdout);
}
