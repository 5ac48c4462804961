/*
** core.h — the SM's state (sm/core.c), shared with the schedulers (sched.c).
*/
#ifndef MUSIMD_SM_CORE_H
#define MUSIMD_SM_CORE_H

#include "sm.h"

/* A pool of function units of one kind: each accepts an instruction when
** its initiation interval since the last one has passed. */
typedef struct UnitPool {
	int64_t *free_at; /* per unit: the first cycle it accepts the next instruction */
	int32_t n;
	int32_t first;    /* the unit free first (the first such in index order) */
	int64_t first_at; /* its free_at */
} UnitPool;

struct SmCore {
	const SmCode *code;
	const SmConfig *cfg;
	const WarpSched *sched;
	int64_t sched_param;    /* NAME:N's N (gto_rotate: the period) */
	Machine *m;
	int64_t now;
	int32_t nsched;
	int32_t *sched_warps;   /* the warps of scheduler s: sched_warps[s * per .. ], ascending */
	int32_t *sched_nwarps;
	int32_t per;            /* capacity per scheduler */
	int32_t *last_issued;   /* per scheduler: the warp that issued last, or -1 */
	int32_t *last_pos;      /* per scheduler: that warp's position in its list, or -1 */
	int64_t *reg_ready;     /* per warp × register: the first cycle a consumer may issue */
	UnitPool *pools;        /* [pool index × UNIT__COUNT + unit] */
	int32_t npools;         /* 1, or one per scheduler (-gpgpu_sub_core_model) */
	UnitPool **pool_at;     /* [scheduler × UNIT__COUNT + unit]: the pool it issues to (pool_of) */
	/* MP's scoreboard (a model with several splits to pick from, Model.group):
	** per warp × register × lane, the cycle its value is ready — the R-mask
	** of seed 004 §7.3, which only the lanes of a split wait on */
	int64_t *lane_ready;
	int32_t lanes;          /* lanes per warp in lane_ready */
	int32_t *alt;           /* per warp: the split warp_ready found ready */
	/* CTAs (cta.c): resident ones, in the schedulers' lists */
	int32_t cta_threads, ncta, next_cta, resident;
	int32_t launched;       /* warps launched so far: 0 .. launched-1, CTAs go in order */
	int32_t *cta_live;      /* per CTA: its launched warps not finished */
	int32_t *cta_hw;        /* per CTA: its first hardware thread id, -1 not resident */
	uint8_t *hw_busy;       /* per hardware thread id */
	int32_t hw_threads;
	int32_t *pos_of;        /* per warp: its place in its scheduler's list, -1 not resident */
	int32_t *sched_of;      /* per warp: its scheduler, -1 before its CTA's launch */
	int64_t live_threads;   /* threads of resident CTAs not finished */
	double occ_area;        /* Σ live_threads × cycles, up to occ_since */
	int64_t occ_since;
	/* the warp scheduler's own state (WarpSched init/fini), and what it
	** adds to the statistics */
	void *sched_state;
	SmResult *result;
	/* per warp: the first cycle it may issue, whatever else holds (BOWS's
	** back-off delay); NULL: no policy delays warps */
	int64_t *not_before;
	/* per warp: held until this cycle by AWARE's ST insert at a divergent
	** branch (-musimd_aware_st_insert); NULL: no such cost */
	int64_t *st_hold;
	/* register allocation's spill code (sm/regalloc.c): the warps' place
	** in it and spill memory; NULL without an allocator */
	struct SpillRun *spill;
};

/* CTAs (cta.c): setup (the occupancy; false with an error in d when a CTA
** does not fit), launching as many as fit (how many warps went to the
** schedulers: the next ones in order, from sched_warps' ends), a warp's
** end (its CTA leaves with its last; the caller launches then), the
** achieved occupancy at the end. */
bool cta_setup(SmCore *c, SmResult *r, Diags *d);
int32_t cta_launch(SmCore *c, SmResult *r);
void cta_warp_done(SmCore *c, SmResult *r, int32_t w);
void cta_finish(SmCore *c, SmResult *r);
void cta_free(SmCore *c);

/* Is ins a long-latency operation (GPGPU-Sim's Scoreboard::islongop: a
** global, local, param or texture load)? A load of local memory; mem[]
** is shared memory. */
bool sm_long_latency(const SmCore *c, const Ins *ins);

/* A stateless policy (NAME or NAME:N) by spec, set into c (sched_param):
** BOWS's inner policy. NULL with a message in why. */
const WarpSched *warp_sched_plain(SmCore *c, const char *spec, Buf *why);

extern const WarpSched sched_bows; /* bows.c */

#endif
