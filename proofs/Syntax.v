(* Syntax.v — core μ-SIMD (semantics.md §1, musimd-lang(7)): the
   instructions of Table 3.1 that the mechanised fragment covers, the rule
   names of the traces and the opcodes of src/ir.h.

   The fragment: copies, unary and binary operators (language.md §4.1, the
   exact ℤ arithmetic of src/num.c), loads and stores of shared memory,
   atominc, bz/bnz, jump, sync and stop.  Not in it: φ/γ/μ/η, local memory,
   atomadd/atomcas/atomexch, exit, barrier, call and ret (their opcodes are named below
   so that the name test covers the whole Op enum). *)
Require Import ZArith List String.
Import ListNotations.
Local Open Scope string_scope.

(* Binary operators, ORDER BINOP of src/num.h. *)
Inductive binop :=
  | Add | Sub | Mul | Div | Mod
  | Lt | Le | Gt | Ge | Eq | Ne
  | And | Or | Xor | Shl | Shr
  | Land | Lor | Min | Max.

Definition binops : list binop :=
  [Add; Sub; Mul; Div; Mod; Lt; Le; Gt; Ge; Eq; Ne;
   And; Or; Xor; Shl; Shr; Land; Lor; Min; Max].

(* num_binop_name (src/num.c) *)
Definition binop_name (o : binop) : string :=
  match o with
  | Add => "add" | Sub => "sub" | Mul => "mul" | Div => "div" | Mod => "mod"
  | Lt => "lt" | Le => "le" | Gt => "gt" | Ge => "ge" | Eq => "eq" | Ne => "ne"
  | And => "and" | Or => "or" | Xor => "xor" | Shl => "shl" | Shr => "shr"
  | Land => "land" | Lor => "lor" | Min => "min" | Max => "max"
  end.

(* Unary operators, UnOp of src/num.h. *)
Inductive unop := Neg | Not | Bnot.

(* Special variables (Special of src/ir.h). *)
Inductive special := STid | SLaneid | SWarpid | SNtid | SNwarps | SWarpsize.

(* Operands: a variable, a literal, a special variable. *)
Inductive opnd :=
  | OVar (x : nat)
  | OLit (z : Z)
  | OSpec (s : special).

(* Instructions; branch targets and pcs are 0-based instruction indices. *)
Inductive ins :=
  | ICopy (d : nat) (a : opnd)
  | IUnary (u : unop) (d : nat) (a : opnd)
  | IBinary (o : binop) (d : nat) (a b : opnd)
  | ILoad (d : nat) (a : opnd)           (* d = mem[a]        LD *)
  | IStore (a b : opnd)                  (* mem[a] = b        ST *)
  | IAtominc (d : nat) (a : opnd)        (* d = atominc(a)    AT *)
  | IBz (a : opnd) (L : nat)
  | IBnz (a : opnd) (L : nat)
  | IJump (L : nat)
  | ISync
  | IStop.

Definition program := list ins.

(* The opcodes of src/ir.h (enum Op), in its order; ir_op_name. *)
Inductive opcode :=
  | OP_COPY | OP_UNARY | OP_BINARY | OP_LOAD | OP_STORE | OP_LLOAD | OP_LSTORE
  | OP_ATOMINC | OP_ATOMADD | OP_ATOMCAS | OP_ATOMEXCH
  | OP_PHI | OP_GAMMA | OP_MU | OP_ETA
  | OP_BZ | OP_BNZ | OP_JUMP | OP_SYNC | OP_STOP | OP_EXIT | OP_BARRIER
  | OP_CALL | OP_RET.

Definition opcodes : list opcode :=
  [OP_COPY; OP_UNARY; OP_BINARY; OP_LOAD; OP_STORE; OP_LLOAD; OP_LSTORE;
   OP_ATOMINC; OP_ATOMADD; OP_ATOMCAS; OP_ATOMEXCH;
   OP_PHI; OP_GAMMA; OP_MU; OP_ETA;
   OP_BZ; OP_BNZ; OP_JUMP; OP_SYNC; OP_STOP; OP_EXIT; OP_BARRIER;
   OP_CALL; OP_RET].

Definition opcode_name (o : opcode) : string :=
  match o with
  | OP_COPY => "copy" | OP_UNARY => "unary" | OP_BINARY => "binary"
  | OP_LOAD => "load" | OP_STORE => "store" | OP_LLOAD => "lload"
  | OP_LSTORE => "lstore" | OP_ATOMINC => "atominc" | OP_ATOMADD => "atomadd"
  | OP_ATOMCAS => "atomcas" | OP_ATOMEXCH => "atomexch"
  | OP_PHI => "phi" | OP_GAMMA => "gamma" | OP_MU => "mu" | OP_ETA => "eta"
  | OP_BZ => "bz" | OP_BNZ => "bnz" | OP_JUMP => "jump" | OP_SYNC => "sync"
  | OP_STOP => "stop" | OP_EXIT => "exit" | OP_BARRIER => "barrier"
  | OP_CALL => "call" | OP_RET => "ret"
  end.

(* Which opcode of the C code an instruction of the fragment is. *)
Definition opcode_of (i : ins) : opcode :=
  match i with
  | ICopy _ _ => OP_COPY | IUnary _ _ _ => OP_UNARY | IBinary _ _ _ _ => OP_BINARY
  | ILoad _ _ => OP_LOAD | IStore _ _ => OP_STORE | IAtominc _ _ => OP_ATOMINC
  | IBz _ _ => OP_BZ | IBnz _ _ => OP_BNZ | IJump _ => OP_JUMP
  | ISync => OP_SYNC | IStop => OP_STOP
  end.

(* The rules named in traces (Rule of src/sem.h, ORDER RULE; sem_rule_name).
   EX, BAR, NOP, CL, RT and RS belong to exit, barrier, the non-sync
   models and calls: named here so that the lists agree, never fired by
   the fragment. *)
Inductive rule := SF | BT | BF | BD | SS | SP | JP | IT | EX | BAR | NOP | CL | RT | RS.

Definition rules : list rule := [SF; BT; BF; BD; SS; SP; JP; IT; EX; BAR; NOP; CL; RT; RS].

Definition rule_name (r : rule) : string :=
  match r with
  | SF => "SF" | BT => "BT" | BF => "BF" | BD => "BD" | SS => "SS" | SP => "SP"
  | JP => "JP" | IT => "IT" | EX => "EX" | BAR => "BAR" | NOP => "NOP"
  | CL => "CL" | RT => "RT" | RS => "RS"
  end.

(* The stuck states of semantics.md §2 that the fragment can reach; each is
   reported under the name stuck_name gives it (the "rule" of an error). *)
Inductive stuck :=
  | XMV   (* read of an unassigned variable *)
  | XMM   (* read of an uninitialised cell under .memory strict *)
  | XLD | XST | XAT   (* negative address *)
  | XBP   (* division or remainder by zero, negative shift *)
  | XSF   (* stop with Π ≠ [] *)
  | XSP   (* sync with Π = [] *)
  | XPushBT | XPushBF | XPushBD  (* strict push mismatch, named after the branch rule *)
  | XEnd. (* pc outside the program (validate forbids it; "IT" in sem_step) *)

Definition stuck_name (s : stuck) : string :=
  match s with
  | XMV => "MV" | XMM => "MM" | XLD => "LD" | XST => "ST" | XAT => "AT"
  | XBP => "BP" | XSF => "SF" | XSP => "SP"
  | XPushBT => "BT" | XPushBF => "BF" | XPushBD => "BD"
  | XEnd => "IT"
  end.
