/*
** test_cfg.c — the control-flow graph (src/cfg.c): basic blocks per
** language.md §4.3, edges, dominators, post-dominators with the virtual
** exit, reconvergence points of branches, natural loops, the μ/φ operand
** selection, and the text and DOT printers.
**
** Blocks are numbered in program order (cfg.h); each test first checks the
** pc → block mapping it derives by hand from the leader rule, then uses the
** block numbers. "X" below is the virtual exit (index nblocks).
*/
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "frontier.h"
#include "testlib.h"

/* ---- helpers ----------------------------------------------------------- */

#define I32S(...) ((const int32_t[]){__VA_ARGS__})
#define NI32S(...) ((int)(sizeof(I32S(__VA_ARGS__)) / sizeof(int32_t)))

static void expect_list(const char *what, int32_t b, const int32_t *got, int32_t ngot,
                        const int32_t *want, int nwant, int line)
{
	bool same = ngot == nwant;
	for (int i = 0; same && i < nwant; i++)
		same = got[i] == want[i];
	Buf gb = {0}, wb = {0};
	for (int i = 0; i < ngot; i++)
		buf_printf(&gb, " %d", got[i]);
	for (int i = 0; i < nwant; i++)
		buf_printf(&wb, " %d", want[i]);
	cr_expect(same, "line %d: %s of B%d:%s, want%s", line, what, b, buf_str(&gb), buf_str(&wb));
	buf_free(&gb);
	buf_free(&wb);
}

#define EMPTY (const int32_t *)NULL, 0
#define SUCC(g, b, ...) \
	expect_list("succ", b, (g)->blocks[b].succ, (g)->blocks[b].nsucc, I32S(__VA_ARGS__), NI32S(__VA_ARGS__), __LINE__)
#define PRED(g, b, ...) \
	expect_list("pred", b, (g)->blocks[b].pred, (g)->blocks[b].npred, I32S(__VA_ARGS__), NI32S(__VA_ARGS__), __LINE__)
#define NO_PRED(g, b) expect_list("pred", b, (g)->blocks[b].pred, (g)->blocks[b].npred, EMPTY, __LINE__)

/* block_of for every pc, as a list. */
static void expect_blocks(const Prog *r, const int32_t *want, int n, int line)
{
	cr_assert_eq(r->p->nins, n, "line %d: %d instructions, want %d", line, r->p->nins, n);
	expect_list("block_of", -1, r->g->block_of, r->p->nins, want, n, line);
	int32_t nb = 0;
	for (int i = 0; i < n; i++)
		nb = want[i] + 1 > nb ? want[i] + 1 : nb;
	cr_expect_eq(r->g->nblocks, nb, "line %d: %d blocks, want %d", line, r->g->nblocks, nb);
	for (int i = 0; i < n; i++) {
		bool start = i == 0 || want[i] != want[i - 1];
		cr_expect_eq(cfg_is_block_start(r->g, i), start, "line %d: pc %d block start %d", line, i, !start);
		if (start)
			cr_expect_eq(r->g->blocks[want[i]].first, i, "line %d", line);
		if (i == n - 1 || want[i + 1] != want[i])
			cr_expect_eq(r->g->blocks[want[i]].last, i, "line %d", line);
	}
}
#define BLOCKS(r, ...) expect_blocks(r, I32S(__VA_ARGS__), NI32S(__VA_ARGS__), __LINE__)

static void expect_idoms(const Cfg *g, const int32_t *idom, const int32_t *ipdom, int n, int line)
{
	for (int b = 0; b < n; b++) {
		cr_expect_eq(g->blocks[b].idom, idom[b], "line %d: idom(B%d) = %d, want %d", line, b,
		             g->blocks[b].idom, idom[b]);
		cr_expect_eq(g->blocks[b].ipdom, ipdom[b], "line %d: ipdom(B%d) = %d, want %d", line, b,
		             g->blocks[b].ipdom, ipdom[b]);
	}
}

/* cfg_dominates / cfg_postdominates must agree with the trees. */
static void check_relations(const Cfg *g)
{
	int32_t n = g->nblocks;
	for (int32_t a = 0; a < n; a++)
		for (int32_t b = 0; b < n; b++) {
			if (!g->blocks[b].reachable)
				continue;
			bool dom = a == b;
			for (int32_t v = g->blocks[b].idom; v >= 0 && !dom; v = g->blocks[v].idom)
				dom = v == a;
			cr_expect_eq(cfg_dominates(g, a, b), dom, "dominates(B%d, B%d)", a, b);
			bool pdom = a == b;
			for (int32_t v = g->blocks[b].ipdom; v >= 0 && v < n && !pdom; v = g->blocks[v].ipdom)
				pdom = v == a;
			cr_expect_eq(cfg_postdominates(g, a, b), pdom, "postdominates(B%d, B%d)", a, b);
			cr_expect(cfg_postdominates(g, n, b), "the virtual exit post-dominates B%d", b);
		}
}

static int32_t loop_with_header(const Cfg *g, int32_t h)
{
	for (int32_t l = 0; l < g->nloops; l++)
		if (g->loops[l].header == h)
			return l;
	cr_assert_fail("no loop with header B%d", h);
	return -1;
}

/* ---- blocks ------------------------------------------------------------ */

