/*
** ssde.c — Static SIMT Deadlock Elimination (ElTantawy, seed 004 §4):
** Algorithm 4 on the safe reconvergence points of Algorithms 2 and 3
** (deadlock.c).
**
** For each loop L that may cause a SIMT-induced deadlock, with safe point
** S: a switch block BBS is put just before S (loops with the same S share
** it), every back edge of L is sent to BBS instead of L's header, through
** a trampoline that sets the switch variable to L's case, and the paths
** that reached S before set it to 0 (the φ of the thesis, lowered to moves
** as the thesis lowers it). BBS jumps back to L's header on L's case and
** goes on to S by default. On a SIMT stack the threads that iterate now
** wait at BBS, the reconvergence point of the loop's branch, for the
** threads that left the loop and ran to S (the lock holder runs its
** critical section and releases the lock there): the stack's depth-first
** order becomes breadth first across the loop. On a MIMD machine the
** program does what it did: every original path has one equivalent path
** with the same instructions that change the state (the switch variable
** aside), and the new paths are never taken (§4.3).
**
** In μ-SIMD: BBS is
**     <S's labels>: SW = 0           (the original arrivals)
**     P_s:  bnz SW, P_k              (the arrivals go on, put_switch says why)
**           <S's instruction>
**     ...
**     P_k:  T = SW == 1              (one test per case but the last)
**           bnz T, <L1's header>
**           ...
**           jump <the last case's header>
** and a back edge of loop k is `P_b: SW = k` / `jump P_s`, the branch or
** jump that closed the loop now naming P_b. A safe point at the end of the
** program (the kernel exit) collects the program's stops into one BBS
** before one final stop. The program's own
** syncs are kept: the result is meant for the hardware stack (ipdom),
** under which syncs are NOPs; `musimd syncs` places syncs for the sync
** model again.
*/
#include "xform.h"

#include "cfg.h"
#include "deadlock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Group {
	int32_t safe;     /* S: a pc, or nins for the end of the program */
	int32_t *loops;   /* indexes into DlResult.loops, case k + 1 for loops[k] */
	int32_t n;
	/* the switch's destinations, case k + 1 for dest[k]: the loops' headers
	** first, then the other blocks of the new loop entered from outside it */
	int32_t *dest;
	int32_t ndest;
	uint8_t *region;  /* per block: in the new loop (the loops, and the paths from their exits to S) */
} Group;

typedef struct Ssde {
	const Program *p;
	const DlResult *r;
	Group *groups;
	int32_t ngroups;
	int32_t *group_at;  /* per pc (and nins): the group whose S it is, or -1 */
	int32_t *case_of;   /* per loop of r: its (group, case) as group * 65536 + case, or -1 */
	char prefix[32];    /* of every name the transformation adds: used by no name of p */
	int32_t *lstart, *lab; /* the labels of each pc (counting sort) */
	uint8_t *want_label; /* per pc: a jump of the result names it (a switch's destination) */
} Ssde;

static bool name_taken(const Program *p, const char *prefix)
{
	size_t n = strlen(prefix);
	for (int32_t i = 0; i < p->nvars; i++)
		if (!strncmp(p->vars[i].name, prefix, n))
			return true;
	for (int32_t i = 0; i < p->nlabels; i++)
		if (!strncmp(p->labels[i].name, prefix, n))
			return true;
	return false;
}

static void pick_prefix(Ssde *x)
{
	snprintf(x->prefix, sizeof x->prefix, "ssde_");
	for (int k = 1; name_taken(x->p, x->prefix); k++)
		snprintf(x->prefix, sizeof x->prefix, "ssde%d_", k);
}

