/*
** llvm.h — export a GSA program as LLVM IR (textual, LLVM 16) for a GPU
** kernel, so that LLVM's uniformity analysis
** (opt-16 -passes='print<uniformity>') can be compared with musimd's.
**
** Mapping: each GSA variable is an SSA value named after it (%d.1); tid →
** the work-item id intrinsic, laneid/warpid/ntid/... → their intrinsics or
** uniform expressions; parameters → kernel arguments (uniform); Σ → an
** array in the shared (workgroup) address space; local memory → a
** per-thread private array; atomics → atomicrmw / cmpxchg; γ/μ/η/φ →
** phi nodes; bz/bnz → icmp + br; sync → nothing (LLVM reconverges
** implicitly); stop/exit → ret. Values are i64 (μ-SIMD's ℤ wraps there:
** the export is for the uniformity analysis, not for running).
** Each basic block is named after the first label of its first
** instruction when it has one (else "b<pc>"), so a report can map LLVM's
** verdicts back to musimd's.
*/
#ifndef MUSIMD_LLVM_H
#define MUSIMD_LLVM_H

#include "ir.h"

typedef enum LlvmTarget { LLVM_AMDGPU, LLVM_NVPTX } LlvmTarget;

/* Append the module to b. Returns false (and errors in d) for a program
** that cannot be exported. */
bool llvm_emit(Buf *b, const Program *gsa, LlvmTarget target, Diags *d);

#endif
