/*
** ir.c — the Program: builder, name tables, the whole-file checks of
** ir_finish, and the canonical printer (language.md). ir_load lives in
** validate.c; the grammar in grammar/parser.y.
*/
#include "ir.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"    /* cfg_free: the Program owns its Cfg */
#include "parser.h" /* ir_parse_src */

/* ---- names ------------------------------------------------------------- */

/* Open-addressing hash set of indices (into vars or labels), -1 = empty;
** each slot keeps its name's hash, so a probe compares names (read through
** the index: Var.name, Label.name) only when the hashes agree. 8 bytes a
** slot: at 10^6 variables the table is 16 MiB, not 48. */
typedef struct Slot {
	int32_t i;
	uint32_t hash;
} Slot;

typedef struct Table {
	Slot *slot;
	uint32_t cap; /* power of two */
} Table;

struct IrNames {
	Table vars, labels;
	int32_t nindexed; /* vars[0 .. nindexed) are in the table (ir_var_fresh) */
	int32_t *ndefs;   /* per label: definitions seen */
	int32_t capdefined;
	/* redefinitions of labels, the first DUP_SHOWN + 1 of each label, in
	** the order they come: reported together per label after parsing */
	struct Dup {
		int32_t label, seq;
		Loc loc;
	} *dups;
	int32_t ndups, capdups;
	int32_t *pending; /* labels waiting for the next instruction */
	int32_t npending, cappending;
	int32_t parse_errors; /* errors reported by ir_parse_src */
	/* the names of vars and labels, in chunks freed with the Program (a
	** malloc per name was a tenth of loading a GSA file) */
	char **chunks;
	int32_t nchunks, capchunks;
	char *pool; /* free space at the end of the last chunk */
	size_t poolleft;
};

#define NAME_CHUNK 65536

/* A copy of s[0..n) with a NUL, in the Program's name chunks. */
static char *name_dup(struct IrNames *nm, const char *s, size_t n)
{
	if (n >= nm->poolleft) {
		size_t size = n + 1 > NAME_CHUNK ? n + 1 : NAME_CHUNK;
		char *chunk = xmalloc(size);
		VEC_PUSH(nm->chunks, nm->nchunks, nm->capchunks, chunk);
		nm->pool = chunk;
		nm->poolleft = size;
	}
	char *r = nm->pool;
	memcpy(r, s, n);
	r[n] = '\0';
	nm->pool += n + 1;
	nm->poolleft -= n + 1;
	return r;
}

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Names are short: a loop beats a call to memcmp. A name holds no NUL
** byte, so the loop stops at the end of a shorter name. */
static bool name_eq(const char *name, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (name[i] != s[i])
			return false;
	return name[n] == '\0';
}

/* The slot holding name s (hash h), or the empty slot where it would go;
** the names of the entries are items[i].name (Var or Label: the name is the
** first member of both). */
static Slot *table_slot(const Table *t, const void *items, size_t stride, const char *s, size_t n,
                        uint32_t h)
{
	uint32_t m = t->cap - 1, k = h & m;
	for (;;) {
		Slot *e = &t->slot[k];
		if (e->i < 0 ||
		    (e->hash == h &&
		     name_eq(*(const char *const *)((const char *)items + (size_t)e->i * stride), s, n)))
			return e;
		k = (k + 1) & m;
	}
}

_Static_assert(offsetof(Var, name) == 0 && offsetof(Label, name) == 0,
               "table_slot reads the name first");
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(Opnd) == 12 && sizeof(Ins) == 96,
               "Opnd and Ins sizes as ir.h says (memory touched per instruction)");
#endif
#define VAR_SLOT(p, s, n, h) table_slot(&(p)->names->vars, (p)->vars, sizeof(Var), s, n, h)
#define LABEL_SLOT(p, s, n, h) table_slot(&(p)->names->labels, (p)->labels, sizeof(Label), s, n, h)

static void table_init(Table *t, uint32_t cap)
{
	t->cap = cap;
	t->slot = xmalloc(cap * sizeof *t->slot);
	for (uint32_t k = 0; k < cap; k++)
		t->slot[k] = (Slot){-1, 0};
}

/* Keep the load factor under 1/2: called after count entries exist (or
** before, with the count to come: one rehash instead of one per doubling). */
static void table_grow(Table *t, int32_t count)
{
	if ((uint32_t)count * 2 < t->cap)
		return;
	Table old = *t;
	uint32_t cap = old.cap * 2;
	while ((uint32_t)count * 2 >= cap)
		cap *= 2;
	table_init(t, cap);
	uint32_t m = t->cap - 1;
	for (uint32_t j = 0; j < old.cap; j++) {
		if (old.slot[j].i < 0)
			continue;
		uint32_t k = old.slot[j].hash & m;
		while (t->slot[k].i >= 0)
			k = (k + 1) & m;
		t->slot[k] = old.slot[j];
	}
	free(old.slot);
}

