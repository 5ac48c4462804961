/*
** gsa.c — gated SSA construction for every reducible CFG (analyses.md §1,
** docs/analyses.md §1; Sampaio 2013 §3.3 after Tu & Padua 1995: "γ and η
** functions exist at the post-dominator of the branch that controls them").
**
** Two phases, each ending in a program of its own with its own CFG. Each
** is built directly, exactly as the front end would build it from the text
** `musimd gsa` prints (variables and labels created in the order that text
** names them, a nested γ laid out as the parser lays it out), so printing
** and re-parsing the result gives it back; re-parsing 10^5 lines twice cost
** more than the rest of the conversion (musimd syncs still prints phase A's
** text). Every emitted instruction remembers the instruction of the user's
** file it comes from, and the result is given that file's text and
** locations, so that reports name the user's lines (a derived instruction
** names the line it was derived from).
**
** A. Restructuring.
**    - Join blocks (the papers' structured programs): every conditional
**      branch B whose immediate post-dominator J starts with the syncs that
**      pop the branches reconverging there gets a join block N_B of its
**      own: the edges into J from B's influence region (the blocks between
**      B and J) are redirected to N_B, and N_B flows into the join block of
**      the innermost enclosing branch with the same J, the outermost into
**      the rest of J. The k leading syncs of J become the syncs of the join
**      blocks. A J whose syncs do not match its branches this way (a path
**      crosses a different number of syncs, regions that are not single
**      entry — a short-circuit's shared target —, a loop with several
**      exits) is left alone: its merges are gated in phase B.
**    - Exit blocks: every edge that leaves a loop and is not already the
**      edge into a loop-exit join block gets a block of its own on the edge
**      (`exitN: jump TARGET`) when a value assigned in the loop is live
**      there, to hold the η of that exit.
** B. SSA (Cytron et al.: φ at the iterated dominance frontier, pruned by
**    liveness; renaming along the dominator tree), where every exit block
**    and every loop-exit join block also defines the values assigned in the
**    loops the edge leaves and live after it (η), and then gating:
**    - a φ at a loop header becomes μ (entry operand first, then one per
**      back edge);
**    - a φ at the join block of an if-then(-else) becomes γ(p, o1, o2), o1
**      the value of the side taken where p ≠ 0, and the join block's sync
**      disappears (γ and η are implicit syncs, semantics.md §4);
**    - a φ at any other join becomes the gating function of its
**      predecessors (gate.h): a γ whose value operands may be nested γs
**      over the branches between the join's immediate dominator and it;
**      a DAG too big to print as a small tree (GSA_TREE_MAX) stays a φ,
**      which the analyses gate by the same walk (docs/analyses.md).
**    Versions are named x.0, x.1, ... in the order of their definitions in
**    the output, as the papers name them (d0 = 0, d1 = μ(d0, d2) in
**    sumTriangle); a program already in SSA form with versioned names
**    (x.1, every variable assigned once) keeps its names and the versions
**    the construction adds get the next free suffix. A merge
**    operand on a path where x was never assigned is x.undef, a variable no
**    instruction assigns: GSA copies of it stay unassigned (semantics.md
**    §4), so the program fails exactly where the original would, and the
**    analyses treat it as ⊤.
**
** Nothing here recurses with the size of the program: walks keep explicit
** stacks, liveness is per variable (sparse), and the only recursion, the
** building of a nested γ (b_tree), is bounded by GSA_TREE_MAX.
**
** The construction assumes the mnemonic bz polarity (bz jumps where p = 0).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "gate.h"
#include "gsa.h"
#include "syncs.h"

/* A nested γ prints as a tree: at most this many nodes and leaves. */
#define GSA_TREE_MAX 33
/* Nodes the gating walk may make before giving up on a γ (the DAG). */
#define GSA_DAG_MAX 64

/* ---- helpers ----------------------------------------------------------- */

typedef struct IVec {
	int32_t *v;
	int32_t n, cap;
} IVec;

static void ivec_push(IVec *a, int32_t x)
{
	VEC_PUSH(a->v, a->n, a->cap, x);
}

/* Labels of each instruction, the first label (Ins.label) first. */
typedef struct LabelIndex {
	int32_t *start; /* nins + 1 */
	int32_t *lab;
} LabelIndex;

static void label_index(LabelIndex *x, const Program *p)
{
	int32_t n = p->nins;
	x->start = xcalloc((size_t)n + 2, sizeof *x->start);
	x->lab = xmalloc(((size_t)p->nlabels + 1) * sizeof *x->lab);
	for (int32_t i = 0; i < p->nlabels; i++)
		if (p->labels[i].ins >= 0 && p->labels[i].ins < n)
			x->start[p->labels[i].ins + 1]++;
	for (int32_t pc = 0; pc < n; pc++)
		x->start[pc + 1] += x->start[pc];
	int32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
	memcpy(fill, x->start, ((size_t)n + 1) * sizeof *fill);
	for (int32_t pc = 0; pc < n; pc++)
		if (p->ins[pc].label >= 0)
			x->lab[fill[pc]++] = p->ins[pc].label;
	for (int32_t i = 0; i < p->nlabels; i++) {
		int32_t pc = p->labels[i].ins;
		if (pc >= 0 && pc < n && p->ins[pc].label != i)
			x->lab[fill[pc]++] = i;
	}
	free(fill);
}

static void label_index_free(LabelIndex *x)
{
	free(x->start);
	free(x->lab);
}

static bool loop_contains(const Cfg *g, int32_t loop, int32_t blk)
{
	return cfg_loop_contains(g, loop, blk);
}

/* The outermost loop the edge u → s leaves, or -1. */
static int32_t exited_loop(const Cfg *g, int32_t u, int32_t s)
{
	int32_t out = -1;
	for (int32_t l = g->blocks[u].loop; l >= 0; l = g->loops[l].parent) {
		if (s < g->nblocks && loop_contains(g, l, s))
			break;
		out = l;
	}
	return out;
}

/* `NAME: ` and `jump NAME` lines of the texts the phases write (printf
** costs a fifth of a conversion on large programs). */
static void put_label(Buf *b, const char *name)
{
	buf_puts(b, name);
	buf_puts(b, ": ");
}

static void put_jump(Buf *b, const char *name)
{
	buf_puts(b, "jump ");
	buf_puts(b, name);
	buf_putc(b, '\n');
}

/* Re-parse generated text. The text is ours, so an error is a bug of this
** file: it is reported with the text's line. */
static Program *reparse(const Program *orig, const char *text, size_t len, Diags *d, const char *phase)
{
	Diags d2;
	diag_init(&d2, orig->path, text, len);
	Program *q = ir_load(orig->path, text, len, &d2);
	if (d2.nerrors > 0) {
		for (int i = 0; i < d2.n; i++)
			if (d2.v[i].sev == SEV_ERROR) {
				diag_error(d, LOC_NONE, "internal error in the GSA construction (%s): line %d: %s",
				           phase, (int)d2.v[i].loc.line, d2.v[i].msg);
				break;
			}
		ir_free(q);
		q = NULL;
	}
	diag_free(&d2);
	return q;
}

/* ---- liveness, one variable at a time ------------------------------------------ */

/* Sparse liveness (Appel): for variable x, the blocks where x is live on
** entry are found backwards from the blocks that read x before assigning
** it, stopping at blocks that assign it. Cost: the blocks where x is live,
** not blocks × variables. */
typedef struct Live {
	const Cfg *g;
	int32_t nv;
	int32_t *ustart, *ublk;  /* per variable: blocks with an upward-exposed read */
	int32_t *dstart, *dblk;  /* per variable: blocks that assign it */
	int32_t *mark;           /* per block: x + 1 when x is live on entry (the last x asked) */
	int32_t *dmark;          /* per block: x + 1 when the block assigns x */
	int32_t *upre, *dpre;    /* ublk's and dblk's dominator preorder numbers, sorted per variable */
	IVec work;
} Live;

