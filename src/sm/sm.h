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

/* One cache of the memory hierarchy, as GPGPU-Sim's -gpgpu_cache:dl1 and
** -gpgpu_cache:dl2 strings give it (gpu-cache.h's syntax, see
** docs/sm-config.md): [N|S:]nsets:line:assoc,repl:write:alloc:write_alloc:
** set_index,mshr:entries:max_merge[,miss_queue:result_fifo[,data_port]]. */
typedef struct SmCacheConfig {
	int32_t nsets, line, assoc;
	int32_t mshr_entries, mshr_max_merge;
	int32_t miss_queue, result_fifo, data_port_width; /* accepted, not modelled */
	bool enabled;            /* false: "none" */
	bool sectored;           /* S: 128-byte lines of 4 × 32-byte sectors */
	char repl;               /* L (LRU) | F (FIFO) */
	char write;              /* R | B | T | E | L (local write-back, global write-through) */
	char alloc;              /* m (on miss) | f (on fill) | s (streaming) */
	char write_alloc;        /* N | W | F | L (lazy fetch on read) */
	char set_index;          /* L | H | P | C | X: accepted; the model indexes linearly */
	char mshr_type;          /* A | S (per line, per sector) | F | T (their FIFO forms) */
	/* (no padding: sm_config_* compare configurations byte by byte) */
} SmCacheConfig;

/* GPGPU-Sim's opcode classes of -ptx_opcode_latency_int (ADD,MAX,MUL,MAD,DIV,SHFL). */
enum { SM_ADD, SM_MAX, SM_MUL, SM_MAD, SM_DIV, SM_SHFL, SM_NOPCLASS };

