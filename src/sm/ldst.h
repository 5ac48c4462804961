/*
** ldst.h — the SM's LD/ST unit and the memory hierarchy behind it
** (sm/ldst.c): shared-memory banks, coalescing, the sectored L1 data
** cache with its MSHRs, a fixed-latency L2 and DRAM. Used by core.c.
*/
#ifndef MUSIMD_SM_LDST_H
#define MUSIMD_SM_LDST_H

#include "core.h"

typedef struct LdSt LdSt;

/* What one memory instruction costs: the cycles it holds the LD/ST unit
** (its dispatch delay: bank conflicts, coalesced accesses that do not fit
** the L1's banks in one cycle, waits for an MSHR), and the cycles from its
** issue until its result is ready (its slowest sector's arrival). */
typedef struct LdStCost {
	int32_t busy;
	int64_t latency;
} LdStCost;

/* Can the hierarchy c configures be built? (its L2's lines: -gpgpu_cache:dl2
** × -gpgpu_n_mem × -gpgpu_n_sub_partition_per_mchannel). false with an
** error in d. */
bool ldst_check(const SmConfig *c, Diags *d);
LdSt *ldst_new(const SmConfig *c, const Machine *m);
void ldst_free(LdSt *u);
/* Before warp W's memory instruction ins steps (which may overwrite its
** address register): the active lanes' addresses, as the address
** generation at issue reads them. */
void ldst_prepare(LdSt *u, const Machine *m, const Warp *W, const Ins *ins);
/* A spill instruction of warp W (sm/regalloc.c) on lanes: a local one at
** local word addr of each lane's thread, or a shared one at word addr for
** all lanes (the warp's slot: a broadcast). */
void ldst_prepare_spill(LdSt *u, const Warp *W, const uint64_t *lanes, bool local, bool store, int64_t addr);
/* After the step: the access prepared, at cycle now; statistics into r. */
LdStCost ldst_access(LdSt *u, int64_t now, SmResult *r);

#endif
