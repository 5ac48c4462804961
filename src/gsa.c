/*
** gsa.c — gated SSA construction (analyses.md §1; Sampaio 2013 §3.3, after
** Tu & Padua 1995: "γ and η functions exist at the post-dominator of the
** branch that controls them").
**
** Two phases, each ending in program text that the front end re-parses
** (so the result is re-parsable by construction and gets its own CFG):
**
** A. Join blocks. Every conditional branch B whose immediate post-dominator
**    J starts with the syncs that pop the branches reconverging there gets a
**    join block N_B of its own: the edges into J from B's influence region
**    (the blocks between B and J) are redirected to N_B, and N_B flows into
**    the join block of the innermost enclosing branch with the same J, the
**    outermost into the rest of J. The k leading syncs of J become the
**    syncs of the join blocks (a path crosses as many join blocks as J had
**    syncs, checked). A J whose syncs do not match its branches this way is
**    left alone: its merges stay plain φs, which the analyses treat as
**    divergent.
** B. SSA (Cytron et al.: φ at the iterated dominance frontier, pruned by
**    liveness; renaming along the dominator tree), where a loop's exit join
**    block also defines every variable that is assigned in the loop and live
**    after it (η), and then gating: a φ at a loop header becomes μ (entry
**    operand first), a φ at the join block of an if-then(-else) becomes
**    γ(p, o1, o2) with o1 the value of the side taken where p ≠ 0, and the
**    join block's sync disappears (γ and η are implicit syncs, semantics.md
**    §4). Versions are named x.0, x.1, ... in the order of their definitions
**    in the output, as the papers name them (d0 = 0, d1 = μ(d0, d2) in
**    sumTriangle); a merge operand on a path where x was never assigned is
**    x.undef, a variable no instruction assigns: GSA copies of it stay
**    unassigned (semantics.md §4), so the program fails exactly where the
**    original would, and the analyses treat it as ⊤.
**
** The construction assumes the mnemonic bz polarity (bz jumps where p = 0).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "gsa.h"

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
	for (int32_t l = g->blocks[blk].loop; l >= 0; l = g->loops[l].parent)
		if (l == loop)
			return true;
	return false;
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

/* ---- phase A: one join block per branch -------------------------------- */

typedef struct Join {
	int32_t branch_pc;  /* B, in the source program */
	int32_t region;     /* size of B's influence region, for nesting */
	int32_t parent;     /* enclosing join with the same J (index into joins), or -1 */
	int32_t depth;      /* 1 for the outermost */
	IVec children;
	bool loop_exit;     /* B leaves the innermost loop containing it: η, not γ */
	char *label;        /* of N_B */
	int32_t p1_node;    /* pc of N_B's sync in phase A's program */
	int32_t p1_branch;  /* pc of B in phase A's program */
} Join;

typedef struct JBlock {
	IVec joins;         /* joins with this J */
	int32_t nsyncs;     /* leading syncs of J */
	int32_t *leaf;      /* per predecessor of J: the join whose N receives the edge */
	bool valid;
	int32_t root;
} JBlock;

typedef struct PhaseA {
	const Program *p;
	const Cfg *g;
	Join *joins;
	int32_t njoins, capjoins;
	JBlock *jb;         /* per block */
	LabelIndex li;
	int32_t nlabels_made;
	Buf out;
	int32_t pc1;        /* pc of the next instruction emitted */
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
			return strdup(name);
	}
}

/* Blocks between B and J: reachable from B's successors without entering J. */
static int32_t region_mark(const Cfg *g, int32_t bblk, int32_t J, int32_t *stamp, int32_t mark, IVec *stack)
{
	int32_t size = 0;
	stack->n = 0;
	const Block *b = &g->blocks[bblk];
	for (int32_t i = 0; i < b->nsucc; i++)
		ivec_push(stack, b->succ[i]);
	while (stack->n > 0) {
		int32_t x = stack->v[--stack->n];
		if (x == J || x >= g->nblocks || stamp[x] == mark)
			continue;
		stamp[x] = mark;
		size++;
		for (int32_t i = 0; i < g->blocks[x].nsucc; i++)
			ivec_push(stack, g->blocks[x].succ[i]);
	}
	return size;
}

