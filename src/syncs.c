/*
** syncs.c — the sync structure of a program against the sync model
** (syncs.h).
**
** The check explores abstract states (pc, Π) where Π is the sequence of
** the branches whose nodes are on the synchronisation stack, bottom first,
** hash-consed; every branch may diverge, so a branch leads to both sides
** and a sync both switches to the deferred side (SS: the branch's target)
** and pops (SP: the next instruction). The exploration is breadth first
** with an explicit queue and a limit on the states, so it says so when it
** gives up.
*/
#include "syncs.h"

#include "cfg.h"

#include <stdlib.h>
#include <string.h>

#define SYNCS_MAX_STATES 200000

typedef struct StackNode {
	int32_t branch; /* pc of the branch whose node this is */
	int32_t below;  /* the stack under it (an id), 0: empty */
	int32_t depth;
} StackNode;

typedef struct Explore {
	const Program *p;
	const Cfg *g;
	StackNode *nodes;          /* id 0 is the empty stack */
	int32_t nnodes, capnodes;
	int32_t *nht, nhtcap;      /* node hash: id + 1 */
	uint64_t *seen;            /* state hash set: (pc << 32 | stack) + 1, 0 empty */
	size_t seencap, nseen;
	int32_t *queue;            /* pairs (pc, stack) */
	size_t qhead, qn, qcap;
	bool full;
} Explore;

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static int32_t push_node(Explore *e, int32_t below, int32_t branch)
{
	if (2 * (e->nnodes + 1) > e->nhtcap) {
		free(e->nht);
		e->nhtcap = e->nhtcap ? 2 * e->nhtcap : 256;
		e->nht = xcalloc((size_t)e->nhtcap, sizeof *e->nht);
		for (int32_t i = 1; i < e->nnodes; i++) {
			uint32_t h = (uint32_t)mix64((uint64_t)(uint32_t)e->nodes[i].branch << 32 | (uint32_t)e->nodes[i].below);
			uint32_t k = h & (uint32_t)(e->nhtcap - 1);
			while (e->nht[k])
				k = (k + 1) & (uint32_t)(e->nhtcap - 1);
			e->nht[k] = i + 1;
		}
	}
	uint32_t h = (uint32_t)mix64((uint64_t)(uint32_t)branch << 32 | (uint32_t)below);
	uint32_t k = h & (uint32_t)(e->nhtcap - 1);
	for (; e->nht[k]; k = (k + 1) & (uint32_t)(e->nhtcap - 1)) {
		const StackNode *n = &e->nodes[e->nht[k] - 1];
		if (n->branch == branch && n->below == below)
			return e->nht[k] - 1;
	}
	StackNode n = {branch, below, e->nodes[below].depth + 1};
	VEC_PUSH(e->nodes, e->nnodes, e->capnodes, n);
	e->nht[k] = e->nnodes;
	return e->nnodes - 1;
}

/* Queue state (pc, stack) unless seen. */
static void visit(Explore *e, int32_t pc, int32_t stack)
{
	if (pc < 0 || pc >= e->p->nins)
		return;
	if (e->nseen >= SYNCS_MAX_STATES) {
		e->full = true;
		return;
	}
	if (2 * (e->nseen + 1) > e->seencap) {
		uint64_t *old = e->seen;
		size_t oldcap = e->seencap;
		e->seencap = oldcap ? 2 * oldcap : 1024;
		e->seen = xcalloc(e->seencap, sizeof *e->seen);
		for (size_t i = 0; i < oldcap; i++)
			if (old[i]) {
				size_t k = (size_t)mix64(old[i]) & (e->seencap - 1);
				while (e->seen[k])
					k = (k + 1) & (e->seencap - 1);
				e->seen[k] = old[i];
			}
		free(old);
	}
	uint64_t key = ((uint64_t)(uint32_t)pc << 32 | (uint32_t)stack) + 1;
	size_t k = (size_t)mix64(key) & (e->seencap - 1);
	for (; e->seen[k]; k = (k + 1) & (e->seencap - 1))
		if (e->seen[k] == key)
			return;
	e->seen[k] = key;
	e->nseen++;
	if (e->qn + 2 > e->qcap) {
		e->qcap = e->qcap ? 2 * e->qcap : 1024;
		e->queue = xrealloc(e->queue, e->qcap * sizeof *e->queue);
	}
	e->queue[e->qn++] = pc;
	e->queue[e->qn++] = stack;
}