/* Leaders (language.md §4.3): the first instruction, branch and jump
** targets, the instruction after bz/bnz/jump/stop/exit. A label alone (l1,
** l2, l3, l5 are never targets) does not start a block; sync and barrier do
** not end one.
**   B0 = l0..l4 (ends with the bz), B1 = l5 l6 (ends with the jump),
**   B2 = l7 (target of l4), B3 = l8 l9 (target of l6; ends with exit). */
Test(cfg, leaders)
{
	Prog r = load("l0: a = 1\n"
	              "l1: b = 2\n"
	              "l2: sync\n"
	              "l3: barrier\n"
	              "l4: bz a, l7\n"
	              "l5: c = 3\n"
	              "l6: jump l8\n"
	              "l7: c = 4\n"
	              "l8: sync\n"
	              "l9: exit\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 0, 0, 0, 1, 1, 2, 3, 3);
	SUCC(g, 0, 1, 2); /* fall-through first, then the target */
	SUCC(g, 1, 3);
	SUCC(g, 2, 3);
	SUCC(g, 3, 4); /* exit → the virtual exit */
	NO_PRED(g, 0);
	PRED(g, 1, 0);
	PRED(g, 2, 0);
	PRED(g, 3, 1, 2); /* program order */
	for (int b = 0; b < 4; b++) {
		cr_expect(g->blocks[b].reachable);
		cr_expect_eq(g->blocks[b].ngsa, 0);
		cr_expect(!g->blocks[b].implicit_sync);
		cr_expect_eq(g->blocks[b].loop, -1);
	}
	cr_expect_eq(g->nloops, 0);
	unload(&r);
}

/* A label on a line of its own names the next instruction and does not
** start a block either; an instruction after stop starts a block. Here
** "mid" labels pc 1 (not a target): one block B0 = pc 0..1 ends at bz;
** B1 = stop; B2 = x = 1 (after stop, unreachable, falls into B3); B3 =
** exit (target of the bz). */
Test(cfg, labels_and_unreachable)
{
	Prog r = load("a = tid\n"
	              "mid:\n"
	              "bz a, end\n"
	              "stop\n"
	              "x = 1\n"
	              "end: exit\n");
	const Cfg *g = r.g;
	cr_expect_eq(r.p->labels[ir_find_label(r.p, "mid")].ins, 1);
	BLOCKS(&r, 0, 0, 1, 2, 3);
	SUCC(g, 0, 1, 3);
	SUCC(g, 1, 4);
	SUCC(g, 2, 3);
	SUCC(g, 3, 4);
	PRED(g, 3, 0, 2);
	cr_expect(g->blocks[0].reachable && g->blocks[1].reachable && g->blocks[3].reachable);
	cr_expect(!g->blocks[2].reachable);
	cr_expect_eq(g->blocks[2].idom, -1); /* cfg.h: -1 for the entry and unreachable blocks */
	cr_expect_eq(g->blocks[0].idom, -1);
	cr_expect_eq(g->blocks[1].idom, 0);
	cr_expect_eq(g->blocks[3].idom, 0);
	/* the reverse post-order lists the reachable blocks only */
	cr_expect_eq(g->nrpo, 3);
	for (int k = 0; k < g->nrpo; k++)
		cr_expect_neq(g->rpo[k], 2);
	/* post-dominators: B1 and B3 go straight to X, so ipdom(B0) = X */
	cr_expect_eq(g->blocks[0].ipdom, 4);
	cr_expect_eq(g->blocks[1].ipdom, 4);
	cr_expect_eq(g->blocks[3].ipdom, 4);
	cr_expect_eq(cfg_ipdom_pc(g, 1), -1);
	unload(&r);
}

/* Post-dominance is defined for every block (cfg.h): the unreachable B2
** (x = 1) falls into B3 (end: exit), so B3 is its immediate post-dominator. */
Test(cfg, unreachable_block_has_ipdom)
{
	Prog r = load("bz tid, end\n"
	              "stop\n"
	              "x = 1\n"
	              "end: exit\n");
	cr_assert(!r.g->blocks[2].reachable);
	cr_expect_eq(r.g->blocks[2].ipdom, 3);
	unload(&r);
}

/* Two edges from one block to the same block: bz whose target is also the
** fall-through. The successor list has both edges ([fall-through, target]),
** the predecessor list has B0 once, and a φ there takes one operand. */
Test(cfg, predecessors_deduplicated)
{
	Prog r = load("l0: a = 1\n"
	              "l1: bz a, l2\n"
	              "l2: x = phi(a)\n"
	              "l3: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 1);
	SUCC(g, 0, 1, 1);
	PRED(g, 1, 0);
	cr_expect_eq(cfg_phi_index(g, 1, 0), 0);
	cr_expect_eq(g->blocks[1].ngsa, 1);
	cr_expect(!g->blocks[1].implicit_sync); /* φ is not an implicit sync */
	cr_expect_eq(cfg_ipdom_pc(g, 1), 2);
	unload(&r);
}

/* ---- dominators, post-dominators, reconvergence points ------------------ */

static const char if_else[] = "l0: p = tid & 1\n"
                              "l1: bz p, l4\n"
                              "l2: x = 10\n"
                              "l3: jump l5\n"
                              "l4: x = 20\n"
                              "l5: sync\n"
                              "l6: mem[tid] = x\n"
                              "l7: stop\n";

/* The diamond: B0 = l0 l1, B1 = l2 l3, B2 = l4, B3 = l5..l7.
** idom: B1, B2, B3 ← B0. ipdom: B0, B1, B2 → B3 → X. The branch at l1
** reconverges at l5 (the sync). The reverse post-order is a topological
** order of this acyclic graph. */
Test(cfg, if_else_dominators)
{
	Prog r = load(if_else);
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 1, 2, 3, 3, 3);
	SUCC(g, 0, 1, 2);
	SUCC(g, 1, 3);
	SUCC(g, 2, 3);
	SUCC(g, 3, 4);
	PRED(g, 3, 1, 2);
	expect_idoms(g, I32S(-1, 0, 0, 0), I32S(3, 3, 3, 4), 4, __LINE__);
	cr_expect(cfg_dominates(g, 0, 3));
	cr_expect(!cfg_dominates(g, 1, 3));
	cr_expect(!cfg_dominates(g, 3, 0));
	cr_expect(cfg_postdominates(g, 3, 0));
	cr_expect(!cfg_postdominates(g, 1, 0));
	cr_expect(!cfg_postdominates(g, 0, 3));
	cr_expect(cfg_postdominates(g, 4, 0));
	check_relations(g);
	cr_expect_eq(cfg_ipdom_pc(g, 1), 5);
	cr_expect_eq(cfg_ipdom_pc(g, 7), -1); /* B3's ipdom is the virtual exit */
	cr_assert_eq(g->nrpo, 4);
	cr_expect_eq(g->rpo[0], 0);
	int pos[4];
	for (int k = 0; k < 4; k++)
		pos[g->rpo[k]] = k;
	for (int b = 0; b < 4; b++)
		for (int k = 0; k < g->blocks[b].nsucc; k++)
			if (g->blocks[b].succ[k] < 4)
				cr_expect_lt(pos[b], pos[g->blocks[b].succ[k]], "edge B%d → B%d", b, g->blocks[b].succ[k]);
	unload(&r);
}

/* if-then: the target is the join: ipdom_pc(l1) = l3. B0 = l0 l1, B1 = l2,
** B2 = l3 l4. */
Test(cfg, if_then_ipdom)
{
	Prog r = load("l0: p = tid & 1\n"
	              "l1: bz p, l3\n"
	              "l2: x = 10\n"
	              "l3: sync\n"
	              "l4: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 2, 2);
	expect_idoms(g, I32S(-1, 0, 0), I32S(2, 2, 3), 3, __LINE__);
	cr_expect_eq(cfg_ipdom_pc(g, 1), 3);
	check_relations(g);
	unload(&r);
}

/* The loop of TC-SEM-4: B0 = l0 l1, B1 = l2 l3 (header, target of l6),
** B2 = l4..l6 (latch), B3 = l7..l9. The exit branch reconverges at l7.
** idom: B1 ← B0, B2 ← B1, B3 ← B1. ipdom: B0 → B1 → B3 → X, B2 → B1. */
Test(cfg, loop_exit_ipdom)
{
	Prog r = load("l0: i = 0\n"
	              "l1: s = 0\n"
	              "l2: p = tid < i\n"
	              "l3: bnz p, l7\n"
	              "l4: s = s + 1\n"
	              "l5: i = i + 1\n"
	              "l6: jump l2\n"
	              "l7: sync\n"
	              "l8: mem[tid] = s\n"
	              "l9: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 1, 2, 2, 2, 3, 3, 3);
	SUCC(g, 1, 2, 3);
	SUCC(g, 2, 1);
	PRED(g, 1, 0, 2);
	expect_idoms(g, I32S(-1, 0, 1, 1), I32S(1, 3, 1, 4), 4, __LINE__);
	cr_expect_eq(cfg_ipdom_pc(g, 3), 7);
	check_relations(g);
	cr_assert_eq(g->nloops, 1);
	const Loop *L = &g->loops[0];
	cr_expect_eq(L->header, 1);
	expect_list("loop body", 1, L->blocks, L->nblocks, I32S(1, 2), 2, __LINE__);
	expect_list("latches", 1, L->latches, L->nlatches, I32S(2), 1, __LINE__);
	cr_expect_eq(L->parent, -1);
	cr_expect(g->blocks[0].loop == -1 && g->blocks[1].loop == 0 && g->blocks[2].loop == 0 &&
	          g->blocks[3].loop == -1);
	cr_expect_eq(cfg_mu_arity(g, 1), 2);
	cr_expect_eq(cfg_phi_index(g, 1, 0), 0);
	cr_expect_eq(cfg_phi_index(g, 1, 2), 1);
	cr_expect_eq(cfg_phi_index(g, 1, 3), -1);
	unload(&r);
}

/* cfg.h: "cfg_mu_index: 0 for entry edges, k for the k-th back edge" — for
** any header, whether or not it holds a μ yet. */
Test(cfg, mu_index_without_mu)
{
	Prog r = load("i = 0\n"
	              "l1: p = tid < i\n"
	              "bnz p, l5\n"
	              "i = i + 1\n"
	              "jump l1\n"
	              "l5: sync\n"
	              "stop\n");
	cr_expect_eq(cfg_mu_index(r.g, 1, 0), 0);
	cr_expect_eq(cfg_mu_index(r.g, 1, 2), 1);
	unload(&r);
}

/* examples/unstructured.simd (Diamos et al. 2011, Figure 1): blocks
** bb1 = B0 (pc 0 1), bb2 = B1 (2 3), bb3 = B2 (4 5), bb4 = B3 (6 7),
** bb5 = B4 (8), exit = B5 (9). Every path from each branch reaches the
** exit block and no earlier block is common to all paths, so every
** branch's reconvergence point is the exit block (pc 9). */
Test(cfg, unstructured_ipdom)
{
	Prog r = load(".threads 4\n"
	              "bb1:   c1 = tid == 0\n"
	              "       bnz c1, bb3\n"
	              "bb2:   c2 = tid == 1\n"
	              "       bnz c2, exit\n"
	              "bb3:   c3 = tid == 2\n"
	              "       bnz c3, bb5\n"
	              "bb4:   c4 = tid == 3\n"
	              "       bnz c4, exit\n"
	              "bb5:   seen5 = 1\n"
	              "exit:  stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 1, 2, 2, 3, 3, 4, 5);
	SUCC(g, 0, 1, 2);
	SUCC(g, 1, 2, 5);
	SUCC(g, 2, 3, 4);
	SUCC(g, 3, 4, 5);
	SUCC(g, 4, 5);
	PRED(g, 5, 1, 3, 4);
	PRED(g, 2, 0, 1);
	/* idom: bb2 ← bb1; bb3 ← bb1 (reached from bb1 and bb2); bb4 ← bb3;
	** bb5 ← bb3; exit ← bb1 (reached from bb2, bb4, bb5) */
	expect_idoms(g, I32S(-1, 0, 0, 2, 2, 0), I32S(5, 5, 5, 5, 5, 6), 6, __LINE__);
	for (int32_t pc = 1; pc <= 7; pc += 2)
		cr_expect_eq(cfg_ipdom_pc(g, pc), 9, "branch at pc %d", pc);
	check_relations(g);
	cr_expect_eq(g->nloops, 0);
	unload(&r);
}

/* An endless loop: B1 = l2 l3 jumps to itself and can never reach stop; it
** gets an edge to the virtual exit for post-dominance, so ipdom(B1) = X and
** the branch at l1 (B0 → B1 or B2) reconverges only at X. */
Test(cfg, endless_loop)
{
	Prog r = load("l0: p = tid & 1\n"
	              "l1: bz p, l4\n"
	              "l2: x = 1\n"
	              "l3: jump l2\n"
	              "l4: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 1, 2);
	SUCC(g, 1, 1);
	PRED(g, 1, 0, 1);
	expect_idoms(g, I32S(-1, 0, 0), I32S(3, 3, 3), 3, __LINE__);
	cr_expect_eq(cfg_ipdom_pc(g, 1), -1);
	cr_expect(cfg_postdominates(g, 3, 1));
	cr_expect(!cfg_postdominates(g, 2, 0));
	cr_assert_eq(g->nloops, 1);
	cr_expect_eq(g->loops[0].header, 1);
	expect_list("loop body", 1, g->loops[0].blocks, g->loops[0].nblocks, I32S(1), 1, __LINE__);
	expect_list("latches", 1, g->loops[0].latches, g->loops[0].nlatches, I32S(1), 1, __LINE__);
	unload(&r);
}

/* A program that never stops (its only block is an endless loop, which the
** last-instruction rule allows: it ends with a jump): the block still has
** an ipdom, X, through the added edge; it is a loop header with one back
** edge (itself), so a μ there would take 2 operands. */
Test(cfg, program_without_stop)
{
	Prog r = load("spin: x = 1\n"
	              "jump spin\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0);
	cr_expect_eq(g->blocks[0].ipdom, 1);
	cr_expect_eq(g->nloops, 1);
	cr_expect_eq(cfg_mu_arity(g, 0), 2);
	unload(&r);
}

/* Nested loops:
**   B0 = l0; B1 = l1 l2 (outer header, target of l10); B2 = l3;
**   B3 = l4 l5 (inner header, target of l7); B4 = l6 l7 (inner latch);
**   B5 = l8..l10 (outer latch; target of l5); B6 = l11 l12 (target of l2).
** Edges: B0→B1, B1→B2,B6, B2→B3, B3→B4,B5, B4→B3, B5→B1, B6→X.
** idom: B1←B0, B2←B1, B3←B2, B4←B3, B5←B3, B6←B1.
** ipdom: B0→B1, B1→B6, B2→B3, B3→B5, B4→B3, B5→B1, B6→X. */
static const char nested[] = "l0: i = 0\n"
                             "l1: p = i < 3\n"
                             "l2: bz p, l11\n"
                             "l3: j = 0\n"
                             "l4: q = j < i\n"
                             "l5: bz q, l8\n"
                             "l6: j = j + 1\n"
                             "l7: jump l4\n"
                             "l8: sync\n"
                             "l9: i = i + 1\n"
                             "l10: jump l1\n"
                             "l11: sync\n"
                             "l12: stop\n";

Test(cfg, nested_loops)
{
	Prog r = load(nested);
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 5, 6, 6);
	SUCC(g, 1, 2, 6);
	SUCC(g, 3, 4, 5);
	SUCC(g, 4, 3);
	SUCC(g, 5, 1);
	PRED(g, 1, 0, 5);
	PRED(g, 3, 2, 4);
	expect_idoms(g, I32S(-1, 0, 1, 2, 3, 3, 1), I32S(1, 6, 3, 5, 3, 1, 7), 7, __LINE__);
	cr_expect_eq(cfg_ipdom_pc(g, 2), 11);
	cr_expect_eq(cfg_ipdom_pc(g, 5), 8);
	check_relations(g);
	cr_assert_eq(g->nloops, 2);
	int32_t outer = loop_with_header(g, 1), inner = loop_with_header(g, 3);
	const Loop *O = &g->loops[outer], *I = &g->loops[inner];
	/* cfg.h: a body lists its own blocks, then each inner loop's, contiguously */
	expect_list("outer body", 1, O->blocks, O->nblocks, I32S(1, 2, 5, 3, 4), 5, __LINE__);
	cr_expect_eq(O->nown, 3);
	cr_expect_eq(I->nown, 2);
	cr_expect_eq(I->blocks, O->blocks + 3, "the inner body is a range of the outer one");
	cr_expect_eq(O->depth, 1);
	cr_expect_eq(I->depth, 2);
	for (int32_t b = 0; b < 7; b++) {
		cr_expect_eq(cfg_loop_contains(g, outer, b), b >= 1 && b <= 5, "B%d in the outer loop", b);
		cr_expect_eq(cfg_loop_contains(g, inner, b), b == 3 || b == 4, "B%d in the inner loop", b);
	}
	expect_list("outer latches", 1, O->latches, O->nlatches, I32S(5), 1, __LINE__);
	expect_list("inner body", 3, I->blocks, I->nblocks, I32S(3, 4), 2, __LINE__);
	expect_list("inner latches", 3, I->latches, I->nlatches, I32S(4), 1, __LINE__);
	cr_expect_eq(O->parent, -1);
	cr_expect_eq(I->parent, outer);
	static const int32_t loop_of[7] = {-2, -1, -1, -3, -3, -1, -2}; /* -1 outer, -3 inner, -2 none */
	for (int b = 0; b < 7; b++) {
		int32_t want = loop_of[b] == -1 ? outer : loop_of[b] == -3 ? inner : -1;
		cr_expect_eq(g->blocks[b].loop, want, "innermost loop of B%d: %d, want %d", b, g->blocks[b].loop,
		             want);
	}
	cr_expect_eq(cfg_mu_arity(g, 1), 2);
	cr_expect_eq(cfg_mu_arity(g, 3), 2);
	cr_expect_eq(cfg_mu_arity(g, 2), 1);
	unload(&r);
}

/* ---- μ and φ operand selection (language.md §4.3) ----------------------- */

/* A header with two back edges: B0 = pc 0; B1 = pc 1..3 (header);
** B2 = 4 5; B3 = 6 7 (jump back); B4 = 8 9 (odd; jump back); B5 = 10 (out).
** Preds of B1 in program order: B0 (entry), B3, B4 → μ operands 0, 1, 2. */
Test(cfg, mu_two_back_edges)
{
	Prog r = load("i0 = 0\n"
	              "l1: i1 = mu(i0, i2, i3)\n"
	              "p = i1 < 10\n"
	              "bz p, out\n"
	              "q = i1 & 1\n"
	              "bz q, odd\n"
	              "i2 = i1 + 1\n"
	              "jump l1\n"
	              "odd: i3 = i1 + 3\n"
	              "jump l1\n"
	              "out: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5);
	PRED(g, 1, 0, 3, 4);
	cr_expect_eq(cfg_mu_arity(g, 1), 3);
	cr_expect_eq(cfg_mu_index(g, 1, 0), 0);
	cr_expect_eq(cfg_mu_index(g, 1, 3), 1);
	cr_expect_eq(cfg_mu_index(g, 1, 4), 2);
	cr_expect_eq(cfg_phi_index(g, 1, 3), 1);
	cr_expect_eq(cfg_phi_index(g, 1, 4), 2);
	cr_expect_eq(cfg_phi_index(g, 1, 2), -1);
	cr_expect_eq(g->blocks[1].ngsa, 1);
	cr_expect(!g->blocks[1].implicit_sync);
	cr_assert_eq(g->nloops, 1);
	expect_list("latches", 1, g->loops[0].latches, g->loops[0].nlatches, I32S(3, 4), 2, __LINE__);
	expect_list("body", 1, g->loops[0].blocks, g->loops[0].nblocks, I32S(1, 2, 3, 4), 4, __LINE__);
	unload(&r);
}

/* Two entry edges and one back edge: B0 = l0 l1, B1 = l2 (jump), B2 =
** l3..l6 (header, self loop), B3 = l7. Preds of B2: B0, B1, B2; the
** entry edges both select operand 0, the back edge operand 1. */
Test(cfg, mu_two_entries)
{
	Prog r = load("l0: c = tid & 1\n"
	              "l1: bz c, l3\n"
	              "l2: jump l3\n"
	              "l3: i1 = mu(0, i2)\n"
	              "l4: i2 = i1 + 1\n"
	              "l5: p = i2 < 3\n"
	              "l6: bnz p, l3\n"
	              "l7: stop\n");
	const Cfg *g = r.g;
	BLOCKS(&r, 0, 0, 1, 2, 2, 2, 2, 3);
	PRED(g, 2, 0, 1, 2);
	cr_expect_eq(cfg_mu_arity(g, 2), 2);
	cr_expect_eq(cfg_mu_index(g, 2, 0), 0);
	cr_expect_eq(cfg_mu_index(g, 2, 1), 0);
	cr_expect_eq(cfg_mu_index(g, 2, 2), 1);
	cr_expect_eq(cfg_phi_index(g, 2, 1), 1);
	unload(&r);
}

/* A μ with the wrong number of operands is a validation error (language.md
** §5): the header above needs 2. */
Test(cfg, mu_arity_checked)
{
	static const char src[] = "l0: i1 = mu(0, i2, 5)\n"
	                          "l1: i2 = i1 + 1\n"
	                          "l2: bnz i2, l0\n"
	                          "l3: stop\n";
	Diags d;
	diag_init(&d, "t.simd", src, strlen(src));
	Program *p = ir_load("t.simd", src, strlen(src), &d);
	cr_expect_eq(d.nerrors, 1);
	cr_expect(p->cfg == NULL);
	ir_free(p);
	diag_free(&d);
}

/* GSA groups in the reconstructed GSA sumTriangle: the μ matrix at l5 is
** 3 rows (not an implicit sync), the γ at l12 1 row and the η at l16 2 rows
** (implicit syncs). */
Test(cfg, gsa_groups)
{
	Prog r = load(SUM_TRIANGLE_GSA);
	const Cfg *g = r.g;
	const Program *p = r.p;
	int32_t hdr = g->block_of[p->labels[ir_find_label(p, "l5")].ins];
	int32_t gam = g->block_of[p->labels[ir_find_label(p, "l12")].ins];
	int32_t eta = g->block_of[p->labels[ir_find_label(p, "l16")].ins];
	cr_expect_eq(g->blocks[hdr].ngsa, 3);
	cr_expect(!g->blocks[hdr].implicit_sync);
	cr_expect_eq(cfg_mu_arity(g, hdr), 2);
	cr_expect_eq(g->blocks[gam].ngsa, 1);
	cr_expect(g->blocks[gam].implicit_sync);
	cr_expect_eq(g->blocks[eta].ngsa, 2);
	cr_expect(g->blocks[eta].implicit_sync);
	/* the γ joins the inner branch: it is the branch's reconvergence point */
	int32_t br9 = p->labels[ir_find_label(p, "l9")].ins;
	cr_expect_eq(cfg_ipdom_pc(g, br9), g->blocks[gam].first);
	int32_t br7 = p->labels[ir_find_label(p, "l7")].ins;
	cr_expect_eq(cfg_ipdom_pc(g, br7), g->blocks[eta].first);
	unload(&r);
}

/* ---- printing ------------------------------------------------------------ */

static void expect_has(const char *text, const char *want)
{
	cr_expect(strstr(text, want) != NULL, "missing \"%s\" in:\n%s", want, text);
}

/* Some line of text contains both a and b, in this order. */
static void expect_line_with(const char *text, const char *a, const char *b)
{
	bool found = false;
	for (const char *line = text; *line && !found;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, n);
		const char *pa = strstr(l, a);
		found = pa && strstr(pa + strlen(a), b);
		free(l);
		line += n + (end != NULL);
	}
	cr_expect(found, "no line with \"%s\" ... \"%s\" in:\n%s", a, b, text);
}

Test(cfg, print_text)
{
	Prog r = load(if_else);
	Buf b = {0};
	cfg_print(&b, r.p, r.g);
	const char *s = buf_str(&b);
	expect_has(s, "4 blocks (exit is the virtual exit)\n");
	for (int k = 0; k < 4; k++) {
		char row[16];
		snprintf(row, sizeof row, "\nB%d ", k);
		expect_has(s, row);
	}
	expect_line_with(s, "  B0 -> B1", "fall-through"); /* the fall-through successor first */
	expect_line_with(s, "  B0 -> B2", "taken");
	expect_has(s, "  B1 -> B3\n");
	expect_has(s, "  B3 -> exit  (stop)\n");
	expect_has(s, "dominator tree:\n  B0\n");
	expect_has(s, "post-dominator tree:\n  exit\n    B3\n");
	expect_has(s, "ipdom B3 (l5)");
	expect_has(s, "loops:\n  (none)\n");
	buf_free(&b);
	unload(&r);

	r = load(nested);
	cfg_print(&b, r.p, r.g);
	s = buf_str(&b);
	expect_has(s, "7 blocks");
	for (int k = 0; k < 7; k++) {
		char row[16];
		snprintf(row, sizeof row, "\nB%d ", k);
		expect_has(s, row);
	}
	/* the inner loop (L0: its latch comes first) stands for its blocks */
	expect_has(s, "L1  header B1 (l1)  body B1 B2 L0 B5  latches B5  depth 1\n");
	expect_has(s, "header B3 (l4)  body B3 B4  latches B4  depth 2  parent L");
	buf_free(&b);
	unload(&r);
}

static bool have_dot(void)
{
	return system("command -v dot >/dev/null 2>&1") == 0;
}

Test(cfg, print_dot)
{
	Prog r = load(nested);
	Buf b = {0};
	cfg_print_dot(&b, r.p, r.g);
	const char *s = buf_str(&b);
	cr_expect(strncmp(s, "digraph \"t.simd\" {\n", 19) == 0, "%s", s);
	for (int k = 0; k < 7; k++) {
		char node[32];
		snprintf(node, sizeof node, "  B%d [label=\"B%d\\l", k, k);
		expect_has(s, node);
	}
	expect_has(s, "  entry -> B0;\n");
	expect_line_with(s, "  B1 -> B2 [", "fall");
	expect_line_with(s, "  B1 -> B6 [label=", "taken");
	expect_has(s, "  B6 -> exit;\n");
	expect_has(s, "  B1 -> B6 [style=dotted"); /* the ipdom of the branch in B1 */
	expect_has(s, "  B3 -> B5 [style=dotted");
	cr_expect(b.len >= 2 && strcmp(s + b.len - 2, "}\n") == 0);

	/* graphviz, if installed, must accept it */
	if (have_dot()) {
		char path[] = "/tmp/musimd-cfg-XXXXXX";
		int fd = mkstemp(path);
		cr_assert(fd >= 0);
		FILE *f = fdopen(fd, "w");
		cr_assert(f != NULL);
		fputs(s, f);
		fclose(f);
		char cmd[128];
		snprintf(cmd, sizeof cmd, "dot -Tcanon %s >/dev/null 2>&1", path);
		cr_expect_eq(system(cmd), 0, "dot rejected:\n%s", s);
		unlink(path);
	}
	buf_free(&b);
	unload(&r);
}

/* ---- against the definitions, on random graphs ---------------------------- */

/* A random program of at most 45 instructions (so its blocks and the exit
** fit one 64-bit set): assignments, syncs, bz/bnz/jump to random labels,
** stop and exit, then a final stop. Irreducible graphs, unreachable code,
** endless loops and self loops all occur. */
static char *random_program_sized(unsigned *seed, int maxn, int maxlab)
{
	int n = 2 + rand_r(seed) % (maxn - 2), nlab = 1 + rand_r(seed) % maxlab;
	int *where = xmalloc((size_t)nlab * sizeof *where);
	for (int l = 0; l < nlab; l++)
		where[l] = rand_r(seed) % n;
	Buf b = {0};
	for (int i = 0; i < n; i++) {
		for (int l = 0; l < nlab; l++)
			if (where[l] == i)
				buf_printf(&b, "L%d: ", l);
		int r = rand_r(seed) % 100, t = rand_r(seed) % nlab;
		if (r < 30)
			buf_puts(&b, "x = tid\n");
		else if (r < 50)
			buf_printf(&b, "bz x, L%d\n", t);
		else if (r < 62)
			buf_printf(&b, "bnz x, L%d\n", t);
		else if (r < 74)
			buf_printf(&b, "jump L%d\n", t);
		else if (r < 80)
			buf_puts(&b, "stop\n");
		else if (r < 84)
			buf_puts(&b, "exit\n");
		else
			buf_puts(&b, "sync\n");
	}
	buf_puts(&b, "stop\n");
	free(where);
	return buf_steal(&b);
}

static char *random_program(unsigned *seed)
{
	return random_program_sized(seed, 45, 8);
}

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* The immediate (post-)dominator from the sets: the strict one that the
** others (post-)dominate, i.e. the one with the most (post-)dominators. */
static int32_t immediate(const uint64_t *set, int32_t b)
{
	uint64_t strict = set[b] & ~(1ull << b);
	int32_t best = -1;
	for (int32_t d = 0; d < 64; d++)
		if ((strict >> d & 1) && (best < 0 || popcount64(set[d]) > popcount64(set[best])))
			best = d;
	return best;
}

static void check_against_definitions(const Program *p, const Cfg *g, const char *src)
{
	int32_t nb = g->nblocks, X = nb;
	cr_assert(nb + 1 <= 64);
	uint64_t all = nb + 1 == 64 ? ~0ull : (1ull << (nb + 1)) - 1;
	/* reachability, dominators: Dom(b) = {b} ∪ ⋂ Dom(reachable preds) */
	uint64_t reach = 1, dom[64], pdom[64];
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t b = 0; b < nb; b++)
			if (reach >> b & 1)
				for (int32_t k = 0; k < g->blocks[b].nsucc; k++)
					if (!(reach >> g->blocks[b].succ[k] & 1)) {
						reach |= 1ull << g->blocks[b].succ[k];
						changed = true;
					}
	}
	for (int32_t b = 0; b < nb; b++) {
		cr_expect_eq(g->blocks[b].reachable, (bool)(reach >> b & 1), "%s: reachable B%d", src, b);
		dom[b] = b == 0 ? 1 : all;
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t b = 1; b < nb; b++) {
			if (!(reach >> b & 1))
				continue;
			uint64_t m = all;
			for (int32_t j = 0; j < g->blocks[b].npred; j++)
				if (reach >> g->blocks[b].pred[j] & 1)
					m &= dom[g->blocks[b].pred[j]];
			m |= 1ull << b;
			if (m != dom[b]) {
				dom[b] = m;
				changed = true;
			}
		}
	}
	/* post-dominators on the reverse graph, with an edge to the exit from
	** every block that cannot reach it */
	uint64_t to_exit = 1ull << X;
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t b = 0; b < nb; b++)
			for (int32_t k = 0; k < g->blocks[b].nsucc; k++)
				if ((to_exit >> g->blocks[b].succ[k] & 1) && !(to_exit >> b & 1)) {
					to_exit |= 1ull << b;
					changed = true;
				}
	}
	for (int32_t b = 0; b <= nb; b++)
		pdom[b] = b == X ? 1ull << X : all;
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t b = 0; b < nb; b++) {
			uint64_t m = to_exit >> b & 1 ? all : pdom[X];
			for (int32_t k = 0; k < g->blocks[b].nsucc; k++)
				m &= pdom[g->blocks[b].succ[k]];
			m |= 1ull << b;
			if (m != pdom[b]) {
				pdom[b] = m;
				changed = true;
			}
		}
	}
	for (int32_t b = 0; b < nb; b++) {
		int32_t id = b > 0 && (reach >> b & 1) ? immediate(dom, b) : -1;
		cr_expect_eq(g->blocks[b].idom, id, "%s: idom(B%d) = %d, want %d", src, b, g->blocks[b].idom, id);
		int32_t ipd = immediate(pdom, b);
		cr_expect_eq(g->blocks[b].ipdom, ipd, "%s: ipdom(B%d) = %d, want %d", src, b, g->blocks[b].ipdom, ipd);
		for (int32_t a = 0; a < nb; a++) {
			bool d = (reach >> b & 1) ? (bool)(dom[b] >> a & 1) : a == b;
			cr_expect_eq(cfg_dominates(g, a, b), d, "%s: dominates(B%d, B%d)", src, a, b);
			cr_expect_eq(cfg_postdominates(g, a, b), (bool)(pdom[b] >> a & 1), "%s: postdominates(B%d, B%d)",
			             src, a, b);
		}
		cr_expect(cfg_postdominates(g, X, b));
		cr_expect(!cfg_postdominates(g, b, X));
		/* φ index: the position among the predecessors, O(1) through the edge */
		for (int32_t q = 0; q < nb; q++) {
			int32_t want = -1;
			for (int32_t j = 0; j < g->blocks[b].npred; j++)
				if (g->blocks[b].pred[j] == q)
					want = j;
			cr_expect_eq(cfg_phi_index(g, b, q), want, "%s: phi_index(B%d, B%d)", src, b, q);
		}
	}

	/* nearest common dominators and dominators at each depth (the depth of
	** b is the number of its strict dominators) */
	for (int32_t a = 0; a < nb; a++) {
		if (!(reach >> a & 1))
			continue;
		cr_expect_eq(g->blocks[a].dom_depth, popcount64(dom[a]) - 1, "%s: depth of B%d", src, a);
		for (int32_t b = 0; b < nb; b++) {
			if (!(reach >> b & 1))
				continue;
			uint64_t common = dom[a] & dom[b];
			int32_t want = -1;
			for (int32_t c = 0; c < nb; c++)
				if ((common >> c & 1) && (want < 0 || popcount64(dom[c]) > popcount64(dom[want])))
					want = c;
			cr_expect_eq(cfg_dom_lca(g, a, b), want, "%s: lca(B%d, B%d)", src, a, b);
		}
		for (int32_t c = 0; c < nb; c++)
			if (dom[a] >> c & 1)
				cr_expect_eq(cfg_dom_ancestor(g, a, popcount64(dom[c]) - 1), c, "%s: dominator of B%d", src, a);
	}

	/* natural loops: one per header, in program order of the first back
	** edge's source; body = header + what reaches a latch avoiding it */
	int32_t hdr[64], nl = 0;
	uint64_t body[64], latch[64];
	for (int32_t u = 0; u < nb; u++) {
		if (!(reach >> u & 1))
			continue;
		for (int32_t k = 0; k < g->blocks[u].nsucc; k++) {
			int32_t h = g->blocks[u].succ[k];
			if (h >= nb || !(dom[u] >> h & 1))
				continue;
			int32_t l = 0;
			while (l < nl && hdr[l] != h)
				l++;
			if (l == nl) {
				hdr[nl] = h;
				latch[nl] = 0;
				nl++;
			}
			latch[l] |= 1ull << u;
		}
	}
	cr_assert_eq(g->nloops, nl, "%s: %d loops, want %d", src, g->nloops, nl);
	for (int32_t l = 0; l < nl; l++) {
		body[l] = (1ull << hdr[l]) | latch[l];
		for (bool changed = true; changed;) {
			changed = false;
			for (int32_t b = 0; b < nb; b++)
				if ((body[l] >> b & 1) && b != hdr[l])
					for (int32_t j = 0; j < g->blocks[b].npred; j++) {
						int32_t q = g->blocks[b].pred[j];
						if ((reach >> q & 1) && !(body[l] >> q & 1)) {
							body[l] |= 1ull << q;
							changed = true;
						}
					}
		}
	}
	for (int32_t l = 0; l < nl; l++) {
		const Loop *L = &g->loops[l];
		cr_expect_eq(L->header, hdr[l], "%s: header of L%d", src, l);
		uint64_t got = 0, lat = 0;
		for (int32_t i = 0; i < L->nblocks; i++)
			got |= 1ull << L->blocks[i];
		for (int32_t i = 0; i < L->nlatches; i++) {
			lat |= 1ull << L->latches[i];
			cr_expect(i == 0 || L->latches[i - 1] < L->latches[i], "%s: latches ascending", src);
		}
		cr_expect_eq(L->nblocks, popcount64(body[l]), "%s: size of L%d", src, l);
		cr_expect_eq(got, body[l], "%s: body of L%d", src, l);
		cr_expect_eq(lat, latch[l], "%s: latches of L%d", src, l);
		/* parent: the smallest other loop holding the header */
		int32_t par = -1;
		for (int32_t m = 0; m < nl; m++)
			if (m != l && (body[m] >> hdr[l] & 1) && (par < 0 || popcount64(body[m]) < popcount64(body[par])))
				par = m;
		cr_expect_eq(L->parent, par, "%s: parent of L%d", src, l);
		cr_expect_eq(L->depth, par < 0 ? 1 : g->loops[par].depth + 1, "%s: depth of L%d", src, l);
		/* layout: own blocks ascending first, inner bodies nested in the range */
		for (int32_t i = 0; i < L->nown; i++) {
			cr_expect_eq(g->blocks[L->blocks[i]].loop, l, "%s: own block of L%d", src, l);
			cr_expect(i == 0 || L->blocks[i - 1] < L->blocks[i], "%s: own blocks ascending", src);
		}
		if (par >= 0) {
			const Loop *P = &g->loops[par];
			cr_expect(L->blocks >= P->blocks + P->nown && L->blocks + L->nblocks <= P->blocks + P->nblocks,
			          "%s: L%d's body within its parent's", src, l);
		}
		for (int32_t b = 0; b < nb; b++)
			cr_expect_eq(cfg_loop_contains(g, l, b), (bool)(body[l] >> b & 1), "%s: L%d contains B%d", src, l,
			             b);
	}
	for (int32_t b = 0; b < nb; b++) {
		int32_t inner = -1;
		for (int32_t l = 0; l < nl; l++)
			if ((body[l] >> b & 1) && (inner < 0 || popcount64(body[l]) < popcount64(body[inner])))
				inner = l;
		cr_expect_eq(g->blocks[b].loop, inner, "%s: innermost loop of B%d", src, b);
	}
	(void)p;
}