typedef struct SmConfig {
	/* SM resources (-gpgpu_shader_core_pipeline THREADS:WARPSIZE, ...) */
	int32_t max_threads, warp_size;
	int32_t registers;            /* -gpgpu_shader_registers */
	int32_t max_cta;              /* -gpgpu_shader_cta */
	/* CTAs and occupancy (cta.c) */
	int32_t registers_per_block;  /* -gpgpu_registers_per_block: one CTA's registers at most */
	int32_t cta_threads;          /* -musimd_cta_threads: threads per CTA; 0: one CTA of them all */
	int32_t regs_per_thread;      /* -musimd_regs_per_thread: 0: the lowered program's registers */
	int32_t reg_alloc_unit;       /* -musimd_reg_alloc_unit: registers per thread rounded up to a
	                              ** multiple of this (GPGPU-Sim: 4, `(regs + 3) & ~3`) */
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
	int64_t aware_timeout;        /* -gpgpu_simd_rec_time_out: AWARE gives up waiting after this many
	                              ** cycles without an arrival (§5.7); 0 never (-1 in the file) */
	int32_t aware_st_insert;      /* -musimd_aware_st_insert: cycles a divergent branch's ST insert
	                              ** holds the warp under aware and mp (seed 004 §5.3: 1; 0 free) */
	int32_t stage_overhead;       /* -musimd_gpgpusim_stage_overhead */
	int64_t kernel_launch_latency;
	/* BOWS and DDOS (sm/bows.c, seed 004 §6), under ElTantawy's fork's
	** option names; used by a bows:INNER scheduler */
	int32_t ddos_threshold;       /* -gpgpu_spin_detection_limit: t, SIB-PT confidence to confirm */
	int32_t ddos_path_bits;       /* -gpgpu_path_history_length_per_instance: m, bits per path entry */
	int32_t ddos_path_len;        /* -gpgpu_path_history_instances: l, path entries */
	int32_t ddos_value_bits;      /* -gpgpu_value_history_length_per_instance: 2k, bits per value entry */
	int32_t ddos_value_len;       /* -gpgpu_value_history_instances: value entries */
	int32_t ddos_hash;            /* -gpgpu_hashing_function: 0 MODULO, 1 XOR */
	int32_t bows_backoff_mode;    /* -gpgpu_synchronization_backoff_mode: 1 none, 2 fixed, 3 adaptive */
	int32_t bows_delay;           /* -gpgpu_backoff_per_thread: the delay limit (fixed), its minimum (adaptive) */
	int32_t bows_window;          /* -gpgpu_contention_epoch: T, the adaptive limit's window in cycles */
	/* the memory hierarchy behind the LD/ST unit (sm/ldst.c): where
	** μ-SIMD's mem[] lives, coalescing, the sectored L1 with its MSHRs,
	** fixed-latency L2 and DRAM; local[] always goes through the L1 */
	bool sigma_global;            /* -musimd_sigma global (default shared) */
	int32_t coalesce_arch;        /* -gpgpu_coalesce_arch: >= 40 sectors (32 B), else 128 B segments */
	SmCacheConfig l1, l2;         /* -gpgpu_cache:dl1, -gpgpu_cache:dl2 (per memory sub-partition) */
	int32_t l1_latency;           /* -gpgpu_l1_latency */
	int32_t l1_banks;             /* -gpgpu_l1_banks */
	int32_t l1_banks_byte_interleaving; /* -gpgpu_l1_banks_byte_interleaving */
	bool gmem_skip_l1d;           /* -gpgpu_gmem_skip_L1D: global accesses bypass the L1 */
	bool local_mem_map;           /* -gpgpu_local_mem_map: local words interleaved by thread */
	int32_t n_mem, n_sub_partition; /* -gpgpu_n_mem, -gpgpu_n_sub_partition_per_mchannel */
	int32_t l2_rop_latency;       /* -gpgpu_l2_rop_latency (core cycles) */
	int32_t dram_latency;         /* -dram_latency (DRAM cycles: scaled by the core/DRAM clocks) */
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c): the
	** register banks are -gpgpu_num_reg_banks, read
	** -gpgpu_reg_file_port_throughput times a cycle (above) */
	bool reg_bank_use_warp_id;    /* -gpgpu_reg_bank_use_warp_id: bank = (reg + warp) mod banks */
	bool specialized_oc;          /* -gpgpu_enable_specialized_operand_collector */
	int32_t oc_units_gen, oc_units_sp, oc_units_int, oc_units_sfu, oc_units_mem; /* -gpgpu_operand_collector_num_units_* */
	bool ibuffer;                 /* -musimd_ibuffer: fetch and the I-buffer modelled (0: always full) */
	int32_t inst_fetch_throughput; /* -gpgpu_inst_fetch_throughput */
	bool perfect_icache;          /* -gpgpu_perfect_inst_const_cache */
	int32_t icache_miss_latency;  /* -musimd_icache_miss_latency */
	/* register allocation with spilling (sm/regalloc.c, seed 001 ch. 4) */
	int32_t regalloc;             /* -musimd_regalloc: an RaKind (regallocs[]); 0 none */
	int32_t max_regs;             /* -musimd_max_regs: the allocator's budget; 0 its own (9 or 8) */
	/* the schedulers' walk (core.c, "the walk by classes"): not an option;
	** true asks warp_ready about every warp a walk passes, which must give
	** the same run (tests/test_sm_walk.c compares the two) */
	bool walk_every_warp;
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

/* A warp-scheduling policy (-gpgpu_scheduler NAME, or NAME:ARGS for one
** that takes arguments): one line of warp_scheds[]. */
typedef struct WarpSched {
	const char *name;
	const char *summary;
	const char *args;   /* the arguments' syntax after NAME: ("N", "N:0:1", "INNER"), or NULL: none */
	const char *param;  /* what they are */
	/* The warps of scheduler s (their indexes, ascending: the oldest first)
	** in the order this cycle tries them, into out; how many (n, or fewer
	** for a policy that offers only some: two_level_active's active set). */
	int32_t (*order)(const SmCore *core, int32_t s, const int32_t *warps, int32_t n, int32_t *out);
	/* For a policy whose order is a rotation of that list (round robin):
	** where it starts this cycle; the core then walks the list without
	** copying it. NULL: order. */
	int32_t (*rotation)(const SmCore *core, int32_t s, int32_t n);
	/* Optional (NULL for the stateless policies). init: read ARGS and set
	** up core->sched_state (false with why in why); fini: free it. */
	bool (*init)(SmCore *core, const char *args, Buf *why);
	void (*fini)(SmCore *core);
	/* Warp w of scheduler s issues the instruction at its pc, before it
	** executes (its sources hold the values it reads). */
	void (*on_issue)(SmCore *core, int32_t s, int32_t w);
	/* The first cycle at which the order may change with no issue (the
	** core's sleeping schedulers wake then); NULL: only at an issue. */
	int64_t (*wake)(const SmCore *core, int32_t s);
	/* With rotation, for a greedy policy: the position in the list of the
	** warp tried before the rotation (which then skips it), or -1: none.
	** NULL: none. */
	int32_t (*greedy)(const SmCore *core, int32_t s);
	/* The rotation when the core computes it itself (no call each cycle;
	** the same as rotation's): WS_ROTATION_CALL (0) call rotation, _AFTER_LAST
	** the position after the last issue's (lrr), _ZERO the list's start. */
	int8_t rotation_kind;
} WarpSched;

