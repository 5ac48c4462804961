/*
** config.c — the SM model's configuration (sm.h): GPGPU-Sim's
** gpgpusim.config syntax and the subset of its options the model uses
** (../../docs/sm-config.md; the design note's §5).
**
** One table, opts[], says for every modelled option where its value goes
** in SmConfig, how it is checked and what the QV100 default is; parsing,
** sm_config_default, sm_config_print and the "did you mean" all come from
** it. known[] lists the options GPGPU-Sim (and Accel-Sim, and ElTantawy's
** fork) registers that the model does not use: they are accepted and
** named in the caller's note. Anything else is an error.
*/
#include "sm.h"
#include "regalloc.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* ---- reading one value ------------------------------------------------- */

/* Where the value being read sits in the text, for diagnostics at the
** value (or at one element of a list). */
typedef struct Ctx {
	Diags *d;
	const char *src;
	size_t len;
	size_t ls;      /* offset of the first line's start (of the name's line) */
	int32_t line;   /* that line's number */
	const char *name;
	size_t voff;    /* offset of the value's first character */
	int nsuggest;   /* unknown names given a "did you mean" so far */
	bool *seen;     /* known[i] already noted as ignored by this read */
} Ctx;

/* A Loc for [off, off + n) of the text: lines are counted from the
** option's line, so a file with many errors stays linear. */
static Loc ctx_loc(const Ctx *x, size_t off, size_t n)
{
	size_t ls = x->ls;
	int32_t line = x->line;
	for (size_t i = x->ls; i < off && i < x->len; i++)
		if (x->src[i] == '\n') {
			line++;
			ls = i + 1;
		}
	Loc l = diag_locate(x->src + ls, x->len - ls, (int32_t)(off - ls), (int32_t)n);
	l.line = line;
	l.off = (int32_t)off;
	return l;
}

MU_PRINTF(4, 5) static bool bad(const Ctx *x, size_t at, size_t n, const char *fmt, ...)
{
	Buf b = {0};
	va_list ap;
	va_start(ap, fmt);
	buf_printf(&b, "%s: ", x->name);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_error(x->d, ctx_loc(x, x->voff + at, n ? n : 1), "%s", buf_str(&b));
	buf_free(&b);
	return false;
}

/* v[at .. at+n) as an integer in [lo, hi]. */
static bool get_int(const Ctx *x, const char *v, size_t at, size_t n, int64_t lo, int64_t hi,
                    int64_t *out)
{
	char tmp[32];
	long long r;
	if (n == 0)
		return bad(x, at, 1, "a number is missing here");
	if (n >= sizeof tmp || (memcpy(tmp, v + at, n), tmp[n] = 0, strpbrk(tmp, " \t\r\n\v\f")) ||
	    !str_to_ll(tmp, INT64_MIN, INT64_MAX, &r))
		return bad(x, at, n, "'%.*s' is not an integer", (int)(n > 40 ? 40 : n), v + at);
	if (r < lo)
		return bad(x, at, n, "%lld is too small (at least %lld)", r, (long long)lo);
	if (r > hi)
		return bad(x, at, n, "%lld is too large (at most %lld)", r, (long long)hi);
	*out = r;
	return true;
}

static bool get_double(const Ctx *x, const char *v, size_t at, size_t n, double *out)
{
	char tmp[64];
	if (n == 0)
		return bad(x, at, 1, "a number is missing here");
	if (n >= sizeof tmp)
		return bad(x, at, n, "'%.*s' is not a number", 40, v + at);
	memcpy(tmp, v + at, n);
	tmp[n] = 0;
	errno = 0;
	char *end;
	double r = strtod(tmp, &end);
	if (*end || errno || !isfinite(r) || strpbrk(tmp, " \t\r\n\v\f"))
		return bad(x, at, n, "'%s' is not a number", tmp);
	if (!(r > 0))
		return bad(x, at, n, "%s MHz: a clock must be positive", tmp);
	*out = r;
	return true;
}

/* Split v at sep into at most max fields: their offsets and lengths. */
static int split(const char *v, char sep, size_t *at, size_t *n, int max)
{
	int k = 0;
	size_t s = 0, i = 0;
	for (;; i++)
		if (!v[i] || v[i] == sep) {
			if (k < max) {
				at[k] = s;
				n[k] = i - s;
			}
			k++;
			if (!v[i])
				return k;
			s = i + 1;
		}
}

/* ---- the option table -------------------------------------------------- */

typedef enum Kind {
	K_I32,     /* int32_t field in [lo, hi] */
	K_I64,     /* int64_t field in [lo, hi] */
	K_BOOL,    /* bool field: 0 or 1 */
	K_STR,     /* char[size] field: a word */
	K_CUSTOM,  /* parse and print functions */
} Kind;

typedef struct Opt Opt;
struct Opt {
	const char *name;
	Kind kind;
	size_t off;                 /* offsetof(SmConfig, field) */
	size_t size;                /* K_STR: the field's size */
	int64_t lo, hi;             /* K_I32, K_I64 */
	bool (*parse)(SmConfig *c, const Ctx *x, const char *v);  /* K_CUSTOM */
	void (*print)(const SmConfig *c, Buf *b);                /* K_CUSTOM */
	/* the QV100 default (NULL: an alias sm_config_print does not write,
	** its value being another option's) */
	const char *dflt;
};

/* -gpgpu_shader_core_pipeline THREADS:WARPSIZE */
static bool parse_pipeline(SmConfig *c, const Ctx *x, const char *v)
{
	size_t at[2], n[2];
	int64_t t = 0, w = 0;
	if (split(v, ':', at, n, 2) != 2)
		return bad(x, 0, strlen(v), "expected THREADS:WARPSIZE (as 2048:32)");
	if (!get_int(x, v, at[1], n[1], 1, SEM_MAX_THREADS, &w) ||
	    !get_int(x, v, at[0], n[0], 1, SEM_MAX_THREADS, &t))
		return false;
	if (t % w)
		return bad(x, at[0], n[0], "%lld threads are not a whole number of warps of %lld",
		           (long long)t, (long long)w);
	c->max_threads = (int32_t)t;
	c->warp_size = (int32_t)w;
	return true;
}

static void print_pipeline(const SmConfig *c, Buf *b)
{
	buf_printf(b, "%d:%d", c->max_threads, c->warp_size);
}

/* -gpgpu_clock_domains CORE:ICNT:L2:DRAM (MHz) */
static bool parse_clocks(SmConfig *c, const Ctx *x, const char *v)
{
	size_t at[4], n[4];
	double f[4];
	if (split(v, ':', at, n, 4) != 4)
		return bad(x, 0, strlen(v), "expected CORE:ICNT:L2:DRAM in MHz (as 1132.0:1132.0:1132.0:850.0)");
	for (int i = 0; i < 4; i++)
		if (!get_double(x, v, at[i], n[i], &f[i]))
			return false;
	c->core_clock_mhz = f[0];
	c->icnt_clock_mhz = f[1];
	c->l2_clock_mhz = f[2];
	c->dram_clock_mhz = f[3];
	return true;
}

