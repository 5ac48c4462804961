/*
** cfg.h — basic blocks, dominators, post-dominators, natural loops.
**
** Blocks follow language.md §4.3: a block starts at the first instruction,
** at every branch or jump target and after every bz, bnz, jump, stop and
** exit; a label alone does not start a block, and sync/barrier do not end
** one. Post-dominance is computed on the reverse graph with a virtual exit
** (index nblocks) that every stop/exit block reaches; blocks that cannot
** reach a stop or exit (endless loops) get an edge to it too, so every
** reachable block has an immediate post-dominator.
**
** Calls (musimd-lang(7), Functions): `call` and `ret` end a block; the
** graph is intraprocedural — a call block falls through to the return
** point, a ret block goes to the virtual exit — and each function is a
** region of it entered only by calls (Block.callee, Cfg.func_of).
*/
#ifndef MUSIMD_CFG_H
#define MUSIMD_CFG_H

#include "ir.h"

typedef struct Block {
	int32_t first, last;  /* instruction range, inclusive */
	int32_t *succ;        /* successors (virtual exit = Cfg.nblocks); branch: [fall-through, target] */
	int32_t nsucc;        /* at most 2 */
	int32_t callee;       /* a block ending with `call`: the block of its target, else -1. The
	                      ** call is not an edge of succ/pred (post-dominance and φ see a call
	                      ** as an ordinary instruction: the return comes back to the next one,
	                      ** and a `ret` block goes to the virtual exit); reachability, the
	                      ** dominators and the priorities follow it */
	int32_t succ_phi[2];  /* position of this block among succ[k]'s predecessors */
	int32_t *pred;        /* predecessors, in program order, each once */
	int32_t npred;
	int32_t idom;         /* immediate dominator; -1 for the entry and unreachable blocks */
	int32_t ipdom;        /* immediate post-dominator (Cfg.nblocks = virtual exit); defined for
	                      ** every block, reachable from the entry or not, since every
	                      ** block reaches the exit (with the added edges) */
	bool reachable;       /* from the entry */
	int32_t prio;         /* thread-frontier priority, 0 the highest: a reverse post-order in which
	                      ** every loop's body comes before its exits (cfg.c); -1 unreachable */
	int32_t ngsa;         /* GSA instructions at the start of the block */
	bool implicit_sync;   /* starts with a γ or η: an implicit sync (semantics.md §4) */
	bool feeds_gsa;       /* a successor starts with a GSA group: the edges out of this block
	                      ** are read (Machine.from_block); no other edge is */
	int32_t loop;         /* innermost loop containing the block, or -1 */
	int32_t *mu_index;    /* for a loop header: per predecessor (same order as pred), the μ
	                      ** operand the edge selects (0 entry, k the k-th back edge); else NULL */
	int32_t loop_pos;     /* position in Cfg.loop_body (cfg_loop_contains), -1 outside loops */
	/* pre-order number and the last pre-order number of the subtree, in the
	** dominator tree and in the post-dominator tree (rooted at the virtual
	** exit): a dominates b iff dom_pre[a] <= dom_pre[b] <= dom_last[a].
	** -1 for blocks not in the tree (unreachable ones in the dominator tree). */
	int32_t dom_pre, dom_last, pdom_pre, pdom_last;
	/* depth in the dominator tree (entry 0, -1 unreachable); the head of the
	** block's heavy path and its position on Cfg.dom_path (cfg_dom_lca) */
	int32_t dom_depth, dom_head, dom_hpos;
} Block;

/* Natural loops, one per header (back edges u → h, h dominating u, share
** their loop). Two loops are disjoint or nested. The bodies are laid out
** in one array (Cfg.loop_body) so that every loop's body is a contiguous
** range of it: the loop's own blocks (those in no inner loop) ascending,
** the header among them, then the body of each inner loop, in ascending
** order of their headers. So the bodies take linear space however deep
** loops nest. */
typedef struct Loop {
	int32_t header;
	int32_t *blocks;      /* body (points into Cfg.loop_body): own blocks, then inner loops */
	int32_t nblocks;
	int32_t nown;         /* blocks[0..nown-1]: the blocks in no inner loop, ascending */
	int32_t *latches;     /* sources of the back edges, in program order */
	int32_t nlatches;
	int32_t parent;       /* enclosing loop or -1 */
	int32_t depth;        /* 1 for an outermost loop, parent's depth + 1 inside */
} Loop;

