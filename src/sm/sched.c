/*
** sched.c — warp-scheduling policies (-gpgpu_scheduler; GPGPU-Sim's
** order_lrr, order_by_priority and two_level_active_scheduler,
** sm-model.md §1.2, and ElTantawy's GLRR and rotated GTO, seed 004 §1.5):
** the order in which a scheduler tries its warps in a cycle; the first
** that can issue does. BOWS, which wraps one of these, is in bows.c.
*/
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define NEVER INT64_MAX

bool sm_long_latency(const SmCore *c, const Ins *ins)
{
	/* mem[] is shared memory (note §7) unless -musimd_sigma global puts it
	** behind the L1: then its loads and atomics are global ones */
	if (ins->op == OP_LLOAD)
		return true;
	return c->cfg->sigma_global && (ins->op == OP_LOAD || ir_is_atomic((Op)ins->op));
}

/* Loose round robin: starting after the warp that issued last. */
static int32_t order_lrr(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t start = c->last_pos[s] + 1, k = 0;
	if (start >= n)
		start = 0;
	for (int32_t i = start; i < n; i++)
		out[k++] = w[i];
	for (int32_t i = 0; i < start; i++)
		out[k++] = w[i];
	return n;
}

static int32_t rotation_lrr(const SmCore *c, int32_t s, int32_t n)
{
	int32_t start = c->last_pos[s] + 1;
	return start >= n ? 0 : start;
}

/* Greedy then loose round robin (ElTantawy's GLRR, seed 004 §1.5 and
** chapter 5; order_glrr of the AWARE fork, mimd_to_simt 1f3f1d8, which
** its lrr_scheduler runs): the warp that issued last while it can issue,
** then the others round robin from the one after it. So LRR with the last
** warp first instead of last: the rotation that starts at it. */
static int32_t rotation_glrr(const SmCore *c, int32_t s, int32_t n)
{
	int32_t start = c->last_pos[s];
	return start < 0 || start >= n ? 0 : start;
}

static int32_t order_glrr(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t start = rotation_glrr(c, s, n);
	for (int32_t i = 0; i < n; i++)
		out[i] = w[(start + i) % n];
	return n;
}

/* The order of old, gto and gto_rotate as a rotation, for the core's walk
** without a copy: from the oldest (old, gto), from the warp N cycles'
** periods have rotated to (gto_rotate), after the greedy warp. */
static int32_t rotation_oldest(const SmCore *c, int32_t s, int32_t n)
{
	(void)c;
	(void)s;
	(void)n;
	return 0;
}

static int32_t rotation_gto_rotate(const SmCore *c, int32_t s, int32_t n)
{
	(void)s;
	return (int32_t)((c->now / c->sched_param) % (n > 0 ? n : 1));
}

static int32_t greedy_last(const SmCore *c, int32_t s)
{
	int32_t last = c->last_issued[s];
	return last >= 0 ? c->pos_of[last] : -1;
}

/* Oldest first: the warps were all launched at once, in index order. */
static int32_t order_old(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	(void)c;
	(void)s;
	memcpy(out, w, (size_t)n * sizeof *out);
	return n;
}

/* Greedy then oldest: the warp that issued last, while it can, then the
** others oldest first. */
static int32_t order_gto(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	int32_t k = 0, last = c->last_issued[s];
	if (last >= 0)
		out[k++] = last;
	for (int32_t i = 0; i < n; i++)
		if (w[i] != last)
			out[k++] = w[i];
	return n;
}

/* Greedy then oldest with the ages rotated by one warp every N cycles
** (ElTantawy's GTO for BOWS, seed 004 §6: strict GTO can starve a young
** warp that holds what old spinning warps wait for). */
static int32_t order_gto_rotate(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
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
	return n;
}

/* ---- two_level_active:N:INNER:OUTER ------------------------------------ */