Test(cfg, random_graphs_against_definitions)
{
	unsigned seed = 12345;
	int loops = 0, irreducible_or_endless = 0;
	for (int i = 0; i < 1500; i++) {
		char *src = random_program(&seed);
		Diags d;
		diag_init(&d, "t.simd", src, strlen(src));
		Program *p = ir_load("t.simd", src, strlen(src), &d);
		if (p->cfg) {
			check_against_definitions(p, p->cfg, src);
			loops += p->cfg->nloops > 0;
			for (int32_t b = 0; b < p->cfg->nblocks; b++)
				irreducible_or_endless += p->cfg->blocks[b].ipdom == p->cfg->nblocks &&
				                          p->cfg->blocks[b].nsucc > 0 &&
				                          p->cfg->blocks[b].succ[0] != p->cfg->nblocks;
		}
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	cr_expect_gt(loops, 300, "the generator makes loops (%d programs with loops)", loops);
	cr_expect_gt(irreducible_or_endless, 100);
}

/* The heavy-path queries against walks up the dominator tree, on graphs of
** up to 3000 blocks (deep trees, several heavy paths on every path). */
Test(cfg, dom_lca_on_large_random_graphs)
{
	unsigned seed = 99;
	int32_t deepest = 0;
	for (int i = 0; i < 40; i++) {
		char *src = random_program_sized(&seed, 3000, 400);
		Diags d;
		diag_init(&d, "t.simd", src, strlen(src));
		Program *p = ir_load("t.simd", src, strlen(src), &d);
		const Cfg *g = p->cfg;
		cr_assert(g != NULL);
		unsigned s2 = (unsigned)i;
		for (int32_t b = 0; b < g->nblocks; b++)
			deepest = g->blocks[b].dom_depth > deepest ? g->blocks[b].dom_depth : deepest;
		for (int k = 0; k < 2000; k++) {
			int32_t a = rand_r(&s2) % g->nblocks, b = rand_r(&s2) % g->nblocks;
			if (!g->blocks[a].reachable || !g->blocks[b].reachable)
				continue;
			int32_t x = a, y = b;
			while (g->blocks[x].dom_depth > g->blocks[y].dom_depth)
				x = g->blocks[x].idom;
			while (g->blocks[y].dom_depth > g->blocks[x].dom_depth)
				y = g->blocks[y].idom;
			while (x != y) {
				x = g->blocks[x].idom;
				y = g->blocks[y].idom;
			}
			cr_expect_eq(cfg_dom_lca(g, a, b), x, "lca(B%d, B%d)", a, b);
			int32_t depth = rand_r(&s2) % (g->blocks[a].dom_depth + 1), z = a;
			while (g->blocks[z].dom_depth > depth)
				z = g->blocks[z].idom;
			cr_expect_eq(cfg_dom_ancestor(g, a, depth), z, "dominator of B%d at depth %d", a, depth);
		}
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	cr_expect_gt(deepest, 30, "dominator trees %d deep at most", deepest);
}

/* ---- deep and wide graphs: linear output, no recursion ------------------- */

/* n ifs nested in one another: a dominator tree n + 1 deep. */
static char *nested_ifs(int n)
{
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "p = tid < %d\nbz p, E%d\n", n - i, i);
	buf_puts(&b, "x = 1\n");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(&b, "E%d: sync\n", i);
	buf_puts(&b, "stop\n");
	return buf_steal(&b);
}

/* Trees deeper than the indentation cap (16 levels) keep the cap's
** indentation and state each line's depth: the output grows linearly. */
Test(cfg, print_deep_tree_capped)
{
	char *src = nested_ifs(40);
	Prog r = load(src);
	Buf b = {0};
	cfg_print(&b, r.p, r.g);
	const char *s = buf_str(&b);
	/* B0 at depth 0 .. B39 at depth 39 (each bz block is the next one's idom) */
	char want[128];
	snprintf(want, sizeof want, "\n%*sB16\n", 2 * 17, "");
	expect_has(s, want);
	snprintf(want, sizeof want, "\n%*sB17  (depth 17)\n", 2 * 17, "");
	expect_has(s, want);
	snprintf(want, sizeof want, "\n%*sB39  (depth 39)\n", 2 * 17, "");
	expect_has(s, want);
	/* no line is indented beyond the cap */
	snprintf(want, sizeof want, "\n%*s", 2 * 18 + 1, "");
	cr_expect(strstr(s, want) == NULL, "a line indented beyond the cap:\n%s", s);
	size_t small = b.len;
	buf_free(&b);
	unload(&r);
	free(src);

	/* ten times deeper: about ten times the output, not a hundred */
	src = nested_ifs(400);
	r = load(src);
	cfg_print(&b, r.p, r.g);
	cr_expect_lt(b.len, 14 * small, "%zu bytes for 400 levels, %zu for 40", b.len, small);
	buf_free(&b);
	unload(&r);
	free(src);
}

/* 3000 nested loops and 3000 branches into one block: dominators, loops
** and their nesting, the numbering and the printer, without recursion and
** in near-linear time (the unit suite's time limit guards it). */
static char *nested_loops(int n)
{
	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "i%d = 0\nH%d: p = i%d < 2\nbz p, X%d\n", i, i, i, i);
	buf_puts(&b, "x = 1\n");
	for (int i = n - 1; i >= 0; i--)
		buf_printf(&b, "i%d = i%d + 1\njump H%d\nX%d: sync\n", i, i, i, i);
	buf_puts(&b, "stop\n");
	return buf_steal(&b);
}

