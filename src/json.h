/*
** json.h — a small JSON writer into a Buf (output only, stable key order,
** integers of any size as JSON numbers, cli.md "JSON").
**
** Top-level members go one per line; nested values stay on their line, so
** the output is both diffable and compact for thousands of threads.
*/
#ifndef MUSIMD_JSON_H
#define MUSIMD_JSON_H

#include "num.h"
#include "util.h"

#include <string.h>

typedef struct Json {
	Buf *b;
	int depth;
	bool need_comma[32];
	bool after_key;
} Json;

void json_init(Json *j, Buf *b);
void json_obj(Json *j);     /* { */
void json_obj_end(Json *j); /* } */
void json_arr(Json *j);     /* [ */
void json_arr_end(Json *j); /* ] */
void json_key_any(Json *j, const char *k);
/* Separator before a value or key at the current depth (inline: a trace
** writes several keys and values per step). */
static inline void json_sep(Json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	bool comma = j->need_comma[j->depth];
	if (j->depth == 1)
		buf_putn(j->b, &",\n  "[!comma], comma ? 4 : 3);
	else if (comma)
		buf_putn(j->b, ", ", 2);
	j->need_comma[j->depth] = true;
}
/* '"', the n bytes of s (nothing to escape), '"' then the tail's nt bytes,
** in one write. */
static inline void json_put_quoted(Buf *b, const char *s, size_t n, const char *tail, size_t nt)
{
	if (b->len + n + nt + 2 > b->cap)
		buf_reserve(b, n + nt + 1);
	char *d = b->s + b->len;
	d[0] = '"';
	memcpy(d + 1, s, n);
	memcpy(d + 1 + n, tail, nt);
	b->len += n + 1 + nt;
	b->s[b->len] = 0;
}
/* A key of n bytes that needs no escape. */
static inline void json_key_plain(Json *j, const char *k, size_t n)
{
	json_sep(j);
	json_put_quoted(j->b, k, n, "\": ", 3);
	j->after_key = true;
}
/* A key. A string literal (musimd's keys are plain names: no quote, no
** backslash, no control character) is written without scanning it: the
** trace writes several keys per step. */
#define json_key(j, k) \
	(__builtin_constant_p(k) ? json_key_plain((j), (k), strlen(k)) : json_key_any((j), (k)))
void json_str(Json *j, const char *s); /* NULL → null */
void json_int(Json *j, int64_t v);
/* A set of n lanes (bit l of set[l / 64]) as the ranges of consecutive
** members, each [first, last] numbered from base: {0,1,2,5} with base 0 is
** [[0, 2], [5, 5]], the empty set []. Linear in the number of words. */
void json_ranges(Json *j, const uint64_t *set, int32_t n, int64_t base);
void json_num(Json *j, Num v);
void json_real(Json *j, double v);
void json_bool(Json *j, bool v);
void json_null(Json *j);
/* Escape s as a JSON string literal (with quotes) into b. */
void json_escape(Buf *b, const char *s);

#endif
