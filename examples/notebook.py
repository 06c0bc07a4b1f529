"""Flux from Python, as a notebook would use it (runs as a plain script; figures go to PNG files).

    PYTHONPATH=build/python /usr/bin/python3 examples/notebook.py [OUTPUT_DIR]

1. Spectra against the Spectra paper's baseline over the reconfiguration delay on the GPT matrix
   (makespan / lower bound, 4 OCSes).
2. Flux against RotorNet over the reconfiguration delay tau on the Flux paper's scenario (Llama-3
   8B, 8 layers, TP4 x DP2 on 8 GPUs, 2 OCSes, 800 Gb/s): iteration time. Flux's MILP runs with a
   2 s budget per point, so its points can differ slightly from run to run on a loaded machine.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402

import fluxocs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(OUT, exist_ok=True)


def spectra_vs_baseline():
    demand = fluxocs.generate("gpt", seed=1)
    deltas = [0.001, 0.003, 0.01, 0.03, 0.1]
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for algorithm in ("spectra", "baseline"):
        ratios = []
        for delta in deltas:
            s = fluxocs.spectra(demand, 4, delta, algorithm=algorithm)
            ratios.append(s.makespan / s.lower_bound)
            print(f"{algorithm:9} delta {delta:<6} makespan {s.makespan:.4f} "
                  f"bound {s.lower_bound:.4f}")
        ax.plot(deltas, ratios, marker="o", label=algorithm)
    ax.set(xscale="log", xlabel="reconfiguration delay δ (busiest port = 1)",
           ylabel="makespan / lower bound", title="GPT matrix, 32 ports, 4 OCSes")
    ax.legend()
    fig.tight_layout()
    path = os.path.join(OUT, "spectra_vs_baseline.png")
    fig.savefig(path, dpi=120)
    return path


def flux_vs_rotornet():
    workload = fluxocs.Scenario(os.path.join(HERE, "llama3-8b-8l-tp4-dp2.json")).workload()
    taus = [1e-5, 1e-4, 1e-3]
    times = {"flux": [], "rotornet": []}
    for tau in taus:
        fabric = {"format": "flux.fabric/1", "gpus": 8, "ocs": 2, "link_rate": 1e11,
                  "latency": 0, "reconfig_delay": tau, "circuit": "duplex",
                  "initial_config_free": False}
        flux = fluxocs.cosched(workload, fabric, "flux", time_limit="2s")
        rotor = fluxocs.simulate(workload, fabric, "rotornet")
        for name, run in (("flux", flux), ("rotornet", rotor)):
            times[name].append(run["summary"]["iteration_time"] * 1e3)
        print(f"tau {tau:g} s: flux {times['flux'][-1]:.2f} ms, "
              f"rotornet {times['rotornet'][-1]:.2f} ms")
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for name, values in times.items():
        ax.plot([t * 1e6 for t in taus], values, marker="o", label=name)
    ax.set(xscale="log", yscale="log", xlabel="reconfiguration delay τ (µs)",
           ylabel="iteration time (ms)",
           title="Llama-3 8B, 8 layers, TP4 × DP2, 2 OCSes")
    ax.legend()
    fig.tight_layout()
    path = os.path.join(OUT, "flux_vs_rotornet.png")
    fig.savefig(path, dpi=120)
    return path


if __name__ == "__main__":
    for figure in (spectra_vs_baseline(), flux_vs_rotornet()):
        print("wrote", figure)
