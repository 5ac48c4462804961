/*
** llvm.c — export a GSA program as LLVM 16 IR for a GPU kernel (llvm.h).
**
** The point of the export is LLVM's uniformity analysis
** (opt-16 -passes='print<uniformity>'), so every choice below keeps what
** musimd treats as uniform uniform for LLVM and what it treats as a
** divergence source a source for LLVM too, target by target:
**
**   musimd                 AMDGPU (default)                 NVPTX
**   tid                    llvm.amdgcn.workitem.id.x        llvm.nvvm.read.ptx.sreg.tid.x
**   laneid                 llvm.amdgcn.mbcnt.lo/hi          llvm.nvvm.read.ptx.sreg.laneid
**   ntid nwarps warpsize   i64 kernel arguments %ntid, %nwarps, %warpsize (uniform)
**   warpid                 readfirstlane(tid / warpsize)    tid / warpsize (divergent for LLVM)
**   .param NAME            i64 kernel argument %NAME
**   Σ (mem[])              @sigma: [0 x i64] in addrspace(3) (workgroup/shared memory)
**   local[]                alloca [256 x i64] (addrspace(5) / generic)
**
** Why: LLVM 16's uniformity analysis asks the target (TTI) for sources of
** divergence. AMDGPU's list is precise: the work-item id and mbcnt are
** sources, readfirstlane is always uniform, a load from addrspace(3) at a
** uniform address is uniform, loads from private memory (5) and atomics
** are sources. NVPTX 16 treats *every* call as divergent (intrinsics
** included: even sreg.ntid.x or llvm.smin), loads from generic/local memory
** and atomics too. So ntid, nwarps and warpsize are kernel arguments on
** both targets (arguments of a kernel are uniform), min/max are icmp +
** select rather than llvm.smin/smax, and warpid — uniform within a warp,
** which no NVPTX 16 construct expresses — is tid / warpsize there (LLVM
** calls it divergent: a known, documented difference; the AMDGPU export is
** the one to compare with). Kernels: amdgpu_kernel; NVPTX: nvvm.annotations
** "kernel" (how LLVM 16's NVPTX TTI recognises a kernel, whose arguments are
** then uniform).
**
** Instructions: v = o → add o, 0 (LLVM has no copy); comparisons → icmp +
** zext; && || → icmp ne on both sides, and/or i1, zext; / % → sdiv/srem;
** << >> → shl/ashr; unary - ! ~ → sub 0, icmp eq 0 + zext, xor -1; loads and
** stores → getelementptr i64 + load/store; atominc → atomicrmw add 1, then
** add 1 (musimd's atominc yields the new value); atomadd/atomexch →
** atomicrmw add/xchg (old value); atomcas → cmpxchg + extractvalue 0;
** barrier → s.barrier / barrier0; sync → nothing; stop/exit → ret void;
** bz v → icmp eq v, 0 + br (taken where v == 0), bnz v → icmp ne.
**
** GSA: every γ/μ/η/φ is a phi over the LLVM predecessors of its block:
** μ takes the operand cfg_mu_index gives for the edge, φ the operand of
** the predecessor's position, η its operand on every edge. γ(p, o1, o2)
** finds its controlling branch — the nearest dominator of its block that
** ends in bz/bnz on p and that puts every incoming edge on one side: an
** edge is on the fall-through side if it comes from the branch block
** through its fall-through edge or from a block the fall-through
** successor dominates (likewise the target side) — and gives each edge o1
** where that side means p ≠ 0, o2 where it means p = 0.
**
** Names: every musimd variable is the SSA value %NAME; intermediate values
** are %BASE$K ('$' cannot occur in a musimd identifier, so they never
** clash); blocks are named after the first label of their first
** instruction, else b<pc>, with "$b" appended on a clash with a variable,
** a special or another block. Each block header carries a comment
** "; pc A-B, lines L1-L2" that a report uses to map LLVM's verdict on the
** block's terminator back to musimd's branch. A fresh block "entry$" is
** added when the program's first block has predecessors or GSA
** instructions (LLVM's entry block has no predecessors). Unreachable blocks
** are not exported. A use that its definition does not dominate (a read
** before any assignment, which validation only warns about) reads poison.
*/
#include "llvm.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"

#define LOCAL_CELLS 256 /* size of the per-thread local array (arbitrary: analysis only) */

typedef struct Edge {
	int32_t from; /* source block, or -1 for the fresh entry block */
	int32_t mult; /* 1, or 2 for a branch whose both edges lead here */
} Edge;

typedef struct Em {
	const Program *p;
	const Cfg *g;
	LlvmTarget target;
	Diags *d;
	Buf *b;
	bool ok;
	int32_t *def_pc;    /* per variable: pc of its definition, -1 */
	char **bname;       /* per block: LLVM name (unquoted) */
	Edge **preds;       /* per block: LLVM predecessors */
	int32_t *npreds;
	bool fresh_entry;
	int32_t ntemp;
	bool use_spec[SPEC__COUNT];
	bool use_local, use_barrier;
	const Ins *at; /* the instruction being emitted: its operands' lines */
} Em;

