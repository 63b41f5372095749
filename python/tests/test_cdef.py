"""The package's cdef (python/augur/_cdef.py) against include/augur: one C
file with its prototypes verbatim (a conflicting declaration does not
compile) and _Static_asserts of every size, offset and constant cffi took
from it."""

import os
import re
import subprocess

import pytest

from augur import _cdef
from augur._lib import ffi
from conftest import env


def test_cdef_matches_headers(tmp_path):
    lines = ["#include <stddef.h>", "#include <stdio.h>"]
    lines += ["#include \"augur/%s\"" % h for h in _cdef.HEADERS]
    lines.append(_cdef.FUNCS)
    structs = re.findall(r"typedef struct (\w+) \{", _cdef.TYPES)
    assert "augur_event" in structs and "augur_pop" in structs
    for name in structs:
        t = ffi.typeof(name)
        lines.append("_Static_assert(sizeof(%s) == %d, \"sizeof %s\");"
                     % (name, ffi.sizeof(t), name))
        for field, f in t.fields:
            lines.append("_Static_assert(offsetof(%s, %s) == %d, \"%s.%s\");"
                         % (name, field, f.offset, name, field))
            lines.append("_Static_assert(sizeof(((%s *)0)->%s) == %d, \"%s.%s size\");"
                         % (name, field, ffi.sizeof(f.type), name, field))
    for name, value in re.findall(r"#define (\w+) (\d+)", _cdef.TYPES):
        lines.append("_Static_assert(%s == %s, \"%s\");" % (name, value, name))
    src = tmp_path / "cdef_check.c"
    src.write_text("\n".join(lines) + "\n")
    p = subprocess.run([os.environ.get("CC", "cc"), "-std=c11", "-Wall", "-Werror", "-c",
                        "-I", env("AUGUR_INCLUDE"), "-o", str(tmp_path / "cdef_check.o"),
                        str(src)], stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        # The other tests would call the library with structs of the wrong
        # layout and may crash before this failure is reported: stop here.
        pytest.exit("python/augur/_cdef.py does not match include/augur:\n"
                    + p.stderr.decode(), returncode=1)
