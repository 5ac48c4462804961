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
	int32_t *ready_pc;      /* per warp: the pc ready_at was computed for (-1: none) */
	int64_t *ready_at;      /* per warp: when the scoreboard lets its instruction at ready_pc issue */
	UnitPool *pools;        /* [pool index × UNIT__COUNT + unit] */
	int32_t npools;         /* 1, or one per scheduler (-gpgpu_sub_core_model) */
	/* the warp scheduler's own state (WarpSched init/fini), and what it
	** adds to the statistics */
	void *sched_state;
	SmResult *result;
	/* per warp: the first cycle it may issue, whatever else holds (BOWS's
	** back-off delay); NULL: no policy delays warps */
	int64_t *not_before;
};

/* Is ins a long-latency operation (GPGPU-Sim's Scoreboard::islongop: a
** global, local, param or texture load)? A load of local memory; mem[]
** is shared memory. */
bool sm_long_latency(const SmCore *c, const Ins *ins);

/* A stateless policy (NAME or NAME:N) by spec, set into c (sched_param):
** BOWS's inner policy. NULL with a message in why. */
const WarpSched *warp_sched_plain(SmCore *c, const char *spec, Buf *why);

extern const WarpSched sched_bows; /* bows.c */

#endif
