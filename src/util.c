/*
** util.c — checked allocation, string buffers, file reading.
*/
#include "util.h"

#include <ctype.h>
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

void buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
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
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	/* grow by doubling, but never past the limit + 1 byte: a device like
	** /dev/zero ends here instead of exhausting memory */
	size_t cap = 65536, n = 0;
	char *s = xmalloc(cap + 1);
	int err = 0;
	errno = 0;
	for (;;) {
		if (n == cap) {
			if (cap > READ_MAX_BYTES) {
				err = EFBIG;
				break;
			}
			cap = 2 * cap < READ_MAX_BYTES + 1 ? 2 * cap : READ_MAX_BYTES + 1;
			s = xrealloc(s, cap + 1);
		}
		size_t got = fread(s + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				err = errno ? errno : EIO;
			break;
		}
	}
	if (!err && n > READ_MAX_BYTES)
		err = EFBIG;
	if (in)
		clearerr(stdin);
	else
		fclose(f);
	if (err) {
		free(s);
		errno = err;
		return NULL;
	}
	/* a UTF-8 byte-order mark is not part of the text */
	size_t skip = n >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
	memmove(s, s + skip, n - skip);
	n -= skip;
	s[n] = 0;
	if (len)
		*len = n;
	return s;
}

const char *read_file_error(int err)
{
	if (err == EFBIG)
		return "it is larger than " READ_MAX_TEXT ", the most musimd reads as a program text";
	return strerror(err);
}

const char *file_display_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
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

/* ---- did you mean ------------------------------------------------------------------ */

/* Optimal-string-alignment distance between a and b, letters compared
** without case (a swap of two neighbours counts one); SIZE_MAX when a word
** is too long to be a misspelling worth suggesting for. */
static size_t edit_distance(const char *a, const char *b)
{
	enum { MAXW = 64 };
	size_t na = strlen(a), nb = strlen(b);
	if (na > MAXW || nb > MAXW)
		return SIZE_MAX;
	size_t d[MAXW + 1][MAXW + 1];
	for (size_t i = 0; i <= na; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (ca != cb);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

void suggest_init(Suggest *s, const char *word)
{
	s->word = word;
	s->best = NULL;
	/* one typo in a short word, two in a longer one */
	s->dist = strlen(word) < 5 ? 1 : 2;
}

void suggest_consider(Suggest *s, const char *cand)
{
	if (!cand || !strcmp(cand, s->word))
		return;
	size_t dd = edit_distance(s->word, cand);
	if (dd <= s->dist && (!s->best || dd < s->bestdist)) {
		s->best = cand;
		s->bestdist = dd;
	}
}

void suggest_append(const Suggest *s, Buf *b)
{
	if (s->best)
		buf_printf(b, "; did you mean '%s'?", s->best);
}