/* Counting sort of (var, block) pairs into start/blk, each pair once. */
static void pairs_index(int32_t nv, const IVec *vars, const IVec *blks, int32_t **start, int32_t **blk)
{
	*start = xcalloc((size_t)nv + 2, sizeof **start);
	*blk = xmalloc(((size_t)vars->n + 1) * sizeof **blk);
	for (int32_t i = 0; i < vars->n; i++)
		(*start)[vars->v[i] + 1]++;
	for (int32_t v = 0; v < nv; v++)
		(*start)[v + 1] += (*start)[v];
	int32_t *fill = xmalloc(((size_t)nv + 1) * sizeof *fill);
	memcpy(fill, *start, ((size_t)nv + 1) * sizeof *fill);
	for (int32_t i = 0; i < vars->n; i++)
		(*blk)[fill[vars->v[i]]++] = blks->v[i];
	free(fill);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* Per variable, the dominator preorder numbers of its blocks, sorted. */
static int32_t *pre_sorted(const Cfg *g, int32_t nv, const int32_t *start, const int32_t *blk)
{
	int32_t *pre = xmalloc(((size_t)start[nv] + 1) * sizeof *pre);
	for (int32_t i = 0; i < start[nv]; i++)
		pre[i] = g->blocks[blk[i]].dom_pre;
	for (int32_t v = 0; v < nv; v++)
		if (start[v + 1] - start[v] > 1)
			qsort(pre + start[v], (size_t)(start[v + 1] - start[v]), sizeof *pre, cmp_i32);
	return pre;
}

/* Does the sorted v[lo, hi) hold a number in [a, b]? */
static bool any_in(const int32_t *v, int32_t lo, int32_t hi, int32_t a, int32_t b)
{
	int32_t end = hi;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (v[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && v[lo] <= b;
}

/* x is live on entry to y when y's dominator subtree reads x (upward
** exposed) and assigns it nowhere: every path from y to that read stays
** in the subtree (leaving it and coming back would pass y again), so it
** is free of assignments. Answers without walking the live range, which
** for 10^5 variables live across 10^5 blocks was quadratic; false means
** "not known this way". */
static bool live_by_dominance(const Live *L, int32_t x, int32_t y)
{
	const Block *b = &L->g->blocks[y];
	return !any_in(L->dpre, L->dstart[x], L->dstart[x + 1], b->dom_pre, b->dom_last) &&
	       any_in(L->upre, L->ustart[x], L->ustart[x + 1], b->dom_pre, b->dom_last);
}

static void live_init(Live *L, const Program *p, const Cfg *g, const bool *is_src)
{
	memset(L, 0, sizeof *L);
	L->g = g;
	L->nv = p->nvars;
	int32_t nb = g->nblocks;
	IVec uv = {0}, ub = {0}, dv = {0}, db = {0};
	int32_t *seen_def = xmalloc(((size_t)p->nvars + 1) * sizeof *seen_def);
	int32_t *seen_use = xmalloc(((size_t)p->nvars + 1) * sizeof *seen_use);
	for (int32_t v = 0; v < p->nvars; v++)
		seen_def[v] = seen_use[v] = -1;
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		for (int32_t pc = bl->first; pc <= bl->last; pc++) {
			const Ins *ins = &p->ins[pc];
			const Opnd *ops[3] = {&ins->a, &ins->b, &ins->c};
			for (int32_t k = 0; k < 3 + ins->nargs; k++) {
				const Opnd *o = k < 3 ? ops[k] : &ins->args[k - 3];
				if (o->kind != OPND_VAR || !is_src[o->var] || seen_def[o->var] == b ||
				    seen_use[o->var] == b)
					continue;
				seen_use[o->var] = b;
				ivec_push(&uv, o->var);
				ivec_push(&ub, b);
			}
			if (ins->dst >= 0 && is_src[ins->dst] && seen_def[ins->dst] != b) {
				seen_def[ins->dst] = b;
				ivec_push(&dv, ins->dst);
				ivec_push(&db, b);
			}
		}
	}
	pairs_index(p->nvars, &uv, &ub, &L->ustart, &L->ublk);
	pairs_index(p->nvars, &dv, &db, &L->dstart, &L->dblk);
	L->upre = pre_sorted(g, p->nvars, L->ustart, L->ublk);
	L->dpre = pre_sorted(g, p->nvars, L->dstart, L->dblk);
	L->mark = xcalloc((size_t)nb + 1, sizeof *L->mark);
	L->dmark = xcalloc((size_t)nb + 1, sizeof *L->dmark);
	free(uv.v);
	free(ub.v);
	free(dv.v);
	free(db.v);
	free(seen_def);
	free(seen_use);
}

/* Mark the blocks where x is live on entry: L->mark[b] == x + 1. */
static void live_var(Live *L, int32_t x)
{
	const Cfg *g = L->g;
	int32_t tag = x + 1;
	for (int32_t i = L->dstart[x]; i < L->dstart[x + 1]; i++)
		L->dmark[L->dblk[i]] = tag;
	L->work.n = 0;
	for (int32_t i = L->ustart[x]; i < L->ustart[x + 1]; i++) {
		int32_t b = L->ublk[i];
		if (L->mark[b] != tag) {
			L->mark[b] = tag;
			ivec_push(&L->work, b);
		}
	}
	while (L->work.n > 0) {
		const Block *bl = &g->blocks[L->work.v[--L->work.n]];
		for (int32_t j = 0; j < bl->npred; j++) {
			int32_t q = bl->pred[j];
			if (!g->blocks[q].reachable || L->mark[q] == tag || L->dmark[q] == tag)
				continue;
			L->mark[q] = tag;
			ivec_push(&L->work, q);
		}
	}
}

static bool live_in(const Live *L, int32_t x, int32_t b)
{
	return L->mark[b] == x + 1;
}

/* live_in, walking x's live range only when dominance does not tell
** (*walked: the walk for x is done). */
static bool live_at(Live *L, int32_t x, int32_t b, bool *walked)
{
	if (live_by_dominance(L, x, b))
		return true;
	if (!*walked) {
		live_var(L, x);
		*walked = true;
	}
	return live_in(L, x, b);
}

static void live_free(Live *L)
{
	free(L->ustart);
	free(L->ublk);
	free(L->dstart);
	free(L->dblk);
	free(L->mark);
	free(L->dmark);
	free(L->upre);
	free(L->dpre);
	free(L->work.v);
}

/* ---- phase A: join blocks and exit blocks ------------------------------- */

typedef struct Join {
	int32_t branch_pc;  /* B, in the source program */
	int32_t index;      /* position among the joins (a tie-break) */
	int32_t region;     /* size of B's influence region, for nesting */
	int32_t parent;     /* enclosing join with the same J (index into joins), or -1 */
	int32_t depth;      /* 1 for the outermost */
	IVec children;
	bool loop_exit;     /* B leaves the innermost loop containing it: η, not γ */
	char *label;        /* of N_B */
	int32_t sync_pc;    /* the sync of J it replaces (its origin) */
	int32_t p1_node;    /* pc of N_B's sync in phase A's program */
	int32_t p1_branch;  /* pc of B in phase A's program */
} Join;

typedef struct JBlock {
	IVec joins;         /* joins with this J */
	int32_t nsyncs;     /* leading syncs of J */
	int32_t *leaf;      /* per predecessor of J: the join whose N receives the edge */
	int32_t shared_pc;  /* a branch whose region is entered from outside, or -1 */
	bool valid;
	int32_t root;
} JBlock;

/* An edge out of a loop. */
typedef struct ExitEdge {
	int32_t u, succ;    /* the block in the loop and which of its successors */
	int32_t s;          /* the block it leads to */
	int32_t loop;       /* the outermost loop it leaves */
	bool need;          /* a value assigned in that loop is live at s */
	char *label;        /* its exit block, when it gets one */
	int32_t p1_exit;    /* pc of u's last instruction in phase A's program */
} ExitEdge;

typedef struct PhaseA {
	const Program *p;
	const Cfg *g;
	Join *joins;
	int32_t njoins, capjoins;
	JBlock *jb;         /* per block */
	ExitEdge *ex;
	int32_t nex, capex;
	int32_t *ex_at;     /* per block × 2: the exit edge of successor i, or -1 */
	char **blabel;      /* per block: a fresh label for its first instruction, or NULL */
	int32_t *header_loop; /* per block: the loop it is the header of, or -1 */
	LabelIndex li;
	int32_t nlabels_made;
	/* the output: text (musimd syncs prints it), or, when q is set, the
	** program itself, built as the parser would build it from that text
	** (variables and labels created in the order the text names them) */
	Buf out;
	Program *q;
	int32_t *qvar;      /* per variable of p: its index in q, or -1 */
	Diags qd;
	int32_t pc1;        /* pc of the next instruction emitted */
	IVec orig;          /* per emitted instruction: the source pc it comes from */
	/* musimd syncs (gsa_place_syncs): every sync of the program is dropped and
	** each branch gets a join block with a sync of its own */
	bool place;
	bool stop_exit;     /* a branch reconverges only at the end: stops become exits */
	const char *why;    /* the first J that cannot get its join blocks, and why */
	int32_t why_pc;
} PhaseA;

static int32_t leading_syncs(const Program *p, const Block *b)
{
	int32_t k = 0;
	while (b->first + k <= b->last && p->ins[b->first + k].op == OP_SYNC)
		k++;
	return k;
}

static char *fresh_label(PhaseA *A, const char *base)
{
	for (;;) {
		char name[64];
		snprintf(name, sizeof name, "%s%d", base, (int)++A->nlabels_made);
		if (ir_find_label(A->p, name) < 0)
			return xstrdup(name);
	}
}

/* One line of phase A's program, coming from source pc `from`. */
static void emitted(PhaseA *A, int32_t from)
{
	ivec_push(&A->orig, from);
	A->pc1++;
}

/* ---- phase A's output, as text or as q ---- */

/* Where the user's program defines label name (q's labels keep it for
** adopt_origins), or LOC_NONE for a label phase A makes. */
static Loc user_label_loc(const PhaseA *A, const char *name)
{
	int32_t l = ir_find_label(A->p, name);
	return l >= 0 ? A->p->labels[l].loc : LOC_NONE;
}

static void a_label(PhaseA *A, const char *name)
{
	if (!A->q) {
		put_label(&A->out, name);
		return;
	}
	Loc at = user_label_loc(A, name);
	int32_t l = ir_label(A->q, name, strlen(name), at);
	ir_define_label(A->q, l, at, &A->qd);
}

static int32_t a_target(PhaseA *A, const char *name)
{
	return ir_label(A->q, name, strlen(name), user_label_loc(A, name));
}

/* Give ins the locations of the instruction it comes from: a copy (the
** same operation) keeps its parts' own, a derived instruction (a jump, a
** sync, a γ) has the statement's for every part. */
static void take_locations(Ins *ins, const Ins *from)
{
	ins->loc = from->loc;
	bool copy = ins->op == from->op && ins->nargs == from->nargs;
	ir_set_dst_loc(ins, copy ? ir_dst_loc(from) : from->loc);
	ir_set_target_loc(ins, copy ? ir_target_loc(from) : from->loc);
	ir_set_opnd_loc(&ins->a, copy ? ir_opnd_loc(from, &from->a) : from->loc);
	ir_set_opnd_loc(&ins->b, copy ? ir_opnd_loc(from, &from->b) : from->loc);
	ir_set_opnd_loc(&ins->c, copy ? ir_opnd_loc(from, &from->c) : from->loc);
	for (int32_t j = 0; j < ins->nargs; j++)
		ir_set_opnd_loc(&ins->args[j], copy ? ir_opnd_loc(from, &from->args[j]) : from->loc);
}

/* Append ins (operands already q's) to q, coming from source pc `from`. */
static void a_append(PhaseA *A, Ins *ins, int32_t from)
{
	/* the user's locations, which adopt_origins gives r */
	take_locations(ins, &A->p->ins[from]);
	ir_append(A->q, ins);
	emitted(A, from);
}

static void a_jump(PhaseA *A, const char *to, int32_t from)
{
	if (!A->q) {
		put_jump(&A->out, to);
		emitted(A, from);
		return;
	}
	Ins j = ir_ins_init(OP_JUMP, LOC_NONE);
	j.target_label = a_target(A, to);
	a_append(A, &j, from);
}

/* An instruction without operands (sync, exit). */
static void a_plain(PhaseA *A, Op op, int32_t from)
{
	if (!A->q) {
		buf_puts(&A->out, ir_op_name(op));
		buf_putc(&A->out, '\n');
		emitted(A, from);
		return;
	}
	Ins x = ir_ins_init(op, LOC_NONE);
	a_append(A, &x, from);
}

static int32_t a_var(PhaseA *A, int32_t v)
{
	if (A->qvar[v] < 0) {
		const Var *x = &A->p->vars[v];
		A->qvar[v] = ir_var(A->q, x->name, strlen(x->name), x->loc);
	}
	return A->qvar[v];
}

static Opnd a_opnd(PhaseA *A, const Opnd *o)
{
	Opnd r = *o;
	if (o->kind == OPND_VAR)
		r.var = a_var(A, o->var);
	else if (o->kind == OPND_LIT) {
		r = ir_opnd_lit(A->q, num_copy(ir_lit(A->p, o)), LOC_NONE);
		r.off = o->off; /* the same text */
		r.len = o->len;
	}
	return r;
}

/* The name ir_print_ins gives ins's target. */
static const char *target_name(const Program *p, const Ins *ins, char *tmp, size_t n)
{
	if (ins->target_label >= 0 && ins->target_label < p->nlabels)
		return p->labels[ins->target_label].name;
	if (ir_label_of(p, ins->target))
		return ir_label_of(p, ins->target);
	snprintf(tmp, n, "__pc%d", (int)ins->target);
	return tmp;
}

/* Source instruction pc, its target renamed to `to` when not NULL: in the
** text's order, the destination, then a, b, c, the arguments, the target. */
static void a_copy(PhaseA *A, int32_t pc, const char *to)
{
	const Ins *ins = &A->p->ins[pc];
	if (!A->q) {
		if (to) {
			if (ins->op == OP_JUMP)
				put_jump(&A->out, to);
			else {
				buf_puts(&A->out, ins->op == OP_BZ ? "bz " : "bnz ");
				ir_print_opnd(&A->out, A->p, &ins->a);
				buf_puts(&A->out, ", ");
				buf_puts(&A->out, to);
				buf_putc(&A->out, '\n');
			}
		} else {
			ir_print_ins(&A->out, A->p, ins);
			buf_putc(&A->out, '\n');
		}
		emitted(A, pc);
		return;
	}
	Ins c = *ins;
	c.label = -1;
	c.group = -1;
	if (c.dst >= 0)
		c.dst = a_var(A, c.dst);
	c.a = a_opnd(A, &ins->a);
	c.b = a_opnd(A, &ins->b);
	c.c = a_opnd(A, &ins->c);
	if (ins->nargs > 0) {
		c.args = xmalloc((size_t)ins->nargs * sizeof *c.args);
		for (int32_t k = 0; k < ins->nargs; k++)
			c.args[k] = a_opnd(A, &ins->args[k]);
	}
	if (ins->op == OP_BZ || ins->op == OP_BNZ || ins->op == OP_JUMP) {
		char tmp[32];
		c.target = -1;
		c.target_label = a_target(A, to ? to : target_name(A->p, ins, tmp, sizeof tmp));
	}
	a_append(A, &c, pc);
}

/* The directives of p into the program `to` being built, as the parser
** builds them from their text (printed first: the parameters are the first
** variables); map[v] is set to the new index of each parameter v of p. */
static void copy_directives(Program *to, const Program *p, int32_t *map, Diags *d)
{
	to->kernel = p->kernel ? xstrdup(p->kernel) : NULL;
	to->threads = p->threads;
	to->warpsize = p->warpsize;
	to->memory_zero = p->memory_zero;
	for (int32_t v = 0; v < p->nvars; v++)
		if (p->vars[v].is_param) {
			const Var *x = &p->vars[v];
			map[v] = ir_var(to, x->name, strlen(x->name), x->loc);
			ir_declare_param(to, x->name, strlen(x->name), x->loc, x->has_value,
			                 x->has_value ? num_copy(x->value) : NUM_I(0), d);
		}
	for (int32_t i = 0; i < p->ndata; i++)
		ir_add_data(to, p->data[i].addr, p->data[i].count, num_copy(p->data[i].value), p->data[i].loc);
}

/* The directives of p (the text prints them first: parameters are q's
** first variables). */
static void a_directives(PhaseA *A)
{
	const Program *p = A->p;
	if (!A->q) {
		ir_print_directives(&A->out, p);
		return;
	}
	copy_directives(A->q, p, A->qvar, &A->qd);
}

/* Is X the header of a loop that contains block b? (An edge into it from
** another iteration does not enter a branch's region from outside.) */
static bool header_of_loop_around(const Cfg *g, const int32_t *header_loop, int32_t X, int32_t b)
{
	int32_t l = header_loop[X];
	return l >= 0 && loop_contains(g, l, b);
}

/* The branches whose regions (the blocks between B and its immediate
** post-dominator J) are entered other than through B: an edge u → X with
** u in B's region (B dominates u, J does not) and X outside B's dominance
** (not J, not the header of a loop around B). Each edge walks the
** dominator tree from u up to the first block dominating X, which is a
** step or two in structured code. Marks A->jb[J] with the reason. */
static void find_shared_targets(PhaseA *A, const int32_t *join_of)
{
	const Cfg *g = A->g;
	int32_t nb = g->nblocks;
	/* same[d], for a branch d: its nearest proper dominator that is a
	** branch with another immediate post-dominator (or -1). The walk from
	** an edge into X jumps over the branches whose J is X, which mark
	** nothing (10^5 branches into one block were quadratic). Reverse
	** post-order visits a block's immediate dominator first. */
	int32_t *same = xmalloc(((size_t)nb + 1) * sizeof *same);
	int32_t *near = xmalloc(((size_t)nb + 1) * sizeof *near); /* nearest branch ancestor-or-self */
	for (int32_t i = 0; i < g->nrpo; i++) {
		int32_t d = g->rpo[i], p = g->blocks[d].idom;
		int32_t a = p >= 0 && p < nb ? near[p] : -1;
		near[d] = join_of[d] >= 0 ? d : a;
		if (join_of[d] < 0)
			continue;
		while (a >= 0 && g->blocks[a].ipdom == g->blocks[d].ipdom)
			a = same[a];
		same[d] = a;
	}
	for (int32_t u = 0; u < nb; u++) {
		const Block *bu = &g->blocks[u];
		if (!bu->reachable)
			continue;
		for (int32_t k = 0; k < bu->nsucc; k++) {
			int32_t X = bu->succ[k];
			if (X >= nb || cfg_dominates(g, X, u))
				continue; /* the end, or a back edge: another iteration */
			for (int32_t d = u; d >= 0 && !cfg_dominates(g, d, X);) {
				int32_t J = g->blocks[d].ipdom;
				if (join_of[d] >= 0 && J == X) {
					d = same[d]; /* branches reconverging at X mark nothing */
					continue;
				}
				if (join_of[d] >= 0 && J < nb && !cfg_dominates(g, J, u) &&
				    !header_of_loop_around(g, A->header_loop, X, d))
					A->jb[J].shared_pc = g->blocks[d].last;
				d = g->blocks[d].idom;
			}
		}
	}
	free(same);
	free(near);
}

static int cmp_join_region(const void *a, const void *b, void *ctx)
{
	const Join *joins = ctx;
	const Join *x = &joins[*(const int32_t *)a], *y = &joins[*(const int32_t *)b];
	if (x->region != y->region)
		return x->region < y->region ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

/* A stable merge sort of join indexes by region size (qsort_r is not C17). */
static void sort_joins(int32_t *v, int32_t n, const Join *joins)
{
	if (n < 2)
		return;
	int32_t *tmp = xmalloc((size_t)n * sizeof *tmp);
	for (int32_t width = 1; width < n; width *= 2) {
		for (int32_t lo = 0; lo < n; lo += 2 * width) {
			int32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
			int32_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp_join_region(&v[j], &v[i], (void *)joins) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, (size_t)n * sizeof *v);
	}
	free(tmp);
}

/* For every predecessor of a reconvergence point J with joins, the join of
** the nearest branch at or above it in the dominator tree whose
** reconvergence point is J (its leaf), and for every join the next such
** branch above its own (its parent): one depth-first walk of the dominator
** tree keeping, per J, the nearest such branch on the path. With single-entry
** regions, a branch's region is what it dominates before J. */
static void find_enclosing(PhaseA *A, const int32_t *join_of)
{
	const Cfg *g = A->g;
	int32_t nb = g->nblocks;
	int32_t *near = xmalloc(((size_t)nb + 1) * sizeof *near); /* per J: the nearest join, -1 */
	IVec *kids = xcalloc((size_t)nb + 1, sizeof *kids);
	for (int32_t b = 0; b <= nb; b++)
		near[b] = -1;
	for (int32_t i = 0; i < g->nrpo; i++) {
		int32_t b = g->rpo[i];
		if (g->blocks[b].idom >= 0)
			ivec_push(&kids[g->blocks[b].idom], b);
	}
	for (int32_t b = 0; b < nb; b++)
		if (A->jb[b].joins.n > 0) {
			A->jb[b].leaf = xmalloc(((size_t)g->blocks[b].npred + 1) * sizeof *A->jb[b].leaf);
			for (int32_t k = 0; k < g->blocks[b].npred; k++)
				A->jb[b].leaf[k] = -1;
		}
	IVec st = {0}, idx = {0}, saved = {0};
	if (g->nrpo > 0) {
		ivec_push(&st, g->rpo[0]);
		ivec_push(&idx, -1);
	}
	while (st.n > 0) {
		int32_t b = st.v[st.n - 1];
		const Block *bl = &g->blocks[b];
		int32_t i = idx.v[idx.n - 1];
		int32_t J = join_of[b] >= 0 ? bl->ipdom : -1;
		if (i < 0) {
			/* entering b: its join's parent, then b on J's path, then its edges' leaves */
			if (J >= 0) {
				A->joins[join_of[b]].parent = near[J];
				ivec_push(&saved, near[J]);
				near[J] = join_of[b];
			}
			for (int32_t k = 0; k < bl->nsucc; k++) {
				int32_t s = bl->succ[k];
				if (s >= nb || A->jb[s].joins.n == 0)
					continue;
				int32_t j = cfg_phi_index(g, s, b);
				if (j >= 0)
					A->jb[s].leaf[j] = near[s];
			}
			idx.v[idx.n - 1] = i = 0;
		}
		if (i < kids[b].n) {
			idx.v[idx.n - 1]++;
			ivec_push(&st, kids[b].v[i]);
			ivec_push(&idx, -1);
			continue;
		}
		if (J >= 0)
			near[J] = saved.v[--saved.n];
		st.n--;
		idx.n--;
	}
	for (int32_t b = 0; b <= nb; b++)
		free(kids[b].v);
	free(kids);
	free(near);
	free(st.v);
	free(idx.v);
	free(saved.v);
}

/* Decide the join tree of block J (see the file comment). */
static void plan_jblock(PhaseA *A, int32_t J, const int32_t *exits)
{
	const Cfg *g = A->g;
	JBlock *jb = &A->jb[J];
	const Block *bj = &g->blocks[J];
	int32_t m = jb->joins.n;
	jb->nsyncs = leading_syncs(A->p, bj);
	jb->valid = jb->nsyncs > 0 || A->place;
	if (!jb->valid)
		return;
	const char *why = NULL;
	int32_t why_pc = -1;
#define INVALID(reason, pc)                                                                  \
	do {                                                                                     \
		jb->valid = false;                                                                   \
		if (!why || (pc) < why_pc) {                                                         \
			why = (reason);                                                                  \
			why_pc = (pc);                                                                   \
		}                                                                                    \
	} while (0)
	/* innermost first: a nested branch's region is a strict subset */
	sort_joins(jb->joins.v, m, A->joins);
	if (jb->shared_pc >= 0) /* e.g. a short-circuit's shared target */
		INVALID("its region is also entered from outside, not only through it (a "
		        "short-circuit's shared target): the paths into the reconvergence point "
		        "would cross different numbers of syncs; write the shared block once per branch",
		        jb->shared_pc);
	/* with single-entry regions, B's region is what B dominates before J: the
	** join of a predecessor of J is the nearest dominating branch with this J,
	** and a join's parent the nearest such branch above it */
	for (int32_t i = 0; i < m; i++) {
		Join *x = &A->joins[jb->joins.v[i]];
		int32_t bblk = g->block_of[x->branch_pc];
		if (x->loop_exit) {
			int32_t l = g->blocks[bblk].loop;
			if (l < 0 || exits[l] != 1)
				INVALID("it leaves a loop that has several exit edges: no sync can pop the "
				        "loop's nodes on every path (a loop with a break)",
				        x->branch_pc);
		}
	}
	jb->root = -1;
	for (int32_t i = 0; i < m; i++) {
		int32_t ji = jb->joins.v[i];
		Join *x = &A->joins[ji];
		if (x->parent < 0) {
			if (jb->root >= 0) /* two outermost branches: not nested */
				INVALID("another branch that is not nested with it reconverges at the same point",
				        x->branch_pc);
			jb->root = ji;
		} else
			ivec_push(&A->joins[x->parent].children, ji);
	}
	/* depths: parents come later in the innermost-first order */
	for (int32_t i = m - 1; i >= 0; i--) {
		Join *x = &A->joins[jb->joins.v[i]];
		x->depth = x->parent < 0 ? 1 : A->joins[x->parent].depth + 1;
	}
	for (int32_t k = 0; k < bj->npred; k++) {
		int32_t q = bj->pred[k];
		if (!g->blocks[q].reachable)
			continue;
		/* placing syncs, a path may cross fewer join blocks (an edge from the
		** outer branch's own part), or none (an edge from before the branches) */
		if (!A->place && (jb->leaf[k] < 0 || A->joins[jb->leaf[k]].depth != jb->nsyncs))
			jb->valid = false;
	}
	for (int32_t i = 0; i < m; i++) {
		Join *x = &A->joins[jb->joins.v[i]];
		/* a loop exit's join block has the exit edge alone */
		if (x->loop_exit && x->children.n > 0)
			INVALID("it leaves a loop whose exit is also the reconvergence point of a branch "
			        "inside the loop",
			        x->branch_pc);
		x->sync_pc = A->place ? bj->first : bj->first + (jb->nsyncs - x->depth);
	}
	if (why && (!A->why || why_pc < A->why_pc)) { /* the first in program order */
		A->why = why;
		A->why_pc = why_pc;
	}
#undef INVALID
}

static void emit_labels(PhaseA *A, int32_t pc)
{
	const Cfg *g = A->g;
	int32_t b = g->block_of[pc];
	if (g->blocks[b].first == pc && A->blabel[b])
		a_label(A, A->blabel[b]);
	for (int32_t i = A->li.start[pc]; i < A->li.start[pc + 1]; i++)
		a_label(A, A->p->labels[A->li.lab[i]].name);
}

/* Join block of the edge from block q into J (J restructured), or -1. */
static int32_t edge_join(const PhaseA *A, int32_t q, int32_t J)
{
	const JBlock *jb = &A->jb[J];
	if (!jb->valid)
		return -1;
	const Block *bj = &A->g->blocks[J];
	for (int32_t k = 0; k < bj->npred; k++)
		if (bj->pred[k] == q)
			return jb->leaf[k];
	return -1;
}

/* The exit edge of successor i of block u that gets an exit block, or NULL. */
static ExitEdge *exit_block_of(const PhaseA *A, int32_t u, int32_t i)
{
	int32_t e = A->ex_at ? A->ex_at[2 * u + i] : -1;
	return e >= 0 && A->ex[e].label ? &A->ex[e] : NULL;
}

/* The label naming block b's first instruction. */
static const char *block_label(const PhaseA *A, int32_t b)
{
	if (A->blabel[b])
		return A->blabel[b];
	int32_t pc = A->g->blocks[b].first;
	return A->p->labels[A->li.lab[A->li.start[pc]]].name;
}

/* J's join tree, children first (post-order, explicit stack): a child's
** join block flows into its parent's, siblings after the first jump there. */
static void emit_tree(PhaseA *A, int32_t root)
{
	IVec st = {0}, idx = {0};
	ivec_push(&st, root);
	ivec_push(&idx, 0);
	while (st.n > 0) {
		Join *x = &A->joins[st.v[st.n - 1]];
		int32_t i = idx.v[idx.n - 1];
		if (i < x->children.n) {
			idx.v[idx.n - 1]++;
			if (i > 0)
				a_jump(A, x->label, x->sync_pc);
			ivec_push(&st, x->children.v[i]);
			ivec_push(&idx, 0);
			continue;
		}
		a_label(A, x->label);
		x->p1_node = A->pc1;
		a_plain(A, OP_SYNC, x->sync_pc);
		st.n--;
		idx.n--;
	}
	free(st.v);
	free(idx.v);
}

/* The join block emitted first in J's tree (post-order: the leftmost leaf). */
static int32_t first_node(const PhaseA *A, int32_t ji)
{
	while (A->joins[ji].children.n > 0)
		ji = A->joins[ji].children.v[0];
	return ji;
}

static void emit_ins(PhaseA *A, int32_t pc)
{
	const Program *p = A->p;
	const Cfg *g = A->g;
	const Ins *ins = &p->ins[pc];
	int32_t blk = g->block_of[pc];
	emit_labels(A, pc);
	if ((ins->op == OP_BZ || ins->op == OP_BNZ || ins->op == OP_JUMP) && ins->target >= 0) {
		int32_t tb = g->block_of[ins->target];
		int32_t j = g->blocks[tb].first == ins->target ? edge_join(A, blk, tb) : -1;
		const char *to = j >= 0 ? A->joins[j].label : NULL;
		if (!to && g->blocks[tb].first == ins->target) {
			ExitEdge *e = exit_block_of(A, blk, ins->op == OP_JUMP ? 0 : g->blocks[blk].nsucc - 1);
			if (e) {
				to = e->label;
				e->p1_exit = A->pc1;
			}
		}
		if (to) {
			a_copy(A, pc, to);
			return;
		}
	}
	if (A->place && ins->op == OP_SYNC)
		return; /* its labels name the next instruction */
	if (A->place && ins->op == OP_STOP && A->stop_exit) {
		a_plain(A, OP_EXIT, pc); /* the deferred threads resume (semantics.md §4) */
		return;
	}
	a_copy(A, pc, NULL);
}

/* Find the edges that leave loops and decide which need an exit block:
** those not already edges into a loop-exit join block, where a value
** assigned in the loop they leave is live. */
static void plan_exits(PhaseA *A)
{
	const Program *p = A->p;
	const Cfg *g = A->g;
	int32_t nb = g->nblocks;
	A->ex_at = xmalloc((size_t)(2 * nb + 2) * sizeof *A->ex_at);
	for (int32_t i = 0; i < 2 * nb + 2; i++)
		A->ex_at[i] = -1;
	/* per loop: the exit edges that leave it */
	IVec *of_loop = xcalloc((size_t)g->nloops + 1, sizeof *of_loop);
	for (int32_t u = 0; u < nb; u++) {
		const Block *bu = &g->blocks[u];
		if (!bu->reachable || bu->loop < 0)
			continue;
		for (int32_t i = 0; i < bu->nsucc && i < 2; i++) {
			int32_t s = bu->succ[i];
			if (s >= nb)
				continue;
			int32_t l = exited_loop(g, u, s);
			if (l < 0 || edge_join(A, u, s) >= 0)
				continue;
			ExitEdge e = {.u = u, .succ = i, .s = s, .loop = l, .p1_exit = -1};
			VEC_PUSH(A->ex, A->nex, A->capex, e);
			A->ex_at[2 * u + i] = A->nex - 1;
			for (int32_t k = bu->loop; k >= 0; k = g->loops[k].parent) {
				ivec_push(&of_loop[k], A->nex - 1);
				if (k == l)
					break;
			}
		}
	}
	if (A->nex > 0) {
		bool *is_src = xmalloc((size_t)p->nvars + 1);
		for (int32_t v = 0; v < p->nvars; v++)
			is_src[v] = !p->vars[v].is_param;
		Live L;
		live_init(&L, p, g, is_src);
		int32_t *lmark = xcalloc((size_t)g->nloops + 1, sizeof *lmark);
		for (int32_t x = 0; x < p->nvars; x++) {
			if (!is_src[x] || L.dstart[x] == L.dstart[x + 1])
				continue;
			bool any = false;
			for (int32_t i = L.dstart[x]; i < L.dstart[x + 1] && !any; i++)
				any = g->blocks[L.dblk[i]].loop >= 0;
			if (!any)
				continue;
			bool walked = false;
			for (int32_t i = L.dstart[x]; i < L.dstart[x + 1]; i++)
				for (int32_t l = g->blocks[L.dblk[i]].loop; l >= 0 && lmark[l] != x + 1;
				     l = g->loops[l].parent) {
					lmark[l] = x + 1;
					for (int32_t k = 0; k < of_loop[l].n; k++) {
						ExitEdge *e = &A->ex[of_loop[l].v[k]];
						if (!e->need && live_at(&L, x, e->s, &walked))
							e->need = true;
					}
				}
		}
		free(lmark);
		live_free(&L);
		free(is_src);
	}
	for (int32_t l = 0; l < g->nloops; l++)
		free(of_loop[l].v);
	free(of_loop);
	/* labels: the exit blocks', and fresh ones for targets without a label */
	for (int32_t i = 0; i < A->nex; i++) {
		ExitEdge *e = &A->ex[i];
		if (!e->need)
			continue;
		e->label = fresh_label(A, "exit");
		int32_t pc = g->blocks[e->s].first;
		if (A->li.start[pc] == A->li.start[pc + 1] && !A->blabel[e->s])
			A->blabel[e->s] = fresh_label(A, "L");
	}
}

static void emit_exit_block(PhaseA *A, ExitEdge *e)
{
	a_label(A, e->label);
	a_jump(A, block_label(A, e->s), A->g->blocks[e->u].last);
}

static char *phase_a(PhaseA *A, size_t *len)
{
	const Program *p = A->p;
	const Cfg *g = A->g;
	int32_t nb = g->nblocks;
	A->jb = xcalloc((size_t)nb + 1, sizeof *A->jb);
	A->blabel = xcalloc((size_t)nb + 1, sizeof *A->blabel);
	A->header_loop = xmalloc(((size_t)nb + 1) * sizeof *A->header_loop);
	for (int32_t b = 0; b <= nb; b++)
		A->header_loop[b] = -1;
	for (int32_t l = 0; l < g->nloops; l++)
		A->header_loop[g->loops[l].header] = l;
	label_index(&A->li, p);
	/* exiting edges per loop: each edge counts for the loops it leaves */
	int32_t *exits = xcalloc((size_t)g->nloops + 1, sizeof *exits);
	for (int32_t b = 0; b < nb; b++) {
		if (!g->blocks[b].reachable)
			continue;
		for (int32_t i = 0; i < g->blocks[b].nsucc; i++) {
			int32_t s = g->blocks[b].succ[i];
			for (int32_t l = g->blocks[b].loop; l >= 0 && (s >= nb || !loop_contains(g, l, s));
			     l = g->loops[l].parent)
				exits[l]++;
		}
	}
	int32_t *join_of = xmalloc(((size_t)nb + 1) * sizeof *join_of); /* block of B → its join */
	for (int32_t b = 0; b <= nb; b++)
		join_of[b] = -1;
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		const Ins *last = &p->ins[bl->last];
		if (!bl->reachable || !ir_is_branch((Op)last->op) || bl->ipdom >= nb)
			continue;
		Join x = {.branch_pc = bl->last, .index = A->njoins, .parent = -1, .p1_node = -1,
		          .p1_branch = -1, .sync_pc = -1};
		/* innermost first: an inner branch dominates fewer blocks */
		x.region = g->blocks[b].dom_last - g->blocks[b].dom_pre;
		x.loop_exit = bl->loop >= 0 && !loop_contains(g, bl->loop, bl->ipdom);
		VEC_PUSH(A->joins, A->njoins, A->capjoins, x);
		join_of[b] = A->njoins - 1;
		ivec_push(&A->jb[bl->ipdom].joins, A->njoins - 1);
	}
	for (int32_t b = 0; b <= nb; b++)
		A->jb[b].shared_pc = -1;
	find_shared_targets(A, join_of);
	find_enclosing(A, join_of);
	for (int32_t b = 0; b < nb; b++)
		if (A->jb[b].joins.n > 0 && g->blocks[b].reachable)
			plan_jblock(A, b, exits);
	/* labels of the join blocks: the labels of the sync they replace when a
	** single join block stands at that depth, else fresh ones */
	for (int32_t b = 0; b < nb; b++) {
		JBlock *jb = &A->jb[b];
		if (!jb->valid)
			continue;
		int32_t *same = xcalloc((size_t)jb->nsyncs + 2, sizeof *same);
		for (int32_t i = 0; i < jb->joins.n; i++) {
			int32_t dep = A->joins[jb->joins.v[i]].depth;
			if (dep >= 1 && dep <= jb->nsyncs)
				same[dep]++;
		}
		for (int32_t i = 0; i < jb->joins.n; i++) {
			Join *x = &A->joins[jb->joins.v[i]];
			int32_t spc = x->sync_pc;
			if (!A->place && same[x->depth] == 1 && A->li.start[spc] < A->li.start[spc + 1])
				x->label = xstrdup(p->labels[A->li.lab[A->li.start[spc]]].name);
			else
				x->label = fresh_label(A, A->place ? "sync" : "join");
		}
		free(same);
	}
	if (A->place) {
		/* a J whose join blocks an edge goes past needs a label of its own;
		** a branch that reconverges only at the end makes stops exits */
		for (int32_t b = 0; b < nb; b++) {
			int32_t pc = g->blocks[b].first;
			if (A->jb[b].valid && A->jb[b].joins.n > 0 && A->li.start[pc] == A->li.start[pc + 1])
				A->blabel[b] = fresh_label(A, "L");
			const Block *bl = &g->blocks[b];
			A->stop_exit |= bl->reachable && ir_is_branch((Op)p->ins[bl->last].op) && bl->ipdom >= nb;
		}
	} else
		plan_exits(A);
	a_directives(A);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		JBlock *jb = &A->jb[b];
		int32_t from = bl->first;
		if (jb->valid) {
			emit_tree(A, jb->root);
			/* the other labels of the replaced syncs name the rest of J */
			for (int32_t k = 0; k < jb->nsyncs; k++)
				for (int32_t i = A->li.start[from + k]; i < A->li.start[from + k + 1]; i++) {
					const char *name = p->labels[A->li.lab[i]].name;
					bool used = false;
					for (int32_t j = 0; j < jb->joins.n; j++)
						used |= !strcmp(A->joins[jb->joins.v[j]].label, name);
					if (!used)
						a_label(A, name);
				}
			from += jb->nsyncs;
			if (from > bl->last) {
				/* J held only its syncs: the rest is the next block */
				if (!A->q)
					buf_puts(&A->out, "\n");
				continue;
			}
		}
		for (int32_t pc = from; pc <= bl->last; pc++) {
			if (pc == bl->last && join_of[b] >= 0)
				A->joins[join_of[b]].p1_branch = A->pc1;
			if (pc == bl->last && A->ex_at)
				for (int32_t i = 0; i < 2; i++) {
					int32_t e = A->ex_at[2 * b + i];
					if (e >= 0)
						A->ex[e].p1_exit = A->pc1;
				}
			emit_ins(A, pc);
		}
		/* a fall-through edge into a restructured J becomes a jump to its
		** join block; a fall-through out of a loop goes through its exit block */
		const Ins *last = &p->ins[bl->last];
		if (!ir_ends_block((Op)last->op) || ir_is_branch((Op)last->op)) {
			int32_t s = bl->succ[0];
			int32_t j = s < nb ? edge_join(A, b, s) : -1;
			/* the tree is emitted right before the rest of J */
			bool next = j >= 0 && s == b + 1 && j == first_node(A, A->jb[s].root);
			ExitEdge *e = j < 0 ? exit_block_of(A, b, 0) : NULL;
			if (j >= 0 && !next) {
				a_jump(A, A->joins[j].label, bl->last);
			} else if (A->place && j < 0 && s < nb && A->jb[s].valid && A->jb[s].joins.n > 0) {
				/* an edge no branch claims goes past J's join blocks */
				a_jump(A, block_label(A, s), bl->last);
			} else if (e) {
				emit_exit_block(A, e);
			}
		}
	}
	/* the exit blocks of taken edges, at the end */
	for (int32_t i = 0; i < A->nex; i++) {
		ExitEdge *e = &A->ex[i];
		const Ins *last = &p->ins[g->blocks[e->u].last];
		bool taken = last->op == OP_JUMP || (ir_is_branch((Op)last->op) && e->succ == 1);
		if (e->label && taken)
			emit_exit_block(A, e);
	}
	free(exits);
	free(join_of);
	*len = A->out.len;
	return A->q ? NULL : buf_steal(&A->out);
}

/* A program this file built, finished as ir_load would finish it (labels
** resolved, SSA checked, CFG); NULL with an internal error in d if it is not
** valid (a bug of this file). Consumes q. */
static Program *finish_built(Program *q, Diags *qd, Diags *d, const char *phase)
{
	ir_finish(q, qd);
	if (qd->nerrors == 0 && q->nins > 0) {
		q->cfg = cfg_build(q);
		return q;
	}
	const char *msg = "no instructions";
	for (int i = 0; i < qd->n && qd->nerrors > 0; i++)
		if (qd->v[i].sev == SEV_ERROR) {
			msg = qd->v[i].msg;
			break;
		}
	diag_error(d, LOC_NONE, "internal error in the GSA construction (%s): %s", phase, msg);
	ir_free(q);
	return NULL;
}

/* Phase A's program q, finished. */
static Program *a_finish(PhaseA *A, Diags *d)
{
	Program *q = A->q;
	A->q = NULL;
	return finish_built(q, &A->qd, d, "join blocks");
}

/* What phase B does not read of A (and all that refers to p). */
static void phase_a_free(PhaseA *A)
{
	if (A->jb)
		for (int32_t b = 0; b <= A->g->nblocks; b++) {
			free(A->jb[b].joins.v);
			free(A->jb[b].leaf);
		}
	free(A->jb);
	A->jb = NULL;
	free(A->ex_at);
	A->ex_at = NULL;
	if (A->blabel)
		for (int32_t b = 0; b <= A->g->nblocks; b++)
			free(A->blabel[b]);
	free(A->blabel);
	A->blabel = NULL;
	free(A->header_loop);
	A->header_loop = NULL;
	label_index_free(&A->li);
	buf_free(&A->out);
	free(A->orig.v);
	A->orig.v = NULL;
	free(A->qvar);
	A->qvar = NULL;
	ir_free(A->q);
	A->q = NULL;
	diag_free(&A->qd);
}

/* The rest: the joins and exit edges phase B reads. */
static void phase_a_free_rest(PhaseA *A)
{
	for (int32_t i = 0; i < A->njoins; i++) {
		free(A->joins[i].children.v);
		free(A->joins[i].label);
	}
	free(A->joins);
	for (int32_t i = 0; i < A->nex; i++)
		free(A->ex[i].label);
	free(A->ex);
}

/* ---- phase B: SSA, η, gating ------------------------------------------- */

typedef enum GateKind { G_PHI, G_MU, G_GAMMA, G_ETA, G_TREE } GateKind;

typedef struct Gate {
	int32_t var;      /* source variable */
	int32_t dst;      /* version */
	int32_t *ops;     /* per predecessor (φ), or [0] = η operand */
	GateKind kind;
	/* G_TREE: the nested γ in pre-order: an entry e < 0 is a node on the
	** branch at pc −1−e, followed by the subtree where its predicate is ≠ 0
	** and the one where it is 0; e ≥ 0 is a leaf, the operand ops[e] */
	int32_t *tree;
	int32_t ntree;
} Gate;

typedef struct Version {
	int32_t var;
	int32_t num;      /* x.num, from 0 in output order; -2 for the "never assigned"
	                  ** x.undef; -3 the source name itself (SSA input) */
	char *name;       /* a fresh name (SSA input: a version the construction adds) */
	bool gate;        /* defined by a gate (φ, μ, γ, η) */
} Version;

typedef struct BJoin {
	int32_t branch_pc; /* in the phase A program; -1: none */
	bool loop_exit;
	int32_t loop;      /* the outermost loop the exit leaves */
} BJoin;

typedef struct BExit {
	int32_t exit_pc;   /* the instruction that leaves the loop (phase A pc), -1: not an exit block */
	int32_t loop;      /* the outermost loop it leaves */
} BExit;

typedef struct PhaseB {
	const Program *q; /* phase A's program */
	const Cfg *g;
	int32_t nv;
	BJoin *join;      /* per block: the branch whose join block it is */
	BExit *exitb;     /* per block: the exit it is the exit block of */
	Gate **gates;     /* per block */
	int32_t *ngates, *capgates;
	Version *ver;
	int32_t nver, capver;
	int32_t *zero;    /* per variable: its x.undef version, or -1 */
	/* renamed instructions: per pc */
	int32_t *rdst, *ra, *rb, *rc;
	int32_t **rargs;
	int32_t *branch_pred; /* per pc of a branch: the version of its predicate (-1: not a variable) */
	IVec *stack;       /* per variable: versions, innermost last */
	IVec *domkids;
	bool *is_src;      /* per variable: renamed (not a parameter) */
	bool keep_names;   /* the input is in SSA form already: keep its names */
	bool *clash;       /* per variable: a parameter is named like one of its versions
	                   ** (x.3, x.undef): those names are skipped */
	IVec orig;         /* per emitted instruction: phase A's pc it comes from */
	/* the result, built as the parser would build it from the text `musimd
	** gsa` prints: variables and labels created in the order the text names
	** them, a nested γ laid out as the parser lays it out */
	Program *r;
	int32_t nemit;      /* instructions the numbering pass of emit_b counted */
	int32_t *rver;     /* per version: its variable in r, or -1 */
	int32_t *rq;       /* per variable of q: its variable in r, or -1 */
	Buf nb;            /* scratch: a version's name */
	Diags rd;
} PhaseB;

/* Is name a parameter of q? */
static bool is_param_name(const Program *q, const char *name)
{
	int32_t x = ir_find_var(q, name);
	return x >= 0 && q->vars[x].is_param;
}

/* Per variable of q: does a parameter have the name of one of its versions
** (x.3 or x.undef for a variable x)? Parameters keep their names. */
static bool *find_clashes(const Program *q)
{
	bool *clash = xcalloc((size_t)q->nvars + 1, sizeof *clash);
	for (int32_t v = 0; v < q->nvars; v++) {
		if (!q->vars[v].is_param)
			continue;
		const char *nm = q->vars[v].name, *dot = strrchr(nm, '.');
		if (!dot || dot == nm || (strspn(dot + 1, "0123456789") != strlen(dot + 1) &&
		                          strcmp(dot + 1, "undef") != 0))
			continue;
		char *base = xstrndup(nm, (size_t)(dot - nm));
		int32_t x = ir_find_var(q, base);
		if (x >= 0 && !q->vars[x].is_param)
			clash[x] = true;
		free(base);
	}
	return clash;
}

/* The next number of var's versions whose name no parameter has. */
static int32_t next_number(const PhaseB *B, int32_t var, int32_t *count)
{
	if (B->clash[var]) {
		Buf nb = {0};
		for (;; (*count)++) {
			buf_reset(&nb);
			buf_printf(&nb, "%s.%d", B->q->vars[var].name, (int)*count);
			if (!is_param_name(B->q, buf_str(&nb)))
				break;
		}
		buf_free(&nb);
	}
	return (*count)++;
}

/* var's "never assigned" version: x.undef, or x.undefK where a parameter
** is called x.undef (NULL: the plain name). */
static char *undef_name(const PhaseB *B, int32_t var)
{
	Buf nb = {0};
	buf_printf(&nb, "%s.undef", B->q->vars[var].name);
	if (!is_param_name(B->q, buf_str(&nb))) {
		buf_free(&nb);
		return NULL;
	}
	for (int k = 1;; k++) {
		buf_reset(&nb);
		buf_printf(&nb, "%s.undef%d", B->q->vars[var].name, k);
		if (ir_find_var(B->q, buf_str(&nb)) < 0)
			return buf_steal(&nb);
	}
}

static int32_t new_version(PhaseB *B, int32_t var, bool gate)
{
	Version v = {var, -1, NULL, gate}; /* numbered by emit_b */
	VEC_PUSH(B->ver, B->nver, B->capver, v);
	return B->nver - 1;
}

static int32_t current(PhaseB *B, int32_t var)
{
	IVec *s = &B->stack[var];
	if (s->n > 0)
		return s->v[s->n - 1];
	if (B->zero[var] < 0) {
		B->zero[var] = new_version(B, var, false);
		B->ver[B->zero[var]].num = -2;
		if (B->clash[var])
			B->ver[B->zero[var]].name = undef_name(B, var);
	}
	return B->zero[var];
}

static int32_t rename_use(PhaseB *B, const Opnd *o)
{
	if (o->kind != OPND_VAR || !B->is_src[o->var])
		return -1;
	return current(B, o->var);
}

static void add_gate(PhaseB *B, int32_t blk, int32_t var, GateKind kind, int32_t nops)
{
	Gate gt = {.var = var, .dst = -1, .kind = kind};
	gt.ops = xmalloc(((size_t)nops + 1) * sizeof *gt.ops);
	for (int32_t i = 0; i < nops; i++)
		gt.ops[i] = -1;
	VEC_PUSH(B->gates[blk], B->ngates[blk], B->capgates[blk], gt);
}

/* Rename block blk; the variables whose versions it pushes go on *pushed. */
static void rename_one(PhaseB *B, int32_t blk, IVec *pushed)
{
	const Program *q = B->q;
	const Cfg *g = B->g;
	const Block *bl = &g->blocks[blk];
	for (int32_t i = 0; i < B->ngates[blk]; i++) {
		Gate *gt = &B->gates[blk][i];
		if (gt->kind == G_ETA)
			gt->ops[0] = current(B, gt->var);
	}
	for (int32_t i = 0; i < B->ngates[blk]; i++) {
		Gate *gt = &B->gates[blk][i];
		gt->dst = new_version(B, gt->var, true);
		ivec_push(&B->stack[gt->var], gt->dst);
		ivec_push(pushed, gt->var);
	}
	for (int32_t pc = bl->first; pc <= bl->last; pc++) {
		const Ins *ins = &q->ins[pc];
		B->ra[pc] = rename_use(B, &ins->a);
		B->rb[pc] = rename_use(B, &ins->b);
		B->rc[pc] = rename_use(B, &ins->c);
		if (ins->nargs > 0) {
			B->rargs[pc] = xmalloc((size_t)ins->nargs * sizeof **B->rargs);
			for (int32_t k = 0; k < ins->nargs; k++)
				B->rargs[pc][k] = rename_use(B, &ins->args[k]);
		}
		if (ir_is_branch((Op)ins->op))
			B->branch_pred[pc] = B->ra[pc];
		if (ins->dst >= 0 && B->is_src[ins->dst]) {
			B->rdst[pc] = new_version(B, ins->dst, false);
			ivec_push(&B->stack[ins->dst], B->rdst[pc]);
			ivec_push(pushed, ins->dst);
		}
	}
	for (int32_t i = 0; i < bl->nsucc; i++) {
		int32_t s = bl->succ[i];
		if (s >= g->nblocks)
			continue;
		int32_t ix = cfg_phi_index(g, s, blk);
		for (int32_t k = 0; k < B->ngates[s]; k++) {
			Gate *gt = &B->gates[s][k];
			if (gt->kind != G_ETA && ix >= 0)
				gt->ops[ix] = current(B, gt->var);
		}
	}
}

/* Renaming along the dominator tree, depth first with an explicit stack:
** a block's versions are popped when all its dominator-tree children are
** done. */
static void rename_all(PhaseB *B, int32_t root)
{
	IVec st = {0}, kid = {0}, mark = {0}, pushed = {0};
	ivec_push(&st, root);
	ivec_push(&kid, -1);
	ivec_push(&mark, 0);
	while (st.n > 0) {
		int32_t blk = st.v[st.n - 1];
		int32_t i = kid.v[kid.n - 1];
		if (i < 0) {
			mark.v[mark.n - 1] = pushed.n;
			rename_one(B, blk, &pushed);
			kid.v[kid.n - 1] = i = 0;
		}
		if (i < B->domkids[blk].n) {
			kid.v[kid.n - 1]++;
			ivec_push(&st, B->domkids[blk].v[i]);
			ivec_push(&kid, -1);
			ivec_push(&mark, 0);
			continue;
		}
		for (int32_t k = pushed.n - 1; k >= mark.v[mark.n - 1]; k--)
			B->stack[pushed.v[k]].n--;
		pushed.n = mark.v[mark.n - 1];
		st.n--;
		kid.n--;
		mark.n--;
	}
	free(st.v);
	free(kid.v);
	free(mark.v);
	free(pushed.v);
}

/* A version's name: x.3, x.undef, the source name (SSA input), or a fresh one. */
static void put_version(Buf *b, const PhaseB *B, int32_t v)
{
	const Version *x = &B->ver[v];
	if (x->name) {
		buf_puts(b, x->name);
		return;
	}
	buf_puts(b, B->q->vars[x->var].name);
	if (x->num == -2)
		buf_putn(b, ".undef", 6);
	else if (x->num >= 0) {
		char tmp[24] = ".";
		char *end = fmt_int(tmp + 1, x->num);
		buf_putn(b, tmp, (size_t)(end - tmp));
	}
}

/* r's variable for version v. */
static int32_t b_version(PhaseB *B, int32_t v)
{
	if (B->rver[v] < 0) {
		buf_reset(&B->nb);
		put_version(&B->nb, B, v);
		/* a version's name is new in r: x.k and x.undef are made unique
		** per variable (x is what precedes the last dot), parameters' names
		** are skipped (find_clashes), fresh names are checked */
		B->rver[v] = ir_var_fresh(B->r, B->nb.s, B->nb.len, LOC_NONE);
	}
	return B->rver[v];
}

static int32_t b_qvar(PhaseB *B, int32_t x)
{
	if (B->rq[x] < 0) {
		const char *nm = B->q->vars[x].name;
		B->rq[x] = ir_var(B->r, nm, strlen(nm), LOC_NONE);
	}
	return B->rq[x];
}

/* Operand o of phase A's program, renamed to version v when v >= 0. */
static Opnd b_opnd(PhaseB *B, const Opnd *o, int32_t v)
{
	if (v >= 0)
		return ir_opnd_var(b_version(B, v), LOC_NONE);
	Opnd r = *o;
	if (o->kind == OPND_VAR)
		r.var = b_qvar(B, o->var);
	else if (o->kind == OPND_LIT) {
		r = ir_opnd_lit(B->r, num_copy(ir_lit(B->q, o)), LOC_NONE);
		r.off = o->off; /* the same text */
		r.len = o->len;
	}
	return r;
}

/* Append ins to r, coming from phase A's pc `from` (labels pending bind to it). */
static void b_append(PhaseB *B, Ins *ins, int32_t from)
{
	ivec_push(&B->orig, from);
	ir_append(B->r, ins);
}

static void b_label(PhaseB *B, const char *name)
{
	int32_t l = ir_label(B->r, name, strlen(name), LOC_NONE);
	ir_define_label(B->r, l, LOC_NONE, &B->rd);
}

/* One instruction of phase A's program with its operands renamed, in the
** order its text names them: destination, a, b, c, arguments, target. */
static void b_ins(PhaseB *B, int32_t pc)
{
	const Program *q = B->q;
	const Ins *ins = &q->ins[pc];
	Ins c = *ins;
	c.label = -1;
	c.group = -1;
	if (c.dst >= 0)
		c.dst = B->rdst[pc] >= 0 ? b_version(B, B->rdst[pc]) : b_qvar(B, c.dst);
	c.a = b_opnd(B, &ins->a, B->ra[pc]);
	c.b = b_opnd(B, &ins->b, B->rb[pc]);
	c.c = b_opnd(B, &ins->c, B->rc[pc]);
	if (ins->nargs > 0) {
		c.args = xmalloc((size_t)ins->nargs * sizeof *c.args);
		for (int32_t k = 0; k < ins->nargs; k++)
			c.args[k] = b_opnd(B, &ins->args[k], B->rargs[pc] ? B->rargs[pc][k] : -1);
	}
	if (ins->target >= 0) {
		const char *l = ir_label_of(q, ins->target);
		c.target = -1;
		c.target_label = ir_label(B->r, l, strlen(l), LOC_NONE);
	}
	b_append(B, &c, pc);
}

/* Which side of join block `blk`'s branch the predecessor `pr` lies on:
** 1 the side that jumps, 0 the fall-through side, -1 unknown. */
static int side_of(const PhaseB *B, int32_t blk, int32_t pr)
{
	const Cfg *g = B->g;
	int32_t bb = g->block_of[B->join[blk].branch_pc];
	const Block *b = &g->blocks[bb];
	if (b->nsucc != 2)
		return -1;
	int32_t fall = b->succ[0], jump = b->succ[1];
	if (fall == jump)
		return -1;
	if (pr == bb)
		return jump == blk ? 1 : 0;
	if (fall != blk && cfg_dominates(g, fall, pr))
		return 0;
	if (jump != blk && cfg_dominates(g, jump, pr))
		return 1;
	return -1;
}

/* A predicate's value assumed on the way down a nested γ. */
typedef struct Assume {
	int32_t pc;       /* the branch whose predicate it is */
	bool nonzero;
} Assume;

static bool same_pred(const PhaseB *B, int32_t pc1, int32_t pc2)
{
	const Opnd *a = &B->q->ins[pc1].a, *b = &B->q->ins[pc2].a;
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case OPND_VAR: return B->branch_pred[pc1] >= 0 && B->branch_pred[pc1] == B->branch_pred[pc2];
	case OPND_SPECIAL: return a->special == b->special;
	case OPND_LIT: return num_eq(ir_lit(B->q, a), ir_lit(B->q, b));
	default: return false;
	}
}