/* ---- the problems ----------------------------------------------------------------- */

typedef struct Report {
	Diags *d;
	const Program *p;
	const Cfg *g;
	int32_t n, max;
	int32_t *said;       /* per pc: problems reported there (bit per kind) */
} Report;

enum { K_SF = 1, K_SP = 2, K_GROW = 4 };

static void where(Buf *b, const Program *p, int32_t pc)
{
	ir_print_where(b, p, pc);
	buf_printf(b, " (line %d)", (int)p->ins[pc].loc.line);
}

/* Does a loop with several exit edges contain the branch? Its name in *b. */
static bool in_multi_exit_loop(const Program *p, const Cfg *g, int32_t bpc, Buf *b)
{
	int32_t blk = g->block_of[bpc];
	for (int32_t l = g->blocks[blk].loop; l >= 0; l = g->loops[l].parent) {
		const Loop *L = &g->loops[l];
		int32_t exits = 0;
		for (int32_t i = 0; i < L->nblocks; i++) {
			const Block *x = &g->blocks[L->blocks[i]];
			for (int32_t k = 0; k < x->nsucc; k++) {
				int32_t s = x->succ[k];
				bool in = false;
				for (int32_t m = s < g->nblocks ? g->blocks[s].loop : -1; m >= 0 && !in; m = g->loops[m].parent)
					in = m == l;
				exits += !in;
			}
		}
		if (exits > 1) {
			buf_puts(b, "the loop at ");
			where(b, p, g->blocks[L->header].first);
			buf_printf(b, " has %d exit edges", (int)exits);
			return true;
		}
	}
	return false;
}

/* The note that says where the sync of branch bpc belongs, or why none fits. */
static void note_branch(Report *r, int32_t bpc, Loc at)
{
	const Program *p = r->p;
	const Cfg *g = r->g;
	Buf b = {0}, lp = {0};
	buf_puts(&b, "the node is the branch's at ");
	where(&b, p, bpc);
	int32_t j = g->blocks[g->block_of[bpc]].ipdom;
	if (in_multi_exit_loop(p, g, bpc, &lp)) {
		buf_printf(&b, "; %s: no sync can pop its nodes on every path, so the sync model cannot "
		               "run it (musimd syncs says so; run it under ipdom or mimd)",
		           buf_str(&lp));
	} else if (j < 0 || j >= g->nblocks) {
		buf_puts(&b, "; its paths meet only at the end of the program: end them with `exit` "
		             "instead of `stop` (exit resumes the deferred threads)");
	} else {
		buf_puts(&b, "; it reconverges at ");
		where(&b, p, g->blocks[j].first);
		buf_puts(&b, " (its immediate post-dominator): a sync belongs there, one per branch "
		             "that reconverges there, innermost first (musimd syncs places them)");
	}
	diag_note(r->d, at, "%s", buf_str(&b));
	buf_free(&b);
	buf_free(&lp);
}

/* A sync where several branches reconverge, reached by paths that carry
** different numbers of their nodes (a short-circuit's shared target). */
static void note_shared(Report *r, int32_t pc)
{
	const Program *p = r->p;
	const Cfg *g = r->g;
	int32_t blk = g->block_of[pc], n = 0;
	Buf b = {0};
	for (int32_t x = 0; x < g->nblocks; x++) {
		const Block *bx = &g->blocks[x];
		if (!bx->reachable || bx->ipdom != blk || !ir_is_branch((Op)p->ins[bx->last].op))
			continue;
		if (n++ < 6) {
			buf_puts(&b, n > 1 ? ", " : "");
			where(&b, p, bx->last);
		}
	}
	if (n >= 2)
		diag_note(r->d, p->ins[pc].loc,
		          "%d branches reconverge at this block (%s) and some path reaches it with fewer of "
		          "their nodes than syncs (a target they share, as a short-circuit's else block): no "
		          "count of syncs here fits every path; each branch needs its own copy of the shared "
		          "block",
		          (int)n, buf_str(&b));
	buf_free(&b);
}

