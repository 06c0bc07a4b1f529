"""fluxocs.Scenario / Workload / simulate / cosched: the paper scenario simulated from Python,
with the same summary and tables as `flux simulate`."""
import csv
import json
import os

import numpy as np
import pytest

import fluxocs
from conftest import PAPER_FABRIC, without_provenance


@pytest.fixture(scope="module")
def paper(source_dir):
    path = os.path.join(source_dir, "examples", "llama3-8b-8l-tp4-dp2.json")
    return path, fluxocs.Scenario(path).workload()


def test_scenario_builds_the_paper_workload(paper):
    _, w = paper
    assert w.gpus == 8 and w.tasks > 0
    stats = w.stats()
    assert stats["gpus"] == 8 and stats["tasks"] == w.tasks
    d = w.demand()
    assert d.shape == (8, 8) and np.all(np.diag(d) == 0)
    assert d.sum() == pytest.approx(stats["total_bytes"])
    phases = w.phase_demands()
    assert sum(m.sum() for m in phases.values()) == pytest.approx(d.sum())
    tp = w.demand(group="tp")
    assert 0 < tp.sum() < d.sum()


def test_scenario_from_a_dict_equals_the_file(paper):
    path, w = paper
    with open(path) as f:
        doc = json.load(f)
    assert fluxocs.Scenario(doc).workload().to_json() == w.to_json()


def read_csv_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def assert_same_table(columns, path):
    header, rows = read_csv_columns(path)
    assert list(columns) == header
    for c, name in enumerate(header):
        values = list(columns[name])
        assert len(values) == len(rows)
        cli = [r[c] for r in rows]
        if isinstance(columns[name], list):
            assert values == cli
        else:
            assert np.array_equal(np.asarray(values, dtype=float),
                                  np.array([float(x) if x else np.nan for x in cli]),
                                  equal_nan=True), name


@pytest.mark.parametrize("scheduler", ["rotornet", "flux-greedy"])
def test_paper_scenario_simulated_as_the_cli(tmp_path, run_flux, paper, scheduler):
    path, w = paper
    fabric = tmp_path / "fabric.json"
    fabric.write_text(json.dumps(PAPER_FABRIC))
    out = tmp_path / "out"
    code, _, err = run_flux("simulate", "--scenario", path, "--fabric", fabric, "--scheduler",
                            scheduler, "-o", out)
    assert code == 0, err
    r = fluxocs.simulate(w, str(fabric), scheduler)
    assert r["summary"] == without_provenance(out / "summary.json")
    assert_same_table(r["messages"], out / "flows.csv")
    assert_same_table(r["circuits"], out / "circuits.csv")
    assert_same_table(r["nic_buffer"], out / "nic_buffer.csv")
    assert r["schedule"] == (out / "circuit-schedule.json").read_text()
    s = r["summary"]
    assert s["lower_bound"] <= s["iteration_time"]
    assert len(r["messages"]["task"]) == fluxocs.Workload.stats(w)["send_tasks"]


def test_options_reach_the_scheduler(paper):
    _, w = paper
    a = fluxocs.simulate(w, PAPER_FABRIC, "rotornet")
    b = fluxocs.simulate(w, PAPER_FABRIC, "rotornet", duty_cycle=0.5)
    assert a["summary"]["scheduler"]["options"]["duty_cycle"] == 0.9
    assert b["summary"]["scheduler"]["options"]["duty_cycle"] == 0.5
    assert a["summary"]["iteration_time"] != b["summary"]["iteration_time"]


