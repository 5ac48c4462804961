(* Theorems.v — determinism, progress and conservation of the step relation
   of Semantics.v (one warp, model sync, lane order ascending). *)
Require Import String.
Require Import ZArith List Bool Arith Lia Permutation.
Require Import Syntax Semantics Exec.
Import ListNotations.

Section Theorems.
Variable o : opts.
Variable P : program.

(* ---- determinism (semantics.md §2 "first matching rule wins", §3 lane
   order fixed): one rule and one successor per state -------------------- *)

Theorem step_deterministic : forall s r1 c1 r2 c2,
  step o P s r1 c1 -> step o P s r2 c2 -> r1 = r2 /\ c1 = c2.
Proof.
  intros s r1 c1 r2 c2 H1 H2.
  apply exec_correct in H1; apply exec_correct in H2.
  rewrite H1 in H2; inversion H2; auto.
Qed.

(* ---- progress (semantics.md §2, stuck states): every state steps, or no
   rule applies and the step function names the stuck state ------------- *)

Theorem progress : forall s,
  (exists r c, step o P s r c) \/
  (exists e, exec o P s = inl e /\ forall r c, ~ step o P s r c).
Proof.
  intros s; destruct (exec o P s) as [e|[r c]] eqn:E.
  - right; exists e; split; auto.
    intros r c H; apply exec_correct in H; congruence.
  - left; exists r, c; apply exec_correct; auto.
Qed.

(* The stuck states are exactly the errors musimd reports, under the rule
   names of semantics.md §2 ("IT" for a pc outside the program). *)
Definition stuck_names : list string :=
  ["MV"; "MM"; "LD"; "ST"; "AT"; "BP"; "SF"; "SP"; "BT"; "BF"; "BD"; "IT"]%string.

Theorem stuck_name_listed : forall e, In (stuck_name e) stuck_names.
Proof. destruct e; simpl; tauto. Qed.

(* The stuck state named IT (no instruction at pc) arises only where pc
   leaves the program: every other failure of a data instruction or a
   branch is one of MV MM LD ST AT BP, of a control rule SF SP BT BF BD. *)
Lemma eval_f_err : forall t sg a e, eval_f o t sg a = inl e -> e = XMV.
Proof.
  intros t sg a e H; destruct a; simpl in H; try discriminate.
  destruct (sg x); congruence.
Qed.

Lemma addr_f_err : forall e0 t sg a e, addr_f o e0 t sg a = inl e -> e = XMV \/ e = e0.
Proof.
  intros e0 t sg a e H; unfold addr_f in H.
  destruct (eval_f o t sg a) eqn:E.
  - inversion H; subst; left; eapply eval_f_err; eauto.
  - destruct (Z.leb 0 z); inversion H; auto.
Qed.

Lemma dstep_f_err : forall t sg m i e,
  is_data i = true -> dstep_f o t sg m i = inl e -> e <> XEnd.
Proof.
  intros t sg m i e D H; destruct i; simpl in D; try discriminate; simpl in H;
  repeat match type of H with
  | context [eval_f o ?t ?sg ?a] =>
      let E := fresh "E" in destruct (eval_f o t sg a) eqn:E;
      [apply eval_f_err in E; subst|]
  | context [addr_f o ?e0 ?t ?sg ?a] =>
      let E := fresh "E" in destruct (addr_f o e0 t sg a) eqn:E;
      [apply addr_f_err in E; destruct E; subst|]
  | context [mget_f o ?m ?ad] =>
      let E := fresh "E" in destruct (mget_f o m ad) eqn:E;
      [unfold mget_f in E; destruct (mget o m ad); inversion E; subst|]
  | context [binop_f ?op ?a ?b] => destruct (binop_f op a b)
  end; congruence.
Qed.

Lemma tl_f_err : forall ts R m i e,
  is_data i = true -> tl_f o ts R m i = inl e -> e <> XEnd.