typedef struct Cfg {
	int32_t nblocks;      /* blocks 0..nblocks-1; nblocks is the virtual exit */
	Block *blocks;
	int32_t *block_of;    /* pc → block */
	int32_t *rpo;         /* reachable blocks in reverse post-order */
	int32_t nrpo;
	Loop *loops;
	int32_t nloops;
	int32_t *loop_body;   /* storage of the loop bodies (Loop.blocks) */
	int32_t *edge_store;  /* storage of the successor and predecessor lists */
	int32_t *dom_path;    /* the dominator tree's heavy paths, each top-down, one after another */
	/* functions (calls.c): function 0 is the kernel's body ("main", entered at
	** pc 0), then one per distinct call target, in program order of the
	** targets; func_of[b] the function whose region holds block b (-1: no
	** region reaches it); max_call_depth the longest chain of calls from main
	** (the call graph is acyclic), which bounds every thread's return stack */
	int32_t nfuncs;
	int32_t *func_entry;  /* per function: its entry pc */
	int32_t *func_of;     /* per block */
	int32_t *func_height; /* per function: the longest chain of calls below it */
	int32_t max_call_depth;
} Cfg;

Cfg *cfg_build(const Program *p);
void cfg_free(Cfg *g);

bool cfg_is_block_start(const Cfg *g, int32_t pc);
bool cfg_dominates(const Cfg *g, int32_t a, int32_t b);     /* block a dominates block b */
bool cfg_postdominates(const Cfg *g, int32_t a, int32_t b); /* a post-dominates b (a may be the exit) */
/* Nearest common dominator of reachable blocks a and b; the dominator of
** reachable block b at depth d (0 <= d <= its depth). O(log blocks), by the
** heavy-path decomposition of the dominator tree. */
int32_t cfg_dom_lca(const Cfg *g, int32_t a, int32_t b);
int32_t cfg_dom_ancestor(const Cfg *g, int32_t b, int32_t depth);
/* Block b lies in loop l (in its body, inner loops included). O(1). */
bool cfg_loop_contains(const Cfg *g, int32_t l, int32_t b);
/* Reconvergence point of the branch at pc: the first instruction of the
** immediate post-dominator of its block, or -1 for the virtual exit. */
int32_t cfg_ipdom_pc(const Cfg *g, int32_t pc);
/* Index of the φ operand for the edge pred → block (position of pred among
** the block's predecessors), or -1. O(1). */
int32_t cfg_phi_index(const Cfg *g, int32_t block, int32_t pred);
/* Index of the μ operand for the edge pred → block: 0 for entry edges,
** k for the k-th back edge (an edge from a block the header dominates). */
int32_t cfg_mu_index(const Cfg *g, int32_t block, int32_t pred);
/* Number of μ operands a header block needs: 1 + number of back edges. */
int32_t cfg_mu_arity(const Cfg *g, int32_t block);

/* `musimd cfg`: blocks, edges, dominator and post-dominator trees, the
** immediate post-dominator of each branch, loops. The output is linear in
** the size of the graph: trees are indented by depth up to a cap, beyond
** which each line states its depth; a loop's body lists its own blocks and
** names its inner loops. */
void cfg_print(Buf *b, const Program *p, const Cfg *g);
void cfg_print_dot(Buf *b, const Program *p, const Cfg *g);

/* ---- functions (calls.c) ------------------------------------------------ */

/* Find the functions of p (g's regions entered by calls) and check them
** (musimd-lang(7), Functions): every call target's region is disjoint from main's
** and the other functions' (a function is the code reachable from its
** entry without following calls, up to its rets); no ret in main's region
** (the return stack is empty there); no recursion (a cycle of the call
** graph). Fills g's nfuncs, func_entry, func_of and max_call_depth; errors
** go to d. Linear in the program. */
void calls_build(const Program *p, Cfg *g, Diags *d);
/* The function whose entry is pc, or -1. */
int32_t cfg_func_at(const Cfg *g, int32_t pc);
/* A function's name: the label of its entry ("main" for function 0). */
void cfg_print_func(Buf *b, const Program *p, const Cfg *g, int32_t f);

#endif
