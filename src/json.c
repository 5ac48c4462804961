/*
** json.c — the JSON writer (json.h).
*/
#include "json.h"

#include "bits.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void json_init(Json *j, Buf *b)
{
	j->b = b;
	j->depth = 0;
	memset(j->need_comma, 0, sizeof j->need_comma);
	j->after_key = false;
}

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
** forms, no surrogates, nothing above U+10FFFF), 0 when there is none. */
static int utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
	for (int i = 1; i < n; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 0;
	if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
	    (c == 0xF4 && p[1] > 0x8F))
		return 0;
	return n;
}

/* The bytes a JSON string holds as they are: printable ASCII but '"' and
** '\\' (not NUL: the end). */
static const bool plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The same when something needs an escape. */
static void put_escaped(Buf *b, const char *s, const char *tail, size_t nt)
{
	buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const unsigned char *q = p; /* a run that needs no escape: one copy */
		while (plain[*q])
			q++;
		if (q > p) {
			buf_putn(b, (const char *)p, (size_t)(q - p));
			p = q - 1;
			continue;
		}
		if (*p >= 0x80) {
			int n = utf8_seq(p);
			if (n == 0) /* not UTF-8 (a file name is bytes): Python's surrogateescape */
				buf_printf(b, "\\u%04x", 0xDC00u + *p);
			else
				buf_putn(b, (const char *)p, (size_t)n);
			p += n > 0 ? n - 1 : 0;
			continue;
		}
		switch (*p) {
		case '"': buf_puts(b, "\\\""); break;
		case '\\': buf_puts(b, "\\\\"); break;
		case '\n': buf_puts(b, "\\n"); break;
		case '\r': buf_puts(b, "\\r"); break;
		case '\t': buf_puts(b, "\\t"); break;
		default:
			if (*p < 0x20)
				buf_printf(b, "\\u%04x", *p);
			else
				buf_putc(b, (char)*p);
		}
	}
	buf_putn(b, tail, nt);
}

/* s as a JSON string, then the tail's nt bytes (which start with its
** closing '"'): in one write when nothing needs an escape, the usual case. */
static inline void put_string(Buf *b, const char *s, const char *tail, size_t nt)
{
	const unsigned char *e = (const unsigned char *)s;
	while (plain[*e])
		e++;
	if (!*e)
		json_put_quoted(b, s, (size_t)(e - (const unsigned char *)s), tail, nt);
	else
		put_escaped(b, s, tail, nt);
}

void json_escape(Buf *b, const char *s)
{
	put_string(b, s, "\"", 1);
}

static void open_(Json *j, char c)
{
	json_sep(j);
	buf_putc(j->b, c);
	if (j->depth < 31)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(Json *j, char c)
{
	bool had = j->need_comma[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (j->depth == 0 && had)
		buf_putc(j->b, '\n');
	buf_putc(j->b, c);
	if (j->depth == 0)
		buf_putc(j->b, '\n');
}

void json_obj(Json *j) { open_(j, '{'); }
void json_obj_end(Json *j) { close_(j, '}'); }
void json_arr(Json *j) { open_(j, '['); }
void json_arr_end(Json *j) { close_(j, ']'); }

void json_key_any(Json *j, const char *k)
{
	json_sep(j);
	put_string(j->b, k, "\": ", 3);
	j->after_key = true;
}

void json_str(Json *j, const char *s)
{
	json_sep(j);
	if (s)
		json_escape(j->b, s);
	else
		buf_puts(j->b, "null");
}


void json_int(Json *j, int64_t v)
{
	json_sep(j);
	buf_put_int(j->b, v);
}


void json_ranges(Json *j, const uint64_t *set, int32_t n, int64_t base)
{
	json_sep(j);
	/* formatted in a local chunk: a set may have thousands of ranges */
	char chunk[4096], *p = chunk;
	*p++ = '[';
	bool first = true;
	for (int32_t l = bits_next(set, n, 0, true); l < n;) {
		int32_t e = bits_next(set, n, l, false);
		if (p > chunk + sizeof chunk - 64) {
			buf_putn(j->b, chunk, (size_t)(p - chunk));
			p = chunk;
		}
		if (!first)
			*p++ = ',', *p++ = ' ';
		first = false;
		*p++ = '[';
		p = fmt_int(p, base + l);
		*p++ = ',', *p++ = ' ';
		p = fmt_int(p, base + e - 1);
		*p++ = ']';
		l = bits_next(set, n, e, true);
	}
	*p++ = ']';
	buf_putn(j->b, chunk, (size_t)(p - chunk));
}

void json_num(Json *j, Num v)
{
	json_sep(j);
	num_buf(j->b, v);
}

void json_real(Json *j, double v)
{
	json_sep(j);
	if (isfinite(v))
		buf_printf(j->b, "%.4f", v);
	else
		buf_puts(j->b, "null");
}

void json_bool(Json *j, bool v)
{
	json_sep(j);
	buf_puts(j->b, v ? "true" : "false");
}

void json_null(Json *j)
{
	json_sep(j);
	buf_puts(j->b, "null");
}
