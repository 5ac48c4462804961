(* coqrun.ml — runs a program with the extracted step function (Exec.exec,
   proved equal to the step relation) and prints the trace, the final state
   and the outcome for tests/proofs_diff.py.  Nothing here decides a rule:
   it reads the program, iterates exec and prints what exec returns.

   Input (stdin), one item per line:
     opts BZZERO STRICT MEMZERO NTHREADS WSIZE NVARS MAXSTEPS
     init VAR Z          a parameter's value, in every thread
     data ADDR Z         an initial cell of Σ
     i OP ARGS...        the instructions in pc order (see ins_of)
   Operands: vN (variable N), lZ (literal), s:NAME (tid laneid warpid ntid
   nwarps warpsize).  --names prints the name tables instead.

   Last line: `structured 1 BOUND MAXDEPTH` when the extracted check
   Structured.is_structured accepts the program (BOUND = stack_bound, the
   nesting of its regions, which Structured.stack_bound_checked proves no
   reachable Π exceeds; MAXDEPTH the deepest Π of this run), else
   `structured 0 - MAXDEPTH`. *)
open Musimd_sem

let z_ten = Z.of_nat 10

let z_of_string s =
  let neg = String.length s > 0 && s.[0] = '-' in
  let start = if neg then 1 else 0 in
  let acc = ref Z0 in
  for k = start to String.length s - 1 do
    acc := Z.add (Z.mul !acc z_ten) (Z.of_nat (Char.code s.[k] - 48))
  done;
  if neg then Z.opp !acc else !acc

(* Z as a binary literal Python reads with int(s, 0). *)
let string_of_z z =
  let rec bits p acc =
    match p with XH -> "1" ^ acc | XO q -> bits q ("0" ^ acc) | XI q -> bits q ("1" ^ acc)
  in
  match z with Z0 -> "0" | Zpos p -> "0b" ^ bits p "" | Zneg p -> "-0b" ^ bits p ""

let opnd_of s =
  match s.[0] with
  | 'v' -> OVar (int_of_string (String.sub s 1 (String.length s - 1)))
  | 'l' -> OLit (z_of_string (String.sub s 1 (String.length s - 1)))
  | 's' ->
      OSpec
        (match String.sub s 2 (String.length s - 2) with
        | "tid" -> STid | "laneid" -> SLaneid | "warpid" -> SWarpid
        | "ntid" -> SNtid | "nwarps" -> SNwarps | "warpsize" -> SWarpsize
        | x -> failwith ("special " ^ x))
  | _ -> failwith ("operand " ^ s)

let binop_of s =
  match List.find_opt (fun b -> binop_name b = s) binops with
  | Some b -> b
  | None -> failwith ("binop " ^ s)

let ins_of = function
  | [ "copy"; d; a ] -> ICopy (int_of_string d, opnd_of a)
  | [ "unary"; u; d; a ] ->
      let u = match u with "neg" -> Neg | "not" -> Not | "bnot" -> Bnot | _ -> failwith u in
      IUnary (u, int_of_string d, opnd_of a)
  | [ "binary"; o; d; a; b ] -> IBinary (binop_of o, int_of_string d, opnd_of a, opnd_of b)
  | [ "load"; d; a ] -> ILoad (int_of_string d, opnd_of a)
  | [ "store"; a; b ] -> IStore (opnd_of a, opnd_of b)
  | [ "atominc"; d; a ] -> IAtominc (int_of_string d, opnd_of a)
  | [ "bz"; a; l ] -> IBz (opnd_of a, int_of_string l)
  | [ "bnz"; a; l ] -> IBnz (opnd_of a, int_of_string l)
  | [ "jump"; l ] -> IJump (int_of_string l)
  | [ "sync" ] -> ISync
  | [ "stop" ] -> IStop
  | w -> failwith ("instruction " ^ String.concat " " w)

