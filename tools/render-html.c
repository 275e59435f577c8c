/*
 * -f html: the report as one self-contained page (no network, no
 * external script, style or font), for people who would rather read
 * than grep: the verdict first, the time budget, the findings with
 * their evidence, the recommendations, the op and layer tables, the
 * view across ranks, the metrics, and the SVG charts inline.
 *
 * Its text is the Markdown report's: render_md() is written into memory,
 * cut into its "##"/"###" sections, and each section is turned into HTML
 * by the small converter below, which knows the only Markdown our
 * writers make (headings, paragraphs, lists one level deep, pipe tables,
 * `code` and **strong**).  So every number is the one the Markdown and
 * JSON reports print, and a section a writer adds reaches the page
 * without a change here: a section the table of html_sections[] does not
 * place goes under "More", last.
 *
 * The tables sort on a click with a few lines of inline script; without
 * it they are plain tables.  The page reads at laptop width (wide tables
 * scroll inside their box) and prints (no navigation, no scroll boxes).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "render.h"
#include "xalloc.h"

/* A section of the Markdown report: its heading and its text. */
struct hchunk {
	char	*head;		/* without the #s; "" before the first */
	char	*body;
	int	 level;		/* 2 or 3 */
	int	 used;
};

struct hdoc {
	struct hchunk	*v;
	size_t		 n;
	char		*buf;
};

/*
 * Where the Markdown sections go: each page section lists, by heading
 * prefix, the Markdown sections it shows, in order.  To add a section
 * (the Ops section of prof-ops, say), name its Markdown heading in the
 * page section it belongs to; until then it is shown under "More".
 */
struct hsec {
	const char	*id, *title;
	const char	*md[10];
	const char	*chart;		/* an SVG chart shown last, or NULL */
};

static const struct hsec html_sections[] = {
	{ "verdict", "Verdict", { "Verdict" }, NULL },
	{ "budget", "Time budget", { "Time budget", "Verdict per step group" },
	    "breakdown" },
	{ "findings", "Findings", { "Bubbles: the five questions",
	    "Hidden issue discovery", "Top bubble windows",
	    "Host events during the idle time", "Kernels around each top bubble",
	    "Candidate causes", "AI CPU", "Evidence gaps" }, NULL },
	{ "recommendations", "Recommendations", { "Recommendations" }, NULL },
	/* prof-ops' section (render-ops.c), prof-waitanchor's, the layers */
	{ "ops", "Ops and layers", { "Ops", "Wait anchors and costly ops",
	    "Structure" }, NULL },
	{ "ranks", "Across ranks", { "Across ranks" }, "ranks" },
	{ "metrics", "Metrics", { "Capture", "Step groups", "The step shown",
	    "Steps" }, NULL },
	{ "charts", "Charts", { NULL }, "timeline" },
	{ NULL, NULL, { NULL }, NULL }
};

/*
 * Text for HTML: & < > " escaped; ill-formed UTF-8 and control
 * characters (which HTML does not allow) replaced with U+FFFD.
 */
static void
esc_n(FILE *f, const char *s, size_t n)
{
	const char *e = s + n;
	size_t skip, l;

	while (s < e) {
		switch (*s) {
		case '&': fputs("&amp;", f); s++; continue;
		case '<': fputs("&lt;", f); s++; continue;
		case '>': fputs("&gt;", f); s++; continue;
		case '"': fputs("&quot;", f); s++; continue;
		}
		if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t') {
			fputs("\xef\xbf\xbd", f);
			s++;
			continue;
		}
		if ((unsigned char)*s < 0x80) {
			putc(*s++, f);
			continue;
		}
		if ((l = render_utf8(s, &skip)) == 0 || s + l > e) {
			fputs("\xef\xbf\xbd", f);
			s += skip > 0 ? skip : 1;
			continue;
		}
		fwrite(s, 1, l, f);
		s += l;
	}
}

static void
esc(FILE *f, const char *s)
{
	esc_n(f, s, strlen(s));
}