/* GPGPU-Sim's two_level_active_scheduler (shader.cc; Narasiman et al.'s
** two-level scheduling): per scheduler an active set of at most N warps,
** the only ones it tries, in the inner policy's order; the others wait in
** a FIFO. Each cycle, before the issue, an active warp that waits (its
** threads finished, at a barrier) or whose next instruction reads a
** register a long-latency operation (sm_long_latency) has not yet
** written is demoted to the FIFO's tail, and the FIFO's head warps are
** promoted into the freed places (outer policy: strict round robin).
** After an issue the active set is rotated to start after the warp that
** issued (inner: loose round robin). GPGPU-Sim implements only inner 0
** (LRR) and outer 1 (SRR): so does musimd. */
typedef struct TwoLevel {
	int32_t max_active;
	int32_t *active, *nactive;   /* per scheduler: per slots, the active warps in order */
	int32_t *fifo, *head, *len;  /* per scheduler: a ring of per slots, the pending warps */
	bool *demoted;               /* per scheduler: the last order demoted a warp */
	uint8_t *longop;             /* per warp × register: last written by a long-latency op */
	uint8_t *tracked;            /* per warp: in an active set or a FIFO */
	int32_t *scratch;
} TwoLevel;

static bool waits_long(const SmCore *c, const TwoLevel *t, int32_t w)
{
	const Warp *W = &c->m->warps[w];
	if (W->status != WARP_RUN)
		return true; /* finished or at a barrier: GPGPU-Sim's shd_warp_t::waiting() */
	const SmIns *si = &c->code->ins[W->pc];
	size_t base = (size_t)w * (size_t)c->code->nregs;
	for (int32_t i = 0; i < si->nsrc; i++)
		if (t->longop[base + (size_t)si->src[i]] && c->reg_ready[base + (size_t)si->src[i]] > c->now)
			return true;
	return false;
}

static int32_t order_two_level(const SmCore *c, int32_t s, const int32_t *w, int32_t n, int32_t *out)
{
	TwoLevel *t = c->sched_state;
	int32_t per = c->per, *act = &t->active[s * per], *fifo = &t->fifo[s * per];
	int32_t k = 0, na = t->nactive[s];
	bool demoted = false;
	/* warps of CTAs that left (cta.c) are not in the list any more: they
	** go; those of CTAs launched since join the FIFO */
	for (int32_t i = 0; i < na; i++)
		if (c->pos_of[act[i]] >= 0)
			act[k++] = act[i];
		else
			t->tracked[act[i]] = 0;
	na = k;
	k = 0;
	for (int32_t i = 0, len = t->len[s]; i < len; i++) {
		int32_t v = fifo[t->head[s]];
		t->head[s] = (t->head[s] + 1) % per;
		t->len[s]--;
		if (c->pos_of[v] >= 0)
			fifo[(t->head[s] + t->len[s]++) % per] = v;
		else
			t->tracked[v] = 0;
	}
	for (int32_t i = 0; i < n; i++)
		if (!t->tracked[w[i]]) {
			t->tracked[w[i]] = 1;
			fifo[(t->head[s] + t->len[s]++) % per] = w[i];
		}
	for (int32_t i = 0; i < na; i++) {
		if (waits_long(c, t, act[i])) {
			fifo[(t->head[s] + t->len[s]++) % per] = act[i];
			demoted = true;
		} else {
			act[k++] = act[i];
		}
	}
	while (k < t->max_active && t->len[s] > 0) {
		act[k++] = fifo[t->head[s]];
		t->head[s] = (t->head[s] + 1) % per;
		t->len[s]--;
	}
	t->nactive[s] = k;
	t->demoted[s] = demoted;
	memcpy(out, act, (size_t)k * sizeof *out);
	return k;
}

/* A demotion moves warps within the active set and the FIFO, and the next
** cycle's may move them again: no sleeping through it. */
static int64_t wake_two_level(const SmCore *c, int32_t s)
{
	const TwoLevel *t = c->sched_state;
	return t->demoted[s] ? c->now + 1 : NEVER;
}

static void on_issue_two_level(SmCore *c, int32_t s, int32_t w)
{
	TwoLevel *t = c->sched_state;
	const Warp *W = &c->m->warps[w];
	const SmIns *si = &c->code->ins[W->pc];
	if (si->dst >= 0)
		t->longop[(size_t)w * (size_t)c->code->nregs + (size_t)si->dst] =
		        sm_long_latency(c, &c->m->prog->ins[W->pc]);
	int32_t *act = &t->active[s * c->per], na = t->nactive[s], at = 0;
	while (at < na && act[at] != w)
		at++;
	if (at == na)
		return;
	for (int32_t i = 0; i < na; i++) /* order_lrr from after the warp that issued */
		t->scratch[i] = act[(at + 1 + i) % na];
	memcpy(act, t->scratch, (size_t)na * sizeof *act);
}