/* ---- names ------------------------------------------------------------- */

static bool plain_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++) {
		char c = *s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '$' || c == '.' || c == '_'))
			return false;
	}
	return true;
}

/* An LLVM identifier without its sigil: s, or "s" quoted and escaped. */
static void put_ident(Buf *b, const char *s)
{
	if (plain_name(s)) {
		buf_puts(b, s);
		return;
	}
	buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f)
			buf_printf(b, "\\%02X", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, '"');
}

static void put_local(Buf *b, const char *s)
{
	buf_putc(b, '%');
	put_ident(b, s);
}

static void put_block(Em *e, int32_t blk)
{
	if (blk < 0)
		buf_puts(e->b, "%entry$");
	else
		put_local(e->b, e->bname[blk]);
}

static void put_temp_k(Em *e, const char *base, int32_t k)
{
	buf_putc(e->b, '%');
	if (plain_name(base)) { /* then BASE$K is plain too: no temporary string */
		buf_puts(e->b, base);
		buf_putc(e->b, '$');
		buf_put_i64(e->b, k);
		return;
	}
	Buf t = {0};
	buf_printf(&t, "%s$%d", base, (int)k);
	put_ident(e->b, buf_str(&t));
	buf_free(&t);
}

/* A fresh intermediate name %BASE$K; returns K. */
static int32_t put_temp(Em *e, const char *base)
{
	int32_t k = e->ntemp++;
	put_temp_k(e, base, k);
	return k;
}

/* Hash set of strings, for block names. */
typedef struct StrSet {
	const char **slot;
	uint32_t cap, n;
} StrSet;

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static bool strset_has(const StrSet *t, const char *s)
{
	for (uint32_t h = str_hash(s) & (t->cap - 1);; h = (h + 1) & (t->cap - 1)) {
		if (!t->slot[h])
			return false;
		if (!strcmp(t->slot[h], s))
			return true;
	}
}

static void strset_add(StrSet *t, const char *s)
{
	if (2 * (t->n + 1) > t->cap) {
		StrSet u = {xcalloc(t->cap ? 2 * t->cap : 64, sizeof(char *)), t->cap ? 2 * t->cap : 64, 0};
		for (uint32_t i = 0; i < t->cap; i++)
			if (t->slot[i])
				strset_add(&u, t->slot[i]);
		free(t->slot);
		*t = u;
	}
	uint32_t h = str_hash(s) & (t->cap - 1);
	while (t->slot[h])
		h = (h + 1) & (t->cap - 1);
	t->slot[h] = s;
	t->n++;
}

static void name_blocks(Em *e)
{
	const Program *p = e->p;
	const Cfg *g = e->g;
	StrSet used = {0};
	for (int32_t v = 0; v < p->nvars; v++)
		strset_add(&used, p->vars[v].name);
	for (int s = 0; s < SPEC__COUNT; s++)
		strset_add(&used, ir_special_name((Special)s));
	strset_add(&used, "entry$");
	e->bname = xcalloc((size_t)g->nblocks, sizeof(char *));
	for (int32_t blk = 0; blk < g->nblocks; blk++) {
		if (!g->blocks[blk].reachable)
			continue;
		const char *l = ir_label_of(p, g->blocks[blk].first);
		Buf n = {0};
		if (l)
			buf_puts(&n, l);
		else
			buf_printf(&n, "b%d", (int)g->blocks[blk].first);
		size_t base = n.len;
		for (int k = 1; strset_has(&used, buf_str(&n)); k++) {
			n.len = base;
			n.s[base] = '\0';
			if (k == 1)
				buf_puts(&n, "$b");
			else
				buf_printf(&n, "$b%d", k);
		}
		e->bname[blk] = buf_steal(&n);
		strset_add(&used, e->bname[blk]);
	}
	free(used.slot);
}

/* ---- dominance --------------------------------------------------------- */

/* Block a dominates block b (both reachable; a == b counts). */
static bool dom(const Em *e, int32_t a, int32_t b)
{
	if (a < 0 || b < 0 || !e->g->blocks[a].reachable || !e->g->blocks[b].reachable)
		return false;
	return cfg_dominates(e->g, a, b);
}

/* ---- operands ---------------------------------------------------------- */

static void bad_literal(Em *e, const Opnd *o)
{
	char *s = num_str(ir_lit(e->p, o));
	diag_error(e->d, e->at ? ir_opnd_loc(e->at, o) : LOC_NONE, "literal %s does not fit in 64 bits: the LLVM export uses i64", s);
	free(s);
	e->ok = false;
}

