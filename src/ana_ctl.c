/*
** ana_ctl.c — the control dependences the divergence analyses add to the
** data dependences of a GSA program, so that they are sound on every
** reducible CFG under every model (docs/analyses.md §2):
**
** - temporal divergence (LLVM's term; seed 003 §3.3's loop branch): a
**   value assigned in a loop L and read outside it is read after threads
**   left L, possibly in different iterations. The read is divergent when
**   an exit branch of L is: a conditional branch in L from which an edge
**   out of L is reachable without passing L's header, and whose immediate
**   post-dominator lies outside L (or any such branch, when a path out of L
**   leads back into its header, e.g. an outer loop whose exits all lie in
**   L). An η reads its operand there, so "an η is divergent when any exit
**   branch of its loop is"; the predicates of a nested γ read at a join
**   after a loop are treated alike. As in LLVM (cycles with divergent
**   exits), an exit branch counts only for the reads outside the outermost
**   loop it leaves: threads that take it leave that loop too, so they
**   never meet the others at a read inside it (the read at the uniform
**   exit of an inner loop whose other exits leave the outer loop as well
**   stays uniform).
** - sync dependence (seed 003 §3.3, LLVM's divergent joins): a φ left by
**   the construction (or written by the user) and a μ at a header with
**   several back edges merge values that arrive by edges chosen by the
**   branches of the gating walk (gate.h) of its block: it is divergent
**   when one of them is. A header whose loop is re-entered from its own
**   exits also depends on the loop's exit branches (threads of different
**   outer iterations meet there).
**
** Both become "control sets": a list of predicate operands, divergent as
** soon as one of them is (not uniform); the instructions a set gates
** become divergent (⊥ in every coefficient) then. The solvers keep the sets'
** states (ana_simple.c, ana_poly.c).
*/
#include "ana.h"
#include "cfg.h"
#include "gate.h"

#include <stdlib.h>
#include <string.h>

typedef struct IV {
	int32_t *v;
	int32_t n, cap;
} IV;

static void iv_push(IV *a, int32_t x) { VEC_PUSH(a->v, a->n, a->cap, x); }

/* (key, value) pairs into CSR form: start[key .. key+1) lists the values. */
static void csr(int32_t nkeys, const IV *keys, const IV *vals, int32_t **start, int32_t **out)
{
	*start = xcalloc((size_t)nkeys + 2, sizeof **start);
	*out = xmalloc(((size_t)keys->n + 1) * sizeof **out);
	for (int32_t i = 0; i < keys->n; i++)
		(*start)[keys->v[i] + 1]++;
	for (int32_t k = 0; k < nkeys; k++)
		(*start)[k + 1] += (*start)[k];
	int32_t *fill = xmalloc(((size_t)nkeys + 1) * sizeof *fill);
	memcpy(fill, *start, ((size_t)nkeys + 1) * sizeof *fill);
	for (int32_t i = 0; i < keys->n; i++)
		(*out)[fill[keys->v[i]]++] = vals->v[i];
	free(fill);
}

static bool in_loop(const Cfg *g, int32_t blk, int32_t loop)
{
	return cfg_loop_contains(g, loop, blk);
}