/* The shortest decimal that reads back as d. */
static void put_double(Buf *b, double d)
{
	char s[40];
	snprintf(s, sizeof s, "%.1f", d);
	for (int p = 2; strtod(s, NULL) != d && p <= 17; p++)
		snprintf(s, sizeof s, "%.*g", p, d);
	buf_puts(b, s);
}

static void print_clocks(const SmConfig *c, Buf *b)
{
	const double f[4] = {c->core_clock_mhz, c->icnt_clock_mhz, c->l2_clock_mhz, c->dram_clock_mhz};
	for (int i = 0; i < 4; i++) {
		if (i)
			buf_putc(b, ':');
		put_double(b, f[i]);
	}
}

/* A list of per-class values (ADD,MAX,MUL,MAD,DIV,SHFL). GPGPU-Sim 3.x
** configs give five (no SHFL): the SHFL entry then keeps its value. */
static bool parse_classes(const Ctx *x, const char *v, int32_t *dst, int64_t lo)
{
	size_t at[SM_NOPCLASS], n[SM_NOPCLASS];
	int64_t r[SM_NOPCLASS] = {0};
	int k = split(v, ',', at, n, SM_NOPCLASS);
	if (k != SM_NOPCLASS && k != SM_NOPCLASS - 1)
		return bad(x, 0, strlen(v), "expected 6 numbers ADD,MAX,MUL,MAD,DIV,SHFL (or the first 5), found %d", k);
	for (int i = 0; i < k; i++)
		if (!get_int(x, v, at[i], n[i], lo, 1000000, &r[i]))
			return false;
	for (int i = 0; i < k; i++)
		dst[i] = (int32_t)r[i];
	return true;
}

static void print_classes(const int32_t *v, Buf *b)
{
	for (int i = 0; i < SM_NOPCLASS; i++)
		buf_printf(b, "%s%d", i ? "," : "", v[i]);
}

static bool parse_lat_int(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_classes(x, v, c->lat_int, 1);
}
static bool parse_ii_int(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_classes(x, v, c->ii_int, 1);
}
static void print_lat_int(const SmConfig *c, Buf *b) { print_classes(c->lat_int, b); }
static void print_ii_int(const SmConfig *c, Buf *b) { print_classes(c->ii_int, b); }

/* -trace_opcode_latency_initiation_{int,sfu} LATENCY,II (Accel-Sim's trace
** mode): one pair per unit class; for int it sets the ADD entry. */
static bool parse_pair(const Ctx *x, const char *v, int32_t *lat, int32_t *ii)
{
	size_t at[2], n[2];
	int64_t l = 0, i = 0;
	if (split(v, ',', at, n, 2) != 2)
		return bad(x, 0, strlen(v), "expected LATENCY,INITIATION (as 4,2)");
	if (!get_int(x, v, at[0], n[0], 1, 1000000, &l) || !get_int(x, v, at[1], n[1], 1, 1000000, &i))
		return false;
	*lat = (int32_t)l;
	*ii = (int32_t)i;
	return true;
}

static bool parse_trace_int(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_pair(x, v, &c->lat_int[SM_ADD], &c->ii_int[SM_ADD]);
}
static bool parse_trace_sfu(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_pair(x, v, &c->lat_sfu, &c->ii_sfu);
}

static void set_word(char *dst, size_t size, const char *v)
{
	memset(dst, 0, size);
	memcpy(dst, v, strlen(v) < size ? strlen(v) : size - 1);
}

static bool check_model(const Ctx *x, const char *v)
{
	if (model_find(v))
		return true;
	Suggest g;
	Buf hint = {0};
	suggest_init(&g, v, strlen(v));
	for (int i = 0; model_names[i]; i++)
		suggest_add(&g, model_names[i]);
	suggest_add(&g, "its");
	if (g.n)
		buf_puts(&hint, "; ");
	suggest_print(&g, &hint, "");
	bad(x, 0, strlen(v), "unknown reconvergence model '%.60s' (sync, ipdom, aware, mp, tf, mimd, its)%s", v,
	    buf_str(&hint));
	buf_free(&hint);
	return false;
}

static bool parse_reconvergence(SmConfig *c, const Ctx *x, const char *v)
{
	if (!check_model(x, v))
		return false;
	set_word(c->reconvergence, sizeof c->reconvergence, v);
	return true;
}

static void print_reconvergence(const SmConfig *c, Buf *b)
{
	buf_puts(b, c->reconvergence);
}

/* -gpgpu_simd_model 1 (GPGPU-Sim's IPDOM stack) | 2 (AWARE, ElTantawy's fork) */
static bool parse_simd_model(SmConfig *c, const Ctx *x, const char *v)
{
	int64_t m = 0;
	if (!get_int(x, v, 0, strlen(v), 1, 2, &m))
		return false;
	set_word(c->reconvergence, sizeof c->reconvergence, m == 1 ? "ipdom" : "aware");
	return true;
}

static bool parse_path_order(SmConfig *c, const Ctx *x, const char *v)
{
	if (!strcmp(v, "fallthrough") || !strcmp(v, "taken")) {
		c->taken_first = v[0] == 't';
		return true;
	}
	return bad(x, 0, strlen(v), "expected 'fallthrough' or 'taken', not '%s'", v);
}

static void print_path_order(const SmConfig *c, Buf *b)
{
	buf_puts(b, c->taken_first ? "taken" : "fallthrough");
}

/* -gpgpu_simd_rec_time_out N (ElTantawy's fork): AWARE's timeout in cycles,
** -1 never (the fork's "max unsigned"). */
static bool parse_rec_time_out(SmConfig *c, const Ctx *x, const char *v)
{
	long long n;
	if (!strcmp(v, "-1")) {
		c->aware_timeout = 0;
		return true;
	}
	if (str_to_ll(v, 1, INT32_MAX, &n)) {
		c->aware_timeout = n;
		return true;
	}
	return bad(x, 0, strlen(v), "expected -1 (never) or a number of cycles from 1 to %d, not '%s'", INT32_MAX, v);
}

static void print_rec_time_out(const SmConfig *c, Buf *b)
{
	buf_printf(b, "%lld", c->aware_timeout > 0 ? (long long)c->aware_timeout : -1LL);
}

/* -musimd_sigma shared|global: where μ-SIMD's mem[] lives */
static bool parse_sigma(SmConfig *c, const Ctx *x, const char *v)
{
	if (!strcmp(v, "shared") || !strcmp(v, "global")) {
		c->sigma_global = v[0] == 'g';
		return true;
	}
	return bad(x, 0, strlen(v), "expected 'shared' or 'global' (where mem[] lives), not '%s'", v);
}

static void print_sigma(const SmConfig *c, Buf *b)
{
	buf_puts(b, c->sigma_global ? "global" : "shared");
}

/* -musimd_regalloc NAME: an allocator of regallocs[] (sm/regalloc.c) */
static bool parse_regalloc(SmConfig *c, const Ctx *x, const char *v)
{
	int k = ra_find(v, strlen(v));
	if (k >= 0) {
		c->regalloc = k;
		return true;
	}
	Suggest g;
	Buf names = {0}, hint = {0};
	suggest_init(&g, v, strlen(v));
	for (int i = 0; i < RA__COUNT; i++) {
		suggest_add(&g, regallocs[i].name);
		buf_printf(&names, "%s%s", i ? ", " : "", regallocs[i].name);
	}
	if (g.n)
		buf_puts(&hint, "; ");
	suggest_print(&g, &hint, "");
	bad(x, 0, strlen(v), "unknown register allocator '%.60s' (%s)%s", v, buf_str(&names), buf_str(&hint));
	buf_free(&names);
	buf_free(&hint);
	return false;
}