/* Inline Markdown: `code`, **strong**, and \| as |. */
static void
inline_md(FILE *f, const char *s, size_t n)
{
	const char *e = s + n, *t, *run = s;
	int strong = 0;

	while (s < e) {
		if (*s == '\\' && s + 1 < e && s[1] == '|') {
			esc_n(f, run, (size_t)(s - run));
			putc('|', f);
			run = s += 2;
		} else if (*s == '`' && (t = memchr(s + 1, '`',
		    (size_t)(e - s - 1))) != NULL) {
			esc_n(f, run, (size_t)(s - run));
			fputs("<code>", f);
			/* whole characters: the span in runs, \| as | */
			for (run = ++s; s < t; s++)
				if (*s == '\\' && s + 1 < t && s[1] == '|') {
					esc_n(f, run, (size_t)(s - run));
					run = s + 1;
				}
			esc_n(f, run, (size_t)(t - run));
			fputs("</code>", f);
			run = s = t + 1;
		} else if (*s == '*' && s + 1 < e && s[1] == '*') {
			esc_n(f, run, (size_t)(s - run));
			fputs(strong ? "</strong>" : "<strong>", f);
			strong = !strong;
			run = s += 2;
		} else
			s++;
	}
	esc_n(f, run, (size_t)(e - run));
	if (strong)
		fputs("</strong>", f);
}

/* The cells of a table row "| a | b |", each trimmed, into CELLS. */
static size_t
row_cells(const char *l, size_t n, const char **cs, size_t *cl, size_t max)
{
	const char *e = l + n, *c;
	size_t k = 0;

	if (l < e && *l == '|')
		l++;
	while (l < e && k < max) {
		for (c = l; c < e && !(*c == '|' && (c == l || c[-1] != '\\'));
		    c++)
			;
		if (c == e && (c == l || e[-1] == ' '))
			break;
		while (l < c && *l == ' ')
			l++;
		cs[k] = l;
		cl[k] = (size_t)(c - l);
		while (cl[k] > 0 && l[cl[k] - 1] == ' ')
			cl[k]--;
		k++;
		l = c + 1;
	}
	return k;
}

/* A pipe table from line L on; returns the first line after it. */
static const char *
table(FILE *f, const char *l)
{
	const char *cs[64], *nl;
	size_t cl[64], n, k, i;
	int right[64];
	int row = 0;

	memset(right, 0, sizeof(right));
	fputs("<div class=\"tw\"><table class=\"sort\">\n", f);
	while (*l == '|') {
		nl = strchr(l, '\n');
		n = nl != NULL ? (size_t)(nl - l) : strlen(l);
		k = row_cells(l, n, cs, cl, 64);
		if (row == 1) {
			for (i = 0; i < k; i++)
				right[i] = cl[i] > 0 && cs[i][cl[i] - 1] == ':';
		} else {
			fputs(row == 0 ? "<thead><tr>" : "<tr>", f);
			for (i = 0; i < k; i++) {
				fprintf(f, "<%s%s>", row == 0 ? "th" : "td",
				    right[i] && row > 0 ? " class=\"n\"" : "");
				inline_md(f, cs[i], cl[i]);
				fprintf(f, "</%s>", row == 0 ? "th" : "td");
			}
			fputs(row == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n",
			    f);
		}
		row++;
		l = nl != NULL ? nl + 1 : l + n;
	}
	fputs("</tbody></table></div>\n", f);
	return l;
}

/* The list item marker of L ("- " or "12. "): its length, or 0. */
static size_t
item(const char *l)
{
	const char *p = l;

	if (p[0] == '-' && p[1] == ' ')
		return 2;
	while (*p >= '0' && *p <= '9')
		p++;
	return p > l && p[0] == '.' && p[1] == ' ' ? (size_t)(p - l) + 2 : 0;
}

