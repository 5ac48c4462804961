/*
** ir.h — the μ-SIMD program as musimd holds it (language.md).
**
** A Program is a vector of instructions indexed by pc (0-based; "pc + 1" of
** the papers is the next index), a table of variables (parameters are
** variables marked is_param), a table of labels, and the directives. The
** parser (grammar/) builds it through the builder functions below;
** ir_finish resolves labels and performs the checks that need the whole
** file; cfg.c and validate.c do the rest of language.md §5.
**
** Matrix GSA statements ([v1, v2] = mu((a1, a2), (b1, b2))) are expanded
** into one instruction per destination, consecutive, sharing `group`.
*/
#ifndef MUSIMD_IR_H
#define MUSIMD_IR_H

#include "diag.h"
#include "num.h"

struct Cfg;

/* OPND_GATE: a nested γ in a value operand of a γ (Tu & Padua's gating
** functions compose the predicates of the paths into a join): its node is
** Ins.args[var .. var+2] = (predicate, o1, o2), and o1/o2 may again be
** gates. Only OP_GAMMA has them (language.md §4.3, docs/analyses.md). */
typedef enum OpndKind { OPND_NONE, OPND_VAR, OPND_LIT, OPND_SPECIAL, OPND_GATE } OpndKind;

/* Special variables (language.md §3). ORDER SPECIAL: keep ir_special_name in step. */
typedef enum Special {
	SPEC_TID, SPEC_LANEID, SPEC_WARPID, SPEC_NTID, SPEC_NWARPS, SPEC_WARPSIZE,
	SPEC__COUNT
} Special;

/* 12 bytes: an instruction has three, and a program of 10^6 instructions
** is read, converted and analysed at the speed its memory is touched. The
** operand's text lies on its statement's line (one statement per line), so
** it keeps only its offset and length: ir_opnd_loc makes its Loc. */
typedef struct Opnd {
	uint8_t kind;    /* OpndKind */
	uint8_t special; /* Special, when kind == OPND_SPECIAL */
	uint16_t len;    /* bytes of its text (a longer text: its first 65535) */
	union {
		int32_t var; /* variable index, when kind == OPND_VAR; OPND_GATE: its node */
		int32_t lit; /* index in Program.lits, when kind == OPND_LIT; read the
		             ** value with ir_lit */
	};
	int32_t off; /* its text's offset in the source, -1 when it has none */
} Opnd;

typedef enum Op {
	/* data instructions: rule IT applies the data rules of Table 3.5 */
	OP_COPY,     /* dst = a                 CT / AS */
	OP_UNARY,    /* dst = (UnOp)sub a */
	OP_BINARY,   /* dst = a (BinOp)sub b    BP (min/max too) */
	OP_LOAD,     /* dst = mem[a]            LD */
	OP_STORE,    /* mem[a] = b              ST */
	OP_LLOAD,    /* dst = local[a]          (ext) */
	OP_LSTORE,   /* local[a] = b            (ext) */
	OP_ATOMINC,  /* dst = atominc(a)        AT: Σ[a] += 1, dst = the new value */
	OP_ATOMADD,  /* dst = atomadd(a, b)     (ext) dst = old value */
	OP_ATOMCAS,  /* dst = atomcas(a, b, c)  (ext) if Σ[a] == b then Σ[a] = c; dst = old */
	OP_ATOMEXCH, /* dst = atomexch(a, b)    (ext) dst = old value */
	/* gated SSA (language.md §4.3): only at the start of a basic block */
	OP_PHI,      /* dst = phi(args[0..nargs-1]), one per predecessor */
	OP_GAMMA,    /* dst = gamma(a, b, c): b where a != 0, else c; b, c may be
	             ** OPND_GATE (a nested gamma whose node lies in args) */
	OP_MU,       /* dst = mu(args): args[0] on entry, args[k] on the k-th back edge */
	OP_ETA,      /* dst = eta(a, b): b */
	/* control (Table 3.4) */
	OP_BZ,       /* bz a, target:  jump where a == 0 (mnemonic polarity) */
	OP_BNZ,      /* bnz a, target: jump where a != 0; also branch(a, target) */
	OP_JUMP,     /* jump target */
	OP_SYNC,     /* SS / SP */
	OP_STOP,     /* SF */
	OP_EXIT,     /* (ext) the executing threads terminate */
	OP_BARRIER,  /* (ext) block-wide barrier */
	OP_CALL,     /* (ext) call target: every active thread pushes pc + 1 on its own return
	             ** stack and jumps (musimd-lang(7), Functions) */
	OP_RET,      /* (ext) every active thread pops its return stack and goes there */
	OP__COUNT
} Op;