static void index_labels(Ssde *x)
{
	const Program *p = x->p;
	int32_t n = p->nins;
	x->lstart = xcalloc((size_t)n + 2, sizeof *x->lstart);
	x->lab = xmalloc(((size_t)p->nlabels + 1) * sizeof *x->lab);
	for (int32_t i = 0; i < p->nlabels; i++)
		if (p->labels[i].ins >= 0 && p->labels[i].ins < n)
			x->lstart[p->labels[i].ins + 1]++;
	for (int32_t pc = 0; pc < n; pc++)
		x->lstart[pc + 1] += x->lstart[pc];
	int32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
	memcpy(fill, x->lstart, ((size_t)n + 1) * sizeof *fill);
	for (int32_t i = 0; i < p->nlabels; i++)
		if (p->labels[i].ins >= 0 && p->labels[i].ins < n)
			x->lab[fill[p->labels[i].ins]++] = i;
	free(fill);
}

/* The labels of pc, "a: b: ", into lb (not reset). */
static void put_labels(const Ssde *x, Buf *lb, int32_t pc)
{
	for (int32_t i = x->lstart[pc]; i < x->lstart[pc + 1]; i++)
		buf_printf(lb, "%s: ", x->p->labels[x->lab[i]].name);
}

/* One statement: its labels (lb, emptied), padded to the statements' column. */
static void stmt_start(Buf *b, Buf *lb)
{
	size_t n = lb->len;
	if (n)
		buf_putn(b, buf_str(lb), n);
	for (size_t k = n; k < 8; k++)
		buf_putc(b, ' ');
	if (n >= 8 && buf_str(lb)[n - 1] != ' ')
		buf_putc(b, ' ');
	buf_reset(lb);
}

/* Does pc need a label of its own (a jump's destination without one)? */
static bool needs_label(const Ssde *x, int32_t pc)
{
	return x->want_label[pc] && x->lstart[pc] == x->lstart[pc + 1];
}

/* The name a jump to pc uses: its first label, or the one added. */
static void put_dest(const Ssde *x, Buf *b, int32_t pc)
{
	if (x->lstart[pc] < x->lstart[pc + 1])
		buf_puts(b, x->p->labels[x->lab[x->lstart[pc]]].name);
	else
		buf_printf(b, "%sh%d", x->prefix, (int)pc);
}

/* The code on an edge from src (-1: outside the program) into dest (a pc:
** a branch's target, a fall-through, the program's entry) in the result.
** An edge from inside a new loop into one of its loops' headers (a back
** edge) sets SW to that loop's case and goes to the switch; an edge into
** a safe point S is an original arrival (SW = 0, then S's switch); an
** edge from outside a new loop into one of its blocks (a header, or a
** block after an exit) sets that block's case: the switch block becomes
** the new loop's only entry, so that it is single-entry as §4.4 asks.
** skip_safe: not as an arrival at S (S's own switch falling into it).
** Returns false when the edge is unchanged. */
typedef struct Edge {
	int32_t group, value; /* SW_group = value, then to the group's switch */
} Edge;

static bool is_latch(const Loop *lp, int32_t b)
{
	for (int32_t i = 0; i < lp->nlatches; i++)
		if (lp->latches[i] == b)
			return true;
	return false;
}

static bool edge_of(const Ssde *x, int32_t src, int32_t dest, bool skip_safe, Edge *e)
{
	const Cfg *g = x->p->cfg;
	if (dest < 0 || dest > x->p->nins)
		return false;
	for (int32_t gi = 0; src >= 0 && gi < x->ngroups; gi++) {
		const Group *G = &x->groups[gi];
		for (int32_t k = 0; k < G->n; k++)
			if (G->dest[k] == dest && is_latch(&g->loops[x->r->loops[G->loops[k]].loop], g->block_of[src])) {
				*e = (Edge){gi, k + 1}; /* a back edge (Latch(L) of Algorithm 4) */
				return true;
			}
	}
	if (!skip_safe && x->group_at[dest] >= 0) {
		*e = (Edge){x->group_at[dest], 0}; /* an arrival at S: through S's switch */
		return true;
	}
	for (int32_t gi = 0; gi < x->ngroups; gi++) {
		const Group *G = &x->groups[gi];
		for (int32_t k = 0; k < G->ndest; k++)
			if (G->dest[k] == dest && (src < 0 || !G->region[g->block_of[src]])) {
				*e = (Edge){gi, k + 1}; /* an entry into the new loop */
				return true;
			}
	}
	return false;
}

