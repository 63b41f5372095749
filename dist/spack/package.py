# Spack recipe for augur (docs/install.md "Spack"). Use it from a local repo:
#   spack repo create myrepo && mkdir -p myrepo/packages/augur
#   cp dist/spack/package.py myrepo/packages/augur/ && spack repo add myrepo
#   spack install augur@main     (or: spack dev-build augur@main in a checkout)
# tests/install/spack.py checks it against CMakeLists.txt and the Makefile.

from spack.package import *


class Augur(CMakePackage):
    """augur records MPI programs (PMPI interposition, LD_PRELOAD) and analyses
    the traces: report, diagnose (KappaPi), phases, signature and predict
    (PAS2P), simulate. Installs the augur command, the recorder and profile
    libraries, libaugur (the C API) with pkg-config and CMake files, man pages
    and bash completion."""

    # No public release or repository yet: point git at the site's own clone
    # (or use `spack dev-build augur@main` inside a checkout).
    git = "file:///opt/src/augur"

    version("main", branch="main")

    # The Makefile's build (make; make install) is CMake's defaults, in
    # RelWithDebInfo: the variants default to those (tests/install/spack.py).
    variant(
        "build_type",
        default="RelWithDebInfo",
        values=("Debug", "Release", "RelWithDebInfo", "MinSizeRel"),
        description="CMake build type (the Makefile's: RelWithDebInfo)",
    )
    variant("mpi", default=True, description="Build the MPI recorder (AUGUR_MPI)")
    variant(
        "fortran",
        default=True,
        description="Recorder with the Fortran MPI bindings (AUGUR_RECORD_FORTRAN)",
    )
    variant("otf2", default=False, description="OTF2 export and import (augur export/import)")
    variant("papi", default=False, description="Hardware counters per compute burst (PAPI)")

    depends_on("c", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")
    # The man pages and bash completion are generated from --help (scripts/cli-docs.py).
    depends_on("python@3:", type="build")

    # pkg_check_modules(... REQUIRED) and find_package(... REQUIRED) of the CMake files.
    depends_on("zstd")
    depends_on("xxhash")
    depends_on("jansson")
    depends_on("elfutils")  # libdw, libelf: call sites, which MPI a program links
    depends_on("hwloc")
    depends_on("libinih")
    depends_on("sqlite")
    depends_on("openssl")
    # Optional in CMake, found when present.
    depends_on("libmicrohttpd")  # augur web
    depends_on("otf2", when="+otf2")
    depends_on("papi", when="+papi")
    depends_on("mpi", when="+mpi")

    # The recorder is built per MPI flavour, MPICH or Open MPI (cmake/mpi.cmake);
    # other MPIs have another ABI.
    conflicts("^intel-oneapi-mpi", when="+mpi")
    conflicts("^spectrum-mpi", when="+mpi")

    def cmake_args(self):
        args = [
            self.define_from_variant("AUGUR_MPI", "mpi"),
            self.define_from_variant("AUGUR_RECORD_FORTRAN", "fortran"),
        ]
        if self.spec.satisfies("+mpi"):
            # cmake/mpi.cmake looks for Debian's suffixed wrappers
            # (mpicc.mpich, mpicc.openmpi); Spack's are plain: name them.
            mpi = self.spec["mpi"]
            flavour = "openmpi" if mpi.name == "openmpi" else "mpich"
            args += [
                self.define("AUGUR_MPI_%s_MPICC" % flavour, mpi.mpicc),
                self.define("AUGUR_MPI_%s_MPIFORT" % flavour, mpi.mpifc),
                self.define("AUGUR_MPI_%s_MPIEXEC" % flavour, join_path(mpi.prefix.bin, "mpiexec")),
            ]
        return args

    def setup_run_environment(self, env):
        # The man pages (share/man) and, for programs using the C API,
        # pkg-config and CMake find libaugur in the prefix.
        env.prepend_path("MANPATH", self.prefix.share.man)
        env.prepend_path("PKG_CONFIG_PATH", self.prefix.lib.pkgconfig)
        env.prepend_path("CMAKE_PREFIX_PATH", self.prefix)