static size_t cfg_text_size(const char *src)
{
	Prog r = load(src);
	Buf b = {0};
	cfg_print(&b, r.p, r.g);
	size_t n = b.len;
	buf_free(&b);
	unload(&r);
	return n;
}

/* 3000 nested loops and 3000 branches into one block: dominators, loops
** and their nesting, the numbering and the printer, without recursion and
** in near-linear time (the unit suite's time limit guards it). */
Test(cfg, deep_loops_and_wide_joins)
{
	int n = 3000;
	char *src = nested_loops(n);
	Prog r = load(src);
	const Cfg *g = r.g;
	cr_assert_eq(g->nloops, n);
	/* latches come innermost first: L0 is the innermost loop, L(n-1) the
	** outermost. Own blocks: the header, the block before the inner loop's
	** header and the inner loop's exit (the latch); innermost: the header
	** and the body, which is the latch. */
	for (int32_t l = 0; l < n; l++) {
		const Loop *L = &g->loops[l];
		cr_expect_eq(L->depth, n - l);
		cr_expect_eq(L->parent, l == n - 1 ? -1 : l + 1);
		cr_expect_eq(L->nown, l == 0 ? 2 : 3);
		cr_expect_eq(L->nblocks, 3 * (l + 1) - 1);
		cr_expect(cfg_loop_contains(g, l, L->header));
		if (l > 0)
			cr_expect(!cfg_loop_contains(g, l - 1, L->header));
	}
	unload(&r);
	/* the printout grows linearly: ten times the loops, ten times the text */
	char *small = nested_loops(n / 10);
	size_t big_len = cfg_text_size(src), small_len = cfg_text_size(small);
	cr_expect_lt(big_len, 12 * small_len, "%zu bytes for %d loops, %zu for %d", big_len, n, small_len, n / 10);
	free(small);
	free(src);

	Buf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "p = tid == %d\nbnz p, T\nx = %d\n", i, i);
	buf_puts(&b, "T: sync\nstop\n");
	src = buf_steal(&b);
	r = load(src);
	g = r.g;
	int32_t t = g->nblocks - 1;
	cr_assert_eq(g->blocks[t].npred, n + 1);
	for (int32_t k = 0; k < g->blocks[t].npred; k++) {
		cr_expect_eq(cfg_phi_index(g, t, g->blocks[t].pred[k]), k);
		cr_expect_eq(g->blocks[k].ipdom, t);
	}
	cr_expect_eq(g->blocks[t].idom, 0);
	unload(&r);
	free(src);
}

