/*
** opcoll.h — the SM's front end and operand delivery (sm/fetch.c,
** sm/opcoll.c; sm-model.md §1.1 fetch/decode/read_operands, §1.4): per warp
** an I-buffer refilled by the fetch stage, and the register banks read
** through operand collector units. core.c asks them whether a warp's
** instruction may issue (and from which cycle on) and tells them what
** issued.
*/
#ifndef MUSIMD_SM_OPCOLL_H
#define MUSIMD_SM_OPCOLL_H

#include "sm.h"

/* ---- fetch and the I-buffer (sm/fetch.c) ------------------------------- */

/* GPGPU-Sim's shader_core_ctx::fetch/decode and shd_warp_t's I-buffer: a
** warp's I-buffer holds up to two consecutive instructions; when it is
** empty, or the warp's next pc is not the one it holds (a control
** hazard: the branch went elsewhere), it is refilled by one of the
** -gpgpu_inst_fetch_throughput fetches of a cycle. */
typedef struct Fetch {
	bool on;                 /* -musimd_ibuffer: off, every instruction is always there */
	int32_t per_cycle;       /* -gpgpu_inst_fetch_throughput: fetches per cycle, SM-wide */
	int32_t miss_latency;    /* -gpgpu_perfect_inst_const_cache 0: an L1I miss's extra cycles */
	bool perfect;
	int32_t nins;
	int64_t slot_cycle;      /* the cycle the last fetch was granted in */
	int32_t slot_used;       /* fetches granted in slot_cycle */
	int32_t *pc;             /* per warp: the pc of the I-buffer's next entry (-1: empty) */
	int8_t *n;               /* per warp: its valid entries (0..2) */
	int64_t *ready;          /* per warp: the cycle its entries are decoded and may issue */
	uint8_t *cause;          /* per warp: why it waits for them (WS_IBUFFER, WS_CONTROL) */
	int64_t *line_ready;     /* per 128-byte L1I line: when it is filled (0: never asked for) */
	uint64_t fetches, misses, flushes;
} Fetch;

void fetch_init(Fetch *f, const SmConfig *c, int32_t nwarps, int32_t nins);
void fetch_free(Fetch *f);
/* Warp w's pc moved to pc without an issue of its own: flush and refetch. */
void fetch_flush(Fetch *f, int32_t w, int32_t pc, int64_t now);
/* The cycle from which warp w's instruction at pc is in its I-buffer
** (flushing and refetching when its I-buffer holds another pc); its cause
** is f->cause[w] (WS_IBUFFER, WS_CONTROL). */
static inline int64_t fetch_at(Fetch *f, int32_t w, int32_t pc, int64_t now)
{
	if (f->pc[w] != pc)
		fetch_flush(f, w, pc, now);
	return f->ready[w];
}
/* The I-buffer ran empty, or holds the wrong pc, after warp w's issue at
** pc (next: where it goes on, -1 finished): refill it. */
void fetch_refill(Fetch *f, int32_t w, int32_t pc, int32_t next, int64_t now);
/* Warp w issued its instruction at pc in cycle now and goes on at next
** (-1: it finished): step its I-buffer, or refill it. */
static inline void fetch_issued(Fetch *f, int32_t w, int32_t pc, int32_t next, int64_t now)
{
	if (next == pc + 1 && f->n[w] > 1) { /* the I-buffer's second entry */
		f->pc[w] = next;
		f->n[w]--;
		return;
	}
	fetch_refill(f, w, pc, next, now);
}

/* ---- register banks and operand collectors (sm/opcoll.c) --------------- */

enum { OC_GEN, OC_SP, OC_INT, OC_SFU, OC_MEM, OC__SETS };

/* GPGPU-Sim's opndcoll_rfu_t: an issued instruction takes a collector unit
** of its set (specialized, then generic; in the sub-core model one of its
** own scheduler's), which queues one read per distinct source register on
** that register's bank; a bank serves one read per step, steps run
** -gpgpu_reg_file_port_throughput times a cycle; the unit is free again
** once it has dispatched its instruction. Time is kept in steps. */
/* Where an instruction of one unit kind from one scheduler finds its
** collector units: up to two runs of them (its specialized set's, then the
** generic set's), each unit the step it is free from. */
typedef struct OcPick {
	int64_t *cu[2];
	int32_t n[2];
} OcPick;