/* BBS: the arrivals (SW = 0) go on to S, the rest to the cases (in the
** tail). The cases are a branch of their own, after the one that lets the
** arrivals go: every path from a case comes back to BBS (through a back
** edge or as an arrival), so BBS is the reconvergence point of the cases'
** tests and a case that spins again waits there for the others, whichever
** side the stack runs first; with the arrivals among the sides of one
** branch, whose reconvergence point is S, a spinning side run first would
** keep the others from ever running (the mutual producer/consumer, digest
** §11.2 T8). The thesis's lowering relies on running the default first. */
static void put_switch(const Ssde *x, Buf *b, Buf *lb, int32_t gi, Buf *tail)
{
	const Group *G = &x->groups[gi];
	const char *P = x->prefix;
	buf_printf(lb, "%ss%d: ", P, (int)gi);
	stmt_start(b, lb);
	buf_printf(b, "bnz %ssw%d, %sk%d\n", P, (int)gi, P, (int)gi);
	Buf tl = {0};
	buf_printf(&tl, "%sk%d: ", P, (int)gi);
	for (int32_t c = 0; c + 1 < G->ndest; c++) {
		stmt_start(tail, &tl);
		buf_printf(tail, "%st%d = %ssw%d == %d\n", P, (int)gi, P, (int)gi, (int)c + 1);
		stmt_start(tail, &tl);
		buf_printf(tail, "bnz %st%d, ", P, (int)gi);
		put_dest(x, tail, G->dest[c]);
		buf_putc(tail, '\n');
	}
	stmt_start(tail, &tl);
	buf_puts(tail, "jump ");
	put_dest(x, tail, G->dest[G->ndest - 1]);
	buf_putc(tail, '\n');
	buf_free(&tl);
}

/* SW = value and the jump to the switch, as statements (lb: their labels). */
static void put_edge_code(const Ssde *x, Buf *b, Buf *lb, Edge e)
{
	stmt_start(b, lb);
	buf_printf(b, "%ssw%d = %d\n", x->prefix, (int)e.group, (int)e.value);
	stmt_start(b, lb);
	buf_printf(b, "jump %ss%d\n", x->prefix, (int)e.group);
}

static void emit(const Ssde *x, Buf *b)
{
	const Program *p = x->p;
	const char *P = x->prefix;
	int32_t end_group = x->group_at[p->nins];
	Buf lb = {0}, tail = {0};
	int32_t nedges = 0;
	Edge e;
	/* every switch variable has a value from the start (each path into a
	** switch sets it too: this only keeps `check` from warning) */
	for (int32_t gi = 0; gi < x->ngroups; gi++) {
		stmt_start(b, &lb);
		buf_printf(b, "%ssw%d = 0\n", P, (int)gi);
	}
	if (edge_of(x, -1, 0, false, &e)) /* the program's entry into the new loop or a safe point */
		put_edge_code(x, b, &lb, e);
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (x->group_at[pc] >= 0) { /* the switch before S; S keeps its labels */
			put_switch(x, b, &lb, x->group_at[pc], &tail);
			/* its default goes on to S: an entry when S starts another new loop */
			if (edge_of(x, -1, pc, true, &e))
				put_edge_code(x, b, &lb, e);
		}
		put_labels(x, &lb, pc);
		if (needs_label(x, pc))
			buf_printf(&lb, "%sh%d: ", P, (int)pc);
		bool jumps = ins->op == OP_JUMP || ir_is_branch((Op)ins->op);
		if (ins->op == OP_STOP && end_group >= 0) {
			put_edge_code(x, b, &lb, (Edge){end_group, 0});
			continue;
		}
		if (jumps && edge_of(x, pc, ins->target, false, &e)) {
			if (ins->op == OP_JUMP) {
				put_edge_code(x, b, &lb, e);
			} else {
				/* the taken edge gets a block of its own at the end */
				stmt_start(b, &lb);
				buf_puts(b, ins->op == OP_BZ ? "bz " : "bnz ");
				ir_print_opnd(b, p, &ins->a);
				buf_printf(b, ", %sr%d\n", P, (int)nedges);
				buf_printf(&lb, "%sr%d: ", P, (int)nedges++);
				put_edge_code(x, &tail, &lb, e);
			}
		} else {
			stmt_start(b, &lb);
			ir_print_ins(b, p, ins);
			buf_putc(b, '\n');
		}
		bool falls = ins->op != OP_JUMP && ins->op != OP_STOP && ins->op != OP_EXIT;
		if (falls && edge_of(x, pc, pc + 1, false, &e)) {
			if (e.value == 0 && x->group_at[pc + 1] == e.group) {
				/* the arrival falls into the switch: the move alone */
				stmt_start(b, &lb);
				buf_printf(b, "%ssw%d = 0\n", P, (int)e.group);
			} else {
				put_edge_code(x, b, &lb, e);
			}
		}
	}
	if (end_group >= 0) {
		put_switch(x, b, &lb, end_group, &tail);
		stmt_start(b, &lb);
		buf_puts(b, "stop\n");
	}
	buf_putn(b, buf_str(&tail), tail.len);
	buf_free(&tail);
	buf_free(&lb);
}

