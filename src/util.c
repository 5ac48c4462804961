/*
** util.c — checked allocation, string buffers, file reading.
*/
#define _DEFAULT_SOURCE /* madvise */
#include "util.h"

#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static MU_NORETURN void out_of_memory(size_t n)
{
	fprintf(stderr, "musimd: out of memory (allocating %zu bytes)\n", n);
	abort();
}

/* Memory is touched at a cost on virtual machines: each first touch of a
** 4 KiB page costs a page fault, ~17 µs on this project's VM, and even a
** page mapped in advance costs ~5 µs on its first write (the hypervisor's
** own mapping) — more than the work done on the page (bench/README.md: half
** of gsa's time at 10^5 instructions). A 2 MiB transparent huge page costs
** about as much as one small page, and memory kept by the process costs
** nothing the second time. So (mem_setup) every block comes from the heap,
** which grows in steps of HEAP_RESERVE (address space, not touched),
** asks for huge pages and is never given back: a block freed is reused
** as it is, where a block given back to the kernel would be zeroed and
** faulted in again when asked for next. Large blocks (the instruction
** arrays, per-block and per-variable tables of big programs) ask for huge
** pages again (the heap may have grown past the first step) and are
** mapped in with one madvise when allocated. Kernels without these
** advices refuse them and nothing changes. */
#define PREFAULT_MIN ((size_t)1 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HEAP_RESERVE ((size_t)256 << 20)

