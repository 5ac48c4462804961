/*
** diag.c — diagnostics: collection, ordering and GNU-style rendering.
*/
#include "diag.h"

#include <stdlib.h>
#include <string.h>

void diag_init(Diags *d, const char *path, const char *src, size_t srclen)
{
	memset(d, 0, sizeof *d);
	d->path = path;
	d->src = src;
	d->srclen = srclen;
}

void diag_free(Diags *d)
{
	for (int i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

void diag_vadd(Diags *d, Severity sev, Loc loc, const char *fmt, va_list ap)
{
	/* the notes of an error that is not shown go with it */
	if (sev == SEV_NOTE && d->dropping)
		return;
	d->dropping = false;
	if (sev == SEV_ERROR && d->max_errors > 0 && d->nerrors >= d->max_errors) {
		d->dropped = true;
		d->dropping = true;
		d->nerrors++;
		return;
	}
	Buf b = {0};
	buf_vprintf(&b, fmt, ap);
	if (loc.off >= 0 && loc.line == 0 && d->src)
		loc = diag_locate(d->src, d->srclen, loc.off, loc.len);
	Diag g = {sev, loc, buf_steal(&b)};
	VEC_PUSH(d->v, d->n, d->cap, g);
	if (sev == SEV_ERROR)
		d->nerrors++;
	else if (sev == SEV_WARNING)
		d->nwarnings++;
}

void diag_add(Diags *d, Severity sev, Loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(d, sev, loc, fmt, ap);
	va_end(ap);
}

/* A note belongs to the diagnostic before it: sort groups (an error or
** warning and its notes) by the position of their head, stably (ties keep
** the order of the heads). */
typedef struct Group {
	int32_t line, off; /* on one line, the order of offsets is that of columns */
	int first, n;
} Group;

static int group_cmp(const void *x, const void *y)
{
	const Group *a = x, *b = y;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

void diag_sort(Diags *d)
{
	if (d->n < 2)
		return;
	Group *g = xmalloc((size_t)d->n * sizeof *g);
	int ng = 0;
	for (int i = 0; i < d->n; i++) {
		if (d->v[i].sev == SEV_NOTE && ng > 0)
			g[ng - 1].n++;
		else
			g[ng++] = (Group){d->v[i].loc.line, d->v[i].loc.off, i, 1};
	}
	/* O(n log n): a file can have tens of thousands of warnings */
	qsort(g, (size_t)ng, sizeof *g, group_cmp);
	Diag *v = xmalloc((size_t)d->n * sizeof *v);
	int k = 0;
	for (int i = 0; i < ng; i++)
		for (int j = 0; j < g[i].n; j++)
			v[k++] = d->v[g[i].first + j];
	free(d->v);
	d->v = v;
	d->cap = d->n;
	free(g);
}

static int32_t display_col(const char *line, size_t n)
{
	int32_t col = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c == '\t')
			col = (col / 8 + 1) * 8;
		else if ((c & 0xC0) != 0x80)
			col++;
	}
	return col + 1;
}

Loc diag_locate(const char *src, size_t srclen, int32_t off, int32_t len)
{
	Loc l = {1, off, len};
	if (!src || off < 0)
		return l;
	if ((size_t)off > srclen)
		off = (int32_t)srclen;
	for (size_t i = 0; i < (size_t)off; i++)
		if (src[i] == '\n')
			l.line++;
	return l;
}

int32_t diag_col(const char *src, size_t srclen, int32_t off)
{
	if (!src || off < 0)
		return 1;
	size_t end = (size_t)off > srclen ? srclen : (size_t)off, ls = end;
	while (ls > 0 && src[ls - 1] != '\n')
		ls--;
	return display_col(src + ls, end - ls);
}

/* Source lines longer than this (bytes) are shown cut to a window around
** the caret, with "..." where they were cut. */
#define DIAG_LINE_MAX 160

static const char *sev_name(Severity s)
{
	switch (s) {
	case SEV_ERROR: return "error";
	case SEV_WARNING: return "warning";
	default: return "note";
	}
}

void diag_render_head(Buf *out, const char *path, const char *src, size_t srclen,
                      Severity sev, Loc loc, const char *msg)
{
	if (loc.line > 0)
		buf_printf(out, "%s:%d:%d: %s: %s\n", path, loc.line, (int)diag_col(src, srclen, loc.off),
		           sev_name(sev), msg);
	else
		buf_printf(out, "%s: %s: %s\n", path, sev_name(sev), msg);
}

void diag_render_one(Buf *out, const char *path, const char *src, size_t srclen,
                     Severity sev, Loc loc, const char *msg)
{
	diag_render_head(out, path, src, srclen, sev, loc, msg);
	if (!src || loc.line <= 0 || loc.off < 0 || (size_t)loc.off > srclen)
		return;
	/* the source line holding loc.off */
	size_t off = (size_t)loc.off, ls = off, le = off;
	while (ls > 0 && src[ls - 1] != '\n')
		ls--;
	while (le < srclen && src[le] != '\n' && src[le] != '\r')
		le++;
	/* of a long line (a 10 MB literal), a window around the caret */
	size_t ws = ls, we = le;
	if (le - ls > DIAG_LINE_MAX) {
		if (off - ls > DIAG_LINE_MAX / 4)
			ws = off - DIAG_LINE_MAX / 4;
		while (ws < off && ((unsigned char)src[ws] & 0xC0) == 0x80)
			ws++;
		we = ws + DIAG_LINE_MAX < le ? ws + DIAG_LINE_MAX : le;
		while (we > off && we < le && ((unsigned char)src[we] & 0xC0) == 0x80)
			we--;
	}
	const char *cut = ws > ls ? "..." : "";
	buf_printf(out, "%5d | %s", loc.line, cut);
	for (size_t i = ws; i < we; i++)
		buf_putc(out, src[i] ? src[i] : ' ');
	buf_printf(out, "%s\n      | %s", we < le ? "..." : "", *cut ? "   " : "");
	/* caret line: copy tabs so the caret lines up whatever the tab width */
	for (size_t i = ws; i < off; i++) {
		unsigned char c = (unsigned char)src[i];
		if (c == '\t')
			buf_putc(out, '\t');
		else if ((c & 0xC0) != 0x80)
			buf_putc(out, ' ');
	}
	buf_putc(out, '^');
	size_t end = off + (loc.len > 0 ? (size_t)loc.len : 1);
	if (end > we)
		end = we;
	for (size_t i = off + 1; i < end; i++)
		if (((unsigned char)src[i] & 0xC0) != 0x80)
			buf_putc(out, '~');
	buf_putc(out, '\n');
}

void diag_render_options(const Diags *d, const char *prefix, Buf *out)
{
	for (int i = 0; i < d->n; i++) {
		const Diag *g = &d->v[i];
		if (g->loc.line > 0)
			diag_render_one(out, d->path, d->src, d->srclen, g->sev, g->loc, g->msg);
		else
			buf_printf(out, "%s: %s\n", prefix, g->msg);
	}
}

void diag_render(const Diags *d, Buf *out)
{
	for (int i = 0; i < d->n; i++) {
		const Diag *g = &d->v[i];
		diag_render_one(out, d->path, d->src, d->srclen, g->sev, g->loc, g->msg);
	}
	if (d->dropped)
		buf_printf(out, "%s: note: too many errors; %d more not shown\n", d->path,
		            d->nerrors - d->max_errors);
}
