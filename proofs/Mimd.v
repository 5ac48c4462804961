(* Mimd.v — a MIMD reference semantics (every thread runs on its own, one
   instruction of one thread at a time, `sync` a no-op: the model of
   Habermaier & Knapp and of seed 004 §4.7) and the theorem that every
   terminating run of the sync-stack model of a structured program is one
   of its interleavings: the same final Σ and the same σ of every thread.

   No race-freedom is needed for this direction: the sync model runs the
   PEs of a data instruction one after another (rule TL), and those are
   MIMD steps.  Race-freedom is what the converse would need (every
   interleaving ends in the same memory); it is not proved here. *)
Require Import ZArith List Bool Arith Lia Permutation.
Require Import Syntax Semantics Exec Theorems Structured.
Import ListNotations.

(* A MIMD state: the pc of every thread, σ of every thread, Σ. *)
Record mstate := mkm { mpc : nat -> nat; mregs : regs; mmem : memory }.

Definition upd_pc (f : nat -> nat) (t p : nat) : nat -> nat :=
  fun u => if Nat.eqb u t then p else f u.

Section Mimd.
Variable o : opts.
Variable P : program.

(* One instruction of one thread t, with the data rules of Semantics.v and
   the branch polarity of o; a thread at `stop` has finished. *)