/* ---- builder ----------------------------------------------------------- */

Program *ir_new_owned(const char *path, char *src, size_t len)
{
	Program *p = xcalloc(1, sizeof *p);
	p->path = xstrdup(path ? path : "");
	/* two NUL bytes: the scanner reads the text in place (ir_parse_src) */
	p->src = src;
	p->src[len] = p->src[len + 1] = '\0';
	p->srclen = len;
	p->names = xcalloc(1, sizeof *p->names);
	table_init(&p->names->vars, 64);
	table_init(&p->names->labels, 64);
	return p;
}

Program *ir_new(const char *path, const char *src, size_t len)
{
	char *copy = xmalloc(len + 2);
	if (len)
		memcpy(copy, src, len);
	return ir_new_owned(path, copy, len);
}

void ir_drop_code(Program *p)
{
	if (p->cfg)
		cfg_free(p->cfg);
	p->cfg = NULL;
	for (int32_t i = 0; i < p->nins; i++)
		free(p->ins[i].args);
	free(p->ins);
	p->ins = NULL;
	p->nins = p->capins = 0;
	for (int32_t i = 0; i < p->nlits; i++)
		num_free(&p->lits[i]);
	free(p->lits);
	p->lits = NULL;
	p->nlits = p->caplits = 0;
}

void ir_free(Program *p)
{
	if (!p)
		return;
	ir_drop_code(p);
	for (int32_t i = 0; i < p->nvars; i++)
		num_free(&p->vars[i].value);
	free(p->vars);
	free(p->labels);
	for (int32_t i = 0; i < p->ndata; i++)
		num_free(&p->data[i].value);
	free(p->data);
	if (p->names) {
		free(p->names->vars.slot);
		free(p->names->labels.slot);
		free(p->names->ndefs);
		free(p->names->dups);
		free(p->names->pending);
		for (int32_t i = 0; i < p->names->nchunks; i++)
			free(p->names->chunks[i]);
		free(p->names->chunks);
		free(p->names);
	}
	free(p->kernel);
	free(p->path);
	free(p->src);
	free(p);
}

void ir_reserve(Program *p, int32_t nins, int32_t nvars)
{
	if (nins > p->capins) {
		p->ins = xrealloc(p->ins, (size_t)nins * sizeof *p->ins);
		p->capins = nins;
	}
	if (nvars > p->capvars) {
		p->vars = xrealloc(p->vars, (size_t)nvars * sizeof *p->vars);
		p->capvars = nvars; /* the table grows when they are indexed (index_vars) */
	}
}

/* Take the variables ir_var_fresh appended into the table (one rehash). The
** table is a cache of the names in p->vars, so a const Program may fill it. */
static void index_vars(const Program *p)
{
	struct IrNames *nm = p->names;
	if (nm->nindexed == p->nvars)
		return;
	table_grow(&nm->vars, p->nvars);
	for (int32_t i = nm->nindexed; i < p->nvars; i++) {
		const char *name = p->vars[i].name;
		size_t n = strlen(name);
		uint32_t h = hash(name, n);
		Slot *slot = VAR_SLOT(p, name, n, h);
		if (slot->i < 0) /* (a name appended twice: the first is found) */
			*slot = (Slot){i, h};
	}
	nm->nindexed = p->nvars;
}

static int32_t push_var(Program *p, const char *name, size_t len, Loc loc)
{
	Var v = {.name = name_dup(p->names, name, len), .value = NUM_I(0), .loc = loc};
	VEC_PUSH(p->vars, p->nvars, p->capvars, v);
	return p->nvars - 1;
}

int32_t ir_var_fresh(Program *p, const char *name, size_t len, Loc loc)
{
	return push_var(p, name, len, loc);
}

int32_t ir_var(Program *p, const char *name, size_t len, Loc loc)
{
	index_vars(p);
	uint32_t h = hash(name, len);
	Slot *slot = VAR_SLOT(p, name, len, h);
	if (slot->i >= 0)
		return slot->i;
	int32_t v = push_var(p, name, len, loc);
	*slot = (Slot){v, h};
	p->names->nindexed = p->nvars;
	table_grow(&p->names->vars, p->nvars);
	return v;
}