/* 96 bytes. The texts of the destination and the target are on the
** statement's line: ir_dst_loc and ir_target_loc make their Locs. */
typedef struct Ins {
	uint8_t op;       /* Op */
	uint8_t sub;      /* BinOp for OP_BINARY, UnOp for OP_UNARY */
	uint16_t dst_len; /* the destination's text: dst_len bytes at dst_off */
	int32_t dst;      /* defined variable, or -1 */
	Opnd a, b, c;
	int32_t nargs;
	Opnd *args;           /* OP_PHI, OP_MU operands (owned) */
	int32_t target;       /* OP_BZ/OP_BNZ/OP_JUMP/OP_CALL: pc of the target (set by ir_finish), else -1 */
	int32_t target_label; /* index in Program.labels of the named target, else -1 */
	int32_t label;        /* first label naming this instruction, or -1 */
	int32_t group;        /* expanded matrix GSA statement: id shared by its rows; else -1 */
	int32_t dst_off;      /* -1: no text */
	int32_t target_off;   /* -1: no text */
	uint16_t target_len;
	Loc loc; /* the whole statement */
} Ins;

/* The location of a text of ins given by its offset and length (-1: none):
** on the statement's line. */
static inline Loc ir_part_loc(const Ins *ins, int32_t off, uint16_t len)
{
	if (off < 0)
		return (Loc){0, -1, 0};
	return (Loc){ins->loc.line, off, len};
}
static inline Loc ir_opnd_loc(const Ins *ins, const Opnd *o) { return ir_part_loc(ins, o->off, o->len); }
static inline Loc ir_dst_loc(const Ins *ins) { return ir_part_loc(ins, ins->dst_off, ins->dst_len); }
static inline Loc ir_target_loc(const Ins *ins) { return ir_part_loc(ins, ins->target_off, ins->target_len); }
/* Keep loc's offset and length (the line is the statement's). */
static inline void ir_part_set(int32_t *off, uint16_t *len, Loc loc)
{
	*off = loc.off;
	*len = loc.off < 0 ? 0 : loc.len > UINT16_MAX ? UINT16_MAX : loc.len < 0 ? 0 : (uint16_t)loc.len;
}
static inline void ir_set_opnd_loc(Opnd *o, Loc loc) { ir_part_set(&o->off, &o->len, loc); }
static inline void ir_set_dst_loc(Ins *ins, Loc loc) { ir_part_set(&ins->dst_off, &ins->dst_len, loc); }
static inline void ir_set_target_loc(Ins *ins, Loc loc) { ir_part_set(&ins->target_off, &ins->target_len, loc); }

typedef struct Var {
	char *name; /* owned by the Program (kept in its name chunks) */
	Num value;
	Loc loc; /* declaration (parameters) or first occurrence */
	bool is_param;
	bool has_value; /* parameter with a default (.param NAME = INT) */
} Var;

typedef struct Label {
	char *name; /* owned by the Program, like Var.name */
	int32_t ins; /* pc of the instruction it names; -1 while undefined */
	Loc loc;     /* definition, or first use while undefined */
} Label;

/* .data / .fill: count cells from addr on are set to value. */
typedef struct MemInit {
	int64_t addr, count;
	Num value;
	Loc loc;
} MemInit;