/* The loop the transformation makes of group G: its loops and the blocks
** on the paths from their exits to S (S's block too when S is not its
** first instruction); and the switch's destinations: the loops' headers,
** then each other block of it that an edge from outside enters, so that
** every entry goes through the switch (one entry: a reducible loop). */
static void new_loop(const Ssde *x, Group *G)
{
	const Cfg *g = x->p->cfg;
	int32_t nb = g->nblocks;
	G->region = xcalloc((size_t)nb + 1, 1);
	G->dest = xmalloc(((size_t)nb + (size_t)G->n + 1) * sizeof *G->dest);
	int32_t sb = G->safe < x->p->nins ? g->block_of[G->safe] : nb;
	bool s_inside = sb < nb && g->blocks[sb].first != G->safe;
	int32_t *work = xmalloc(((size_t)nb + 1) * sizeof *work);
	int32_t nw = 0;
	for (int32_t i = 0; i < G->n; i++) {
		const DlLoop *L = &x->r->loops[G->loops[i]];
		const Loop *lp = &g->loops[L->loop];
		G->dest[G->ndest++] = L->header_pc;
		for (int32_t k = 0; k < lp->nblocks; k++)
			if (!G->region[lp->blocks[k]]) {
				G->region[lp->blocks[k]] = 1;
				work[nw++] = lp->blocks[k];
			}
	}
	while (nw > 0) { /* forward to S */
		int32_t b = work[--nw];
		if (b == sb)
			continue;
		for (int32_t k = 0; k < g->blocks[b].nsucc; k++) {
			int32_t s = g->blocks[b].succ[k];
			if (s >= nb || G->region[s] || (s == sb && !s_inside))
				continue;
			G->region[s] = 1;
			work[nw++] = s;
		}
	}
	free(work);
	for (int32_t b = 0; b < nb; b++) {
		if (!G->region[b])
			continue;
		bool entered = b == 0; /* the program's entry */
		for (int32_t k = 0; k < g->blocks[b].npred && !entered; k++)
			entered = !G->region[g->blocks[b].pred[k]];
		bool header = false;
		for (int32_t k = 0; k < G->n; k++)
			header |= G->dest[k] == g->blocks[b].first;
		if (entered && !header)
			G->dest[G->ndest++] = g->blocks[b].first;
	}
}

/* The pcs a jump of the result names: the switches' destinations. Every
** destination is a loop's header or a block entered from outside the new
** loop, never a block inside a loop that goes on without the switch: the
** loops that enclose a transformed loop and not its safe point are
** transformed too (deadlock.c, Algorithm 3), so the result stays
** reducible (checked: each round's output is loaded again). */
static void mark_labels(Ssde *x)
{
	x->want_label = xcalloc((size_t)x->p->nins + 1, 1);
	for (int32_t gi = 0; gi < x->ngroups; gi++)
		for (int32_t c = 0; c < x->groups[gi].ndest; c++)
			x->want_label[x->groups[gi].dest[c]] = 1;
}