/* A list, one nested level at most; returns the line after it. */
static const char *
list(FILE *f, const char *l)
{
	const char *nl, *p;
	size_t n, m, ind;
	int ordered = *l != '-', open = 0, sub = 0;

	fputs(ordered ? "<ol>\n" : "<ul>\n", f);
	while (*l != '\0' && *l != '\n') {
		nl = strchr(l, '\n');
		n = nl != NULL ? (size_t)(nl - l) : strlen(l);
		for (ind = 0; l[ind] == ' '; ind++)
			;
		p = l + ind;
		if ((m = item(p)) == 0) {
			/* a line that goes on with the item before */
			putc(' ', f);
			inline_md(f, p, n - ind);
		} else if (ind >= 2 && open) {
			fputs(sub ? "</li>\n<li>" : "\n<ul>\n<li>", f);
			sub = 1;
			inline_md(f, p + m, n - ind - m);
		} else {
			if (sub)
				fputs("</li>\n</ul>", f);
			if (open)
				fputs("</li>\n", f);
			sub = 0;
			open = 1;
			fputs("<li>", f);
			inline_md(f, p + m, n - ind - m);
		}
		l = nl != NULL ? nl + 1 : l + n;
	}
	if (sub)
		fputs("</li>\n</ul>", f);
	if (open)
		fputs("</li>\n", f);
	fputs(ordered ? "</ol>\n" : "</ul>\n", f);
	return l;
}

/* The Markdown text S as HTML blocks. */
static void
blocks(FILE *f, const char *s)
{
	const char *nl;
	size_t n;
	int h;

	while (*s != '\0') {
		if (*s == '\n') {
			s++;
			continue;
		}
		if (*s == '|') {
			s = table(f, s);
			continue;
		}
		if (item(s) > 0) {
			s = list(f, s);
			continue;
		}
		for (h = 0; s[h] == '#'; h++)
			;
		if (h > 0 && s[h] == ' ') {
			nl = strchr(s, '\n');
			n = nl != NULL ? (size_t)(nl - s) : strlen(s);
			fprintf(f, "<h4>");
			inline_md(f, s + h + 1, n - (size_t)h - 1);
			fprintf(f, "</h4>\n");
			s += n;
			continue;
		}
		/* a paragraph: up to a blank line, a table or a list */
		fputs("<p>", f);
		for (;;) {
			nl = strchr(s, '\n');
			n = nl != NULL ? (size_t)(nl - s) : strlen(s);
			inline_md(f, s, n);
			s += n;
			if (*s == '\n')
				s++;
			if (*s == '\0' || *s == '\n' || *s == '|' ||
			    item(s) > 0)
				break;
			putc('\n', f);
		}
		fputs("</p>\n", f);
	}
}

/*
 * The Markdown report cut at its "## " and "### " headings (a heading
 * line ends with a NUL, and so does the text before the next one).  The
 * verdict's time budget table is a section of its own here, its line
 * "Time budget of a step ..." its first.
 */
static void
doc_read(struct hdoc *d, struct rctx *rc)
{
	static char empty[] = "";
	struct rctx mc = *rc;
	struct hchunk *c;
	size_t len = 0, cap = 0;
	char *p, *nl;
	int lv, budget;
	FILE *f;

	if ((f = open_memstream(&d->buf, &len)) == NULL)
		diag_errno(EXIT_BAD, "html report");
	mc.out = f;
	render_md(&mc);
	if (fclose(f) != 0)
		diag_errno(EXIT_BAD, "html report");
	d->n = 0;
	d->v = NULL;
	for (p = d->buf; *p != '\0'; p = nl) {
		nl = strchr(p, '\n');
		nl = nl != NULL ? nl + 1 : p + strlen(p);
		for (lv = 0; p[lv] == '#'; lv++)
			;
		if (p[lv] != ' ' || lv > 3)
			lv = 0;
		budget = d->n > 0 && strncmp(p, "Time budget of a step", 21) == 0;
		if (lv == 0 && !budget)
			continue;
		if (p > d->buf)
			p[-1] = '\0';
		if (d->n > 0 && d->v[d->n - 1].body == p)
			d->v[d->n - 1].body = empty;
		if (d->n == cap) {
			cap = cap ? 2 * cap : 32;
			d->v = xreallocarray(d->v, cap, sizeof(*d->v));
		}
		c = &d->v[d->n++];
		c->used = 0;
		if (budget) {
			c->level = 3;
			c->head = (char *)"Time budget";
			c->body = p;
		} else {
			c->level = lv;
			c->head = p + lv + 1;
			c->body = nl;
			if (nl > p && nl[-1] == '\n')
				nl[-1] = '\0';
		}
	}
}