typedef struct OpColl {
	int32_t ports;           /* steps per cycle */
	int32_t shift;           /* log2(ports) when a power of two, else -1 */
	int32_t nbanks, bps;     /* banks; per scheduler (sub-core model; else nbanks) */
	int32_t bps_mask;        /* bps - 1 when a power of two, else -1 */
	bool sub_core, use_wid;
	int64_t *bank_free;      /* per bank: the first step it serves a read */
	int64_t *cu[OC__SETS];   /* per set: per pool × unit, the step it is free from */
	OcPick *pick;            /* per pool × SmUnit */
	int64_t *picked;         /* the unit opcoll_free_at found, for opcoll_collect, */
	int64_t picked_now;      /* in this cycle */
	int32_t picked_key;      /* for this scheduler × UNIT__COUNT + unit */
	uint64_t conflict_cycles;    /* Σ extra cycles results waited for a bank */
	uint64_t conflict_reads;     /* reads that waited for a bank another read held */
} OpColl;

/* false with an error in d when the configuration leaves a unit's
** instructions without a collector unit. */
bool opcoll_init(OpColl *o, const SmConfig *c, int32_t nsched, Diags *d);
void opcoll_free(OpColl *o);

/* A step count in cycles. */
static inline int64_t opcoll_cycle(const OpColl *o, int64_t step)
{
	return o->shift >= 0 ? step >> o->shift : step / o->ports;
}

/* The first cycle scheduler s finds a collector unit for an instruction of
** unit u (now: one is free in cycle now, and opcoll_collect, next, takes
** it): the first, in the sets' order (GPGPU-Sim's allocate_cu tries the
** specialized set first, each in index order), free by the cycle's last
** step; else when the one free first is.
** (Inline: the schedulers ask it of every instruction that may issue.) */
static inline int64_t opcoll_free_at(OpColl *o, int32_t s, SmUnit u, int64_t now)
{
	const OcPick *p = &o->pick[(o->sub_core ? s : 0) * UNIT__COUNT + u];
	int64_t last = (now + 1) * o->ports - 1, *best = NULL;
	for (int i = 0; i < 2; i++)
		for (int32_t k = 0; k < p->n[i]; k++) {
			int64_t *cu = &p->cu[i][k];
			if (*cu <= last) { /* allocate_cu: the first free one */
				o->picked = cu;
				o->picked_now = now;
				o->picked_key = s * UNIT__COUNT + (int32_t)u;
				return now;
			}
			if (!best || *cu < *best)
				best = cu;
		}
	o->picked = best;
	o->picked_now = now;
	o->picked_key = s * UNIT__COUNT + (int32_t)u;
	return opcoll_cycle(o, *best);
}

/* Warp w's instruction of unit u reading the distinct registers src[0 ..
** nsrc), issued from scheduler s in cycle now (after opcoll_free_at said a
** unit is free, whose answer it takes; else it looks itself): take the
** unit and read the banks. Returns the extra cycles its result waits for
** bank conflicts (0 without: decision 2). (Inline: every issue takes one.) */
static inline int32_t opcoll_collect(OpColl *o, int32_t s, int32_t w, SmUnit u, const int32_t *src, int32_t nsrc,
                                     int64_t now)
{
	if (!o->picked || o->picked_now != now || o->picked_key != s * UNIT__COUNT + (int32_t)u)
		opcoll_free_at(o, s, u, now);
	int64_t *cu = o->picked;
	o->picked = NULL; /* taken: the next issue asks again */
	int64_t a0 = now * o->ports, a = *cu > a0 ? *cu : a0, f = a;
	for (int32_t i = 0; i < nsrc; i++) {
		int32_t r = src[i] + (o->use_wid ? w : 0);
		int32_t bank = !o->sub_core ? r % o->nbanks
		               : (o->bps_mask >= 0 ? r & o->bps_mask : r % o->bps) + s * o->bps;
		int64_t g = o->bank_free[bank] > a + 1 ? o->bank_free[bank] : a + 1;
		o->conflict_reads += g > a + 1;
		o->bank_free[bank] = g + 1;
		if (g > f)
			f = g;
	}
	*cu = f + 1; /* dispatched the step after its last read, and free */
	/* without a wait: dispatched 2 steps after the allocation (1 without
	** reads), which the configured latency includes */
	int64_t delay = opcoll_cycle(o, f + 1) - opcoll_cycle(o, a0 + (nsrc > 0 ? 2 : 1));
	if (delay < 0)
		delay = 0;
	o->conflict_cycles += (uint64_t)delay;
	return (int32_t)delay;
}

#endif
