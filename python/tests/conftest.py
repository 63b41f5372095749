"""Fixtures of the augur Python tests: traces recorded (or generated) once
per session. Environment from python/CMakeLists.txt (ctest python_pytest):
AUGUR_LIB, AUGUR_BIN, AUGUR_MPIEXEC, AUGUR_STENCIL, AUGUR_DXGEN, WORK."""

import json
import os
import shutil
import struct
import subprocess

import pytest

def env(name):
    v = os.environ.get(name)
    if not v:
        pytest.fail("%s is not set: run the tests with `ctest -R python`" % name)
    return v


def augur_cli(*args, check=True):
    """Runs the augur command; returns (exit status, stdout, stderr)."""
    p = subprocess.run([env("AUGUR_BIN")] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    out, err = p.stdout.decode(), p.stderr.decode()
    if check and p.returncode != 0:
        raise AssertionError("augur %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode,
                                                        err))
    return p.returncode, out, err


def cli_json(*args):
    return json.loads(augur_cli(*args, "--json")[1])


def dump_lines(path, *args):
    """Event lines of `augur dump` (without the header)."""
    rc, out, _ = augur_cli("dump", path, *args, check=False)
    return out.splitlines()[1:], rc


@pytest.fixture(scope="session")
def work():
    d = os.path.join(env("WORK"), "pytest")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


@pytest.fixture(scope="session")
def stencil(work):
    """A 4-rank MPICH stencil, 20 iterations on a 2x2 grid (apps/stencil.c):
    per rank and iteration Irecv x2, Isend x2, Waitall (+4 completions),
    Allreduce."""
    path = os.path.join(work, "stencil.augur")
    augur_cli("record", "-o", path, "--", env("AUGUR_MPIEXEC"), "-n", 4, env("AUGUR_STENCIL"),
              "-n", 20)
    assert os.path.isfile(os.path.join(path, "trace.json")), "no trace recorded"
    return path


@pytest.fixture(scope="session")
def damaged(work):
    """A generated 3-rank trace (augur-bench-dx-gen, several events blocks
    per rank) with rank 2's file cut in half."""
    path = os.path.join(work, "damaged.augur")
    subprocess.run([env("AUGUR_DXGEN"), path, "--ranks", "3", "--events", "60000"], check=True,
                   stdout=subprocess.DEVNULL)
    f = os.path.join(path, "rank-00002.evt")
    os.truncate(f, os.path.getsize(f) // 2)
    return path


@pytest.fixture(scope="session")
def interrupted(work):
    """A generated 3-rank trace whose ranks never reach MPI_Finalize (bench
    tool augur-bench-dx-gen --cut): an incomplete trace."""
    path = os.path.join(work, "interrupted.augur")
    subprocess.run([env("AUGUR_DXGEN"), path, "--ranks", "3", "--events", "3000", "--cut"],
                   check=True, stdout=subprocess.DEVNULL)
    return path


@pytest.fixture(scope="session")
def dropped(work):
    """A generated 2-rank trace with rank 1's second events block written
    again at the end of its file (valid checksums): the reader drops the
    copy (tests/record/dup_block.sh makes the same damage)."""
    path = os.path.join(work, "dropped.augur")
    subprocess.run([env("AUGUR_DXGEN"), path, "--ranks", "2", "--events", "40000"], check=True,
                   stdout=subprocess.DEVNULL)
    f = os.path.join(path, "rank-00001.evt")
    b = open(f, "rb").read()
    off, k = 32, 0  # past the file header; blocks: 56-byte header + stored bytes
    while off < len(b):
        end = off + 56 + struct.unpack_from("<I", b, off + 20)[0]
        if b[off + 4] == 1:  # an events block
            if k == 1:
                b += b[off:end]
                break
            k += 1
        off = end
    else:
        pytest.fail("no second events block in %s" % f)
    open(f, "wb").write(b)
    return path


def pytest_collection_modifyitems(items):
    """The cdef check first: a binding whose structs do not match the headers
    makes the library read past them, and the first test to call it crashes
    the whole run before the check that names the mismatch (stop 40:
    augur_dx_options without diagnose --parallel's fields)."""
    items.sort(key=lambda it: 0 if it.module.__name__ == "test_cdef" else 1)
