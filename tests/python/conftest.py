"""Shared fixtures: the built `flux` binary and the repository, from the environment ctest sets."""
import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def flux_binary():
    return os.environ["FLUX_BINARY"]


@pytest.fixture(scope="session")
def source_dir():
    return os.environ["FLUX_SOURCE_DIR"]


@pytest.fixture(scope="session")
def run_flux(flux_binary):
    """Runs the CLI; returns (exit code, stdout, stderr)."""

    def run(*args):
        p = subprocess.run([flux_binary, *map(str, args)], capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    return run


# The Flux paper's fabric: 8 GPUs, 2 OCSes, 800 Gb/s, tau = 100 us.
PAPER_FABRIC = {"format": "flux.fabric/1", "gpus": 8, "ocs": 2, "link_rate": 1e11,
                "latency": 0, "reconfig_delay": 1e-4, "circuit": "duplex",
                "initial_config_free": False}


def write_demand(path, matrix, unit="normalized"):
    """A flux.demand/1 file; json writes floats in shortest round-trip form, so the CLI reads
    exactly the numbers Python holds."""
    doc = {"format": "flux.demand/1", "n": len(matrix), "unit": unit,
           "demand": [[float(x) for x in row] for row in matrix]}
    path.write_text(json.dumps(doc))
    return path


def without_provenance(path):
    """The JSON output at `path` without its provenance block (date, host, command line), which
    the library's results do not have."""
    doc = json.loads(path.read_text())
    doc.pop("provenance", None)
    return doc
