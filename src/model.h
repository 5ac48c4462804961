/*
** model.h — a reconvergence model (explore.md §2): one file in model/ and
** one line of the models[] table.
**
** The data rules never change between models; only control does. The step
** function (sem.c) runs the data rules and the barrier itself and calls the
** model for branches, syncs, stop/exit and every move of a warp's pc. A
** model keeps its per-warp control state (the papers' Π, the hardware SIMT
** stack, ...) as records in the warp's CtlStack: structs of int32 fields
** (state.c packs them field by field) with nmask lane sets beside each, so
** that copying, freeing and packing a state need no model hook. Drivers (reports, the debugger, the
** REPL, the oracle) read that state only through the model's views below,
** never through its records.
*/
#ifndef MUSIMD_MODEL_H
#define MUSIMD_MODEL_H

#include "sem.h"

/* A field of a control record as people read it: a pc (-1 is the virtual
** exit ⊥), a lane set, or a number (an index, a counter). key is the JSON
** key; the text forms print the fields in this order, as the papers write
** the tuple. */
typedef struct CtlField {
	const char *key;   /* JSON: a plain name (written without escapes) */
	const char *label; /* text: `info stack`'s header */
	bool is_set;
	bool is_num;       /* a number; a negative one is none, printed "-" (JSON null) */
	bool bits;         /* a set printed as a bit string, the last lane first and lane 0
	                   ** rightmost (ElTantawy's masks: 0101 is lanes 0 and 2) */
	bool detail;       /* left out of the one-line form (the trace's stack column) */
} CtlField;

#define CTL_MAX_FIELDS 8

/* Record k of a warp's control state, field by field (pc[i] for a pc or a
** number field, set[i] for a set field). */
typedef struct CtlView {
	int32_t pc[CTL_MAX_FIELDS];
	const uint64_t *set[CTL_MAX_FIELDS];
} CtlView;

/* A control state made of several tables (aware: the splits table and the
** reconvergence table) names them; each record belongs to one. */
typedef struct CtlTable {
	const char *key;        /* JSON: the records' "table" */
	const char *name;       /* text: "ST" */
	const char *title;      /* `info stack`: "splits table" */
	const CtlField *fields; /* a record of the table */
	int32_t nfields;
	int32_t order_by;       /* the one-line form lists the records by this number field
	                        ** (the FIFO: the next to issue first), or -1: as stored */
} CtlTable;

/* Where a live lane that is not active waits (the debugger's thread states). */
typedef enum CtlWait { CTL_NOT_HELD, CTL_DEFERRED, CTL_WAITING, CTL_AT_BARRIER } CtlWait;

struct Model {
	const char *name;        /* --model NAME, JSON, REPL completion */
	const char *summary;     /* one line for help texts */
	const char *stack_name;  /* what `info stack` calls the state: "Π", "SIMT stack" */
	const CtlField *fields;  /* a record, in the papers' order; nfields 0: no stack */
	int32_t nfields;
	int32_t pushed_by;       /* the pc field naming the branch that pushed a record, or -1 */
	uint16_t rec_size, nmask; /* a record's bytes and its lane sets in the CtlStack */
	bool warps_of_one;       /* every thread is a warp of its own (mimd) */
	bool lane_pcs;           /* the threads of a warp have pcs of their own (its) */
	bool path_choice;        /* reads --path-order (SemOptions.taken_first): with
	                         ** `both`, which side of a divergent branch runs first
	                         ** is a choice of the explorer */
	bool honours_sync;       /* sync and implicit syncs (γ/η blocks) fire SS/SP; else NOP */
	bool cohorts;            /* the rules of a data step, a branch, a jump, a NOP sync and
	                         ** a barrier's arrival touch nothing but the warp's own
	                         ** lanes and control state: sem_run may run consecutive
	                         ** warps' steps at one instruction as a cohort (sem.c) */
	bool uniform_branch_go;  /* uniform_branch is model_uniform_go in every state (no
	                         ** record, no allocation): a cohort whose lanes all go one
	                         ** way moves at once (sem.c) */
	/* The control state as several tables (ntables > 0; then fields and
	** nfields are unused): the tables, and the table of record k. */
	const CtlTable *tables;
	int32_t ntables;
	int32_t (*table_of)(const Warp *, int32_t k);
	const char *alt_doc;     /* what the K of a schedule's W.K chooses (explore's text) */