static void print_regalloc(const SmConfig *c, Buf *b)
{
	buf_puts(b, regallocs[c->regalloc].name);
}

/* One letter of a cache string among those of what; the field's name for
** the message. */
static bool cache_letter(const Ctx *x, const char *v, size_t at, size_t n, const char *what, const char *letters,
                         char *out)
{
	if (n != 1 || !v[at] || !strchr(letters, v[at]))
		return bad(x, at, n, "the %s is one of %s, not '%.*s' (a cache is [N|S:]nsets:line:assoc,"
		           "repl:write:alloc:write_alloc:set_index,mshr:entries:merge[,miss_queue:result_fifo[,port]])",
		           what, letters, (int)(n > 20 ? 20 : n), v + at);
	*out = v[at];
	return true;
}

/* A cache of -gpgpu_cache:dl1 / :dl2, in GPGPU-Sim's syntax (gpu-cache.h,
** cache_config::init): "none", or
** [N|S:]nsets:line:assoc,repl:write:alloc:write_alloc:set_index,
** mshr:entries:max_merge[,miss_queue[:result_fifo][,data_port_width]]; the
** type letter is GPGPU-Sim 4's (3.x strings have none: not sectored). */
static bool parse_cache(const Ctx *x, const char *v, SmCacheConfig *out)
{
	SmCacheConfig k;
	memset(&k, 0, sizeof k);
	size_t gat[5], gn[5];
	if (!strcmp(v, "none")) {
		memcpy(out, &k, sizeof k); /* disabled */
		return true;
	}
	int ng = split(v, ',', gat, gn, 5);
	if (ng < 3 || ng > 5)
		return bad(x, 0, strlen(v),
		           "expected [N|S:]nsets:line:assoc,repl:write:alloc:write_alloc:set_index,mshr:entries:merge"
		           "[,miss_queue:result_fifo[,data_port_width]] (as S:4:128:64,L:T:m:L:L,A:512:8,16:0,32) or none, "
		           "found %d comma-separated group%s", ng, ng == 1 ? "" : "s");
	size_t at[6], n[6];
	char *g = xstrndup(v + gat[0], gn[0]); /* a group on its own, offsets relative to it */
	int nf = split(g, ':', at, n, 4);
	free(g);
	int f0 = 0;
	int64_t r[3];
	k.enabled = true;
	if (nf == 4) {
		char type;
		if (!cache_letter(x, v, gat[0] + at[0], n[0], "cache type (N normal, S sectored)", "NS", &type))
			return false;
		k.sectored = type == 'S';
		f0 = 1;
	} else if (nf != 3) {
		return bad(x, gat[0], gn[0], "expected [N|S:]nsets:line:assoc, found %d field%s", nf, nf == 1 ? "" : "s");
	}
	if (!get_int(x, v, gat[0] + at[f0], n[f0], 1, 1 << 20, &r[0]) ||
	    !get_int(x, v, gat[0] + at[f0 + 1], n[f0 + 1], 32, 128, &r[1]) ||
	    !get_int(x, v, gat[0] + at[f0 + 2], n[f0 + 2], 1, 4096, &r[2]))
		return false;
	if (r[1] & (r[1] - 1))
		return bad(x, gat[0] + at[f0 + 1], n[f0 + 1], "the line size %lld is not a power of two (32, 64 or 128 bytes)",
		           (long long)r[1]);
	if (k.sectored && r[1] != 128)
		return bad(x, gat[0] + at[f0 + 1], n[f0 + 1],
		           "a sectored cache has 128-byte lines (4 sectors of 32 bytes, as GPGPU-Sim), not %lld", (long long)r[1]);
	if (r[0] * r[2] > (1 << 22))
		return bad(x, gat[0], gn[0], "%lld sets × %lld ways: at most 4194304 lines", (long long)r[0], (long long)r[2]);
	k.nsets = (int32_t)r[0];
	k.line = (int32_t)r[1];
	k.assoc = (int32_t)r[2];
	/* policies */
	g = xstrndup(v + gat[1], gn[1]);
	nf = split(g, ':', at, n, 5);
	free(g);
	if (nf != 5)
		return bad(x, gat[1], gn[1], "expected repl:write:alloc:write_alloc:set_index (as L:T:m:L:L), found %d field%s",
		           nf, nf == 1 ? "" : "s");
	if (!cache_letter(x, v, gat[1] + at[0], n[0], "replacement policy (L LRU, F FIFO)", "LF", &k.repl) ||
	    !cache_letter(x, v, gat[1] + at[1], n[1],
	                  "write policy (R read-only, B write-back, T write-through, E write-evict, L local write-back "
	                  "global write-through)", "RBTEL", &k.write) ||
	    !cache_letter(x, v, gat[1] + at[2], n[2], "allocation policy (m on miss, f on fill, s streaming)", "mfs",
	                  &k.alloc) ||
	    !cache_letter(x, v, gat[1] + at[3], n[3],
	                  "write-allocate policy (N none, W write-allocate, F fetch on write, L lazy fetch on read)", "NWFL",
	                  &k.write_alloc) ||
	    !cache_letter(x, v, gat[1] + at[4], n[4], "set-index function (L linear, H Fermi hash, P IPOLY, C custom, X xor)",
	                  "LHPCX", &k.set_index))
		return false;
	/* GPGPU-Sim refuses these (gpu-cache.h) */
	if (k.alloc != 'm' && k.write == 'B')
		return bad(x, gat[1] + at[2], n[2], "a write-back cache (B) must allocate on miss (m): on fill it deadlocks "
		           "(GPGPU-Sim refuses it)");
	if (k.alloc != 'm' && (k.write_alloc == 'F' || k.write_alloc == 'L'))
		return bad(x, gat[1] + at[3], n[3], "write-allocate %c needs allocation on miss (m), not %c (GPGPU-Sim refuses it)",
		           k.write_alloc, k.alloc);
	/* MSHRs */
	g = xstrndup(v + gat[2], gn[2]);
	nf = split(g, ':', at, n, 3);
	free(g);
	if (nf != 3)
		return bad(x, gat[2], gn[2], "expected mshr_type:entries:max_merge (as A:512:8), found %d field%s", nf,
		           nf == 1 ? "" : "s");
	if (!cache_letter(x, v, gat[2] + at[0], n[0], "MSHR type (A associative, S sectored, F fifo, T sectored fifo)",
	                  "ASFT", &k.mshr_type) ||
	    !get_int(x, v, gat[2] + at[1], n[1], 1, 1 << 20, &r[0]) || !get_int(x, v, gat[2] + at[2], n[2], 1, 1 << 20, &r[1]))
		return false;
	k.mshr_entries = (int32_t)r[0];
	k.mshr_max_merge = (int32_t)r[1];
	if (ng >= 4) {
		g = xstrndup(v + gat[3], gn[3]);
		nf = split(g, ':', at, n, 2);
		free(g);
		if (nf > 2)
			return bad(x, gat[3], gn[3], "expected miss_queue[:result_fifo] (as 16:0), found %d fields", nf);
		if (!get_int(x, v, gat[3] + at[0], n[0], 0, 1 << 20, &r[0]) ||
		    (nf == 2 && !get_int(x, v, gat[3] + at[1], n[1], 0, 1 << 20, &r[1])))
			return false;
		k.miss_queue = (int32_t)r[0];
		k.result_fifo = nf == 2 ? (int32_t)r[1] : 0;
	}
	if ((k.mshr_type == 'F' || k.mshr_type == 'T') && (ng < 4 || nf < 2))
		return bad(x, gat[2] + at[0], 1, "MSHR type %c needs the miss_queue:result_fifo group (GPGPU-Sim asserts it)",
		           k.mshr_type);
	if (ng == 5) {
		if (!get_int(x, v, gat[4], gn[4], 0, k.line, &r[0]))
			return false;
		if (r[0] && k.line % r[0])
			return bad(x, gat[4], gn[4], "the data port width %lld does not divide the line (%d bytes)",
			           (long long)r[0], k.line);
		k.data_port_width = (int32_t)r[0];
	}
	memcpy(out, &k, sizeof k);
	return true;
}

