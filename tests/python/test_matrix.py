"""fluxocs.spectra / bounds / verify / generate: numpy in, verified schedules out, the same
results and error messages as the CLI."""
import json

import numpy as np
import pytest

import fluxocs
from conftest import without_provenance, write_demand


def served(schedule):
    """Time each (input, output) pair is connected, summed over every slot of every switch."""
    n = schedule.n
    out = np.zeros((n, n))
    for sw in schedule.slots:
        for start, end, perm in zip(sw["start"], sw["end"], sw["perm"]):
            rows = np.nonzero(perm >= 0)[0]
            out[rows, perm[rows]] += end - start
    return out


def test_spectra_on_numpy_is_verified_and_covers_the_demand():
    d = fluxocs.generate("gpt", seed=3)
    s = fluxocs.spectra(d, 4, 0.01)
    assert s.algorithm == "spectra" and s.n == 32 and s.switches == 4
    assert fluxocs.verify(d, s) == {"valid": True, "violations": 0, "messages": []}
    assert len(s.slots) == 4
    assert np.all(served(s) >= d - 1e-9)
    ends = np.concatenate([sw["end"] for sw in s.slots])
    assert s.makespan == pytest.approx(ends.max())
    b = fluxocs.bounds(d, 4, 0.01)
    assert b["bound"] == max(b["lb1"], b["lb2"], b["lb4"])
    assert s.lower_bound == b["all_stop"] == max(b["bound"], b["lb3"])  # spectra is all-stop
    assert (s.lb3, s.lb4) == (b["lb3"], b["lb4"])
    assert b["bound"] <= s.makespan


def test_every_registered_algorithm_runs_by_name():
    d = fluxocs.generate("sparse", n=12, seed=5)
    for name in fluxocs.algorithms():
        s = fluxocs.spectra(d, 2, 0.05, algorithm=name)
        assert s.algorithm == name
        assert fluxocs.verify(d, s)["valid"], name
        if s.reconfiguration == "per-port":
            assert len(s.circuits["src"]) > 0
        else:
            assert sum(len(sw["start"]) for sw in s.slots) > 0


def test_verify_reports_a_broken_schedule():
    d = fluxocs.generate("perm", n=8, seed=2)
    s = fluxocs.spectra(d, 2, 0.1)
    report = fluxocs.verify(d * 2, s)  # twice the demand: the schedule no longer covers it
    assert not report["valid"] and report["violations"] > 0
    assert report["messages"][0].startswith("coverage")


@pytest.mark.parametrize("algorithm", ["spectra", "baseline", "per-port"])
def test_same_schedule_as_the_cli(tmp_path, run_flux, algorithm):
    d = fluxocs.generate("gpt", seed=7)
    path = write_demand(tmp_path / "d.json", d)
    out = tmp_path / "s.json"
    code, _, err = run_flux("matrix", "schedule", "--demand", path, "-s", 3, "--delta", 0.02,
                            "-a", algorithm, "-o", out)
    assert code == 0, err
    assert json.loads(fluxocs.spectra(d, 3, 0.02, algorithm=algorithm).to_json()) == \
        without_provenance(out)
    assert fluxocs.verify(d, str(out))["valid"]


def test_byte_demand_with_a_rate_matches_the_cli(tmp_path, run_flux):
    d = np.round(fluxocs.generate("moe", n=16, seed=4) * 64e6)
    path = write_demand(tmp_path / "d.json", d, unit="bytes")
    out = tmp_path / "s.json"
    code, _, err = run_flux("matrix", "schedule", "--demand", path, "-s", 2, "--delta", "10us",
                            "--rate", "800Gbps", "-o", out)
    assert code == 0, err
    s = fluxocs.spectra(d, 2, "10us", rate="800Gbps")
    assert s.rate == 1e11 and s.delta == pytest.approx(1e-5)
    assert json.loads(s.to_json()) == without_provenance(out)
    # Numbers in seconds and bytes/s give the same problem ("10us" parses to 1e-5 up to rounding).
    plain = fluxocs.spectra(d, 2, 1e-5, rate=1e11)
    assert plain.makespan == pytest.approx(s.makespan, rel=1e-9)
    assert fluxocs.verify(d, plain)["valid"]


