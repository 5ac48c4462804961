/*
** validate.c — the checks of language.md §5 that need the control-flow
** graph, and ir_load, the whole front end (parse → CFG → validate).
**
** Errors: a GSA instruction that is not at the start of a basic block, a φ
** whose operand count differs from the number of predecessors, a μ whose
** operand count differs from 1 + the number of back edges.
** Warnings: unreachable code; a variable that may be read before it is
** assigned (a must-be-assigned forward data-flow problem over the blocks).
*/
#include "cfg.h"

#include <stdlib.h>
#include <string.h>

static void check_gsa_placement(const Program *p, const Cfg *g, Diags *d)
{
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!ir_is_gsa(ins->op))
			continue;
		int32_t b = g->block_of[pc];
		const Block *bb = &g->blocks[b];
		if (pc >= bb->first + bb->ngsa) {
			diag_error(d, ins->loc,
			           "%s must stand at the start of a basic block (a block starts at a "
			           "branch or jump target and after bz, bnz, jump, stop and exit)",
			           ir_op_name(ins->op));
			continue;
		}
		if (ins->op == OP_PHI && ins->nargs != bb->npred)
			diag_error(d, ins->loc, "phi has %d operand%s but its block has %d predecessor%s",
			           ins->nargs, ins->nargs == 1 ? "" : "s", bb->npred, bb->npred == 1 ? "" : "s");
		if (ins->op == OP_MU) {
			int32_t want = cfg_mu_arity(g, b);
			if (want == 1)
				diag_error(d, ins->loc,
				           "mu outside a loop header: no edge into this block comes from a block "
				           "it dominates");
			else if (ins->nargs != want)
				diag_error(d, ins->loc,
				           "mu has %d operands but this loop header needs %d (the entry value, "
				           "then one per back edge)",
				           ins->nargs, want);
		}
	}
}

/* ---- may a variable be read before it is assigned? ------------------------------ */

typedef struct Bits {
	uint64_t *w;
	int32_t nw;
} Bits;

static inline bool bget(const uint64_t *s, int32_t i) { return (s[i >> 6] >> (i & 63)) & 1; }
static inline void bset(uint64_t *s, int32_t i) { s[i >> 6] |= 1ull << (i & 63); }

static void warn_read(const Program *p, const Opnd *o, const uint64_t *defined,
                      const bool *assigned, bool *warned, Diags *d)
{
	if (o->kind != OPND_VAR || bget(defined, o->var) || warned[o->var])
		return;
	warned[o->var] = true;
	if (!assigned[o->var])
		diag_warning(d, o->loc,
		             "variable '%s' is never assigned: reading it is an error at run time (rule MV)",
		             p->vars[o->var].name);
	else
		diag_warning(d, o->loc, "variable '%s' may be read before it is assigned",
		             p->vars[o->var].name);
}

/* IN[b]: the variables assigned on every path to block b — the entry's
** (parameters) for the first block, else the meet (∩) of the reachable
** predecessors' OUT sets. */
static void block_in(const Cfg *g, int32_t b, const uint64_t *out, const uint64_t *entry, int32_t nw,
                     uint64_t *cur)
{
	const Block *bb = &g->blocks[b];
	if (b == 0)
		memcpy(cur, entry, (size_t)nw * sizeof *cur);
	else
		memset(cur, 0xff, (size_t)nw * sizeof *cur);
	for (int32_t j = 0; j < bb->npred; j++) {
		int32_t q = bb->pred[j];
		if (!g->blocks[q].reachable)
			continue;
		for (int32_t i = 0; i < nw; i++)
			cur[i] &= out[(size_t)q * (size_t)nw + (size_t)i];
	}
}