/* The exit branches of every loop (the file comment), as branch pcs. A
** branch whose immediate post-dominator lies outside loop L can leave L
** before reconverging, so it is an exit branch of every loop it is in and
** its reconvergence point is not: found per branch, by the loops it leaves,
** in time linear in the loops each branch leaves. A loop re-entered from
** its own exits (an outer loop whose exits all lie in it) takes every
** branch from which an exit is reachable without its header: found by a
** walk of its body, for those loops only. */
static void exit_branches(const Program *p, const Cfg *g, IV *of_loop, IV *own_of)
{
	int32_t nb = g->nblocks;
	bool *reent = xcalloc((size_t)g->nloops + 1, sizeof *reent);
	for (int32_t u = 0; u < nb; u++) {
		const Block *b = &g->blocks[u];
		if (!b->reachable)
			continue;
		for (int32_t k = 0; k < b->nsucc; k++) {
			int32_t s = b->succ[k];
			if (s >= nb)
				continue;
			for (int32_t l = b->loop; l >= 0 && !in_loop(g, s, l); l = g->loops[l].parent)
				reent[l] |= cfg_postdominates(g, g->loops[l].header, s);
		}
	}
	for (int32_t x = 0; x < nb; x++) {
		const Block *b = &g->blocks[x];
		if (!b->reachable || !ir_is_branch((Op)p->ins[b->last].op))
			continue;
		int32_t r = b->ipdom, out = -1;
		for (int32_t l = b->loop; l >= 0 && (r < 0 || r >= nb || !in_loop(g, r, l)); l = g->loops[l].parent)
			if (!reent[l]) {
				iv_push(&of_loop[l], b->last);
				out = l;
			}
		if (out >= 0)
			iv_push(&own_of[out], b->last);
	}
	/* the re-entered loops: every branch that reaches an exit without the header */
	bool *canexit = xcalloc((size_t)nb + 1, sizeof *canexit);
	IV work = {0};
	for (int32_t l = 0; l < g->nloops; l++) {
		if (!reent[l])
			continue;
		const Loop *L = &g->loops[l];
		work.n = 0;
		for (int32_t i = 0; i < L->nblocks; i++) {
			int32_t x = L->blocks[i];
			canexit[x] = false;
			const Block *b = &g->blocks[x];
			for (int32_t k = 0; k < b->nsucc; k++)
				if (b->succ[k] < nb && !in_loop(g, b->succ[k], l) && !canexit[x]) {
					canexit[x] = true;
					iv_push(&work, x);
				}
		}
		while (work.n > 0) {
			int32_t x = work.v[--work.n];
			if (x == L->header)
				continue;
			const Block *b = &g->blocks[x];
			for (int32_t j = 0; j < b->npred; j++) {
				int32_t q = b->pred[j];
				if (in_loop(g, q, l) && !canexit[q]) {
					canexit[q] = true;
					iv_push(&work, q);
				}
			}
		}
		for (int32_t i = 0; i < L->nblocks; i++) {
			int32_t x = L->blocks[i];
			if (canexit[x] && ir_is_branch((Op)p->ins[g->blocks[x].last].op)) {
				iv_push(&of_loop[l], g->blocks[x].last);
				iv_push(&own_of[l], g->blocks[x].last);
			}
			canexit[x] = false;
		}
	}
	free(work.v);
	free(canexit);
	free(reent);
}

/* Is the loop re-entered from one of its exits (see exit_branches)? */
static bool reentrant(const Cfg *g, int32_t l)
{
	const Loop *L = &g->loops[l];
	for (int32_t i = 0; i < L->nblocks; i++) {
		const Block *b = &g->blocks[L->blocks[i]];
		for (int32_t k = 0; k < b->nsucc; k++) {
			int32_t s = b->succ[k];
			if (s < g->nblocks && !in_loop(g, s, l) && cfg_postdominates(g, L->header, s))
				return true;
		}
	}
	return false;
}

/* Do all the operands of a φ/μ name one value? Then nothing gates it. */
static bool same_operands(const Program *p, const Ins *ins)
{
	for (int32_t k = 1; k < ins->nargs; k++)
		if (!ir_opnd_same(p, &ins->args[0], p, &ins->args[k]))
			return false;
	return true;
}

/* The sync set of block J: the branches of the gating walks of its merges. */
static void sync_branches(const Program *p, const Cfg *g, GateWalk *w, int32_t J, const IV *exits_of,
                          IV *out)
{
	const Block *bj = &g->blocks[J];
	int32_t *leaf = xmalloc(((size_t)bj->npred + 1) * sizeof *leaf);
	int32_t *br = NULL, nbr = 0, capbr = 0;
	bool header = bj->mu_index != NULL;
	/* the edges from outside the loop (every edge into a join) */
	int32_t nentry = 0;
	for (int32_t k = 0; k < bj->npred; k++) {
		bool entry = !header || bj->mu_index[k] == 0;
		leaf[k] = entry ? k : GATE_BOT;
		nentry += entry;
	}
	if (nentry > 1 && bj->idom >= 0)
		gate_branches(w, gate_build(w, J, bj->idom, leaf, -1, INT32_MAX), &br, &nbr, &capbr);
	if (header) {
		int32_t l = g->blocks[J].loop;
		int32_t nback = 0;
		for (int32_t k = 0; k < bj->npred; k++) {
			bool back = bj->mu_index[k] > 0;
			leaf[k] = back ? k : GATE_BOT;
			nback += back;
		}
		if (nback > 1)
			gate_branches(w, gate_build(w, J, J, leaf, l, INT32_MAX), &br, &nbr, &capbr);
		if (l >= 0 && g->loops[l].header == J && reentrant(g, l))
			for (int32_t i = 0; i < exits_of[l].n; i++)
				VEC_PUSH(br, nbr, capbr, g->block_of[exits_of[l].v[i]]);
	}
	for (int32_t i = 0; i < nbr; i++)
		iv_push(out, g->blocks[br[i]].last);
	free(br);
	free(leaf);
	(void)p;
}