/* Ask for huge pages on the 2 MiB-aligned part of [a, e). */
static void advise_huge(uintptr_t a, uintptr_t e)
{
#ifdef MADV_HUGEPAGE
	a = (a + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	e &= ~(HUGE_PAGE - 1);
	if (e > a)
		(void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
	(void)a, (void)e;
#endif
}

void mem_setup(void)
{
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
	/* no block gets a mapping of its own (unless the heap cannot grow) */
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TOP_PAD, (int)HEAP_RESERVE);
	mallopt(M_TRIM_THRESHOLD, (int)HEAP_RESERVE);
	void *p = malloc(1);
	void *end = sbrk(0);
	/* p lies in the heap just reserved (not so under another allocator,
	** e.g. a sanitizer's: then nothing is advised) */
	if (p && end != (void *)-1 && (uintptr_t)end > (uintptr_t)p &&
	    (uintptr_t)end - (uintptr_t)p <= HEAP_RESERVE + ((size_t)16 << 20))
		advise_huge((uintptr_t)p, (uintptr_t)end);
	free(p);
#endif
}

/* A large block asks for huge pages again: the heap may have grown past
** the part mem_setup advised. Its pages are left to be faulted in when
** touched (a growable array or buffer touches only what it uses). */
static void prefault(void *p, size_t n)
{
	if (n >= PREFAULT_MIN)
		advise_huge((uintptr_t)p, (uintptr_t)p + n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	prefault(p, n);
	return p;
}

void *xaligned(size_t align, size_t n)
{
	n = (n + align - 1) / align * align; /* aligned_alloc wants a multiple */
	void *p = aligned_alloc(align, n);
	if (!p)
		out_of_memory(n);
	prefault(p, n);
	return p;
}

/* A block of n × size bytes from alloc (calloc or malloc) with room to move
** up to a 64-byte boundary and, below the result, the block's own address
** for xfree_rows. */
static void *rows_in(size_t n, size_t size, bool zeroed)
{
	if (size && n > (SIZE_MAX - 72) / size)
		out_of_memory(SIZE_MAX);
	char *base = zeroed ? xcalloc(1, n * size + 72) : xmalloc(n * size + 72);
	char *p = (char *)(((uintptr_t)base + 8 + 63) & ~(uintptr_t)63);
	memcpy(p - sizeof base, &base, sizeof base);
	return p;
}

void *xcalloc_rows(size_t n, size_t size)
{
	return rows_in(n, size, true);
}

void *xmalloc_rows(size_t n, size_t size)
{
	return rows_in(n, size, false);
}

void xfree_rows(void *p)
{
	if (p) {
		void *base;
		memcpy(&base, (char *)p - sizeof base, sizeof base);
		free(base);
	}
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	prefault(p, n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	prefault(q, n);
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

void buf_reserve(Buf *b, size_t extra)
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

/* v in decimal at p (at most 20 bytes); returns the end. Without printf:
** a trace writes millions of integers. */
char *fmt_int(char *p, int64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	                            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	                            "8081828384858687888990919293949596979899";
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	if (v < 0)
		*p++ = '-';
	int n = 1;
	for (uint64_t t = u; t >= 10; t /= 10)
		n++;
	char *e = p + n;
	while (u >= 100) { /* two digits at a time */
		e -= 2;
		memcpy(e, pairs + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10) {
		e -= 2;
		memcpy(e, pairs + 2 * u, 2);
	} else {
		*--e = (char)('0' + u);
	}
	return p + n;
}

void buf_put_int(Buf *b, int64_t v)
{
	char tmp[24];
	buf_putn(b, tmp, (size_t)(fmt_int(tmp, v) - tmp));
}



void buf_put_xml(Buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			buf_puts(b, "&amp;");
		else if (*s == '<')
			buf_puts(b, "&lt;");
		else if (*s == '>')
			buf_puts(b, "&gt;");
		else
			buf_putc(b, *s);
	}
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
	bool in = !strcmp(path, "-");
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	/* grow by doubling, but never past the limit + 1 byte: a device like
	** /dev/zero ends here instead of exhausting memory */
	size_t cap = 65536, n = 0;
	/* a regular file: its size, and one byte more to see its end at once */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uintmax_t)st.st_size < READ_MAX_BYTES)
		cap = (size_t)st.st_size + 1;
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
	s[n] = 0; /* n < cap: the block has cap + 1 >= n + 2 bytes */
	s[n + 1] = 0;
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

/* ---- "did you mean" ------------------------------------------------------------ */

static inline unsigned char fold(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

size_t str_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen > SUGGEST_MAX_LEN || blen > SUGGEST_MAX_LEN)
		return SIZE_MAX;
	/* rows i-2, i-1 and i of the (alen+1) x (blen+1) table */
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	for (size_t j = 0; j <= blen; j++)
		rows[0][j] = j;
	size_t *pp = rows[2], *p = rows[0], *c = rows[1];
	for (size_t i = 1; i <= alen; i++) {
		c[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
			size_t d = p[j - 1] + cost;
			if (p[j] + 1 < d)
				d = p[j] + 1;
			if (c[j - 1] + 1 < d)
				d = c[j - 1] + 1;
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1]) &&
			    pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			c[j] = d;
		}
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[blen];
}

void suggest_init(Suggest *g, const char *s, size_t len)
{
	*g = (Suggest){.s = s, .len = len, .best = SIZE_MAX};
}

void suggest_add(Suggest *g, const char *word)
{
	size_t wlen = strlen(word);
	size_t limit = g->len < 6 ? 1 : g->len < 9 ? 2 : 3;
	if (g->len == 0 || wlen + limit < g->len || g->len + limit < wlen) {
		/* too far apart to be within the limit; only a prefix can match */
		if (g->len < 2 || wlen < g->len)
			return;
	}
	size_t d = str_distance(g->s, g->len, word, wlen);
	bool prefix = g->len >= 2 && wlen > g->len;
	for (size_t i = 0; prefix && i < g->len; i++)
		prefix = fold(g->s[i]) == fold(word[i]);
	if (prefix && d > 1)
		d = 1;
	if (d > limit || d >= (wlen > g->len ? wlen : g->len))
		return;
	if (d < g->best) {
		g->best = d;
		g->n = 0;
		g->more = false;
	}
	if (d == g->best) {
		if (g->n < SUGGEST_MAX)
			g->w[g->n++] = word;
		else
			g->more = true;
	}
}

bool suggest_print(const Suggest *g, Buf *b, const char *prefix)
{
	if (g->n == 0)
		return false;
	buf_puts(b, "did you mean ");
	for (int i = 0; i < g->n; i++)
		buf_printf(b, "%s'%s%s'", i == 0 ? "" : i == g->n - 1 && !g->more ? " or " : ", ", prefix,
		           g->w[i]);
	buf_puts(b, g->more ? ", ...?" : "?");
	return true;
}

void sink_line(Buf *b, const Sink *k)
{
	if (k && b->len >= SINK_CHUNK) {
		k->write(b, k->ctx);
		b->len = 0;
		if (b->s)
			b->s[0] = '\0';
	}
}

bool str_to_seconds(const char *s, double *secs)
{
	char *end;
	errno = 0;
	double t = s ? strtod(s, &end) : 0;
	if (!s || errno || end == s || *end || !(t > 0) || t > 1e9)
		return false;
	*secs = t;
	return true;
}

double mono_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
