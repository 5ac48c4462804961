/*
** util.c — checked allocation, string buffers, file reading.
*/
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MU_NORETURN void out_of_memory(size_t n)
{
	fprintf(stderr, "musimd: out of memory (allocating %zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static void buf_reserve(Buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	b->s = xrealloc(b->s, cap);
	b->cap = cap;
}

void buf_putn(Buf *b, const char *s, size_t n)
{
	buf_reserve(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void buf_putc(Buf *b, char c)
{
	buf_putn(b, &c, 1);
}

void buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

/* Formats into the spare room first; only what does not fit is formatted
** twice (once to learn its length). */
void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	int n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
	if (n >= 0 && (size_t)n >= room) {
		buf_reserve(b, (size_t)n);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	if (n >= 0)
		b->len += (size_t)n;
	else if (b->s)
		b->s[b->len] = '\0';
}

void buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_pad(Buf *b, size_t col)
{
	size_t start = b->len;
	while (start > 0 && b->s[start - 1] != '\n')
		start--;
	size_t w = b->len ? utf8_width(b->s + start, b->len - start) : 0;
	while (w++ < col)
		buf_putc(b, ' ');
}

void buf_reset(Buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = 0;
}

void buf_free(Buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *buf_steal(Buf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void buf_put_i64(Buf *b, int64_t v)
{
	char tmp[24];
	size_t n = sizeof tmp;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do
		tmp[--n] = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		tmp[--n] = '-';
	buf_putn(b, tmp + n, sizeof tmp - n);
}

const char *buf_str(const Buf *b)
{
	return b->s ? b->s : "";
}

size_t utf8_width(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	Buf b = {0};
	errno = 0;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_putn(&b, chunk, n);
	int err = ferror(f) ? (errno ? errno : EIO) : 0;
	fclose(f);
	if (err) {
		buf_free(&b);
		errno = err;
		return NULL;
	}
	if (len)
		*len = b.len;
	return buf_steal(&b);
}

bool str_to_ll(const char *s, long long lo, long long hi, long long *v)
{
	if (!s || !*s)
		return false;
	errno = 0;
	char *end;
	long long x = strtoll(s, &end, 10);
	if (errno || *end || x < lo || x > hi)
		return false;
	*v = x;
	return true;
}
