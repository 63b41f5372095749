"""augur from Python: traces, their events as numpy/pandas tables, and the
analyses' results as Python objects, through libaugur (cffi, ABI mode).

    import augur
    with augur.open("stencil.augur") as t:
        df = t.to_pandas()
        print(df[~df["sub"]].groupby("call", observed=True)["duration"].sum())
        r = t.report()

docs/python.md has the whole story.
"""

from ._lib import AugurError, lib_path
from .trace import (EVENT_DTYPE, CallSite, Communicator, Event, Hosts, Rank, Result, Trace,
                    run_json)

__all__ = ["open", "version", "AugurError", "Trace", "Event", "Rank", "Communicator",
           "CallSite", "Hosts", "Result", "EVENT_DTYPE", "run_json", "lib_path"]


def open(path):  # noqa: A001 - augur.open is the package's entry point
    """Opens the trace at PATH (a NAME.augur directory): AugurError with the
    reader's message when it is not one or cannot be read."""
    return Trace(path)


def version():
    """The version of the libaugur loaded ("0.1.0")."""
    from ._lib import ffi, lib
    return ffi.string(lib.augur_version_string()).decode()