/* The value of operand o, read in block blk: at instruction pc (pc >= 0),
** or at the end of blk (pc < 0: a phi's incoming value from blk). */
static void put_opnd(Em *e, const Opnd *o, int32_t blk, int32_t pc)
{
	Buf *b = e->b;
	switch (o->kind) {
	case OPND_LIT:
		if (!num_fits64(ir_lit(e->p, o))) {
			bad_literal(e, o);
			buf_putc(b, '0');
		} else {
			buf_put_i64(b, ir_lit(e->p, o).i);
		}
		return;
	case OPND_SPECIAL:
		put_local(b, ir_special_name((Special)o->special));
		return;
	case OPND_VAR: {
		const Var *v = &e->p->vars[o->var];
		if (v->is_param) {
			put_local(b, v->name);
			return;
		}
		int32_t dpc = e->def_pc[o->var];
		bool visible = false;
		if (dpc >= 0 && blk >= 0) {
			int32_t db = e->g->block_of[dpc];
			if (pc < 0)
				visible = dom(e, db, blk);
			else if (db == blk)
				visible = dpc < pc;
			else
				visible = dom(e, db, blk);
		}
		if (visible)
			put_local(b, v->name);
		else
			buf_puts(b, "poison");
		return;
	}
	default:
		buf_puts(b, "poison");
		return;
	}
}

/* Mark the special variables an operand needs. */
static void note_opnd(Em *e, const Opnd *o)
{
	if (o->kind == OPND_SPECIAL && o->special < SPEC__COUNT)
		e->use_spec[o->special] = true;
}

/* ---- control flow ------------------------------------------------------ */

/* LLVM successors of a reachable block: n = 0 (ret), 1 or 2 (branch:
** [fall-through, target]). */
static int succs(const Em *e, int32_t blk, int32_t out[2])
{
	const Program *p = e->p;
	const Cfg *g = e->g;
	int32_t last = g->blocks[blk].last;
	const Ins *ins = &p->ins[last];
	switch (ins->op) {
	case OP_STOP:
	case OP_EXIT:
		return 0;
	case OP_JUMP:
		out[0] = g->block_of[ins->target];
		return 1;
	case OP_BZ:
	case OP_BNZ:
		out[0] = g->block_of[last + 1];
		out[1] = g->block_of[ins->target];
		return 2;
	default:
		out[0] = g->block_of[last + 1];
		return 1;
	}
}

static void build_preds(Em *e)
{
	const Cfg *g = e->g;
	int32_t n = g->nblocks;
	e->preds = xcalloc((size_t)n, sizeof(Edge *));
	e->npreds = xcalloc((size_t)n, sizeof(int32_t));
	int32_t *cap = xcalloc((size_t)n, sizeof(int32_t));
	if (e->fresh_entry) {
		Edge ed = {-1, 1};
		VEC_PUSH(e->preds[0], e->npreds[0], cap[0], ed);
	}
	for (int32_t blk = 0; blk < n; blk++) {
		if (!g->blocks[blk].reachable)
			continue;
		int32_t s[2];
		int ns = succs(e, blk, s);
		for (int i = 0; i < ns; i++) {
			if (i == 1 && s[1] == s[0]) {
				e->preds[s[0]][e->npreds[s[0]] - 1].mult = 2;
				continue;
			}
			Edge ed = {blk, 1};
			VEC_PUSH(e->preds[s[i]], e->npreds[s[i]], cap[s[i]], ed);
		}
	}
	free(cap);
}

/* γ: the operand (1 = o1, 2 = o2) edge ed brings when br is the controlling
** branch block; 0 if the edge is on neither side or on both. */
static int gamma_side(const Em *e, int32_t blk, int32_t br, const Edge *ed)
{
	const Program *p = e->p;
	int32_t s[2];
	if (succs(e, br, s) != 2)
		return 0;
	int side; /* 0 fall-through, 1 target */
	if (ed->from < 0)
		return 0;
	if (ed->from == br) {
		if (ed->mult != 1)
			return 0;
		side = s[0] == blk ? 0 : 1;
	} else if (s[0] != blk && dom(e, s[0], ed->from)) {
		side = 0;
	} else if (s[1] != blk && dom(e, s[1], ed->from)) {
		side = 1;
	} else {
		return 0;
	}
	/* bz jumps where p == 0: its target side brings o2; bnz the reverse */
	bool bz = p->ins[e->g->blocks[br].last].op == OP_BZ;
	bool p_nonzero = bz ? side == 0 : side == 1;
	return p_nonzero ? 1 : 2;
}

/* The controlling branch block of a γ in block blk, or -1. */
static int32_t gamma_branch(const Em *e, int32_t blk, const Ins *gi)
{
	const Cfg *g = e->g;
	for (int32_t a = g->blocks[blk].idom; a >= 0; a = g->blocks[a].idom) {
		const Ins *t = &e->p->ins[g->blocks[a].last];
		if (!ir_is_branch((Op)t->op) || !ir_opnd_same(e->p, &t->a, e->p, &gi->a))
			continue;
		bool all = true;
		for (int32_t j = 0; j < e->npreds[blk] && all; j++)
			all = gamma_side(e, blk, a, &e->preds[blk][j]) != 0;
		if (all)
			return a;
	}
	return -1;
}