/* Pre-order of the DAG under v with the assumptions as[0..n-1] (depth and
** recursion bounded by GSA_TREE_MAX: the tree was measured first). */
static void emit_tree_node(const PhaseB *B, const GateWalk *w, int32_t v, const int32_t *rep, Assume *as,
                           int32_t n, IVec *out)
{
	while (GATE_IS_NODE(v)) {
		int32_t k = GATE_NODE_INDEX(v), pc = B->g->blocks[w->br[k]].last;
		int32_t i = 0;
		while (i < n && !same_pred(B, as[i].pc, pc))
			i++;
		if (i == n)
			break;
		v = as[i].nonzero ? w->t[k] : w->f[k];
	}
	if (!GATE_IS_NODE(v)) {
		ivec_push(out, rep[v]);
		return;
	}
	int32_t k = GATE_NODE_INDEX(v), pc = B->g->blocks[w->br[k]].last;
	ivec_push(out, -1 - pc);
	if (n >= GSA_TREE_MAX) { /* cannot happen: the measured tree is smaller */
		emit_tree_node(B, w, w->t[k], rep, as, 0, out);
		emit_tree_node(B, w, w->f[k], rep, as, 0, out);
		return;
	}
	as[n] = (Assume){pc, true};
	emit_tree_node(B, w, w->t[k], rep, as, n + 1, out);
	as[n] = (Assume){pc, false};
	emit_tree_node(B, w, w->f[k], rep, as, n + 1, out);
}

