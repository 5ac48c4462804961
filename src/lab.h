/*
** lab.h — the reconvergence policy lab (`musimd policies`): a program run
** under a model or an `its:` policy, measured as Brandão 2013 measures
** heuristics (seed 000 digest §1.4, §8.4-§8.6) and Diamos 2011 its models
** (activity factor, zero-lane instructions): fetches, thread instructions,
** DLP, TLP and throughput with F fetch units and the cycle packing rule,
** the active-thread histogram, execute-identical fetches, memory accesses
** classified uniform / affine / scattered with their distance bins; and the
** table of programs × policies (Tables 5.3/5.4) as text, Markdown, CSV,
** JSON and an SVG chart. Every measure is read from what the step function
** reports (StepInfo) and the state just before the step, never re-derived.
*/
#ifndef MUSIMD_LAB_H
#define MUSIMD_LAB_H

#include "explore.h"
#include "model.h"
#include "sem.h"

/* The cycle packing rule (§1.4) of opportunistic SIMD with F fetch units:
** fetch groups are placed in cycles in order; a new cycle starts when F
** fetches are in the current one or when a thread already in it issues
** again. The trailing partial cycle counts (the workbench's reading: the
** released code drops it). */
typedef struct LabCycles {
	int32_t F;          /* fetch units per cycle (>= 1) */
	uint64_t *mark;     /* per thread: the cycle it issued in last, + 1 */
	int32_t nthreads;
	uint64_t cycle;     /* the current cycle, 1-based */
	int32_t placed;     /* fetches in it */
} LabCycles;
void lab_cycles_init(LabCycles *c, int32_t nthreads, int32_t fetch_units);
void lab_cycles_add(LabCycles *c, const int32_t *threads, int32_t n);
uint64_t lab_cycles_total(const LabCycles *c);
void lab_cycles_free(LabCycles *c);

/* Memory accesses of one fetch (§8.5, the released classifier): the active
** threads ascending with their addresses. Uniform: one address (one thread
** too); affine: a_i = a_0 + (t_i - t_0)·d with d = (a_1 - a_0)/(t_1 - t_0) > 0,
** *bin = floor(log2 d); else scattered (decreasing sequences too), *bin =
** floor(log2(max - min)). */
typedef enum LabAccess { LAB_UNIFORM, LAB_AFFINE, LAB_SCATTERED } LabAccess;
LabAccess lab_classify(const int32_t *tids, const int64_t *addrs, int32_t n, int32_t *bin);
const char *lab_access_name(LabAccess a);

#define LAB_BINS 64
/* The grouped bins of Figures 5.20-5.23: 0-3, 4-7, 8-15, 16-31, 32-63. */
#define LAB_GROUPS 5

typedef struct LabRow {
	char *file;
	const Model *model;
	SemStatus status;
	char *error;                 /* the run's error message, or NULL */
	int32_t threads, width;      /* threads; lanes per warp (the activity's width) */
	uint64_t fetches;            /* warp instructions issued (zero-lane ones too) */
	uint64_t thread_instructions;
	uint64_t cycles;             /* with F fetch units */
	uint64_t blocks;             /* warp executions of blocks */
	uint64_t zero_lane;          /* fetches with no active thread (tf:sandy) */
	uint64_t identical;          /* execute-identical fetches */
	double dlp, tlp, throughput, activity;
	uint64_t *hist;              /* width + 1: fetches by active threads */
	uint64_t *ident_hist;        /* width + 1: execute-identical fetches by active threads */
	uint64_t access[3];          /* LabAccess */
	uint64_t affine_bins[LAB_BINS], scattered_bins[LAB_BINS];
	bool explored;
	ExploreVerdict verdict;      /* --explore */
	uint64_t states;
} LabRow;

typedef struct LabOptions {
	SemOptions sem;              /* the machine (the model is set per row) */
	int32_t fetch_units;         /* F; 0: the number of threads */
	bool explore;                /* also the explorer's verdict (explore.md §3) */
	uint64_t max_states;         /* for the explorer; 0: its default */
} LabOptions;

/* Run p under md and measure it into row (zeroed by the caller). false when
** the options are refused (errors in d). */
bool lab_run(const Program *p, const Model *md, const LabOptions *o, LabRow *row, Diags *d);
void lab_row_free(LabRow *row);

/* A name of --policy: an its: policy with or without "its:", "rr", or any
** model's name; NULL if none. */
const Model *lab_policy_find(const char *name);
/* The default set of `policies` (every family once, FHB size 8), and all. */
int32_t lab_default_policies(const Model **out, int32_t cap);
int32_t lab_all_policies(const Model **out, int32_t cap);

/* The table (rows file-major, nfiles × npolicies). */
void lab_table_text(Buf *b, const LabRow *rows, int32_t n, bool markdown);
void lab_table_csv(Buf *b, const LabRow *rows, int32_t n);
void lab_table_json(Buf *b, const LabRow *rows, int32_t n);
/* A bar chart of DLP per policy, one bar per file. */
void lab_chart_svg(Buf *b, const LabRow *rows, int32_t n);

#endif
