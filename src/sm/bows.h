/*
** bows.h — DDOS, ElTantawy's dynamic detection of spinning (seed 004
** §6.3), as pieces the BOWS scheduler (bows.c) uses and the tests drive
** directly: a warp's path and value history registers, and the SM's
** spin-inducing-branch prediction table.
*/
#ifndef MUSIMD_SM_BOWS_H
#define MUSIMD_SM_BOWS_H

#include "sm.h"

typedef struct DdosParams {
	int32_t path_bits, path_len;   /* m, and the path history's entries (l) */
	int32_t value_bits, value_len; /* 2k (two k-bit hashes per entry), and the value history's entries */
	int32_t hash;                  /* 0 MODULO (the low bits), 1 XOR (the bits folded) */
} DdosParams;

DdosParams ddos_params(const SmConfig *c);

/* x hashed to bits bits: MODULO keeps the low bits; XOR folds all of x's
** 64 bits in bits-wide pieces (PC[m-1:0] xor PC[2m-1:m] xor ...). */
uint64_t ddos_hash(uint64_t x, int32_t bits, int32_t hash);

/* One warp's history registers: the hashed pcs and operand values of its
** predicate-setting instructions (PTX's setp), newest first, as the
** profiled thread saw them; the match pointer (front: the candidate period
** + 1) and the matches counted towards it. */
typedef struct DdosHistory {
	uint64_t *path, *value;      /* path_len and value_len entries, [0] the newest */
	int32_t front_path, front_value;
	int32_t matches, target;     /* matches so far and needed (target = period); target < 0: none */
	bool potential;              /* a match is being confirmed: the match pointer is fixed */
	bool spinning;               /* the spinning state */
	int32_t profiled;            /* the profiled lane */
} DdosHistory;

void ddos_history_init(DdosHistory *h, const DdosParams *p);
void ddos_history_free(DdosHistory *h);
void ddos_history_clear(DdosHistory *h, const DdosParams *p);
/* Insert one setp: its pc and its two source values. Returns the spinning
** state after it. */
bool ddos_insert(DdosHistory *h, const DdosParams *p, int32_t pc, int64_t v1, int64_t v2);

/* The spin-inducing-branch prediction table (SIB-PT), one per SM. */
typedef struct SibEntry {
	int32_t pc;
	int32_t confidence;
	bool confirmed;
} SibEntry;

typedef struct SibTable {
	SibEntry e[SM_SIBPT_SIZE];
	int32_t n;
	int32_t threshold;           /* t: the confidence that confirms */
} SibTable;

/* Is the backward branch at pc a confirmed SIB? */
bool sibpt_confirmed(const SibTable *t, int32_t pc);
/* A warp executed the backward branch at pc, not a confirmed SIB, in the
** spinning state or not: confidence up (inserted at 1) or down. true when
** this execution confirmed it. */
bool sibpt_update(SibTable *t, int32_t pc, bool spinning);

#endif
