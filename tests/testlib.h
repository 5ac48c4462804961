/*
** testlib.h — what several unit-test files share: loading a program that
** must be valid, and the paper programs they all exercise.
*/
#ifndef MUSIMD_TESTLIB_H
#define MUSIMD_TESTLIB_H

#include "cfg.h"

/* A program loaded through the whole front end (ir_load). */
typedef struct Prog {
	Program *p;
	const Cfg *g; /* p->cfg */
	Diags d;
	char *src;
} Prog;

/* A test that could hang gets `.init = watchdog_N`: alarm(N) in its own
** process, so SIGALRM ends it after N seconds and Criterion reports it as
** crashed. Not Criterion's .timeout: its bookkeeping (BoxFort's
** bxfi_push_timeout, a 48-byte struct bxfi_timeout_request per timed test,
** linked into libcriterion 2.4.1) lost one request in a full run of the
** unit tests, which LeakSanitizer reported as a leak of 48 bytes from
** calloc in libcriterion.so.3+0x1a332 (./test.sh --asan); a test without
** .timeout never reaches that code. */
#define WATCHDOGS(X) X(1) X(20) X(60) X(120) X(240) X(400) X(480) X(600)
#define WATCHDOG_DECL(n) void watchdog_##n(void);
WATCHDOGS(WATCHDOG_DECL)

/* The examples/ directory of the source tree. */
const char *examples_dir(void);
/* The names of the examples (*.simd, sorted); free with free_names. */
char **example_files(int *n);
void free_names(char **v, int n);

/* Load src; a program with errors fails the test with the diagnostics. */
Prog load(const char *src);
/* The same for the file at path (an example). */
Prog load_path(const char *path);
/* p with its calls inlined (xform_inline; p freed), or p without calls. */
Program *inline_calls(Program *p);
/* Does the example at path have a call? */
bool example_has_calls(const char *path);
/* Is the example at path one of those with an irreducible CFG, which GSA
** form and the analyses refuse (policy_scs_trace.simd: three traces that
** start in one cycle at three places)? test_gsa checks that they are. */
bool example_irreducible(const char *path);
void unload(Prog *r);

struct Machine;
/* With vars, every variable of every thread as text ("-": unassigned);
** with sigma, the initialised cells of shared memory: equal texts, equal
** ends. */
char *values_text(const struct Machine *m, bool vars, bool sigma);

/* ElTantawy 2018, Figure 5.2 (nested divergence), laid out so that the
** not-taken side of each branch is the side the figure runs first. */
#define FIG_5_2 \
	".threads 4\n" \
	"A:  p = tid % 2\n" \
	"    e = p == 0\n" \
	"    bnz e, B\n" \
	"C:  x = 10\n" \
	"    o = tid == 1\n" \
	"    bnz o, D\n" \
	"E:  y = 3\n" \
	"    jump F\n" \
	"D:  y = 1\n" \
	"F:  x = x + y\n" \
	"    jump G\n" \
	"B:  x = 20\n" \
	"G:  mem[tid] = x\n" \
	"    stop\n"

/* The reconstructed sumTriangle (seed 001 digest §5.2; Sampaio 2013,
** Figure 3.4), as in examples/sum_triangle.simd, without directives. */
#define SUM_TRIANGLE \
	"l0:  s = 0\n" \
	"l1:  d = 0\n" \
	"l2:  i = tid\n" \
	"l3:  x = tid + 1\n" \
	"l4:  L = c * x\n" \
	"l5:  p = i < L\n" \
	"l6:  bz p, l15\n" \
	"l7:  q = d % 2\n" \
	"l8:  bz q, l11\n" \
	"l9:  x = mem[i]\n" \
	"l10: s = s + x\n" \
	"l11: sync\n" \
	"l12: d = d + 1\n" \
	"l13: i = i + c\n" \
	"l14: jump l5\n" \
	"l15: sync\n" \
	"l16: x = d - 1\n" \
	"l17: y = v + x\n" \
	"l18: mem[y] = s\n" \
	"l19: stop\n"

/* The reconstructed GSA sumTriangle (seed 001 digest §5.3; Sampaio 2013,
** Figure 3.5), as in examples/sum_triangle_gsa.simd: its parameters, then
** the instructions. Memory (.data) is up to the test. */
#define SUM_TRIANGLE_GSA \
	".param c = 4\n" \
	".param v = 16\n" \
	"l0:  s0 = 0\n" \
	"l1:  d0 = 0\n" \
	"l2:  i0 = tid\n" \
	"l3:  x0 = tid + 1\n" \
	"l4:  L0 = c × x0\n" \
	"l5:  [i1, s1, d1] = μ[(i0, s0, d0), (i2, s3, d2)]\n" \
	"l6:  p0 = i1 < L0\n" \
	"l7:  bz p0, l16\n" \
	"l8:  p1 = d1 % 2\n" \
	"l9:  bz p1, l12\n" \
	"l10: x1 = ↓i1\n" \
	"l11: s2 = s1 + x1\n" \
	"l12: [s3] = γ(p1, s2, s1)\n" \
	"l13: d2 = d1 + 1\n" \
	"l14: i2 = i1 + c\n" \
	"l15: jump l5\n" \
	"l16: [s4, d3] = η[p0, (s1, d1)]\n" \
	"l17: x2 = d3 - 1\n" \
	"l18: x3 = v + x2\n" \
	"l19: ↑x3 = s4\n" \
	"l20: stop\n"

#endif
