"""augur.open, the definitions and the events, against `augur dump`."""

import collections

import numpy as np
import pytest

import augur
from conftest import augur_cli, dump_lines


def test_counts_per_rank_equal_dump(stencil):
    with augur.open(stencil) as t:
        assert t.nranks == 4
        df = t.to_pandas()
        for r in range(4):
            lines, rc = dump_lines(stencil, "--rank", r)
            assert rc == 0
            assert len(lines) > 100
            assert len(list(t.events(rank=r))) == len(lines)
            assert len(t.to_numpy(rank=r)) == len(lines)
            assert int((df["rank"] == r).sum()) == len(lines)
            assert t.ranks[r].events == len(lines)  # the index says the same
        lines, _ = dump_lines(stencil)
        assert len(df) == len(lines) == len(t.to_numpy())


def test_merged_order_equal_dump(stencil):
    """Merged events come in dump's order: the same rank and call on every
    line (dump's columns: time, duration, rank, thread, call)."""
    lines, _ = dump_lines(stencil)
    want = [(int(ln[28:33]), ln[39:65].strip().split("[")[0]) for ln in lines]
    with augur.open(stencil) as t:
        got = [(ev.rank, ev.call) for ev in t.events()]
    assert got == want


def test_events_equal_table(stencil):
    with augur.open(stencil) as t:
        evs = list(t.events(rank=1))
        a = t.to_numpy(rank=1)
    assert len(evs) == len(a)
    for ev, row in zip(evs, a):
        for f in ("type", "rank", "thread", "t_start", "t_end", "peer", "tag", "comm", "bytes",
                  "bytes_recv", "req", "callsite", "flags", "aux", "hash"):
            assert getattr(ev, f) == row[f], f
        assert tuple(ev.ctr) == tuple(row["ctr"])
    assert evs[0].call == "MPI_Init" and evs[-1].call == "MPI_Finalize"
    assert all(e.t_start <= e.t_end for e in evs)
    # per iteration: 2 Irecv, 2 Isend, 1 Waitall with 4 completions, 1 Allreduce
    c = collections.Counter(e.call for e in evs)
    assert c["MPI_Irecv"] == c["MPI_Isend"] == 40
    assert c["MPI_Waitall"] == c["MPI_Allreduce"] == 20
    assert c["COMPLETION"] == 80


def test_pandas_columns_and_dtypes(stencil):
    with augur.open(stencil) as t:
        df = t.to_pandas(rank=0)
        counters = t.counters
    want = [("rank", "uint32"), ("thread", "uint32"), ("call", "category"), ("type", "uint16"),
            ("sub", "bool"), ("t_start", "uint64"), ("t_end", "uint64"), ("duration", "int64"),
            ("peer", "int32"), ("tag", "int32"), ("comm", "uint64"), ("bytes", "uint64"),
            ("bytes_recv", "uint64"), ("req", "uint64"), ("callsite", "uint64"),
            ("site", "category"), ("flags", "uint16"), ("aux", "uint32"), ("hash", "uint64")]
    want += [(c, "uint64") for c in counters]
    assert [(c, str(df[c].dtype)) for c in df.columns] == want
    assert (df.loc[df["sub"], "duration"] == 0).all()
    parents = df[~df["sub"]]
    assert ((parents["t_end"] - parents["t_start"]).astype("int64") == parents["duration"]).all()
    assert set(df["call"].cat.categories) == set(df["call"])  # no empty categories
    waitall = df[df["call"] == "MPI_Waitall"]
    assert waitall["site"].str.contains(r"stencil\.c:\d+", regex=True).all()


def test_time_per_call_equals_report(stencil):
    """The docs/python.md example: groupby call -> time per call, equal to
    report's time per call (report leaves Init and Finalize out)."""
    with augur.open(stencil) as t:
        df = t.to_pandas()
        rep = t.report()
    per_call = df[~df["sub"]].groupby("call", observed=True)["duration"].agg(["count", "sum"])
    assert rep.calls_total == len(per_call) - 2
    for c in rep.calls:
        assert per_call.loc[c.call, "sum"] == c.time_ns, c.call
        assert per_call.loc[c.call, "count"] == c.count, c.call