/* The nested γ of gate gt at join block b from the walk's DAG of its edges
** (root_e: leaf k = the k-th predecessor): false when it cannot be a small
** tree that selects every operand (then gt stays a φ). */
static bool tree_gate(PhaseB *B, GateWalk *w, int32_t b, int32_t root_e, Gate *gt)
{
	const Block *bl = &B->g->blocks[b];
	int32_t n = bl->npred;
	int32_t *map = xmalloc(((size_t)n + 1) * sizeof *map);
	int32_t *rep = xmalloc(((size_t)n + 1) * sizeof *rep);
	int32_t nval = 0;
	for (int32_t k = 0; k < n; k++) {
		int32_t v = -1;
		for (int32_t j = 0; j < k && v < 0; j++)
			if (gt->ops[j] == gt->ops[k])
				v = map[j];
		if (v < 0) {
			v = nval;
			rep[nval++] = k;
		}
		map[k] = v;
	}
	bool ok = false;
	int32_t root = gate_relabel(w, root_e, map);
	if (GATE_IS_NODE(root) && gate_tree_size(w, root, GSA_TREE_MAX + 1) <= GSA_TREE_MAX) {
		/* serialise in pre-order (an explicit stack), checking that every
		** operand of a reachable predecessor is selected somewhere */
		bool *used = xcalloc((size_t)nval + 1, sizeof *used);
		IVec out = {0}, st = {0};
		ivec_push(&st, root);
		while (st.n > 0) {
			int32_t v = st.v[--st.n];
			if (GATE_IS_NODE(v)) {
				int32_t k = GATE_NODE_INDEX(v);
				ivec_push(&out, -1 - B->g->blocks[w->br[k]].last);
				ivec_push(&st, w->f[k]);
				ivec_push(&st, w->t[k]);
			} else if (v >= 0) {
				used[v] = true;
				ivec_push(&out, rep[v]);
			} else {
				ivec_push(&out, -1); /* ⊥ cannot be in a tree: refuse below */
				used[nval] = true;
			}
		}
		ok = !used[nval];
		for (int32_t k = 0; k < n && ok; k++)
			if (B->g->blocks[bl->pred[k]].reachable && !used[map[k]])
				ok = false;
		if (ok) {
			/* again, simplified: a node on a predicate an enclosing node already
			** tested reads the same value (γ reads the current value at the join)
			** and takes the same side (a short-circuit `a || b` tests a twice) */
			out.n = 0;
			Assume as[GSA_TREE_MAX + 1];
			emit_tree_node(B, w, root, rep, as, 0, &out);
			gt->tree = out.v;
			gt->ntree = out.n;
		} else
			free(out.v);
		free(st.v);
		free(used);
	}
	free(map);
	free(rep);
	return ok;
}