def test_options_are_the_registry_table_converted_by_type(paper):
    _, w = paper
    assert set(fluxocs.scheduler_options("rotornet")) == {"duty_cycle", "slot"}
    assert fluxocs.scheduler_options("flux")["closure_memory_limit"]["type"] == "bytes"
    # a time as seconds or with its unit: the same run
    a = fluxocs.simulate(w, PAPER_FABRIC, "rotornet", slot=200e-6)
    b = fluxocs.simulate(w, PAPER_FABRIC, "rotornet", slot="200us")
    assert a["summary"]["scheduler"]["options"]["slot"] == pytest.approx(200e-6)
    # "200us" parses to 200 * 1e-6, which may differ from 200e-6 in the last bit
    assert b["summary"]["scheduler"]["options"]["slot"] == pytest.approx(200e-6)
    assert a["summary"]["iteration_time"] == pytest.approx(b["summary"]["iteration_time"])
    with pytest.raises(ValueError, match="duty_cycle"):
        fluxocs.simulate(w, PAPER_FABRIC, "rotornet", duty_cycle=True)  # a bool is no real
    with pytest.raises(ValueError, match="duty_cycle"):
        fluxocs.simulate(w, PAPER_FABRIC, "rotornet", duty_cycle=1.5)  # out of range
    with pytest.raises(ValueError, match="not an option of rotornet"):
        fluxocs.simulate(w, PAPER_FABRIC, "rotornet", threads=1)  # flux's, not rotornet's
    with pytest.raises(ValueError, match="threads"):
        fluxocs.cosched(w, PAPER_FABRIC, "flux", threads=1.5)


def test_cosched_reports_the_solver(paper):
    _, w = paper
    r = fluxocs.cosched(w, PAPER_FABRIC, "flux", time_limit="2s", threads=1)
    s = r["summary"]
    assert s["scheduler"]["name"] == "flux"
    assert s["solver"]["bound"] <= s["iteration_time"] * (1 + 1e-9)
    assert s["scheduler"]["options"]["time_limit"] == 2
    g = fluxocs.cosched(w, PAPER_FABRIC, "flux-greedy")
    assert s["iteration_time"] <= g["summary"]["iteration_time"] * (1 + 1e-9)
    lengths = {len(v) for v in r["messages"].values()}
    assert len(lengths) == 1  # a rectangular table: pandas.DataFrame(r["messages"]) works


def test_bad_workload_inputs_raise_value_error(tmp_path, run_flux, paper):
    path, w = paper
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "flux.fabric/1", "gpus": 8}')
    code, _, err = run_flux("simulate", "--scenario", path, "--fabric", bad, "--scheduler",
                            "rotornet", "-o", tmp_path / "out")
    with pytest.raises(ValueError) as e:
        fluxocs.simulate(w, str(bad), "rotornet")
    assert code == 2 and err.strip() == "flux: error: " + str(e.value)
    with pytest.raises(ValueError, match="not an option"):
        fluxocs.simulate(w, PAPER_FABRIC, "rotornet", bogus=1)
    with pytest.raises(ValueError):
        fluxocs.simulate(w, PAPER_FABRIC, "no-such-scheduler")
    with pytest.raises(ValueError, match="threads"):
        fluxocs.cosched(w, PAPER_FABRIC, "flux", threads=0)
    with pytest.raises(ValueError):
        fluxocs.Scenario({"format": "flux.scenario/1", "model": {"layers": -1}})
    with pytest.raises(ValueError):
        fluxocs.Workload(str(tmp_path / "missing.json"))


def test_ctrl_c_interrupts_a_long_call():
    """SIGINT during a 20 s Flux run raises KeyboardInterrupt within seconds (the GIL is released
    and the caller polls for signals)."""
    import os
    import signal
    import threading
    import time
    fabric = {"format": "flux.fabric/1", "gpus": 8, "ocs": 2, "link_rate": 100e9, "latency": 0,
              "reconfig_delay": 1e-3, "circuit": "duplex", "initial_config_free": False}
    w = fluxocs.Scenario(os.path.join(os.environ["FLUX_SOURCE_DIR"], "examples",
                                      "llama3-8b-16l-tp4-dp2.json")).workload()
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        fluxocs.cosched(w, fabric, "flux", time_limit="20s", threads=1)
    assert time.monotonic() - start < 10  # well before the 20 s the call would take
