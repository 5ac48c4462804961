/*
** frontier.c — thread frontiers (frontier.h; Diamos et al. 2011, §4 and
** Algorithm 1). The set tset of blocks where threads may be waiting is a
** list with each member's position, so adding and removing are O(1); each
** frontier is a copy of it sorted by priority, so the work is the size of
** the output.
*/
#include "frontier.h"

#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Ranks are distinct: an insertion sort for the few; beyond, the pairs
** (rank, block) as one key each, sorted. */
static void sort_by_rank(int32_t *v, int32_t n, const int32_t *rank)
{
	if (n <= 16) {
		for (int32_t i = 1; i < n; i++)
			for (int32_t j = i; j > 0 && rank[v[j]] < rank[v[j - 1]]; j--) {
				int32_t t = v[j];
				v[j] = v[j - 1];
				v[j - 1] = t;
			}
		return;
	}
	int64_t *key = xmalloc((size_t)n * sizeof *key);
	for (int32_t i = 0; i < n; i++)
		key[i] = (int64_t)rank[v[i]] << 32 | (int64_t)(uint32_t)v[i];
	qsort(key, (size_t)n, sizeof *key, cmp_i64);
	for (int32_t i = 0; i < n; i++)
		v[i] = (int32_t)(key[i] & 0xffffffff);
	free(key);
}

Frontiers *frontiers_build(const Cfg *g, FrontierOrder by)
{
	int32_t nb = g->nblocks;
	Frontiers *f = xcalloc(1, sizeof *f);
	f->by = by;
	f->order = xmalloc(((size_t)nb + 1) * sizeof *f->order);
	f->rank = xmalloc(((size_t)nb + 1) * sizeof *f->rank);
	for (int32_t b = 0; b <= nb; b++)
		f->rank[b] = -1;
	if (by == FRONTIER_RPO) { /* Block.prio: the loop-aware reverse post-order */
		for (int32_t b = 0; b < nb; b++)
			if (g->blocks[b].prio >= 0)
				f->order[g->blocks[b].prio] = b;
		for (int32_t b = 0; b < nb; b++)
			f->norder += g->blocks[b].prio >= 0;
	} else {
		for (int32_t b = 0; b < nb; b++)
			if (g->blocks[b].reachable)
				f->order[f->norder++] = b;
	}
	for (int32_t i = 0; i < f->norder; i++)
		f->rank[f->order[i]] = i;
	/* tset: members[0 .. n), pos[b] its place or -1 */
	int32_t *members = xmalloc(((size_t)nb + 1) * sizeof *members), n = 0;
	int32_t *pos = xmalloc(((size_t)nb + 1) * sizeof *pos);
	for (int32_t b = 0; b <= nb; b++)
		pos[b] = -1;
	f->start = xcalloc((size_t)nb + 2, sizeof *f->start);
	size_t cap = (size_t)nb + 1, len = 0;
	f->set = xmalloc(cap * sizeof *f->set);
	int32_t *from = xmalloc(((size_t)nb + 1) * sizeof *from); /* per block: where its frontier starts */
	int32_t *count = xcalloc((size_t)nb + 1, sizeof *count);
	for (int32_t i = 0; i < f->norder; i++) {
		int32_t b = f->order[i];
		if (pos[b] >= 0) { /* b runs: no thread waits there any more */
			int32_t last = members[--n];
			members[pos[b]] = last;
			pos[last] = pos[b];
			pos[b] = -1;
		}
		if (len + (size_t)n > cap) {
			while (len + (size_t)n > cap)
				cap *= 2;
			f->set = xrealloc(f->set, cap * sizeof *f->set);
		}
		from[b] = (int32_t)len;
		count[b] = n;
		memcpy(f->set + len, members, (size_t)n * sizeof *members);
		sort_by_rank(f->set + len, n, f->rank);
		len += (size_t)n;
		const Block *bb = &g->blocks[b];
		if (bb->nsucc < 2) /* not a conditional branch: no divergence */
			continue;
		for (int32_t k = 0; k < bb->nsucc; k++) {
			int32_t t = bb->succ[k];
			if (t < nb && f->rank[t] > i && pos[t] < 0) { /* lower priority: a forward edge of the schedule */
				pos[t] = n;
				members[n++] = t;
			}
		}
	}
	/* start[] by block index, the sets moved into block order */
	int32_t *set = xmalloc((len + 1) * sizeof *set);
	for (int32_t b = 0; b < nb; b++)
		f->start[b + 1] = f->start[b] + (f->rank[b] >= 0 ? count[b] : 0);
	for (int32_t b = 0; b < nb; b++)
		if (f->rank[b] >= 0)
			memcpy(set + f->start[b], f->set + from[b], (size_t)count[b] * sizeof *set);
	f->start[nb + 1] = f->start[nb];
	free(f->set);
	f->set = set;
	free(members);
	free(pos);
	free(from);
	free(count);
	return f;
}