	/* ---- the control rules. false: no rule applies; the model has called
	** sem_error and the driver restores Θ and the pc. */
	void (*start)(Machine *, Warp *);                               /* NULL: nothing */
	bool (*branch)(Machine *, Warp *, int32_t pc, const Ins *, Rule *); /* BT BF BD */
	/* sync at pc; at an implicit sync, ngsa > 0 is the size of the block's
	** GSA group, which SP runs (sem_gsa_group) with Θ ∪ Θ_done */
	bool (*sync)(Machine *, Warp *, int32_t pc, int32_t ngsa, Rule *);
	bool (*finish)(Machine *, Warp *, int32_t pc, bool stop, Rule *); /* SF (stop), EX (exit) */
	/* the warp's Θ leaves from for to: JP, after IT, at the barrier's release */
	void (*go)(Machine *, Warp *, int32_t from, int32_t to);
	/* A branch at pc whose active lanes all jump (jump) or all fall, when
	** the rule for it is go alone in the warp's state: the rule (BT, BF)
	** into *rule, the warp moved, true. False, nothing changed: the
	** branch rule decides. The model's branch rule takes it for such a
	** branch; sem.c's cohorts step such warps without a split. NULL:
	** always the branch rule. */
	bool (*uniform_branch)(Machine *, Warp *, int32_t pc, const Ins *, bool jump, Rule *);
	/* go for the k warps of a cohort (sem.c) that all leave from for to,
	** in the same pass counting and clearing their `entered` (how many of
	** the steps start a block execution: semantics.md §7); NULL: go warp
	** by warp. A model with go_cohort has go = model_go_along (sem.c
	** inlines it) */
	uint64_t (*go_cohort)(Machine *, const int32_t *warps, int32_t k, int32_t from, int32_t to);
	/* A ret at pc whose active threads return to different pcs (rule RS,
	** a divergence): the thread t goes to m->ret_to[t] (its return stack
	** already popped); the model places the groups (sem_ret_group). NULL:
	** the model never holds threads of different calls in one group
	** (ipdom, aware, mp: musimd-lang(7)), and the step gets stuck. */
	bool (*ret_split)(Machine *, Warp *, int32_t pc, Rule *);
	/* A model whose groups wait at a barrier one at a time (per-thread pcs):
	** parking the arriving Θ (sem.c counts the arrival, rule BAR), and the
	** release of every waiting group of the warp.
	** NULL: the whole warp arrives (rule BAR, a deadlock when some of its
	** live threads are deferred) and leaves by go. */
	void (*barrier)(Machine *, Warp *, int32_t pc);
	void (*release)(Machine *, Warp *);
	/* A model whose warps may issue one of several groups, each a choice of
	** the explorer (explore.md §1): how many there are now, and making the
	** k-th current. NULL: the warp's current group issues. */
	int32_t (*ngroups)(const Warp *);
	void (*choose)(Machine *, Warp *, int32_t k);
	/* What tells alternative k of the warp apart for fairness (explore.md
	** §3: the label is the warp and this key), given before choose. NULL:
	** the pc of the group choose makes current. */
	int32_t (*choice_key)(const Warp *, int32_t k);
	/* Alternative k's pc and lanes, for a driver that picks one by what is
	** ready (the SM model's multi-path scoreboard). NULL: the driver issues
	** the current group. */
	void (*group)(const Warp *, int32_t k, int32_t *pc, const uint64_t **lanes);

	/* ---- reading the control state */
	void (*view)(const Warp *, int32_t k, CtlView *); /* record k, 0 the bottom */
	/* Who, besides Θ, the top of the state holds back (a step line's tail):
	** deferred lanes that resume at *resume_pc, lanes waiting at *wait_pc for
	** the others to reconverge; buffers of w->nw words, cleared by the caller. */
	void (*pending)(const Warp *, uint64_t *deferred, int32_t *resume_pc, uint64_t *waiting,
	                int32_t *wait_pc);
	/* Where the live, inactive lane l is held, and its pc. */
	CtlWait (*lane_held)(const Warp *, int32_t l, int32_t *pc);
	/* At an implicit sync at pc: true when this step would run the block's
	** GSA group (SP), with the lanes it runs with in out (w->nw words). */
	bool (*gsa_lanes)(const Warp *, uint64_t *out);
	/* The debugger's `next` over the branch at pc: the stack depth at which
	** the branch's region has ended, or -1 when the model does not nest
	** regions in its stack (then: when the group is back at the ipdom). */
	int32_t (*region_depth)(const Warp *, int32_t pc);
	/* Where the branch at pc reconverges, when it is not always its
	** immediate post-dominator (aware's delayed points); NULL: it is. */
	int32_t (*reconvergence_pc)(const Machine *, int32_t pc);
};