int32_t ir_find_var(const Program *p, const char *name)
{
	index_vars(p);
	size_t n = strlen(name);
	return VAR_SLOT(p, name, n, hash(name, n))->i;
}

int32_t ir_label(Program *p, const char *name, size_t len, Loc loc)
{
	uint32_t h = hash(name, len);
	Slot *slot = LABEL_SLOT(p, name, len, h);
	if (slot->i >= 0)
		return slot->i;
	Label l = {.name = name_dup(p->names, name, len), .ins = -1, .loc = loc};
	VEC_PUSH(p->labels, p->nlabels, p->caplabels, l);
	*slot = (Slot){p->nlabels - 1, h};
	table_grow(&p->names->labels, p->nlabels);
	struct IrNames *nm = p->names;
	if (nm->capdefined < p->caplabels) {
		nm->ndefs = xrealloc(nm->ndefs, (size_t)p->caplabels * sizeof *nm->ndefs);
		memset(nm->ndefs + nm->capdefined, 0,
		       (size_t)(p->caplabels - nm->capdefined) * sizeof *nm->ndefs);
		nm->capdefined = p->caplabels;
	}
	return p->nlabels - 1;
}

int32_t ir_find_label(const Program *p, const char *name)
{
	size_t n = strlen(name);
	return LABEL_SLOT(p, name, n, hash(name, n))->i;
}

/* Of the redefinitions of one label, the first is the error and the next
** DUP_SHOWN are notes; the rest are counted. */
#define DUP_SHOWN 3

void ir_define_label(Program *p, int32_t label, Loc loc, Diags *d)
{
	(void)d; /* redefinitions are reported by report_duplicates */
	struct IrNames *nm = p->names;
	Label *l = &p->labels[label];
	if (nm->ndefs[label]++ > 0) {
		if (nm->ndefs[label] <= DUP_SHOWN + 2) {
			struct Dup dup = {label, nm->ndups, loc};
			VEC_PUSH(nm->dups, nm->ndups, nm->capdups, dup);
		}
		return;
	}
	l->loc = loc;
	VEC_PUSH(nm->pending, nm->npending, nm->cappending, label);
}