static void print_cache(const SmCacheConfig *k, Buf *b)
{
	if (!k->enabled) {
		buf_puts(b, "none");
		return;
	}
	buf_printf(b, "%c:%d:%d:%d,%c:%c:%c:%c:%c,%c:%d:%d,%d:%d,%d", k->sectored ? 'S' : 'N', k->nsets, k->line, k->assoc,
	           k->repl, k->write, k->alloc, k->write_alloc, k->set_index, k->mshr_type, k->mshr_entries,
	           k->mshr_max_merge, k->miss_queue, k->result_fifo, k->data_port_width);
}

static bool parse_dl1(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_cache(x, v, &c->l1);
}
static bool parse_dl2(SmConfig *c, const Ctx *x, const char *v)
{
	return parse_cache(x, v, &c->l2);
}
static void print_dl1(const SmConfig *c, Buf *b) { print_cache(&c->l1, b); }
static void print_dl2(const SmConfig *c, Buf *b) { print_cache(&c->l2, b); }

#define F(field) offsetof(SmConfig, field)
#define I32(nm, field, lo, hi, d) {nm, K_I32, F(field), 0, lo, hi, NULL, NULL, d}
#define I64(nm, field, lo, hi, d) {nm, K_I64, F(field), 0, lo, hi, NULL, NULL, d}
#define BOOL(nm, field, d) {nm, K_BOOL, F(field), 0, 0, 1, NULL, NULL, d}
#define STR(nm, field, d) {nm, K_STR, F(field), sizeof(((SmConfig *)0)->field), 0, 0, NULL, NULL, d}
#define CUSTOM(nm, p, pr, d) {nm, K_CUSTOM, 0, 0, 0, 0, p, pr, d}
#define BIG 1000000