/* The models, NULL-terminated (model/model.c); model_names lists their
** names in the same order, for word completion and choice parsing. */
#define MODEL_COUNT 8
extern const Model model_sync, model_ipdom, model_mimd, model_its_rr, model_its_any, model_aware, model_mp, model_tf;
extern const Model *const models[];
extern const char *const model_names[];
/* The names a --model option takes, for its messages and did-you-means:
** model_names, then the NULL-terminated extra, then, with variants (every
** name model_find knows), tf's variants and "its:POLICY (musimd policies
** --help)"; into words (NULL-terminated, room for MODEL_WORDS). */
#define MODEL_WORDS (MODEL_COUNT + 8)
void model_words(const char **words, const char *const *extra, bool variants);
/* The model called name ("its" is "its:rr"), or NULL. */
const Model *model_find(const char *name);
/* One help line per model, "NAME  summary", the summary wrapped at width
** columns and indented by indent (help texts are generated from the table). */
void model_help(Buf *b, int indent, int width, bool policies); /* policies: the lines of tf:sandy, tf:layout and its:P too */
/* One such line: NAME in a column of namew, the summary after it. */
void model_help_line(Buf *b, int indent, int namew, int width, const char *name, const char *summary);

/* The policy lab (model/policy.c): the per-thread-pc heuristics of seed 000
** §4-§6 as models `its:NAME` (block-boundary decisions) and `its:NAME@ins`
** (a decision before every instruction), from one table. model_find finds
** them too; its_policy_names lists their names (NULL-terminated) in the
** table's order, block-boundary and @ins alternating. */
extern const char *const its_policy_names[];
int32_t its_policy_count(void);
const Model *its_policy_model(int32_t i); /* i in the order of its_policy_names */
const Model *its_policy_find(const char *name);
/* A model's name in a table of policies: "minpc", "long:8@ins", "rr" for
** its:rr, and any other model's own name. */
const char *its_policy_key(const Model *md);
/* Does the policy order by the call depth or the stack (minpc's twin on a
** program without calls)? */
bool its_policy_uses_calls(const Model *md);
/* One help line per policy family (sizes folded into S), as model_help. */
void its_policy_help(Buf *b, int indent, int width);
/* TF-SANDY (model/tf.c): thread frontiers on per-thread pcs with
** conservative branches, zero-lane blocks issued. */
extern const Model model_tf_sandy;
/* TF-STACK with program-order priorities (model/tf.c). */
extern const Model model_tf_layout;

/* --aware-delay SPEC (model/aware.c): delayed reconvergence points, one
** BRANCH:POINT per branch, comma-separated; each a LABEL or @LINE as the
** traces print them. BRANCH names an instruction of the block the branch
** ends; POINT must post-dominate it. rpc (p->nins entries) gets POINT's pc
** at each branch, AWARE_NO_DELAY elsewhere; false with the errors in d. */
#define AWARE_NO_DELAY (-2)
bool aware_resolve_delays(const Program *p, const char *spec, int32_t *rpc, Diags *d);

/* ---- the control stack of a warp ---------------------------------------- */

static inline void *ctl_rec(const Warp *w, int32_t k)
{
	return w->ctl.recs + (size_t)k * w->ctl.rec_size;
}

static inline uint64_t *ctl_mask(const Warp *w, int32_t k, int32_t i)
{
	return w->ctl.masks + ((size_t)k * w->ctl.nmask + (size_t)i) * (size_t)w->nw;
}

/* A new record on top (its bytes and sets zeroed); grows the stack and
** charges it to the --max-memory budget. Returns its index. */
int32_t ctl_push(Machine *m, Warp *w);
/* A uniform branch as go alone: BT (all jump) or BF (all fall), the warp
** moved by the model's go (Model.uniform_branch of ipdom and mimd). */
bool model_uniform_go(Machine *m, Warp *w, int32_t pc, const Ins *ins, bool jump, Rule *rule);
/* model_go_along for a cohort: whether from -> to enters a block is
** looked at once. */
uint64_t model_go_along_cohort(Machine *m, const int32_t *warps, int32_t k, int32_t from, int32_t to);
/* sync (and implicit syncs) under a model that ignores them: rule NOP, the
** model's go to the next instruction. */
bool model_sync_nop(Machine *m, Warp *w, int32_t pc, int32_t ngsa, Rule *rule);
/* stop and exit (SF, EX) for a model whose records keep their lanes in
** mask 0: the active threads finish and leave every record; the caller
** then settles its state. */
void model_finish_lanes(Machine *m, Warp *w, bool stop, Rule *rule);
/* A branch (bz, bnz) at pc: split(Θ) into *jmp and *fall (scratch words
** of m->step_active); -1 a read of an unassigned variable (the step gets
** stuck), 1 no divergence: rule BT or BF and the model's go have run (an
** empty Θ falls through), 0 divergent: rule BD, both edges taken
** (sem_take_edge), the model places the lanes. */
int model_branch_split(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule, uint64_t **jmp,
                       uint64_t **fall);
