"""report, diagnose, phases (C API) and simulate (the command) equal the
CLI's JSON, and an incomplete trace says so like the CLI."""

import pytest

import augur
from conftest import cli_json, dump_lines


def test_report_equals_cli(stencil):
    with augur.open(stencil) as t:
        r = t.report()
        assert r == cli_json("report", stencil)
        assert r.schema == "augur-report" and r.nranks == 4 and r.complete
        assert r.events == sum(x.events for x in t.ranks)
        assert r.mpi_ns == sum(x.mpi_ns for x in r.ranks)
        assert t.report(top=2, ideal=False) == cli_json("report", stencil, "--top", 2,
                                                         "--no-ideal")


def test_diagnose_equals_cli(stencil):
    with augur.open(stencil) as t:
        assert t.diagnose() == cli_json("diagnose", stencil)
        assert t.diagnose(min_share=0, eager_limit=4096) == cli_json(
            "diagnose", stencil, "--min-share", 0, "--eager-limit", 4096)
        d = t.diagnose(io_bandwidth=40.5)
        assert d == cli_json("diagnose", stencil, "--io-bandwidth", 40.5)
        assert d.io.bandwidth_source == "given" and d.io.bandwidth_bytes_per_s == 40.5e6
        for bad in (0, -3, "fast"):
            with pytest.raises(ValueError):
                t.diagnose(io_bandwidth=bad)


def test_phases_equals_cli(stencil):
    with augur.open(stencil) as t:
        p = t.phases()
        assert p == cli_json("phases", stencil)
        rep = [x for x in p.phases if x.repeats]
        assert len(rep) == 1 and rep[0].weight == 20
        assert t.phases(mode="rank", rank=1) == cli_json("phases", stencil, "--rank", 1)
        assert t.phases(mode="irregular", min_share=0) == cli_json(
            "phases", stencil, "--irregular", "--min-share", 0)


def test_simulate_runs_the_command(stencil):
    with augur.open(stencil) as t:
        s = t.simulate()
        cli = cli_json("simulate", stencil)
        assert s.predicted_seconds == cli["predicted_seconds"] > 0
        assert len(s.ranks) == 4
        fast = t.simulate(cpu_speed="x4")
        assert fast.predicted_seconds < s.predicted_seconds
        try:
            t.simulate(cpu_speed="fast")
        except augur.AugurError as e:
            assert "--cpu-speed" in str(e)
        else:
            raise AssertionError("a bad option did not raise")


def test_incomplete_trace_says_so(interrupted):
    """Ranks that never reached MPI_Finalize: every result starts with the
    CLI's "incomplete" and "kept" members."""
    with augur.open(interrupted) as t:
        assert t.incomplete.startswith("trace incomplete: ")
        for name, doc in (("report", t.report()), ("diagnose", t.diagnose()),
                          ("phases", t.phases())):
            cli = cli_json(name, interrupted)
            assert list(doc)[:2] == ["incomplete", "kept"], name
            assert doc == cli, name
            assert doc.incomplete == t.incomplete
            assert [k.finalized for k in doc.kept] == [False] * 3


def test_dropped_block_says_so(dropped):
    """A repeated events block: dropped by the reader, and every result
    says so first, in the CLI's words."""
    with augur.open(dropped) as t:
        assert t.ranks[1].dropped == 1 and t.ranks[0].dropped == 0
        assert "trace damaged: 1 events block dropped" in t.incomplete
        lines, _ = dump_lines(dropped)
        assert len(t.to_numpy()) == len(lines) == sum(r.events for r in t.ranks)
        r = t.report(ideal=False)
        assert r == cli_json("report", dropped, "--no-ideal")
        assert r.incomplete == t.incomplete