/* The value operand a nested γ of block blk selects for the threads that
** arrive by the edge from block q: the SSA value current at the end of q.
** γ's leaves are versions of one variable, and the one that reaches q is the
** leaf defined nearest above q in the dominator tree (the last one in q
** itself); a literal or special leaf when no version reaches it (a
** never-assigned variable). NULL: undecided. */
static const Opnd *gamma_leaf(const Em *e, const Ins *gi, int32_t q)
{
	const Cfg *g = e->g;
	const Opnd *best = NULL, *other = NULL;
	int32_t best_pre = -1, best_pc = -1, nother = 0;
	for (int32_t k = 0; k < 2 + gi->nargs; k++) {
		const Opnd *o = k == 0 ? &gi->b : k == 1 ? &gi->c : &gi->args[k - 2];
		if (o->kind == OPND_GATE || (k >= 2 && (k - 2) % 3 == 0))
			continue; /* a nested node, or a node's predicate */
		if (o->kind != OPND_VAR || e->def_pc[o->var] < 0) {
			if (!other || !ir_opnd_same(e->p, other, e->p, o)) {
				other = o;
				nother++;
			}
			continue;
		}
		int32_t pc = e->def_pc[o->var], d = g->block_of[pc];
		if (!dom(e, d, q))
			continue;
		int32_t pre = g->blocks[d].dom_pre;
		if (pre > best_pre || (pre == best_pre && pc > best_pc)) {
			best = o;
			best_pre = pre;
			best_pc = pc;
		}
	}
	return best ? best : nother == 1 ? other : NULL;
}

/* ---- instructions ------------------------------------------------------ */

static const char *dst_name(const Em *e, const Ins *ins)
{
	return ins->dst >= 0 ? e->p->vars[ins->dst].name : "t";
}

/* "  %NAME = " for the instruction's destination (a temp when it has none). */
static void put_def(Em *e, const Ins *ins)
{
	buf_puts(e->b, "  ");
	if (ins->dst >= 0)
		put_local(e->b, e->p->vars[ins->dst].name);
	else
		put_temp(e, "t");
	buf_puts(e->b, " = ");
}

static void emit_phi(Em *e, int32_t blk, int32_t pc)
{
	const Ins *ins = &e->p->ins[pc];
	e->at = ins;
	const Block *bb = &e->g->blocks[blk];
	int32_t br = -1;
	bool tree = false; /* a nested γ, or a γ whose branch does not split the edges */
	if (ins->op == OP_GAMMA) {
		br = ins->nargs == 0 ? gamma_branch(e, blk, ins) : -1;
		tree = br < 0;
		for (int32_t j = 0; tree && j < e->npreds[blk]; j++)
			if (e->preds[blk][j].from >= 0 && !gamma_leaf(e, ins, e->preds[blk][j].from))
				tree = false;
		if (br < 0 && !tree) {
			Buf w = {0};
			ir_print_where(&w, e->p, pc);
			diag_error(e->d, ins->loc,
			           "cannot export the γ at %s: no dominating branch on its predicate puts each "
			           "incoming edge on one side",
			           buf_str(&w));
			buf_free(&w);
			e->ok = false;
		}
	}
	put_def(e, ins);
	buf_puts(e->b, "phi i64 ");
	bool first = true;
	for (int32_t j = 0; j < e->npreds[blk]; j++) {
		const Edge *ed = &e->preds[blk][j];
		const Opnd *o = NULL;
		switch (ins->op) {
		case OP_ETA:
			o = &ins->b;
			break;
		case OP_GAMMA: {
			if (tree) {
				o = ed->from >= 0 ? gamma_leaf(e, ins, ed->from) : NULL;
				break;
			}
			int side = br >= 0 ? gamma_side(e, blk, br, ed) : 1;
			o = side == 2 ? &ins->c : &ins->b;
			break;
		}
		case OP_MU: {
			int32_t k = 0;
			if (ed->from >= 0) {
				int32_t i = cfg_phi_index(e->g, blk, ed->from);
				if (i >= 0 && bb->mu_index)
					k = bb->mu_index[i];
			}
			o = k < ins->nargs ? &ins->args[k] : NULL;
			break;
		}
		case OP_PHI: {
			int32_t i = ed->from >= 0 ? cfg_phi_index(e->g, blk, ed->from) : -1;
			o = i >= 0 && i < ins->nargs ? &ins->args[i] : NULL;
			break;
		}
		default:
			break;
		}
		for (int32_t m = 0; m < ed->mult; m++) {
			buf_puts(e->b, first ? "[ " : ", [ ");
			first = false;
			if (o)
				put_opnd(e, o, ed->from, -1);
			else
				buf_puts(e->b, "poison");
			buf_puts(e->b, ", ");
			put_block(e, ed->from);
			buf_puts(e->b, " ]");
		}
	}
	buf_putc(e->b, '\n');
}

/* "  %T = getelementptr i64, ptr addrspace(N) BASE, i64 ADDR\n"; returns T's number. */
static int32_t emit_gep(Em *e, const Ins *ins, const Opnd *addr, int32_t blk, int32_t pc, bool local)
{
	buf_puts(e->b, "  ");
	int32_t k = put_temp(e, ins->dst >= 0 ? dst_name(e, ins) : local ? "local" : "sigma");
	if (local) {
		buf_puts(e->b, e->target == LLVM_AMDGPU ? " = getelementptr i64, ptr addrspace(5) %local$, i64 "
		                                        : " = getelementptr i64, ptr %local$, i64 ");
	} else {
		buf_puts(e->b, " = getelementptr i64, ptr addrspace(3) @sigma, i64 ");
	}
	put_opnd(e, addr, blk, pc);
	buf_putc(e->b, '\n');
	return k;
}