static void
doc_free(struct hdoc *d)
{
	free(d->v);
	free(d->buf);
}

static void
chunk_out(FILE *f, struct hchunk *c, int title)
{
	c->used = 1;
	if (title)
		fprintf(f, "<h3>"), inline_md(f, c->head, strlen(c->head)),
		    fputs("</h3>\n", f);
	blocks(f, c->body);
}

/* An SVG chart of prof-render, inline (its XML declaration left out). */
static void
chart(struct rctx *rc, const char *name)
{
	const struct rformat *fm;
	struct rctx cc = *rc;
	char *buf = NULL, *s;
	size_t len = 0;
	FILE *f;

	for (fm = render_formats; fm->name != NULL; fm++)
		if (fm->chart != NULL && strcmp(fm->chart, name) == 0)
			break;
	if (fm->name == NULL)
		return;
	if ((f = open_memstream(&buf, &len)) == NULL)
		diag_errno(EXIT_BAD, "html report");
	cc.out = f;
	fm->write(&cc);
	if (fclose(f) != 0)
		diag_errno(EXIT_BAD, "html report");
	s = buf;
	if (strncmp(s, "<?xml", 5) == 0 && (s = strchr(s, '\n')) != NULL)
		s++;
	fprintf(rc->out, "<figure class=\"chart\" id=\"chart-%s\">\n", name);
	fputs(s != NULL ? s : "", rc->out);
	fprintf(rc->out, "<figcaption>The %s (prof-render -f svg -c %s)"
	    "</figcaption></figure>\n", fm->what, name);
	free(buf);
}

/* The head of the page: title, style, and where the sections are. */
static void
page_head(struct rctx *rc)
{
	FILE *f = rc->out;
	const struct hsec *s;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
	    "content=\"width=device-width, initial-scale=1\">\n<title>"
	    "Profile report: ", f);
	esc(f, rc->m->name);
	fputs("</title>\n<style>\n"
	    "body{font:15px/1.5 system-ui,-apple-system,\"Segoe UI\","
	    "Roboto,\"Helvetica Neue\",Arial,sans-serif;color:#1b1f24;"
	    "margin:0 auto;max-width:72rem;padding:0 1.2rem 3rem}\n"
	    "h1{font-size:1.6rem;margin:1.2rem 0 .2rem}"
	    "h2{font-size:1.3rem;border-bottom:2px solid #d0d7de;"
	    "margin-top:2.2rem;padding-bottom:.2rem}"
	    "h3{font-size:1.05rem;margin:1.4rem 0 .4rem}\n"
	    "nav{position:sticky;top:0;background:#fff;padding:.4rem 0;"
	    "border-bottom:1px solid #d0d7de;font-size:.9rem;z-index:1}"
	    "nav a{margin-right:.9rem;color:#0550ae;text-decoration:none}\n"
	    ".meta{color:#57606a;font-size:.9rem}\n"
	    /* a long kernel name or list breaks rather than widen the page */
	    "p,li{overflow-wrap:break-word;overflow-wrap:anywhere}\n"
	    ".cards{display:flex;flex-wrap:wrap;gap:.6rem;margin:1rem 0}"
	    ".card{border:1px solid #d0d7de;border-left:6px solid #cf222e;"
	    "border-radius:6px;padding:.5rem .8rem;min-width:14rem;"
	    "flex:1 1 16rem}.card b{font-size:1.15rem;display:block}\n"
	    ".tw{overflow-x:auto;margin:.5rem 0 1rem}"
	    "table{border-collapse:collapse;font-size:.85rem}"
	    "th,td{border:1px solid #d0d7de;padding:.2rem .45rem;"
	    "vertical-align:top}th{background:#f6f8fa;text-align:left;"
	    "cursor:pointer;white-space:nowrap}td.n{text-align:right;"
	    "white-space:nowrap;font-variant-numeric:tabular-nums}\n"
	    "tbody tr:nth-child(even){background:#fafbfc}"
	    "code{font:.85em ui-monospace,SFMono-Regular,Menlo,Consolas,"
	    "monospace;background:#eff1f3;padding:0 .2em;border-radius:3px;"
	    "word-break:break-all}.tw code{word-break:normal}\n"
	    "figure.chart{margin:1rem 0}figure.chart svg{max-width:100%;"
	    "height:auto;border:1px solid #d0d7de}"
	    "figcaption{color:#57606a;font-size:.85rem}\n"
	    "@media print{nav{display:none}body{max-width:none;font-size:"
	    "10pt}.tw{overflow:visible}table{font-size:8pt}h2,h3{"
	    "break-after:avoid}tr,figure{break-inside:avoid}"
	    "th{cursor:auto}}\n"
	    "</style>\n</head>\n<body>\n<nav>", f);
	for (s = html_sections; s->id != NULL; s++)
		fprintf(f, "<a href=\"#%s\">%s</a>", s->id, s->title);
	fputs("</nav>\n", f);
}

