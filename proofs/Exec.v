(* Exec.v — the executable twin of Semantics.v: a function per judgement,
   each proved to compute exactly its relation (sound and complete); the
   stuck states are the errors of semantics.md §2. *)
Require Import ZArith List Bool Arith.
Require Import Syntax Semantics.
Import ListNotations.

Section Exec.
Variable o : opts.

(* inl e: no rule applies, e names the failed premise. *)
Definition res (A : Type) := (stuck + A)%type.

Definition eval_f (t : nat) (sg : env) (a : opnd) : res Z :=
  match a with
  | OSpec s => inr (special_val o t s)
  | OVar x => match sg x with Some v => inr v | None => inl XMV end
  | OLit z => inr z
  end.

(* An address: e names the rule whose premise 0 ≤ address fails. *)
Definition addr_f (e : stuck) (t : nat) (sg : env) (a : opnd) : res Z :=
  match eval_f t sg a with
  | inr ad => if Z.leb 0 ad then inr ad else inl e
  | inl x => inl x
  end.

Definition mget_f (m : memory) (ad : Z) : res Z :=
  match mget o m ad with Some v => inr v | None => inl XMM end.

Definition dstep_f (t : nat) (sg : env) (m : memory) (i : ins) : res (env * memory) :=
  match i with
  | ICopy d a => match eval_f t sg a with inr v => inr (upd_env sg d v, m) | inl e => inl e end
  | IUnary u d a =>
      match eval_f t sg a with inr v => inr (upd_env sg d (unop_f u v), m) | inl e => inl e end
  | IBinary op d a b =>
      match eval_f t sg a, eval_f t sg b with
      | inr v1, inr v2 =>
          match binop_f op v1 v2 with Some r => inr (upd_env sg d r, m) | None => inl XBP end
      | inl e, _ => inl e
      | _, inl e => inl e
      end
  | ILoad d a =>
      match addr_f XLD t sg a with
      | inr ad => match mget_f m ad with inr v => inr (upd_env sg d v, m) | inl e => inl e end
      | inl e => inl e
      end
  | IStore a b =>
      match addr_f XST t sg a, eval_f t sg b with
      | inr ad, inr v => inr (sg, mwrite m ad v)
      | inl e, _ => inl e
      | _, inl e => inl e
      end
  | IAtominc d a =>
      match addr_f XAT t sg a with
      | inr ad => match mget_f m ad with
                  | inr v => inr (upd_env sg d (v + 1)%Z, mwrite m ad (v + 1)%Z)
                  | inl e => inl e end
      | inl e => inl e
      end
  | _ => inl XEnd (* not a data instruction; never called for one *)
  end.

Fixpoint tl_f (ts : list nat) (R : regs) (m : memory) (i : ins) : res (regs * memory) :=
  match ts with
  | [] => inr (R, m)
  | t :: ts' =>
      match dstep_f t (R t) m i with
      | inr (sg', m') => tl_f ts' (upd_regs R t sg') m' i
      | inl e => inl e
      end
  end.

Fixpoint split_f (jz : bool) (R : regs) (a : opnd) (ts : list nat) : res (list nat * list nat) :=
  match ts with
  | [] => inr ([], [])
  | t :: ts' =>
      match eval_f t (R t) a, split_f jz R a ts' with
      | inr v, inr (f, j) => if jumps jz v then inr (f, t :: j) else inr (t :: f, j)
      | inl e, _ => inl e
      | _, inl e => inl e
      end
  end.

Definition exec (P : program) (s : state) : res (rule * cfg) :=
  match nth_error P (pc s) with
  | None => inl XEnd
  | Some IStop => match stack s with [] => inr (SF, Halt s) | _ => inl XSF end
  | Some ISync =>
      match stack s with
      | [] => inl XSP
      | n :: rest =>
          match todo n with
          | [] => inr (SP, Run (mkstate (done n ++ theta s) (rg s) (mem s) rest (S (pc s))))
          | _ => inr (SS, Run (mkstate (todo n) (rg s) (mem s)
                                  (mknode (lid n) (done n ++ theta s) (lnext n) [] :: rest)
                                  (lnext n)))
          end
      end
  | Some (IJump L) => inr (JP, Run (with_stack_pc s (stack s) L))
  | Some i =>
      match branch_of o i with
      | Some (a, L, jz) =>
          match split_f jz (rg s) a (theta s) with
          | inl e => inl e
          | inr ([], j) =>
              match push o (stack s) [] (pc s) L with
              | Some st' => inr (BT, Run (with_stack_pc s st' L))
              | None => inl XPushBT
              end
          | inr (f, []) =>
              match push o (stack s) [] (pc s) L with
              | Some st' => inr (BF, Run (with_stack_pc s st' (S (pc s))))
              | None => inl XPushBF
              end
          | inr (f, j) =>
              match push o (stack s) j (pc s) L with
              | Some st' => inr (BD, Run (mkstate f (rg s) (mem s) st' (S (pc s))))
              | None => inl XPushBD
              end
          end
      | None =>
          match tl_f (isort (theta s)) (rg s) (mem s) i with
          | inr (R', m') => inr (IT, Run (mkstate (theta s) R' m' (stack s) (S (pc s))))
          | inl e => inl e
          end
      end
  end.