static const char *ptr_ty(const Em *e, bool local)
{
	if (!local)
		return "ptr addrspace(3)";
	return e->target == LLVM_AMDGPU ? "ptr addrspace(5)" : "ptr";
}

/* "  %BASE$K = icmp PRED i64 a, b": returns K. */
static int32_t put_icmp(Em *e, const char *base, const char *pred, const Ins *ins, int32_t blk, int32_t pc)
{
	buf_puts(e->b, "  ");
	int32_t k = put_temp(e, base);
	buf_puts(e->b, " = icmp ");
	buf_puts(e->b, pred);
	buf_puts(e->b, " i64 ");
	put_opnd(e, &ins->a, blk, pc);
	buf_puts(e->b, ", ");
	put_opnd(e, &ins->b, blk, pc);
	buf_putc(e->b, '\n');
	return k;
}

static void emit_binary(Em *e, const Ins *ins, int32_t blk, int32_t pc)
{
	static const char *const arith[BIN__COUNT] = {
		[BIN_ADD] = "add", [BIN_SUB] = "sub", [BIN_MUL] = "mul", [BIN_DIV] = "sdiv",
		[BIN_MOD] = "srem", [BIN_AND] = "and", [BIN_OR] = "or", [BIN_XOR] = "xor",
		[BIN_SHL] = "shl", [BIN_SHR] = "ashr",
	};
	static const char *const cmp[BIN__COUNT] = {
		[BIN_LT] = "slt", [BIN_LE] = "sle", [BIN_GT] = "sgt", [BIN_GE] = "sge",
		[BIN_EQ] = "eq", [BIN_NE] = "ne", [BIN_MIN] = "slt", [BIN_MAX] = "sgt",
	};
	Buf *b = e->b;
	const char *base = dst_name(e, ins);
	BinOp op = (BinOp)ins->sub;
	if ((unsigned)op < BIN__COUNT && arith[op]) {
		put_def(e, ins);
		buf_puts(b, arith[op]);
		buf_puts(b, " i64 ");
		put_opnd(e, &ins->a, blk, pc);
		buf_puts(b, ", ");
		put_opnd(e, &ins->b, blk, pc);
		buf_putc(b, '\n');
	} else if (op == BIN_MIN || op == BIN_MAX) {
		int32_t k = put_icmp(e, base, cmp[op], ins, blk, pc);
		put_def(e, ins);
		buf_puts(b, "select i1 ");
		put_temp_k(e, base, k);
		buf_puts(b, ", i64 ");
		put_opnd(e, &ins->a, blk, pc);
		buf_puts(b, ", i64 ");
		put_opnd(e, &ins->b, blk, pc);
		buf_putc(b, '\n');
	} else if ((unsigned)op < BIN__COUNT && cmp[op]) {
		int32_t k = put_icmp(e, base, cmp[op], ins, blk, pc);
		put_def(e, ins);
		buf_puts(b, "zext i1 ");
		put_temp_k(e, base, k);
		buf_puts(b, " to i64\n");
	} else if (op == BIN_LAND || op == BIN_LOR) {
		int32_t k[3];
		const Opnd *o[2] = {&ins->a, &ins->b};
		for (int i = 0; i < 2; i++) {
			buf_puts(b, "  ");
			k[i] = put_temp(e, base);
			buf_puts(b, " = icmp ne i64 ");
			put_opnd(e, o[i], blk, pc);
			buf_puts(b, ", 0\n");
		}
		buf_puts(b, "  ");
		k[2] = put_temp(e, base);
		buf_printf(b, " = %s i1 ", op == BIN_LAND ? "and" : "or");
		put_temp_k(e, base, k[0]);
		buf_puts(b, ", ");
		put_temp_k(e, base, k[1]);
		buf_putc(b, '\n');
		put_def(e, ins);
		buf_puts(b, "zext i1 ");
		put_temp_k(e, base, k[2]);
		buf_puts(b, " to i64\n");
	} else {
		diag_error(e->d, ins->loc, "unknown binary operator in the LLVM export");
		e->ok = false;
	}
}

