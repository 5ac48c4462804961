/*
** xform.h — program transformations (`musimd transform NAME FILE`): one
** file in xform/ and one line of the xforms[] table each. A transformation
** reads a program and writes the text of another, re-parsable by musimd,
** with a comment header saying what it did.
*/
#ifndef MUSIMD_XFORM_H
#define MUSIMD_XFORM_H

#include "ir.h"

typedef struct XformOptions {
	int32_t threads, warpsize; /* what a warp is (0: the program's, as `run` takes it) */
	bool divergence;           /* ssde: refine the detection with the divergence analysis */
	bool delays;               /* ssde: print Algorithm 5's points for --aware-delay instead */
} XformOptions;

/* What a transformation did: how many places it changed, and whether it
** left the work unfinished (the command then fails: exit 1). */
typedef struct XformResult {
	int32_t changes;
	bool incomplete;
} XformResult;

typedef struct Xform {
	const char *name;    /* `musimd transform NAME` */
	const char *summary; /* one line for the help */
	/* Append the transformed program's text to out. false, with the reason
	** in d, when p cannot be transformed. */
	bool (*run)(const Program *p, const XformOptions *o, Buf *out, XformResult *res, Diags *d);
} Xform;

extern const Xform xform_ssde, xform_inline_calls;

/* Calls inlined (inline.c): a program without call or ret, as the analyses
** read it, its cfg built; *origin (malloc'd, *nins entries) maps each of its
** pcs to the instruction of p it copies. NULL, with the reason in d, when
** the result would exceed INLINE_MAX_INS instructions. p must have been
** loaded (ir_load: its cfg and functions). */
#define INLINE_MAX_INS 1000000
Program *xform_inline(const Program *p, int32_t *nins, int32_t **origin, Diags *d);
extern const Xform *const xforms[]; /* NULL-terminated */
const Xform *xform_find(const char *name);

#endif