let set_str l = match isort l with [] -> "-" | l -> String.concat "," (List.map string_of_int l)

let stack_str st =
  match st with
  | [] -> "[]"
  | _ ->
      String.concat ";"
        (List.map
           (fun n -> Printf.sprintf "%d/%s/%d/%s" n.lid (set_str n.done0) n.lnext (set_str n.todo))
           st)

let print_names () =
  List.iter (fun r -> print_endline ("rule " ^ rule_name r)) rules;
  List.iter (fun o -> print_endline ("opcode " ^ opcode_name o)) opcodes;
  List.iter (fun b -> print_endline ("binop " ^ binop_name b)) binops

let () =
  if Array.length Sys.argv > 1 && Sys.argv.(1) = "--names" then (print_names (); exit 0);
  let o = ref None and nvars = ref 0 and maxsteps = ref 0 in
  let inits = ref [] and data = ref [] and prog = ref [] in
  (try
     while true do
       match String.split_on_char ' ' (input_line stdin) |> List.filter (( <> ) "") with
       | [ "opts"; bz; sp; mz; nt; ws; nv; ms ] ->
           o :=
             Some
               { bz_zero = bz = "1"; strict_push = sp = "1"; mem_zero = mz = "1";
                 nthreads = int_of_string nt; wsize = int_of_string ws };
           nvars := int_of_string nv;
           maxsteps := int_of_string ms
       | [ "init"; x; z ] -> inits := (int_of_string x, z_of_string z) :: !inits
       | [ "data"; a; z ] -> data := (z_of_string a, z_of_string z) :: !data
       | "i" :: w -> prog := ins_of w :: !prog
       | [] -> ()
       | w -> failwith ("input " ^ String.concat " " w)
     done
   with End_of_file -> ());
  let o = match !o with Some o -> o | None -> failwith "no opts line" in
  let prog = List.rev !prog in
  let n = o.nthreads and nv = !nvars in
  (* σ as tables, rebuilt after every step: extensionally the closures exec
     returns, without their growing chains of updates *)
  let tabulate (r : regs) : regs =
    let t = Array.init n (fun u -> Array.init nv (fun x -> r u x)) in
    fun u x -> if u < n && x < nv then t.(u).(x) else None
  in
  let r0 u x = if u < n then List.assoc_opt x !inits else None in
  let s0 =
    { theta = List.init n (fun t -> t); rg = tabulate r0; mem = List.rev !data;
      stack = []; pc = 0 }
  in
  let maxdepth = ref 0 in
  let finish s status =
    print_endline status;
    let seen = Hashtbl.create 64 in
    List.iter
      (fun (a, v) ->
        if not (Hashtbl.mem seen a) then (
          Hashtbl.add seen a ();
          Printf.printf "mem %s %s\n" (string_of_z a) (string_of_z v)))
      s.mem;
    for t = 0 to n - 1 do
      for x = 0 to nv - 1 do
        match s.rg t x with
        | Some v -> Printf.printf "var %d %d %s\n" t x (string_of_z v)
        | None -> ()
      done
    done;
    if is_structured prog then Printf.printf "structured 1 %d %d\n" (stack_bound prog) !maxdepth
    else Printf.printf "structured 0 - %d\n" !maxdepth
  in
  let rec loop s k =
    if k >= !maxsteps then finish s "status limit"
    else
      match exec o prog s with
      | Inl e -> finish s (Printf.sprintf "status stuck %s %d" (stuck_name e) s.pc)
      | Inr (r, c) -> (
          let s' = match c with Run s' | Halt s' -> s' in
          maxdepth := max !maxdepth (List.length s'.stack);
          Printf.printf "step %s %d %s %s\n" (rule_name r) s.pc (set_str s.theta) (stack_str s'.stack);
          match c with
          | Halt s' -> finish s' "status ok"
          | Run s' -> loop { s' with rg = tabulate s'.rg } (k + 1))
  in
  loop s0 0
