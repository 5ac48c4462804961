(* Assumptions.v — prints the axioms each theorem of proofs/README.md
   rests on; proofs/check.sh demands "Closed under the global context". *)
Require Import Syntax Semantics Exec Theorems Structured Mimd.
Print Assumptions exec_correct.
Print Assumptions step_deterministic.
Print Assumptions progress.
Print Assumptions stuck_name_listed.
Print Assumptions conservation.
Print Assumptions conservation_run.
Print Assumptions conservation_from_start.
Print Assumptions stack_growth.
Print Assumptions stuck_end_only_off_program.
Print Assumptions structuredb_correct.
Print Assumptions inv_step.
Print Assumptions stack_bound_structured.
Print Assumptions stack_bound_checked.
Print Assumptions sim_step.
Print Assumptions sync_run_is_mimd_interleaving.
Print Assumptions sync_run_is_mimd_interleaving_checked.