Inductive mstep : mstate -> mstate -> Prop :=
  | M_DATA : forall M t i sg' m', nth_error P (mpc M t) = Some i -> is_data i = true ->
      dstep o t (mregs M t) (mmem M) i sg' m' ->
      mstep M (mkm (upd_pc (mpc M) t (S (mpc M t))) (upd_regs (mregs M) t sg') m')
  | M_BRANCH : forall M t i a L jz v, nth_error P (mpc M t) = Some i ->
      branch_of o i = Some (a, L, jz) -> eval o t (mregs M t) a v ->
      mstep M (mkm (upd_pc (mpc M) t (if jumps jz v then L else S (mpc M t)))
                   (mregs M) (mmem M))
  | M_JUMP : forall M t L, nth_error P (mpc M t) = Some (IJump L) ->
      mstep M (mkm (upd_pc (mpc M) t L) (mregs M) (mmem M))
  | M_SYNC : forall M t, nth_error P (mpc M t) = Some ISync ->
      mstep M (mkm (upd_pc (mpc M) t (S (mpc M t))) (mregs M) (mmem M)).

(* An interleaving: any sequence of thread steps. *)
Inductive msteps : mstate -> mstate -> Prop :=
  | MS_REFL : forall M, msteps M M
  | MS_STEP : forall M M' M'', mstep M M' -> msteps M' M'' -> msteps M M''.

Lemma msteps_trans : forall M1 M2 M3, msteps M1 M2 -> msteps M2 M3 -> msteps M1 M3.
Proof. intros M1 M2 M3 H; induction H; intros; auto; econstructor; eauto. Qed.

Lemma upd_pc_same : forall f t p, upd_pc f t p t = p.
Proof. intros; unfold upd_pc; rewrite Nat.eqb_refl; auto. Qed.

Lemma upd_pc_other : forall f t p u, u <> t -> upd_pc f t p u = f u.
Proof. intros; unfold upd_pc; apply Nat.eqb_neq in H; rewrite H; auto. Qed.

(* ---- the PEs of one warp instruction, one after another ------------------ *)

Lemma tl_mimd : forall ts R m i R' m', tl o ts R m i R' m' ->
  forall M p, mregs M = R -> mmem M = m -> nth_error P p = Some i -> is_data i = true ->
  NoDup ts -> (forall t, In t ts -> mpc M t = p) ->
  exists M', msteps M M' /\ mregs M' = R' /\ mmem M' = m' /\
    (forall t, In t ts -> mpc M' t = S p) /\ (forall t, ~ In t ts -> mpc M' t = mpc M t).
Proof.
  induction 1 as [R m i|t ts R m i sg' m1 R'' m'' D T IH];
    intros M p ER EM N Di ND Hp.
  - exists M; repeat split; auto; [constructor|intros t []].
  - inversion ND as [|? ? NI ND']; subst.
    assert (Pt : mpc M t = p) by (apply Hp; left; auto).
    set (M1 := mkm (upd_pc (mpc M) t (S p)) (upd_regs (mregs M) t sg') m1).
    assert (S1 : mstep M M1).
    { unfold M1; rewrite <- Pt; apply M_DATA with (i := i); rewrite ?Pt; auto. }
    destruct (IH M1 p) as [M' [Ms [ER' [EM' [A B]]]]]; auto.
    + intros u Hu; unfold M1; simpl; rewrite upd_pc_other; [apply Hp; right; auto|].
      intros E; subst; contradiction.
    + exists M'; refine (conj _ (conj _ (conj _ (conj _ _)))); auto.
      * econstructor; eauto.
      * intros u [Hu|Hu]; [subst u; rewrite B; auto; unfold M1; simpl;
                           apply upd_pc_same|apply A; auto].
      * intros u Hu; rewrite B; [|intros X; apply Hu; right; auto].
        unfold M1; simpl; apply upd_pc_other; intros X; apply Hu; left; auto.
Qed.

Lemma split_mimd : forall jz R a ts f j, split o jz R a ts f j ->
  forall M p i L, mregs M = R -> nth_error P p = Some i -> branch_of o i = Some (a, L, jz) ->
  NoDup ts -> (forall t, In t ts -> mpc M t = p) ->
  exists M', msteps M M' /\ mregs M' = mregs M /\ mmem M' = mmem M /\
    (forall t, In t f -> mpc M' t = S p) /\ (forall t, In t j -> mpc M' t = L) /\
    (forall t, ~ In t ts -> mpc M' t = mpc M t).
Proof.
  induction 1 as [|t ts v f j Ev J Sp IH|t ts v f j Ev J Sp IH];
    intros M p i L ER N Bo ND Hp.
  - exists M; repeat split; auto; try constructor; intros t [].
  - inversion ND as [|? ? NI ND']; subst.
    assert (Pt : mpc M t = p) by (apply Hp; left; auto).
    set (M1 := mkm (upd_pc (mpc M) t L) (mregs M) (mmem M)).
    assert (S1 : mstep M M1).
    { pose proof (M_BRANCH M t i a L jz v) as X; rewrite J in X; apply X; rewrite ?Pt; auto. }
    destruct (IH M1 p i L) as [M' [Ms [ER' [EM' [A [A' B]]]]]]; auto.
    + intros u Hu; unfold M1; simpl; rewrite upd_pc_other; [apply Hp; right; auto|].
      intros E; subst; contradiction.
    + exists M'; refine (conj _ (conj _ (conj _ (conj _ (conj _ _)))));
        [econstructor; eauto|rewrite ER'; reflexivity|rewrite EM'; reflexivity| | |].
      * intros u Hu; apply A; auto.
      * intros u [Hu|Hu]; [subst u; rewrite B; auto; unfold M1; simpl;
                           apply upd_pc_same|apply A'; auto].
      * intros u Hu; rewrite B; [|intros X; apply Hu; right; auto].
        unfold M1; simpl; apply upd_pc_other; intros X; apply Hu; left; auto.
  - inversion ND as [|? ? NI ND']; subst.
    assert (Pt : mpc M t = p) by (apply Hp; left; auto).
    set (M1 := mkm (upd_pc (mpc M) t (S p)) (mregs M) (mmem M)).
    assert (S1 : mstep M M1).
    { pose proof (M_BRANCH M t i a L jz v) as X; rewrite J, Pt in X; apply X;
        rewrite ?Pt; auto. }
    destruct (IH M1 p i L) as [M' [Ms [ER' [EM' [A [A' B]]]]]]; auto.
    + intros u Hu; unfold M1; simpl; rewrite upd_pc_other; [apply Hp; right; auto|].
      intros E; subst; contradiction.
    + exists M'; refine (conj _ (conj _ (conj _ (conj _ (conj _ _)))));
        [econstructor; eauto|rewrite ER'; reflexivity|rewrite EM'; reflexivity| | |].
      * intros u [Hu|Hu]; [subst u; rewrite B; auto; unfold M1; simpl;
                           apply upd_pc_same|apply A; auto].
      * intros u Hu; apply A'; auto.
      * intros u Hu; rewrite B; [|intros X; apply Hu; right; auto].
        unfold M1; simpl; apply upd_pc_other; intros X; apply Hu; left; auto.
Qed.

(* Every thread of ts, all at p, takes the same control step to p'. *)
Lemma move_mimd : forall ts M p p', NoDup ts -> (forall t, In t ts -> mpc M t = p) ->
  (forall M t, mpc M t = p -> mstep M (mkm (upd_pc (mpc M) t p') (mregs M) (mmem M))) ->
  exists M', msteps M M' /\ mregs M' = mregs M /\ mmem M' = mmem M /\
    (forall t, In t ts -> mpc M' t = p') /\ (forall t, ~ In t ts -> mpc M' t = mpc M t).
Proof.
  induction ts as [|t ts IH]; intros M p p' ND Hp St.
  - exists M; repeat split; auto; try constructor; intros t [].
  - inversion ND as [|? ? NI ND']; subst.
    set (M1 := mkm (upd_pc (mpc M) t p') (mregs M) (mmem M)).
    assert (S1 : mstep M M1) by (apply St, Hp; left; auto).
    destruct (IH M1 p p') as [M' [Ms [ER' [EM' [A B]]]]]; auto.
    + intros u Hu; unfold M1; simpl; rewrite upd_pc_other; [apply Hp; right; auto|].
      intros E; subst; contradiction.
    + exists M'; refine (conj _ (conj _ (conj _ (conj _ _))));
        [econstructor; eauto|rewrite ER'; reflexivity|rewrite EM'; reflexivity| |].
      * intros u [Hu|Hu]; [subst u; rewrite B; auto; unfold M1; simpl;
                           apply upd_pc_same|apply A; auto].
      * intros u Hu; rewrite B; [|intros X; apply Hu; right; auto].
        unfold M1; simpl; apply upd_pc_other; intros X; apply Hu; left; auto.
Qed.

(* ---- the simulation ------------------------------------------------------ *)

Variable C : list region.
Context (HS : structured P C).

(* Where every thread of a sync state is in the MIMD run: Θ at pc, the
   todo PEs of a node at its l_next, its done PEs at the sync of its
   region (where they stopped); the same σ and Σ. *)
Definition Sim (s : state) (M : mstate) : Prop :=
  mregs M = rg s /\ mmem M = mem s /\
  (forall t, In t (theta s) -> mpc M t = pc s) /\
  (forall n t, In n (stack s) -> In t (todo n) -> mpc M t = lnext n) /\
  (forall n t, In n (stack s) -> In t (done n) ->
     exists r, In r C /\ rb r = lid n /\ mpc M t = re r).

Lemma nodup_app_disj : forall (l1 l2 : list nat) x, NoDup (l1 ++ l2) -> In x l1 -> In x l2 -> False.
Proof.
  induction l1 as [|a l1 IH]; simpl; intros l2 x N H1 H2; [contradiction|].
  inversion N as [|? ? NI N']; subst; destruct H1 as [H1|H1].
  - subst; apply NI, in_or_app; right; auto.
  - eapply IH; eauto.
Qed.

Lemma nodup_app_l : forall (l1 l2 : list nat), NoDup (l1 ++ l2) -> NoDup l1.
Proof.
  induction l1 as [|a l1 IH]; simpl; intros l2 N; [constructor|].
  inversion N as [|? ? NI N']; subst; constructor; eauto.
  intros X; apply NI, in_or_app; left; auto.
Qed.

Lemma nodup_app_r : forall (l1 l2 : list nat), NoDup (l1 ++ l2) -> NoDup l2.
Proof. induction l1; simpl; intros l2 N; auto; inversion N; eauto. Qed.

Lemma in_stack_threads : forall st n t, In n st -> In t (done n) \/ In t (todo n) ->
  In t (stack_threads st).
Proof.
  intros st n t Hn Ht; unfold stack_threads; apply in_flat_map; exists n; split; auto;
    apply in_or_app; auto.
Qed.

Lemma insert_perm : forall t l, Permutation (insert t l) (t :: l).
Proof.
  induction l as [|u l IH]; simpl; auto.
  destruct (t <=? u); auto.
  eapply perm_trans; [apply perm_skip, IH|apply perm_swap].
Qed.

Lemma isort_perm : forall l, Permutation (isort l) l.
Proof.
  induction l as [|t l IH]; simpl; auto.
  eapply perm_trans; [apply insert_perm|apply perm_skip, IH].
Qed.


Definition StackSim (M : mstate) (st : list node) : Prop :=
  (forall n t, In n st -> In t (todo n) -> mpc M t = lnext n) /\
  (forall n t, In n st -> In t (done n) ->
     exists r, In r C /\ rb r = lid n /\ mpc M t = re r).

Lemma stack_sim_frame : forall M M' st, StackSim M st ->
  (forall n t, In n st -> In t (done n) \/ In t (todo n) -> mpc M' t = mpc M t) ->
  StackSim M' st.
Proof.
  intros M M' st [A B] F; split.
  - intros n t Hn Ht; rewrite F with (n := n); auto.
  - intros n t Hn Ht; rewrite F with (n := n); auto.
Qed.

Lemma stack_sim_push : forall M st tj p L st', StackSim M st ->
  push o st tj p L = Some st' -> (forall t, In t tj -> mpc M t = L) -> StackSim M st'.
Proof.
  intros M st tj p L st' [A B] Hp T.
  destruct (push_cases o _ _ _ _ _ Hp) as [[E _]|[n [rest [E [Ln [Nn E']]]]]]; subst.
  - split.
    + intros n t [Hn|Hn] Ht; [subst n; simpl in *; auto|eauto].
    + intros n t [Hn|Hn] Ht; [subst n; simpl in Ht; contradiction|eauto].
  - split.
    + intros n' t [Hn|Hn] Ht; [|apply A with (n := n'); [right; exact Hn|exact Ht]].
      subst n'; simpl in *; apply in_app_or in Ht; destruct Ht as [Ht|Ht]; auto.
      all: rewrite <- Nn; apply A with (n := n); [left; auto|exact Ht].
    + intros n' t [Hn|Hn] Ht; [|apply B with (n := n'); [right; exact Hn|exact Ht]].
      subst n'; simpl in *; destruct (B n t (or_introl eq_refl) Ht) as [r [Hr [Er X]]].
      exists r; split; auto; split; auto; congruence.
Qed.

Ltac perm_count := apply (Permutation_count_occ Nat.eq_dec); intros ?x;
  repeat rewrite count_occ_app; simpl; repeat rewrite count_occ_app; lia.

Lemma sim_step : forall s rl s' M, Inv P C (stack s) (pc s) -> NoDup (threads s) ->
  Sim s M -> step o P s rl (Run s') -> exists M', msteps M M' /\ Sim s' M'.
Proof.
  intros s rl s' M I ND [ER [EM [Th SS]]] H.
  assert (SSim : StackSim M (stack s)) by exact SS; clear SS.
  unfold threads in ND.
  (* a PE of Θ is in no node of Π *)
  assert (DisT : forall n t, In n (stack s) -> In t (done n) \/ In t (todo n) ->
                   ~ In t (theta s)).
  { intros n t Hn Ht X; eapply nodup_app_disj; eauto; eapply in_stack_threads; eauto. }
  assert (NDT : NoDup (theta s)) by (eapply nodup_app_l; eauto).
  assert (Frame : forall M', (forall t, ~ In t (theta s) -> mpc M' t = mpc M t) ->
                    StackSim M' (stack s)).
  { intros M' F; eapply stack_sim_frame; eauto; intros n t Hn Ht; apply F; eauto. }
  inversion H as
    [Hn Hst|i a L jz j st' Hn Hb Hs Hp|i a L jz t f st' Hn Hb Hs Hp
    |i a L jz t f u j st' Hn Hb Hs Hp|n rest Hn Hst Ht|n rest Hn Hst Ht
    |L Hn|i R' m' Hn Hd Htl]; subst; cbn [stack pc theta rg mem with_stack_pc].
  - (* BT: every PE jumps *)
    destruct (split_mimd _ _ _ _ _ _ Hs M (pc s) i L ER Hn Hb NDT Th)
      as [M' [Ms [ER' [EM' [F [J O]]]]]].
    pose proof (split_perm o _ _ _ _ _ _ Hs) as Pm; simpl in Pm.
    exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl; try congruence.
    + intros t0 Ht0; apply J; eapply Permutation_in; [apply Permutation_sym, Pm|]; auto.
    + eapply stack_sim_push; eauto; intros t0 [].
  - (* BF: every PE falls through *)
    destruct (split_mimd _ _ _ _ _ _ Hs M (pc s) i L ER Hn Hb NDT Th)
      as [M' [Ms [ER' [EM' [F [J O]]]]]].
    pose proof (split_perm o _ _ _ _ _ _ Hs) as Pm; rewrite app_nil_r in Pm.
    exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl; try congruence.
    + intros t0 Ht0; apply F; eapply Permutation_in; [apply Permutation_sym, Pm|]; auto.
    + eapply stack_sim_push; eauto; intros t0 [].
  - (* BD: the jumping PEs wait in Π at L *)
    destruct (split_mimd _ _ _ _ _ _ Hs M (pc s) i L ER Hn Hb NDT Th)
      as [M' [Ms [ER' [EM' [F [J O]]]]]].
    exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl; try congruence.
    + intros t0 Ht0; apply F; auto.
    + eapply stack_sim_push; [apply Frame; exact O|exact Hp|exact J].
  - (* SS: no PE moves; Θ waits at the sync that closes the top node *)
    rewrite Hst in I; destruct (inv_sync_top P C HS n rest (pc s) I Hn)
      as [r [Hr [Er [Ee Tr]]]].
    exists M; split; [constructor|]; refine (conj _ (conj _ (conj _ _))); simpl; auto.
    + intros t0 Ht0; destruct SSim as [A _]; apply A with (n := n); auto.
      rewrite Hst; left; auto.
    + destruct SSim as [A B]; rewrite Hst in A, B; split.
      * intros n' t0 [Hn'|Hn'] Ht0; [subst n'; simpl in Ht0; contradiction|].
        apply A with (n := n'); [right; exact Hn'|exact Ht0].
      * intros n' t0 [Hn'|Hn'] Ht0;
          [|apply B with (n := n'); [right; exact Hn'|exact Ht0]].
        subst n'; simpl in Ht0; apply in_app_or in Ht0; destruct Ht0 as [Ht0|Ht0].
        -- apply B with (n := n); [left; auto|exact Ht0].
        -- exists r; repeat split; auto; rewrite Th; auto.
  - (* SP: the done PEs and Θ, all at the sync, step over it *)
    rewrite Hst in I, ND, SSim, DisT;
      destruct (inv_sync_top P C HS n rest (pc s) I Hn) as [r [Hr [Er [Ee Tr]]]].
    assert (ND2 : NoDup ((done n ++ theta s) ++ (todo n ++ stack_threads rest))).
    { eapply Permutation_NoDup; [|apply ND]; rewrite stack_threads_cons; perm_count. }
    destruct SSim as [A B].
    destruct (move_mimd (done n ++ theta s) M (pc s) (S (pc s))) as
      [M' [Ms [ER' [EM' [F O]]]]].
    + eapply nodup_app_l; eauto.
    + intros t0 Ht0; apply in_app_or in Ht0; destruct Ht0 as [Ht0|Ht0]; auto.
      destruct (B n t0 (or_introl eq_refl) Ht0) as [r' [Hr' [Er' X]]].
      rewrite X, <- Ee; f_equal; apply (uniq_b P C HS); auto; congruence.
    + intros M0 t0 X; pose proof (M_SYNC M0 t0) as Y; rewrite X in Y; apply Y; auto.
    + assert (Fr : forall n' t0, In n' rest -> In t0 (done n') \/ In t0 (todo n') ->
                    mpc M' t0 = mpc M t0).
      { intros n' t0 Hn' Ht0; apply O; intros X.
        eapply nodup_app_disj; [apply ND2|apply X|].
        apply in_or_app; right; eapply in_stack_threads; eauto. }
      exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl;
        [congruence|congruence|intros t0 Ht0; apply F; auto|split].
      * intros n' t0 Hn' Ht0; rewrite Fr with (n' := n'); auto; apply A; auto; right; auto.
      * intros n' t0 Hn' Ht0; rewrite Fr with (n' := n'); auto; apply B; auto; right; auto.
  - (* JP *)
    destruct (move_mimd (theta s) M (pc s) L NDT Th) as [M' [Ms [ER' [EM' [F O]]]]].
    + intros M0 t0 X; apply M_JUMP; rewrite X; auto.
    + exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl;
        [congruence|congruence|exact F|apply Frame; exact O].
  - (* IT: the PEs of Θ in lane order, one after another *)
    assert (NDs : NoDup (isort (theta s)))
      by (eapply Permutation_NoDup; [apply Permutation_sym, isort_perm|auto]).
    destruct (tl_mimd _ _ _ _ _ _ Htl M (pc s) ER EM Hn Hd NDs) as
      [M' [Ms [ER' [EM' [F O]]]]].
    + intros t0 Ht0; apply Th; eapply Permutation_in; [apply isort_perm|]; auto.
    + exists M'; split; auto; refine (conj _ (conj _ (conj _ _))); simpl;
        [congruence|congruence| |].
      * intros t0 Ht0; apply F; eapply Permutation_in; [apply Permutation_sym, isort_perm|];
          auto.
      * apply Frame; intros t0 Ht0; apply O; intros X; apply Ht0;
          eapply Permutation_in; [apply isort_perm|]; auto.
Qed.

Lemma sim_steps : forall s s', steps o P s s' -> forall M, Inv P C (stack s) (pc s) ->
  NoDup (threads s) -> Sim s M -> exists M', msteps M M' /\ Sim s' M'.
Proof.
  intros s s' H; induction H as [s|s rl s1 s2 Hs _ IH]; intros M I ND Sm.
  - exists M; split; [constructor|auto].
  - destruct (sim_step s rl s1 M I ND Sm Hs) as [M1 [Ms1 Sm1]].
    destruct (IH M1) as [M2 [Ms2 Sm2]]; auto.
    + eapply inv_step; eauto.
    + eapply Permutation_NoDup; [apply Permutation_sym, (conservation o P _ _ _ Hs)|auto].
    + exists M2; split; auto; eapply msteps_trans; eauto.
Qed.

(* Every terminating run (rule SF) of the sync model of a structured
   program, from the initial state (Θ = the threads ts, Π = [], pc = 0),
   is a MIMD interleaving: some sequence of single-thread steps from every
   thread at pc 0 with the same σ and Σ ends with every thread at a `stop`,
   with the final σ of every thread and the final Σ of the sync run. *)
Theorem sync_run_is_mimd_interleaving : forall ts R m s s',
  NoDup ts -> steps o P (mkstate ts R m [] 0) s -> step o P s SF (Halt s') ->
  exists M, msteps (mkm (fun _ => 0) R m) M /\ mregs M = rg s' /\ mmem M = mem s' /\
    forall t, In t ts -> nth_error P (mpc M t) = Some IStop.
Proof.
  intros ts R m s s' ND Hs Hf.
  assert (E : s' = s /\ stack s = [] /\ nth_error P (pc s) = Some IStop)
    by (inversion Hf; subst; auto).
  destruct E as [E [Hst Hn]]; subst s'.
  destruct (sim_steps _ _ Hs (mkm (fun _ => 0) R m)) as [M [Ms [ER [EM [Th _]]]]].
  - apply inv_init.
  - unfold threads; simpl; rewrite app_nil_r; auto.
  - refine (conj _ (conj _ (conj _ (conj _ _)))); simpl; auto; intros; contradiction.
  - exists M; refine (conj Ms (conj ER (conj EM _))).
    intros t Ht; destruct (conservation_from_start o P ts R m 0 s ND Hs) as [Pm _].
    assert (In t (threads s)) as X by (eapply Permutation_in; [apply Permutation_sym, Pm|auto]).
    unfold threads in X; rewrite Hst in X; simpl in X; rewrite app_nil_r in X.
    rewrite Th; auto.
Qed.

End Mimd.

(* The same for the programs the extracted check accepts. *)
Corollary sync_run_is_mimd_interleaving_checked : forall o P ts R m s s',
  is_structured P = true -> NoDup ts ->
  steps o P (mkstate ts R m [] 0) s -> step o P s SF (Halt s') ->
  exists M, msteps o P (mkm (fun _ => 0) R m) M /\ mregs M = rg s' /\ mmem M = mem s' /\
    forall t, In t ts -> nth_error P (mpc M t) = Some IStop.
Proof.
  intros o P ts R m s s' H; eapply sync_run_is_mimd_interleaving, structuredb_correct; eauto.
Qed.