/* ---- reads before assignment (validate.c) ------------------------------- */

/* The warnings of a program that loads, one "LINE:COL: message" line each. */
static char *warnings_of(const char *src)
{
	Prog r = load(src);
	Buf b = {0};
	for (int i = 0; i < r.d.n; i++)
		if (r.d.v[i].sev == SEV_WARNING)
			buf_printf(&b, "%d:%d: %s\n", r.d.v[i].loc.line, diag_col(src, strlen(src), r.d.v[i].loc.off), r.d.v[i].msg);
	unload(&r);
	return buf_steal(&b);
}

#define EXPECT_WARNINGS(src, want)                                                   \
	do {                                                                             \
		char *w_ = warnings_of(src);                                                 \
		cr_expect_str_eq(w_, want, "program:\n%s", src);                             \
		free(w_);                                                                    \
	} while (0)

/* Assigned on both sides of an if-else: no assignment dominates the read,
** yet every path assigns; a variable read and never assigned is named as
** such. */
Test(validate, reads_after_if_else)
{
	EXPECT_WARNINGS("p = tid & 1\n"
	                "bz p, E\n"
	                "y = 1\n"
	                "jump J\n"
	                "E: y = 2\n"
	                "J: sync\n"
	                "z = y + w\n"
	                "mem[tid] = z\n"
	                "stop\n",
	                "7:9: variable 'w' is never assigned: reading it is an error at run time (rule MV)\n");
	EXPECT_WARNINGS("p = tid & 1\n"
	                "bz p, J\n"
	                "y = 1\n"
	                "J: sync\n"
	                "mem[tid] = y\n"
	                "stop\n",
	                "5:12: variable 'y' may be read before it is assigned\n");
}

