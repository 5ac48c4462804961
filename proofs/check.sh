#!/bin/sh
# The meson test `proofs`: build the Coq development with coq_makefile in a
# build directory, check that the theorems rest on no axiom, extract the
# step function and compile the driver, then compare the names with the C
# code (tests/proofs_names.py) and the runs with musimd's
# (tests/proofs_diff.py).
#   proofs/check.sh SOURCE_ROOT WORK_DIR MUSIMD [proofs_diff.py options]
# Exit 77 (meson: skipped) when coqc is not installed; setup.sh installs it.
set -eu
root=$1 work=$2
musimd=$(cd "$(dirname "$3")" && pwd)/$(basename "$3") # meson passes it relative
shift 3
if ! command -v coqc >/dev/null 2>&1; then
	echo "proofs: SKIPPED: coqc not found; install Debian's coq and ocaml-nox (./setup.sh does)"
	exit 77
fi
for tool in coq_makefile ocamlopt python3; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "proofs: $tool not found (Debian packages coq, ocaml-nox, python3; ./setup.sh installs them)" >&2
		exit 1
	}
done
rm -rf "$work"
mkdir -p "$work"
cp "$root"/proofs/*.v "$root"/proofs/_CoqProject "$root"/proofs/coqrun.ml "$work"/
cd "$work"
# what README calls proved must not be admitted or assumed
if grep -nE '\b(Admitted|admit|Axiom|Parameter|Hypothesis|Conjecture)\b' ./*.v; then
	echo "proofs: an admitted or assumed statement (above)" >&2
	exit 1
fi
coq_makefile -f _CoqProject -o CoqMakefile >/dev/null
make -s -f CoqMakefile >coq.log 2>&1 || { cat coq.log; exit 1; }
# Assumptions.v prints what each theorem rests on: it must be nothing
coqc -R . Musimd Assumptions.v >assumptions.log 2>&1 || { cat assumptions.log; exit 1; }
if grep -vx "Closed under the global context" assumptions.log | grep -q .; then
	cat assumptions.log
	echo "proofs: a theorem rests on an axiom or an assumption (above)" >&2
	exit 1
fi
echo "proofs: $(grep -c "Closed under the global context" assumptions.log) theorems closed under the global context (no axioms)"
ocamlopt -w -a musimd_sem.mli musimd_sem.ml coqrun.ml -o coqrun
python3 "$root"/tests/proofs_names.py "$root" ./coqrun
python3 "$root"/tests/proofs_diff.py "$musimd" ./coqrun "$root"/examples "$@"
