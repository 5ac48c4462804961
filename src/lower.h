/*
** lower.h — μ-SIMD lowered to SM code (architecture.md: IR --lower--> SM
** code --sm--> cycles): per instruction its unit and opcode class, the
** registers it reads and writes, and where a branch reconverges. The SM
** model (sm/) times the instructions; their effect is still the step
** function's, at issue.
*/
#ifndef MUSIMD_LOWER_H
#define MUSIMD_LOWER_H

#include "ir.h"

/* The function unit an instruction goes to (GPGPU-Sim's pipelines). */
typedef enum SmUnit {
	UNIT_INT,  /* integer ALU: arithmetic, compares, copies, control */
	UNIT_SFU,  /* integer division and remainder (GPGPU-Sim: "All Div operations are executed on SFU") */
	UNIT_MEM,  /* LD/ST: shared and local memory, atomics */
	UNIT__COUNT
} SmUnit;

const char *lower_unit_name(SmUnit u); /* "INT", "SFU", "MEM" */

/* At most this many registers read by one instruction (mem[a] = b: 2;
** atomcas: 3). */
#define LOWER_MAX_SRC 3

typedef struct SmIns {
	uint8_t unit;    /* SmUnit */
	uint8_t oclass;  /* the -ptx_opcode_latency_int entry (SM_ADD ... SM_DIV, sm.h) */
	uint8_t nsrc;
	bool control;    /* bz bnz jump sync stop exit barrier: the next pc comes from the model */
	int32_t dst;     /* register written, or -1 */
	int32_t src[LOWER_MAX_SRC]; /* registers read (distinct) */
	int32_t rpc;     /* a branch: where it reconverges (its immediate post-dominator's
	                 ** first pc; -1 the virtual exit); -1 otherwise */
} SmIns;

typedef struct SmCode {
	const Program *prog;
	SmIns *ins;      /* per pc */
	int32_t nins;
	int32_t nregs;   /* registers per thread: the variables, numbered by first definition */
	int32_t maxlive; /* the most of them live at one point: the registers an allocator needs
	                 ** without spills, which occupancy counts (-musimd_regs_per_thread 0) */
	int32_t *reg_of; /* per variable: its register, -1 for one never defined (parameters) */
	/* per register: its live interval over the pcs in program order (the
	** linear scan's, sm/regalloc.c): from the first pc where it is live or
	** defined to the last, whole blocks where it is live in or out */
	int32_t *live_lo, *live_hi;
} SmCode;

/* Lower p (p->cfg set; plain form: a program in GSA form is refused with
** an error in d). NULL on error. */
SmCode *lower(const Program *p, Diags *d);
void lower_free(SmCode *c);

#endif
