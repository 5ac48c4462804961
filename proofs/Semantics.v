(* Semantics.v — machine states and the corrected rules of semantics.md
   §1–§3 as inductive relations (one warp, model sync; src/sem.c and
   src/model/sync.c), with the paper-reading options as parameters. *)
Require Import ZArith List Bool Arith.
Require Import Syntax.
Import ListNotations.

(* ---- parameters (run options) ------------------------------------------ *)

Record opts := mkopts {
  bz_zero : bool;      (* true: bz jumps where v = 0 and bnz where v ≠ 0
                          (mnemonic, the default); false: the other way round
                          (--bz-polarity rules: bz as Table 3.4 prints it, bnz
                          its mirror image, as sem_split in src/data.c) *)
  strict_push : bool;  (* --strict-push *)
  mem_zero : bool;     (* .memory zero (else strict) *)
  nthreads : nat;      (* threads of the kernel (ntid) *)
  wsize : nat          (* warpsize *)
}.

(* ---- state (semantics.md §1) -------------------------------------------- *)

(* A thread's variables σ; all σ together, indexed by thread id (deferred
   PEs keep theirs). *)
Definition env := nat -> option Z.
Definition regs := nat -> env.
(* Σ: an association list, the first binding of an address wins. *)
Definition memory := list (Z * Z).

Record node := mknode { lid : nat; done : list nat; lnext : nat; todo : list nat }.

Record state := mkstate {
  theta : list nat;     (* Θ, the active thread ids *)
  rg : regs;            (* σ of every thread *)
  mem : memory;         (* Σ *)
  stack : list node;    (* Π, top first *)
  pc : nat
}.

(* A step ends in a running state or in the result of SF. *)
Inductive cfg := Run (s : state) | Halt (s : state).

Definition upd_env (sg : env) (x : nat) (v : Z) : env :=
  fun y => if Nat.eqb y x then Some v else sg y.
Definition upd_regs (R : regs) (t : nat) (sg : env) : regs :=
  fun u => if Nat.eqb u t then sg else R u.

Fixpoint mread (m : memory) (a : Z) : option Z :=
  match m with
  | [] => None
  | (b, v) :: m' => if Z.eqb a b then Some v else mread m' a
  end.
Definition mwrite (m : memory) (a v : Z) : memory := (a, v) :: m.

(* ---- operators (src/num.c: exact ℤ, truncating / and %) ----------------- *)

Definition zbool (b : bool) : Z := if b then 1%Z else 0%Z.

(* None: rule BP cannot apply. *)
Definition binop_f (o : binop) (a b : Z) : option Z :=
  match o with
  | Add => Some (a + b)%Z | Sub => Some (a - b)%Z | Mul => Some (a * b)%Z
  | Div => if Z.eqb b 0 then None else Some (Z.quot a b)
  | Mod => if Z.eqb b 0 then None else Some (Z.rem a b)
  | Lt => Some (zbool (Z.ltb a b)) | Le => Some (zbool (Z.leb a b))
  | Gt => Some (zbool (Z.ltb b a)) | Ge => Some (zbool (Z.leb b a))
  | Eq => Some (zbool (Z.eqb a b)) | Ne => Some (zbool (negb (Z.eqb a b)))
  | And => Some (Z.land a b) | Or => Some (Z.lor a b) | Xor => Some (Z.lxor a b)
  | Shl => if Z.ltb b 0 then None else Some (Z.shiftl a b)
  | Shr => if Z.ltb b 0 then None else Some (Z.shiftr a b)
  | Land => Some (zbool (negb (Z.eqb a 0) && negb (Z.eqb b 0)))
  | Lor => Some (zbool (negb (Z.eqb a 0) || negb (Z.eqb b 0)))
  | Min => Some (Z.min a b) | Max => Some (Z.max a b)
  end.

Definition unop_f (u : unop) (a : Z) : Z :=
  match u with
  | Neg => (- a)%Z
  | Not => zbool (Z.eqb a 0)
  | Bnot => Z.lnot a
  end.

Section Rules.
Variable o : opts.

