/*
** ana.h — the divergence analyses (analyses.md §2, §3) on GSA programs.
**
** Simple analysis: lattice ⊤ < U < D, rules TIDD … RMUD of seed 001
** Figure 3.6, solved by graph reachability on the dependence graph and,
** for cross-checking, by a worklist over the rules (ana_simple.c).
** Polynomial analysis of degree N ≥ 0: a variable's abstract value is
** a_N·T^N + … + a_1·T + a_0 with coefficients in C = ℤ ∪ {⊤, ⊥} (Table 3.6),
** degree 1 = the affine analysis of Figure 3.8, degree 0 = constant
** propagation (ana_poly.c). T is the thread id `tid`.
**
** The analyses read a Program in GSA form (gsa_build's result, or a GSA
** program as written); instructions outside GSA's single-definition form
** are not expected. Special variables are operands (OPND_SPECIAL), not
** variables: they have fixed abstract values (analyses.md §2, §3).
*/
#ifndef MUSIMD_ANA_H
#define MUSIMD_ANA_H

#include "ir.h"

/* ---- the coefficient lattice C (Table 3.6) ----------------------------- */

typedef enum CoefKind { COEF_TOP, COEF_INT, COEF_BOT } CoefKind;

typedef struct Coef {
	uint8_t kind; /* CoefKind */
	Num n;        /* the integer when kind == COEF_INT (owned) */
} Coef;

Coef coef_top(void);
Coef coef_bot(void);
Coef coef_int(Num n);  /* takes ownership of n */
Coef coef_copy(Coef a);
void coef_free(Coef *a);
bool coef_eq(Coef a, Coef b);
bool coef_is_zero(Coef a);       /* the integer 0 */
Coef coef_meet(Coef a, Coef b);  /* ∧: ⊤ identity, c ∧ c = c, c ∧ c' = ⊥ */
Coef coef_add(Coef a, Coef b);   /* +: anything + ⊥ = ⊥ (⊤ operands: ⊤) */
Coef coef_mul(Coef a, Coef b);   /* ×: 0 × ⊥ = 0, c × ⊥ = ⊥ (c ≠ 0) */
Coef coef_neg(Coef a);
/* "3", "⊤", "⊥" (ascii: "3", "top", "bot") */
void coef_print(Buf *b, Coef a, bool ascii);

/* ---- results ----------------------------------------------------------- */

/* Classes of analyses.md §3 (simple analysis: UNIFORM or DIVERGENT). */
typedef enum VarClass {
	CLASS_UNDEFINED,       /* still ⊤ at the fixpoint */
	CLASS_CONSTANT,
	CLASS_UNIFORM,
	CLASS_CONSTANT_AFFINE,
	CLASS_AFFINE,
	CLASS_POLYNOMIAL,
	CLASS_DIVERGENT,
	CLASS__COUNT
} VarClass;

const char *ana_class_name(VarClass c); /* "constant", "constant-affine", ... */

typedef enum AnaDomain {
	ANA_SIMPLE,    /* Figure 3.6 */
	ANA_DATA_ONLY, /* Figure 3.6 without the predicate edges of γ/η (Stratton's
	               ** variance analysis, seed 003 §3.2): unsound on purpose, to show
	               ** the synchronisation dependence it misses */
	ANA_POLY,      /* Figure 3.8 generalised to degree `degree` */
} AnaDomain;

/* The largest degree of the polynomial domain (the CLI and the REPL check
** it through args_degree). The solver's work grows with the square of the
** degree (products of coefficient vectors): degree 64 analyses a 45 KB
** chain of multiplications in under a second where 1000 took 68 s, and a
** thread id below 2^22 gives no kernel a reason for T^64. */
#define ANA_MAX_DEGREE 64

typedef struct AnaOptions {
	AnaDomain domain;
	int32_t degree;   /* ANA_POLY: N ≥ 0 (default 2, the paper's default) */
	bool sub_generic; /* --sub-rule=generic: `-` and unary `-` as generic ⊕ */
	bool no_cmp_rule; /* --no-cmp-rule: comparisons as generic ⊕ (GBZA/GBNA) */
	bool worklist;    /* simple/data-only: solve with the worklist instead of reachability */
} AnaOptions;

/* Control dependences (ana_ctl.c): sets of branch predicates; a set is
** divergent once one of its predicates is, and then the variables it gates
** are divergent (temporal divergence of the reads outside a loop of values
** assigned in it; sync dependence of φ and of μ with several back edges). */
typedef struct AnaCtl {
	int32_t nsets, nins, nvars;
	int32_t *pstart, *pred_pc;  /* per set: the branches whose predicates gate it */
	int32_t *gstart, *gset;     /* per pc: the sets gating the variable it defines */
	int32_t *istart, *ipc;      /* per set: the instructions it gates */
	int32_t *vstart, *vset;     /* per variable: the sets it is a predicate of */
	int32_t *rstart, *ridx;     /* per pc: its reads outside loops, indexes into rvar/rset */
	int32_t *rvar, *rset;       /* the variable read and the loop's set */
	uint8_t *div;               /* per set: divergent (the solvers' state, final after) */
} AnaCtl;