/* One round: p's transformed text into out, what was done (comment lines)
** into notes (round > 1: the lines are those of the previous round's
** output). */
static bool ssde_round(const Program *p, const XformOptions *o, int round, Buf *notes, Buf *out, int32_t *changes,
                       Diags *d)
{
	*changes = 0;
	DlResult *r = dl_run(p, o->divergence, d);
	if (!r)
		return false;
	Ssde x = {.p = p, .r = r};
	x.group_at = xmalloc(((size_t)p->nins + 1) * sizeof *x.group_at);
	for (int32_t pc = 0; pc <= p->nins; pc++)
		x.group_at[pc] = -1;
	x.case_of = xmalloc(((size_t)r->nloops + 1) * sizeof *x.case_of);
	x.groups = xcalloc((size_t)r->nloops + 1, sizeof *x.groups);
	bool one_lane = ir_warp_shape(p, o->threads, o->warpsize).warpsize < 2;
	for (int32_t k = 0; k < r->nloops; k++) {
		x.case_of[k] = -1;
		const DlLoop *L = &r->loops[k];
		if (!L->ssde || one_lane)
			continue;
		int32_t gi = x.group_at[L->safe_pc];
		if (gi < 0) {
			gi = x.group_at[L->safe_pc] = x.ngroups++;
			x.groups[gi].safe = L->safe_pc;
			x.groups[gi].loops = xmalloc(((size_t)r->nloops + 1) * sizeof *x.groups[gi].loops);
		}
		Group *G = &x.groups[gi];
		G->loops[G->n++] = k;
		x.case_of[k] = gi * 65536 + G->n;
		++*changes;
	}
	for (int32_t gi = 0; gi < x.ngroups; gi++)
		new_loop(&x, &x.groups[gi]);
	mark_labels(&x);
	pick_prefix(&x);
	index_labels(&x);
	/* what was done, as comments the parser skips */
	if (round == 1) {
		buf_printf(notes, "# musimd transform ssde %s: %d loop%s transformed", p->path, (int)*changes,
		           *changes == 1 ? "" : "s");
		if (one_lane)
			buf_puts(notes, " (every warp has one thread)");
		buf_putc(notes, '\n');
	} else if (*changes > 0) {
		buf_printf(notes, "# round %d, on round %d's output, which was still suspected: %d loop%s\n", round,
		           round - 1, (int)*changes, *changes == 1 ? "" : "s");
	}
	for (int32_t k = 0; k < r->nloops; k++) {
		const DlLoop *L = &r->loops[k];
		if (x.case_of[k] < 0)
			continue;
		const char *name = ir_label_of(p, L->header_pc);
		buf_printf(notes, "#   loop %s%s(line %d): %s; reconverges at ", name ? name : "", name ? " " : "",
		           (int)p->ins[L->header_pc].loc.line,
		           L->by_conflict ? "encloses a transformed loop" : "potential SIMT-induced deadlock");
		if (L->safe_pc < p->nins)
			buf_printf(notes, "line %d", (int)p->ins[L->safe_pc].loc.line);
		else
			buf_puts(notes, "the end of the program");
		if (L->rpc >= 0 && L->rpc != L->safe_pc)
			buf_printf(notes, " instead of line %d", (int)p->ins[L->rpc].loc.line);
		buf_printf(notes, " (switch %ss%d, case %d)\n", x.prefix, (int)(x.case_of[k] / 65536),
		           (int)(x.case_of[k] % 65536));
	}
	ir_print_directives(out, p);
	emit(&x, out);
	for (int32_t gi = 0; gi < x.ngroups; gi++) {
		free(x.groups[gi].loops);
		free(x.groups[gi].dest);
		free(x.groups[gi].region);
	}
	free(x.want_label);
	free(x.groups);
	free(x.group_at);
	free(x.case_of);
	free(x.lstart);
	free(x.lab);
	dl_free(r);
	return true;
}

