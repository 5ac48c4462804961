/*
** gsa.h — gated SSA construction (analyses.md §1).
**
** From a μ-SIMD program whose branches reconverge at their immediate
** post-dominators (the papers' single-entry-single-exit assumption), build
** its GSA form: SSA renaming (versions x.1, x.2, ... of a source variable x
** in definition order), μ at loop headers, γ at the reconvergence point of
** every if-then(-else), η at loop exits, one γ/η block per branch where
** several branches reconverge at the same point (innermost first).
** A program already in GSA form is returned as a copy, with its plain SSA
** φs converted to γ/μ/η where the controlling branch can be found.
*/
#ifndef MUSIMD_GSA_H
#define MUSIMD_GSA_H

#include "ir.h"

/* Returns the GSA program (a new Program with its cfg, as ir_load leaves
** it: re-parsable by ir_print), or NULL with errors in d (a program whose
** control flow is not structured enough to place γ/η, ...). p must have
** been loaded without errors (p->cfg set). */
Program *gsa_build(const Program *p, Diags *d);
/* The same, for a caller that frees p next: p's code (instructions,
** literals, cfg) is released as soon as the conversion no longer reads it,
** so that the result reuses its memory, and its text goes to the result
** (p keeps it when the conversion fails). Only ir_free may follow. */
Program *gsa_build_dropping(Program *p, Diags *d);

/* `musimd syncs` (syncs.h): p's text with every sync dropped and one sync
** per branch placed at its reconvergence point, in a join block of its own
** (innermost first where several branches reconverge at one point), stops
** made exits when a branch reconverges only at the end, so that the sync
** model runs it as ipdom does. False, with the reason in d, where no
** placement can do that (a loop with several exits, a short-circuit's
** shared target, an irreducible CFG). */
bool gsa_place_syncs(const Program *p, Buf *out, Diags *d);

#endif