static int dup_cmp(const void *x, const void *y)
{
	const struct Dup *a = x, *b = y;
	if (a->label != b->label)
		return a->label < b->label ? -1 : 1;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* One error per label defined more than once, at its second definition,
** with notes at the first and the next few, and a count of the others:
** a label pasted 40 000 times gives five lines, not 80 000. */
static void report_duplicates(Program *p, Diags *d)
{
	struct IrNames *nm = p->names;
	if (nm->ndups > 1)
		qsort(nm->dups, (size_t)nm->ndups, sizeof *nm->dups, dup_cmp);
	for (int32_t i = 0; i < nm->ndups;) {
		int32_t label = nm->dups[i].label, n = nm->ndefs[label];
		const char *name = p->labels[label].name;
		if (n == 2)
			diag_error(d, nm->dups[i].loc, "duplicate label '%s'", name);
		else
			diag_error(d, nm->dups[i].loc, "duplicate label '%s' (defined %d times)", name, n);
		diag_note(d, p->labels[label].loc, "'%s' first defined here", name);
		int32_t j = i + 1;
		for (; j < nm->ndups && nm->dups[j].label == label; j++)
			diag_note(d, nm->dups[j].loc, "'%s' defined again here", name);
		int32_t shown = j - i + 1; /* the first definition and the redefinitions */
		if (n > shown)
			diag_note(d, LOC_NONE, "... and %d more definition%s of '%s'", n - shown,
			          n - shown == 1 ? "" : "s", name);
		i = j;
	}
	nm->ndups = 0;
}

int32_t ir_append(Program *p, const Ins *ins)
{
	VEC_PUSH(p->ins, p->nins, p->capins, *ins);
	int32_t pc = p->nins - 1;
	Ins *in = &p->ins[pc];
	struct IrNames *nm = p->names;
	for (int32_t i = 0; i < nm->npending; i++)
		p->labels[nm->pending[i]].ins = pc;
	if (nm->npending > 0 && in->label < 0)
		in->label = nm->pending[0];
	nm->npending = 0;
	p->has_gsa |= ir_is_gsa((Op)in->op);
	p->has_calls |= in->op == OP_CALL || in->op == OP_RET;
	return pc;
}

static Opnd opnd_none(void)
{
	return (Opnd){.kind = OPND_NONE, .var = -1, .off = -1};
}

Ins ir_ins_init(Op op, Loc loc)
{
	return (Ins){
		.op = (uint8_t)op,
		.dst = -1,
		.dst_off = -1,
		.a = opnd_none(),
		.b = opnd_none(),
		.c = opnd_none(),
		.target = -1,
		.target_label = -1,
		.target_off = -1,
		.label = -1,
		.group = -1,
		.loc = loc,
	};
}

Opnd ir_opnd_var(int32_t var, Loc loc)
{
	Opnd o = opnd_none();
	o.kind = OPND_VAR;
	o.var = var;
	ir_set_opnd_loc(&o, loc);
	return o;
}

Opnd ir_opnd_lit(Program *p, Num value, Loc loc)
{
	Opnd o = opnd_none();
	o.kind = OPND_LIT;
	VEC_PUSH(p->lits, p->nlits, p->caplits, value);
	o.lit = p->nlits - 1;
	ir_set_opnd_loc(&o, loc);
	return o;
}

Opnd ir_opnd_special(Special s, Loc loc)
{
	Opnd o = opnd_none();
	o.kind = OPND_SPECIAL;
	o.special = (uint8_t)s;
	ir_set_opnd_loc(&o, loc);
	return o;
}

void ir_declare_param(Program *p, const char *name, size_t len, Loc loc, bool has_value, Num value,
                      Diags *d)
{
	int32_t v = ir_var(p, name, len, loc);
	Var *var = &p->vars[v];
	if (var->is_param) {
		diag_error(d, loc, "parameter '%s' declared twice", var->name);
		diag_note(d, var->loc, "'%s' first declared here", var->name);
		num_free(&value);
		return;
	}
	var->is_param = true;
	var->has_value = has_value;
	var->value = has_value ? value : NUM_I(0);
	if (!has_value)
		num_free(&value);
	var->loc = loc;
}

void ir_add_data(Program *p, int64_t addr, int64_t count, Num value, Loc loc)
{
	MemInit m = {addr, count, value, loc};
	VEC_PUSH(p->data, p->ndata, p->capdata, m);
}

/* ---- whole-file checks ------------------------------------------------- */

/* Only the first undefined labels get a "did you mean" (each one looks at
** every label: bounded, so many undefined labels stay linear). */
#define SUGGEST_LABELS 16

static void undefined_label(const Program *p, const Label *l, Loc loc, bool suggest, Diags *d)
{
	Buf hint = {0};
	if (suggest) {
		Suggest g;
		suggest_init(&g, l->name, strlen(l->name));
		for (int32_t i = 0; i < p->nlabels; i++)
			if (p->labels[i].ins >= 0)
				suggest_add(&g, p->labels[i].name);
		if (g.n)
			buf_puts(&hint, "; ");
		suggest_print(&g, &hint, "");
	}
	diag_error(d, loc, "undefined label '%s'%s", l->name, buf_str(&hint));
	buf_free(&hint);
}

void ir_finish(Program *p, Diags *d)
{
	struct IrNames *nm = p->names;
	/* a label at the end of the file names nothing (§1) */
	for (int32_t i = 0; i < nm->npending; i++) {
		const Label *l = &p->labels[nm->pending[i]];
		diag_error(d, l->loc, "label '%s' names no instruction", l->name);
	}
	nm->npending = 0;

	int32_t nundefined = 0;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		Ins *ins = &p->ins[pc];
		if (ins->target_label >= 0) {
			const Label *l = &p->labels[ins->target_label];
			ins->target = l->ins;
			if (l->ins < 0)
				undefined_label(p, l, ir_target_loc(ins), nundefined++ < SUGGEST_LABELS, d);
		}
		if (ins->dst >= 0 && p->vars[ins->dst].is_param) {
			const Var *v = &p->vars[ins->dst];
			diag_error(d, ir_dst_loc(ins), "cannot assign to parameter '%s'", v->name);
			diag_note(d, v->loc, "'%s' declared here", v->name);
		}
	}

	/* GSA programs are in SSA form: one definition per variable (§5) */
	if (p->has_gsa && p->nvars > 0) {
		int32_t *def = xmalloc((size_t)p->nvars * sizeof *def);
		for (int32_t i = 0; i < p->nvars; i++)
			def[i] = -1;
		for (int32_t pc = 0; pc < p->nins; pc++) {
			const Ins *ins = &p->ins[pc];
			if (ins->dst < 0 || p->vars[ins->dst].is_param)
				continue;
			if (def[ins->dst] < 0) {
				def[ins->dst] = pc;
				continue;
			}
			const char *name = p->vars[ins->dst].name;
			diag_error(d, ir_dst_loc(ins),
			           "'%s' is defined twice, but a program with GSA instructions must be in SSA "
			           "form",
			           name);
			diag_note(d, ir_dst_loc(&p->ins[def[ins->dst]]), "first definition of '%s'", name);
		}
		free(def);
	}

	/* After a syntax error these would mostly echo it. */
	if (nm->parse_errors > 0)
		return;
	if (p->nins == 0) { /* at 1:1, so that editors and scripts find the file's place */
		diag_error(d, ((Loc){1, 0, 0}), "the program has no instructions%s",
		           d->srclen == 0 ? " (the file is empty)" : "");
		return;
	}
	const Ins *last = &p->ins[p->nins - 1];
	if (last->op != OP_STOP && last->op != OP_EXIT && last->op != OP_JUMP && last->op != OP_RET)
		diag_error(d, last->loc,
		           "the program can fall off its end: the last instruction must be stop, exit, "
		           "jump or ret");
}