def test_definitions(stencil):
    with augur.open(stencil) as t:
        info = t.info
        assert info.nranks == 4 and info.complete
        assert info.argv[-2:] == ["-n", "20"] and info.argv[0].endswith("stencil")
        comms = t.communicators
        world = [c for c in comms if c.kind == "world"]
        assert len(world) == 1 and world[0].members == (0, 1, 2, 3)
        cart = [c for c in comms if c.kind == "cart"]
        assert cart and cart[0].dims == (2, 2) and cart[0].size == 4
        sites = t.callsites
        assert sites and all(s.id == k for k, s in sites.items())
        assert any(s.function == "main" and s.file.endswith("stencil.c") for s in sites.values())
        ranks = t.ranks
        assert [r.rank for r in ranks] == [0, 1, 2, 3]
        assert all(r.finished and r.damage is None and r.dropped == 0 for r in ranks)
        assert t.incomplete is None
        assert t.hosts.nhosts >= 1


def test_bad_arguments(stencil):
    with augur.open(stencil) as t:
        with pytest.raises(ValueError, match="ranks 0..3"):
            t.to_numpy(rank=4)
        with pytest.raises(ValueError, match="kinds"):
            list(t.events(kinds="mpi+omp"))
        with pytest.raises(ValueError):
            t.report(top=0)
    with pytest.raises(ValueError, match="closed"):
        t.to_numpy()



def test_close_while_reading(damaged):
    """A stream must not outlive its trace (it reads the trace's index):
    events left after close() raise, never read freed memory. Rank 0 of
    the generated trace has more events than one chunk."""
    t = augur.open(damaged)
    it = t.events(rank=0)
    assert next(it).rank == 0
    t.close()
    with pytest.raises(ValueError, match="closed"):
        for _ in it:
            pass


def test_wrong_file(tmp_path, stencil):
    with pytest.raises(augur.AugurError) as e:
        augur.open(str(tmp_path / "nothing.augur"))
    assert e.value.status == "missing" and "nothing.augur" in str(e.value)
    f = tmp_path / "file.augur"
    f.write_text("not a trace")
    with pytest.raises(augur.AugurError) as e:
        augur.open(str(f))
    assert "file.augur" in str(e.value)
    d = tmp_path / "bad.augur"
    d.mkdir()
    (d / "trace.json").write_text("{not json")
    with pytest.raises(augur.AugurError) as e:
        augur.open(str(d))
    assert "trace.json" in str(e.value)


def test_damaged_trace_raises(damaged):
    """Rank 2's file cut in half: the open works (the index stops before the
    damage), reading rank 2 raises with the reader's message after the
    events before it; a merged read goes on with the other ranks, as dump."""
    lines, rc = dump_lines(damaged)
    assert rc == 1
    _, _, err = augur_cli("dump", damaged, check=False)
    with augur.open(damaged) as t:
        assert "rank-00002.evt" in t.ranks[2].damage
        got = []
        with pytest.raises(augur.AugurError) as e:
            for ev in t.events(rank=2):
                got.append(ev)
        assert "rank-00002.evt" in str(e.value) and e.value.code < 0
        assert str(e.value) in err
        r2, _ = dump_lines(damaged, "--rank", 2)
        assert len(got) == len(r2) > 0
        with pytest.raises(augur.AugurError) as e:
            t.to_pandas()
        part = e.value.partial
        assert len(part) == len(lines)
        assert [int((part["rank"] == r).sum()) for r in range(3)] == [
            t.ranks[0].events, t.ranks[1].events, len(r2)]
        with pytest.raises(augur.AugurError) as e:
            t.to_numpy(rank=2)
        assert len(e.value.partial) == len(r2)
        assert np.all(e.value.partial["rank"] == 2)
        with pytest.raises(augur.AugurError, match="rank-00002.evt"):
            t.phases()
        with pytest.raises(augur.AugurError, match="rank-00002.evt") as e:
            t.report()
        assert e.value.partial is not None and e.value.partial.error
