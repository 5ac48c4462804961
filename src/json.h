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
/* A key of n bytes that needs no escape. */
void json_key_plain(Json *j, const char *k, size_t n);
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
