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
void *xcalloc(size_t n, size_t size);
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

void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_putn(Buf *b, const char *s, size_t n);
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

/* Read a whole file; returns NULL and sets errno on failure. */
char *read_file(const char *path, size_t *len);

#endif
