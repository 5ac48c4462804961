/*
** fuzz_llvm.c — libFuzzer target for the LLVM export (musimd emit-llvm,
** src/llvm.c), fuzz/README.md.
**
** The input is a μ-SIMD source file. When it loads cleanly it is converted
** to GSA form (an irreducible CFG is refused: a normal outcome) and
** exported for both targets. An export that succeeds must be a module:
** one kernel definition whose braces balance, every basic block ending in a
** terminator (br or ret) before the next label, and no error in the
** diagnostics; an export that fails must say why (an error in d). A crash,
** a sanitizer report or a timeout is a bug.
**
** Built into the libFuzzer binary fuzz_llvm (-Dfuzz=true), and into
** fuzz-replay with the entry point renamed (-DLLVMFuzzerTestOneInput=...).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gsa.h"
#include "llvm.h"

MU_NORETURN static void fail(const char *why, const Program *p, const Buf *text)
{
	fprintf(stderr, "fuzz_llvm: %s\n---- program ----\n%.*s\n", why, (int)p->srclen, p->src);
	if (text)
		fprintf(stderr, "---- module ----\n%s", buf_str(text));
	abort();
}

/* Does the line [s, e) start with word w after its indentation? */
static bool starts(const char *s, const char *e, const char *w)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	size_t n = strlen(w);
	return (size_t)(e - s) >= n && !memcmp(s, w, n);
}

/* The module's shape: one `define`, braces balanced, a terminator before
** every block label and before the closing brace of the kernel. */
static void check_module(const Program *p, const Buf *m)
{
	const char *s = buf_str(m), *end = s + m->len;
	int defines = 0, depth = 0;
	bool in_body = false, terminated = true;
	for (const char *l = s; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		if (!e)
			e = end;
		if (starts(l, e, "define "))
			defines++;
		for (const char *c = l; c < e && *c != ';'; c++) /* comments may hold anything */
			depth += *c == '{' ? 1 : *c == '}' ? -1 : 0;
		if (depth < 0)
			fail("a closing brace without its opening one", p, m);
		/* in the kernel, a line that is not indented is a block's label or its end */
		bool label = in_body && e > l && l[0] != ' ' && l[0] != '\t' && l[0] != '}' && l[0] != ';';
		if (in_body && (label || (e > l && l[0] == '}')) && !terminated)
			fail("a basic block without a terminator", p, m);
		if (starts(l, e, "define "))
			in_body = true, terminated = true;
		else if (e > l && l[0] == '}')
			in_body = false;
		if (in_body && e > l && !label && (l[0] == ' ' || l[0] == '\t'))
			terminated = starts(l, e, "br ") || starts(l, e, "ret") || starts(l, e, "unreachable");
		else if (label)
			terminated = false;
		l = e < end ? e + 1 : end;
	}
	if (defines != 1 || depth != 0)
		fail("the module is not one kernel with balanced braces", p, m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t saved_bits = num_max_bits;
	num_max_bits = 4096;

	Diags d;
	diag_init(&d, "fuzz.simd", (const char *)data, size);
	d.max_errors = 100;
	Program *p = ir_load("fuzz.simd", (const char *)data, size, &d);
	bool clean = d.nerrors == 0 && p->cfg;
	diag_free(&d);
	if (clean) {
		diag_init(&d, p->path, p->src, p->srclen);
		Program *g = p->has_gsa ? p : gsa_build(p, &d);
		diag_free(&d);
		for (int t = 0; g && t < 2; t++) {
			Buf m = {0};
			diag_init(&d, g->path, g->src, g->srclen);
			bool ok = llvm_emit(&m, g, t ? LLVM_NVPTX : LLVM_AMDGPU, &d);
			if (ok && d.nerrors == 0)
				check_module(p, &m);
			else if (d.nerrors == 0)
				fail("the export failed without saying why", p, &m);
			diag_free(&d);
			buf_free(&m);
		}
		if (g && g != p)
			ir_free(g);
	}
	ir_free(p);
	num_max_bits = saved_bits;
	return 0;
}