typedef struct Program {
	char *path;   /* as given (owned) */
	char *src;    /* the source text (owned), for diagnostics */
	size_t srclen;
	char *kernel; /* .kernel NAME or NULL */
	int32_t threads, warpsize; /* .threads / .warpsize, 0 when not given */
	bool memory_zero;          /* .memory zero (default strict) */
	Var *vars;
	int32_t nvars, capvars;
	Label *labels;
	int32_t nlabels, caplabels;
	Ins *ins;
	int32_t nins, capins;
	MemInit *data;
	int32_t ndata, capdata;
	Num *lits;           /* the values of the literal operands (Opnd.lit) */
	int32_t nlits, caplits;
	int32_t ngroups;     /* matrix GSA groups allocated so far */
	bool has_gsa;        /* some instruction is φ, γ, μ or η */
	bool has_calls;      /* some instruction is call or ret */
	struct Cfg *cfg;     /* set by ir_load after a clean parse */
	struct IrNames *names; /* private: name → index hash tables */
} Program;

/* ---- front end --------------------------------------------------------- */

/* Parse src (grammar/parser.y) into a Program and resolve labels
** (ir_finish). Always returns a Program, partial on error; errors and
** warnings go to d (d->nerrors tells whether it is usable). The Program
** takes a copy of path and src. */
Program *ir_parse(const char *path, const char *src, size_t len, Diags *d);
/* The same, taking src as ir_load_owned does. */
Program *ir_parse_owned(const char *path, char *src, size_t len, Diags *d);

/* The whole front end: ir_parse, then the control-flow graph (cfg_build)
** and the checks of language.md §5 (validate). p->cfg is set when there
** were no errors. */
Program *ir_load(const char *path, const char *src, size_t len, Diags *d);
/* The same, taking src: a malloc'd block of len + 2 bytes (read_file's),
** which the Program keeps and frees (10^6 lines are 34 MB not copied). */
Program *ir_load_owned(const char *path, char *src, size_t len, Diags *d);

void ir_free(Program *p);
/* Free p's instructions, literals and cfg, leaving its names, directives
** and text (gsa_build_dropping: a program only ir_free reads next). */
void ir_drop_code(Program *p);

/* ---- builder (used by the parser) -------------------------------------- */

Program *ir_new(const char *path, const char *src, size_t len);
/* The same, taking src (len + 2 bytes, malloc'd). */
Program *ir_new_owned(const char *path, char *src, size_t len);
/* Make room for at least nins instructions and nvars variables (a builder
** that knows its sizes saves the copies of growing the arrays). */
void ir_reserve(Program *p, int32_t nins, int32_t nvars);
/* Find or create the variable called name. */
int32_t ir_var(Program *p, const char *name, size_t len, Loc loc);
/* Append a variable whose name the caller knows p does not have yet (the
** GSA construction's versions): no look-up; the name table takes it in at
** the next ir_var or ir_find_var. A program only printed never indexes
** them (at 10^6 versions, a tenth of musimd gsa's time). */
int32_t ir_var_fresh(Program *p, const char *name, size_t len, Loc loc);
/* Find the variable called name, or -1. */
int32_t ir_find_var(const Program *p, const char *name);
/* Find or create a label (created undefined, ins = -1). */
int32_t ir_label(Program *p, const char *name, size_t len, Loc loc);
int32_t ir_find_label(const Program *p, const char *name);
/* Bind label to the next instruction appended (pending until then). A
** label defined twice is reported at its second definition. */
void ir_define_label(Program *p, int32_t label, Loc loc, Diags *d);
/* Append an instruction (copied; takes ownership of args and literals).
** Binds pending labels to it. Returns its pc. */
int32_t ir_append(Program *p, const Ins *ins);
/* An Ins with every field empty (dst/target/label/group -1, operands NONE). */
Ins ir_ins_init(Op op, Loc loc);
Opnd ir_opnd_var(int32_t var, Loc loc);
/* A literal operand; p takes ownership of value. */
Opnd ir_opnd_lit(Program *p, Num value, Loc loc);
Opnd ir_opnd_special(Special s, Loc loc);
/* Directives. */
void ir_declare_param(Program *p, const char *name, size_t len, Loc loc, bool has_value, Num value, Diags *d);
void ir_add_data(Program *p, int64_t addr, int64_t count, Num value, Loc loc);

