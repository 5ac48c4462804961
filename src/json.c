/*
** json.c — the JSON writer (json.h).
*/
#include "json.h"

#include <math.h>
#include <stdio.h>

void json_init(Json *j, Buf *b)
{
	j->b = b;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_key = false;
}

void json_escape(Buf *b, const char *s)
{
	buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
	buf_putc(b, '"');
}

/* Separator before a value or key at the current depth. */
static void sep(Json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->need_comma[j->depth])
		buf_putc(j->b, ',');
	if (j->depth == 1)
		buf_puts(j->b, "\n  ");
	else if (j->need_comma[j->depth])
		buf_putc(j->b, ' ');
	j->need_comma[j->depth] = true;
}

static void open_(Json *j, char c)
{
	sep(j);
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

void json_key(Json *j, const char *k)
{
	sep(j);
	json_escape(j->b, k);
	buf_puts(j->b, ": ");
	j->after_key = true;
}

void json_str(Json *j, const char *s)
{
	sep(j);
	if (s)
		json_escape(j->b, s);
	else
		buf_puts(j->b, "null");
}

void json_int(Json *j, int64_t v)
{
	sep(j);
	buf_printf(j->b, "%lld", (long long)v);
}

void json_num(Json *j, Num v)
{
	sep(j);
	num_buf(j->b, v);
}

void json_real(Json *j, double v)
{
	sep(j);
	if (isfinite(v))
		buf_printf(j->b, "%.4f", v);
	else
		buf_puts(j->b, "null");
}

void json_bool(Json *j, bool v)
{
	sep(j);
	buf_puts(j->b, v ? "true" : "false");
}

void json_null(Json *j)
{
	sep(j);
	buf_puts(j->b, "null");
}

void json_raw(Json *j, const char *text)
{
	sep(j);
	buf_puts(j->b, text);
}
