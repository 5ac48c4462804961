(* Extract.v — the executable twin (Exec.exec), the name tables and the
   structured-program check with its stack bound (Structured.v), as
   OCaml (musimd_sem.ml), for the differential test (coqrun.ml). *)
Require Import Extraction ExtrOcamlBasic ExtrOcamlNatInt ExtrOcamlNativeString.
Require Import Syntax Semantics Exec Structured.
Extraction Language OCaml.
Extraction "musimd_sem.ml" exec rules rule_name opcodes opcode_name binops binop_name
  stuck_name isort mread opts state mkstate mknode is_structured stack_bound.