/* After the last statement: resolve branch targets, report undefined and
** duplicate labels, labels naming no instruction, assignments to
** parameters, GSA arities and SSA form, a program that can fall off its
** end, and bad directive values. */
void ir_finish(Program *p, Diags *d);

/* ---- queries and printing ---------------------------------------------- */

const char *ir_special_name(Special s); /* "tid", "laneid", ... */
const char *ir_op_name(Op op);          /* "copy", "bz", "gamma", ... */
static inline bool ir_is_gsa(Op op)
{
	return op == OP_PHI || op == OP_GAMMA || op == OP_MU || op == OP_ETA;
}
static inline bool ir_is_branch(Op op) /* bz / bnz; inline: every step asks */
{
	return op == OP_BZ || op == OP_BNZ;
}
bool ir_ends_block(Op op); /* bz bnz jump stop exit call ret */
/* Does the instruction name a target label (bz, bnz, jump, call)? */
static inline bool ir_has_target(Op op)
{
	return op == OP_BZ || op == OP_BNZ || op == OP_JUMP || op == OP_CALL;
}
bool ir_is_atomic(Op op);
/* The value of a literal operand of p (owned by p). */
static inline Num ir_lit(const Program *p, const Opnd *o)
{
	return p->lits[o->lit];
}
/* Do o (of p) and x (of q) name the same value: the same variable index,
** special variable or literal value? */
bool ir_opnd_same(const Program *p, const Opnd *o, const Program *q, const Opnd *x);
/* The γ tree of ins (OP_GAMMA): a node is a predicate and two branches,
** the root (a, b, c), nested ones args[k..k+2]. */
/* gate NULL is the root (a, b, c); else a nested node of args. */
static inline const Opnd *ir_gate_pred(const Ins *ins, const Opnd *gate)
{
	return gate ? &ins->args[gate->var] : &ins->a;
}
/* The operand the node selects where its predicate is non-zero (o1) or zero (o2). */
static inline const Opnd *ir_gate_side(const Ins *ins, const Opnd *gate, bool nonzero)
{
	if (!gate)
		return nonzero ? &ins->b : &ins->c;
	return &ins->args[gate->var + (nonzero ? 1 : 2)];
}
/* Is o one of γ's predicates (the root's or a nested node's)? */
bool ir_gate_is_pred(const Ins *ins, const Opnd *o);
/* Maximum nesting of γ in a γ (the parser's limit; trees stay small). */
#define IR_GATE_MAX_DEPTH 64
/* Name of the first label of instruction pc, or NULL. */
const char *ir_label_of(const Program *p, int32_t pc);
/* The threads and the warp size a run of p has (language.md, directives):
** the options' when positive, else the program's .threads and .warpsize,
** else 4 threads in one warp; a warp has at most all the threads. */
typedef struct WarpShape {
	int64_t threads, warpsize;
} WarpShape;
WarpShape ir_warp_shape(const Program *p, int64_t threads, int64_t warpsize);
/* How a report names an instruction: its first label, else "@LINE". */
void ir_print_where(Buf *b, const Program *p, int32_t pc);

void ir_print_opnd(Buf *b, const Program *p, const Opnd *o);
/* One instruction in canonical syntax (no label, no newline). */
void ir_print_ins(Buf *b, const Program *p, const Ins *ins);
/* The whole program, re-parsable: directives, then one statement per line
** with its labels; matrix groups are printed as one matrix statement. */
void ir_print(Buf *b, const Program *p);
/* The same, written out as it goes (Sink, util.h). */
void ir_print_to(Buf *b, const Program *p, const Sink *sink);
/* The directives alone (.kernel ... .data), then a blank line if any. */
void ir_print_directives(Buf *b, const Program *p);

#endif