enum { WS_ROTATION_CALL, WS_ROTATION_AFTER_LAST, WS_ROTATION_ZERO };

extern const WarpSched *const warp_scheds[]; /* NULL-terminated */
/* Set up core's scheduler from spec (-gpgpu_scheduler NAME[:ARGS]):
** core->sched, sched_param, sched_state. false with a message in why when
** no policy has that name (the names, the closest) or ARGS are wrong. */
bool warp_sched_setup(SmCore *core, const char *spec, Buf *why);
void warp_sched_free(SmCore *core);

/* The SIB prediction table's entries (seed 004 §6.4, Table 6.2: 16 per SM). */
#define SM_SIBPT_SIZE 16

/* ---- occupancy (sm/cta.c) ------------------------------------------------ */

enum { SM_LIMIT_THREADS = 1, SM_LIMIT_REGS = 2, SM_LIMIT_CTAS = 4 };

/* How many CTAs fit on the SM at once: GPGPU-Sim's max_cta, the least of
** threads (padded to whole warps), registers and -gpgpu_shader_cta. */
typedef struct SmOccupancy {
	int32_t ctas;          /* CTAs resident at most (0: one does not fit) */
	int32_t by_threads, by_regs, by_cta;
	int32_t padded;        /* a CTA's threads padded to whole warps */
	int32_t regs;          /* registers per thread as allocated (rounded up) */
	unsigned limited_by;   /* the SM_LIMIT_* equal to ctas */
} SmOccupancy;

bool sm_occupancy(const SmConfig *c, int32_t cta_threads, int32_t regs, SmOccupancy *o);
/* The limits' names as GPGPU-Sim prints them, bit i of limited_by: threads,
** regs, cta_limit; NULL-terminated. */
extern const char *const sm_limit_names[];

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
	WS_NOT_RESIDENT, /* its CTA waits for room on the SM */
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c) */
	WS_IBUFFER,      /* its I-buffer is empty: waiting for a fetch */
	WS_CONTROL,      /* a control hazard: its I-buffer was flushed after a branch, waiting for the refetch */
	WS_COLLECTOR,    /* its scheduler's operand collector units are all busy */
	WS__COUNT,
	/* BOWS: backed off after a spin-inducing branch, its back-off delay
	** pending; counted apart (SmResult.backed_off): SmWarpStats stays as
	** small as the hot loop wants it */
	WS_BACKED_OFF = WS__COUNT
} SmWarpState;

const char *sm_warp_state_name(SmWarpState s);

typedef struct SmWarpStats {
	uint64_t warp_insn, thread_insn;
	uint64_t cycles[WS__COUNT];
} SmWarpStats;