def test_generate_matches_the_cli(tmp_path, run_flux):
    out = tmp_path / "g.json"
    assert run_flux("matrix", "generate", "moe", "--n", 16, "--topk", 3, "--seed", 9, "-o",
                    out)[0] == 0
    import json
    cli = np.array(json.loads(out.read_text())["demand"])
    assert np.array_equal(fluxocs.generate("moe", n=16, top_k=3, seed=9), cli)


def test_bad_inputs_raise_value_error_with_the_cli_message(tmp_path, run_flux):
    d = fluxocs.generate("perm", n=8, seed=1)
    with pytest.raises(ValueError) as e:
        fluxocs.spectra(d, 2, 0.1, algorithm="nope")
    path = write_demand(tmp_path / "d.json", d)
    code, _, err = run_flux("matrix", "schedule", "--demand", path, "-s", 2, "--delta", 0.1,
                            "-a", "nope", "-o", tmp_path / "s.json")
    assert code == 2 and err.strip() == "flux: error: " + str(e.value)
    bad = d.copy()
    bad[0, 1] = -1
    with pytest.raises(ValueError, match=r"demand\[0, 1\]: expected a number in \[0, 1e\+15\]"):
        fluxocs.spectra(bad, 2, 0.1)
    bad[0, 1] = np.nan
    with pytest.raises(ValueError, match=r"demand\[0, 1\]"):
        fluxocs.bounds(bad, 2, 0.1)
    with pytest.raises(ValueError, match="square 2-D array"):
        fluxocs.spectra(np.ones((3, 4)), 2, 0.1)
    with pytest.raises(ValueError, match=r"switches: expected an integer in \[1, 1048576\], got 0"):
        fluxocs.spectra(d, 0, 0.1)
    with pytest.raises(ValueError, match="delta"):
        fluxocs.spectra(d, 2, -1.0)
    with pytest.raises(ValueError, match="delta"):
        fluxocs.spectra(d, 2, "ten", rate=1e9)
    with pytest.raises(ValueError, match="rate"):
        fluxocs.spectra(d, 2, 0.1, rate=0)
    with pytest.raises(ValueError, match="not a generator option"):
        fluxocs.generate("gpt", bogus=1)
    with pytest.raises(ValueError):
        fluxocs.generate("nonsense")


def test_a_1024_port_matrix_is_read_without_a_copy(tmp_path, run_flux):
    n = 1024
    d = np.zeros((n, n))
    ports = np.arange(n)
    for k, w in ((1, 0.5), (7, 0.3), (300, 0.2)):
        d[ports, (ports + k) % n] = w
    s = fluxocs.spectra(d, 4, 0.01)
    assert s.demand is d  # the caller's array, handed to the library without conversion
    # ... and the scheduler read its buffer in place: no copy of the entries either.
    assert s._read_address == d.__array_interface__["data"][0]
    assert fluxocs.verify(d, s)["valid"]
    # The same schedule as the CLI on the same matrix.
    out = tmp_path / "s.json"
    code, _, err = run_flux("--quiet", "matrix", "schedule", "--demand",
                            write_demand(tmp_path / "d.json", d), "-s", 4, "--delta", 0.01,
                            "-o", out)
    assert code == 0, err
    assert json.loads(s.to_json()) == without_provenance(out)
    # Anything not C-contiguous float64 is converted once (and so is not the caller's array);
    # the scheduler reads that converted array in place.
    f = np.asfortranarray(d)
    s2 = fluxocs.spectra(f, 4, 0.01)
    assert s2.demand is not f and not np.shares_memory(s2.demand, f)
    assert s2._read_address == s2.demand.__array_interface__["data"][0]
    assert s2.to_json() == s.to_json()
    assert d.flags.writeable and d[0, 1] == 0.5  # never written to