/* The modelled options, in the order sm_config_print writes them. The
** defaults are the SM7_QV100 config of accel-sim/gpgpu-sim_distribution
** (branch dev, 667834cf, configs/tested-cfgs/SM7_QV100/gpgpusim.config),
** "QV100" below; "GPGPU-Sim" is that tree's built-in default (gpu-sim.cc,
** cuda-sim.cc) where the QV100 file sets nothing. */
static const Opt opts[] = {
	/* SM resources */
	CUSTOM("-gpgpu_shader_core_pipeline", parse_pipeline, print_pipeline, "2048:32"), /* QV100 */
	I32("-gpgpu_shader_registers", registers, 1, SEM_MAX_THREADS, "65536"),          /* QV100 */
	I32("-gpgpu_shader_cta", max_cta, 1, 65536, "32"),                               /* QV100 */
	/* CTAs and occupancy */
	I32("-gpgpu_registers_per_block", registers_per_block, 0, SEM_MAX_THREADS, "65536"), /* QV100; 0: none */
	I32("-musimd_cta_threads", cta_threads, 0, SEM_MAX_THREADS, "0"),   /* musimd: one CTA of all the threads */
	I32("-musimd_regs_per_thread", regs_per_thread, 0, 255, "0"),        /* musimd: the lowered program's */
	I32("-musimd_reg_alloc_unit", reg_alloc_unit, 1, 256, "4"),          /* GPGPU-Sim's max_cta: (regs+3)&~3 */
	/* register allocation with spilling (sm/regalloc.c; seed 001 ch. 4) */
	CUSTOM("-musimd_regalloc", parse_regalloc, print_regalloc, "none"), /* musimd: the lowering's numbering */
	I32("-musimd_max_regs", max_regs, 0, 255, "0"),   /* 0: the allocator's (Sampaio: 9, or 8 with the base) */
	/* clocks */
	CUSTOM("-gpgpu_clock_domains", parse_clocks, print_clocks, "1132.0:1132.0:1132.0:850.0"), /* QV100 */
	/* issue */
	I32("-gpgpu_num_sched_per_core", num_sched, 1, 64, "4"),                         /* QV100 */
	STR("-gpgpu_scheduler", scheduler, "lrr"),                  /* QV100 (gpgpu-sim master, 2020: gto) */
	I32("-gpgpu_max_insn_issue_per_warp", max_insn_issue_per_warp, 1, 64, "1"),      /* QV100 */
	BOOL("-gpgpu_dual_issue_diff_exec_units", dual_issue_diff_exec_units, "1"),      /* QV100 */
	BOOL("-gpgpu_sub_core_model", sub_core, "1"),                                    /* QV100 */
	/* units */
	I32("-gpgpu_num_sp_units", num_sp, 1, 1024, "4"),                                /* QV100 */
	I32("-gpgpu_num_int_units", num_int, 0, 1024, "4"),    /* QV100; 0: integer ops go to SP (Fermi) */
	I32("-gpgpu_num_sfu_units", num_sfu, 1, 1024, "4"),                              /* QV100 */
	I32("-gpgpu_num_dp_units", num_dp, 0, 1024, "4"),      /* QV100; μ-SIMD has no fp64 */
	/* latency (the dependent-issue latency) and initiation interval */
	CUSTOM("-ptx_opcode_latency_int", parse_lat_int, print_lat_int, "4,13,4,5,145,21"),   /* QV100 */
	CUSTOM("-ptx_opcode_initiation_int", parse_ii_int, print_ii_int, "2,2,2,2,8,4"),      /* QV100 */
	I32("-ptx_opcode_latency_sfu", lat_sfu, 1, BIG, "100"),                          /* QV100 */
	I32("-ptx_opcode_initiation_sfu", ii_sfu, 1, BIG, "8"),                          /* QV100 */
	CUSTOM("-trace_opcode_latency_initiation_int", parse_trace_int, NULL, NULL),    /* Accel-Sim alias */
	CUSTOM("-trace_opcode_latency_initiation_sfu", parse_trace_sfu, NULL, NULL),    /* Accel-Sim alias */
	/* register file */
	I32("-gpgpu_num_reg_banks", num_reg_banks, 1, 1024, "16"),                       /* QV100 */
	I32("-gpgpu_reg_file_port_throughput", reg_file_port_throughput, 1, 64, "2"),    /* QV100 */
	/* shared memory */
	I32("-gpgpu_smem_latency", smem_latency, 1, BIG, "20"),                          /* QV100 */
	I32("-gpgpu_shmem_num_banks", shmem_num_banks, 1, 1024, "32"),                   /* QV100 */
	BOOL("-gpgpu_shmem_limited_broadcast", shmem_limited_broadcast, "0"),            /* QV100 */
	I32("-gpgpu_shmem_warp_parts", shmem_warp_parts, 1, 64, "1"),                    /* QV100 */
	/* limits and watchdogs */
	BOOL("-gpgpu_deadlock_detect", deadlock_detect, "1"),                            /* GPGPU-Sim */
	I64("-gpgpu_max_cycle", max_cycle, 0, INT64_MAX, "0"),                           /* GPGPU-Sim */
	I64("-gpgpu_max_insn", max_insn, 0, INT64_MAX, "0"),                             /* GPGPU-Sim */
	I64("-musimd_progress_window", progress_window, 0, INT64_MAX, "100000"),  /* note §5, decision 5 */
	/* reconvergence */
	CUSTOM("-gpgpu_simd_model", parse_simd_model, NULL, NULL),  /* alias of -musimd_reconvergence */
	CUSTOM("-musimd_reconvergence", parse_reconvergence, print_reconvergence, "ipdom"), /* QV100: simd_model 1 */
	CUSTOM("-musimd_path_order", parse_path_order, print_path_order, "fallthrough"), /* musimd's --path-order default */
	CUSTOM("-gpgpu_simd_rec_time_out", parse_rec_time_out, print_rec_time_out, "-1"), /* the fork: never */
	I32("-musimd_aware_st_insert", aware_st_insert, 0, BIG, "0"),   /* seed 004 §5.3's cost: 1; the fork: 0 */
	/* the memory hierarchy behind the LD/ST unit (sm/ldst.c) */
	CUSTOM("-musimd_sigma", parse_sigma, print_sigma, "shared"),            /* note §7: mem[] is the papers' shared Σ */
	I32("-gpgpu_coalesce_arch", coalesce_arch, 13, 1000, "70"),                     /* QV100 */
	CUSTOM("-gpgpu_cache:dl1", parse_dl1, print_dl1, "S:4:128:64,L:T:m:L:L,A:512:8,16:0,32"), /* QV100 */
	I32("-gpgpu_l1_latency", l1_latency, 1, BIG, "20"),                             /* QV100 */
	I32("-gpgpu_l1_banks", l1_banks, 1, 64, "4"),                                   /* QV100 */
	I32("-gpgpu_l1_banks_byte_interleaving", l1_banks_byte_interleaving, 1, BIG, "32"), /* GPGPU-Sim */
	BOOL("-gpgpu_gmem_skip_L1D", gmem_skip_l1d, "0"),                               /* QV100 */
	BOOL("-gmem_skip_L1D", gmem_skip_l1d, NULL),                      /* GPGPU-Sim 3.x spelling */
	BOOL("-gpgpu_local_mem_map", local_mem_map, "1"),                               /* GPGPU-Sim */
	CUSTOM("-gpgpu_cache:dl2", parse_dl2, print_dl2, "S:32:128:24,L:B:m:L:P,A:192:4,32:0,32"), /* QV100 */
	I32("-gpgpu_n_mem", n_mem, 1, 1024, "32"),                                      /* QV100 */
	I32("-gpgpu_n_sub_partition_per_mchannel", n_sub_partition, 1, 64, "2"),        /* QV100 */
	I32("-gpgpu_l2_rop_latency", l2_rop_latency, 0, BIG, "160"),                    /* QV100 */
	I32("-rop_latency", l2_rop_latency, 0, BIG, NULL),                /* GPGPU-Sim 3.x spelling */
	I32("-dram_latency", dram_latency, 0, BIG, "100"),                              /* QV100 */
	/* launch, and the stage overhead of GPGPU-Sim's pipeline */
	I64("-gpgpu_kernel_launch_latency", kernel_launch_latency, 0, INT32_MAX, "5000"), /* QV100 */
	I32("-musimd_gpgpusim_stage_overhead", stage_overhead, 0, BIG, "0"),     /* note §5: off */
	/* BOWS and DDOS (bows:INNER schedulers): ElTantawy's fork's names
	** (mimd_to_simt 1f3f1d8, BOWS_DDOS gpu-sim.cc); the defaults are the
	** thesis's chosen configuration (seed 004 §6.2, §6.4: XOR, t = 4,
	** m = k = 8, l = 8; adaptive limit from 1000 cycles, window 1000) */
	I32("-gpgpu_spin_detection_limit", ddos_threshold, 1, 1000000, "4"),             /* thesis §6.4 */
	I32("-gpgpu_path_history_length_per_instance", ddos_path_bits, 1, 32, "8"),       /* thesis §6.4 */
	I32("-gpgpu_path_history_instances", ddos_path_len, 2, 64, "8"),                  /* thesis §6.4 */
	I32("-gpgpu_value_history_length_per_instance", ddos_value_bits, 2, 64, "16"),    /* thesis: k = 8 */
	I32("-gpgpu_value_history_instances", ddos_value_len, 2, 64, "8"),                /* thesis §6.4 */
	I32("-gpgpu_hashing_function", ddos_hash, 0, 1, "1"),                             /* thesis: XOR */
	I32("-gpgpu_synchronization_backoff_mode", bows_backoff_mode, 1, 3, "3"),         /* thesis: adaptive */
	I32("-gpgpu_backoff_per_thread", bows_delay, 0, BIG, "1000"),                     /* thesis: MinLimit */
	I32("-gpgpu_contention_epoch", bows_window, 1, BIG, "1000"),                      /* thesis: T */
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c); the
	** banks and ports are -gpgpu_num_reg_banks and
	** -gpgpu_reg_file_port_throughput above */
	BOOL("-gpgpu_reg_bank_use_warp_id", reg_bank_use_warp_id, "1"), /* GPGPU-Sim's register_bank always adds the warp */
	BOOL("-gpgpu_enable_specialized_operand_collector", specialized_oc, "0"),       /* QV100 */
	I32("-gpgpu_operand_collector_num_units_gen", oc_units_gen, 0, 1024, "8"),      /* QV100 */
	I32("-gpgpu_operand_collector_num_units_sp", oc_units_sp, 0, 1024, "4"),        /* GPGPU-Sim */
	I32("-gpgpu_operand_collector_num_units_int", oc_units_int, 0, 1024, "0"),      /* GPGPU-Sim */
	I32("-gpgpu_operand_collector_num_units_sfu", oc_units_sfu, 0, 1024, "4"),      /* GPGPU-Sim */
	I32("-gpgpu_operand_collector_num_units_mem", oc_units_mem, 0, 1024, "2"),      /* GPGPU-Sim */
	BOOL("-musimd_ibuffer", ibuffer, "1"),                                           /* musimd: modelled */
	I32("-gpgpu_inst_fetch_throughput", inst_fetch_throughput, 1, 64, "4"),          /* QV100 */
	BOOL("-gpgpu_perfect_inst_const_cache", perfect_icache, "1"),                    /* QV100 */
	I32("-musimd_icache_miss_latency", icache_miss_latency, 0, BIG, "180"), /* QV100 l1_latency 20 + l2_rop_latency 160 */
};
#define NOPTS ((int)(sizeof opts / sizeof *opts))