/* SSDE until the detector suspects nothing: a transformed loop's new
** reach can make another loop suspected (Algorithm 3 settles nesting and
** consecutive loops with the same safe point; a later loop that reads what
** the earlier one's new back edge makes reachable is caught by the next
** round). At most SSDE_MAX_ROUNDS rounds; the notes say when the last one
** still leaves a suspicion. */
#define SSDE_MAX_ROUNDS 8

/* --delays: Algorithm 5's points as --aware-delay takes them, one line. */
static bool aware_delays(const Program *p, const XformOptions *o, Buf *out, int32_t *changes, Diags *d)
{
	DlResult *r = dl_run(p, o->divergence, d);
	if (!r)
		return false;
	int32_t *pt = dl_aware_points(p, r);
	*changes = 0;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		if (pt[pc] < 0)
			continue;
		if (pt[pc] >= p->nins) {
			diag_warning(d, p->ins[pc].loc,
			             "this branch would reconverge at the end of the program, which --aware-delay cannot "
			             "name: left out");
			continue;
		}
		if (*changes > 0)
			buf_putc(out, ',');
		ir_print_where(out, p, pc);
		buf_putc(out, ':');
		ir_print_where(out, p, pt[pc]);
		++*changes;
	}
	buf_putc(out, '\n');
	free(pt);
	dl_free(r);
	return true;
}

static bool run_ssde(const Program *p, const XformOptions *o, Buf *out, XformResult *res, Diags *d)
{
	int32_t *changes = &res->changes;
	if (p->has_gsa) {
		diag_error(d, LOC_NONE, "transform ssde takes a program in plain form, not in GSA form");
		return false;
	}
	if (o->delays)
		return aware_delays(p, o, out, changes, d);
	Buf notes = {0}, cur = {0};
	if (!ssde_round(p, o, 1, &notes, &cur, changes, d)) {
		buf_free(&notes);
		buf_free(&cur);
		return false;
	}
	bool settled = *changes == 0;
	for (int round = 2; round <= SSDE_MAX_ROUNDS + 1 && !settled; round++) {
		Diags d2;
		diag_init(&d2, p->path, buf_str(&cur), cur.len);
		Program *q = ir_load(p->path, buf_str(&cur), cur.len, &d2);
		Buf next = {0};
		int32_t ch = 0;
		bool ok = d2.nerrors == 0 && (round > SSDE_MAX_ROUNDS || ssde_round(q, o, round, &notes, &next, &ch, &d2));
		if (d2.nerrors > 0) /* a bug: the text this file printed does not load */
			diag_error(d, LOC_NONE, "internal error: round %d of SSDE does not load: %s", round - 1,
			           d2.n > 0 ? d2.v[0].msg : "?");
		ir_free(q);
		diag_free(&d2);
		if (d->nerrors > 0) {
			buf_free(&next);
			break;
		}
		if (round > SSDE_MAX_ROUNDS) {
			buf_printf(&notes, "# still suspected after %d rounds: not transformed further\n", SSDE_MAX_ROUNDS);
			diag_warning(d, LOC_NONE, "the result is still suspected after %d rounds of SSDE", SSDE_MAX_ROUNDS);
			res->incomplete = true;
			break;
		}
		if (!ok || ch == 0) {
			buf_free(&next);
			settled = true;
			break;
		}
		buf_free(&cur);
		cur = next;
		*changes += ch;
	}
	bool good = d->nerrors == 0;
	if (good) {
		buf_putn(out, buf_str(&notes), notes.len);
		buf_putn(out, buf_str(&cur), cur.len);
	}
	buf_free(&notes);
	buf_free(&cur);
	return good;
}

const Xform xform_ssde = {
	.name = "ssde",
	.summary = "Static SIMT Deadlock Elimination (ElTantawy's Algorithms 1 to 4): the loops that may "
	           "deadlock reconverge at a safe point, through a switch block",
	.run = run_ssde,
};
