/*
** util.h — small helpers shared by every module: checked allocation,
** a growable string buffer (library code formats into a Buf and lets
** main.c / repl.c decide where it goes) and a growable-array macro.
*/
#ifndef MUSIMD_UTIL_H
#define MUSIMD_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

#if defined(__GNUC__)
#define MU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MU_NORETURN __attribute__((noreturn))
#define MU_LIKELY(x) __builtin_expect(!!(x), 1)
#define MU_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define MU_PRINTF(f, a)
#define MU_NORETURN
#define MU_LIKELY(x) (x)
#define MU_UNLIKELY(x) (x)
#endif

/* Allocation that aborts on exhaustion (the one condition we do not turn
** into a diagnostic: there is nothing sensible left to do). */
void *xmalloc(size_t n);
/* Set up the process's allocator for big inputs (huge pages where they
** pay: util.c); main calls it once, first. */
void mem_setup(void);
void *xcalloc(size_t n, size_t size);
/* n bytes on a boundary of align (a power of two), not zeroed. */
void *xaligned(size_t align, size_t n);
/* A zeroed array on a 64-byte boundary (the lane rows: their vector loops
** then run the same whatever the heap held before). Freed by xfree_rows. */
void *xcalloc_rows(size_t n, size_t size);
/* The same, not zeroed (a copy's). */
void *xmalloc_rows(size_t n, size_t size);
void xfree_rows(void *p);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Growable array: VEC_PUSH(arr, len, cap, value). arr, len, cap are lvalues. */
#define VEC_GROW(arr, len, cap)                                              \
	do {                                                                     \
		if ((len) >= (cap)) {                                                \
			(cap) = (cap) ? 2 * (cap) : 8;                                   \
			(arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));          \
		}                                                                    \
	} while (0)
#define VEC_PUSH(arr, len, cap, value)                                       \
	do {                                                                     \
		VEC_GROW(arr, len, cap);                                             \
		(arr)[(len)++] = (value);                                            \
	} while (0)

/* Growable NUL-terminated string. A zeroed Buf is empty and valid. */
typedef struct Buf {
	char *s;
	size_t len, cap;
} Buf;

/* Where long output goes as it is made (`musimd gsa`, `analyze` on a
** program of 10^6 instructions): a printer that takes a Sink calls
** sink_line after each line, which hands the Buf's text to write and
** empties it once it holds SINK_CHUNK bytes, so that the output never
** sits whole in memory. A NULL Sink keeps it all in the Buf. */
typedef struct Sink {
	void (*write)(const Buf *b, void *ctx);
	void *ctx;
} Sink;
#define SINK_CHUNK (1 << 16)
void sink_line(Buf *b, const Sink *k);

/* Room for extra more bytes and the terminating 0. */
void buf_reserve(Buf *b, size_t extra);
/* inline: JSON and trace output append characters by the million */
static inline void buf_putc(Buf *b, char c)
{
	if (b->len + 2 > b->cap)
		buf_reserve(b, 1);
	b->s[b->len++] = c;
	b->s[b->len] = 0;
}
/* inline too, with the room check first: names, keys and numbers by the
** million */
static inline void buf_putn(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_reserve(b, n);
	char *d = b->s + b->len;
	if (n <= 16) /* names and numbers: cheaper than a call to memcpy */
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	else
		memcpy(d, s, n);
	b->len += n;
	b->s[b->len] = 0;
}
static inline void buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}
/* s as text of an XML (SVG) document: & < > escaped. */
void buf_put_xml(Buf *b, const char *s);
/* v in decimal at p (at most 20 bytes); returns the end. Without printf:
** a trace writes millions of integers. */
char *fmt_int(char *p, int64_t v);
void buf_put_int(Buf *b, int64_t v);
void buf_printf(Buf *b, const char *fmt, ...) MU_PRINTF(2, 3);
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
void buf_pad(Buf *b, size_t col);    /* append spaces until the current line is col wide */
void buf_reset(Buf *b);
void buf_free(Buf *b);
char *buf_steal(Buf *b);             /* returns the string (never NULL), leaves b empty */
const char *buf_str(const Buf *b);   /* "" when empty */
/* A decimal integer, without printf's cost (printers of large programs). */
void buf_put_i64(Buf *b, int64_t v);

/* Width of a UTF-8 string in terminal columns (every code point counts 1). */
size_t utf8_width(const char *s, size_t n);

/* A decimal integer in [lo, hi], the whole of s; false otherwise. */
bool str_to_ll(const char *s, long long lo, long long hi, long long *v);
/* --max-time SECONDS: a positive number of seconds (at most 10^9, fractions
** allowed); false for anything else. */
bool str_to_seconds(const char *s, double *secs);
/* Seconds on the monotonic clock: the base of --max-time's deadlines. */
double mono_seconds(void);

/* Program texts are read up to this size (musimd(1), LIMITS): a device
** such as /dev/zero given as a file ends with a message, not with memory
** exhausted. */
#define READ_MAX_BYTES ((size_t)256 << 20)
#define READ_MAX_TEXT "256 MiB"

/* Read a whole file, NUL-terminated; "-" is standard input. A UTF-8
** byte-order mark at the start is skipped. The block has *len + 2 bytes
** (ir_load_owned takes it as it is, for the scanner's two NUL bytes). Returns NULL and sets errno on
** failure (EFBIG: larger than READ_MAX_BYTES). */
char *read_file(const char *path, size_t *len);
/* What went wrong in read_file, for "cannot read the file: ...". */
const char *read_file_error(int err);
/* The name messages give a file: "<stdin>" for "-". */
const char *file_display_name(const char *path);

/* Edit distance (Damerau-Levenshtein, optimal string alignment): inserting,
** deleting or replacing a character or swapping two neighbours costs 1;
** letters that differ only in case cost nothing. Gives up (SIZE_MAX) on
** words longer than SUGGEST_MAX_LEN. */
#define SUGGEST_MAX_LEN 64
size_t str_distance(const char *a, size_t alen, const char *b, size_t blen);

/* "Did you mean": offer the candidates one by one (suggest_add), then print
** the closest (suggest_print). A candidate is close when its edit distance
** to the word is at most 1 for words of up to 5 characters, 2 up to 8, 3
** beyond (and less than the longer one's length), or when the word (of 2
** characters or more) is a prefix of it; the closest ones win, in the order
** offered. Candidates are not copied: they must outlive g. */
#define SUGGEST_MAX 5
typedef struct Suggest {
	const char *s;
	size_t len;
	size_t best;            /* distance of w[]; SIZE_MAX: none yet */
	const char *w[SUGGEST_MAX];
	int n;
	bool more;              /* more than SUGGEST_MAX at that distance */
} Suggest;
void suggest_init(Suggest *g, const char *s, size_t len);
void suggest_add(Suggest *g, const char *word);
/* Append "did you mean 'PREFIXw1'?" / "... 'w1' or 'w2'?" to b (prefix:
** "--" for options, or ""); false, and nothing appended, with no candidate. */
bool suggest_print(const Suggest *g, Buf *b, const char *prefix);


#endif