void frontiers_free(Frontiers *f)
{
	if (!f)
		return;
	free(f->order);
	free(f->rank);
	free(f->start);
	free(f->set);
	free(f);
}

/* "B3 (bb3)": cfg's block name, with the label of its first instruction. */
static void block_name(Buf *b, const Program *p, const Cfg *g, int32_t blk)
{
	buf_printf(b, "B%d", (int)blk);
	const char *l = ir_label_of(p, g->blocks[blk].first);
	if (l)
		buf_printf(b, " (%s)", l);
}

static bool in_frontier(const Frontiers *f, int32_t b, int32_t t)
{
	for (int32_t i = f->start[b]; i < f->start[b + 1]; i++)
		if (f->set[i] == t)
			return true;
	return false;
}

void frontiers_print(Buf *b, const Program *p, const Cfg *g, const Frontiers *f)
{
	buf_printf(b, "priorities (%s, highest first):",
	           f->by == FRONTIER_RPO ? "reverse post-order" : "program order");
	for (int32_t i = 0; i < f->norder; i++) {
		buf_putc(b, ' ');
		block_name(b, p, g, f->order[i]);
	}
	buf_puts(b, "\n\nthread frontiers (Diamos et al. 2011, Algorithm 1):\n");
	int64_t total = 0;
	int32_t most = 0;
	for (int32_t i = 0; i < f->norder; i++) {
		int32_t blk = f->order[i], n = f->start[blk + 1] - f->start[blk];
		buf_puts(b, "  ");
		block_name(b, p, g, blk);
		buf_puts(b, "  {");
		for (int32_t k = f->start[blk]; k < f->start[blk + 1]; k++) {
			if (k > f->start[blk])
				buf_puts(b, ", ");
			block_name(b, p, g, f->set[k]);
		}
		buf_puts(b, "}\n");
		total += n;
		most = n > most ? n : most;
	}
	/* a check where an edge enters a block of its source's frontier */
	buf_puts(b, "\nre-convergence checks (edges into a block of the source's frontier):\n");
	int32_t nchecks = 0;
	for (int32_t i = 0; i < f->norder; i++) {
		int32_t blk = f->order[i];
		const Block *bb = &g->blocks[blk];
		for (int32_t k = 0; k < bb->nsucc; k++) {
			int32_t t = bb->succ[k];
			if (t >= g->nblocks || !in_frontier(f, blk, t))
				continue;
			buf_puts(b, "  ");
			block_name(b, p, g, blk);
			buf_puts(b, " -> ");
			block_name(b, p, g, t);
			buf_putc(b, '\n');
			nchecks++;
		}
	}
	if (nchecks == 0)
		buf_puts(b, "  (none)\n");
	/* the PDOM join points: the distinct reconvergence points of the branches */
	int32_t npdom = 0;
	uint8_t *seen = xcalloc((size_t)g->nblocks + 1, 1);
	for (int32_t i = 0; i < f->norder; i++) {
		const Block *bb = &g->blocks[f->order[i]];
		if (bb->nsucc == 2 && !seen[bb->ipdom]) {
			seen[bb->ipdom] = 1;
			npdom++;
		}
	}
	free(seen);
	buf_printf(b, "\n%d blocks; frontier size %.2f on average, %d at most; %d re-convergence check%s (thread "
	           "frontiers) against %d immediate post-dominator%s of branches (PDOM)\n",
	           (int)f->norder, f->norder ? (double)total / f->norder : 0.0, (int)most, (int)nchecks,
	           nchecks == 1 ? "" : "s", (int)npdom, npdom == 1 ? "" : "s");
}