static void fini_two_level(SmCore *c)
{
	TwoLevel *t = c->sched_state;
	free(t->active);
	free(t->nactive);
	free(t->fifo);
	free(t->head);
	free(t->len);
	free(t->demoted);
	free(t->longop);
	free(t->tracked);
	free(t->scratch);
	free(t);
	c->sched_state = NULL;
}

static bool init_two_level(SmCore *c, const char *args, Buf *why)
{
	long long v[3];
	int k = 0;
	const char *p = args;
	while (p && k < 3) {
		char *end;
		v[k++] = strtoll(p, &end, 10);
		if (end == p || (*end && *end != ':') || v[k - 1] < 0) {
			k = -1;
			break;
		}
		p = *end == ':' ? end + 1 : NULL;
	}
	if (k != 3 || p) {
		buf_printf(why, "-gpgpu_scheduler two_level_active%s%s: expected two_level_active:N:0:1 (N active warps, "
		           "inner 0 = LRR, outer 1 = SRR)", args ? ":" : "", args ? args : "");
		return false;
	}
	if (v[0] < 1 || v[1] != 0 || v[2] != 1) {
		buf_printf(why, "-gpgpu_scheduler two_level_active:%s: %s", args,
		           v[0] < 1 ? "N, the active warps, must be at least 1"
		                    : "GPGPU-Sim implements inner 0 (LRR) and outer 1 (SRR) only");
		return false;
	}
	TwoLevel *t = xcalloc(1, sizeof *t);
	size_t slots = (size_t)c->nsched * (size_t)c->per + 1;
	t->max_active = v[0] > INT32_MAX ? INT32_MAX : (int32_t)v[0];
	t->active = xmalloc(slots * sizeof *t->active);
	t->fifo = xmalloc(slots * sizeof *t->fifo);
	t->nactive = xcalloc((size_t)c->nsched, sizeof *t->nactive);
	t->head = xcalloc((size_t)c->nsched, sizeof *t->head);
	t->len = xcalloc((size_t)c->nsched, sizeof *t->len);
	t->demoted = xcalloc((size_t)c->nsched, sizeof *t->demoted);
	t->longop = xcalloc((size_t)c->m->nwarps * (size_t)c->code->nregs + 1, 1);
	t->scratch = xmalloc(((size_t)c->per + 1) * sizeof *t->scratch);
	t->tracked = xcalloc((size_t)c->m->nwarps + 1, 1);
	for (int32_t s = 0; s < c->nsched; s++) /* add_supervised_warp_id: the first N active */
		for (int32_t i = 0; i < c->sched_nwarps[s]; i++) {
			int32_t w = c->sched_warps[s * c->per + i];
			t->tracked[w] = 1;
			if (t->nactive[s] < t->max_active)
				t->active[s * c->per + t->nactive[s]++] = w;
			else
				t->fifo[s * c->per + t->len[s]++] = w;
		}
	c->sched_state = t;
	return true;
}

/* ---- the table and the names ------------------------------------------- */

static const WarpSched sched_lrr = {"lrr", "loose round robin: from the warp after the one that issued last",
                                    NULL, NULL, order_lrr, rotation_lrr, NULL, NULL, NULL, NULL, NULL,
                                    WS_ROTATION_AFTER_LAST};
static const WarpSched sched_gto = {"gto", "greedy then oldest: the last warp while it can issue, then the oldest",
                                    NULL, NULL, order_gto, rotation_oldest, NULL, NULL, NULL, NULL, greedy_last,
                                    WS_ROTATION_ZERO};
static const WarpSched sched_old = {"old", "oldest first", NULL, NULL, order_old, rotation_oldest, NULL, NULL, NULL,
                                    NULL, NULL, WS_ROTATION_ZERO};
static const WarpSched sched_gto_rotate = {"gto_rotate",
                                           "greedy then oldest, the ages rotated by one warp every N cycles "
                                           "(gto_rotate:50000, ElTantawy's)",
                                           "N", "the rotation period in cycles", order_gto_rotate,
                                           rotation_gto_rotate, NULL, NULL, NULL, NULL, greedy_last,
                                           WS_ROTATION_CALL};