Program *ir_parse(const char *path, const char *src, size_t len, Diags *d)
{
	char *copy = xmalloc(len + 2);
	if (len)
		memcpy(copy, src, len);
	return ir_parse_owned(path, copy, len, d);
}

Program *ir_parse_owned(const char *path, char *src, size_t len, Diags *d)
{
	Program *p = ir_new_owned(path, src, len);
	if (len > (size_t)INT32_MAX - 2) { /* Loc offsets are int32 */
		diag_error(d, LOC_NONE, "file too large (2 GiB at most)");
		return p;
	}
	int errs = d->nerrors;
	ir_parse_src(p, d);
	report_duplicates(p, d);
	p->names->parse_errors = d->nerrors - errs;
	ir_finish(p, d);
	return p;
}

/* ---- queries ----------------------------------------------------------- */

const char *ir_special_name(Special s)
{
	static const char *const names[SPEC__COUNT] = {
		"tid", "laneid", "warpid", "ntid", "nwarps", "warpsize", /* ORDER SPECIAL */
	};
	return (unsigned)s < SPEC__COUNT ? names[s] : "?";
}

const char *ir_op_name(Op op)
{
	static const char *const names[OP__COUNT] = {
		"copy", "unary", "binary", "load", "store", "lload", "lstore",
		"atominc", "atomadd", "atomcas", "atomexch",
		"phi", "gamma", "mu", "eta",
		"bz", "bnz", "jump", "sync", "stop", "exit", "barrier", "call", "ret",
	};
	return (unsigned)op < OP__COUNT ? names[op] : "?";
}

bool ir_ends_block(Op op)
{
	return op == OP_BZ || op == OP_BNZ || op == OP_JUMP || op == OP_STOP || op == OP_EXIT || op == OP_CALL ||
	       op == OP_RET;
}

bool ir_is_atomic(Op op)
{
	return op == OP_ATOMINC || op == OP_ATOMADD || op == OP_ATOMCAS || op == OP_ATOMEXCH;
}

bool ir_gate_is_pred(const Ins *ins, const Opnd *o)
{
	if (o == &ins->a)
		return ins->op == OP_GAMMA || ins->op == OP_ETA;
	return ins->op == OP_GAMMA && ins->args && o >= ins->args && o < ins->args + ins->nargs &&
	       (o - ins->args) % 3 == 0;
}

WarpShape ir_warp_shape(const Program *p, int64_t threads, int64_t warpsize)
{
	WarpShape w;
	w.threads = threads > 0 ? threads : p->threads > 0 ? p->threads : 4;
	w.warpsize = warpsize > 0 ? warpsize : p->warpsize > 0 ? p->warpsize : w.threads;
	if (w.warpsize > w.threads)
		w.warpsize = w.threads;
	return w;
}

const char *ir_label_of(const Program *p, int32_t pc)
{
	if (pc < 0 || pc >= p->nins || p->ins[pc].label < 0)
		return NULL;
	return p->labels[p->ins[pc].label].name;
}

void ir_print_where(Buf *b, const Program *p, int32_t pc)
{
	const char *l = ir_label_of(p, pc);
	if (l)
		buf_puts(b, l);
	else { /* no printf: a trace names a place at every step */
		buf_puts(b, pc >= 0 && pc < p->nins ? "@" : "@pc");
		buf_put_int(b, pc >= 0 && pc < p->nins ? p->ins[pc].loc.line : pc);
	}
}

/* ---- printing ---------------------------------------------------------- */

