/*
** syncs.h — does a program's sync structure fit the papers' sync model
** (semantics.md §2), and where do the syncs belong?
**
** syncs_check explores the shapes the synchronisation stack Π can take on
** every path (each branch may diverge): a node per branch, pushed at the
** branch (merged when the top is the same branch), switched (SS) or
** popped (SP) at a sync. It reports where a run under --model sync can get
** stuck — a `stop` with a node still on Π (rule SF), a `sync` with Π empty
** (rule SP), a branch in a loop whose node piles up — and names the
** branch involved, its reconvergence point (the immediate post-dominator,
** where its sync belongs), or why no sync can fit (a loop with several
** exits, a shared target of two branches).
**
** The placement itself (`musimd syncs`) is gsa_place_syncs (gsa.h): it
** shares the join-block construction of the GSA form.
*/
#ifndef MUSIMD_SYNCS_H
#define MUSIMD_SYNCS_H

#include "ir.h"

/* Warnings (with notes) into d, one per problem found, at most max_issues
** (0: 16). Returns the number found; -1 when the exploration stopped at its
** state limit before the end (a note says so). p must have loaded cleanly. */
int32_t syncs_check(const Program *p, Diags *d, int32_t max_issues);

#endif