/* Options GPGPU-Sim, Accel-Sim or ElTantawy's fork register that the model
** does not use (yet): accepted, and named in the caller's note. Names from
** accel-sim/gpgpu-sim_distribution dev 667834cf (gpu-sim.cc, gpu-sim.h,
** cuda-sim.cc, ptx_loader.cc, ptx-stats.cc, addrdec.cc, icnt_wrapper.cc,
** abstract_hardware_model.cc), accel-sim/accel-sim-framework 2260456
** (trace_driven.cc) and ElTantawy/mimd_to_simt 1f3f1d8 (gpu-sim.cc). */
static const char *const known[] = {
	/* topology, kernels and CTAs (one SM is modelled) */
	"-cdp_latency", "-gpgpu_TB_launch_latency", "-gpgpu_cdp_enabled",
	"-gpgpu_compute_capability_major", "-gpgpu_compute_capability_minor",
	"-gpgpu_concurrent_kernel_sm", "-gpgpu_heap_size_limit", "-gpgpu_ignore_resources_limitation",
	"-gpgpu_max_completed_cta", "-gpgpu_max_concurrent_kernel", "-gpgpu_max_cta", "-gpgpu_n_clusters",
	"-gpgpu_n_cores_per_cluster", "-gpgpu_num_cta_barriers", "-gpgpu_occupancy_sm_number",
	"-gpgpu_runtime_pending_launch_count_limit",
	"-gpgpu_runtime_sync_depth_limit", "-gpgpu_simt_core_sim_order", "-gpgpu_stack_size_limit",
	/* operand collectors, pipeline registers, other units and classes
	** (μ-SIMD has no floating point, tensor or specialised ops) */
	"-gpgpu_clock_gated_lanes", "-gpgpu_clock_gated_reg_file",
	"-gpgpu_num_tensor_core_units",
	"-gpgpu_operand_collector_num_in_ports_dp", "-gpgpu_operand_collector_num_in_ports_gen",
	"-gpgpu_operand_collector_num_in_ports_int", "-gpgpu_operand_collector_num_in_ports_mem",
	"-gpgpu_operand_collector_num_in_ports_sfu", "-gpgpu_operand_collector_num_in_ports_sp",
	"-gpgpu_operand_collector_num_in_ports_tensor_core", "-gpgpu_operand_collector_num_out_ports_dp",
	"-gpgpu_operand_collector_num_out_ports_gen", "-gpgpu_operand_collector_num_out_ports_int",
	"-gpgpu_operand_collector_num_out_ports_mem", "-gpgpu_operand_collector_num_out_ports_sfu",
	"-gpgpu_operand_collector_num_out_ports_sp", "-gpgpu_operand_collector_num_out_ports_tensor_core",
	"-gpgpu_operand_collector_num_units_dp", "-gpgpu_operand_collector_num_units_tensor_core",
	"-gpgpu_pipeline_widths", "-gpgpu_tensor_core_avail", "-n_regfile_gating_group",
	"-ptx_opcode_initiation_dp", "-ptx_opcode_initiation_fp", "-ptx_opcode_initiation_tensor",
	"-ptx_opcode_latency_dp", "-ptx_opcode_latency_fp", "-ptx_opcode_latency_tesnor",
	"-specialized_unit_1", "-specialized_unit_2", "-specialized_unit_3", "-specialized_unit_4",
	"-specialized_unit_5", "-specialized_unit_6", "-specialized_unit_7", "-specialized_unit_8",
	"-trace_opcode_latency_initiation_dp", "-trace_opcode_latency_initiation_sp",
	"-trace_opcode_latency_initiation_spec_op_1", "-trace_opcode_latency_initiation_spec_op_2",
	"-trace_opcode_latency_initiation_spec_op_3", "-trace_opcode_latency_initiation_spec_op_4",
	"-trace_opcode_latency_initiation_spec_op_5", "-trace_opcode_latency_initiation_spec_op_6",
	"-trace_opcode_latency_initiation_spec_op_7", "-trace_opcode_latency_initiation_spec_op_8",
	"-trace_opcode_latency_initiation_tensor",
	/* the rest of the caches and the global-memory path: the I-cache and
	** constant/texture caches, the L1/shared carve-out, L1 bank hashing,
	** ports and queues (sm/ldst.c models the L1, L2 and DRAM latencies) */
	"-gpgpu_adaptive_cache_config", "-gpgpu_cache:dl1PrefL1",
	"-gpgpu_cache:dl1PrefShared", "-gpgpu_cache:dl2_texture_only",
	"-gpgpu_cache:il1", "-gpgpu_const_cache:l1", "-gpgpu_flush_l1_cache",
	"-gpgpu_l1_banks_hashing_function",
	"-gpgpu_l1_cache_write_ratio", "-gpgpu_mem_unit_ports",
	"-gpgpu_n_ldst_response_buffer_size", "-gpgpu_num_mem_units",
	"-gpgpu_perfect_mem", "-gpgpu_shmem_option", "-gpgpu_shmem_per_block", "-gpgpu_shmem_size",
	"-gpgpu_shmem_sizeDefault", "-gpgpu_shmem_size_PrefL1", "-gpgpu_shmem_size_PrefShared",
	"-gpgpu_tex_cache:l1", "-gpgpu_unified_l1d_size",
	/* memory partitions and DRAM timing */
	"-dram_bnk_indexing_policy", "-dram_bnkgrp_indexing_policy", "-dram_data_command_freq_ratio",
	"-dram_dual_bus_interface", "-dram_elimnate_rw_turnaround",
	"-dram_seperate_write_queue_enable", "-dram_write_queue_size", "-gpgpu_dram_burst_length",
	"-gpgpu_dram_buswidth", "-gpgpu_dram_partition_queues", "-gpgpu_dram_return_queue_size",
	"-gpgpu_dram_scheduler", "-gpgpu_dram_timing_opt", "-gpgpu_flush_l2_cache",
	"-gpgpu_frfcfs_dram_sched_queue_size", "-gpgpu_mem_addr_mapping",
	"-gpgpu_mem_addr_test", "-gpgpu_mem_address_mask", "-gpgpu_memory_partition_indexing",
	"-gpgpu_n_mem_per_ctrlr",
	"-gpgpu_perf_sim_memcpy", "-gpgpu_simple_dram_model", "-l2_ideal",
	/* interconnect */
	"-gpgpu_n_cluster_ejection_buffer_size", "-icnt_arbiter_algo", "-icnt_flit_size",
	"-icnt_grant_cycles", "-icnt_in_buffer_limit", "-icnt_out_buffer_limit", "-icnt_subnets",
	"-icnt_verbose", "-inter_config_file", "-network_mode",
	/* power (AccelWattch) */
	"-accelwattch_hybrid_perfsim_CC_ACC", "-accelwattch_hybrid_perfsim_CYCLES",
	"-accelwattch_hybrid_perfsim_DRAM_RD", "-accelwattch_hybrid_perfsim_DRAM_WR",
	"-accelwattch_hybrid_perfsim_L1_RH", "-accelwattch_hybrid_perfsim_L1_RM",
	"-accelwattch_hybrid_perfsim_L1_WH", "-accelwattch_hybrid_perfsim_L1_WM",
	"-accelwattch_hybrid_perfsim_L2_RH", "-accelwattch_hybrid_perfsim_L2_RM",
	"-accelwattch_hybrid_perfsim_L2_WH", "-accelwattch_hybrid_perfsim_L2_WM",
	"-accelwattch_hybrid_perfsim_NOC", "-accelwattch_hybrid_perfsim_NUM_SM_IDLE",
	"-accelwattch_hybrid_perfsim_PIPE_DUTY", "-accelwattch_hybrid_perfsim_SHARED_ACC",
	"-accelwattch_hybrid_perfsim_VOLTAGE", "-accelwattch_xml_file", "-aggregate_power_stats",
	"-dvfs_enabled", "-hw_perf_bench_name", "-hw_perf_file_name", "-power_per_cycle_dump",
	"-power_simulation_enabled", "-power_simulation_mode", "-power_trace_enabled",
	"-power_trace_zlevel", "-steady_power_levels_enabled", "-steady_state_definition",
	/* functional simulation, PTX, checkpoints */
	"-checkpoint_CTA", "-checkpoint_CTA_t", "-checkpoint_insn_Y", "-checkpoint_kernel",
	"-checkpoint_option", "-enable_ptx_file_line_stats", "-gpgpu_cflog_interval",
	"-gpgpu_experimental_lib_support", "-gpgpu_ptx_convert_to_ptxplus",
	"-gpgpu_ptx_force_max_capability", "-gpgpu_ptx_inst_debug_file",
	"-gpgpu_ptx_inst_debug_thread_uid", "-gpgpu_ptx_inst_debug_to_file",
	"-gpgpu_ptx_instruction_classification", "-gpgpu_ptx_save_converted_ptxplus",
	"-gpgpu_ptx_sim_mode", "-gpgpu_ptx_use_cuobjdump", "-keep", "-ptx_line_stats_filename",
	"-resume_CTA", "-resume_kernel", "-resume_option", "-save_embedded_ptx",
	/* statistics, tracing, visualiser */
	"-gpgpu_memlatency_stat", "-gpgpu_runtime_stat", "-gpgpu_warp_issue_shader",
	"-gpgpu_warpdistro_shader", "-liveness_message_freq", "-trace", "-trace_components",
	"-trace_enabled", "-trace_sampling_core", "-trace_sampling_memory_partition",
	"-visualizer_enabled", "-visualizer_outputfile", "-visualizer_zlevel",
	/* ElTantawy's fork (AWARE's tables, BOWS and DDOS) beyond what
	** bows:INNER models: modelled by musimd's own options when they come */
	"-gpgpu_enable_hql", "-gpgpu_history_timeshare", "-gpgpu_initial_weighted_backoff_ratio",
	"-gpgpu_lock_acquire_holding_register:lahr", "-gpgpu_locking_score_mode",
	"-gpgpu_locking_score_weight", "-gpgpu_predicate_history_length_per_thread",
	"-gpgpu_predicate_history_table_size", "-gpgpu_sched_time_out", "-gpgpu_simd_rec_replacement",
	"-gpgpu_simd_rec_size", "-gpgpu_simd_st_replacement",
	"-gpgpu_simd_st_size", "-gpgpu_spinning_detection", "-gpgpu_synchronization_blocking_granuality",
	"-gpgpu_synchronization_blocking_mode", "-gpgpu_synchronization_blocking_type",
	"-gpgpu_synchronization_scheduling_mode",
	/* older GPGPU-Sim (3.x) spellings still found in configs */
	"-gpgpu_cache:dl1PreShared", "-gpuwattch_xml_file",
	"-smem_latency",
};
#define NKNOWN ((int)(sizeof known / sizeof *known))

