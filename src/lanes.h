/*
** lanes.h — what the step function (sem.c) and the data rules (data.c)
** share about σ and the budget: a variable's row of lanes, a lane's value,
** an operand's value in a thread, whether the --max-memory budget allows an
** allocation. Internal to the semantics: not for drivers.
*/
#ifndef MUSIMD_LANES_H
#define MUSIMD_LANES_H

#include "sem.h"

static inline int64_t *row(const Machine *m, int32_t v)
{
	return m->val + (size_t)v * (size_t)m->nthreads;
}

static inline uint8_t *defrow(const Machine *m, int32_t v)
{
	return m->def + (size_t)v * (size_t)m->nthreads;
}

static inline Num lane_num(const Machine *m, int32_t v, int32_t t)
{
	return (Num){row(m, v)[t], m->big[v] ? m->big[v][t] : NULL};
}

/* The value an operand has in thread t (borrowed). The caller has checked
** that a variable operand is assigned in t. */
static inline Num opnd_num(const Machine *m, const Opnd *o, int32_t t)
{
	switch (o->kind) {
	case OPND_VAR: return lane_num(m, o->var, t);
	case OPND_LIT: return ir_lit(m->prog, o);
	case OPND_SPECIAL:
		return NUM_I(sem_special(m, o->special, t));
	default: return NUM_I(0);
	}
}

static inline uint64_t num_bytes(Num v)
{
	return v.z ? zbytes(v.z) : 0;
}

/* Can `more` bytes be allocated? (saturating: more may be huge) */
static inline bool budget_allows(const Machine *m, uint64_t more)
{
	uint64_t used = sem_bytes(m) + m->outside_bytes;
	return used <= m->opt.max_memory && more <= m->opt.max_memory - used;
}

/* The lanes of w's active threads in lane order (rule TL) into m->order;
** returns how many. */
int32_t sem_lane_order(Machine *m, Warp *w);
/* Premise of MV: every active PE has the variable o (error set if not). */
/* Whether variable v is assigned in every active lane of w (data.c). */
bool sem_all_defined(const Machine *m, const Warp *w, int32_t v);
bool sem_check_read(Machine *m, Warp *w, int32_t pc, const Opnd *o);
/* The step stops at the --max-memory budget (rule "limit"). */
void sem_memory_limit(Machine *m, int32_t pc, int32_t w);
/* IT: the data rules of Table 3.5 for ins (a GSA group: its whole block's
** group), then the model moves the warp on (data.c). */
bool sem_rule_IT(Machine *m, Warp *w, int32_t pc, const Ins *ins);
/* The data rules of ins alone (of the whole group of a GSA block), without
** moving the warp. */
bool sem_data_rule(Machine *m, Warp *w, int32_t pc, const Ins *ins);
/* The pc after the data instruction at pc (after the whole group of a GSA
** block): where rule IT moves the warp. */
int32_t sem_data_next(const Machine *m, int32_t pc, const Ins *ins);
void sem_race_free(Race *r);
/* The step wrote shared cell `cell` (an effect: StepInfo.stores). */
static inline void sem_record_store(Machine *m, int64_t cell)
{
	if (m->effects)
		VEC_PUSH(m->fx_cell, m->fx_ncell, m->fx_capcell, cell);
}
/* The order of the lanes as a choice (data.c; explore.md §1). Whether warp
** w's next instruction has lane orders (a store to shared memory or an
** atomic); the step gets stuck (rule TL): it has norders lane orders, none
** numbered Machine.lane_choice; freeing what was kept of the last step's
** outcomes (Machine.lane_orders). */
bool sem_order_matters(const Machine *m, const Warp *w);
void sem_no_such_order(Machine *m, Warp *w, int32_t pc, int32_t norders);
void sem_lane_orders_free(struct LaneOrders *lo);

#endif