/* Decide μ / γ / η / nested γ / φ for the merges of each block (after
** renaming, when the operands are known). */
static void gate_kinds(PhaseB *B)
{
	const Cfg *g = B->g;
	GateWalk w;
	gate_init(&w, B->q, g);
	int32_t *edge_leaf = NULL;
	int32_t cap = 0;
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bl = &g->blocks[b];
		if (B->ngates[b] == 0)
			continue;
		if (bl->mu_index) {
			for (int32_t i = 0; i < B->ngates[b]; i++) {
				Gate *gt = &B->gates[b][i];
				if (gt->kind == G_ETA)
					continue;
				/* μ: every entry edge must bring the same value */
				int32_t entry = -1;
				bool ok = true;
				for (int32_t k = 0; k < bl->npred; k++)
					if (bl->mu_index[k] == 0) {
						if (entry >= 0 && entry != gt->ops[k])
							ok = false;
						entry = gt->ops[k];
					}
				gt->kind = ok && entry >= 0 ? G_MU : G_PHI;
			}
			continue;
		}
		if (B->join[b].branch_pc >= 0 && !B->join[b].loop_exit && bl->npred == 2) {
			int s0 = side_of(B, b, bl->pred[0]), s1 = side_of(B, b, bl->pred[1]);
			for (int32_t i = 0; i < B->ngates[b]; i++)
				if (B->gates[b][i].kind != G_ETA)
					B->gates[b][i].kind = s0 >= 0 && s1 >= 0 && s0 != s1 ? G_GAMMA : G_PHI;
			continue;
		}
		bool any = false;
		for (int32_t i = 0; i < B->ngates[b]; i++)
			any |= B->gates[b][i].kind == G_PHI;
		if (!any || bl->idom < 0)
			continue;
		/* any other join: the gating function of its edges (gate.h), unless
		** the block holds a sync after other instructions, which the γ's
		** implicit sync would pre-empt (the first of its leading syncs is
		** replaced, as in a join block) */
		bool late_sync = false;
		int32_t lead = bl->first;
		while (lead <= bl->last && B->q->ins[lead].op == OP_SYNC)
			lead++;
		for (int32_t pc = lead; pc <= bl->last && !late_sync; pc++)
			late_sync = B->q->ins[pc].op == OP_SYNC;
		if (late_sync)
			continue;
		if (bl->npred > cap) {
			cap = bl->npred;
			edge_leaf = xrealloc(edge_leaf, (size_t)cap * sizeof *edge_leaf);
		}
		for (int32_t k = 0; k < bl->npred; k++)
			edge_leaf[k] = k;
		int32_t root = gate_build(&w, b, bl->idom, edge_leaf, -1, GSA_DAG_MAX);
		if (root == GATE_TOO_BIG)
			continue;
		for (int32_t i = 0; i < B->ngates[b]; i++) {
			Gate *gt = &B->gates[b][i];
			if (gt->kind == G_PHI && tree_gate(B, &w, b, root, gt))
				gt->kind = G_TREE;
		}
	}
	free(edge_leaf);
	gate_free(&w);
}

