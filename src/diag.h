/*
** diag.h — source locations and diagnostics (errors as values).
**
** Library code records diagnostics in a Diags list; only main.c and repl.c
** print them. Rendering follows the GNU coding standards:
**     FILE:LINE:COL: error: MESSAGE
**         <source line>
**         <caret>
** Columns are 1-based display columns: a tab advances to the next multiple
** of 8, every other code point counts one.
*/
#ifndef MUSIMD_DIAG_H
#define MUSIMD_DIAG_H

#include "util.h"

/* A span of source text. off/len are byte offsets into the source; line
** is 1-based. The column a message shows is computed from the text when
** it is rendered (diag_col): an instruction holds six Locs, and a program
** of 10^6 instructions is read, converted and analysed at the speed its
** memory is touched. */
typedef struct Loc {
	int32_t line;
	int32_t off, len;
} Loc;

#define LOC_NONE ((Loc){0, -1, 0})

typedef enum Severity { SEV_ERROR, SEV_WARNING, SEV_NOTE } Severity;

typedef struct Diag {
	Severity sev;
	Loc loc; /* loc.line == 0: no location (whole file) */
	char *msg;
} Diag;

typedef struct Diags {
	const char *path; /* file name shown in messages (not owned) */
	const char *src;  /* source text for caret lines (not owned), may be NULL */
	size_t srclen;
	Diag *v;
	int n, cap;
	int nerrors, nwarnings;
	int max_errors; /* 0: unlimited; after that many errors, further ones are dropped */
	bool dropped;   /* some errors were dropped */
	bool dropping;  /* the last error was dropped: so are its notes */
} Diags;

void diag_init(Diags *d, const char *path, const char *src, size_t srclen);
void diag_free(Diags *d);
void diag_add(Diags *d, Severity sev, Loc loc, const char *fmt, ...) MU_PRINTF(4, 5);
void diag_vadd(Diags *d, Severity sev, Loc loc, const char *fmt, va_list ap);
#define diag_error(d, loc, ...) diag_add((d), SEV_ERROR, (loc), __VA_ARGS__)
#define diag_warning(d, loc, ...) diag_add((d), SEV_WARNING, (loc), __VA_ARGS__)
#define diag_note(d, loc, ...) diag_add((d), SEV_NOTE, (loc), __VA_ARGS__)

/* Sort diagnostics by position (stable), so errors found by different
** passes come out in source order. */
void diag_sort(Diags *d);

/* Compute the line of a byte offset in src. */
Loc diag_locate(const char *src, size_t srclen, int32_t off, int32_t len);
/* The 1-based display column of byte offset off in src (1 without src). */
int32_t diag_col(const char *src, size_t srclen, int32_t off);

/* Render every diagnostic (GNU style, with source line and caret). */
void diag_render(const Diags *d, Buf *out);
/* Render what is wrong with a command's options (--param, --aware-delay):
** a diagnostic at a place of the source as diag_render does, one without
** as "PREFIX: MESSAGE" ("musimd run"). */
void diag_render_options(const Diags *d, const char *prefix, Buf *out);
/* Render one message at a location of the given source. */
void diag_render_one(Buf *out, const char *path, const char *src, size_t srclen,
                     Severity sev, Loc loc, const char *msg);
/* ... its first line only (FILE:LINE:COL: SEVERITY: MESSAGE), no source line. */
void diag_render_head(Buf *out, const char *path, const char *src, size_t srclen,
                      Severity sev, Loc loc, const char *msg);

#endif