void ir_print_opnd(Buf *b, const Program *p, const Opnd *o)
{
	switch (o->kind) {
	case OPND_VAR:
		buf_puts(b, o->var >= 0 && o->var < p->nvars ? p->vars[o->var].name : "?");
		break;
	case OPND_LIT: num_buf(b, ir_lit(p, o)); break;
	case OPND_SPECIAL: buf_puts(b, ir_special_name((Special)o->special)); break;
	default: buf_puts(b, "?"); break;
	}
}

/* A γ value operand: a plain operand or a nested gamma(p, o1, o2). The
** nesting is bounded by IR_GATE_MAX_DEPTH, so the recursion is too. */
static void print_gate_opnd(Buf *b, const Program *p, const Ins *ins, const Opnd *o)
{
	if (o->kind != OPND_GATE) {
		ir_print_opnd(b, p, o);
		return;
	}
	buf_puts(b, "gamma(");
	ir_print_opnd(b, p, ir_gate_pred(ins, o));
	buf_puts(b, ", ");
	print_gate_opnd(b, p, ins, ir_gate_side(ins, o, true));
	buf_puts(b, ", ");
	print_gate_opnd(b, p, ins, ir_gate_side(ins, o, false));
	buf_putc(b, ')');
}

static void print_dst(Buf *b, const Program *p, const Ins *ins)
{
	buf_puts(b, ins->dst >= 0 && ins->dst < p->nvars ? p->vars[ins->dst].name : "?");
	buf_puts(b, " = ");
}

/* A branch target with no label of its own (built by a pass, not parsed)
** is printed as this synthetic label. */
static void print_target(Buf *b, const Program *p, const Ins *ins)
{
	if (ins->target_label >= 0 && ins->target_label < p->nlabels)
		buf_puts(b, p->labels[ins->target_label].name);
	else if (ir_label_of(p, ins->target))
		buf_puts(b, ir_label_of(p, ins->target));
	else
		buf_printf(b, "__pc%d", (int)ins->target);
}

static void print_call(Buf *b, const Program *p, const char *name, const Opnd *const *o, int n)
{
	buf_puts(b, name);
	buf_putc(b, '(');
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(b, ", ");
		ir_print_opnd(b, p, o[i]);
	}
	buf_putc(b, ')');
}

void ir_print_ins(Buf *b, const Program *p, const Ins *ins)
{
	const Opnd *abc[3] = {&ins->a, &ins->b, &ins->c};
	switch ((Op)ins->op) {
	case OP_COPY:
		print_dst(b, p, ins);
		ir_print_opnd(b, p, &ins->a);
		break;
	case OP_UNARY:
		print_dst(b, p, ins);
		buf_puts(b, num_unop_sym((UnOp)ins->sub));
		/* `x = - 3` negates 3; `x = -3` would copy the literal -3 (§1) */
		if (ins->sub == UN_NEG && ins->a.kind == OPND_LIT)
			buf_putc(b, ' ');
		ir_print_opnd(b, p, &ins->a);
		break;
	case OP_BINARY:
		print_dst(b, p, ins);
		if (ins->sub == BIN_MIN || ins->sub == BIN_MAX) {
			print_call(b, p, ins->sub == BIN_MIN ? "min" : "max", abc, 2);
		} else {
			ir_print_opnd(b, p, &ins->a);
			buf_putc(b, ' ');
			buf_puts(b, num_binop_sym((BinOp)ins->sub));
			buf_putc(b, ' ');
			ir_print_opnd(b, p, &ins->b);
		}
		break;
	case OP_LOAD:
	case OP_LLOAD:
		print_dst(b, p, ins);
		buf_puts(b, ins->op == OP_LOAD ? "mem[" : "local[");
		ir_print_opnd(b, p, &ins->a);
		buf_putc(b, ']');
		break;
	case OP_STORE:
	case OP_LSTORE:
		buf_puts(b, ins->op == OP_STORE ? "mem[" : "local[");
		ir_print_opnd(b, p, &ins->a);
		buf_puts(b, "] = ");
		ir_print_opnd(b, p, &ins->b);
		break;
	case OP_GAMMA:
		print_dst(b, p, ins);
		buf_puts(b, "gamma(");
		ir_print_opnd(b, p, &ins->a);
		buf_puts(b, ", ");
		print_gate_opnd(b, p, ins, &ins->b);
		buf_puts(b, ", ");
		print_gate_opnd(b, p, ins, &ins->c);
		buf_putc(b, ')');
		break;
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMCAS:
	case OP_ATOMEXCH:
	case OP_ETA: {
		static const int8_t arity[OP__COUNT] = {
			[OP_ATOMINC] = 1, [OP_ATOMADD] = 2, [OP_ATOMCAS] = 3, [OP_ATOMEXCH] = 2,
			[OP_GAMMA] = 3, [OP_ETA] = 2,
		};
		print_dst(b, p, ins);
		print_call(b, p, ir_op_name((Op)ins->op), abc, arity[ins->op]);
		break;
	}
	case OP_PHI:
	case OP_MU:
		print_dst(b, p, ins);
		buf_puts(b, ir_op_name((Op)ins->op));
		buf_putc(b, '(');
		for (int32_t i = 0; i < ins->nargs; i++) {
			if (i)
				buf_puts(b, ", ");
			ir_print_opnd(b, p, &ins->args[i]);
		}
		buf_putc(b, ')');
		break;
	case OP_BZ:
	case OP_BNZ:
		buf_puts(b, ins->op == OP_BZ ? "bz " : "bnz ");
		ir_print_opnd(b, p, &ins->a);
		buf_puts(b, ", ");
		print_target(b, p, ins);
		break;
	case OP_JUMP:
	case OP_CALL:
		buf_puts(b, ins->op == OP_JUMP ? "jump " : "call ");
		print_target(b, p, ins);
		break;
	case OP_SYNC:
	case OP_STOP:
	case OP_EXIT:
	case OP_RET:
	case OP_BARRIER: buf_puts(b, ir_op_name((Op)ins->op)); break;
	default: buf_puts(b, "?"); break;
	}
}