static void emit_ins(Em *e, int32_t blk, int32_t pc)
{
	const Ins *ins = &e->p->ins[pc];
	e->at = ins;
	Buf *b = e->b;
	const char *base = dst_name(e, ins);
	switch ((Op)ins->op) {
	case OP_COPY:
		put_def(e, ins);
		buf_puts(b, "add i64 ");
		put_opnd(e, &ins->a, blk, pc);
		buf_puts(b, ", 0\n");
		break;
	case OP_UNARY:
		switch ((UnOp)ins->sub) {
		case UN_NEG:
			put_def(e, ins);
			buf_puts(b, "sub i64 0, ");
			put_opnd(e, &ins->a, blk, pc);
			buf_putc(b, '\n');
			break;
		case UN_BNOT:
			put_def(e, ins);
			buf_puts(b, "xor i64 ");
			put_opnd(e, &ins->a, blk, pc);
			buf_puts(b, ", -1\n");
			break;
		case UN_NOT: {
			buf_puts(b, "  ");
			int32_t k = put_temp(e, base);
			buf_puts(b, " = icmp eq i64 ");
			put_opnd(e, &ins->a, blk, pc);
			buf_puts(b, ", 0\n");
			put_def(e, ins);
			buf_puts(b, "zext i1 ");
			put_temp_k(e, base, k);
			buf_puts(b, " to i64\n");
			break;
		}
		default:
			diag_error(e->d, ins->loc, "unknown unary operator in the LLVM export");
			e->ok = false;
		}
		break;
	case OP_BINARY:
		emit_binary(e, ins, blk, pc);
		break;
	case OP_LOAD:
	case OP_LLOAD: {
		bool local = ins->op == OP_LLOAD;
		int32_t k = emit_gep(e, ins, &ins->a, blk, pc, local);
		put_def(e, ins);
		buf_printf(b, "load i64, %s ", ptr_ty(e, local));
		put_temp_k(e, base, k);
		buf_puts(b, ", align 8\n");
		break;
	}
	case OP_STORE:
	case OP_LSTORE: {
		bool local = ins->op == OP_LSTORE;
		const char *sb = local ? "local" : "sigma";
		int32_t k = emit_gep(e, ins, &ins->a, blk, pc, local);
		buf_puts(b, "  store i64 ");
		put_opnd(e, &ins->b, blk, pc);
		buf_printf(b, ", %s ", ptr_ty(e, local));
		put_temp_k(e, ins->dst >= 0 ? base : sb, k);
		buf_puts(b, ", align 8\n");
		break;
	}
	case OP_ATOMINC:
	case OP_ATOMADD:
	case OP_ATOMEXCH: {
		int32_t k = emit_gep(e, ins, &ins->a, blk, pc, false);
		const char *gb = ins->dst >= 0 ? base : "sigma";
		int32_t r = -1;
		if (ins->op == OP_ATOMINC) {
			buf_puts(b, "  ");
			r = put_temp(e, base);
			buf_puts(b, " = ");
		} else {
			put_def(e, ins);
		}
		buf_printf(b, "atomicrmw %s ptr addrspace(3) ", ins->op == OP_ATOMEXCH ? "xchg" : "add");
		put_temp_k(e, gb, k);
		buf_puts(b, ", i64 ");
		if (ins->op == OP_ATOMINC)
			buf_puts(b, "1");
		else
			put_opnd(e, &ins->b, blk, pc);
		buf_puts(b, " seq_cst, align 8\n");
		if (ins->op == OP_ATOMINC) {
			put_def(e, ins);
			buf_puts(b, "add i64 ");
			put_temp_k(e, base, r);
			buf_puts(b, ", 1\n");
		}
		break;
	}
	case OP_ATOMCAS: {
		int32_t k = emit_gep(e, ins, &ins->a, blk, pc, false);
		const char *gb = ins->dst >= 0 ? base : "sigma";
		buf_puts(b, "  ");
		int32_t r = put_temp(e, base);
		buf_puts(b, " = cmpxchg ptr addrspace(3) ");
		put_temp_k(e, gb, k);
		buf_puts(b, ", i64 ");
		put_opnd(e, &ins->b, blk, pc);
		buf_puts(b, ", i64 ");
		put_opnd(e, &ins->c, blk, pc);
		buf_puts(b, " seq_cst seq_cst, align 8\n");
		put_def(e, ins);
		buf_puts(b, "extractvalue { i64, i1 } ");
		put_temp_k(e, base, r);
		buf_puts(b, ", 0\n");
		break;
	}
	case OP_PHI:
	case OP_GAMMA:
	case OP_MU:
	case OP_ETA:
		emit_phi(e, blk, pc);
		break;
	case OP_BZ:
	case OP_BNZ: {
		int32_t s[2];
		succs(e, blk, s);
		buf_puts(b, "  ");
		int32_t k = put_temp(e, "br");
		buf_puts(b, ins->op == OP_BZ ? " = icmp eq i64 " : " = icmp ne i64 ");
		put_opnd(e, &ins->a, blk, pc);
		buf_puts(b, ", 0\n  br i1 ");
		put_temp_k(e, "br", k);
		buf_puts(b, ", label ");
		put_block(e, s[1]); /* taken: the target */
		buf_puts(b, ", label ");
		put_block(e, s[0]);
		buf_putc(b, '\n');
		break;
	}
	case OP_JUMP:
		buf_puts(b, "  br label ");
		put_block(e, e->g->block_of[ins->target]);
		buf_putc(b, '\n');
		break;
	case OP_STOP:
	case OP_EXIT:
		buf_puts(b, "  ret void\n");
		break;
	case OP_SYNC:
		break;
	case OP_BARRIER:
		buf_puts(b, e->target == LLVM_AMDGPU ? "  call void @llvm.amdgcn.s.barrier()\n"
		                                     : "  call void @llvm.nvvm.barrier0()\n");
		break;
	default:
		diag_error(e->d, ins->loc, "instruction not supported by the LLVM export");
		e->ok = false;
	}
}