/* The memory hierarchy's statistics (sm/ldst.c), GPGPU-Sim's names. */
enum { SM_G_LD, SM_G_ST, SM_L_LD, SM_L_ST, SM_NACCESS }; /* G_MEM_LD, G_MEM_ST, L_MEM_LD, L_MEM_ST */
typedef struct SmCacheStats {
	uint64_t accesses, misses, pending_hits, reservation_fails;
} SmCacheStats;
typedef struct SmMemStats {
	uint64_t load_insn, store_insn, shmem_insn; /* gpgpu_n_{load,store,shmem}_insn: thread accesses */
	uint64_t transactions[SM_NACCESS];  /* coalesced: gld_ gst_ local_load_ local_store_transactions */
	uint64_t requests[SM_NACCESS];      /* to L2: gpgpu_n_mem_{read,write}_{global,local} */
	uint64_t atomic_transactions;       /* global atomics (performed at the L2) */
	SmCacheStats l1, l2;                /* L1D_total_cache_*, L2_total_cache_* */
	uint64_t resource_stall;            /* gpgpu_stall_shd_mem[gl_mem][resource_stall]: L1 bank conflicts */
	uint64_t coal_stall;                /* gpgpu_stall_shd_mem[gl_mem][coal_stall]: more accesses than L1 banks */
	uint64_t mshr_stall[SM_NACCESS];    /* gpgpu_stall_shd_mem[*][mshr_rc]: no MSHR or line to reserve */
	uint64_t dram_accesses;             /* L2 misses that went to DRAM (reads) */
} SmMemStats;

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
	/* CTAs (cta.c) */
	SmOccupancy occupancy_limit;
	int32_t cta_threads, ncta;
	double achieved_occupancy;  /* gpu_occupancy: live resident threads / the SM's, averaged over cycles */
	SmMemStats mem;             /* the memory hierarchy's (sm/ldst.c) */
	Buf why;                    /* deadlock / livelock / stuck: what the watchdog saw */
	/* lock attempts (ElTantawy's lock statistics, seed 004 §6.7): thread
	** executions of atomcas, and those that found the cell not holding the
	** expected value (a failed acquire) */
	uint64_t lock_attempts, lock_failures;
	/* BOWS and DDOS (sm/bows.c, seed 004 §6), under a bows:INNER scheduler */
	bool bows;                  /* the scheduler is BOWS: the fields below are its */
	int32_t nsibs;              /* spin-inducing branches DDOS confirmed (SIB-PT entries) */
	int32_t sib_pc[SM_SIBPT_SIZE];      /* their pcs, in the order confirmed */
	uint64_t sib_confirmed_at[SM_SIBPT_SIZE]; /* the cycle each was confirmed */
	uint64_t sib_executions;    /* executions of a confirmed SIB: the warp backed off */
	uint64_t backoff_cycles;    /* warp-cycles a backed-off warp waited for its back-off delay */
	int64_t delay_limit;        /* the back-off delay limit at the end (adaptive: the last window's) */
	uint64_t *backed_off;       /* per warp: its cycles in WS_BACKED_OFF (NULL: not BOWS) */
	/* the front end and operand delivery (sm/fetch.c, sm/opcoll.c) */
	uint64_t single_issue, dual_issue; /* single_issue_nums, dual_issue_nums: scheduler-cycles issuing 1, >= 2 */
	uint64_t rf_conflict_cycles;  /* extra cycles results waited for register banks */
	uint64_t rf_conflict_reads;   /* register reads that waited for their bank */
	uint64_t ifetches, imisses, iflushes; /* fetches, L1I misses, I-buffer flushes (control hazards) */
	/* register allocation (sm/regalloc.c): warp instructions of spill code,
	** by what they are; ra_name NULL without an allocator */
	const char *ra_name;
	int32_t ra_regs, ra_spilled;  /* registers per thread used; variables not in a register */
	int32_t ra_local_slots, ra_shared_slots; /* spill slots per thread, per warp */
	uint64_t spill_insn;          /* all of them */
	uint64_t spill_loads, spill_stores;               /* local memory */
	uint64_t shared_spill_loads, shared_spill_stores; /* the warp's shared-memory slots */
	uint64_t remats, spill_setup;                     /* rematerialisations; the warps' base setup */
} SmResult;

/* Run code on one SM configured by c, the machine built from so (its model,
** threads, parameters, ...); c's reconvergence model is so->model when
** that is NULL. NULL with errors in d when the machine cannot be built. */
SmResult *sm_run(const SmCode *code, const SmConfig *c, const SemOptions *so, Diags *d);
/* The same, telling trace of every issue as it happens: the cycle, the
** scheduler, and the step the interpreter would report (`musimd sm
** --trace`); the machine is the one being run, after the step. */
typedef void SmTraceFn(void *ctx, int64_t cycle, int32_t sched, const Machine *m, const StepInfo *s);
SmResult *sm_run_traced(const SmCode *code, const SmConfig *c, const SemOptions *so, SmTraceFn *trace, void *ctx,
                        Diags *d);
void sm_result_free(SmResult *r);
void sm_report_text(Buf *b, const SmResult *r, const SmConfig *c);
void sm_report_json(Json *j, const SmResult *r, const SmConfig *c);
/* The keys of sm_report_json's object, into an object the caller opened
** (`--json --trace` streams the trace first). */
void sm_report_json_keys(Json *j, const SmResult *r, const SmConfig *c);

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
