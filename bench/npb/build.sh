#!/bin/sh
# bench/npb/build.sh: build NAS Parallel Benchmarks MPI kernels with one MPI.
# Usage: bench/npb/build.sh NPB_DIR FLAVOUR OUT_DIR SPEC...
#   NPB_DIR: the NPB3.3-MPI (or 3.3.1/3.4-MPI) folder, or a checkout holding
#            one (e.g. the public mirror mbdevpl/nas-parallel-benchmarks);
#            it is only read: the tree is copied into OUT_DIR/src.FLAVOUR.
#   FLAVOUR: mpich or openmpi (the compilers mpif90.FLAVOUR, mpicc.FLAVOUR).
#   OUT_DIR: the binaries land in OUT_DIR/kernel.CLASS.NP (e.g. cg.A.2).
#   SPEC:    kernel:CLASS:NP, e.g. cg:A:2 (NPB 3.3 fixes class and rank count
#            at compile time). A binary already in OUT_DIR is not rebuilt.
#            BT-IO: btio-full, btio-simple (BT with SUBTYPE=full / simple:
#            MPI-IO collective / independent), e.g. btio-simple:S:4.
# Built with -O2 -g (augur resolves call sites from the debug information);
# gfortran >= 10 needs -fallow-argument-mismatch for NPB's untyped MPI buffers
# (and -fallow-invalid-boz for randi8.f).
# Prints one line per binary: built, present, or FAILED (log in OUT_DIR/log).
set -eu
[ $# -ge 4 ] || { sed -n '2,14p' "$0"; exit 2; }
NPB=$1
FLAVOUR=$2
OUT=$3
shift 3
# Find the MPI tree: the folder itself, or NPB3.3-MPI / NPB3.3.1-MPI / NPB3.4-MPI in it.
SRC=""
for d in "$NPB" "$NPB/NPB3.3.1-MPI" "$NPB/NPB3.3-MPI" "$NPB/NPB3.4-MPI"; do
  [ -f "$d/config/make.def.template" ] && [ -d "$d/CG" ] && { SRC=$d; break; }
done
[ -n "$SRC" ] || { echo "bench/npb: no NPB MPI tree (config/make.def.template, CG/) in $NPB" >&2; exit 2; }
command -v "mpif90.$FLAVOUR" >/dev/null ||
  { echo "bench/npb: mpif90.$FLAVOUR not found" >&2; exit 2; }
mkdir -p "$OUT/log"
OUT=$(cd "$OUT" && pwd)
B="$OUT/src.$FLAVOUR"
if [ ! -f "$B/config/make.def" ]; then
  rm -rf "$B"
  cp -R "$SRC" "$B"
  mkdir -p "$B/bin"
  FEXTRA=""
  printf '      end\n' >"$OUT/log/probe.f"
  # and -fallow-invalid-boz for randi8.f's X'...' constants (MPICH's wrapper
  # adds both itself, Open MPI's does not).
  for f in -fallow-argument-mismatch -fallow-invalid-boz; do
    "mpif90.$FLAVOUR" $f -fsyntax-only "$OUT/log/probe.f" >/dev/null 2>&1 && FEXTRA="$FEXTRA $f"
  done
  # NPB 3.4 is Fortran 90 with modules (.f90); 3.3 is fixed-form .f: both are
  # compiled by mpif90.
  cat >"$B/config/make.def" <<EOF
MPIF77 = mpif90.$FLAVOUR
MPIFC = mpif90.$FLAVOUR
FLINK = \$(MPIF77)
FMPI_LIB =
FMPI_INC =
FFLAGS = -O2 -g$FEXTRA
FLINKFLAGS = -O2 -g
MPICC = mpicc.$FLAVOUR
CLINK = \$(MPICC)
CMPI_LIB =
CMPI_INC =
CFLAGS = -O2 -g
CLINKFLAGS = -O2 -g
CC = cc -g
BINDIR = ../bin
RAND = randi8
EOF
fi
status=0
for spec in "$@"; do
  k=${spec%%:*}
  rest=${spec#*:}
  cls=${rest%%:*}
  np=${rest#*:}
  name="$k.$cls.$np"
  if [ -x "$OUT/$name" ]; then
    echo "$name present"
    continue
  fi
  # One kernel at a time per tree: the kernels share common/ objects and
  # sys/setparams writes the kernel's npbparams.h.
  # BT-IO: make bt SUBTYPE=full|simple writes bin/bt.CLASS.NP.mpi_io_SUBTYPE
  mk=$k sub="" bin="$name"
  case "$k" in btio-*)
    mk=bt sub=${k#btio-} bin="bt.$cls.$np.mpi_io_${k#btio-}"
    ;;
  esac
  if (cd "$B" && make "$mk" CLASS="$cls" NPROCS="$np" ${sub:+SUBTYPE=$sub}) >"$OUT/log/$name.log" 2>&1 &&
    [ -x "$B/bin/$bin" ]; then
    cp "$B/bin/$bin" "$OUT/$name"
    echo "$name built"
  else
    echo "$name FAILED (log: $OUT/log/$name.log)"
    status=1
  fi
done
exit $status