/* One warning per variable, at its first read in reverse post-order: the
** taken side of a branch comes before the fall-through side there, so the
** read on line 5 is named, not the one on line 3. */
Test(validate, reads_warned_once_in_reverse_post_order)
{
	EXPECT_WARNINGS("p = tid & 1\n"
	                "bz p, B\n"
	                "mem[tid] = x\n"
	                "jump J\n"
	                "B: mem[tid] = x\n"
	                "J: sync\n"
	                "x = 1\n"
	                "stop\n",
	                "5:15: variable 'x' may be read before it is assigned\n");
}

/* A loop: s is assigned in the body only; the first read in reverse
** post-order is after the loop (line 8), which the zero-trip path reaches
** without an assignment. An assignment in the same block after the read
** does not count. */
Test(validate, reads_around_loops)
{
	EXPECT_WARNINGS("i = 0\n"
	                "H: p = i < 3\n"
	                "bz p, X\n"
	                "s = s + i\n"
	                "i = i + 1\n"
	                "jump H\n"
	                "X: sync\n"
	                "mem[tid] = s\n"
	                "stop\n",
	                "8:12: variable 's' may be read before it is assigned\n");
	EXPECT_WARNINGS("x = x + 1\n"
	                "x = 2\n"
	                "stop\n",
	                "1:5: variable 'x' may be read before it is assigned\n");
}

