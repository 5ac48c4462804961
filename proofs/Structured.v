(* Structured.v — structured programs (well-nested branch/sync regions, as
   the papers' translation of if/else and loops produces them), a decidable
   check, and the stack bound: in every state reachable from the initial
   one, the depth of Π is at most the nesting of the regions (semantics.md
   §2 push, §7 max stack depth; src/model/sync.c).

   A region (b, h, e) belongs to the branch at pc b: its pcs are h..e, e is
   its reconvergence `sync`, h ≤ b < e.  An if/else has h = b; a loop whose
   exit branch b sits after a header h (a `jump h` back edge, or a backward
   target of b itself) has h < b.  The node a branch pushes must be on Π
   while pc is in b+1..e (the body), and may be there while pc is in h..b
   (the header: the first iteration runs it without the node). *)
Require Import List Bool Arith Lia.
Require Import Syntax Semantics Theorems.
Import ListNotations.

Record region := mkregion { rb : nat; rh : nat; re : nat }.

Definition target_of (i : ins) : option nat :=
  match i with IBz _ L | IBnz _ L => Some L | _ => None end.

(* The target of the branch at pc b (None: no branch there). *)
Definition target (P : program) (b : nat) : option nat :=
  match nth_error P b with Some i => target_of i | None => None end.

(* ---- the predicate ------------------------------------------------------ *)

(* A program P is structured with the regions C when: *)
Record structured (P : program) (C : list region) : Prop := {
  (* every region is a branch's, with its target and its sync inside it *)
  st_region : forall r, In r C -> exists L, target P (rb r) = Some L /\
      rh r <= rb r < re r /\ rh r <= L <= re r /\ nth_error P (re r) = Some ISync;
  (* every branch has a region, every sync closes one *)
  st_branch : forall p L, target P p = Some L -> exists r, In r C /\ rb r = p;
  st_sync : forall p, nth_error P p = Some ISync -> exists r, In r C /\ re r = p;
  (* one region per branch, one per sync *)
  st_uniq_b : forall r q, In r C -> In q C -> rb r = rb q -> r = q;
  st_uniq_e : forall r q, In r C -> In q C -> re r = re q -> r = q;
  (* regions are disjoint or nested *)
  st_laminar : forall r q, In r C -> In q C ->
      re r < rh q \/ re q < rh r \/ (rh r <= rh q /\ re q <= re r) \/
      (rh q <= rh r /\ re r <= re q);
  (* a branch lies in no region nested inside its own *)
  st_branch_out : forall r q, In r C -> In q C -> rb r <> rb q ->
      rh r <= rh q -> re q <= re r -> ~ (rh q <= rb r <= re q);
  (* a jump stays inside every region it is in, and enters a body only
     from inside it *)
  st_jump : forall p L q, nth_error P p = Some (IJump L) -> In q C ->
      (rh q <= p <= re q -> rh q <= L <= re q) /\
      (rb q < L <= re q -> rb q < p <= re q);
  (* a branch target enters another region's body only from inside it *)
  st_target : forall r q L, In r C -> In q C -> rb q <> rb r ->
      target P (rb r) = Some L -> rb q < L <= re q -> rb q < rb r <= re q
}.

(* ---- the check (extracted; proved to imply the predicate) ---------------- *)

Definition forall_pc (P : program) (f : nat -> ins -> bool) : bool :=
  forallb (fun p => match nth_error P p with Some i => f p i | None => true end)
          (seq 0 (length P)).

Definition is_sync (P : program) (p : nat) : bool :=
  match nth_error P p with Some ISync => true | _ => false end.

Definition region_okb (P : program) (r : region) : bool :=
  match target P (rb r) with
  | Some L => (rh r <=? rb r) && (rb r <? re r) && (rh r <=? L) && (L <=? re r)
              && is_sync P (re r)
  | None => false
  end.

Definition region_eqb (r q : region) : bool :=
  (rb r =? rb q) && (rh r =? rh q) && (re r =? re q).

Definition pair_okb (P : program) (r q : region) : bool :=
  implb (rb r =? rb q) (region_eqb r q) &&
  implb (re r =? re q) (region_eqb r q) &&
  ((re r <? rh q) || (re q <? rh r) || ((rh r <=? rh q) && (re q <=? re r)) ||
   ((rh q <=? rh r) && (re r <=? re q))) &&
  implb (negb (rb r =? rb q) && (rh r <=? rh q) && (re q <=? re r))
        (negb ((rh q <=? rb r) && (rb r <=? re q))) &&
  match target P (rb r) with
  | Some L => implb (negb (rb q =? rb r) && (rb q <? L) && (L <=? re q))
                    ((rb q <? rb r) && (rb r <=? re q))
  | None => true
  end.

Definition insideb (q : region) (p : nat) : bool := (rh q <=? p) && (p <=? re q).
Definition bodyb (q : region) (p : nat) : bool := (rb q <? p) && (p <=? re q).

Definition structuredb (P : program) (C : list region) : bool :=
  forallb (region_okb P) C &&
  forall_pc P (fun p i => match target_of i with
                          | Some _ => existsb (fun r => rb r =? p) C
                          | None => true end) &&
  forall_pc P (fun p i => match i with
                          | ISync => existsb (fun r => re r =? p) C
                          | _ => true end) &&
  forallb (fun r => forallb (pair_okb P r) C) C &&
  forall_pc P (fun p i => match i with
                          | IJump L => forallb (fun q => implb (insideb q p) (insideb q L) &&
                                                         implb (bodyb q L) (bodyb q p)) C
                          | _ => true end).

Ltac b2p :=
  repeat match goal with
  | H : _ && _ = true |- _ => apply andb_prop in H; destruct H
  | H : (_ <=? _) = true |- _ => apply Nat.leb_le in H
  | H : (_ <? _) = true |- _ => apply Nat.ltb_lt in H
  | H : (_ =? _) = true |- _ => apply Nat.eqb_eq in H
  | H : (_ <=? _) = false |- _ => apply Nat.leb_gt in H
  | H : (_ <? _) = false |- _ => apply Nat.ltb_ge in H
  | H : (_ =? _) = false |- _ => apply Nat.eqb_neq in H
  | H : negb _ = true |- _ => apply negb_true_iff in H
  end.

Ltac bcases :=
  repeat match goal with
  | H : context [?a <=? ?b] |- _ =>
      let E := fresh "E" in destruct (a <=? b) eqn:E; simpl in H
  | H : context [?a <? ?b] |- _ =>
      let E := fresh "E" in destruct (a <? b) eqn:E; simpl in H
  | H : context [?a =? ?b] |- _ =>
      let E := fresh "E" in destruct (a =? b) eqn:E; simpl in H
  end; b2p.

Lemma forall_pc_spec : forall P f p i,
  forall_pc P f = true -> nth_error P p = Some i -> f p i = true.
Proof.
  intros P f p i H N; unfold forall_pc in H; rewrite forallb_forall in H.
  assert (B : p < length P) by (apply nth_error_Some; congruence).
  specialize (H p (proj2 (in_seq _ _ _) (conj (Nat.le_0_l p) B))).
  rewrite N in H; auto.
Qed.

Lemma region_eqb_eq : forall r q, region_eqb r q = true -> r = q.
Proof.
  intros [b h e] [b' h' e'] H; unfold region_eqb in H; simpl in H; b2p; subst; auto.
Qed.

Lemma target_some : forall P p L, target P p = Some L ->
  exists i, nth_error P p = Some i /\ target_of i = Some L.
Proof.
  unfold target; intros P p L H; destruct (nth_error P p); [eauto|discriminate].
Qed.

Theorem structuredb_correct : forall P C, structuredb P C = true -> structured P C.
Proof.
  intros P C H; unfold structuredb in H; b2p.
  rename H into Hreg, H3 into Hbr, H2 into Hsy, H1 into Hpair, H0 into Hjmp.
  rewrite forallb_forall in Hreg, Hpair.
  assert (Pair : forall r q, In r C -> In q C -> pair_okb P r q = true)
    by (intros r q Hr Hq; specialize (Hpair r Hr); rewrite forallb_forall in Hpair; auto).
  split.
  - intros r Hr; specialize (Hreg r Hr); unfold region_okb in Hreg.
    destruct (target P (rb r)) as [L|]; [|discriminate]; b2p.
    exists L; repeat split; auto; try lia.
    unfold is_sync in H0; destruct (nth_error P (re r)) as [[]|]; try discriminate; auto.
  - intros p L T; destruct (target_some _ _ _ T) as [i [N Ti]].
    pose proof (forall_pc_spec _ _ _ _ Hbr N) as X; simpl in X; rewrite Ti in X.
    apply existsb_exists in X; destruct X as [r [Hr E]]; b2p; eauto.
  - intros p N; pose proof (forall_pc_spec _ _ _ _ Hsy N) as X; simpl in X.
    apply existsb_exists in X; destruct X as [r [Hr E]]; b2p; eauto.
  - intros r q Hr Hq E; pose proof (Pair r q Hr Hq) as X; unfold pair_okb in X.
    apply Nat.eqb_eq in E; rewrite E in X; simpl in X; b2p; apply region_eqb_eq; auto.
  - intros r q Hr Hq E; pose proof (Pair r q Hr Hq) as X; unfold pair_okb in X.
    apply Nat.eqb_eq in E; rewrite E in X; simpl in X; b2p.
    apply region_eqb_eq; auto.
  - intros r q Hr Hq; pose proof (Pair r q Hr Hq) as X; unfold pair_okb in X; b2p.
    repeat match goal with H : _ || _ = true |- _ => apply orb_prop in H; destruct H end;
      b2p; lia.
  - intros r q Hr Hq NE L1 L2 [L3 L4]; pose proof (Pair r q Hr Hq) as X;
      unfold pair_okb in X.
    apply Nat.eqb_neq in NE; apply Nat.leb_le in L1, L2, L3, L4.
    rewrite NE, L1, L2, L3, L4 in X; simpl in X; b2p; discriminate.
  - intros p L q N Hq; pose proof (forall_pc_spec _ _ _ _ Hjmp N) as X; simpl in X.
    rewrite forallb_forall in X; specialize (X q Hq).
    unfold insideb, bodyb in *; split.
    + intros [A B]; apply Nat.leb_le in A, B; rewrite A, B in X; simpl in X; b2p; lia.
    + intros [A B]; apply Nat.ltb_lt in A; apply Nat.leb_le in B;
        rewrite A, B in X; simpl in X; b2p; lia.
  - intros r q L Hr Hq NE T [A B]; pose proof (Pair r q Hr Hq) as X;
      unfold pair_okb in X; rewrite T in X.
    apply Nat.eqb_neq in NE; apply Nat.ltb_lt in A; apply Nat.leb_le in B.
    rewrite NE, A, B in X; simpl in X; b2p; lia.
Qed.

(* ---- the regions of a program ------------------------------------------- *)

(* The regions of P by matching each sync with the latest unmatched branch
   before it (brackets); h is the least of b, b's target and the targets of
   the jumps in b..e (the back edges of a loop).  Any regions do for the
   theorems; these are the ones the check is run on. *)
Definition jump_targets (P : program) (b e : nat) : list nat :=
  flat_map (fun p => match nth_error P p with Some (IJump L) => [L] | _ => [] end)
           (seq b (S e - b)).

Definition head_of (P : program) (b e : nat) : nat :=
  fold_left Nat.min (match target P b with Some L => [L] | None => [] end
                     ++ jump_targets P b e) b.

Fixpoint match_syncs (P : program) (is : list ins) (p : nat) (open : list nat)
    : list region :=
  match is with
  | [] => []
  | i :: is' =>
      match i, open with
      | IBz _ _, _ | IBnz _ _, _ => match_syncs P is' (S p) (p :: open)
      | ISync, b :: open' => mkregion b (head_of P b p) p :: match_syncs P is' (S p) open'
      | _, _ => match_syncs P is' (S p) open
      end
  end.

Definition regions (P : program) : list region := match_syncs P P 0 [].

(* The nesting of the regions: the most regions one pc is in. *)
Definition nest_at (C : list region) (p : nat) : nat :=
  length (filter (fun r => insideb r p) C).

Fixpoint maxl (l : list nat) : nat := match l with [] => 0 | x :: l' => Nat.max x (maxl l') end.

Definition nesting (P : program) (C : list region) : nat :=
  maxl (map (nest_at C) (seq 0 (length P))).

(* What the driver reports: structured or not, and the bound. *)
Definition is_structured (P : program) : bool := structuredb P (regions P).
Definition stack_bound (P : program) : nat := nesting P (regions P).

Lemma maxl_in : forall l x, In x l -> x <= maxl l.
Proof.
  induction l as [|a l IH]; simpl; intros x H; [contradiction|].
  destruct H as [H|H]; [subst; lia|apply IH in H; lia].
Qed.

(* ---- the invariant of the reachable states ------------------------------ *)

Section Bound.
Variable o : opts.
Variable P : program.
Variable C : list region.
Context (HS : structured P C).

(* Π = n1 :: n2 :: ...: each node's region is inside those below it. *)
Definition sub (a b : nat) : Prop :=
  forall r q, In r C -> In q C -> rb r = a -> rb q = b -> rh q <= rh r /\ re r <= re q.

Fixpoint sorted_st (st : list node) : Prop :=
  match st with
  | [] => True
  | n :: rest => (forall n', In n' rest -> sub (lid n) (lid n')) /\ sorted_st rest
  end.

(* Every node is a region's whose pcs hold pc, its l_next the branch's
   target; no branch twice; every region whose body holds pc has its node
   on Π; inner regions above outer ones. *)
Definition Inv (st : list node) (p : nat) : Prop :=
  (forall n, In n st -> exists r, In r C /\ rb r = lid n /\
      target P (rb r) = Some (lnext n) /\ rh r <= p <= re r) /\
  NoDup (map lid st) /\
  (forall r, In r C -> rb r < p <= re r -> In (rb r) (map lid st)) /\
  sorted_st st.

Lemma inv_init : Inv [] 0.
Proof. repeat split; simpl; try tauto; try constructor; intros; lia. Qed.

Lemma reg_ok : forall r, In r C -> exists L, target P (rb r) = Some L /\
  rh r <= rb r < re r /\ rh r <= L <= re r /\ nth_error P (re r) = Some ISync.
Proof. apply (st_region _ _ HS). Qed.

Lemma sync_no_target : forall p, nth_error P p = Some ISync -> target P p = None.
Proof. unfold target; intros p H; rewrite H; reflexivity. Qed.

(* Two regions with a common pc are nested. *)
Lemma common_nested : forall r q p, In r C -> In q C ->
  rh r <= p <= re r -> rh q <= p <= re q ->
  (rh r <= rh q /\ re q <= re r) \/ (rh q <= rh r /\ re r <= re q).
Proof.
  intros r q p Hr Hq A B; destruct (st_laminar _ _ HS r q Hr Hq) as [X|[X|X]]; lia.
Qed.

(* A region holding another region's branch holds that whole region. *)
Lemma branch_nest : forall r q, In r C -> In q C -> rb r <> rb q ->
  rh q <= rb r <= re q -> rh q <= rh r /\ re r <= re q.
Proof.
  intros r q Hr Hq NE A.
  destruct (reg_ok r Hr) as [L [_ [B _]]].
  destruct (common_nested r q (rb r) Hr Hq) as [[X Y]|X]; try lia; auto.
  exfalso; eapply (st_branch_out _ _ HS r q); eauto.
Qed.

Lemma uniq_b : forall r q, In r C -> In q C -> rb r = rb q -> r = q.
Proof. apply (st_uniq_b _ _ HS). Qed.

Lemma uniq_e : forall r q, In r C -> In q C -> re r = re q -> r = q.
Proof. apply (st_uniq_e _ _ HS). Qed.

(* At a sync, the node on top of Π is the region the sync closes. *)
Lemma inv_sync_top : forall n rest p, Inv (n :: rest) p -> nth_error P p = Some ISync ->
  exists r, In r C /\ rb r = lid n /\ re r = p /\ target P (rb r) = Some (lnext n).
Proof.
  intros n rest p [I1 [I2 [I3 I4]]] N.
  destruct (st_sync _ _ HS p N) as [q [Hq Eq]].
  destruct (reg_ok q Hq) as [Lq [_ [Bq _]]].
  destruct (I1 n (or_introl eq_refl)) as [r [Hr [Er [Tr Ir]]]].
  exists r; repeat split; auto.
  assert (In (rb q) (map lid (n :: rest))) as M by (apply I3; auto; lia).
  simpl in M; destruct M as [M|M].
  - rewrite <- Er in M; rewrite (uniq_b r q Hr Hq M); auto.
  - apply in_map_iff in M; destruct M as [n' [Ln' Hn']].
    destruct I4 as [S _]; destruct (S n' Hn' r q Hr Hq Er (eq_sym Ln')); lia.
Qed.

(* At a branch, if the branch's node is on Π it is on top. *)
Lemma inv_branch_top : forall n rest p L, Inv (n :: rest) p -> target P p = Some L ->
  In p (map lid (n :: rest)) -> lid n = p.
Proof.
  intros n rest p L [I1 [I2 [I3 I4]]] T M.
  destruct (st_branch _ _ HS p L T) as [r [Hr Er]].
  simpl in M; destruct M as [M|M]; auto.
  apply in_map_iff in M; destruct M as [n' [Ln' Hn']].
  destruct (I1 n (or_introl eq_refl)) as [t [Ht [Et [_ It]]]].
  destruct (Nat.eq_dec (rb t) (rb r)) as [E|E]; [congruence|exfalso].
  destruct I4 as [S _]; destruct (S n' Hn' t r Ht Hr Et (eq_trans Er (eq_sym Ln'))).
  eapply (st_branch_out _ _ HS r t); eauto; lia.
Qed.

Lemma map_lid_In : forall st n, In n st -> In (lid n) (map lid st).
Proof. intros; apply in_map; auto. Qed.

(* Moving pc without touching Π (IT, JP). *)
Lemma inv_move : forall st p p', Inv st p ->
  (forall q, In q C -> rh q <= p <= re q -> rh q <= p' <= re q) ->
  (forall q, In q C -> rb q < p' <= re q -> rb q < p <= re q) ->
  Inv st p'.
Proof.
  intros st p p' [I1 [I2 [I3 I4]]] A B; split; [|split; [|split]]; auto.
  intros n Hn; destruct (I1 n Hn) as [r [Hr [E [T X]]]]; exists r; repeat split; auto;
    apply A; auto.
Qed.

Lemma push_cases : forall st tj p L st', push o st tj p L = Some st' ->
  (st' = mknode p [] L tj :: st /\
     forall n rest, st = n :: rest -> ~ (lid n = p /\ lnext n = L)) \/
  (exists n rest, st = n :: rest /\ lid n = p /\ lnext n = L /\
     st' = mknode p (done n) L (todo n ++ tj) :: rest).
Proof.
  intros st tj p L st' H; destruct st as [|n rest]; simpl in H.
  - inversion H; left; split; auto; intros; discriminate.
  - destruct (strict_push o && _); [discriminate|].
    destruct (lid n =? p) eqn:E1; destruct (lnext n =? L) eqn:E2; simpl in H;
      inversion H; subst; b2p.
    + right; exists n, rest; repeat split; auto; rewrite E1, E2; auto.
    + left; split; auto; intros n' r' Q [A B]; inversion Q; subst; auto.
    + left; split; auto; intros n' r' Q [A B]; inversion Q; subst; auto.
    + left; split; auto; intros n' r' Q [A B]; inversion Q; subst; auto.
Qed.

(* A branch at p (target L) whose region is r: where its PEs go next. *)
Lemma branch_next_body : forall r p L p', In r C -> rb r = p -> target P p = Some L ->
  (p' = L \/ p' = S p) ->
  forall q, In q C -> rb q < p' <= re q -> rb q = p \/ rb q < p <= re q.
Proof.
  intros r p L p' Hr Er T Hp q Hq X.
  destruct (Nat.eq_dec (rb q) p) as [E|E]; [left; auto|right].
  destruct Hp; subst p'.
  - subst p; eapply (st_target _ _ HS r q L); eauto.
  - assert (rb q <> p) by auto; lia.
Qed.

Lemma inv_branch : forall st p L tj st' p', Inv st p -> target P p = Some L ->
  push o st tj p L = Some st' -> (p' = L \/ p' = S p) -> Inv st' p'.
Proof.
  intros st p L tj st' p' I T Hp Hp'.
  destruct (st_branch _ _ HS p L T) as [r [Hr Er]].
  destruct (reg_ok r Hr) as [L' [T' [Br [Lr Sr]]]].
  rewrite Er, T in T'; inversion T'; subst L'.
  assert (Pr : rh r <= p' <= re r) by (destruct Hp'; lia).
  (* every node of the old Π: its region holds r's *)
  assert (Out : forall n, In n st -> lid n <> p ->
            exists q, In q C /\ rb q = lid n /\ target P (rb q) = Some (lnext n) /\
                      rh q <= rh r /\ re r <= re q).
  { intros n Hn NE; destruct I as [I1 _]; destruct (I1 n Hn) as [q [Hq [Eq [Tq Iq]]]].
    exists q; repeat split; auto; apply branch_nest; auto; congruence. }
  destruct I as [I1 [I2 [I3 I4]]].
  destruct (push_cases _ _ _ _ _ Hp) as [[E NT]|[n [rest [E [Ln [Nn E']]]]]].
  - (* a new node on top *)
    assert (NI : ~ In p (map lid st)).
    { intros M; destruct st as [|n rest]; [contradiction|].
      assert (Ln : lid n = p)
        by (eapply inv_branch_top; [exact (conj I1 (conj I2 (conj I3 I4)))|exact T|exact M]).
      destruct (I1 n (or_introl eq_refl)) as [q [Hq [Eq [Tq _]]]].
      apply (NT n rest eq_refl); split; auto; congruence. }
    subst st'; refine (conj _ (conj _ (conj _ _))).
    + intros n [Hn|Hn].
      * subst n; exists r; simpl; repeat split; auto; first [congruence | lia].
      * assert (NE : lid n <> p) by (intros X; apply NI; rewrite <- X; apply map_lid_In; auto).
        destruct (Out n Hn NE) as [q [Hq [Eq [Tq [A B]]]]].
        exists q; repeat split; auto; lia.
    + simpl; constructor; auto.
    + intros q Hq X; simpl.
      destruct (branch_next_body r p L p' Hr Er T Hp' q Hq X) as [Y|Y]; [left; auto|].
      right; apply I3; auto.
    + simpl; split; auto.
      intros n' Hn' a b Ha Hb Ea Eb.
      assert (Ha' : a = r) by (apply uniq_b; auto; congruence); subst a.
      assert (NE : lid n' <> p) by (intros X; apply NI; rewrite <- X; apply map_lid_In; auto).
      destruct (Out n' Hn' NE) as [q [Hq [Eq [_ [A B]]]]].
      assert (b = q) by (apply uniq_b; auto; congruence); subst; tauto.
  - (* merged into the top node *)
    subst st st'; refine (conj _ (conj _ (conj _ _))).
    + intros n' [Hn'|Hn'].
      * subst n'; exists r; simpl; repeat split; auto; first [congruence | lia].
      * destruct (In_dec Nat.eq_dec (lid n') [p]) as [X|X].
        -- simpl in I2; inversion I2 as [|? ? NI' ND']; exfalso; simpl in X;
             destruct X as [X|[]].
           apply NI'; rewrite Ln, X; apply map_lid_In; auto.
        -- assert (NE : lid n' <> p) by (intros Y; apply X; left; auto).
           destruct (Out n' (or_intror Hn') NE) as [q [Hq [Eq [Tq [A B]]]]].
           exists q; repeat split; auto; lia.
    + simpl in *; rewrite <- Ln; auto.
    + intros q Hq X; simpl.
      destruct (branch_next_body r p L p' Hr Er T Hp' q Hq X) as [Y|Y];
        [left; congruence|].
      apply I3 in Y; auto; simpl in Y; destruct Y; [left; congruence|right; auto].
    + simpl in *; rewrite <- Ln; destruct I4; split; auto.
Qed.

Theorem inv_step : forall s rl s', Inv (stack s) (pc s) -> step o P s rl (Run s') ->
  Inv (stack s') (pc s').
Proof.
  intros s rl s' I H; inversion H as
    [Hn Hst|i a L jz j st' Hn Hb Hs Hp|i a L jz t f st' Hn Hb Hs Hp
    |i a L jz t f u j st' Hn Hb Hs Hp|n rest Hn Hst Ht|n rest Hn Hst Ht
    |L Hn|i R' m' Hn Hd Htl]; subst; cbn [stack pc with_stack_pc].
  - (* BT *)
    eapply inv_branch; eauto; unfold target; rewrite Hn; destruct i; simpl in Hb;
      inversion Hb; auto.
  - eapply inv_branch; eauto; unfold target; rewrite Hn; destruct i; simpl in Hb;
      inversion Hb; auto.
  - eapply inv_branch; eauto; unfold target; rewrite Hn; destruct i; simpl in Hb;
      inversion Hb; auto.
  - (* SS: the todo PEs resume at the target, inside the region *)
    rewrite Hst in I; destruct (inv_sync_top n rest (pc s) I Hn) as [r [Hr [Er [Ee Tr]]]].
    destruct (reg_ok r Hr) as [L [T' [Br [Lr Sr]]]]; rewrite Tr in T'; inversion T'; subst L.
    destruct I as [I1 [I2 [I3 I4]]]; refine (conj _ (conj _ (conj _ _))); simpl.
    + intros n' [Hn'|Hn'].
      * subst n'; exists r; repeat split; simpl; auto; lia.
      * destruct (I1 n' (or_intror Hn')) as [q [Hq [Eq [Tq _]]]].
        destruct I4 as [S _]; destruct (S n' Hn' r q Hr Hq Er Eq).
        exists q; repeat split; auto; lia.
    + simpl in I2; auto.
    + intros q Hq [A B].
      destruct (Nat.eq_dec (rb q) (rb r)) as [E|E]; [left; congruence|].
      destruct (st_target _ _ HS r q (lnext n) Hr Hq E Tr (conj A B)) as [X Y].
      destruct (reg_ok q Hq) as [Lq [_ [Bq _]]].
      destruct (branch_nest r q Hr Hq (not_eq_sym E) (conj (Nat.le_trans _ _ _ (proj1 Bq)
                  (Nat.lt_le_incl _ _ X)) Y)) as [Z W].
      assert (In (rb q) (map lid (n :: rest))) as M by (apply I3; auto; lia).
      simpl in M; destruct M as [M|M]; [left|right]; auto.
    + simpl in I4; tauto.
  - (* SP: pop, pc + 1 *)
    rewrite Hst in I; destruct (inv_sync_top n rest (pc s) I Hn) as [r [Hr [Er [Ee Tr]]]].
    destruct I as [I1 [I2 [I3 I4]]]; simpl in I2; inversion I2 as [|? ? NI ND]; subst.
    refine (conj _ (conj _ (conj _ _))).
    + intros n' Hn'; destruct (I1 n' (or_intror Hn')) as [q [Hq [Eq [Tq Iq]]]].
      exists q; repeat split; auto; try lia.
      destruct I4 as [S _]; destruct (S n' Hn' r q Hr Hq Er Eq) as [_ X].
      assert (re r <> re q); [|lia].
      intros Y; apply NI; rewrite <- Er, (uniq_e r q Hr Hq Y), Eq; apply map_lid_In; auto.
    + auto.
    + intros q Hq [A B].
      assert (rb q <> re r).
      { intros X; pose proof (reg_ok q Hq) as [L [Tq _]]; rewrite X in Tq.
        rewrite sync_no_target in Tq; [discriminate|congruence]. }
      assert (In (rb q) (map lid (n :: rest))) as M by (apply I3; auto; lia).
      simpl in M; destruct M as [M|M]; auto.
      rewrite <- Er in M; rewrite (uniq_b r q Hr Hq M) in *; lia.
    + simpl in I4; tauto.
  - (* JP *)
    eapply inv_move; eauto; intros q Hq X; eapply (st_jump _ _ HS); eauto.
  - (* IT: pc + 1 stays inside every region (the last pc of a region is a sync) *)
    eapply inv_move; eauto; intros q Hq X; destruct (reg_ok q Hq) as [L [Tq [Bq [Lq Sq]]]].
    + assert (pc s <> re q) by (intros E; rewrite E in Hn; rewrite Sq in Hn;
                                 inversion Hn; subst; discriminate); lia.
    + assert (rb q <> pc s); [|lia].
      intros E; rewrite E in Tq; unfold target in Tq; rewrite Hn in Tq;
        destruct i; simpl in Hd, Tq; discriminate.
Qed.

Lemma inv_steps : forall s s', steps o P s s' -> Inv (stack s) (pc s) -> Inv (stack s') (pc s').
Proof.
  intros s s' H; induction H as [s|s rl s1 s2 Hs _ IH]; auto.
  intros I; apply IH; eapply inv_step; eauto.
Qed.

(* Depth ≤ the number of regions holding pc ≤ the nesting. *)
Lemma inv_depth : forall st p, Inv st p -> length st <= nesting P C.
Proof.
  intros st p [I1 [I2 [I3 I4]]].
  destruct st as [|n rest]; [simpl; lia|].
  assert (L1 : length (n :: rest) <= nest_at C p).
  { rewrite <- (map_length lid); unfold nest_at; rewrite <- (map_length rb).
    apply NoDup_incl_length; auto.
    intros x Hx; apply in_map_iff in Hx; destruct Hx as [n' [Ex Hn']].
    destruct (I1 n' Hn') as [r [Hr [Er [_ [A B]]]]].
    apply in_map_iff; exists r; split; [congruence|].
    apply filter_In; split; auto; unfold insideb; apply andb_true_intro;
      split; apply Nat.leb_le; auto. }
  assert (Pl : p < length P).
  { destruct (I1 n (or_introl eq_refl)) as [r [Hr [_ [_ [_ B]]]]].
    destruct (reg_ok r Hr) as [L [_ [_ [_ Sr]]]].
    assert (re r < length P) by (apply nth_error_Some; congruence); lia. }
  eapply Nat.le_trans; [apply L1|].
  apply maxl_in, in_map, in_seq; lia.
Qed.

(* The stack bound: in every state reachable from an initial state
   (Π = [], pc = 0) of a structured program, depth(Π) ≤ nesting P C. *)
Theorem stack_bound_structured : forall ts R m s,
  steps o P (mkstate ts R m [] 0) s -> length (stack s) <= nesting P C.
Proof.
  intros ts R m s H; eapply inv_depth, inv_steps; eauto; apply inv_init.
Qed.

End Bound.

(* The same for the regions the extracted check uses: a program for which
   is_structured is true never has more than stack_bound P nodes on Π. *)
Corollary stack_bound_checked : forall o P ts R m s,
  is_structured P = true -> steps o P (mkstate ts R m [] 0) s ->
  length (stack s) <= stack_bound P.
Proof.
  intros o P ts R m s H; apply stack_bound_structured, structuredb_correct; auto.
Qed.
