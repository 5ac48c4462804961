/*
** sched.c — warp-scheduling policies (-gpgpu_scheduler; GPGPU-Sim's
** order_lrr and order_by_priority, sm-model.md §1.2): the order in which a
** scheduler tries its warps in a cycle; the first that can issue does.
*/
#include <string.h>

#include "core.h"

/* Loose round robin: starting after the warp that issued last. */
static void order_lrr(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t start = c->last_pos[s] + 1, k = 0;
	if (start >= n)
		start = 0;
	for (int32_t i = start; i < n; i++)
		out[k++] = w[i];
	for (int32_t i = 0; i < start; i++)
		out[k++] = w[i];
}

static int32_t rotation_lrr(const SmCore *c, int32_t s, int32_t n)
{
	int32_t start = c->last_pos[s] + 1;
	return start >= n ? 0 : start;
}

/* Oldest first: the warps were all launched at once, in index order. */
static void order_old(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	(void)c;
	(void)s;
	memcpy(out, w, (size_t)n * sizeof *out);
}

/* Greedy then oldest: the warp that issued last, while it can, then the
** others oldest first. */
static void order_gto(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t k = 0, last = c->last_issued[s];
	if (last >= 0)
		out[k++] = last;
	for (int32_t i = 0; i < n; i++)
		if (w[i] != last)
			out[k++] = w[i];
}

static const WarpSched sched_lrr = {"lrr", "loose round robin: from the warp after the one that issued last",
                                    order_lrr, rotation_lrr};
static const WarpSched sched_gto = {"gto", "greedy then oldest: the last warp while it can issue, then the oldest",
                                    order_gto, NULL};
static const WarpSched sched_old = {"old", "oldest first", order_old, NULL};

const WarpSched *const warp_scheds[] = {&sched_lrr, &sched_gto, &sched_old, NULL};

const WarpSched *warp_sched_find(const char *name)
{
	for (int32_t i = 0; warp_scheds[i]; i++)
		if (!strcmp(warp_scheds[i]->name, name))
			return warp_scheds[i];
	return NULL;
}