/* μ operands are read at the end of the edge they come from: i3 is not
** assigned on the path through L; a μ in the first block reads its entry
** operand on entry, where only parameters are assigned. */
Test(validate, reads_of_mu_operands)
{
	EXPECT_WARNINGS("i0 = 0\n"
	                "H: i1 = mu(i0, i3)\n"
	                "p = i1 < 3\n"
	                "bz p, X\n"
	                "q = tid & 1\n"
	                "bz q, L\n"
	                "i2 = i1 + 1\n"
	                "i3 = i2\n"
	                "L: jump H\n"
	                "X: stop\n",
	                "2:16: variable 'i3' may be read before it is assigned\n");
	EXPECT_WARNINGS(".param n = 3\n"
	                "H: i1 = mu(i0, i2)\n"
	                "j1 = mu(n, j2)\n"
	                "i2 = i1 + 1\n"
	                "j2 = j1 + 1\n"
	                "p = i2 < 3\n"
	                "bnz p, H\n"
	                "i0 = 5\n"
	                "stop\n",
	                "2:12: variable 'i0' may be read before it is assigned\n");
}

/* The GSA group at the start of a block assigns its destinations together,
** after it: a γ whose predicate is another γ of the group reads it
** unassigned; of γ only the predicate is read on every path. */
Test(validate, reads_in_gsa_groups)
{
	EXPECT_WARNINGS("p = tid & 1\n"
	                "bz p, J\n"
	                "y = 1\n"
	                "J: a = gamma(p, y, 0)\n"
	                "b = gamma(a, 1, 2)\n"
	                "c = a + b\n"
	                "mem[tid] = c\n"
	                "stop\n",
	                "5:11: variable 'a' may be read before it is assigned\n");
}

/* The analysis against its definition, on random programs: the data-flow
** problem solved densely (the sets of variables assigned on every path
** into each block, to a fixpoint over the reverse post-order), then the
** reads visited in the documented order, each variable warned at most
** once. Programs in SSA form exercise μ, φ and γ (misplaced ones too: the
** check runs on programs with GSA placement errors). */
static char *random_reads_program(unsigned *seed, bool ssa)
{
	static const char *const vars[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
	int n = 3 + rand_r(seed) % 35, nlab = 1 + rand_r(seed) % 6;
	int where[6];
	for (int l = 0; l < nlab; l++)
		where[l] = rand_r(seed) % n;
	bool assigned[8] = {false};
	Buf b = {0};
	buf_puts(&b, ".param n = 3\n");
#define OPND() (rand_r(seed) % 5 == 0 ? "n" : rand_r(seed) % 6 == 0 ? "tid" : vars[rand_r(seed) % 8])
	for (int i = 0; i < n; i++) {
		for (int l = 0; l < nlab; l++)
			if (where[l] == i)
				buf_printf(&b, "L%d: ", l);
		int r = rand_r(seed) % 100, t = rand_r(seed) % nlab, v = rand_r(seed) % 8;
		if (ssa && r < 50 && assigned[v])
			r = 90; /* SSA: one assignment per variable; a store instead */
		if (r < 30)
			buf_printf(&b, "%s = %s + %s\n", vars[v], OPND(), OPND());
		else if (r < 34)
			buf_printf(&b, "%s = %s\n", vars[v], OPND());
		else if (r < 38 && ssa)
			buf_printf(&b, "%s = phi(%s, %s)\n", vars[v], OPND(), OPND());
		else if (r < 44 && ssa)
			buf_printf(&b, "%s = mu(%s, %s)\n", vars[v], OPND(), OPND());
		else if (r < 50 && ssa)
			buf_printf(&b, "%s = gamma(%s, %s, %s)\n", vars[v], OPND(), OPND(), OPND());
		else if (r < 50)
			buf_printf(&b, "%s = %s * 2\n", vars[v], OPND());
		else if (r < 62)
			buf_printf(&b, "bz %s, L%d\n", OPND(), t);
		else if (r < 70)
			buf_printf(&b, "bnz %s, L%d\n", OPND(), t);
		else if (r < 78)
			buf_printf(&b, "jump L%d\n", t);
		else if (r < 82)
			buf_puts(&b, "stop\n");
		else if (r < 86)
			buf_puts(&b, "sync\n");
		else
			buf_printf(&b, "mem[%s] = %s\n", OPND(), OPND());
		if (r < 50)
			assigned[v] = true;
	}
#undef OPND
	buf_puts(&b, "stop\n");
	return buf_steal(&b);
}

typedef struct RefRead {
	const Opnd *o;
	uint64_t defined;
} RefRead;

static void ref_warn(const Program *p, const Ins *ins, const Opnd *o, uint64_t defined, bool *warned, Buf *out)
{
	Loc at = ir_opnd_loc(ins, o);
	if (o->kind != OPND_VAR || (defined >> o->var & 1) || warned[o->var])
		return;
	warned[o->var] = true;
	bool assigned = false;
	for (int32_t pc = 0; pc < p->nins; pc++)
		assigned |= p->ins[pc].dst == o->var;
	if (!assigned)
		buf_printf(out, "%d:%d: variable '%s' is never assigned: reading it is an error at run time (rule MV)\n",
		           at.line, diag_col(p->src, p->srclen, at.off), p->vars[o->var].name);
	else
		buf_printf(out, "%d:%d: variable '%s' may be read before it is assigned\n", at.line, diag_col(p->src, p->srclen, at.off),
		           p->vars[o->var].name);
}

static void reference_reads(const Program *p, const Cfg *g, Buf *out)
{
	uint64_t entry = 0, in[64], outs[64];
	for (int32_t v = 0; v < p->nvars; v++)
		if (p->vars[v].is_param)
			entry |= 1ull << v;
	for (int32_t b = 0; b < g->nblocks; b++)
		outs[b] = ~0ull;
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t k = 0; k < g->nrpo; k++) {
			int32_t b = g->rpo[k];
			const Block *bb = &g->blocks[b];
			uint64_t cur = b == 0 ? entry : ~0ull;
			for (int32_t j = 0; j < bb->npred; j++)
				if (g->blocks[bb->pred[j]].reachable)
					cur &= outs[bb->pred[j]];
			in[b] = cur;
			for (int32_t pc = bb->first; pc <= bb->last; pc++)
				if (p->ins[pc].dst >= 0)
					cur |= 1ull << p->ins[pc].dst;
			if (cur != outs[b]) {
				outs[b] = cur;
				changed = true;
			}
		}
	}
	bool warned[64] = {false};
	Diags d;
	diag_init(&d, "t.simd", p->src, p->srclen);
	Buf raw = {0};
	for (int32_t k = 0; k < g->nrpo; k++) {
		int32_t b = g->rpo[k];
		const Block *bb = &g->blocks[b];
		uint64_t cur = in[b];
		for (int32_t pc = bb->first; pc < bb->first + bb->ngsa; pc++) {
			const Ins *ins = &p->ins[pc];
			if (ins->op != OP_MU && ins->op != OP_PHI)
				continue;
			for (int32_t j = 0; j < bb->npred; j++) {
				int32_t q = bb->pred[j];
				if (!g->blocks[q].reachable)
					continue;
				int32_t ix = ins->op == OP_MU ? cfg_mu_index(g, b, q) : j;
				if (ix < ins->nargs)
					ref_warn(p, ins, &ins->args[ix], outs[q], warned, &raw);
			}
			if (b == 0 && ins->op == OP_MU && ins->nargs > 0)
				ref_warn(p, ins, &ins->args[0], entry, warned, &raw);
		}
		for (int32_t pc = bb->first; pc <= bb->last; pc++) {
			const Ins *ins = &p->ins[pc];
			if (!ir_is_gsa(ins->op)) {
				ref_warn(p, ins, &ins->a, cur, warned, &raw);
				ref_warn(p, ins, &ins->b, cur, warned, &raw);
				ref_warn(p, ins, &ins->c, cur, warned, &raw);
			} else if (ins->op == OP_GAMMA || ins->op == OP_ETA) {
				ref_warn(p, ins, &ins->a, cur, warned, &raw);
			}
			if (ins->dst >= 0 && pc >= bb->first + bb->ngsa)
				cur |= 1ull << ins->dst;
			if (pc == bb->first + bb->ngsa - 1)
				for (int32_t j = bb->first; j <= pc; j++)
					if (p->ins[j].dst >= 0)
						cur |= 1ull << p->ins[j].dst;
		}
	}
	/* ir_load sorts its diagnostics by position: sort the lines alike */
	int nl = 0;
	char *lines[64];
	for (char *s = raw.s, *e; s && *s; s = e + 1) {
		e = strchr(s, '\n');
		*e = '\0';
		lines[nl++] = s;
	}
	for (int i = 1; i < nl; i++)
		for (int j = i; j > 0; j--) {
			int l1, c1, l2, c2;
			sscanf(lines[j - 1], "%d:%d", &l1, &c1);
			sscanf(lines[j], "%d:%d", &l2, &c2);
			if (l1 < l2 || (l1 == l2 && c1 <= c2))
				break;
			char *t = lines[j];
			lines[j] = lines[j - 1];
			lines[j - 1] = t;
		}
	for (int i = 0; i < nl; i++)
		buf_printf(out, "%s\n", lines[i]);
	buf_free(&raw);
	diag_free(&d);
}