/* The verdict of each rank as a card, before the verdict's text. */
static void
cards(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	FILE *f = rc->out;
	size_t i, n = 0;

	for (i = 0; i < m->ndevs; i++) {
		const struct rverdict *v = m->devs[i]->verdict;
		if (v == NULL)
			continue;
		if (n++ == 0)
			fputs("<div class=\"cards\">\n", f);
		fputs("<div class=\"card\">rank ", f);
		esc(f, m->devs[i]->id);
		fputs("<b>", f);
		esc(f, strcmp(v->cls, "in_core") == 0 ? "in-core" :
		    verdict_words_of(v));
		fputs("</b>", f);
		if (*v->share) {
			put_pct(f, v->share);
			fputs(" of the step", f);
		}
		if (*v->confidence) {
			fputs(", confidence ", f);
			esc(f, v->confidence);
		}
		fputs("</div>\n", f);
	}
	if (n > 0)
		fputs("</div>\n", f);
}

/*
 * Whether the heading H is the one NAME names: the same, or NAME and a
 * parenthesis ("Top bubble windows (the 5 longest per rank)").
 */
static int
heading_is(const char *h, const char *name)
{
	size_t n = strlen(name);

	return strncmp(h, name, n) == 0 && (h[n] == '\0' ||
	    strncmp(h + n, " (", 2) == 0);
}

/* Whether an entry of html_sections[] places the section headed H. */
static int
placed(const char *h)
{
	const struct hsec *s;
	size_t k;

	for (s = html_sections; s->id != NULL; s++)
		for (k = 0; k < 10 && s->md[k] != NULL; k++)
			if (heading_is(h, s->md[k]))
				return 1;
	return 0;
}