/* The predicate operand of η at an exit block: the branch that leaves
** the loop, or, for a jump out of it, the nearest dominating branch of
** the loop whose reconvergence point lies outside it; -1: none (then 1). */
static int32_t exit_branch_pc(const PhaseB *B, int32_t blk)
{
	const Cfg *g = B->g;
	int32_t pc = B->exitb[blk].exit_pc;
	if (pc < 0)
		return -1;
	if (ir_is_branch((Op)B->q->ins[pc].op))
		return pc;
	int32_t loop = B->exitb[blk].loop;
	for (int32_t d = g->block_of[pc]; d >= 0 && loop_contains(g, loop, d); d = g->blocks[d].idom) {
		const Block *bd = &g->blocks[d];
		int32_t r = bd->ipdom;
		if (ir_is_branch((Op)B->q->ins[bd->last].op) && (r >= g->nblocks || !loop_contains(g, loop, r)))
			return bd->last;
	}
	return -1;
}

/* A nested γ from the pre-order at tree[*i], its nodes appended to
** nodes[*n..] as the parser keeps them before it lays them out (predicate,
** o1, o2 per node; bounded by GSA_TREE_MAX, as is the recursion). */
static Opnd b_tree(PhaseB *B, const Gate *gt, int32_t *i, Opnd *nodes, int32_t *n)
{
	int32_t e = gt->tree[(*i)++];
	if (e >= 0)
		return ir_opnd_var(b_version(B, gt->ops[e]), LOC_NONE);
	int32_t pc = -1 - e;
	Opnd pred = b_opnd(B, &B->q->ins[pc].a, B->branch_pred[pc]);
	Opnd o1 = b_tree(B, gt, i, nodes, n);
	Opnd o2 = b_tree(B, gt, i, nodes, n);
	int32_t at = *n;
	nodes[at] = pred;
	nodes[at + 1] = o1;
	nodes[at + 2] = o2;
	*n += 3;
	return (Opnd){.kind = OPND_GATE, .var = at, .off = -1};
}

/* The γ of a nested tree: its root (a, b, c) and the nodes below moved into
** args depth first (the parser's gate_flatten: c's subtree before b's, a
** node's o1 before its o2). */
static void b_tree_ins(PhaseB *B, const Gate *gt, Ins *ins)
{
	Opnd nodes[3 * GSA_TREE_MAX + 3];
	int32_t n = 0, i = 0;
	Opnd root = b_tree(B, gt, &i, nodes, &n);
	if (root.kind != OPND_GATE) { /* a single leaf: a copy */
		ins->op = OP_COPY;
		ins->a = root;
		return;
	}
	n -= 3; /* the root's node becomes a, b, c */
	ins->op = OP_GAMMA;
	ins->a = nodes[root.var];
	ins->b = nodes[root.var + 1];
	ins->c = nodes[root.var + 2];
	Opnd *stack[2 * GSA_TREE_MAX + 4];
	int32_t sp = 0, k = 0;
	if (ins->b.kind == OPND_GATE)
		stack[sp++] = &ins->b;
	if (ins->c.kind == OPND_GATE)
		stack[sp++] = &ins->c;
	if (sp == 0)
		return;
	ins->args = xmalloc((size_t)n * sizeof *ins->args);
	while (sp > 0) {
		Opnd *o = stack[--sp];
		const Opnd *src = &nodes[o->var];
		o->var = k;
		for (int j = 0; j < 3; j++)
			ins->args[k + j] = src[j];
		k += 3;
		for (int j = 2; j >= 1; j--)
			if (ins->args[k - 3 + j].kind == OPND_GATE)
				stack[sp++] = &ins->args[k - 3 + j];
	}
	ins->nargs = k;
}

/* A fresh name for a version the construction adds to an SSA program:
** x.k → x.(k+1), x.(k+2), ...; another name n → n.0, n.1, ... */
static char *fresh_version_name(const PhaseB *B, Program *taken, const char *base)
{
	size_t len = strlen(base), dot = len;
	while (dot > 0 && base[dot - 1] >= '0' && base[dot - 1] <= '9')
		dot--;
	long k = 0;
	size_t stem = len;
	if (dot < len && dot > 0 && base[dot - 1] == '.' && len - dot < 9) {
		k = strtol(base + dot, NULL, 10) + 1;
		stem = dot - 1;
	}
	Buf nb = {0};
	for (;; k++) {
		buf_reset(&nb);
		buf_putn(&nb, base, stem);
		buf_printf(&nb, ".%ld", k);
		if (ir_find_var(B->q, buf_str(&nb)) < 0 && ir_find_var(taken, buf_str(&nb)) < 0)
			break;
	}
	ir_var(taken, buf_str(&nb), nb.len, LOC_NONE);
	return buf_steal(&nb);
}

