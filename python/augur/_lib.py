"""Loading libaugur.so with cffi (ABI mode: no compiler at import) and
turning augur's status codes into exceptions.

The library is found, in order: $AUGUR_LIB (a path to libaugur.so); the
path `make install` wrote into _config.py (relative to this package);
the dynamic linker's search (ldconfig, LD_LIBRARY_PATH). The `augur` command
(for what only the CLI computes): $AUGUR_BIN, _config.py's, then $PATH.
"""

import ctypes.util
import os
import shutil

import cffi

from . import _cdef

try:  # written by `make install` (python/CMakeLists.txt); absent in the source tree
    from . import _config
except ImportError:  # pragma: no cover - depends on how the package is used
    _config = None

_HERE = os.path.dirname(os.path.abspath(__file__))


class AugurError(Exception):
    """An augur call failed. `code` is augur's status (include/augur/error.h,
    negative), `status` its short name ("checksum", "missing", ...), and the
    message is augur_fail's: the file, the rank, the byte offset and what was
    expected. `partial` holds what could be computed before the failure
    (report only: the figures of everything read before the damage), else
    None."""

    def __init__(self, message, code=-1, status="unknown", partial=None):
        super().__init__(message)
        self.code = code
        self.status = status
        self.partial = partial


ffi = cffi.FFI()
ffi.cdef(_cdef.TYPES)
ffi.cdef(_cdef.FUNCS)
ffi.cdef(_cdef.LIBC)


def _candidates():
    env = os.environ.get("AUGUR_LIB")
    if env:
        return [env]  # an explicit choice is not second-guessed
    out = []
    if _config is not None:
        out.append(os.path.normpath(os.path.join(_HERE, _config.LIB_RELATIVE)))
    found = ctypes.util.find_library("augur")
    if found:
        out.append(found)
    out.append("libaugur.so")
    return out


def _load():
    errors = []
    for path in _candidates():
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            errors.append("%s: %s" % (path, e))
    raise ImportError("augur: cannot load libaugur.so (set AUGUR_LIB to its path): "
                      + "; ".join(errors))


lib, lib_path = _load()
libc = ffi.dlopen(None)


def augur_command():
    """The path of the `augur` program, or raise AugurError."""
    env = os.environ.get("AUGUR_BIN")
    if env:
        return env
    if _config is not None:
        p = os.path.normpath(os.path.join(_HERE, _config.BIN_RELATIVE))
        if os.access(p, os.X_OK):
            return p
    p = shutil.which("augur")
    if p:
        return p
    raise AugurError("augur: the augur command is not found (set AUGUR_BIN, or put it on PATH)",
                     code=-6, status="missing")


def new_error():
    return ffi.new("augur_error *")


def string(p):
    """A C string as str (None for NULL)."""
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "replace")


def raise_error(rc, err, partial=None):
    """Raise AugurError from status RC and the augur_error ERR."""
    msg = ffi.string(err.msg).decode("utf-8", "replace")
    status = string(lib.augur_status_name(rc))
    raise AugurError(msg or "augur: %s error" % status, code=rc, status=status, partial=partial)


def check(rc, err):
    if rc < 0:
        raise_error(rc, err)
    return rc


def take_string(p):
    """A malloc'd C string as str, freed; MemoryError for NULL."""
    if p == ffi.NULL:
        raise MemoryError("augur: out of memory")
    try:
        return ffi.string(p).decode("utf-8", "replace")
    finally:
        libc.free(p)


def write_to_string(write):
    """Calls WRITE(FILE *) on an in-memory stream and returns what it wrote
    and WRITE's result (for the C writers that take a FILE *)."""
    buf = ffi.new("char **")
    size = ffi.new("size_t *")
    f = libc.open_memstream(buf, size)
    if f == ffi.NULL:
        raise MemoryError("augur: out of memory")
    rc = write(f)
    closed = libc.fclose(f)
    try:
        text = ffi.unpack(buf[0], size[0]).decode("utf-8", "replace") if buf[0] != ffi.NULL else ""
    finally:
        libc.free(buf[0])
    if closed != 0:
        raise MemoryError("augur: out of memory writing to a string")
    return text, rc