void ana_ctl_build(const Program *p, AnaCtl *c)
{
	memset(c, 0, sizeof *c);
	const Cfg *g = p->cfg;
	int32_t nv = p->nvars, n = p->nins;
	if (!g || n == 0)
		return;
	/* the blocks assigning each variable */
	IV dk = {0}, dv = {0};
	for (int32_t pc = 0; pc < n; pc++)
		if (p->ins[pc].dst >= 0 && g->blocks[g->block_of[pc]].reachable) {
			iv_push(&dk, p->ins[pc].dst);
			iv_push(&dv, g->block_of[pc]);
		}
	int32_t *dstart, *dblk;
	csr(nv, &dk, &dv, &dstart, &dblk);
	free(dk.v);
	free(dv.v);

	IV *exits_of = xcalloc((size_t)g->nloops + 1, sizeof *exits_of);
	IV *own_of = xcalloc((size_t)g->nloops + 1, sizeof *own_of);
	exit_branches(p, g, exits_of, own_of);

	/* sets 0 .. nloops-1: temporal divergence of each loop; then one sync
	** set per block that needs one */
	IV set_pred = {0}, set_key = {0};   /* (set, branch pc) pairs */
	IV gate_key = {0}, gate_pc = {0};   /* (pc, set) pairs */
	IV read_pc = {0}, read_var = {0}, read_set = {0};
	int32_t nsets = g->nloops;
	for (int32_t l = 0; l < g->nloops; l++)
		for (int32_t i = 0; i < own_of[l].n; i++) {
			iv_push(&set_key, l);
			iv_push(&set_pred, own_of[l].v[i]);
		}
	/* temporal: reads outside a loop of values assigned in it */
	int32_t *seen = xmalloc(((size_t)g->nloops + 1) * sizeof *seen);
	for (int32_t l = 0; l < g->nloops; l++)
		seen[l] = -1;
	for (int32_t pc = 0; pc < n; pc++) {
		const Ins *ins = &p->ins[pc];
		int32_t b = g->block_of[pc];
		if (!g->blocks[b].reachable)
			continue;
		const Opnd *o;
		for (int32_t k = 0; (o = ana_operand(ins, k)) != NULL; k++) {
			if (o->kind != OPND_VAR)
				continue;
			for (int32_t i = dstart[o->var]; i < dstart[o->var + 1]; i++)
				for (int32_t l = g->blocks[dblk[i]].loop; l >= 0 && !in_loop(g, b, l); l = g->loops[l].parent) {
					if (own_of[l].n == 0)
						continue;
					iv_push(&read_pc, pc);
					iv_push(&read_var, o->var);
					iv_push(&read_set, l);
					if (seen[l] != pc && ins->dst >= 0) {
						seen[l] = pc;
						iv_push(&gate_key, pc);
						iv_push(&gate_pc, l);
					}
				}
		}
	}
	free(seen);
	/* sync: φs, and μs of headers with several back edges */
	GateWalk w;
	gate_init(&w, p, g);
	IV br = {0};
	for (int32_t b = 0; b < g->nblocks; b++) {
		const Block *bl = &g->blocks[b];
		if (!bl->reachable || bl->ngsa == 0)
			continue;
		bool need = false;
		for (int32_t pc = bl->first; pc < bl->first + bl->ngsa && !need; pc++) {
			const Ins *ins = &p->ins[pc];
			need = (ins->op == OP_PHI || (ins->op == OP_MU && ins->nargs > 2)) && !same_operands(p, ins);
		}
		if (!need)
			continue;
		br.n = 0;
		sync_branches(p, g, &w, b, exits_of, &br);
		if (br.n == 0)
			continue;
		int32_t set = nsets++;
		for (int32_t i = 0; i < br.n; i++) {
			iv_push(&set_key, set);
			iv_push(&set_pred, br.v[i]);
		}
		for (int32_t pc = bl->first; pc < bl->first + bl->ngsa; pc++) {
			const Ins *ins = &p->ins[pc];
			if ((ins->op == OP_PHI || ins->op == OP_MU) && !same_operands(p, ins)) {
				iv_push(&gate_key, pc);
				iv_push(&gate_pc, set);
			}
		}
	}
	free(br.v);
	gate_free(&w);

	c->nsets = nsets;
	c->nins = n;
	c->nvars = nv;
	csr(nsets, &set_key, &set_pred, &c->pstart, &c->pred_pc);
	csr(n, &gate_key, &gate_pc, &c->gstart, &c->gset);
	/* the instructions each set gates */
	csr(nsets, &gate_pc, &gate_key, &c->istart, &c->ipc);
	/* the sets each variable is a predicate of */
	IV vk = {0}, vs = {0};
	for (int32_t s = 0; s < nsets; s++)
		for (int32_t i = c->pstart[s]; i < c->pstart[s + 1]; i++) {
			const Opnd *a = &p->ins[c->pred_pc[i]].a;
			if (a->kind == OPND_VAR) {
				iv_push(&vk, a->var);
				iv_push(&vs, s);
			}
		}
	csr(nv, &vk, &vs, &c->vstart, &c->vset);
	/* temporal reads per pc (var, set), for the oracle and the branches */
	IV rv = {0};
	for (int32_t i = 0; i < read_pc.n; i++)
		iv_push(&rv, i);
	csr(n, &read_pc, &rv, &c->rstart, &c->ridx);
	c->rvar = read_var.v;
	c->rset = read_set.v;
	c->div = xcalloc((size_t)nsets + 1, 1);
	free(rv.v);
	free(read_pc.v);
	free(vk.v);
	free(vs.v);
	free(set_key.v);
	free(set_pred.v);
	free(gate_key.v);
	free(gate_pc.v);
	for (int32_t l = 0; l < g->nloops; l++)
		free(exits_of[l].v);
	free(exits_of);
	for (int32_t l = 0; l < g->nloops; l++)
		free(own_of[l].v);
	free(own_of);
	free(dstart);
	free(dblk);
}