/* Build the GSA program B->r; with B->r == NULL only number the versions
** in the order of their definitions. */
static void emit_b(PhaseB *B, const LabelIndex *li)
{
	Program *r = B->r;
	const Program *q = B->q;
	const Cfg *g = B->g;
	int32_t *count = NULL;
	Program *taken = NULL;
	if (!r) {
		count = xcalloc((size_t)B->nv + 1, sizeof *count);
		taken = ir_new(q->path, "", 0);
	}
#define NUMBER(v)                                                                        \
	do {                                                                                \
		Version *x_ = &B->ver[v];                                                       \
		if (!r && x_->num == -1) {                                                  \
			if (B->keep_names && !x_->gate)                                             \
				x_->num = -3;                                                           \
			else if (B->keep_names)                                                     \
				x_->name = fresh_version_name(B, taken, q->vars[x_->var].name);         \
			else                                                                        \
				x_->num = next_number(B, x_->var, &count[x_->var]);                     \
			if (x_->name)                                                               \
				x_->num = -4;                                                           \
		}                                                                               \
	} while (0)
	if (r)
		copy_directives(r, q, B->rq, &B->rd);
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		int32_t first = bl->first;
		if (r)
			for (int32_t i = li->start[first]; i < li->start[first + 1]; i++)
				b_label(B, q->labels[li->lab[i]].name);
		bool implicit = false;
		for (int32_t i = 0; i < B->ngates[b]; i++) {
			Gate *gt = &B->gates[b][i];
			NUMBER(gt->dst);
			/* the block's first sync goes: γ and η are implicit syncs */
			implicit |= gt->kind == G_GAMMA || gt->kind == G_ETA || gt->kind == G_TREE;
			B->nemit++;
			if (!r)
				continue;
			Ins x = ir_ins_init(OP_COPY, LOC_NONE);
			x.dst = b_version(B, gt->dst);
			int32_t pv = B->join[b].branch_pc >= 0 ? B->branch_pred[B->join[b].branch_pc] : -1;
			const Ins *br = B->join[b].branch_pc >= 0 ? &q->ins[B->join[b].branch_pc] : NULL;
			switch (gt->kind) {
			case G_ETA:
				x.op = OP_ETA;
				if (br)
					x.a = b_opnd(B, &br->a, pv);
				else {
					int32_t epc = exit_branch_pc(B, b);
					if (epc >= 0)
						x.a = b_opnd(B, &q->ins[epc].a, B->branch_pred[epc]);
					else
						x.a = ir_opnd_lit(B->r, NUM_I(1), LOC_NONE);
				}
				x.b = ir_opnd_var(b_version(B, gt->ops[0]), LOC_NONE);
				break;
			case G_GAMMA: {
				/* γ(p, o1, o2) is o1 where p ≠ 0: bz jumps where p = 0, bnz where p ≠ 0 */
				int s0 = side_of(B, b, bl->pred[0]);
				int32_t jumpv = s0 == 1 ? gt->ops[0] : gt->ops[1];
				int32_t fallv = s0 == 1 ? gt->ops[1] : gt->ops[0];
				bool bz = br->op == OP_BZ;
				x.op = OP_GAMMA;
				x.a = b_opnd(B, &br->a, pv);
				x.b = ir_opnd_var(b_version(B, bz ? fallv : jumpv), LOC_NONE);
				x.c = ir_opnd_var(b_version(B, bz ? jumpv : fallv), LOC_NONE);
				break;
			}
			case G_TREE:
				b_tree_ins(B, gt, &x);
				break;
			case G_MU: {
				int32_t arity = cfg_mu_arity(g, b);
				int32_t *ops = xmalloc((size_t)arity * sizeof *ops);
				for (int32_t k = 0; k < bl->npred; k++)
					ops[bl->mu_index[k]] = gt->ops[k];
				x.op = OP_MU;
				x.nargs = arity;
				x.args = xmalloc((size_t)arity * sizeof *x.args);
				for (int32_t k = 0; k < arity; k++)
					x.args[k] = ir_opnd_var(b_version(B, ops[k]), LOC_NONE);
				free(ops);
				break;
			}
			case G_PHI:
				x.op = OP_PHI;
				x.nargs = bl->npred;
				x.args = xmalloc(((size_t)bl->npred + 1) * sizeof *x.args);
				for (int32_t k = 0; k < bl->npred; k++)
					x.args[k] = ir_opnd_var(b_version(B, gt->ops[k]), LOC_NONE);
				break;
			}
			b_append(B, &x, first);
		}
		for (int32_t pc = first; pc <= bl->last; pc++) {
			const Ins *ins = &q->ins[pc];
			if (pc == first && implicit && ins->op == OP_SYNC)
				continue;
			if (B->rdst[pc] >= 0)
				NUMBER(B->rdst[pc]);
			B->nemit++;
			if (!r)
				continue;
			if (pc != first)
				for (int32_t i = li->start[pc]; i < li->start[pc + 1]; i++)
					b_label(B, q->labels[li->lab[i]].name);
			b_ins(B, pc);
		}
	}
#undef NUMBER
	free(count);
	ir_free(taken);
}

/* φ sites: the iterated dominance frontier of the definitions (η sites
** included) where the variable is live; η sites: the exit blocks and
** loop-exit join blocks of the loops that assign it, where it is live.
** One variable at a time, η gates first in each block, as the papers
** print them. */
static void place_gates(PhaseB *B, const IVec *df, const IVec *eta_blocks)
{
	const Program *q = B->q;
	const Cfg *g = B->g;
	int32_t nb = g->nblocks;
	Live L;
	live_init(&L, q, g, B->is_src);
	int32_t *lmark = xcalloc((size_t)g->nloops + 1, sizeof *lmark);
	int32_t *has_phi = xmalloc(((size_t)nb + 1) * sizeof *has_phi);
	int32_t *queued = xmalloc(((size_t)nb + 1) * sizeof *queued);
	for (int32_t b = 0; b <= nb; b++)
		has_phi[b] = queued[b] = -1;
	/* the η sites of each loop: exit blocks whose outermost exited loop it is */
	IVec *eta_of = xcalloc((size_t)g->nloops + 1, sizeof *eta_of);
	for (int32_t i = 0; i < eta_blocks->n; i++) {
		int32_t b = eta_blocks->v[i];
		int32_t l = B->join[b].branch_pc >= 0 ? B->join[b].loop : B->exitb[b].loop;
		if (l >= 0)
			ivec_push(&eta_of[l], b);
	}
	IVec etas = {0}, phis = {0}; /* (block, var) pairs, in var order */
	IVec work = {0};
	for (int32_t x = 0; x < B->nv; x++) {
		if (!B->is_src[x] || L.dstart[x] == L.dstart[x + 1])
			continue;
		bool walked = false;
		work.n = 0;
		for (int32_t i = L.dstart[x]; i < L.dstart[x + 1]; i++) {
			int32_t b = L.dblk[i];
			queued[b] = x;
			ivec_push(&work, b);
		}
		/* η: loops that assign x, each once, with their enclosing loops */
		for (int32_t i = L.dstart[x]; i < L.dstart[x + 1]; i++)
			for (int32_t l = g->blocks[L.dblk[i]].loop; l >= 0 && lmark[l] != x + 1; l = g->loops[l].parent) {
				lmark[l] = x + 1;
				for (int32_t k = 0; k < eta_of[l].n; k++) {
					int32_t b = eta_of[l].v[k];
					if (!live_at(&L, x, b, &walked) || has_phi[b] == x)
						continue;
					has_phi[b] = x;
					ivec_push(&etas, b);
					ivec_push(&etas, x);
					if (queued[b] != x) {
						queued[b] = x;
						ivec_push(&work, b);
					}
				}
			}
		while (work.n > 0) {
			int32_t b = work.v[--work.n];
			for (int32_t i = 0; i < df[b].n; i++) {
				int32_t y = df[b].v[i];
				if (has_phi[y] == x || !live_at(&L, x, y, &walked))
					continue;
				has_phi[y] = x;
				ivec_push(&phis, y);
				ivec_push(&phis, x);
				if (queued[y] != x) {
					queued[y] = x;
					ivec_push(&work, y);
				}
			}
		}
	}
	for (int32_t i = 0; i < etas.n; i += 2)
		add_gate(B, etas.v[i], etas.v[i + 1], G_ETA, 1);
	for (int32_t i = 0; i < phis.n; i += 2)
		add_gate(B, phis.v[i], phis.v[i + 1], G_PHI, g->blocks[phis.v[i]].npred);
	for (int32_t l = 0; l < g->nloops; l++)
		free(eta_of[l].v);
	free(eta_of);
	free(etas.v);
	free(phis.v);
	free(work.v);
	free(has_phi);
	free(queued);
	free(lmark);
	live_free(&L);
}

/* The GSA program of phase A's q, or NULL with an internal error in d
** if it is not valid (a bug of this file). */
static Program *phase_b(PhaseB *B, const Program *q, const PhaseA *A, Diags *d)
{
	const Cfg *g = q->cfg;
	int32_t nb = g->nblocks;
	B->q = q;
	B->g = g;
	B->nv = q->nvars;
	B->join = xmalloc(((size_t)nb + 1) * sizeof *B->join);
	B->exitb = xmalloc(((size_t)nb + 1) * sizeof *B->exitb);
	for (int32_t b = 0; b <= nb; b++) {
		B->join[b] = (BJoin){-1, false, -1};
		B->exitb[b] = (BExit){-1, -1};
	}
	IVec eta_blocks = {0};
	for (int32_t i = 0; i < A->njoins; i++) {
		const Join *x = &A->joins[i];
		if (x->p1_node < 0 || x->p1_branch < 0)
			continue;
		int32_t nblk = g->block_of[x->p1_node];
		int32_t bblk = g->block_of[x->p1_branch];
		B->join[nblk].branch_pc = x->p1_branch;
		B->join[nblk].loop_exit = x->loop_exit;
		B->join[nblk].loop = x->loop_exit ? exited_loop(g, bblk, nblk) : -1;
		if (x->loop_exit)
			ivec_push(&eta_blocks, nblk);
	}
	for (int32_t i = 0; i < A->nex; i++) {
		const ExitEdge *e = &A->ex[i];
		if (!e->label || e->p1_exit < 0)
			continue;
		int32_t lab = ir_find_label(q, e->label);
		if (lab < 0 || q->labels[lab].ins < 0)
			continue;
		int32_t xb = g->block_of[q->labels[lab].ins];
		B->exitb[xb].exit_pc = e->p1_exit;
		B->exitb[xb].loop = exited_loop(g, g->block_of[e->p1_exit], xb);
		ivec_push(&eta_blocks, xb);
	}
	B->is_src = xcalloc((size_t)B->nv + 1, sizeof *B->is_src);
	int32_t *ndefs = xcalloc((size_t)B->nv + 1, sizeof *ndefs);
	/* SSA text already (every variable assigned once, versions named x.k):
	** keep its names rather than write x.1.0 */
	bool ssa = true, versioned = false;
	for (int32_t pc = 0; pc < q->nins; pc++)
		if (q->ins[pc].dst >= 0 && ++ndefs[q->ins[pc].dst] > 1)
			ssa = false;
	for (int32_t v = 0; v < q->nvars && ssa && !versioned; v++) {
		const char *nm = q->vars[v].name;
		size_t len = strlen(nm), k = len;
		while (k > 0 && nm[k - 1] >= '0' && nm[k - 1] <= '9')
			k--;
		versioned = ndefs[v] == 1 && k < len && k > 1 && nm[k - 1] == '.';
	}
	B->keep_names = ssa && versioned;
	B->clash = find_clashes(q);
	free(ndefs);
	for (int32_t v = 0; v < B->nv; v++)
		B->is_src[v] = !q->vars[v].is_param;
	B->gates = xcalloc((size_t)nb + 1, sizeof *B->gates);
	B->ngates = xcalloc((size_t)nb + 1, sizeof *B->ngates);
	B->capgates = xcalloc((size_t)nb + 1, sizeof *B->capgates);
	B->zero = xmalloc(((size_t)B->nv + 1) * sizeof *B->zero);
	for (int32_t v = 0; v < B->nv; v++)
		B->zero[v] = -1;
	int32_t n = q->nins;
	B->rdst = xmalloc(((size_t)n + 1) * sizeof *B->rdst);
	B->ra = xmalloc(((size_t)n + 1) * sizeof *B->ra);
	B->rb = xmalloc(((size_t)n + 1) * sizeof *B->rb);
	B->rc = xmalloc(((size_t)n + 1) * sizeof *B->rc);
	B->branch_pred = xmalloc(((size_t)n + 1) * sizeof *B->branch_pred);
	B->rargs = xcalloc((size_t)n + 1, sizeof *B->rargs);
	for (int32_t pc = 0; pc < n; pc++)
		B->rdst[pc] = B->ra[pc] = B->rb[pc] = B->rc[pc] = B->branch_pred[pc] = -1;
	B->stack = xcalloc((size_t)B->nv + 1, sizeof *B->stack);
	B->domkids = xcalloc((size_t)nb + 1, sizeof *B->domkids);
	for (int32_t i = 0; i < g->nrpo; i++) {
		int32_t b = g->rpo[i];
		if (g->blocks[b].idom >= 0)
			ivec_push(&B->domkids[g->blocks[b].idom], b);
	}
	/* dominance frontiers (Cooper, Harvey & Kennedy) */
	IVec *df = xcalloc((size_t)nb + 1, sizeof *df);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable || bl->npred < 2)
			continue;
		for (int32_t k = 0; k < bl->npred; k++) {
			int32_t r = bl->pred[k];
			if (!g->blocks[r].reachable)
				continue;
			while (r >= 0 && r != bl->idom) {
				/* a runner from another predecessor of b has been here
				** and went on up to b's idom: the rest is done (without
				** this, 10^5 branches into one block were quadratic) */
				if (df[r].n > 0 && df[r].v[df[r].n - 1] == b)
					break;
				ivec_push(&df[r], b);
				r = g->blocks[r].idom;
			}
		}
	}
	place_gates(B, df, &eta_blocks);
	if (g->nrpo > 0)
		rename_all(B, g->rpo[0]);
	gate_kinds(B);
	LabelIndex li;
	label_index(&li, q);
	emit_b(B, &li); /* numbering */
	B->r = ir_new(q->path, "", 0);
	ir_reserve(B->r, B->nemit, B->nver + q->nvars);
	B->rver = xmalloc(((size_t)B->nver + 1) * sizeof *B->rver);
	for (int32_t v = 0; v < B->nver; v++)
		B->rver[v] = -1;
	B->rq = xmalloc(((size_t)B->nv + 1) * sizeof *B->rq);
	for (int32_t v = 0; v < B->nv; v++)
		B->rq[v] = -1;
	diag_init(&B->rd, q->path, "", 0);
	emit_b(B, &li);
	label_index_free(&li);
	for (int32_t b = 0; b <= nb; b++)
		free(df[b].v);
	free(df);
	free(eta_blocks.v);
	Program *r = B->r;
	B->r = NULL;
	return finish_built(r, &B->rd, d, "renaming");
}

