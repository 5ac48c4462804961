/*
** regalloc.h — register allocation with spilling for the SM model
** (sm/regalloc.c; sm-model.md §2.2, expectation 34; seed 001 chapter 4):
** linear scan (Poletto & Sarkar) over the lowered program's live
** intervals, and Sampaio's rewritings of its spill code (Figure 4.3):
** rematerialisation, uniform spills once per warp in shared memory, affine
** spills as their uniform part. The spill code is real SM instructions the
** warps issue (an issue slot, a unit, the LD/ST unit and the L1 for its
** memory accesses, the scoreboard); their values go through spill memory
** of their own, from which every reload rewrites the variable's lanes
** before the instruction steps: a wrong spill shows in the results.
*/
#ifndef MUSIMD_SM_REGALLOC_H
#define MUSIMD_SM_REGALLOC_H

#include "lower.h"
#include "sem.h"

/* The allocators (-musimd_regalloc): the option's names, help, checking
** and the statistics' names come from regallocs[]. */
typedef enum RaKind { RA_NONE, RA_LINEAR, RA_REMAT, RA_DIVERGENT, RA_AFFINE, RA__COUNT } RaKind;

typedef struct RaInfo {
	const char *name;
	const char *help;
	int32_t budget;     /* Sampaio's register budget (-musimd_max_regs 0): 9, or 8 with the base */
	bool base;          /* one register holds the warp's shared-memory spill base (§6.5) */
	bool remat;         /* rules (i), (iii): constants and c1·tid + c2 rebuilt, never stored */
	bool shared;        /* rule (ii): uniform values in the warp's shared-memory slots */
	bool affine;        /* rule (iv): c·tid + x spilled as x in the warp's slot */
} RaInfo;

extern const RaInfo regallocs[RA__COUNT];
/* The allocator called name (len bytes), or -1. */
int ra_find(const char *name, size_t len);

/* Where a variable lives. */
typedef enum RaHome {
	RH_REG,          /* a register */
	RH_LOCAL,        /* spilled per thread to local memory */
	RH_SHARED,       /* rule (ii): once per warp in shared memory */
	RH_CONST,        /* rule (i): v = c */
	RH_REMAT,        /* rule (iii): v = c1·tid + c2 */
	RH_AFFINE,       /* rule (iv): v = c1·tid + x, x in shared memory */
} RaHome;

typedef struct RaVar {
	uint8_t home;    /* RaHome */
	int32_t slot;    /* RH_LOCAL: local slot; RH_SHARED, RH_AFFINE: the warp's shared slot */
	Num c1, c0;      /* RH_CONST (c0), RH_REMAT (both), RH_AFFINE (c1) */
} RaVar;

/* One spill instruction. */
typedef enum SpillOpKind { SO_ALU, SO_LD_LOCAL, SO_ST_LOCAL, SO_LD_SHARED, SO_ST_SHARED } SpillOpKind;
/* what the statistics count an instruction as: a reload (the memory access
** of a load sequence), a store (of a store sequence), a rematerialisation
** (its first instruction), the warp's setup, or another instruction of a
** sequence (rule iv's conversion and multiply-add) */
typedef enum SpillRole { SR_RELOAD, SR_STORE, SR_REMAT, SR_SETUP, SR_EXTRA } SpillRole;

typedef struct SpillOp {
	SmIns ins;       /* unit, op class, registers (of the allocated code) */
	uint8_t kind;    /* SpillOpKind */
	uint8_t role;    /* SpillRole: what the statistics count it as */
	int32_t slot;
} SpillOp;

typedef struct SmAlloc {
	SmCode code;     /* the allocated code: the registers are physical */
	RaKind kind;
	int32_t budget;
	RaVar *var;      /* per variable of the program */
	/* per pc: the spill code before it (reloads, rematerialisations)
	** ops[pre[pc] .. pre[pc+1]) and after it (stores) ops[post[pc] .. post[pc+1]) */
	int32_t *pre, *post;
	SpillOp *ops;
	SpillOp setup[2];   /* once per warp at its start: the shared-memory base (divergent, affine) */
	int32_t nsetup;
	int32_t nlocal, nshared; /* spill slots: per thread, per warp */
	int32_t spilled;    /* variables not in a register */
} SmAlloc;

/* Allocate c's registers with allocator kind in budget registers (0: the
** allocator's own); NULL with an error in d. */
SmAlloc *regalloc_build(const SmCode *c, RaKind kind, int32_t budget, Diags *d);
void regalloc_free(SmAlloc *a);

/* ---- executing the spill code (core.c's hooks) ------------------------- */

typedef struct SpillRun SpillRun;
SpillRun *spill_new(const SmAlloc *a, const Machine *m);
void spill_free(SpillRun *s);
/* Warp w's next spill instruction before or after the instruction at its
** pc, or NULL: the instruction itself is next. */
const SpillOp *spill_next(const SpillRun *s, const Warp *W, int32_t w);
/* The lanes spill_next's instruction runs on. */
const uint64_t *spill_lanes(const SpillRun *s, const Warp *W, int32_t w);
/* spill_next's instruction issued. */
void spill_issued(SpillRun *s, int32_t w);
/* Before the instruction at W's pc steps: its spilled operands' lanes get
** their values from spill memory (or are rebuilt). */
void spill_reload(SpillRun *s, Machine *m, const Warp *W);
/* After it stepped on lanes active (pc: where it was): its spilled result
** goes to spill memory, and its stores are due. */
void spill_stored(SpillRun *s, const Machine *m, int32_t w, int32_t pc, const uint64_t *active);
/* A shared or local spill slot's word address (ldst_prepare_spill). */
int64_t spill_address(const SpillRun *s, const SpillOp *op, int32_t w);

#endif
