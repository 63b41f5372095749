"""A trace opened through libaugur's reader (include/augur/reader.h): its
definitions, its events (one at a time, or as a numpy/pandas table) and the
analyses (docs/python.md says which come from the C API and which from the
`augur` command)."""

import collections
import json
import subprocess
import weakref

import numpy as np

from ._lib import (AugurError, augur_command, check, ffi, lib, new_error, raise_error, string,
                   take_string, write_to_string)

# One event as reader.h gives it (augur_event, docs/trace-format.md "Event
# fields"); `call` is augur_event_name(type) ("MPI_Isend"), `ctr` the
# counter deltas (a tuple of AUGUR_MAX_COUNTERS; trace.counters names them).
Event = collections.namedtuple(
    "Event", "call type rank thread t_start t_end peer tag comm bytes bytes_recv req callsite "
    "flags aux hash ctr")
Rank = collections.namedtuple(
    "Rank", "rank host pid thread_level init_ns finalize_ns finished end_ns events omp_events "
    "cores cpu_quota cpus counter_note damage dropped")
Communicator = collections.namedtuple(
    "Communicator", "id parent kind size members remote dims periods")
CallSite = collections.namedtuple("CallSite", "id where function file line module offset")
Hosts = collections.namedtuple(
    "Hosts", "nhosts max_ranks known oversubscribed host ranks cores")

# enum augur_comm_kind (include/augur/defs.h), in order.
_COMM_KINDS = ("world", "self", "dup", "split", "split_type", "create", "cart", "cart_sub",
               "graph", "dist_graph", "intercomm", "merge", "other", "window", "group")
_KINDS = {"all": lib.AUGUR_KIND_MPI | lib.AUGUR_KIND_OMP, "mpi": lib.AUGUR_KIND_MPI,
          "omp": lib.AUGUR_KIND_OMP}
# Events read per chunk by to_numpy: 64 Ki x 120 bytes, a few MiB.
_CHUNK = 1 << 16
# ... and by events(), which makes a tuple of each.
_ITER_CHUNK = 1 << 12


class _Stream:
    """An open augur_stream, closed when done, collected, or when its trace
    closes (a stream must not outlive its trace: it reads the trace's
    index)."""

    def __init__(self, s):
        self.s = s

    def close(self):
        if self.s is not None:
            lib.augur_stream_close(self.s)
            self.s = None

    def __del__(self):
        self.close()


def _event_dtype():
    """augur_event as a numpy structured dtype, laid out as cffi (and so the
    C compiler: tests/test_cdef.py) lays it out."""
    ints = {"uint64_t": "<u8", "int64_t": "<i8", "uint32_t": "<u4", "int32_t": "<i4",
            "uint16_t": "<u2", "int16_t": "<i2"}
    t = ffi.typeof("augur_event")
    names, formats, offsets = [], [], []
    for name, f in t.fields:
        if f.type.kind == "array":
            formats.append((ints[f.type.item.cname], (f.type.length,)))
        else:
            formats.append(ints[f.type.cname])
        names.append(name)
        offsets.append(f.offset)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets,
                     "itemsize": ffi.sizeof(t)})


EVENT_DTYPE = _event_dtype()
_CALL_NAMES = [string(lib.augur_event_name(i)) for i in range(lib.AUGUR_EV_MAX)]
_IS_SUB = np.array([bool(lib.augur_event_is_sub(i)) for i in range(lib.AUGUR_EV_MAX)])


