/*
** sched.c — warp-scheduling policies (-gpgpu_scheduler; GPGPU-Sim's
** order_lrr and order_by_priority, sm-model.md §1.2): the order in which a
** scheduler tries its warps in a cycle; the first that can issue does.
*/
#include <stdlib.h>
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

/* Greedy then oldest with the ages rotated by one warp every N cycles
** (ElTantawy's GTO for BOWS, seed 004 §6: strict GTO can starve a young
** warp that holds what old spinning warps wait for). */
static void order_gto_rotate(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t k = 0, last = c->last_issued[s];
	int32_t base = (int32_t)((c->now / c->sched_param) % (n > 0 ? n : 1));
	if (last >= 0)
		out[k++] = last;
	for (int32_t i = 0; i < n; i++) {
		int32_t x = w[(base + i) % n];
		if (x != last)
			out[k++] = x;
	}
}

static const WarpSched sched_lrr = {"lrr", "loose round robin: from the warp after the one that issued last",
                                    NULL, order_lrr, rotation_lrr};
static const WarpSched sched_gto = {"gto", "greedy then oldest: the last warp while it can issue, then the oldest",
                                    NULL, order_gto, NULL};
static const WarpSched sched_old = {"old", "oldest first", NULL, order_old, NULL};
static const WarpSched sched_gto_rotate = {"gto_rotate",
                                           "greedy then oldest, the ages rotated by one warp every N cycles "
                                           "(gto_rotate:50000, ElTantawy's)",
                                           "the rotation period in cycles", order_gto_rotate, NULL};

const WarpSched *const warp_scheds[] = {&sched_lrr, &sched_gto, &sched_old, &sched_gto_rotate, NULL};

const WarpSched *warp_sched_find(const char *name, int64_t *param)
{
	size_t len = strcspn(name, ":");
	*param = 0;
	for (int32_t i = 0; warp_scheds[i]; i++) {
		const WarpSched *w = warp_scheds[i];
		if (strlen(w->name) != len || strncmp(w->name, name, len))
			continue;
		if (!w->param)
			return name[len] ? NULL : w;
		char *end;
		long long v = name[len] == ':' ? strtoll(name + len + 1, &end, 10) : 0;
		if (name[len] != ':' || end == name + len + 1 || *end || v <= 0)
			return NULL;
		*param = v;
		return w;
	}
	return NULL;
}