/* Room for n records (growing as ctl_push does). */
void ctl_reserve(Machine *m, Warp *w, int32_t n);

/* ---- what the step function offers the models (sem.c) -------------------- */
/* Scratch for the control rules: m->step_active words [w->nw, 3 w->nw). */

/* split(Θ, v) = (Θ_f, Θ_j) of a bz/bnz (Table 3.1); false: a read of an
** unassigned variable (error set). */
bool sem_split(Machine *m, Warp *w, int32_t pc, const Ins *ins, uint64_t *jump, uint64_t *fall);
/* Whether to is the start of a block other than from's fall-through
** within it: only then does a move take an edge (sem_take_edge). */
static inline bool sem_enters_block(const Machine *m, int32_t from, int32_t to)
{
	const Cfg *g = m->cfg;
	return to != from + 1 || to >= m->prog->nins || g->blocks[g->block_of[to]].first == to;
}
/* Whether an edge out of from's block is kept beyond that the warp entered
** a block: for the effects, or for a GSA group that reads it. */
static inline bool sem_edge_kept(const Machine *m, int32_t from)
{
	return m->effects || (m->track_edges && m->cfg->blocks[m->cfg->block_of[from]].feeds_gsa);
}
void sem_keep_edge(Machine *m, Warp *w, int32_t from, const uint64_t *movers);
/* The PEs in movers leave the block of from for to (the edge φ/μ read). */
static inline void sem_take_edge(Machine *m, Warp *w, int32_t from, int32_t to, const uint64_t *movers)
{
	if (!sem_enters_block(m, from, to))
		return;
	w->entered = true;
	if (movers && sem_edge_kept(m, from))
		sem_keep_edge(m, w, from, movers);
}
/* JP, IT and the barrier's release for a model whose stack does not move
** with the pc (sync, mimd): Θ takes the edge from -> to. */
static inline void model_go_along(Machine *m, Warp *w, int32_t from, int32_t to)
{
	sem_take_edge(m, w, from, to, w->active);
	w->pc = to;
}
/* Θ := s. */
void sem_set_active(Warp *w, const uint64_t *s);
/* The active threads, ascending. */
const int32_t *sem_active_list(Machine *m, Warp *w, int32_t *n);
/* |Θ|: the list's length when it is made, else a count of Θ's bits. */
static inline int32_t sem_active_count(const Warp *w)
{
	return w->idx_ok ? w->nidx : bits_count(w->active, w->nw);
}
/* The step gets stuck: status st, the rule's name, a message. */
void sem_error(Machine *m, SemStatus st, const char *rule, int32_t pc, int32_t w, const int32_t *threads,
               int32_t nthreads, const char *fmt, ...) MU_PRINTF(8, 9);
/* The threads in gone finish (stop or exit). */
void sem_finish_threads(Machine *m, Warp *w, const uint64_t *gone);
void sem_warp_done(Machine *m, Warp *w);
/* call and ret (sem_call.c): the step function's rules CL, RT and RS. */
bool sem_rule_call(Machine *m, Warp *w, int32_t pc, const Ins *ins, Rule *rule);
bool sem_rule_ret(Machine *m, Warp *w, int32_t pc, Rule *rule);
/* At a divergent ret: the next group of rest (lanes of w, cleared as they
** are taken), by ascending return pc: its pc in *to and its lanes in
** group (w->nw words); false when rest is empty. */
bool sem_ret_group(const Machine *m, const Warp *w, uint64_t *rest, int32_t *to, uint64_t *group);
/* The pc every active thread of w returns to, or -1 when they are in main
** or return to different pcs: the reconvergence point of a branch whose
** immediate post-dominator is the function's exit (ipdom). */
int32_t sem_return_point(const Machine *m, const Warp *w);
/* Run the GSA group of count instructions at pc (semantics.md §4). */
bool sem_gsa_group(Machine *m, Warp *w, int32_t pc, int32_t count);

#endif