class Result(dict):
    """An analysis' JSON document as Python objects: a dict (keys and values
    as the documented schema has them) whose keys also read as attributes
    (`r.calls[0].time_ns`)."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def _load_json(text):
    return json.loads(text, object_pairs_hook=Result)


class Trace:
    """A NAME.augur trace, open until close() (or the end of a `with`).

    Not thread-safe: one thread at a time may use a Trace (the reader caches
    call-site resolution in it)."""

    def __init__(self, path):
        self.path = str(path)
        err = new_error()
        tp = ffi.new("augur_trace **")
        rc = lib.augur_trace_open(tp, self.path.encode(), err)
        if rc != 0:
            raise_error(rc, err)
        self._t = tp[0]
        self._streams = weakref.WeakSet()
        self.nranks = lib.augur_trace_nranks(self._t)

    # -- life ---------------------------------------------------------------
    def close(self):
        if getattr(self, "_t", None) is not None:
            for st in list(self._streams):
                st.close()
            lib.augur_trace_close(self._t)
            self._t = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        return "<augur.Trace %r: %d ranks>" % (self.path, self.nranks)

    def _handle(self):
        if self._t is None:
            raise ValueError("augur: the trace is closed")
        return self._t

    def _check_rank(self, rank):
        if not isinstance(rank, (int, np.integer)) or not 0 <= rank < self.nranks:
            raise ValueError("augur: rank %r: the trace has ranks 0..%d" % (rank,
                                                                           self.nranks - 1))
        return int(rank)

    # -- definitions --------------------------------------------------------
    @property
    def info(self):
        """What trace.json says (augur_trace_info)."""
        i = lib.augur_trace_info_get(self._handle())
        omp = i.openmp
        return Result(
            version="%d.%d" % (i.version_major, i.version_minor), nranks=i.nranks,
            argv=[string(i.argv[k]) for k in range(i.argc)] if i.argv != ffi.NULL else [],
            mpi_library=string(i.mpi_library), mpi_version=string(i.mpi_version),
            recorder=string(i.recorder), start_unix_ns=i.start_unix_ns,
            payload_hash=bool(i.payload_hash), complete=bool(i.complete),
            counters_requested=string(i.counters_requested),
            openmp=Result(mode=string(omp.mode) or "unknown", runtime=string(omp.runtime),
                          note=string(omp.note), dropped_before_init=omp.dropped_before_init,
                          callbacks={string(omp.callbacks[k].name): omp.callbacks[k].result
                                     for k in range(omp.ncallbacks)}))

    @property
    def ranks(self):
        """Per rank: where it ran, its clock anchors, whether it finished
        (reached MPI_Finalize), its events and any damage."""
        t = self._handle()
        out = []
        msg = ffi.new("const char **")
        for r in range(self.nranks):
            d = lib.augur_trace_rank(t, r)
            damaged = lib.augur_trace_damage(t, r, msg) and msg[0] != ffi.NULL
            dmsg = string(msg[0]) if damaged else None
            dropped = lib.augur_trace_dropped(t, r, ffi.NULL)
            out.append(Rank(
                rank=r, host=string(d.host) if d != ffi.NULL else None,
                pid=d.pid if d != ffi.NULL else 0,
                thread_level=d.thread_level if d != ffi.NULL else -1,
                init_ns=d.init_ns if d != ffi.NULL else 0,
                finalize_ns=d.finalize_ns if d != ffi.NULL else 0,
                finished=bool(lib.augur_trace_rank_finished(t, r)),
                end_ns=lib.augur_trace_rank_end_ns(t, r), events=lib.augur_trace_nevents(t, r),
                omp_events=lib.augur_trace_omp_nevents(t, r),
                cores=d.cores if d != ffi.NULL else 0, cpu_quota=d.cpu_quota if d != ffi.NULL else 0,
                cpus=string(d.cpus) if d != ffi.NULL else None,
                counter_note=string(d.counter_note) if d != ffi.NULL else None,
                damage=dmsg, dropped=dropped))
        return out

    @property
    def communicators(self):
        t = self._handle()
        out = []
        for i in range(lib.augur_trace_ncomms(t)):
            c = lib.augur_trace_comm_at(t, i)
            out.append(Communicator(
                id=c.id, parent=c.parent,
                kind=_COMM_KINDS[c.kind] if c.kind < len(_COMM_KINDS) else "other",
                size=c.size, members=tuple(c.members[k] for k in range(c.size)),
                remote=tuple(c.remote[k] for k in range(c.remote_size)),
                dims=tuple(c.dims[k] for k in range(c.ndims)),
                periods=tuple(bool(c.periods[k]) for k in range(c.ndims))))
        return out

    @property
    def callsites(self):
        """Call sites by global id (1..n), resolved with libdw: `where` is the
        name every analysis prints ("exchange (stencil.c:40)")."""
        t = self._handle()
        out = {}
        loc = ffi.new("augur_srcloc *")
        buf = ffi.new("char[]", 1024)
        for cid in range(1, lib.augur_trace_ncallsites(t) + 1):
            cs = lib.augur_trace_callsite(t, cid)
            if cs == ffi.NULL:
                continue
            lib.augur_trace_resolve(t, cid, loc)
            mod = lib.augur_trace_module(t, cs.module)
            lib.augur_fmt_callsite(buf, len(buf), t, cid)
            out[cid] = CallSite(
                id=cid, where=string(buf), function=string(loc.function), file=string(loc.file),
                line=loc.line, module=string(mod.path) if mod != ffi.NULL else None,
                offset=cs.offset)
        return out

    @property
    def counters(self):
        """Names of the hardware/OS counters in augur_event.ctr, by slot."""
        t = self._handle()
        out = []
        for i in range(lib.augur_trace_ncounters(t)):
            c = lib.augur_trace_counter(t, i)
            out.append(string(c.name) if c != ffi.NULL else "ctr%d" % i)
        return out

    @property
    def hosts(self):
        err = new_error()
        h = ffi.new("augur_hosts *")
        check(lib.augur_trace_hosts(self._handle(), h, err), err)
        return Hosts(nhosts=h.nhosts, max_ranks=h.max_ranks, known=bool(h.known),
                     oversubscribed=h.oversubscribed, host=string(h.host), ranks=h.ranks,
                     cores=h.cores)

    @property
    def incomplete(self):
        """The statement every analysis prints first when the trace is
        incomplete (a rank never reached MPI_Finalize) or the reader dropped
        events blocks; None when neither. The same text as the CLI's
        (src/cli/util.c cli_incomplete)."""
        t = self._handle()
        buf = ffi.new("char[]", lib.AUGUR_INCOMPLETE_MAX)
        unfinished = lib.augur_trace_incomplete(t, buf, len(buf))
        text = string(buf)
        dropped, first = 0, 0
        for r in range(self.nranks):
            k = lib.augur_trace_dropped(t, r, ffi.NULL)
            if k and not dropped:
                first = r
            dropped += k
        if dropped:
            text += ("%strace damaged: %d events block%s dropped (repeated or out of time order), "
                     "the first in rank %d; results use the blocks kept (see augur info)"
                     % ("; " if text else "", dropped, "s" if dropped > 1 else "", first))
        return text if unfinished > 0 or dropped else None

    # -- events -------------------------------------------------------------
    def _stream(self, rank, kinds):
        if kinds not in _KINDS:
            raise ValueError("augur: kinds=%r: one of 'all', 'mpi', 'omp'" % (kinds,))
        t = self._handle()
        err = new_error()
        sp = ffi.new("augur_stream **")
        if rank is None:
            rc = lib.augur_stream_merged_kinds(t, _KINDS[kinds], sp, err)
        else:
            rc = lib.augur_stream_rank_kinds(t, self._check_rank(rank), _KINDS[kinds], sp, err)
        check(rc, err)
        st = _Stream(sp[0])
        self._streams.add(st)
        return st

    def events(self, rank=None, kinds="all"):
        """Iterates the events as Event tuples: one rank's in its time order,
        or (rank=None) all ranks' merged in global time order, as `augur
        dump` prints them. kinds: "all" (MPI and OpenMP records, dump's
        default), "mpi" (what the analyses read) or "omp". Times are ns on
        the global timeline. A damaged block raises AugurError after every
        event before it was yielded."""
        st = self._stream(rank, kinds)
        buf = ffi.new("augur_event[]", _ITER_CHUNK)
        view = np.frombuffer(ffi.buffer(buf), dtype=EVENT_DTYPE)
        got = ffi.new("size_t *")
        err = new_error()
        names = _CALL_NAMES
        f = {name: i for i, name in enumerate(EVENT_DTYPE.names)}
        order = [f[k] for k in ("rank", "thread", "t_start", "t_end", "peer", "tag", "comm",
                                "bytes", "bytes_recv", "req", "callsite", "flags", "aux",
                                "hash")]
        ty, ctr = f["type"], f["ctr"]
        try:
            while True:
                if st.s is None:
                    raise ValueError("augur: the trace was closed while its events were read")
                rc = lib.augur_stream_read(st.s, buf, _ITER_CHUNK, got, err)
                for row in view[:got[0]].tolist():  # Python ints, one C call per chunk
                    yield Event(names[row[ty]], row[ty], *[row[i] for i in order],
                                tuple(row[ctr]))
                if rc < 0:
                    raise_error(rc, err)
                if rc == 0:
                    return
        finally:
            st.close()

    def to_numpy(self, rank=None, kinds="all"):
        """The events of one rank (or of all, merged in global time order)
        as one numpy structured array with augur_event's fields (EVENT_DTYPE:
        t_start, t_end, bytes, bytes_recv, req, comm, hash, callsite, ctr,
        peer, tag, aux, type, flags, rank, thread). Read into C arrays of
        64 Ki events, no Python object per event. On a damaged trace raises
        AugurError whose `partial` is the array of every event that could be
        read (a merged read goes on with the other ranks, like augur dump)."""
        st = self._stream(rank, kinds)
        t = self._handle()
        # The block index counts the records: the array is allocated once
        # and the reader writes into it, a chunk per call.
        total = 0
        for r in range(self.nranks) if rank is None else (rank,):
            if _KINDS[kinds] & lib.AUGUR_KIND_MPI:
                total += lib.augur_trace_nevents(t, r)
            if _KINDS[kinds] & lib.AUGUR_KIND_OMP:
                total += lib.augur_trace_omp_nevents(t, r)
        arr = np.empty(total + 1, dtype=EVENT_DTYPE)  # + 1: room to meet the end
        err = new_error()
        got = ffi.new("size_t *")
        n = 0
        first_error = None
        while True:
            if n == len(arr):  # more than the index said: grow
                arr = np.concatenate([arr, np.empty(len(arr), dtype=EVENT_DTYPE)])
            base = ffi.cast("augur_event *", arr.ctypes.data) + n
            rc = lib.augur_stream_read(st.s, base, min(_CHUNK, len(arr) - n), got, err)
            n += got[0]
            if rc < 0 and first_error is None:
                first_error = (rc, ffi.string(err.msg).decode("utf-8", "replace"))
            # A rank stream repeats its error; the merged stream drops the
            # damaged rank and goes on with the others (reader.h): read on.
            if rc == 0 or (rc < 0 and rank is not None):
                break
        st.close()
        arr = arr[:n]
        if first_error is not None:
            rc, msg = first_error
            raise AugurError(msg, code=rc, status=string(lib.augur_status_name(rc)),
                             partial=arr)
        return arr

    def to_pandas(self, rank=None, kinds="all"):
        """to_numpy as a pandas DataFrame, one row per event: rank, thread,
        call (categorical, "MPI_Isend"), type, sub (a sub-record: completion,
        Sendrecv's receive, Startall's start), t_start, t_end, duration (ns;
        0 for sub-records, which share their parent's times), peer, tag,
        comm, bytes, bytes_recv, req, callsite (id), site (categorical, the
        call site's name as the analyses print it), flags, aux, hash, and one
        column per counter the trace has (named as trace.counters). Damage:
        as to_numpy, `partial` then holds the DataFrame."""
        try:
            a = self.to_numpy(rank, kinds)
        except AugurError as e:
            e.partial = self._frame(e.partial)
            raise
        return self._frame(a)

    def _frame(self, a):
        import pandas as pd

        sub = _IS_SUB[a["type"]]
        duration = (a["t_end"] - a["t_start"]).astype(np.int64)
        duration[sub] = 0
        sites = self.callsites
        nsite = max(sites) + 1 if sites else 1
        site_names = ["?"] + ["call site %d" % i for i in range(1, nsite)]
        for cid, cs in sites.items():
            site_names[cid] = cs.where
        codes = a["callsite"].astype(np.int64)
        codes[(codes < 0) | (codes >= nsite)] = 0
        # categories must be unique: two ids may print alike
        uniq, inverse = np.unique(np.array(site_names, dtype=object), return_inverse=True)
        cols = collections.OrderedDict()
        cols["rank"] = a["rank"]
        cols["thread"] = a["thread"]
        cols["call"] = pd.Categorical.from_codes(a["type"].astype(np.int64),
                                                 categories=_unique_names()).remove_unused_categories()
        cols["type"] = a["type"]
        cols["sub"] = sub
        cols["t_start"] = a["t_start"]
        cols["t_end"] = a["t_end"]
        cols["duration"] = duration
        for k in ("peer", "tag", "comm", "bytes", "bytes_recv", "req", "callsite"):
            cols[k] = a[k]
        cols["site"] = pd.Categorical.from_codes(inverse[codes], categories=list(uniq)).remove_unused_categories()
        for k in ("flags", "aux", "hash"):
            cols[k] = a[k]
        for i, name in enumerate(self.counters):
            cols[name] = a["ctr"][:, i]
        return pd.DataFrame(cols)

    # -- analyses -----------------------------------------------------------
    def _with_incomplete(self, doc):
        """DOC with the "incomplete" and "kept" members first when the trace
        is incomplete, as the CLI's JSON has them (src/cli/util.c)."""
        inc = self.incomplete
        if inc is None:
            return doc
        t = self._handle()
        kept = [Result(rank=r, events=lib.augur_trace_nevents(t, r),
                       last_s=float("%.9g" % (lib.augur_trace_rank_end_ns(t, r) / 1e9)),
                       finalized=bool(lib.augur_trace_rank_finished(t, r)))
                for r in range(self.nranks)]
        out = Result(incomplete=inc, kept=kept)
        out.update(doc)
        return out

    def report(self, top=10, ideal=True):
        """`augur report --json --top TOP` (docs/cli.md schema), from the C
        API: augur_report_compute + augur_report_json, and augur_pop_trace's
        efficiencies (ideal=False: no replay on the ideal network, like
        --no-ideal). A damaged trace raises AugurError whose `partial` is the
        report of everything that could be read."""
        if not isinstance(top, int) or top < 1:
            raise ValueError("augur: top=%r: an integer >= 1" % (top,))
        t = self._handle()
        err = new_error()
        rp = ffi.new("augur_report **")
        rc = lib.augur_report_compute(t, rp, ffi.NULL, ffi.NULL, err)
        if rp[0] == ffi.NULL:
            raise_error(rc, err)
        try:
            doc = _load_json(take_string(lib.augur_report_json(rp[0], t, top)))
        finally:
            lib.augur_report_free(rp[0])
        perr = new_error()
        pop = ffi.new("augur_pop *")
        check(lib.augur_pop_trace(t, 1 if ideal else 0, pop, perr), perr)
        try:
            doc["efficiencies"] = _load_json(take_string(lib.augur_pop_json(pop, t)))
        finally:
            lib.augur_pop_free(pop)
        doc = self._with_incomplete(doc)
        if rc < 0:
            raise_error(rc, err, partial=doc)
        return doc

    def diagnose(self, min_share=None, eager_limit=None, io_bandwidth=None):
        """`augur diagnose --json` (docs/diagnose.md schema), from the C API
        (augur_diagnose + augur_diagnosis_write_json). min_share: report
        findings from this share of process-time on (default 0.02; 0: all);
        eager_limit: bytes (default: inferred from the trace); io_bandwidth:
        MB/s per rank, io_collective's reference (--io-bandwidth; default
        268 = 256 MiB/s)."""
        opt = ffi.new("augur_dx_options *")
        if min_share is not None:
            if not 0 <= min_share < 1:
                raise ValueError("augur: min_share=%r: a share in [0, 1)" % (min_share,))
            opt.min_share = min_share if min_share > 0 else 1e-12  # 0: everything, as the CLI
        if eager_limit is not None:
            if not isinstance(eager_limit, int) or eager_limit < 1:
                raise ValueError("augur: eager_limit=%r: bytes >= 1" % (eager_limit,))
            opt.eager_limit = eager_limit
        if io_bandwidth is not None:
            if not isinstance(io_bandwidth, (int, float)) or not 1e-6 <= io_bandwidth <= 1e9:
                raise ValueError("augur: io_bandwidth=%r: MB/s in [1e-6, 1e9]" % (io_bandwidth,))
            opt.io_bandwidth = io_bandwidth * 1e6
        t = self._handle()
        err = new_error()
        dp = ffi.new("augur_diagnosis **")
        check(lib.augur_diagnose(t, opt, dp, err), err)
        try:
            text, rc = write_to_string(lambda f: lib.augur_diagnosis_write_json(dp[0], f, err))
        finally:
            lib.augur_diagnosis_free(dp[0])
        check(rc, err)
        return self._with_incomplete(_load_json(text))

    def phases(self, mode="global", rank=None, min_share=None, volume_tol=None, work_sim=None,
               max_period=None):
        """`augur phases --json` (docs/phases.md schema), from the C API
        (augur_logical_build, augur_phases_detect, augur_phases_json).
        mode: "global", "rank" (EPAS; rank=None: the representative rank)
        or "irregular"; the other options as the CLI's (None: its default)."""
        modes = {"global": 0, "rank": 1, "irregular": 2}
        if mode not in modes:
            raise ValueError("augur: mode=%r: one of %s" % (mode, ", ".join(modes)))
        o = ffi.new("augur_phase_opts *")
        lib.augur_phase_opts_default(o)
        o.mode = modes[mode]
        if rank is not None:
            if mode != "rank":
                raise ValueError("augur: rank= goes with mode='rank'")
            o.rank = self._check_rank(rank)
        for name, v in (("min_share", min_share), ("volume_tol", volume_tol),
                        ("work_sim", work_sim)):
            if v is not None:
                if not 0 <= v <= 1:
                    raise ValueError("augur: %s=%r: a number from 0 to 1" % (name, v))
                setattr(o, name, v)
        if max_period is not None:
            if not isinstance(max_period, int) or not 1 <= max_period <= 1 << 20:
                raise ValueError("augur: max_period=%r: an integer from 1 to 2^20" % (max_period,))
            o.max_period = max_period
        t = self._handle()
        err = new_error()
        lp = ffi.new("augur_logical **")
        pp = ffi.new("augur_phases **")
        try:
            check(lib.augur_logical_build(t, lp, err), err)
            check(lib.augur_phases_detect(lp[0], o, pp, err), err)
            doc = _load_json(take_string(lib.augur_phases_json(pp[0], lp[0], t)))
        finally:
            if pp[0] != ffi.NULL:
                lib.augur_phases_free(pp[0])
            if lp[0] != ffi.NULL:
                lib.augur_logical_free(lp[0])
        return self._with_incomplete(doc)

    def simulate(self, *args, **options):
        """`augur simulate TRACE --json` (docs/simulate.md), run as the
        installed command: the CLI composes the machine model from its
        options and the recorded placement, which include/augur does not
        expose as one call. Options become the command's: machine="m.ini"
        -> --machine m.ini, cpu_speed="x2" -> --cpu-speed x2, True -> a flag,
        a list -> the option repeated (scale=[...]); ARGS are passed as they
        are. The command's error message raises AugurError."""
        return run_json("simulate", self.path, *args, **options)


def _unique_names():
    """The 128 type names as categories (unique: unknown types are "?N")."""
    seen = set()
    out = []
    for i, n in enumerate(_CALL_NAMES):
        if n in seen:
            n = "%s%d" % (n, i)
        seen.add(n)
        out.append(n)
    return out


def run_json(command, *args, **options):
    """Runs `augur COMMAND ARGS... --json` and returns its JSON as a Result;
    AugurError with the command's message when it fails."""
    argv = [augur_command(), command] + [str(a) for a in args]
    for key, v in options.items():
        flag = "--" + key.replace("_", "-")
        values = v if isinstance(v, (list, tuple)) else [v]
        for x in values:
            if x is True:
                argv.append(flag)
            elif x is not False and x is not None:
                argv += [flag, str(x)]
    if "--json" not in argv:
        argv.append("--json")
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        msg = p.stderr.decode("utf-8", "replace").strip()
        if msg.startswith("augur: "):
            msg = msg[len("augur: "):]
        raise AugurError(msg or "augur %s failed (exit %d)" % (command, p.returncode),
                         code=-1, status="command")
    return _load_json(p.stdout.decode("utf-8", "replace"))