/* Special variables, the local array: at the top of the entry block. */
static void emit_preamble(Em *e)
{
	Buf *b = e->b;
	bool amd = e->target == LLVM_AMDGPU;
	if (e->use_spec[SPEC_TID]) {
		buf_printf(b, "  %%tid$i32 = call i32 %s()\n",
		           amd ? "@llvm.amdgcn.workitem.id.x" : "@llvm.nvvm.read.ptx.sreg.tid.x");
		buf_puts(b, "  %tid = zext i32 %tid$i32 to i64\n");
	}
	if (e->use_spec[SPEC_LANEID]) {
		if (amd) {
			buf_puts(b, "  %laneid$lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n");
			buf_puts(b, "  %laneid$i32 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %laneid$lo)\n");
		} else {
			buf_puts(b, "  %laneid$i32 = call i32 @llvm.nvvm.read.ptx.sreg.laneid()\n");
		}
		buf_puts(b, "  %laneid = zext i32 %laneid$i32 to i64\n");
	}
	if (e->use_spec[SPEC_WARPID]) {
		if (amd) {
			buf_puts(b, "  ; warpid is uniform within a warp: readfirstlane says so to LLVM\n");
			buf_puts(b, "  %warpid$q = sdiv i64 %tid, %warpsize\n");
			buf_puts(b, "  %warpid$t = trunc i64 %warpid$q to i32\n");
			buf_puts(b, "  %warpid$i32 = call i32 @llvm.amdgcn.readfirstlane(i32 %warpid$t)\n");
			buf_puts(b, "  %warpid = zext i32 %warpid$i32 to i64\n");
		} else {
			buf_puts(b, "  ; warpid: NVPTX 16 has no construct LLVM sees as uniform per warp\n");
			buf_puts(b, "  %warpid = sdiv i64 %tid, %warpsize\n");
		}
	}
	if (e->use_local) {
		buf_printf(b, "  %%local$ = alloca [%d x i64], align 8%s\n", LOCAL_CELLS,
		           amd ? ", addrspace(5)" : "");
	}
}

static void note_uses(Em *e)
{
	const Program *p = e->p;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (!e->g->blocks[e->g->block_of[pc]].reachable)
			continue;
		note_opnd(e, &ins->a);
		note_opnd(e, &ins->b);
		note_opnd(e, &ins->c);
		for (int32_t i = 0; i < ins->nargs; i++)
			note_opnd(e, &ins->args[i]);
		e->use_local |= ins->op == OP_LLOAD || ins->op == OP_LSTORE;
		e->use_barrier |= ins->op == OP_BARRIER;
	}
	if (e->use_spec[SPEC_WARPID]) {
		e->use_spec[SPEC_TID] = true;
		e->use_spec[SPEC_WARPSIZE] = true;
	}
}

static void put_kernel_name(Em *e)
{
	const Program *p = e->p;
	Buf n = {0};
	if (p->kernel) {
		buf_puts(&n, p->kernel);
	} else {
		const char *path = p->path ? p->path : "kernel";
		const char *s = strrchr(path, '/');
		s = s ? s + 1 : path;
		const char *dot = strrchr(s, '.');
		size_t len = dot && dot != s ? (size_t)(dot - s) : strlen(s);
		for (size_t i = 0; i < len; i++) {
			char c = s[i];
			bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			          c == '_' || c == '.';
			buf_putc(&n, ok ? c : '_');
		}
		if (n.len == 0)
			buf_puts(&n, "kernel");
	}
	buf_putc(e->b, '@');
	put_ident(e->b, buf_str(&n));
	buf_free(&n);
}

static bool check_ssa(Em *e)
{
	const Program *p = e->p;
	for (int32_t pc = 0; pc < p->nins; pc++) {
		const Ins *ins = &p->ins[pc];
		if (ins->dst < 0)
			continue;
		if (e->def_pc[ins->dst] >= 0) {
			diag_error(e->d, ins->dst_off >= 0 ? ir_dst_loc(ins) : ins->loc,
			           "'%s' is assigned more than once: not in GSA/SSA form; run musimd gsa first",
			           p->vars[ins->dst].name);
			return false;
		}
		e->def_pc[ins->dst] = pc;
	}
	return true;
}