/* Decide the join tree of block J (see the file comment). */
static void plan_jblock(PhaseA *A, int32_t J, int32_t *stamp, int32_t *mark, IVec *stack, const int32_t *exits)
{
	const Cfg *g = A->g;
	JBlock *jb = &A->jb[J];
	const Block *bj = &g->blocks[J];
	int32_t m = jb->joins.n;
	jb->nsyncs = leading_syncs(A->p, bj);
	jb->leaf = xmalloc(((size_t)bj->npred + 1) * sizeof *jb->leaf);
	for (int32_t i = 0; i < bj->npred; i++)
		jb->leaf[i] = -1;
	jb->valid = jb->nsyncs > 0;
	/* innermost first: a nested branch's region is a strict subset */
	for (int32_t i = 0; i < m; i++)
		for (int32_t j = i + 1; j < m; j++) {
			Join *x = &A->joins[jb->joins.v[i]], *y = &A->joins[jb->joins.v[j]];
			if (y->region < x->region) {
				int32_t t = jb->joins.v[i];
				jb->joins.v[i] = jb->joins.v[j];
				jb->joins.v[j] = t;
			}
		}
	for (int32_t i = 0; i < m; i++) {
		Join *x = &A->joins[jb->joins.v[i]];
		int32_t bblk = g->block_of[x->branch_pc];
		region_mark(g, bblk, J, stamp, ++*mark, stack);
		/* predecessors of J in B's region (or B itself) not yet claimed by an inner branch */
		for (int32_t k = 0; k < bj->npred; k++) {
			int32_t q = bj->pred[k];
			if (jb->leaf[k] < 0 && (q == bblk || stamp[q] == *mark))
				jb->leaf[k] = jb->joins.v[i];
		}
		/* inner branches without a parent yet */
		for (int32_t j = 0; j < i; j++) {
			Join *y = &A->joins[jb->joins.v[j]];
			if (y->parent < 0 && stamp[g->block_of[y->branch_pc]] == *mark)
				y->parent = jb->joins.v[i];
		}
		if (x->loop_exit) {
			int32_t l = g->blocks[bblk].loop;
			if (l < 0 || exits[l] != 1)
				jb->valid = false;
		}
	}
	jb->root = -1;
	for (int32_t i = 0; i < m; i++) {
		int32_t ji = jb->joins.v[i];
		Join *x = &A->joins[ji];
		if (x->parent < 0) {
			if (jb->root >= 0)
				jb->valid = false; /* two outermost branches: not nested */
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
		if (jb->leaf[k] < 0 || A->joins[jb->leaf[k]].depth != jb->nsyncs)
			jb->valid = false;
	}
	for (int32_t i = 0; i < m; i++) {
		Join *x = &A->joins[jb->joins.v[i]];
		/* a loop exit's join block has the exit edge alone */
		if (x->loop_exit && x->children.n > 0)
			jb->valid = false;
	}
}

static void emit_labels(PhaseA *A, int32_t pc)
{
	for (int32_t i = A->li.start[pc]; i < A->li.start[pc + 1]; i++)
		buf_printf(&A->out, "%s: ", A->p->labels[A->li.lab[i]].name);
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

static void emit_node(PhaseA *A, int32_t ji)
{
	Join *x = &A->joins[ji];
	for (int32_t i = 0; i < x->children.n; i++) {
		emit_node(A, x->children.v[i]);
		if (i + 1 < x->children.n) {
			buf_printf(&A->out, "jump %s\n", x->label);
			A->pc1++;
		}
	}
	buf_printf(&A->out, "%s: sync\n", x->label);
	x->p1_node = A->pc1++;
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
		if (j >= 0) {
			if (ins->op == OP_JUMP)
				buf_printf(&A->out, "jump %s\n", A->joins[j].label);
			else {
				buf_puts(&A->out, ins->op == OP_BZ ? "bz " : "bnz ");
				ir_print_opnd(&A->out, p, &ins->a);
				buf_printf(&A->out, ", %s\n", A->joins[j].label);
			}
			A->pc1++;
			return;
		}
	}
	ir_print_ins(&A->out, p, ins);
	buf_putc(&A->out, '\n');
	A->pc1++;
}

static char *phase_a(PhaseA *A, size_t *len)
{
	const Program *p = A->p;
	const Cfg *g = A->g;
	int32_t nb = g->nblocks;
	A->jb = xcalloc((size_t)nb + 1, sizeof *A->jb);
	label_index(&A->li, p);
	/* exiting edges per loop */
	int32_t *exits = xcalloc((size_t)g->nloops + 1, sizeof *exits);
	for (int32_t b = 0; b < nb; b++) {
		if (!g->blocks[b].reachable)
			continue;
		for (int32_t l = g->blocks[b].loop; l >= 0; l = g->loops[l].parent)
			for (int32_t i = 0; i < g->blocks[b].nsucc; i++) {
				int32_t s = g->blocks[b].succ[i];
				if (s >= nb || !loop_contains(g, l, s))
					exits[l]++;
			}
	}
	int32_t *stamp = xcalloc((size_t)nb + 1, sizeof *stamp);
	int32_t *join_of = xmalloc(((size_t)nb + 1) * sizeof *join_of); /* block of B → its join */
	for (int32_t b = 0; b <= nb; b++)
		join_of[b] = -1;
	int32_t mark = 0;
	IVec stack = {0};
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		const Ins *last = &p->ins[bl->last];
		if (!bl->reachable || !ir_is_branch((Op)last->op) || bl->ipdom >= nb)
			continue;
		Join x = {.branch_pc = bl->last, .parent = -1, .p1_node = -1, .p1_branch = -1};
		x.region = region_mark(g, b, bl->ipdom, stamp, ++mark, &stack);
		x.loop_exit = bl->loop >= 0 && !loop_contains(g, bl->loop, bl->ipdom);
		VEC_PUSH(A->joins, A->njoins, A->capjoins, x);
		join_of[b] = A->njoins - 1;
		ivec_push(&A->jb[bl->ipdom].joins, A->njoins - 1);
	}
	for (int32_t b = 0; b < nb; b++)
		if (A->jb[b].joins.n > 0 && g->blocks[b].reachable)
			plan_jblock(A, b, stamp, &mark, &stack, exits);
	/* labels of the join blocks: the labels of the sync they replace when a
	** single join block stands at that depth, else fresh ones */
	for (int32_t b = 0; b < nb; b++) {
		JBlock *jb = &A->jb[b];
		if (!jb->valid)
			continue;
		for (int32_t i = 0; i < jb->joins.n; i++) {
			Join *x = &A->joins[jb->joins.v[i]];
			int32_t same = 0;
			for (int32_t j = 0; j < jb->joins.n; j++)
				same += A->joins[jb->joins.v[j]].depth == x->depth;
			int32_t spc = g->blocks[b].first + (jb->nsyncs - x->depth);
			if (same == 1 && A->li.start[spc] < A->li.start[spc + 1])
				x->label = strdup(p->labels[A->li.lab[A->li.start[spc]]].name);
			else
				x->label = fresh_label(A, "join");
		}
	}
	ir_print_directives(&A->out, p);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		JBlock *jb = &A->jb[b];
		int32_t from = bl->first;
		if (jb->valid) {
			emit_node(A, jb->root);
			/* the other labels of the replaced syncs name the rest of J */
			for (int32_t k = 0; k < jb->nsyncs; k++)
				for (int32_t i = A->li.start[from + k]; i < A->li.start[from + k + 1]; i++) {
					const char *name = p->labels[A->li.lab[i]].name;
					bool used = false;
					for (int32_t j = 0; j < jb->joins.n; j++)
						used |= !strcmp(A->joins[jb->joins.v[j]].label, name);
					if (!used)
						buf_printf(&A->out, "%s: ", name);
				}
			from += jb->nsyncs;
			if (from > bl->last) {
				/* J held only its syncs: the rest is the next block */
				buf_puts(&A->out, "\n");
				continue;
			}
		}
		for (int32_t pc = from; pc <= bl->last; pc++) {
			if (pc == bl->last && join_of[b] >= 0)
				A->joins[join_of[b]].p1_branch = A->pc1;
			emit_ins(A, pc);
		}
		/* a fall-through edge into a restructured J becomes a jump to its join block */
		const Ins *last = &p->ins[bl->last];
		if (!ir_ends_block((Op)last->op) || ir_is_branch((Op)last->op)) {
			int32_t s = bl->succ[0];
			int32_t j = s < nb ? edge_join(A, b, s) : -1;
			/* the tree is emitted right before the rest of J */
			bool next = j >= 0 && s == b + 1 && j == first_node(A, A->jb[s].root);
			if (j >= 0 && !next) {
				buf_printf(&A->out, "jump %s\n", A->joins[j].label);
				A->pc1++;
			}
		}
	}
	free(exits);
	free(join_of);
	free(stamp);
	free(stack.v);
	*len = A->out.len;
	return buf_steal(&A->out);
}