(* ---- each function computes its relation -------------------------------- *)

Lemma eval_f_correct : forall t sg a v, eval o t sg a v <-> eval_f t sg a = inr v.
Proof.
  intros t sg a v; split.
  - intros H; inversion H; subst; simpl; try rewrite H0; reflexivity.
  - destruct a as [x|z|sp]; simpl.
    + destruct (sg x) eqn:E; intros H; inversion H; subst; constructor; auto.
    + intros H; inversion H; constructor.
    + intros H; inversion H; constructor.
Qed.

Lemma addr_f_correct : forall e t sg a ad,
  (eval o t sg a ad /\ (0 <= ad)%Z) <-> addr_f e t sg a = inr ad.
Proof.
  intros e t sg a ad; unfold addr_f; split.
  - intros [H1 H2]; apply eval_f_correct in H1; rewrite H1.
    apply Z.leb_le in H2; rewrite H2; reflexivity.
  - destruct (eval_f t sg a) eqn:E; intros H; [discriminate|].
    destruct (Z.leb 0 z) eqn:L; inversion H; subst.
    split; [apply eval_f_correct; auto | apply Z.leb_le; auto].
Qed.

Lemma mget_f_correct : forall m ad v, mget o m ad = Some v <-> mget_f m ad = inr v.
Proof.
  intros; unfold mget_f; destruct (mget o m ad); split; intros H;
    inversion H; subst; reflexivity.
Qed.

Lemma dstep_f_correct : forall t sg m i sg' m',
  dstep o t sg m i sg' m' <-> dstep_f t sg m i = inr (sg', m').
Proof.
  intros t sg m i sg' m'; split.
  - intros H; destruct H as [d a v E|u d a v E|op d a b v1 v2 r E1 E2 E3
      |d a ad v E1 E2 E3|a b ad v E1 E2 E3|d a ad v E1 E2 E3]; simpl.
    + apply eval_f_correct in E; rewrite E; reflexivity.
    + apply eval_f_correct in E; rewrite E; reflexivity.
    + apply eval_f_correct in E1; apply eval_f_correct in E2; rewrite E1, E2, E3; reflexivity.
    + assert (A : addr_f XLD t sg a = inr ad) by (apply addr_f_correct; auto).
      rewrite A; apply mget_f_correct in E3; rewrite E3; reflexivity.
    + assert (A : addr_f XST t sg a = inr ad) by (apply addr_f_correct; auto).
      apply eval_f_correct in E3; rewrite A, E3; reflexivity.
    + assert (A : addr_f XAT t sg a = inr ad) by (apply addr_f_correct; auto).
      rewrite A; apply mget_f_correct in E3; rewrite E3; reflexivity.
  - destruct i; simpl; intros H; try discriminate.
    + destruct (eval_f t sg a) eqn:E; inversion H; subst.
      constructor; apply eval_f_correct; auto.
    + destruct (eval_f t sg a) eqn:E; inversion H; subst.
      constructor; apply eval_f_correct; auto.
    + destruct (eval_f t sg a) eqn:E1; destruct (eval_f t sg b) eqn:E2;
        try discriminate.
      destruct (binop_f o0 z z0) eqn:E3; inversion H; subst.
      econstructor; try apply eval_f_correct; eauto.
    + destruct (addr_f XLD t sg a) eqn:E1; try discriminate.
      destruct (mget_f m z) eqn:E2; inversion H; subst.
      apply addr_f_correct in E1; destruct E1.
      econstructor; eauto; apply mget_f_correct; auto.
    + destruct (addr_f XST t sg a) eqn:E1; destruct (eval_f t sg b) eqn:E2;
        try discriminate; inversion H; subst.
      apply addr_f_correct in E1; destruct E1.
      econstructor; eauto; apply eval_f_correct; auto.
    + destruct (addr_f XAT t sg a) eqn:E1; try discriminate.
      destruct (mget_f m z) eqn:E2; inversion H; subst.
      apply addr_f_correct in E1; destruct E1.
      econstructor; eauto; apply mget_f_correct; auto.
Qed.

Lemma tl_f_correct : forall ts R m i R' m',
  tl o ts R m i R' m' <-> tl_f ts R m i = inr (R', m').