bool ir_opnd_same(const Program *p, const Opnd *o, const Program *q, const Opnd *x)
{
	if (o->kind != x->kind)
		return false;
	switch (o->kind) {
	case OPND_VAR: return o->var == x->var;
	case OPND_LIT: return num_eq(ir_lit(p, o), ir_lit(q, x));
	case OPND_SPECIAL: return o->special == x->special;
	default: return false; /* a nested γ is never a matrix row */
	}
}

/* How many rows from pc on print as one matrix statement: rows of one
** group, one operator, one predicate, one width, labelled only at the
** first row. 0: not a group. */
static int32_t group_rows(const Program *p, const bool *synth, int32_t pc)
{
	const Ins *f = &p->ins[pc];
	if (f->group < 0 || !ir_is_gsa((Op)f->op) || (f->op == OP_GAMMA && f->nargs > 0))
		return 0;
	int32_t k = 1;
	while (pc + k < p->nins) {
		const Ins *r = &p->ins[pc + k];
		if (r->group != f->group || r->op != f->op || r->label >= 0 || synth[pc + k])
			break;
		if (f->op == OP_GAMMA && (f->nargs > 0 || r->nargs > 0))
			break;
		if ((f->op == OP_GAMMA || f->op == OP_ETA) && !ir_opnd_same(p, &r->a, p, &f->a))
			break;
		if ((f->op == OP_PHI || f->op == OP_MU) && r->nargs != f->nargs)
			break;
		k++;
	}
	return k;
}

/* The j-th value column of a matrix GSA row. */
static const Opnd *gsa_col(const Ins *r, int32_t j)
{
	if (r->op == OP_PHI || r->op == OP_MU)
		return &r->args[j];
	return j == 0 ? &r->b : &r->c;
}

static void print_matrix(Buf *b, const Program *p, int32_t pc, int32_t k)
{
	const Ins *f = &p->ins[pc];
	buf_putc(b, '[');
	for (int32_t i = 0; i < k; i++) {
		const Ins *r = &p->ins[pc + i];
		buf_printf(b, "%s%s", i ? ", " : "", r->dst >= 0 ? p->vars[r->dst].name : "?");
	}
	buf_printf(b, "] = %s(", ir_op_name((Op)f->op));
	int32_t ncols = f->op == OP_GAMMA ? 2 : f->op == OP_ETA ? 1 : f->nargs;
	if (f->op == OP_GAMMA || f->op == OP_ETA) {
		ir_print_opnd(b, p, &f->a);
		buf_puts(b, ", ");
	}
	for (int32_t j = 0; j < ncols; j++) {
		if (j)
			buf_puts(b, ", ");
		if (k > 1)
			buf_putc(b, '(');
		for (int32_t i = 0; i < k; i++) {
			if (i)
				buf_puts(b, ", ");
			ir_print_opnd(b, p, gsa_col(&p->ins[pc + i], j));
		}
		if (k > 1)
			buf_putc(b, ')');
	}
	buf_putc(b, ')');
}