static void phase_a_free(PhaseA *A)
{
	for (int32_t i = 0; i < A->njoins; i++) {
		free(A->joins[i].children.v);
		free(A->joins[i].label);
	}
	free(A->joins);
	if (A->jb)
		for (int32_t b = 0; b <= A->g->nblocks; b++) {
			free(A->jb[b].joins.v);
			free(A->jb[b].leaf);
		}
	free(A->jb);
	label_index_free(&A->li);
	buf_free(&A->out);
}

/* ---- phase B: SSA, η, gating ------------------------------------------- */

typedef enum GateKind { G_PHI, G_MU, G_GAMMA, G_ETA } GateKind;

typedef struct Gate {
	int32_t var;      /* source variable */
	int32_t dst;      /* version */
	int32_t *ops;     /* per predecessor (φ), or [0] = η operand */
	GateKind kind;
} Gate;

typedef struct Version {
	int32_t var;
	int32_t num;      /* x.num, from 0 in output order; -2 for the "never assigned" x.undef */
} Version;

typedef struct BJoin {
	int32_t branch_pc; /* in the phase A program */
	bool loop_exit;
	int32_t loop;      /* the loop B leaves */
} BJoin;

typedef struct PhaseB {
	const Program *q; /* phase A's program */
	const Cfg *g;
	int32_t nv, nw;   /* variables, words per bitset */
	BJoin *join;      /* per block: the branch whose join block it is (branch_pc -1: none) */
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
} PhaseB;

