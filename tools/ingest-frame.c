/*
 * The innermost user frame of a Python call stack, for the frame column
 * (prof-tsv(5)): where in the user's code an operator was called.  A
 * stack as PyTorch writes it ("Call stack" of Kineto and torch_npu
 * events, innermost first) is entries "FILE(LINE): FUNCTION" joined by
 * ';' (torch_npu adds a CR LF); the Python tracer's python_function
 * events are one entry each.  A frame of PyTorch itself, of the Python
 * runtime, or of no file ("<string>", "<built-in ...>", "nn.Module:
 * ...") is no user frame: the answer to "which line of mine" is the
 * first frame past them.
 */
#include <config.h>

#include <string.h>

#include "ingest.h"

/* Packages whose frames are the framework's, not the user's. */
static const char *const framework[] = {
	"torch/", "torch_npu/", "torch_xla/", "functorch/", "torchgen/",
	"triton/", "torchair/", NULL
};

/* The Python runtime's own modules, as the Python tracer names them. */
static const char *const runtime[] = {
	"threading.py", "multiprocessing/", "concurrent/", "asyncio/",
	"runpy.py", "contextlib.py", "functools.py", "queue.py",
	"selectors.py", "socket.py", "subprocess.py", "abc.py", "typing.py",
	"copy.py", "weakref.py", "importlib/", "logging/", "json/",
	"collections/", "site.py", NULL
};

static int
starts(const char *s, size_t n, const char *const *list)
{
	size_t k;

	for (; *list != NULL; list++)
		if ((k = strlen(*list)) <= n && memcmp(s, *list, k) == 0)
			return 1;
	return 0;
}

/* The last occurrence of PAT in S (N bytes), or NULL. */
static const char *
last_of(const char *s, size_t n, const char *pat)
{
	size_t k = strlen(pat), i;

	for (i = n; i >= k; i--)
		if (memcmp(s + i - k, pat, k) == 0)
			return s + i - k;
	return NULL;
}

/*
 * Whether the entry S (N bytes) is a frame "FILE.py(LINE): FUNCTION" of
 * the user's code.
 */
static int
user_frame(const char *s, size_t n)
{
	const char *lp, *p;
	size_t fl;

	if (n == 0 || *s == '<')
		return 0;
	if ((lp = memchr(s, '(', n)) == NULL || lp - s < 3 ||
	    memcmp(lp - 3, ".py", 3) != 0 || lp + 1 >= s + n ||
	    lp[1] < '0' || lp[1] > '9')
		return 0;
	fl = (size_t)(lp - s);
	/* a package's path from its root, as the Python tracer writes it */
	if ((p = last_of(s, fl, "site-packages/")) != NULL ||
	    (p = last_of(s, fl, "dist-packages/")) != NULL) {
		p += 14;
		fl -= (size_t)(p - s);
		s = p;
	} else if (last_of(s, fl, "/lib/python") != NULL)
		return 0;	/* the standard library */
	return !starts(s, fl, framework) && !starts(s, fl, runtime);
}

const char *
ingest_user_frame(const char *s, size_t n, size_t *len)
{
	const char *e, *p, *q;

	if (s == NULL || n == 0) {	/* no stack: no offset from nothing */
		*len = 0;
		return NULL;
	}
	e = s + n;
	for (p = s; p < e; p = q + 1) {
		while (p < e && (*p == ' ' || *p == '\r' || *p == '\n' ||
		    *p == '\t'))
			p++;
		if ((q = memchr(p, ';', (size_t)(e - p))) == NULL)
			q = e;
		*len = (size_t)(q - p);
		while (*len > 0 && (p[*len - 1] == ' ' || p[*len - 1] == '\r'
		    || p[*len - 1] == '\n'))
			(*len)--;
		if (user_frame(p, *len))
			return p;
		if (q == e)
			break;
	}
	*len = 0;
	return NULL;
}