static const WarpSched sched_glrr = {"glrr",
                                     "greedy then loose round robin: the last warp while it can issue, then round "
                                     "robin from the one after it (ElTantawy's)",
                                     NULL, NULL, order_glrr, rotation_glrr, NULL, NULL, NULL, NULL, NULL,
                                     WS_ROTATION_CALL};
static const WarpSched sched_two_level = {"two_level_active",
                                          "N active warps in loose round robin; a warp waiting for a long-latency "
                                          "load or at a barrier is demoted to a FIFO (GPGPU-Sim's)",
                                          "N:0:1", "N active warps, inner 0 (LRR), outer 1 (SRR)", order_two_level,
                                          NULL, init_two_level, fini_two_level, on_issue_two_level, wake_two_level,
                                          NULL, WS_ROTATION_CALL};

const WarpSched *const warp_scheds[] = {&sched_lrr,  &sched_gto,       &sched_old, &sched_gto_rotate,
                                        &sched_glrr, &sched_two_level, &sched_bows, NULL};

/* The policy spec names (NAME before the first ':'), and its arguments
** (after it; NULL without). */
static const WarpSched *find(const char *spec, const char **args)
{
	size_t len = strcspn(spec, ":");
	*args = spec[len] == ':' ? spec + len + 1 : NULL;
	for (int32_t i = 0; warp_scheds[i]; i++)
		if (strlen(warp_scheds[i]->name) == len && !strncmp(warp_scheds[i]->name, spec, len))
			return warp_scheds[i];
	return NULL;
}

/* A stateless policy, NAME or NAME:N, into c (sched, sched_param). */
static bool setup_plain(SmCore *c, const char *spec, const WarpSched *ws, const char *args, Buf *why)
{
	c->sched = ws;
	c->sched_param = 0;
	if (!ws->args) {
		if (!args)
			return true;
		buf_printf(why, "-gpgpu_scheduler %s: %s takes no number", spec, ws->name);
		return false;
	}
	char *end;
	long long v = args ? strtoll(args, &end, 10) : 0;
	if (!args || end == args || *end || v <= 0) {
		buf_printf(why, "-gpgpu_scheduler %s: %s takes %s:N, N %s (a positive number)", spec, ws->name, ws->name,
		           ws->param);
		return false;
	}
	c->sched_param = v;
	return true;
}

static void unknown(const char *spec, Buf *why)
{
	size_t len = strcspn(spec, ":");
	Buf names = {0};
	Suggest g;
	suggest_init(&g, spec, len);
	for (int32_t i = 0; warp_scheds[i]; i++) {
		const WarpSched *w = warp_scheds[i];
		buf_printf(&names, "%s%s%s%s", i ? ", " : "", w->name, w->args ? ":" : "", w->args ? w->args : "");
		suggest_add(&g, w->name);
	}
	buf_printf(why, "unknown warp scheduler '%.*s' (-gpgpu_scheduler; the SM model has %s)", (int)len, spec,
	           buf_str(&names));
	if (g.n)
		buf_puts(why, "; ");
	suggest_print(&g, why, "");
	buf_free(&names);
}

const WarpSched *warp_sched_plain(SmCore *c, const char *spec, Buf *why)
{
	const char *args;
	const WarpSched *ws = find(spec, &args);
	if (!ws) {
		unknown(spec, why);
		return NULL;
	}
	if (ws->init) {
		buf_printf(why, "-gpgpu_scheduler: %s cannot be an inner policy (one of lrr, gto, old, gto_rotate:N, glrr)",
		           ws->name);
		return NULL;
	}
	return setup_plain(c, spec, ws, args, why) ? ws : NULL;
}

bool warp_sched_setup(SmCore *c, const char *spec, Buf *why)
{
	const char *args;
	const WarpSched *ws = find(spec, &args);
	if (!ws) {
		unknown(spec, why);
		return false;
	}
	if (!ws->init)
		return setup_plain(c, spec, ws, args, why);
	c->sched = ws;
	if (!ws->init(c, args, why)) {
		c->sched = NULL;
		return false;
	}
	return true;
}

void warp_sched_free(SmCore *c)
{
	if (c->sched && c->sched->fini && c->sched_state)
		c->sched->fini(c);
}