Proof.
  induction ts as [|t ts IH]; intros R m i R' m'; split; simpl.
  - intros H; inversion H; subst; reflexivity.
  - intros H; inversion H; subst; constructor.
  - intros H; inversion H as [|? ? ? ? ? sg' m1 ? ? D T]; subst.
    apply dstep_f_correct in D; rewrite D; apply IH; auto.
  - destruct (dstep_f t (R t) m i) as [e|[sg' m1]] eqn:E; intros H; [discriminate|].
    econstructor; [apply dstep_f_correct; eauto | apply IH; auto].
Qed.

Lemma split_f_correct : forall jz R a ts f j,
  split o jz R a ts f j <-> split_f jz R a ts = inr (f, j).
Proof.
  induction ts as [|t ts IH]; intros f j; split; simpl.
  - intros H; inversion H; subst; reflexivity.
  - intros H; inversion H; subst; constructor.
  - intros H; inversion H as [|? ? v f' j' Ev J Sp|? ? v f' j' Ev J Sp]; subst;
      apply eval_f_correct in Ev; rewrite Ev;
      apply IH in Sp; rewrite Sp; rewrite J; reflexivity.
  - destruct (eval_f t (R t) a) as [e|v] eqn:E1; [discriminate|].
    destruct (split_f jz R a ts) as [e|[f' j']] eqn:E2; [discriminate|].
    apply eval_f_correct in E1.
    destruct (jumps jz v) eqn:J; intros H; inversion H; subst.
    + eapply SPL_JMP; eauto; apply IH; auto.
    + eapply SPL_FALL; eauto; apply IH; auto.
Qed.

(* The twin is the relation: sound and complete. *)
Theorem exec_correct : forall P s r c, step o P s r c <-> exec P s = inr (r, c).
Proof.
  intros P s r c; split.
  - intros H; inversion H; subst; unfold exec.
    + rewrite H0, H1; reflexivity.
    + rewrite H0; apply split_f_correct in H2.
      destruct i; simpl in H1; try discriminate; inversion H1; subst;
        simpl; rewrite H2, H3; reflexivity.
    + rewrite H0; apply split_f_correct in H2.
      destruct i; simpl in H1; try discriminate; inversion H1; subst;
        simpl; rewrite H2, H3; reflexivity.
    + rewrite H0; apply split_f_correct in H2.
      destruct i; simpl in H1; try discriminate; inversion H1; subst;
        simpl; rewrite H2, H3; reflexivity.
    + rewrite H0, H1; destruct (todo n); [contradiction|reflexivity].
    + rewrite H0, H1, H2; reflexivity.
    + rewrite H0; reflexivity.
    + rewrite H0; apply tl_f_correct in H2.
      destruct i; simpl in H1; try discriminate; simpl; rewrite H2; reflexivity.
  - unfold exec; destruct (nth_error P (pc s)) as [i|] eqn:N; [|discriminate].
    destruct i eqn:I;
      try (match goal with
           | |- context [branch_of o ?i] => idtac
           end);
      simpl.
    (* data instructions *)
    1-6:
      (match goal with
       | |- context [tl_f ?ts ?R ?m ?ii] =>
           destruct (tl_f ts R m ii) as [e|[R' m']] eqn:T; intros H; [discriminate|];
           inversion H; subst; eapply R_IT; eauto; apply tl_f_correct; eauto
       end).
    (* bz, bnz *)
    1-2:
      (match goal with
       | |- context [split_f ?jz ?R ?a ?ts] =>
           destruct (split_f jz R a ts) as [e|[f j]] eqn:Sp; [discriminate|];
           apply split_f_correct in Sp;
           destruct f as [|t f]; [|destruct j as [|u j]];
           [ destruct (push o (stack s) [] (pc s) L) eqn:Pu; intros H; inversion H; subst;
             eapply R_BT; eauto; reflexivity
           | destruct (push o (stack s) [] (pc s) L) eqn:Pu; intros H; inversion H; subst;
             eapply R_BF; eauto; reflexivity
           | destruct (push o (stack s) (u :: j) (pc s) L) eqn:Pu; intros H; inversion H; subst;
             eapply R_BD; eauto; reflexivity ]
       end).
    + intros H; inversion H; subst; apply R_JP; auto.
    + destruct (stack s) as [|n rest] eqn:St; [discriminate|].
      destruct (todo n) eqn:Td; intros H; inversion H; subst.
      * apply R_SP; auto.
      * rewrite <- Td; apply R_SS; auto; rewrite Td; discriminate.
    + destruct (stack s) eqn:St; intros H; inversion H; subst; apply R_SF; auto.
Qed.

End Exec.