static int32_t new_version(PhaseB *B, int32_t var)
{
	Version v = {var, -1}; /* numbered by emit_b */
	VEC_PUSH(B->ver, B->nver, B->capver, v);
	return B->nver - 1;
}

static int32_t current(PhaseB *B, int32_t var)
{
	IVec *s = &B->stack[var];
	if (s->n > 0)
		return s->v[s->n - 1];
	if (B->zero[var] < 0) {
		B->zero[var] = new_version(B, var);
		B->ver[B->zero[var]].num = -2;
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

static void rename_block(PhaseB *B, int32_t blk)
{
	const Program *q = B->q;
	const Cfg *g = B->g;
	const Block *bl = &g->blocks[blk];
	int32_t pushed_n = 0, pushed_cap = 0;
	int32_t *pushed = NULL;
	for (int32_t i = 0; i < B->ngates[blk]; i++) {
		Gate *gt = &B->gates[blk][i];
		if (gt->kind == G_ETA)
			gt->ops[0] = current(B, gt->var);
	}
	for (int32_t i = 0; i < B->ngates[blk]; i++) {
		Gate *gt = &B->gates[blk][i];
		gt->dst = new_version(B, gt->var);
		ivec_push(&B->stack[gt->var], gt->dst);
		VEC_PUSH(pushed, pushed_n, pushed_cap, gt->var);
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
			B->rdst[pc] = new_version(B, ins->dst);
			ivec_push(&B->stack[ins->dst], B->rdst[pc]);
			VEC_PUSH(pushed, pushed_n, pushed_cap, ins->dst);
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
	for (int32_t i = 0; i < B->domkids[blk].n; i++)
		rename_block(B, B->domkids[blk].v[i]);
	for (int32_t i = pushed_n - 1; i >= 0; i--)
		B->stack[pushed[i]].n--;
	free(pushed);
}

static void bits_set(uint64_t *s, int32_t i) { s[i >> 6] |= 1ull << (i & 63); }
static bool bits_get(const uint64_t *s, int32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }

/* live_in per block over the renamed (source) variables */
static uint64_t *liveness(PhaseB *B)
{
	const Program *q = B->q;
	const Cfg *g = B->g;
	int32_t nb = g->nblocks, nw = B->nw;
	uint64_t *in = xcalloc((size_t)nb * (size_t)nw + 1, sizeof *in);
	uint64_t *use = xcalloc((size_t)nb * (size_t)nw + 1, sizeof *use);
	uint64_t *def = xcalloc((size_t)nb * (size_t)nw + 1, sizeof *def);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		uint64_t *u = use + (size_t)b * nw, *d = def + (size_t)b * nw;
		for (int32_t pc = bl->first; pc <= bl->last; pc++) {
			const Ins *ins = &q->ins[pc];
			const Opnd *ops[3] = {&ins->a, &ins->b, &ins->c};
			for (int k = 0; k < 3; k++)
				if (ops[k]->kind == OPND_VAR && B->is_src[ops[k]->var] && !bits_get(d, ops[k]->var))
					bits_set(u, ops[k]->var);
			for (int32_t k = 0; k < ins->nargs; k++)
				if (ins->args[k].kind == OPND_VAR && B->is_src[ins->args[k].var] &&
				    !bits_get(d, ins->args[k].var))
					bits_set(u, ins->args[k].var);
			if (ins->dst >= 0 && B->is_src[ins->dst])
				bits_set(d, ins->dst);
		}
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (int32_t i = g->nrpo - 1; i >= 0; i--) {
			int32_t b = g->rpo[i];
			const Block *bl = &g->blocks[b];
			uint64_t *ib = in + (size_t)b * nw;
			for (int32_t w = 0; w < nw; w++) {
				uint64_t out = 0;
				for (int32_t s = 0; s < bl->nsucc; s++)
					if (bl->succ[s] < nb)
						out |= in[(size_t)bl->succ[s] * nw + w];
				uint64_t x = use[(size_t)b * nw + w] | (out & ~def[(size_t)b * nw + w]);
				if (x != ib[w]) {
					ib[w] = x;
					changed = true;
				}
			}
		}
	}
	free(use);
	free(def);
	return in;
}

/* Print a version's name, or a non-variable operand. */
static void put_version(Buf *b, const PhaseB *B, int32_t v)
{
	const Version *x = &B->ver[v];
	if (x->num == -2)
		buf_printf(b, "%s.undef", B->q->vars[x->var].name);
	else
		buf_printf(b, "%s.%d", B->q->vars[x->var].name, (int)x->num);
}

static void put_opnd(Buf *b, const PhaseB *B, const Opnd *o, int32_t v)
{
	if (v >= 0)
		put_version(b, B, v);
	else
		ir_print_opnd(b, B->q, o);
}

/* One instruction of phase A's program with its operands renamed. The
** instruction printer is reused on a copy whose variables are looked up in
** a scratch program holding the version names. */
static void put_ins(Buf *b, const PhaseB *B, Program *names, int32_t pc)
{
	const Program *q = B->q;
	Ins c = q->ins[pc];
	Opnd *args = NULL;
	Buf nb = {0};
#define REMAP(opnd, v)                                                                     \
	do {                                                                                  \
		if ((v) >= 0) {                                                                   \
			buf_reset(&nb);                                                               \
			put_version(&nb, B, (v));                                                     \
			(opnd).var = ir_var(names, buf_str(&nb), nb.len, LOC_NONE);                   \
		} else if ((opnd).kind == OPND_VAR) {                                             \
			const char *nm = q->vars[(opnd).var].name;                                    \
			(opnd).var = ir_var(names, nm, strlen(nm), LOC_NONE);                         \
		}                                                                                 \
	} while (0)
	REMAP(c.a, B->ra[pc]);
	REMAP(c.b, B->rb[pc]);
	REMAP(c.c, B->rc[pc]);
	if (c.nargs > 0) {
		args = xmalloc((size_t)c.nargs * sizeof *args);
		for (int32_t k = 0; k < c.nargs; k++) {
			args[k] = q->ins[pc].args[k];
			REMAP(args[k], B->rargs[pc] ? B->rargs[pc][k] : -1);
		}
		c.args = args;
	}
#undef REMAP
	if (c.dst >= 0) {
		buf_reset(&nb);
		if (B->rdst[pc] >= 0)
			put_version(&nb, B, B->rdst[pc]);
		else
			buf_puts(&nb, q->vars[c.dst].name);
		c.dst = ir_var(names, buf_str(&nb), nb.len, LOC_NONE);
	}
	if (c.target >= 0) {
		const char *l = ir_label_of(q, c.target);
		c.target_label = ir_label(names, l, strlen(l), LOC_NONE);
	}
	ir_print_ins(b, names, &c);
	free(args);
	buf_free(&nb);
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

/* Decide γ / μ / φ for the merges of each block (after renaming, when the
** operands are known). */
static void gate_kinds(PhaseB *B)
{
	const Cfg *g = B->g;
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bl = &g->blocks[b];
		for (int32_t i = 0; i < B->ngates[b]; i++) {
			Gate *gt = &B->gates[b][i];
			if (gt->kind == G_ETA)
				continue;
			if (bl->mu_index) {
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
			} else if (B->join[b].branch_pc >= 0 && !B->join[b].loop_exit && bl->npred == 2) {
				int s0 = side_of(B, b, bl->pred[0]), s1 = side_of(B, b, bl->pred[1]);
				gt->kind = s0 >= 0 && s1 >= 0 && s0 != s1 ? G_GAMMA : G_PHI;
			} else
				gt->kind = G_PHI;
		}
	}
}

/* Emit the GSA program; with names == NULL only number the versions in
** the order of their definitions. */
static void emit_b(PhaseB *B, Buf *out, Program *names, const LabelIndex *li)
{
	const Program *q = B->q;
	const Cfg *g = B->g;
	int32_t *count = NULL;
	if (!names) {
		count = xcalloc((size_t)B->nv + 1, sizeof *count);
	}
#define NUMBER(v)                                                                        \
	do {                                                                                \
		if (!names && B->ver[v].num < 0)                                                \
			B->ver[v].num = count[B->ver[v].var]++;                                     \
	} while (0)
	if (names)
		ir_print_directives(out, q);
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		int32_t first = bl->first;
		if (names)
			for (int32_t i = li->start[first]; i < li->start[first + 1]; i++)
				buf_printf(out, "%s: ", q->labels[li->lab[i]].name);
		bool implicit = false;
		for (int32_t i = 0; i < B->ngates[b]; i++) {
			Gate *gt = &B->gates[b][i];
			NUMBER(gt->dst);
			implicit |= gt->kind == G_GAMMA || gt->kind == G_ETA;
			if (!names)
				continue;
			put_version(out, B, gt->dst);
			int32_t pv = B->join[b].branch_pc >= 0 ? B->branch_pred[B->join[b].branch_pc] : -1;
			const Ins *br = B->join[b].branch_pc >= 0 ? &q->ins[B->join[b].branch_pc] : NULL;
			switch (gt->kind) {
			case G_ETA:
				buf_puts(out, " = eta(");
				put_opnd(out, B, &br->a, pv);
				buf_puts(out, ", ");
				put_version(out, B, gt->ops[0]);
				buf_puts(out, ")\n");
				break;
			case G_GAMMA: {
				/* γ(p, o1, o2) is o1 where p ≠ 0: bz jumps where p = 0, bnz where p ≠ 0 */
				int s0 = side_of(B, b, bl->pred[0]);
				int32_t jumpv = s0 == 1 ? gt->ops[0] : gt->ops[1];
				int32_t fallv = s0 == 1 ? gt->ops[1] : gt->ops[0];
				bool bz = br->op == OP_BZ;
				buf_puts(out, " = gamma(");
				put_opnd(out, B, &br->a, pv);
				buf_puts(out, ", ");
				put_version(out, B, bz ? fallv : jumpv);
				buf_puts(out, ", ");
				put_version(out, B, bz ? jumpv : fallv);
				buf_puts(out, ")\n");
				break;
			}
			case G_MU: {
				int32_t arity = cfg_mu_arity(g, b);
				int32_t *ops = xmalloc((size_t)arity * sizeof *ops);
				for (int32_t k = 0; k < bl->npred; k++)
					ops[bl->mu_index[k]] = gt->ops[k];
				buf_puts(out, " = mu(");
				for (int32_t k = 0; k < arity; k++) {
					if (k)
						buf_puts(out, ", ");
					put_version(out, B, ops[k]);
				}
				buf_puts(out, ")\n");
				free(ops);
				break;
			}
			case G_PHI:
				buf_puts(out, " = phi(");
				for (int32_t k = 0; k < bl->npred; k++) {
					if (k)
						buf_puts(out, ", ");
					put_version(out, B, gt->ops[k]);
				}
				buf_puts(out, ")\n");
				break;
			}
		}
		for (int32_t pc = first; pc <= bl->last; pc++) {
			const Ins *ins = &q->ins[pc];
			/* the join block's own sync: γ/η are implicit syncs */
			if (pc == first && implicit && ins->op == OP_SYNC)
				continue;
			if (B->rdst[pc] >= 0)
				NUMBER(B->rdst[pc]);
			if (!names)
				continue;
			if (pc != first)
				for (int32_t i = li->start[pc]; i < li->start[pc + 1]; i++)
					buf_printf(out, "%s: ", q->labels[li->lab[i]].name);
			put_ins(out, B, names, pc);
			buf_putc(out, '\n');
		}
	}
#undef NUMBER
	free(count);
}

static char *phase_b(const Program *q, const PhaseA *A, size_t *len)
{
	const Cfg *g = q->cfg;
	int32_t nb = g->nblocks;
	PhaseB B = {.q = q, .g = g, .nv = q->nvars, .nw = (q->nvars + 63) / 64 + 1};
	B.join = xmalloc(((size_t)nb + 1) * sizeof *B.join);
	for (int32_t b = 0; b <= nb; b++)
		B.join[b] = (BJoin){-1, false, -1};
	for (int32_t i = 0; i < A->njoins; i++) {
		const Join *x = &A->joins[i];
		if (x->p1_node < 0 || x->p1_branch < 0)
			continue;
		int32_t nblk = g->block_of[x->p1_node];
		int32_t bblk = g->block_of[x->p1_branch];
		B.join[nblk].branch_pc = x->p1_branch;
		B.join[nblk].loop_exit = x->loop_exit;
		B.join[nblk].loop = g->blocks[bblk].loop;
	}
	B.is_src = xcalloc((size_t)B.nv + 1, sizeof *B.is_src);
	for (int32_t v = 0; v < B.nv; v++)
		B.is_src[v] = !q->vars[v].is_param;
	B.gates = xcalloc((size_t)nb + 1, sizeof *B.gates);
	B.ngates = xcalloc((size_t)nb + 1, sizeof *B.ngates);
	B.capgates = xcalloc((size_t)nb + 1, sizeof *B.capgates);
	B.zero = xmalloc(((size_t)B.nv + 1) * sizeof *B.zero);
	for (int32_t v = 0; v < B.nv; v++)
		B.zero[v] = -1;
	int32_t n = q->nins;
	B.rdst = xmalloc(((size_t)n + 1) * sizeof *B.rdst);
	B.ra = xmalloc(((size_t)n + 1) * sizeof *B.ra);
	B.rb = xmalloc(((size_t)n + 1) * sizeof *B.rb);
	B.rc = xmalloc(((size_t)n + 1) * sizeof *B.rc);
	B.branch_pred = xmalloc(((size_t)n + 1) * sizeof *B.branch_pred);
	B.rargs = xcalloc((size_t)n + 1, sizeof *B.rargs);
	for (int32_t pc = 0; pc < n; pc++)
		B.rdst[pc] = B.ra[pc] = B.rb[pc] = B.rc[pc] = B.branch_pred[pc] = -1;
	B.stack = xcalloc((size_t)B.nv + 1, sizeof *B.stack);
	B.domkids = xcalloc((size_t)nb + 1, sizeof *B.domkids);
	for (int32_t i = 0; i < g->nrpo; i++) {
		int32_t b = g->rpo[i];
		if (g->blocks[b].idom >= 0)
			ivec_push(&B.domkids[g->blocks[b].idom], b);
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
				if (df[r].n == 0 || df[r].v[df[r].n - 1] != b)
					ivec_push(&df[r], b);
				r = g->blocks[r].idom;
			}
		}
	}
	uint64_t *live = liveness(&B);
	int32_t nw = B.nw;
	/* definition sites per variable, η sites included */
	IVec *sites = xcalloc((size_t)B.nv + 1, sizeof *sites);
	uint64_t *inloop = xcalloc((size_t)(g->nloops + 1) * (size_t)nw + 1, sizeof *inloop);
	for (int32_t b = 0; b < nb; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable)
			continue;
		for (int32_t pc = bl->first; pc <= bl->last; pc++) {
			int32_t d = q->ins[pc].dst;
			if (d < 0 || !B.is_src[d])
				continue;
			if (sites[d].n == 0 || sites[d].v[sites[d].n - 1] != b)
				ivec_push(&sites[d], b);
			for (int32_t l = bl->loop; l >= 0; l = g->loops[l].parent)
				bits_set(inloop + (size_t)l * nw, d);
		}
	}
	for (int32_t b = 0; b < nb; b++) {
		if (B.join[b].branch_pc < 0 || !B.join[b].loop_exit || B.join[b].loop < 0 || !g->blocks[b].reachable)
			continue;
		const uint64_t *li = live + (size_t)b * nw;
		const uint64_t *lo = inloop + (size_t)B.join[b].loop * nw;
		for (int32_t x = 0; x < B.nv; x++)
			if (bits_get(li, x) && bits_get(lo, x)) {
				add_gate(&B, b, x, G_ETA, 1);
				ivec_push(&sites[x], b);
			}
	}
	/* φ at the iterated dominance frontier where the variable is live */
	int32_t *has_phi = xmalloc(((size_t)nb + 1) * sizeof *has_phi);
	int32_t *queued = xmalloc(((size_t)nb + 1) * sizeof *queued);
	for (int32_t b = 0; b <= nb; b++)
		has_phi[b] = queued[b] = -1;
	IVec work = {0};
	for (int32_t x = 0; x < B.nv; x++) {
		if (!B.is_src[x])
			continue;
		work.n = 0;
		for (int32_t i = 0; i < sites[x].n; i++) {
			queued[sites[x].v[i]] = x;
			ivec_push(&work, sites[x].v[i]);
		}
		while (work.n > 0) {
			int32_t b = work.v[--work.n];
			for (int32_t i = 0; i < df[b].n; i++) {
				int32_t y = df[b].v[i];
				if (has_phi[y] == x || !bits_get(live + (size_t)y * nw, x))
					continue;
				has_phi[y] = x;
				add_gate(&B, y, x, G_PHI, g->blocks[y].npred);
				if (queued[y] != x) {
					queued[y] = x;
					ivec_push(&work, y);
				}
			}
		}
	}
	if (g->nrpo > 0)
		rename_block(&B, g->rpo[0]);
	gate_kinds(&B);
	LabelIndex li;
	label_index(&li, q);
	Buf out = {0};
	emit_b(&B, &out, NULL, &li);
	Program *names = ir_new(q->path, "", 0);
	emit_b(&B, &out, names, &li);
	ir_free(names);
	label_index_free(&li);
	/* free */
	free(work.v);
	free(has_phi);
	free(queued);
	for (int32_t x = 0; x < B.nv; x++) {
		free(sites[x].v);
		free(B.stack[x].v);
	}
	free(sites);
	free(inloop);
	free(live);
	for (int32_t b = 0; b <= nb; b++) {
		free(df[b].v);
		free(B.domkids[b].v);
		for (int32_t i = 0; i < B.ngates[b]; i++)
			free(B.gates[b][i].ops);
		free(B.gates[b]);
	}
	free(df);
	free(B.domkids);
	free(B.gates);
	free(B.ngates);
	free(B.capgates);
	for (int32_t pc = 0; pc < n; pc++)
		free(B.rargs[pc]);
	free(B.rargs);
	free(B.rdst);
	free(B.ra);
	free(B.rb);
	free(B.rc);
	free(B.branch_pred);
	free(B.stack);
	free(B.zero);
	free(B.ver);
	free(B.is_src);
	free(B.join);
	*len = out.len;
	return buf_steal(&out);
}

/* ---- entry point ------------------------------------------------------- */

Program *gsa_build(const Program *p, Diags *d)
{
	if (!p->cfg) {
		diag_error(d, LOC_NONE, "the program has errors; no GSA form");
		return NULL;
	}
	if (p->has_gsa) /* already GSA: a fresh copy (user φs stay φs) */
		return reparse(p, p->src, p->srclen, d, "copy");
	PhaseA A = {.p = p, .g = p->cfg};
	size_t len1 = 0;
	char *t1 = phase_a(&A, &len1);
	Program *q = reparse(p, t1, len1, d, "join blocks");
	Program *r = NULL;
	if (q) {
		size_t len2 = 0;
		char *t2 = phase_b(q, &A, &len2);
		r = reparse(p, t2, len2, d, "renaming");
		free(t2);
		ir_free(q);
	}
	free(t1);
	phase_a_free(&A);
	return r;
}