bool llvm_emit(Buf *out, const Program *gsa, LlvmTarget target, Diags *d)
{
	if (!gsa->cfg) {
		diag_error(d, LOC_NONE, "the program has errors: nothing to export");
		return false;
	}
	Em e = {.p = gsa, .g = gsa->cfg, .target = target, .d = d, .b = out, .ok = true};
	size_t start = out->len;
	const Cfg *g = e.g;
	e.def_pc = xmalloc((size_t)(gsa->nvars > 0 ? gsa->nvars : 1) * sizeof(int32_t));
	for (int32_t v = 0; v < gsa->nvars; v++)
		e.def_pc[v] = -1;
	if (!check_ssa(&e) || g->nblocks == 0) {
		if (g->nblocks == 0)
			diag_error(d, LOC_NONE, "empty program: nothing to export");
		free(e.def_pc);
		return false;
	}
	name_blocks(&e);
	e.fresh_entry = g->blocks[0].npred > 0 || g->blocks[0].ngsa > 0;
	build_preds(&e);
	note_uses(&e);
	bool amd = target == LLVM_AMDGPU;

	Buf *b = out;
	buf_printf(b, "; musimd LLVM export of %s (target %s)\n", gsa->path ? gsa->path : "-",
	           amd ? "amdgpu" : "nvptx");
	buf_puts(b, "; for LLVM's uniformity analysis: opt-16 -passes='print<uniformity>' -disable-output\n");
	if (amd) {
		buf_puts(b, "target datalayout = \"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-"
		            "p6:32:32-p7:160:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-"
		            "v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7\"\n");
		buf_puts(b, "target triple = \"amdgcn-amd-amdhsa\"\n\n");
	} else {
		buf_puts(b, "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n");
		buf_puts(b, "target triple = \"nvptx64-nvidia-cuda\"\n\n");
	}
	buf_puts(b, "; Σ: shared (workgroup) memory, one i64 per address\n");
	buf_puts(b, "@sigma = external addrspace(3) global [0 x i64], align 8\n\n");

	buf_puts(b, amd ? "define amdgpu_kernel void " : "define void ");
	put_kernel_name(&e);
	buf_putc(b, '(');
	bool first = true;
	for (int32_t v = 0; v < gsa->nvars; v++) {
		if (!gsa->vars[v].is_param)
			continue;
		buf_puts(b, first ? "i64 " : ", i64 ");
		first = false;
		put_local(b, gsa->vars[v].name);
	}
	static const Special argspec[] = {SPEC_NTID, SPEC_NWARPS, SPEC_WARPSIZE};
	for (size_t i = 0; i < sizeof argspec / sizeof argspec[0]; i++) {
		if (!e.use_spec[argspec[i]])
			continue;
		buf_printf(b, "%si64 %%%s", first ? "" : ", ", ir_special_name(argspec[i]));
		first = false;
	}
	buf_puts(b, ") {\n");

	if (e.fresh_entry) {
		buf_puts(b, "entry$:\n");
		emit_preamble(&e);
		buf_puts(b, "  br label ");
		put_block(&e, 0);
		buf_putc(b, '\n');
	}
	for (int32_t blk = 0; blk < g->nblocks; blk++) {
		const Block *bb = &g->blocks[blk];
		if (!bb->reachable)
			continue;
		if (blk > 0 || e.fresh_entry)
			buf_putc(b, '\n');
		put_ident(b, e.bname[blk]);
		buf_puts(b, ":  ; pc ");
		buf_put_i64(b, bb->first);
		buf_putc(b, '-');
		buf_put_i64(b, bb->last);
		buf_puts(b, ", lines ");
		buf_put_i64(b, gsa->ins[bb->first].loc.line);
		buf_putc(b, '-');
		buf_put_i64(b, gsa->ins[bb->last].loc.line);
		buf_putc(b, '\n');
		if (blk == 0 && !e.fresh_entry)
			emit_preamble(&e);
		for (int32_t pc = bb->first; pc <= bb->last; pc++)
			emit_ins(&e, blk, pc);
		if (!ir_ends_block((Op)gsa->ins[bb->last].op)) {
			int32_t s[2];
			succs(&e, blk, s);
			buf_puts(b, "  br label ");
			put_block(&e, s[0]);
			buf_putc(b, '\n');
		}
	}
	buf_puts(b, "}\n\n");

	if (e.use_spec[SPEC_TID])
		buf_printf(b, "declare i32 %s()\n",
		           amd ? "@llvm.amdgcn.workitem.id.x" : "@llvm.nvvm.read.ptx.sreg.tid.x");
	if (e.use_spec[SPEC_LANEID]) {
		if (amd) {
			buf_puts(b, "declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)\n");
			buf_puts(b, "declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)\n");
		} else {
			buf_puts(b, "declare i32 @llvm.nvvm.read.ptx.sreg.laneid()\n");
		}
	}
	if (e.use_spec[SPEC_WARPID] && amd)
		buf_puts(b, "declare i32 @llvm.amdgcn.readfirstlane(i32)\n");
	if (e.use_barrier)
		buf_puts(b, amd ? "declare void @llvm.amdgcn.s.barrier()\n" : "declare void @llvm.nvvm.barrier0()\n");
	if (!amd) {
		buf_puts(b, "\n!nvvm.annotations = !{!0}\n!0 = !{ptr ");
		put_kernel_name(&e);
		buf_puts(b, ", !\"kernel\", i32 1}\n");
	}

	for (int32_t blk = 0; blk < g->nblocks; blk++) {
		free(e.bname[blk]);
		free(e.preds[blk]);
	}
	free(e.bname);
	free(e.preds);
	free(e.npreds);
	free(e.def_pc);
	if (!e.ok) {
		out->len = start;
		if (out->s)
			out->s[start] = '\0';
	}
	return e.ok;
}
