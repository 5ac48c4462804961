/*
** gate.h — the gating function of a join (Tu & Padua 1995, "Efficient
** building and placing of gating functions"): which branches decide the
** edge by which a thread reaches a join block J, as a decision DAG over the
** conditional branches between J's immediate dominator D and J.
**
** The DAG is the value V(D) of the walk below, over the blocks dominated by
** D with back edges removed (an acyclic graph in a reducible CFG):
**   V(X)  = gate(X, V(side taken where X's predicate ≠ 0), V(side where = 0))
**           for a block X ending in bz/bnz, or V(successor) otherwise;
**   an edge into J is its leaf (the φ operand of that predecessor), a back
**   edge, an edge to the virtual exit or out of D's dominance region ⊥ (a
**   thread that takes it does not reach J in this instance);
**   gate(X, t, f) = t when t = f or f = ⊥, f when t = ⊥ (hash-consed).
** A branch X whose immediate post-dominator Y comes before J on every path
** (Y ≠ J and Y does not strictly post-dominate J) cannot decide the edge:
** V(X) = V(Y), which keeps the walk linear in nested code.
**
** Evaluated at J with the values a thread's predicates hold there, the DAG
** follows the path the thread took in its last pass from D (inside a loop
** between D and J, its last iteration): each predicate it reads was written
** before the branch the thread executed last on that path. That is what
** makes a nested γ at J executable (semantics.md §4) and why its
** predicates, read at J, are the gates of the merge (docs/analyses.md).
*/
#ifndef MUSIMD_GATE_H
#define MUSIMD_GATE_H

#include "cfg.h"

enum {
	GATE_BOT = -1,            /* no value: the edge does not reach J */
	GATE_TOO_BIG = INT32_MIN, /* the DAG would exceed the node budget */
};
/* Values: leaves are 0..nleaves-1, ⊥ is GATE_BOT, node k is GATE_NODE(k). */
#define GATE_NODE(k) (-2 - (k))
#define GATE_IS_NODE(v) ((v) <= -2 && (v) != GATE_TOO_BIG)
#define GATE_NODE_INDEX(v) (-2 - (v))

typedef struct GateWalk {
	const Program *p;
	const Cfg *g;
	/* per block, valid while stamp[b] == cur */
	int32_t *stamp, *state, *val;
	int32_t cur;
	/* the DAG's nodes, children before parents */
	int32_t *br;          /* the branch's block */
	int32_t *t, *f;       /* where its predicate is ≠ 0, = 0 */
	int32_t nnodes, capnodes;
	int32_t *ht;          /* hash-consing: node index + 1, 0 empty */
	int32_t htcap;
	/* the walk's stack: block, next edge */
	int32_t *stk, *stki;
	int32_t capstk;
	/* scratch for gate_relabel / gate_size / gate_branches */
	int32_t *tmp;
	int32_t captmp;
} GateWalk;

void gate_init(GateWalk *w, const Program *p, const Cfg *g);
void gate_free(GateWalk *w);

/* The DAG of the edges into J, starting the walk at block D (J's idom for
** a join; J itself for the back edges of a loop header J). leaf[k] labels
** the k-th predecessor of J (Block.pred order): a leaf id ≥ 0, or GATE_BOT
** for an edge whose value does not matter. With loop ≥ 0 the walk stays in
** that loop. Returns the root value, or GATE_TOO_BIG when more than
** max_nodes nodes would be needed (the nodes made so far stay). Each call
** replaces the previous DAG. */
int32_t gate_build(GateWalk *w, int32_t J, int32_t D, const int32_t *leaf, int32_t loop,
                   int32_t max_nodes);

/* The same DAG with leaf l replaced by map[l] (map values: leaf ids or
** GATE_BOT); appends nodes. Returns the new root. */
int32_t gate_relabel(GateWalk *w, int32_t root, const int32_t *map);

/* Size of the DAG under root when printed as a tree (nodes + leaves),
** saturating at limit. */
int32_t gate_tree_size(GateWalk *w, int32_t root, int32_t limit);

/* The branch blocks of the nodes under root, each once, appended to *out
** (a growing array: *n, *cap). */
void gate_branches(GateWalk *w, int32_t root, int32_t **out, int32_t *n, int32_t *cap);

/* The side of a block ending in bz/bnz that threads take where the
** predicate is non-zero (1) or zero (0): its successor index (mnemonic
** polarity: bz jumps where the predicate is 0). */
int32_t gate_succ(const Program *p, const Cfg *g, int32_t blk, bool nonzero);

#endif