void ir_print_directives(Buf *b, const Program *p)
{
	size_t start = b->len;
	if (p->kernel)
		buf_printf(b, ".kernel %s\n", p->kernel);
	if (p->threads)
		buf_printf(b, ".threads %d\n", (int)p->threads);
	if (p->warpsize)
		buf_printf(b, ".warpsize %d\n", (int)p->warpsize);
	if (p->memory_zero)
		buf_puts(b, ".memory zero\n");
	for (int32_t i = 0; i < p->nvars; i++) {
		const Var *v = &p->vars[i];
		if (!v->is_param)
			continue;
		buf_printf(b, ".param %s", v->name);
		if (v->has_value) {
			buf_puts(b, " = ");
			num_buf(b, v->value);
		}
		buf_putc(b, '\n');
	}
	/* single cells at consecutive addresses become one .data line */
	for (int32_t i = 0; i < p->ndata;) {
		const MemInit *m = &p->data[i];
		if (m->count != 1) {
			buf_printf(b, ".fill %lld %lld ", (long long)m->addr, (long long)m->count);
			num_buf(b, m->value);
			buf_putc(b, '\n');
			i++;
			continue;
		}
		buf_printf(b, ".data %lld:", (long long)m->addr);
		int32_t j = i;
		do {
			buf_putc(b, ' ');
			num_buf(b, p->data[j].value);
			j++;
		} while (j < p->ndata && j - i < 16 && p->data[j].count == 1 &&
		         p->data[j - 1].addr < INT64_MAX && p->data[j].addr == p->data[j - 1].addr + 1);
		buf_putc(b, '\n');
		i = j;
	}
	if (b->len > start)
		buf_putc(b, '\n');
}

void ir_print(Buf *b, const Program *p)
{
	ir_print_to(b, p, NULL);
}

void ir_print_to(Buf *b, const Program *p, const Sink *sink)
{
	ir_print_directives(b, p);
	int32_t n = p->nins;
	if (n == 0)
		return;
	/* labels per instruction: counting sort, the first label (Ins.label) first */
	int32_t *start = xcalloc((size_t)n + 1, sizeof *start);
	int32_t *byins = xmalloc(((size_t)p->nlabels + 1) * sizeof *byins);
	bool *synth = xcalloc((size_t)n, sizeof *synth);
	for (int32_t i = 0; i < p->nlabels; i++)
		if (p->labels[i].ins >= 0 && p->labels[i].ins < n)
			start[p->labels[i].ins + 1]++;
	for (int32_t pc = 0; pc < n; pc++)
		start[pc + 1] += start[pc];
	int32_t *fill = xmalloc(((size_t)n + 1) * sizeof *fill);
	memcpy(fill, start, ((size_t)n + 1) * sizeof *fill);
	for (int32_t pc = 0; pc < n; pc++)
		if (p->ins[pc].label >= 0)
			byins[fill[pc]++] = p->ins[pc].label;
	for (int32_t i = 0; i < p->nlabels; i++) {
		int32_t pc = p->labels[i].ins;
		if (pc >= 0 && pc < n && p->ins[pc].label != i)
			byins[fill[pc]++] = i;
	}
	for (int32_t pc = 0; pc < n; pc++) {
		const Ins *ins = &p->ins[pc];
		int32_t t = ins->target;
		if (ir_has_target((Op)ins->op) && ins->target_label < 0 &&
		    t >= 0 && t < n && p->ins[t].label < 0)
			synth[t] = true;
	}
	/* align statements after the labels, up to a point */
	size_t width = 0;
	for (int32_t pc = 0; pc < n; pc++) {
		size_t w = synth[pc] ? (size_t)snprintf(NULL, 0, "__pc%d: ", (int)pc) : 0;
		for (int32_t i = start[pc]; i < start[pc + 1]; i++)
			w += strlen(p->labels[byins[i]].name) + 2;
		if (w > width)
			width = w;
	}
	if (width > 8)
		width = 8;
	for (int32_t pc = 0; pc < n;) {
		size_t line = b->len;
		for (int32_t i = start[pc]; i < start[pc + 1]; i++)
			buf_printf(b, "%s: ", p->labels[byins[i]].name);
		if (synth[pc])
			buf_printf(b, "__pc%d: ", (int)pc);
		while (b->len - line < width)
			buf_putc(b, ' ');
		int32_t k = group_rows(p, synth, pc);
		if (k > 0) {
			print_matrix(b, p, pc, k);
			pc += k;
		} else {
			ir_print_ins(b, p, &p->ins[pc]);
			pc++;
		}
		buf_putc(b, '\n');
		sink_line(b, sink);
	}
	free(start);
	free(byins);
	free(fill);
	free(synth);
}