static const char sort_js[] =
    "<script>\n"
    "/* Click a column's heading to sort by it (again: the other way);\n"
    "   numbers by value, the rest as text.  Without this, plain tables. */\n"
    "document.querySelectorAll('table.sort').forEach(function (t) {\n"
    "  if (!t.tHead || !t.tBodies.length) return;\n"
    "  [].forEach.call(t.tHead.rows[0].cells, function (th, i) {\n"
    "    th.title = 'sort by this column';\n"
    "    th.addEventListener('click', function () {\n"
    "      var b = t.tBodies[0], d = th.dataset.d === 'a' ? -1 : 1;\n"
    "      var v = function (r) { var s = r.cells[i] ?\n"
    "        r.cells[i].textContent.trim() : ''; var n = parseFloat(s);\n"
    "        return isNaN(n) ? s : n; };\n"
    "      th.dataset.d = d > 0 ? 'a' : 'd';\n"
    "      [].slice.call(b.rows).sort(function (x, y) {\n"
    "        var p = v(x), q = v(y);\n"
    "        if (typeof p !== typeof q) return typeof p === 'number' ? -d : d;\n"
    "        return (p < q ? -1 : p > q ? 1 : 0) * d;\n"
    "      }).forEach(function (r) { b.appendChild(r); });\n"
    "    });\n"
    "  });\n"
    "});\n"
    "</script>\n";

/* The title, and what the stream went through. */
static void
page_title(struct rctx *rc)
{
	const struct rmodel *m = rc->m;
	FILE *f = rc->out;
	size_t i, j, l;

	fputs("<header><h1>Profile report: ", f);
	esc(f, m->name);
	fprintf(f, "</h1>\n<p class=\"meta\">%zu rank(s), %" PRIu64
	    " records; stages:", m->ndevs, m->nrecords);
	/* each program once: the rank pipelines of prof-report repeat them */
	for (i = 0; i < m->nstages; i++) {
		l = strcspn(m->stages[i], " ");
		for (j = 0; j < i; j++)
			if (strncmp(m->stages[j], m->stages[i], l) == 0 &&
			    strcspn(m->stages[j], " ") == l)
				break;
		if (j < i)
			continue;
		putc(' ', f);
		esc_n(f, m->stages[i], l);
	}
	fputs(".  Times in ms from the stream's origin; every number is "
	    "a stage's record (prof-render(1)).</p></header>\n", f);
}

void
render_html(struct rctx *rc)
{
	FILE *f = rc->out;
	const struct hsec *s;
	struct hdoc d;
	size_t i, j, k, more = 0;

	doc_read(&d, rc);
	page_head(rc);
	page_title(rc);
	for (s = html_sections; s->id != NULL; s++) {
		fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", s->id,
		    s->title);
		if (strcmp(s->id, "verdict") == 0)
			cards(rc);
		for (k = 0; k < 10 && s->md[k] != NULL; k++)
			for (i = 0; i < d.n; i++) {
				if (d.v[i].used || d.v[i].level < 2 ||
				    !heading_is(d.v[i].head, s->md[k]))
					continue;
				chunk_out(f, &d.v[i],
				    strcmp(d.v[i].head, s->title) != 0);
				/*
				 * A "##" section brings its "###" ones that
				 * no entry places elsewhere (the Ops section's
				 * table per rank).
				 */
				for (j = i + 1; d.v[i].level == 2 && j < d.n &&
				    d.v[j].level == 3; j++)
					if (!d.v[j].used && !placed(d.v[j].head))
						chunk_out(f, &d.v[j], 1);
			}
		if (s->chart != NULL)
			chart(rc, s->chart);
		if (strcmp(s->id, "charts") == 0)
			chart(rc, "roofline");
		fputs("</section>\n", f);
	}
	/* Sections no entry places, with text: shown, never dropped. */
	for (i = 0; i < d.n; i++) {
		if (d.v[i].used || d.v[i].level < 2 || d.v[i].body[0] == '\0' ||
		    strcmp(d.v[i].head, "Summary") == 0 ||
		    strcmp(d.v[i].head, "Metrics") == 0 ||
		    strcmp(d.v[i].head, "Findings") == 0)
			continue;
		if (more++ == 0)
			fputs("<section id=\"more\">\n<h2>More</h2>\n", f);
		chunk_out(f, &d.v[i], 1);
	}
	if (more > 0)
		fputs("</section>\n", f);
	fputs(sort_js, f);
	fputs("</body>\n</html>\n", f);
	doc_free(&d);
}