int sm_config_known_count(void)
{
	return NKNOWN;
}

int sm_config_option_count(void)
{
	return NOPTS;
}

const char *sm_config_option_name(int i)
{
	return i >= 0 && i < NOPTS ? opts[i].name : NULL;
}

static const Opt *find_opt(const char *s, size_t n)
{
	for (int i = 0; i < NOPTS; i++)
		if (strlen(opts[i].name) == n && !memcmp(opts[i].name, s, n))
			return &opts[i];
	return NULL;
}

/* The index of a known, unmodelled name, or -1. */
static int find_known(const char *s, size_t n)
{
	for (int i = 0; i < NKNOWN; i++)
		if (strlen(known[i]) == n && !memcmp(known[i], s, n))
			return i;
	return -1;
}

/* Add known[k] to the space-separated list of ignored options, once (the
** list is looked at once per name and read: linear in the text). */
static void note_ignored(Ctx *x, Buf *ignored, int k)
{
	const char *s = known[k];
	size_t n = strlen(s);
	if (!ignored || x->seen[k])
		return;
	x->seen[k] = true;
	for (const char *p = buf_str(ignored); *p;) {
		size_t w = strcspn(p, " ");
		if (w == n && !memcmp(p, s, n))
			return;
		p += w;
		p += *p == ' ';
	}
	if (ignored->len)
		buf_putc(ignored, ' ');
	buf_putn(ignored, s, n);
}

/* Store value v (NUL-terminated) of option o into c. */
static bool apply(SmConfig *c, const Opt *o, const Ctx *x, const char *v)
{
	char *field = (char *)c + o->off;
	int64_t r = 0;
	size_t n = strlen(v);
	switch (o->kind) {
	case K_I32:
		if (!get_int(x, v, 0, n, o->lo, o->hi, &r))
			return false;
		*(int32_t *)(void *)field = (int32_t)r;
		return true;
	case K_I64:
		if (!get_int(x, v, 0, n, o->lo, o->hi, &r))
			return false;
		*(int64_t *)(void *)field = r;
		return true;
	case K_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return bad(x, 0, n, "expected 0 or 1, not '%s'", v);
		*(bool *)field = v[0] == '1';
		return true;
	case K_STR:
		if (n == 0 || strpbrk(v, " \t\r\n\v\f\"#"))
			return bad(x, 0, n, "expected a word (no blanks, quotes or '#')");
		if (n >= o->size)
			return bad(x, 0, n, "at most %zu characters", o->size - 1);
		set_word(field, o->size, v);
		return true;
	case K_CUSTOM:
		return o->parse(c, x, v);
	}
	return false;
}

/* ---- the file syntax --------------------------------------------------- */

static bool blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

/* The name of an option ends at a blank, an end of line, '=', '#' or '"'. */
static size_t name_len(const char *s, size_t i, size_t len)
{
	size_t j = i;
	while (j < len && !blank(s[j]) && s[j] != '\n' && s[j] != '=' && s[j] != '#' && s[j] != '"' && s[j])
		j++;
	return j - i;
}