Definition special_val (t : nat) (s : special) : Z :=
  Z.of_nat match s with
  | STid => t
  | SLaneid => Nat.modulo t (wsize o)
  | SWarpid => Nat.div t (wsize o)
  | SNtid => nthreads o
  | SNwarps => Nat.div (nthreads o + wsize o - 1) (wsize o)
  | SWarpsize => wsize o
  end.

(* ---- data rules (Table 3.5, semantics.md §3) ---------------------------- *)

(* The operand judgement: MT (tid and the other specials), MV, literals. *)
Inductive eval (t : nat) (sg : env) : opnd -> Z -> Prop :=
  | E_MT : forall s, eval t sg (OSpec s) (special_val t s)
  | E_MV : forall x v, sg x = Some v -> eval t sg (OVar x) v
  | E_LIT : forall z, eval t sg (OLit z) z.

(* Reading a cell: strict memory has no value for a cell never written. *)
Definition mget (m : memory) (a : Z) : option Z :=
  match mread m a with
  | Some v => Some v
  | None => if mem_zero o then Some 0%Z else None
  end.

(* (t, σ, Σ, ι) → (σ', Σ'): CT/AS, BP (unary too), LD, ST, AT. *)
Inductive dstep (t : nat) (sg : env) (m : memory) : ins -> env -> memory -> Prop :=
  | D_CT : forall d a v, eval t sg a v -> dstep t sg m (ICopy d a) (upd_env sg d v) m
  | D_UN : forall u d a v, eval t sg a v ->
      dstep t sg m (IUnary u d a) (upd_env sg d (unop_f u v)) m
  | D_BP : forall op d a b v1 v2 r, eval t sg a v1 -> eval t sg b v2 ->
      binop_f op v1 v2 = Some r -> dstep t sg m (IBinary op d a b) (upd_env sg d r) m
  | D_LD : forall d a ad v, eval t sg a ad -> (0 <= ad)%Z -> mget m ad = Some v ->
      dstep t sg m (ILoad d a) (upd_env sg d v) m
  | D_ST : forall a b ad v, eval t sg a ad -> (0 <= ad)%Z -> eval t sg b v ->
      dstep t sg m (IStore a b) sg (mwrite m ad v)
  | D_AT : forall d a ad v, eval t sg a ad -> (0 <= ad)%Z -> mget m ad = Some v ->
      dstep t sg m (IAtominc d a) (upd_env sg d (v + 1)%Z) (mwrite m ad (v + 1)%Z).

(* Rule TL with its base case: the PEs execute ι one after another in the
   order of the list, threading Σ. *)
Inductive tl : list nat -> regs -> memory -> ins -> regs -> memory -> Prop :=
  | TL_NIL : forall R m i, tl [] R m i R m
  | TL_CONS : forall t ts R m i sg' m' R'' m'',
      dstep t (R t) m i sg' m' -> tl ts (upd_regs R t sg') m' i R'' m'' ->
      tl (t :: ts) R m i R'' m''.

Definition is_data (i : ins) : bool :=
  match i with
  | ICopy _ _ | IUnary _ _ _ | IBinary _ _ _ _ | ILoad _ _ | IStore _ _
  | IAtominc _ _ => true
  | _ => false
  end.

(* Lane order (--lane-order ascending): TL runs Θ sorted by thread id. *)
Fixpoint insert (t : nat) (l : list nat) : list nat :=
  match l with
  | [] => [t]
  | u :: l' => if Nat.leb t u then t :: l else u :: insert t l'
  end.
Fixpoint isort (l : list nat) : list nat :=
  match l with [] => [] | t :: l' => insert t (isort l') end.

(* ---- control rules (Table 3.4 corrected, semantics.md §2) --------------- *)

(* Does a PE whose operand reads v take the jump? jz: the branch jumps
   where v = 0. *)
Definition jumps (jz : bool) (v : Z) : bool := Bool.eqb jz (Z.eqb v 0).