static void phase_b_free(PhaseB *B)
{
	if (!B->g)
		return;
	int32_t nb = B->g->nblocks;
	for (int32_t x = 0; x < B->nv; x++)
		free(B->stack[x].v);
	for (int32_t b = 0; b <= nb; b++) {
		free(B->domkids[b].v);
		for (int32_t i = 0; i < B->ngates[b]; i++) {
			free(B->gates[b][i].ops);
			free(B->gates[b][i].tree);
		}
		free(B->gates[b]);
	}
	free(B->domkids);
	free(B->gates);
	free(B->ngates);
	free(B->capgates);
	for (int32_t pc = 0; pc < B->q->nins; pc++)
		free(B->rargs[pc]);
	free(B->rargs);
	free(B->rdst);
	free(B->ra);
	free(B->rb);
	free(B->rc);
	free(B->branch_pred);
	free(B->stack);
	free(B->zero);
	for (int32_t v = 0; v < B->nver; v++)
		free(B->ver[v].name);
	free(B->ver);
	free(B->is_src);
	free(B->clash);
	free(B->join);
	free(B->exitb);
	free(B->orig.v);
	free(B->rver);
	free(B->rq);
	buf_free(&B->nb);
	diag_free(&B->rd);
	ir_free(B->r);
}

/* ---- the user's lines ------------------------------------------------------ */

/* Give r the user's text src (taken: srclen + 1 bytes at least, malloc'd)
** and locations: instruction k of r comes from phase A's instruction
** from[k] of q (-1: none), which has the user's locations (phase A copies
** them; an instruction it derives has its statement's location for every
** part, and its labels and parameters keep theirs). An instruction copied
** from q keeps its operands' locations; a derived one (a γ, a join block's
** sync, an exit block's jump) takes the location of the instruction it was
** derived from for all of them. */
static void adopt_origins(Program *r, const Program *q, const int32_t *from, char *src, size_t srclen)
{
	free(r->src);
	r->src = src;
	r->srclen = srclen;
	for (int32_t k = 0; k < r->nins; k++) {
		int32_t o = from[k];
		if (o < 0 || o >= q->nins)
			continue;
		take_locations(&r->ins[k], &q->ins[o]);
	}
	for (int32_t i = 0; i < r->nlabels; i++) {
		int32_t ql = ir_find_label(q, r->labels[i].name);
		if (ql >= 0 && q->labels[ql].loc.off >= 0)
			r->labels[i].loc = q->labels[ql].loc;
		else if (r->labels[i].ins >= 0)
			r->labels[i].loc = r->ins[r->labels[i].ins].loc;
	}
	for (int32_t k = 0; k < r->nins; k++)
		if (r->ins[k].dst >= 0)
			r->vars[r->ins[k].dst].loc = ir_dst_loc(&r->ins[k]);
	for (int32_t v = 0; v < r->nvars; v++)
		if (r->vars[v].is_param) {
			int32_t qv = ir_find_var(q, r->vars[v].name);
			if (qv >= 0)
				r->vars[v].loc = q->vars[qv].loc;
		}
}

/* ---- reducibility ----------------------------------------------------------- */

/* GSA form, μ and η need natural loops: every cycle entered through one
** block (its header). An edge u → v that goes back in reverse post-order
** without v dominating u closes a cycle with several entries. Report it:
** the blocks of the cycle (those reachable from v that reach u) and its
** entries, by label and line. */
static bool check_reducible(const Program *p, const Cfg *g, Diags *d)
{
	int32_t nb = g->nblocks;
	int32_t *pos = xmalloc(((size_t)nb + 1) * sizeof *pos);
	for (int32_t b = 0; b <= nb; b++)
		pos[b] = -1;
	for (int32_t i = 0; i < g->nrpo; i++)
		pos[g->rpo[i]] = i;
	int32_t bu = -1, bv = -1;
	for (int32_t i = 0; i < g->nrpo && bu < 0; i++) {
		int32_t u = g->rpo[i];
		for (int32_t k = 0; k < g->blocks[u].nsucc; k++) {
			int32_t v = g->blocks[u].succ[k];
			if (v < nb && pos[v] >= 0 && pos[v] <= pos[u] && !cfg_dominates(g, v, u)) {
				bu = u;
				bv = v;
				break;
			}
		}
	}
	if (bu < 0) {
		free(pos);
		return true;
	}
	/* the cycle: forward from v, backward from u */
	uint8_t *mark = xcalloc((size_t)nb + 1, 1);
	IVec st = {0};
	ivec_push(&st, bv);
	mark[bv] |= 1;
	while (st.n > 0) {
		const Block *x = &g->blocks[st.v[--st.n]];
		for (int32_t k = 0; k < x->nsucc; k++)
			if (x->succ[k] < nb && !(mark[x->succ[k]] & 1)) {
				mark[x->succ[k]] |= 1;
				ivec_push(&st, x->succ[k]);
			}
	}
	ivec_push(&st, bu);
	mark[bu] |= 2;
	while (st.n > 0) {
		const Block *x = &g->blocks[st.v[--st.n]];
		for (int32_t k = 0; k < x->npred; k++)
			if (g->blocks[x->pred[k]].reachable && !(mark[x->pred[k]] & 2)) {
				mark[x->pred[k]] |= 2;
				ivec_push(&st, x->pred[k]);
			}
	}
	Buf cyc = {0}, ent = {0};
	int32_t ncyc = 0, nent = 0;
	for (int32_t b = 0; b < nb; b++) {
		if (mark[b] != 3)
			continue;
		if (ncyc++ < 8) {
			buf_puts(&cyc, ncyc > 1 ? ", " : "");
			ir_print_where(&cyc, p, g->blocks[b].first);
			buf_printf(&cyc, " (line %d)", (int)p->ins[g->blocks[b].first].loc.line);
		}
		bool entry = b == 0;
		for (int32_t k = 0; k < g->blocks[b].npred && !entry; k++)
			entry = g->blocks[g->blocks[b].pred[k]].reachable && mark[g->blocks[b].pred[k]] != 3;
		if (entry && nent++ < 8) {
			buf_puts(&ent, nent > 1 ? ", " : "");
			ir_print_where(&ent, p, g->blocks[b].first);
			buf_printf(&ent, " (line %d)", (int)p->ins[g->blocks[b].first].loc.line);
		}
	}
	if (ncyc > 8)
		buf_printf(&cyc, ", ... (%d blocks)", (int)ncyc);
	diag_error(d, p->ins[g->blocks[bv].first].loc,
	           "the control-flow graph is irreducible: the cycle through %s is entered at %d "
	           "places, %s; GSA form and the analyses need every loop entered through its header "
	           "(the program still runs: musimd run)",
	           buf_str(&cyc), (int)nent, buf_str(&ent));
	buf_free(&cyc);
	buf_free(&ent);
	free(st.v);
	free(mark);
	free(pos);
	return false;
}


/* ---- entry point ------------------------------------------------------- */

/* gsa_build; with drop == p, p's code is released as soon as phase A is
** done (its memory is reused for the result) and its text goes to the
** result. */
static Program *build(const Program *p, Program *drop, Diags *d)
{
	if (!p->cfg) {
		diag_error(d, LOC_NONE, "the program has errors; no GSA form");
		return NULL;
	}
	if (p->has_calls) { /* the callers inline them first (xform_inline) */
		diag_error(d, LOC_NONE, "the program has calls: the GSA form is built on it with its calls inlined");
		return NULL;
	}
	if (!check_reducible(p, p->cfg, d))
		return NULL;
	if (p->has_gsa) /* already GSA: a fresh copy (user φs stay φs) */
		return reparse(p, p->src, p->srclen, d, "copy");
	/* phase A builds its program directly (the text would re-parse to it) */
	PhaseA A = {.p = p, .g = p->cfg, .q = ir_new(p->path, "", 0)};
	/* p's instructions and, at most, a jump per block */
	ir_reserve(A.q, p->nins + p->cfg->nblocks + 1, p->nvars);
	A.qvar = xmalloc(((size_t)p->nvars + 1) * sizeof *A.qvar);
	for (int32_t v = 0; v < p->nvars; v++)
		A.qvar[v] = -1;
	diag_init(&A.qd, p->path, "", 0);
	size_t len1 = 0;
	phase_a(&A, &len1);
	Program *q = a_finish(&A, d);
	/* the user's text, for r */
	size_t srclen = p->srclen;
	char *src;
	if (drop) {
		src = drop->src;
		drop->src = NULL;
	} else {
		src = xmalloc(srclen + 2);
		memcpy(src, p->src, srclen + 1);
	}
	phase_a_free(&A);
	if (drop)
		ir_drop_code(drop);
	p = NULL;
	Program *r = NULL;
	if (q) {
		PhaseB B = {0};
		r = phase_b(&B, q, &A, d);
		if (r) {
			int32_t *from = xmalloc(((size_t)r->nins + 1) * sizeof *from);
			for (int32_t k = 0; k < r->nins; k++)
				from[k] = k < B.orig.n ? B.orig.v[k] : -1;
			adopt_origins(r, q, from, src, srclen);
			src = NULL;
			free(from);
		}
		phase_b_free(&B);
		ir_free(q);
	}
	if (drop && src) /* failed: the diagnostics may show it */
		drop->src = src;
	else
		free(src);
	phase_a_free_rest(&A);
	return r;
}

Program *gsa_build(const Program *p, Diags *d)
{
	return build(p, NULL, d);
}

Program *gsa_build_dropping(Program *p, Diags *d)
{
	return build(p, p, d);
}

/* ---- musimd syncs --------------------------------------------------------- */

bool gsa_place_syncs(const Program *p, Buf *out, Diags *d)
{
	if (!p->cfg) {
		diag_error(d, LOC_NONE, "the program has errors; no syncs placed");
		return false;
	}
	if (p->has_gsa) {
		diag_error(d, LOC_NONE, "the program is in GSA form: its γ and η are implicit syncs; "
		                        "place the syncs in the plain program");
		return false;
	}
	if (!check_reducible(p, p->cfg, d))
		return false;
	PhaseA A = {.p = p, .g = p->cfg, .place = true};
	diag_init(&A.qd, p->path, "", 0);
	size_t len = 0;
	char *t = phase_a(&A, &len);
	bool ok = A.why == NULL;
	if (!ok) {
		Buf w = {0};
		ir_print_where(&w, p, A.why_pc);
		diag_error(d, p->ins[A.why_pc].loc,
		           "no placement of syncs lets the sync model run this program (the branch at %s, "
		           "line %d): %s",
		           buf_str(&w), (int)p->ins[A.why_pc].loc.line, A.why);
		buf_free(&w);
	} else {
		/* the result must parse and pass the sync check */
		Program *q = reparse(p, t, len, d, "placing syncs");
		if (!q)
			ok = false;
		else {
			Diags d2;
			diag_init(&d2, p->path, t, len);
			if (syncs_check(q, &d2, 4) != 0) {
				ok = false;
				for (int i = 0; i < d2.n; i++)
					if (d2.v[i].sev == SEV_WARNING) {
						diag_error(d, LOC_NONE,
						           "the syncs placed do not fit every path (a limitation of musimd "
						           "syncs): line %d of the result: %s",
						           (int)d2.v[i].loc.line, d2.v[i].msg);
						break;
					}
			}
			diag_free(&d2);
			ir_free(q);
		}
	}
	if (ok)
		buf_putn(out, t, len);
	free(t);
	phase_a_free(&A);
	phase_a_free_rest(&A);
	return ok;
}
