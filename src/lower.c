/*
** lower.c — μ-SIMD to SM code (lower.h). Registers: each variable gets
** one, numbered in the order of first definition in the program text
** (the note's "naive numbering"; a register allocator will take its
** place). Parameters and special variables are uniform registers the SM
** model never waits for (constant and special registers). Op classes as
** GPGPU-Sim's -ptx_opcode_latency_int: + - compares, bit operations, !,
** copies and control are ADD; min/max MAX; * MUL; / and % DIV, on the SFU.
*/
#include "lower.h"

#include <stdlib.h>

#include "cfg.h"
#include "sm/sm.h"

const char *lower_unit_name(SmUnit u)
{
	static const char *const names[UNIT__COUNT] = {"INT", "SFU", "MEM"};
	return u < UNIT__COUNT ? names[u] : "?";
}

static void add_src(SmIns *s, const SmCode *c, const Opnd *o)
{
	if (o->kind != OPND_VAR)
		return;
	int32_t r = c->reg_of[o->var];
	if (r < 0)
		return; /* a parameter: uniform, never written */
	for (int32_t i = 0; i < s->nsrc; i++)
		if (s->src[i] == r)
			return; /* read once (GPGPU-Sim reads a duplicate source once) */
	if (s->nsrc < LOWER_MAX_SRC)
		s->src[s->nsrc++] = r;
}

static void classify(SmIns *s, const Ins *ins)
{
	s->unit = UNIT_INT;
	s->oclass = SM_ADD;
	switch ((Op)ins->op) {
	case OP_BINARY:
		if (ins->sub == BIN_MUL)
			s->oclass = SM_MUL;
		else if (ins->sub == BIN_MIN || ins->sub == BIN_MAX)
			s->oclass = SM_MAX;
		else if (ins->sub == BIN_DIV || ins->sub == BIN_MOD) {
			s->oclass = SM_DIV;
			s->unit = UNIT_SFU;
		}
		break;
	case OP_LOAD: case OP_STORE: case OP_LLOAD: case OP_LSTORE:
	case OP_ATOMINC: case OP_ATOMADD: case OP_ATOMCAS: case OP_ATOMEXCH:
		s->unit = UNIT_MEM;
		break;
	case OP_BZ: case OP_BNZ: case OP_JUMP: case OP_SYNC: case OP_STOP: case OP_EXIT: case OP_BARRIER:
		s->control = true;
		break;
	default:
		break;
	}
}

SmCode *lower(const Program *p, Diags *d)
{
	if (p->has_gsa) {
		diag_error(d, LOC_NONE, "the SM model runs programs in plain form, not in GSA form (%s)", p->path);
		return NULL;
	}
	SmCode *c = xcalloc(1, sizeof *c);
	c->prog = p;
	c->nins = p->nins;
	c->ins = xcalloc((size_t)p->nins + 1, sizeof *c->ins);
	c->reg_of = xmalloc(((size_t)p->nvars + 1) * sizeof *c->reg_of);
	for (int32_t v = 0; v < p->nvars; v++)
		c->reg_of[v] = -1;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		int32_t v = p->ins[pc].dst;
		if (v >= 0 && c->reg_of[v] < 0)
			c->reg_of[v] = c->nregs++;
	}
	const Cfg *g = p->cfg;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		SmIns *s = &c->ins[pc];
		classify(s, ins);
		s->dst = ins->dst >= 0 ? c->reg_of[ins->dst] : -1;
		add_src(s, c, &ins->a);
		add_src(s, c, &ins->b);
		add_src(s, c, &ins->c);
		s->rpc = ir_is_branch((Op)ins->op) && g ? cfg_ipdom_pc(g, pc) : -1;
	}
	return c;
}

void lower_free(SmCode *c)
{
	if (!c)
		return;
	free(c->ins);
	free(c->reg_of);
	free(c);
}