(* split(Θ, v) = (Θ_f, Θ_j), in the order of Θ. *)
Inductive split (jz : bool) (R : regs) (a : opnd) : list nat -> list nat -> list nat -> Prop :=
  | SPL_NIL : split jz R a [] [] []
  | SPL_JMP : forall t ts v f j, eval t (R t) a v -> jumps jz v = true ->
      split jz R a ts f j -> split jz R a (t :: ts) f (t :: j)
  | SPL_FALL : forall t ts v f j, eval t (R t) a v -> jumps jz v = false ->
      split jz R a ts f j -> split jz R a (t :: ts) (t :: f) j.

(* push(Π, Θ_j, pc, L), generalised; under --strict-push None where the
   printed equations have no case (a top node with Θ_done ≠ ∅). *)
Definition push (st : list node) (tj : list nat) (p L : nat) : option (list node) :=
  match st with
  | n :: rest =>
      if strict_push o && negb (match done n with [] => true | _ => false end)
      then None
      else if Nat.eqb (lid n) p && Nat.eqb (lnext n) L
           then Some (mknode (lid n) (done n) (lnext n) (todo n ++ tj) :: rest)
           else Some (mknode p [] L tj :: st)
  | [] => Some [mknode p [] L tj]
  end.

(* The branch an instruction is: its operand, target and whether it jumps
   where the operand is 0 (bz under the mnemonic reading, bnz under the
   literal one). *)
Definition branch_of (i : ins) : option (opnd * nat * bool) :=
  match i with
  | IBz a L => Some (a, L, bz_zero o)
  | IBnz a L => Some (a, L, negb (bz_zero o))
  | _ => None
  end.

Definition with_stack_pc (s : state) (st : list node) (p : nat) : state :=
  mkstate (theta s) (rg s) (mem s) st p.

(* One warp instruction: the first matching rule wins (the premises below
   are mutually exclusive, so the order is built into them). *)
Inductive step (P : program) (s : state) : rule -> cfg -> Prop :=
  | R_SF : nth_error P (pc s) = Some IStop -> stack s = [] -> step P s SF (Halt s)
  | R_BT : forall i a L jz j st',
      nth_error P (pc s) = Some i -> branch_of i = Some (a, L, jz) ->
      split jz (rg s) a (theta s) [] j ->
      push (stack s) [] (pc s) L = Some st' ->
      step P s BT (Run (with_stack_pc s st' L))
  | R_BF : forall i a L jz t f st',
      nth_error P (pc s) = Some i -> branch_of i = Some (a, L, jz) ->
      split jz (rg s) a (theta s) (t :: f) [] ->
      push (stack s) [] (pc s) L = Some st' ->
      step P s BF (Run (with_stack_pc s st' (S (pc s))))
  | R_BD : forall i a L jz t f u j st',
      nth_error P (pc s) = Some i -> branch_of i = Some (a, L, jz) ->
      split jz (rg s) a (theta s) (t :: f) (u :: j) ->
      push (stack s) (u :: j) (pc s) L = Some st' ->
      step P s BD (Run (mkstate (t :: f) (rg s) (mem s) st' (S (pc s))))
  | R_SS : forall n rest,
      nth_error P (pc s) = Some ISync -> stack s = n :: rest -> todo n <> [] ->
      step P s SS (Run (mkstate (todo n) (rg s) (mem s)
                          (mknode (lid n) (done n ++ theta s) (lnext n) [] :: rest)
                          (lnext n)))
  | R_SP : forall n rest,
      nth_error P (pc s) = Some ISync -> stack s = n :: rest -> todo n = [] ->
      step P s SP (Run (mkstate (done n ++ theta s) (rg s) (mem s) rest (S (pc s))))
  | R_JP : forall L, nth_error P (pc s) = Some (IJump L) ->
      step P s JP (Run (with_stack_pc s (stack s) L))
  | R_IT : forall i R' m',
      nth_error P (pc s) = Some i -> is_data i = true ->
      tl (isort (theta s)) (rg s) (mem s) i R' m' ->
      step P s IT (Run (mkstate (theta s) R' m' (stack s) (S (pc s)))).

End Rules.