void ana_ctl_free(AnaCtl *c)
{
	free(c->pstart);
	free(c->pred_pc);
	free(c->gstart);
	free(c->gset);
	free(c->istart);
	free(c->ipc);
	free(c->vstart);
	free(c->vset);
	free(c->rstart);
	free(c->ridx);
	free(c->rvar);
	free(c->rset);
	free(c->div);
	memset(c, 0, sizeof *c);
}

bool ana_ctl_gated(const AnaCtl *c, int32_t pc)
{
	if (!c->gstart || pc < 0 || pc >= c->nins)
		return false;
	for (int32_t i = c->gstart[pc]; i < c->gstart[pc + 1]; i++)
		if (c->div[c->gset[i]])
			return true;
	return false;
}

bool ana_read_divergent(const AnaResult *r, int32_t pc, int32_t var)
{
	const AnaCtl *c = &r->ctl;
	if (!c->rstart || pc < 0 || pc >= c->nins)
		return false;
	for (int32_t i = c->rstart[pc]; i < c->rstart[pc + 1]; i++) {
		int32_t k = c->ridx[i];
		if ((var < 0 || c->rvar[k] == var) && c->div[c->rset[k]])
			return true;
	}
	return false;
}

void ana_ctl_update(AnaCtl *c, const Program *p, int32_t v, AnaPredDiv div, void *ctx, AnaGated gated)
{
	if (!c->pstart)
		return;
	int32_t lo = 0, hi = c->nsets;
	const int32_t *sets = NULL;
	if (v >= 0) {
		if (v >= c->nvars)
			return;
		lo = c->vstart[v];
		hi = c->vstart[v + 1];
		sets = c->vset;
	}
	for (int32_t i = lo; i < hi; i++) {
		int32_t s = sets ? sets[i] : i;
		if (c->div[s])
			continue;
		bool d = false;
		for (int32_t k = c->pstart[s]; k < c->pstart[s + 1] && !d; k++)
			d = div(ctx, &p->ins[c->pred_pc[k]].a);
		if (!d)
			continue;
		c->div[s] = 1;
		for (int32_t k = c->istart[s]; k < c->istart[s + 1]; k++)
			gated(ctx, c->ipc[k]);
	}
}