Proof.
  induction ts as [|t ts IH]; intros R m i e D H; simpl in H; [discriminate|].
  destruct (dstep_f o t (R t) m i) as [e'|[sg' m']] eqn:E.
  - inversion H; subst; eapply dstep_f_err; eauto.
  - eapply IH; eauto.
Qed.

Lemma split_f_err : forall jz R a ts e, split_f o jz R a ts = inl e -> e = XMV.
Proof.
  induction ts as [|t ts IH]; intros e H; simpl in H; [discriminate|].
  destruct (eval_f o t (R t) a) eqn:E.
  - inversion H; subst; eapply eval_f_err; eauto.
  - destruct (split_f o jz R a ts) as [e'|[f j]]; [inversion H; subst; auto|].
    destruct (jumps jz z); discriminate.
Qed.

Theorem stuck_end_only_off_program : forall s,
  exec o P s = inl XEnd -> nth_error P (pc s) = None.
Proof.
  intros s H; unfold exec in H.
  destruct (nth_error P (pc s)) as [i|]; auto; exfalso.
  destruct i; simpl in H;
    try (destruct (stack s) as [|n rest]; [discriminate|];
         destruct (todo n); discriminate);
    try (destruct (stack s); discriminate);
    try discriminate;
    try (match type of H with
         | context [tl_f o ?ts ?R ?m ?ii] =>
             destruct (tl_f o ts R m ii) as [e|[R' m']] eqn:T; [|discriminate];
             inversion H; subst; eapply tl_f_err; eauto; reflexivity
         end);
    (match type of H with
     | context [split_f o ?jz ?R ?a ?ts] =>
         destruct (split_f o jz R a ts) as [e|[f j]] eqn:Sp;
         [ inversion H; subst; apply split_f_err in Sp; discriminate
         | destruct f, j;
           repeat match type of H with
           | context [push o ?st ?tj ?p ?L] => destruct (push o st tj p L)
           end; discriminate ]
     end).
Qed.

(* ---- conservation (semantics.md §1: Θ and the done/todo sets of Π) ------ *)

Definition stack_threads (st : list node) : list nat :=
  flat_map (fun n => done n ++ todo n) st.
Definition threads (s : state) : list nat := theta s ++ stack_threads (stack s).
Definition cfg_state (c : cfg) : state := match c with Run s => s | Halt s => s end.

Lemma stack_threads_cons : forall n st,
  stack_threads (n :: st) = (done n ++ todo n) ++ stack_threads st.
Proof. reflexivity. Qed.

Ltac counts :=
  apply (Permutation_count_occ Nat.eq_dec); intros x;
  repeat match goal with
  | H : Permutation _ _ |- _ =>
      let C := fresh "C" in
      pose proof (proj1 (Permutation_count_occ Nat.eq_dec _ _) H x) as C; clear H
  end;
  repeat rewrite stack_threads_cons in *; cbn [done todo theta stack] in *;
  repeat rewrite app_nil_l in *; repeat rewrite app_nil_r in *;
  repeat rewrite count_occ_app in *; lia.

Lemma split_perm : forall jz R a ts f j, split o jz R a ts f j -> Permutation (f ++ j) ts.
Proof.
  intros jz R a ts f j H; induction H; simpl; auto.
  - apply Permutation_sym, Permutation_cons_app, Permutation_sym; auto.
Qed.

Lemma push_perm : forall st tj p L st', push o st tj p L = Some st' ->
  Permutation (stack_threads st') (tj ++ stack_threads st).
Proof.
  intros st tj p L st' H; destruct st as [|n rest]; simpl in H.
  - inversion H; subst; unfold stack_threads; simpl; rewrite !app_nil_r; auto.
  - destruct (strict_push o && _); [discriminate|].
    destruct (Nat.eqb (lid n) p && Nat.eqb (lnext n) L); inversion H; subst; counts.
Qed.

(* No thread is lost or duplicated by a step: the threads of Θ and of the
   stack's done/todo sets are the same multiset before and after. *)
Theorem conservation : forall s r c, step o P s r c ->
  Permutation (threads (cfg_state c)) (threads s).
Proof.
  intros s r c H; unfold threads;
  destruct H as [Hn Hst|i a L jz j st' Hn Hb Hs Hp|i a L jz t f st' Hn Hb Hs Hp
                |i a L jz t f u j st' Hn Hb Hs Hp|n rest Hn Hst Ht|n rest Hn Hst Ht
                |L Hn|i R' m' Hn Hd Htl]; cbn [cfg_state theta stack with_stack_pc].
  - reflexivity.
  - apply split_perm in Hs; apply push_perm in Hp; counts.
  - apply split_perm in Hs; apply push_perm in Hp; counts.
  - apply split_perm in Hs; apply push_perm in Hp.
    remember (t :: f) as F; remember (u :: j) as J; counts.
  - rewrite Hst; counts.
  - rewrite Hst; rewrite stack_threads_cons, Ht; counts.
  - reflexivity.
  - reflexivity.
Qed.

(* Runs: the reflexive-transitive closure of the step relation. *)
Inductive steps : state -> state -> Prop :=
  | ST_REFL : forall s, steps s s
  | ST_STEP : forall s r s' s'', step o P s r (Run s') -> steps s' s'' -> steps s s''.

(* Along a run the active set and the stack's sets partition the threads
   the run started with: the same multiset, and no thread twice when there
   was none at the start (NoDup). *)
Theorem conservation_run : forall s s', steps s s' ->
  Permutation (threads s') (threads s) /\ (NoDup (threads s) -> NoDup (threads s')).
Proof.
  intros s s' H; induction H as [s|s r s' s'' Hs _ [IH1 IH2]].
  - split; auto.
  - pose proof (conservation _ _ _ Hs) as C; simpl in C.
    split.
    + eapply Permutation_trans; eauto.
    + intros N; apply IH2; eapply Permutation_NoDup; [apply Permutation_sym|]; eauto.
Qed.

(* The initial state (semantics.md §1): Θ all threads, Π = []. *)
Corollary conservation_from_start : forall ts R m p s',
  NoDup ts -> steps (mkstate ts R m [] p) s' ->
  Permutation (threads s') ts /\ NoDup (threads s').
Proof.
  intros ts R m p s' N H; apply conservation_run in H; destruct H as [H1 H2].
  unfold threads in *; simpl in *; rewrite app_nil_r in *; auto.
Qed.

(* ---- the stack (semantics.md §2, §7 max stack depth) -------------------- *)

Lemma push_length : forall st tj p L st', push o st tj p L = Some st' ->
  (length st' <= S (length st)) /\
  (length st' = S (length st) -> exists n, st' = n :: st /\ lid n = p /\ done n = []).
Proof.
  intros st tj p L st' H; destruct st as [|n rest]; simpl in H.
  - inversion H; subst; split; simpl; auto.
    intros _; eexists; split; [reflexivity|auto].
  - destruct (strict_push o && _); [discriminate|].
    destruct (Nat.eqb (lid n) p && Nat.eqb (lnext n) L); inversion H; subst; simpl.
    + split; [lia|intros E; lia].
    + split; auto; intros _; eexists; split; [reflexivity|auto].
Qed.

(* A step grows Π by at most one node, and only a branch (BT, BF, BD)
   grows it: by pushing a node (pc, ∅, L, Θ_j) on top of the old stack,
   whose l_id is the branch's own pc. SS keeps the depth, SP pops one. *)
Theorem stack_growth : forall s r c, step o P s r c ->
  (length (stack (cfg_state c)) <= S (length (stack s))) /\
  (length (stack (cfg_state c)) = S (length (stack s)) ->
     (r = BT \/ r = BF \/ r = BD) /\
     exists n, stack (cfg_state c) = n :: stack s /\ lid n = pc s /\ done n = []).
Proof.
  intros s r c H;
  destruct H as [Hn Hst|i a L jz j st' Hn Hb Hs Hp|i a L jz t f st' Hn Hb Hs Hp
                |i a L jz t f u j st' Hn Hb Hs Hp|n rest Hn Hst Ht|n rest Hn Hst Ht
                |L Hn|i R' m' Hn Hd Htl]; cbn [cfg_state stack with_stack_pc].
  - split; [lia|intros E; lia].
  - apply push_length in Hp; destruct Hp as [H1 H2]; split; auto.
  - apply push_length in Hp; destruct Hp as [H1 H2]; split; auto.
  - apply push_length in Hp; destruct Hp as [H1 H2]; split; auto.
  - rewrite Hst; simpl; split; [lia|intros E; lia].
  - rewrite Hst; simpl; split; [lia|intros E; lia].
  - split; [lia|intros E; lia].
  - split; [lia|intros E; lia].
Qed.

End Theorems.
