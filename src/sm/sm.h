/*
** sm.h — the cycle-level streaming-multiprocessor model (`musimd sm`;
** ../notes/sm-model.md): μ-SIMD lowered to SM code (lower.h), run through
** warp schedulers, a scoreboard and pipelines of latency and initiation
** interval per op class, with functional execution at issue through the
** one step function (sem_step) and the reconvergence hardware being the
** Model. Options are GPGPU-Sim's (gpgpusim.config syntax, §5 of the note).
*/
#ifndef MUSIMD_SM_H
#define MUSIMD_SM_H

#include "diag.h"
#include "json.h"
#include "lower.h"
#include "sem.h"
#include "util.h"

/* ---- configuration (sm/config.c) --------------------------------------- */

/* GPGPU-Sim's opcode classes of -ptx_opcode_latency_int (ADD,MAX,MUL,MAD,DIV,SHFL). */
enum { SM_ADD, SM_MAX, SM_MUL, SM_MAD, SM_DIV, SM_SHFL, SM_NOPCLASS };

typedef struct SmConfig {
	/* SM resources (-gpgpu_shader_core_pipeline THREADS:WARPSIZE, ...) */
	int32_t max_threads, warp_size;
	int32_t registers;            /* -gpgpu_shader_registers */
	int32_t max_cta;              /* -gpgpu_shader_cta */
	/* issue */
	int32_t num_sched;            /* -gpgpu_num_sched_per_core */
	char scheduler[64];           /* -gpgpu_scheduler: a name of warp_scheds[] (sched.c) */
	int32_t max_insn_issue_per_warp;
	bool dual_issue_diff_exec_units; /* -gpgpu_dual_issue_diff_exec_units: a warp's 2nd issue in a cycle needs another unit */
	bool sub_core;                /* -gpgpu_sub_core_model: units partitioned per scheduler */
	/* units */
	int32_t num_sp, num_int, num_sfu, num_dp;
	/* latency (the dependent-issue latency, note decision 2) and initiation interval */
	int32_t lat_int[SM_NOPCLASS], ii_int[SM_NOPCLASS];
	int32_t lat_sfu, ii_sfu;
	/* shared memory */
	int32_t smem_latency;         /* -gpgpu_smem_latency */
	int32_t shmem_num_banks;      /* -gpgpu_shmem_num_banks */
	bool shmem_limited_broadcast; /* -gpgpu_shmem_limited_broadcast */
	int32_t shmem_warp_parts;     /* -gpgpu_shmem_warp_parts */
	/* register file */
	int32_t num_reg_banks, reg_file_port_throughput;
	/* clocks: core MHz (-gpgpu_clock_domains, first field) */
	double core_clock_mhz;
	double icnt_clock_mhz, l2_clock_mhz, dram_clock_mhz; /* its other three fields */
	/* limits and watchdogs */
	bool deadlock_detect;         /* -gpgpu_deadlock_detect: the commit watchdog, every 50 000 cycles */
	int64_t max_cycle, max_insn;  /* -gpgpu_max_cycle, -gpgpu_max_insn (0: none) */
	int64_t progress_window;      /* -musimd_progress_window (0: off) */
	/* reconvergence: -musimd_reconvergence (a name of models[]), -musimd_path_order */
	char reconvergence[32];
	bool taken_first;
	int32_t stage_overhead;       /* -musimd_gpgpusim_stage_overhead */
	int64_t kernel_launch_latency;
} SmConfig;

/* The default configuration (QV100-like: the note's §1.9 values). */
void sm_config_default(SmConfig *c);
/* Read gpgpusim.config text (path names it in diagnostics) into c, over
** what c holds: `-option value` lines, # comments, later lines win.
** Unknown options are errors with the closest name; options GPGPU-Sim
** knows that the model does not use are collected in ignored (one note
** from the caller lists them: space-separated names, each once). false
** on errors (in d, whose path and source should be this file's). */
bool sm_config_read(SmConfig *c, const char *path, const char *text, size_t len, Buf *ignored, Diags *d);
/* One override, "-option=value" or "-option value" (--set). Locations in
** d's diagnostics are offsets into arg: render them with d's source set to
** arg (diag_init(d, "--set", arg, strlen(arg))). */
bool sm_config_set(SmConfig *c, const char *arg, Buf *ignored, Diags *d);
/* A preset by name ("qv100", ...), or NULL: its text, in the file syntax. */
const char *sm_config_preset(const char *name);
/* The presets' names, NULL-terminated. */
extern const char *const sm_presets[];
/* The configuration as text, one `-option value` line per modelled option
** (`musimd sm --print-config`). */
void sm_config_print(const SmConfig *c, Buf *b);
/* The option table: the modelled options' names (i in [0, count); the
** aliases -gpgpu_simd_model and -trace_opcode_latency_initiation_{int,sfu}
** included), and how many GPGPU-Sim names are known but not modelled. */
int sm_config_option_count(void);
const char *sm_config_option_name(int i);
int sm_config_known_count(void);

/* ---- warp schedulers (sm/sched.c) ---------------------------------------- */

typedef struct SmCore SmCore;

/* A warp-scheduling policy (-gpgpu_scheduler NAME, or NAME:N for one that
** takes a number): one line of warp_scheds[]. */
typedef struct WarpSched {
	const char *name;
	const char *summary;
	const char *param;  /* what NAME:N's number is, or NULL: none */
	/* The warps of scheduler s (their indexes, ascending: the oldest first)
	** in the order this cycle tries them, into out. */
	void (*order)(const SmCore *core, int32_t s, const int32_t *warps, int32_t n, int32_t *out);
	/* For a policy whose order is a rotation of that list (round robin):
	** where it starts this cycle; the core then walks the list without
	** copying it. NULL: order. */
	int32_t (*rotation)(const SmCore *core, int32_t s, int32_t n);
} WarpSched;