Test(validate, reads_against_dense_reference)
{
	unsigned seed = 777;
	int compared = 0, warned = 0;
	for (int i = 0; i < 3000; i++) {
		char *src = random_reads_program(&seed, i % 2 == 1);
		size_t len = strlen(src);
		Diags pd;
		diag_init(&pd, "t.simd", src, len);
		Program *parsed = ir_parse("t.simd", src, len, &pd);
		bool parses = pd.nerrors == 0 && parsed->nins > 0;
		ir_free(parsed);
		diag_free(&pd);
		if (!parses) {
			free(src);
			continue;
		}
		Diags d;
		diag_init(&d, "t.simd", src, len);
		Program *p = ir_load("t.simd", src, len, &d);
		Buf got = {0}, want = {0};
		for (int k = 0; k < d.n; k++)
			if (d.v[k].sev == SEV_WARNING && strstr(d.v[k].msg, "assigned"))
				buf_printf(&got, "%d:%d: %s\n", d.v[k].loc.line, diag_col(src, len, d.v[k].loc.off), d.v[k].msg);
		Cfg *g = cfg_build(p);
		cr_assert(g->nblocks < 64 && p->nvars < 64);
		reference_reads(p, g, &want);
		cr_expect_str_eq(buf_str(&got), buf_str(&want), "program:\n%s", src);
		compared++;
		warned += got.len > 0;
		cfg_free(g);
		buf_free(&got);
		buf_free(&want);
		ir_free(p);
		diag_free(&d);
		free(src);
	}
	cr_expect_gt(compared, 1500, "%d programs compared", compared);
	cr_expect_gt(warned, 500, "%d programs with warnings", warned);
}

/* The frontier of the block labelled `at`, as "bb3 out" (labels, in
** priority order). */
static char *frontier_of(const Program *p, const Frontiers *f, const char *at)
{
	const Cfg *g = p->cfg;
	int32_t blk = g->block_of[p->labels[ir_find_label(p, at)].ins];
	Buf b = {0};
	for (int32_t i = f->start[blk]; i < f->start[blk + 1]; i++)
		buf_printf(&b, "%s%s", i > f->start[blk] ? " " : "", ir_label_of(p, g->blocks[f->set[i]].first));
	char *s = xstrdup(buf_str(&b));
	buf_free(&b);
	return s;
}

/* Diamos et al. 2011, Figure 1 and Algorithm 1 (seed 002 digest §5.5,
** §11.2 D1): the frontiers of the paper's six steps, the same in reverse
** post-order and in program order here (the layout is topological). */
Test(cfg, thread_frontiers_of_figure_1)
{
	char path[512];
	snprintf(path, sizeof path, "%s/unstructured.simd", examples_dir());
	size_t len = 0;
	char *src = read_file(path, &len);
	cr_assert(src);
	Prog t = load(src);
	for (int by = FRONTIER_RPO; by <= FRONTIER_LAYOUT; by++) {
		Frontiers *f = frontiers_build(t.g, (FrontierOrder)by);
		const char *want[][2] = {{"bb1", ""},         {"bb2", "bb3"}, {"bb3", "exit"},
		                         {"bb4", "bb5 exit"}, {"bb5", "exit"}, {"exit", ""}};
		for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
			char *got = frontier_of(t.p, f, want[k][0]);
			cr_expect_str_eq(got, want[k][1], "TF(%s)", want[k][0]);
			free(got);
		}
		frontiers_free(f);
	}
	unload(&t);
	free(src);
}

/* Figure 2(c)/(d)'s loop (D3): bb3, taken by one thread, jumps back up
** to bb2, where the threads meet again. Reverse post-order, the paper's
** priorities, runs bb3 before bb2, so the thread in bb3 is not waited
** for: TF(bb3) = {bb2}, TF(bb2) = {}. Program order (the "wrong"
** priorities of Figure 2(c)) runs bb2 first, with bb3 in its frontier. */
Test(cfg, thread_frontiers_follow_the_priorities)
{
	Prog t = load(".threads 2\n"
	              "init: i = 0\n"
	              "bb0:  i = i + 1\n"
	              "bb1:  p = tid == 1\n"
	              "      bnz p, bb3\n"
	              "bb2:  q = i < 3\n"
	              "      bnz q, bb0\n"
	              "      jump bb4\n"
	              "bb3:  jump bb2\n"
	              "bb4:  stop\n");
	Frontiers *rpo = frontiers_build(t.g, FRONTIER_RPO), *lay = frontiers_build(t.g, FRONTIER_LAYOUT);
	char *a = frontier_of(t.p, rpo, "bb3"), *b = frontier_of(t.p, rpo, "bb2"), *c = frontier_of(t.p, lay, "bb2");
	cr_expect_str_eq(a, "bb2", "reverse post-order: TF(bb3)");
	cr_expect_str_eq(b, "", "reverse post-order: TF(bb2)");
	cr_expect_str_eq(c, "bb3", "program order: TF(bb2)");
	free(a);
	free(b);
	free(c);
	frontiers_free(rpo);
	frontiers_free(lay);
	unload(&t);
}