static bool report(Report *r, int32_t pc, int kind)
{
	if (r->n >= r->max || (r->said[pc] & kind))
		return false;
	r->said[pc] |= kind;
	r->n++;
	return true;
}

/* ---- the exploration ------------------------------------------------------------ */

int32_t syncs_check(const Program *p, Diags *d, int32_t max_issues)
{
	const Cfg *g = p->cfg;
	if (!g || p->nins == 0)
		return 0;
	Explore e = {.p = p, .g = g};
	StackNode empty = {-1, 0, 0};
	VEC_PUSH(e.nodes, e.nnodes, e.capnodes, empty);
	Report r = {.d = d, .p = p, .g = g, .max = max_issues > 0 ? max_issues : 16};
	r.said = xcalloc((size_t)p->nins + 1, sizeof *r.said);
	int32_t nbranch = 0;
	for (int32_t pc = 0; pc < p->nins; pc++)
		nbranch += ir_is_branch((Op)p->ins[pc].op);
	int32_t maxdepth = nbranch + 2;
	visit(&e, 0, 0);
	while (e.qhead < e.qn) {
		int32_t pc = e.queue[e.qhead++], st = e.queue[e.qhead++];
		const Ins *ins = &p->ins[pc];
		const Block *blk = &g->blocks[g->block_of[pc]];
		const StackNode *top = &e.nodes[st];
		bool sync = ins->op == OP_SYNC || (blk->implicit_sync && pc == blk->first);
		if (sync) {
			if (st == 0) {
				if (report(&r, pc, K_SP))
					diag_warning(d, ins->loc,
					             "under --model sync a run can get stuck here (rule SP): a path "
					             "reaches this sync with no branch on the synchronisation stack, "
					             "so it is not the reconvergence point of a branch on that path");
				note_shared(&r, pc);
				continue;
			}
			int32_t next = pc + (blk->implicit_sync && pc == blk->first ? blk->ngsa : 1);
			visit(&e, next, top->below);                  /* SP */
			visit(&e, p->ins[top->branch].target, st);    /* SS: the deferred side */
			continue;
		}
		switch ((Op)ins->op) {
		case OP_BZ:
		case OP_BNZ: {
			int32_t ns = top->branch == pc ? st : push_node(&e, st, pc);
			if (e.nodes[ns].depth > maxdepth) {
				if (report(&r, pc, K_GROW)) {
					diag_warning(d, ins->loc,
					             "under --model sync the synchronisation stack grows here without "
					             "bound: this branch pushes a node on every pass and no sync pops it "
					             "(the run ends at the memory or step limit)");
					note_branch(&r, pc, ins->loc);
				}
				continue;
			}
			visit(&e, pc + 1, ns);
			visit(&e, ins->target, ns);
			break;
		}
		case OP_JUMP: visit(&e, ins->target, st); break;
		case OP_STOP:
			if (st != 0 && report(&r, pc, K_SF)) {
				diag_warning(d, ins->loc,
				             "under --model sync a run can get stuck here (rule SF): this stop can be "
				             "reached with a node still on the synchronisation stack");
				note_branch(&r, top->branch, ins->loc);
			}
			break;
		case OP_EXIT: break; /* the deferred threads resume: their paths are explored */
		default: visit(&e, pc + 1, st); break;
		}
	}
	if (e.full)
		diag_note(d, LOC_NONE,
		          "the sync check stopped after %d states of the synchronisation stack: what it "
		          "reports may be incomplete",
		          SYNCS_MAX_STATES);
	int32_t n = e.full ? -1 : r.n;
	free(r.said);
	free(e.nodes);
	free(e.nht);
	free(e.seen);
	free(e.queue);
	return n;
}