extern const WarpSched *const warp_scheds[]; /* NULL-terminated */
/* The policy -gpgpu_scheduler names, and its number (*param, 0 without);
** NULL when it names none or the number is not a positive one. */
const WarpSched *warp_sched_find(const char *name, int64_t *param);

/* ---- running (sm/core.c) ----------------------------------------------- */

typedef enum SmStatus {
	SM_OK,          /* every thread finished */
	SM_DEADLOCK,    /* the commit watchdog: nothing committed between two checks */
	SM_LIVELOCK,    /* the progress watchdog: instructions commit, nothing changes */
	SM_STUCK,       /* no rule of the semantics applies (the interpreter's stuck) */
	SM_CYCLE_LIMIT, /* -gpgpu_max_cycle */
	SM_INSN_LIMIT,  /* -gpgpu_max_insn */
	SM_STEP_LIMIT,  /* SemOptions.max_steps (--max-steps, default 10^7): warp instructions */
	SM_TIME_LIMIT,  /* SemOptions.deadline (--max-time) */
} SmStatus;

const char *sm_status_name(SmStatus s); /* "ok", "deadlock", "livelock", "stuck", "cycle-limit", "insn-limit", "step-limit", "time-limit" */

/* Why a warp did not issue in a cycle of its scheduler (per-warp stall
** causes), or that it did. */
typedef enum SmWarpState {
	WS_ISSUED,       /* issued an instruction */
	WS_NOT_SELECTED, /* ready, another warp of its scheduler issued */
	WS_SCOREBOARD,   /* a register it reads or writes is not ready (data hazard) */
	WS_STRUCTURAL,   /* its unit cannot accept an instruction yet */
	WS_BARRIER,      /* waiting at a barrier */
	WS_FINISHED,     /* all its threads finished */
	WS__COUNT
} SmWarpState;

const char *sm_warp_state_name(SmWarpState s);

typedef struct SmWarpStats {
	uint64_t warp_insn, thread_insn;
	uint64_t cycles[WS__COUNT];
} SmWarpStats;

typedef struct SmResult {
	SmStatus status;
	Machine *m;                 /* the final state (the interpreter's view of it) */
	const char *sched_name;
	uint64_t cycles;            /* gpu_sim_cycle */
	uint64_t warp_insn;         /* warp instructions issued */
	uint64_t thread_insn;       /* gpu_sim_insn: thread instructions */
	/* GPGPU-Sim's Warp Occupancy Distribution, per scheduler-cycle: Stall
	** (a ready instruction found its unit busy), W0_Idle (no instruction:
	** no warp, finished, at a barrier), W0_Scoreboard (data hazards only),
	** Wk (an issue with k active lanes, k = 1 .. warp size) */
	uint64_t stall, idle, scoreboard;
	uint64_t *occupancy;        /* [0 .. warpsize]: occupancy[k] = Wk (occupancy[0] unused) */
	int32_t warpsize;
	SmWarpStats *warps;
	int32_t nwarps;
	uint64_t last_commit;       /* cycle of the last issue */
	uint64_t bank_conflict_cycles; /* gpgpu_stall_shd_mem[s_mem][bk_conf]: extra LD/ST cycles */
	Buf why;                    /* deadlock / livelock / stuck: what the watchdog saw */
} SmResult;

/* Run code on one SM configured by c, the machine built from so (its model,
** threads, parameters, ...); c's reconvergence model is so->model when
** that is NULL. NULL with errors in d when the machine cannot be built. */
SmResult *sm_run(const SmCode *code, const SmConfig *c, const SemOptions *so, Diags *d);
void sm_result_free(SmResult *r);
void sm_report_text(Buf *b, const SmResult *r, const SmConfig *c);
void sm_report_json(Json *j, const SmResult *r, const SmConfig *c);

/* ---- sweeps (sm/sweep.c) ------------------------------------------------ */

/* One swept option: a GPGPU-Sim option ("-gpgpu_scheduler") or "threads"
** (the program's), and its values. */
typedef struct SmSweepAxis {
	const char *name;
	char **values;
	int n;
} SmSweepAxis;

typedef struct SmSweepRow {
	const char *v1, *v2; /* the values (borrowed from the axes) */
	SmStatus status;
	uint64_t cycles, warp_insn, thread_insn;
	double simd_efficiency;
} SmSweepRow;

/* The measures a plot can show: warp_ipc, gpu_ipc, cycles, simd_efficiency. */
extern const char *const sm_sweep_metrics[];
/* Run code on base changed by every combination of the axes' values (one
** or two axes; the first varies fastest). false with errors in d (a bad
** value, a machine that cannot be built). */
bool sm_sweep(const SmCode *code, const SmConfig *base, const SemOptions *so, const SmSweepAxis *ax, int nax,
              SmSweepRow **rows, int *nrows, Diags *d);
void sm_sweep_table(Buf *b, const SmSweepAxis *ax, int nax, const SmSweepRow *rows, int n);
/* An SVG line plot of metric m (an index of sm_sweep_metrics) against the
** first axis, a line per value of the second. */
void sm_sweep_svg(Buf *b, const SmSweepAxis *ax, int nax, const SmSweepRow *rows, int n, int m);

#endif