/* Unknown names get a "did you mean" up to this many per text (each looks
** at every name: a text of many unknown names stays linear). */
#define SUGGEST_NAMES 32

static void unknown(Ctx *x, size_t off, size_t n, bool dash)
{
	const char *s = x->src + off;
	Suggest g;
	Buf hint = {0};
	if (!dash) {
		/* a name without its dash: say so when it is one */
		Buf with = {0};
		buf_putc(&with, '-');
		buf_putn(&with, s, n);
		if (find_opt(with.s, with.len) || find_known(with.s, with.len) >= 0)
			buf_printf(&hint, "; did you mean '%s'?", with.s);
		diag_error(x->d, ctx_loc(x, off, n), "expected an option (-name value), not '%.*s'%s",
		           (int)(n > 60 ? 60 : n), s, buf_str(&hint));
		buf_free(&with);
		buf_free(&hint);
		return;
	}
	suggest_init(&g, s, n);
	if (x->nsuggest++ < SUGGEST_NAMES) {
		for (int i = 0; i < NOPTS; i++)
			suggest_add(&g, opts[i].name);
		for (int i = 0; i < NKNOWN; i++)
			suggest_add(&g, known[i]);
	}
	if (g.n)
		buf_puts(&hint, "; ");
	suggest_print(&g, &hint, "");
	diag_error(x->d, ctx_loc(x, off, n), "unknown option '%.*s'%s", (int)(n > 60 ? 60 : n), s,
	           buf_str(&hint));
	buf_free(&hint);
}

/* Read options from text; single: exactly one option (--set). */
static bool read_text(SmConfig *c, const char *src, size_t len, bool single, Buf *ignored, Diags *d)
{
	int errors0 = d->nerrors, nopts = 0;
	bool seen[NKNOWN] = {0};
	Ctx x = {.d = d, .src = src, .len = len, .line = 1, .seen = seen};
	size_t i = 0;
	if (len > INT32_MAX) {
		diag_error(d, LOC_NONE, "the configuration is too large (%zu bytes)", len);
		return false;
	}
	while (i < len) {
		char ch = src[i];
		if (ch == '\n') {
			x.line++;
			x.ls = ++i;
			continue;
		}
		if (blank(ch)) {
			i++;
			continue;
		}
		if (ch == '#') {
			while (i < len && src[i] != '\n')
				i++;
			continue;
		}
		/* an option: -name value, or -name=value */
		size_t noff = i, n = name_len(src, i, len);
		if (n == 0) /* a stray '=' or '"' */
			n = 1;
		x.name = NULL;
		if (src[noff] != '-' || n < 2) {
			unknown(&x, noff, n, false);
			while (i < len && src[i] != '\n')
				i++;
			continue;
		}
		i += n;
		char *name = xstrndup(src + noff, n);
		x.name = name;
		nopts++;
		/* the value: after '=', or after blanks on the same line */
		size_t voff, vlen;
		if (i < len && src[i] == '=') {
			i++;
		} else {
			while (i < len && blank(src[i]))
				i++;
		}
		bool ok = true, vlines = false;
		if (i < len && src[i] == '"') {
			size_t q = i;
			const char *end = memchr(src + q + 1, '"', len - q - 1);
			if (!end) {
				diag_error(d, ctx_loc(&x, q, 1), "%s: the quoted value has no closing '\"'", name);
				free(name);
				break;
			}
			voff = q + 1;
			vlen = (size_t)(end - src) - voff;
			i = (size_t)(end - src) + 1;
			vlines = true;
		} else {
			voff = i;
			while (i < len && !blank(src[i]) && src[i] != '\n' && src[i] != '#')
				i++;
			vlen = i - voff;
			if (vlen == 0) {
				diag_error(d, ctx_loc(&x, noff, n), "%s needs a value on its line", name);
				ok = false;
			}
		}
		if (ok) {
			const Opt *o = find_opt(name, n);
			int k;
			if (o) {
				char *v = xstrndup(src + voff, vlen);
				x.voff = voff;
				if (strlen(v) != vlen)
					bad(&x, strlen(v), 1, "a NUL byte in the value");
				else
					apply(c, o, &x, v);
				free(v);
			} else if ((k = find_known(name, n)) >= 0) {
				note_ignored(&x, ignored, k);
			} else {
				unknown(&x, noff, n, true);
			}
		}
		free(name);
		/* a quoted value may span lines */
		for (size_t k = voff; vlines && k < voff + vlen; k++)
			if (src[k] == '\n') {
				x.line++;
				x.ls = k + 1;
			}
		/* the rest of the line: another option, or a comment */
		while (i < len && blank(src[i]))
			i++;
		if (i < len && src[i] != '\n' && src[i] != '#' && src[i] != '-') {
			size_t w = name_len(src, i, len);
			diag_error(d, ctx_loc(&x, i, w ? w : 1),
			           "'%.*s' after the value of %.*s: one value per option (quote a value with blanks)",
			           (int)(w > 60 ? 60 : w ? w : 1), src + i, (int)n, src + noff);
			while (i < len && src[i] != '\n')
				i++;
		}
	}
	if (single && nopts != 1 && d->nerrors == errors0)
		diag_error(d, LOC_NONE, nopts ? "--set takes one option (-name=value) at a time"
		                              : "--set needs an option: -name=value");
	return d->nerrors == errors0;
}

bool sm_config_read(SmConfig *c, const char *path, const char *text, size_t len, Buf *ignored, Diags *d)
{
	if (!d->path)
		d->path = path;
	return read_text(c, text, len, false, ignored, d);
}

bool sm_config_set(SmConfig *c, const char *arg, Buf *ignored, Diags *d)
{
	/* all or nothing: "-a=1 -b=2" is refused whole */
	SmConfig t = *c;
	if (!read_text(&t, arg, strlen(arg), true, ignored, d))
		return false;
	*c = t;
	return true;
}

void sm_config_default(SmConfig *c)
{
	memset(c, 0, sizeof *c);
	Diags d;
	for (int i = 0; i < NOPTS; i++) {
		const Opt *o = &opts[i];
		if (!o->dflt)
			continue;
		diag_init(&d, "default", o->dflt, strlen(o->dflt));
		Ctx x = {.d = &d, .src = o->dflt, .len = strlen(o->dflt), .line = 1, .name = o->name};
		if (!apply(c, o, &x, o->dflt))
			abort(); /* a default out of its own range: a bug of the table */
		diag_free(&d);
	}
}

void sm_config_print(const SmConfig *c, Buf *b)
{
	for (int i = 0; i < NOPTS; i++) {
		const Opt *o = &opts[i];
		if (!o->dflt)
			continue;
		const char *field = (const char *)c + o->off;
		buf_printf(b, "%s ", o->name);
		switch (o->kind) {
		case K_I32: buf_printf(b, "%d", *(const int32_t *)(const void *)field); break;
		case K_I64: buf_put_i64(b, *(const int64_t *)(const void *)field); break;
		case K_BOOL: buf_putc(b, *(const bool *)field ? '1' : '0'); break;
		case K_STR: buf_puts(b, field); break;
		case K_CUSTOM: o->print(c, b); break;
		}
		buf_putc(b, '\n');
	}
}