static void check_reads(const Program *p, const Cfg *g, Diags *d)
{
	int32_t nv = p->nvars, nb = g->nblocks;
	if (nv == 0 || nb == 0)
		return;
	int32_t nw = (nv + 63) / 64;
	uint64_t *out = xmalloc((size_t)nb * (size_t)nw * sizeof *out);
	uint64_t *cur = xmalloc((size_t)nw * sizeof *cur);
	uint64_t *entry = xcalloc((size_t)nw, sizeof *entry);
	bool *assigned = xcalloc((size_t)nv, sizeof *assigned);
	for (int32_t v = 0; v < nv; v++)
		if (p->vars[v].is_param)
			bset(entry, v);
	for (int32_t pc = 0; pc < p->nins; pc++)
		if (p->ins[pc].dst >= 0)
			assigned[p->ins[pc].dst] = true;
	/* OUT starts at "everything" (the top of the must lattice) */
	memset(out, 0xff, (size_t)nb * (size_t)nw * sizeof *out);
	bool changed = true;
	while (changed) {
		changed = false;
		for (int32_t k = 0; k < g->nrpo; k++) {
			int32_t b = g->rpo[k];
			const Block *bb = &g->blocks[b];
			block_in(g, b, out, entry, nw, cur);
			for (int32_t pc = bb->first; pc <= bb->last; pc++)
				if (p->ins[pc].dst >= 0)
					bset(cur, p->ins[pc].dst);
			uint64_t *o = out + (size_t)b * (size_t)nw;
			if (memcmp(o, cur, (size_t)nw * sizeof *cur) != 0) {
				memcpy(o, cur, (size_t)nw * sizeof *cur);
				changed = true;
			}
		}
	}
	bool *warned = xcalloc((size_t)nv, sizeof *warned);
	for (int32_t k = 0; k < g->nrpo; k++) {
		int32_t b = g->rpo[k];
		const Block *bb = &g->blocks[b];
		block_in(g, b, out, entry, nw, cur);
		/* the GSA group reads its operands on the edges (φ, μ) or lazily
		** (γ, η): check μ/φ operands against the predecessor they belong to */
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
					warn_read(p, &ins->args[ix], out + (size_t)q * (size_t)nw, assigned, warned, d);
			}
			if (b == 0 && ins->op == OP_MU && ins->nargs > 0)
				warn_read(p, &ins->args[0], entry, assigned, warned, d);
		}
		for (int32_t pc = bb->first; pc <= bb->last; pc++) {
			const Ins *ins = &p->ins[pc];
			if (!ir_is_gsa(ins->op)) {
				warn_read(p, &ins->a, cur, assigned, warned, d);
				warn_read(p, &ins->b, cur, assigned, warned, d);
				warn_read(p, &ins->c, cur, assigned, warned, d);
			} else if (ins->op == OP_GAMMA || ins->op == OP_ETA) {
				/* only the predicate is read on every path */
				warn_read(p, &ins->a, cur, assigned, warned, d);
			}
			if (ins->dst >= 0 && !(pc < bb->first + bb->ngsa))
				bset(cur, ins->dst);
			if (pc == bb->first + bb->ngsa - 1)
				for (int32_t j = bb->first; j <= pc; j++)
					bset(cur, p->ins[j].dst);
		}
	}
	free(warned);
	free(assigned);
	free(out);
	free(cur);
	free(entry);
}

static void check_unreachable(const Program *p, const Cfg *g, Diags *d)
{
	for (int32_t b = 0; b < g->nblocks; b++)
		if (!g->blocks[b].reachable)
			diag_warning(d, p->ins[g->blocks[b].first].loc, "unreachable code");
}

Program *ir_load(const char *path, const char *src, size_t len, Diags *d)
{
	int errs = d->nerrors;
	Program *p = ir_parse(path, src, len, d);
	if (d->nerrors > errs || p->nins == 0) {
		diag_sort(d);
		return p;
	}
	Cfg *g = cfg_build(p);
	check_gsa_placement(p, g, d);
	check_unreachable(p, g, d);
	check_reads(p, g, d);
	diag_sort(d);
	if (d->nerrors > errs) {
		cfg_free(g);
		return p;
	}
	p->cfg = g;
	return p;
}
