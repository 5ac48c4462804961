/*
** frontier.h — thread frontiers (Diamos et al., MICRO 2011, §4; seed 002
** digest §5): block priorities, and for each block the blocks where threads
** of a warp may wait while it runs, by the paper's Algorithm 1.
*/
#ifndef MUSIMD_FRONTIER_H
#define MUSIMD_FRONTIER_H

#include "cfg.h"

typedef enum FrontierOrder {
	FRONTIER_RPO,    /* reverse post-order, every loop's body before its exits (Block.prio):
	                 ** the paper's best-effort topological order */
	FRONTIER_LAYOUT, /* program order (the order Min-PC schedules by) */
} FrontierOrder;

typedef struct Frontiers {
	FrontierOrder by;
	int32_t *order;   /* the reachable blocks, highest priority first */
	int32_t norder;
	int32_t *rank;    /* per block: its place in order (0 highest), -1 unreachable */
	/* the frontier of block b: set[start[b] .. start[b + 1]), highest priority first */
	int32_t *start, *set;
} Frontiers;

/* Algorithm 1: walking the blocks from high to low priority, a block's
** frontier is the set of blocks some earlier block branched to and no
** block has run yet; a block ending in a conditional branch (every one
** may diverge: the analysis is static) adds its lower-priority targets.
** Time and space: the blocks plus the frontiers' total size. */
Frontiers *frontiers_build(const Cfg *g, FrontierOrder by);
void frontiers_free(Frontiers *f);

/* `musimd cfg --frontiers`: the priorities, each block's frontier, the
** re-convergence checks (edges whose target is in the frontier of their
** source, where the hardware must look for waiting threads), and the
** counts the paper's Figure 5 compares. */
void frontiers_print(Buf *b, const Program *p, const Cfg *g, const Frontiers *f);

#endif