typedef struct AnaResult {
	const Program *prog; /* the GSA program analysed (borrowed) */
	AnaOptions opt;
	int32_t nvars;       /* = prog->nvars */
	VarClass *cls;       /* per variable */
	/* ANA_POLY: per variable degree+1 coefficients, a_0 first:
	** coef[v * (degree + 1) + k] is a_k. NULL for the simple domains. */
	Coef *coef;
	/* per pc: for bz/bnz, whether the branch may diverge (its predicate is
	** not uniform/constant); false elsewhere */
	bool *branch_divergent;
	/* statistics, for the bench and the batch summary */
	uint64_t iterations; /* worklist pops (poly, simple --worklist) or nodes visited */
	AnaCtl ctl;          /* control dependences and their final states (not data-only) */
} AnaResult;

AnaResult *ana_run(const Program *gsa, const AnaOptions *o);
void ana_free(AnaResult *r);

/* Is the read of variable var (-1: any) by instruction pc made outside a
** loop that assigns var, after threads may have left it in different
** iterations (an exit branch of the loop is divergent)? The read then
** sees a divergent value whatever var's class inside the loop. */
bool ana_read_divergent(const AnaResult *r, int32_t pc, int32_t var);

/* The abstract value as the papers write it, highest degree first:
** "0·T² + 1·T + ⊥" (ascii: "0*T^2 + 1*T + bot"); simple domains: "U"/"D". */
void ana_print_value(Buf *b, const AnaResult *r, int32_t var, bool ascii);
/* a_k of variable v (borrowed); k ≤ degree. */
static inline const Coef *ana_coef(const AnaResult *r, int32_t v, int32_t k)
{
	return &r->coef[(size_t)v * (size_t)(r->opt.degree + 1) + (size_t)k];
}

/* Which variables the report lists: the parameters (declaration order),
** then every variable the program defines, in program order (cli.md). The
** caller frees *out. */
int32_t ana_listed_vars(const Program *p, int32_t **out);

/* The dependence graph (seed 001 Figure 3.7) as Graphviz: a node per
** variable and per special variable read, an edge u → v when an
** instruction defining v uses u (predicate edges of γ/η dashed), divergent
** nodes filled grey. r may be a simple or a poly result. */
void ana_print_dot(Buf *b, const Program *p, const AnaResult *r);

/* ---- internal: shared by ana.c, ana_simple.c, ana_poly.c --------------- */

/* Def-use lists, built once per run: the instructions reading variable v
** (as any operand, predicate included) are pc[start[v] .. start[v+1]-1],
** ascending, each pc once per variable. */
typedef struct AnaUses {
	int32_t *start; /* nvars + 1 */
	int32_t *pc;
} AnaUses;
void ana_uses_build(const Program *p, AnaUses *u);
void ana_uses_free(AnaUses *u);
/* The worklist both fixpoint solvers share: instructions that define a
** variable, FIFO, each at most once in the queue. Starts with all of them. */
typedef struct AnaQueue {
	const Program *p;
	int32_t *q;
	bool *in;
	int32_t n, head, count;
	uint64_t pops;
} AnaQueue;
void ana_queue_init(AnaQueue *w, const Program *p);
bool ana_queue_pop(AnaQueue *w, int32_t *pc);
/* Queue the defining instructions that read variable v. */
void ana_queue_readers(AnaQueue *w, const AnaUses *u, int32_t v);
void ana_queue_free(AnaQueue *w);
/* The k-th operand an instruction reads (a, b, c, then args), or NULL when
** k is past the last one. */
const Opnd *ana_operand(const Ins *ins, int32_t k);
void ana_queue_push(AnaQueue *w, int32_t pc); /* queue one defining instruction */
/* Control sets (ana_ctl.c). */
void ana_ctl_build(const Program *p, AnaCtl *c);
void ana_ctl_free(AnaCtl *c);
bool ana_ctl_gated(const AnaCtl *c, int32_t pc); /* a set gating pc's variable is divergent */
typedef bool (*AnaPredDiv)(void *ctx, const Opnd *pred);
typedef void (*AnaGated)(void *ctx, int32_t pc);
/* After variable v changed (v = -1: at the start, every set): each set of
** which v is a predicate becomes divergent when div says one of its
** predicates is; gated is called for every instruction it gates then. */
void ana_ctl_update(AnaCtl *c, const Program *p, int32_t v, AnaPredDiv div, void *ctx, AnaGated gated);
/* The solvers ana_run dispatches to: they fill r->cls, r->coef (poly),
** r->branch_divergent and r->iterations; r->prog, r->opt, r->nvars are set
** and the arrays allocated (cls, branch_divergent zeroed). */
void ana_simple_solve(AnaResult *r);
void ana_poly_solve(AnaResult *r);

#endif
