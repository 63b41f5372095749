# augur — the two README commands are `make demo` and `make check`.
#   make            build into build/ (CLI: build/bin/augur, recorder: build/lib/libaugur-mpi.so)
#   make demo       install missing packages, build, record + report a stencil run
#   make check      install missing packages, build, run the whole test suite
#                   (release build, ASan+UBSan build, short libFuzzer runs)
#   make install PREFIX=/opt/augur
#   make deb        a Debian package of the build: BUILD/augur_VERSION_ARCH.deb (docs/install.md)
#   make bench      print the benchmark figures (not part of check)
#   make format     clang-format the sources in place

BUILD   ?= build
ASAN    ?= build-asan
ASANREC ?= build-asan-rec
FUZZ    ?= build-fuzz
PREFIX  ?= /usr/local
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
# Tests run Debian's python3 (the one install-deps.sh gives cffi, numpy, pytest,
# otf2), not a user's pyenv/conda shim earlier in PATH: such a shim is a shell
# script costing 0.5-1 s of CPU per call, and the suite calls python3 hundreds of times.
TEST_ENV = PATH=/usr/bin:$$PATH

.PHONY: all build deps demo check check-release check-asan check-asan-recorder check-fuzz check-format install bench format clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: deps build
	@scripts/demo.sh $(BUILD)

check: deps
	@$(MAKE) --no-print-directory check-format
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory check-release
	@$(MAKE) --no-print-directory check-asan
	@$(MAKE) --no-print-directory check-asan-recorder
	@$(MAKE) --no-print-directory check-fuzz
	@echo "augur: all checks passed"

# The proving-ground tests (label "proving") check injected waits of ~0.1-1 s
# with margins, and the "timing" tests compare a program's own timers ON vs OFF
# (OpenMP apps, recorded barrier waits); a busy neighbour on a 2-core machine
# can eat a margin, so they run last, one at a time, with up to three tries.
# Every other test must pass the first time.
check-release: build
	cd $(BUILD) && $(TEST_ENV) ctest --output-on-failure -j 2 --timeout 300 -LE 'proving|timing'
	cd $(BUILD) && $(TEST_ENV) ctest --output-on-failure --timeout 300 -L 'proving|timing' --repeat until-pass:3

# ASan+UBSan: the library, CLI and unit tests (the MPI recorder is exercised in
# the release build: ASan cannot be LD_PRELOADed into an uninstrumented mpiexec).
check-asan:
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DAUGUR_SANITIZE=ON -DAUGUR_MPI=OFF >/dev/null
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 UBSAN_OPTIONS=print_stacktrace=1 $(TEST_ENV) ctest --output-on-failure -j 2 --timeout 300

# The MPI recorder under ASan+UBSan: the build above has no MPI, so MPICH's
# recorder and the record tests' programs get a sanitizer build of their own
# (only those targets), and tests/record/asan_recorder.sh runs them with
# libasan preloaded before the recorder.
check-asan-recorder:
	cmake -S . -B $(ASANREC) -DCMAKE_BUILD_TYPE=Debug -DAUGUR_SANITIZE=ON >/dev/null
	cmake --build $(ASANREC) -j $(JOBS) --target augur augur-mpi-mpich augur-check-record record-tests-mpich
	$(TEST_ENV) sh tests/record/asan_recorder.sh $(ASANREC)

# The clang build makes only the targets of its tests (fuzz_stage: fuzz_* and
# the resolve tests, tests/CMakeLists.txt), not the whole tree again.
check-fuzz:
	CC=clang cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=Debug -DAUGUR_FUZZ=ON -DAUGUR_MPI=OFF >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target fuzz_stage
	cd $(FUZZ) && $(TEST_ENV) ctest --output-on-failure -j 2 -L 'fuzz|resolve' --timeout 300

check-format:
	@scripts/check-format.sh

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

.PHONY: deb
# Like demo and check, it first installs missing packages (scripts/install-deps.sh).
deb: deps build
	@scripts/make-deb.sh $(BUILD)

bench: build
	@scripts/bench.sh $(BUILD)

format:
	@scripts/check-format.sh --fix

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)
