#!/usr/bin/env python3
"""The simulator against the machine: one suite measured on real threads and
simulated at the same thread counts, side by side.

    scripts/sim_validate.py [--game othello] [--threads 1,2] [--runs 5]
                            [--out sim-validate] [--binary target/release/splitpoint]
                            [-- extra bench flags]

Runs `splitpoint bench` twice: on real threads (--runs runs, interleaved,
with the machine's ceiling) and with --sim --calibrate (the costs measured on
this machine first). Prints, per algorithm and thread count: the measured
speedup with its 95% interval, the machine's ceiling (what as many serial
searches at once got), the measured speedup scaled by what the machine
allowed (x threads / ceiling: what an ideal machine would have given, which
an ideal-machine simulation should match), the simulated speedup, and the
node overheads measured and simulated. Writes the table to OUT/validation.md.
Where a machine has more cores, the same command with --threads 1,4,8,16
compares there.
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path


def bench(binary, game, threads, out, extra, sim=False, runs=1):
    args = [binary, "bench", "--game", game, "--threads", threads, "--out", str(out), "--quiet"]
    args += ["--sim", "--calibrate"] if sim else ["--runs", str(runs)]
    args += extra
    print("+", " ".join(args), file=sys.stderr)
    done = subprocess.run(args, stdout=subprocess.DEVNULL)
    if done.returncode not in (0, 1):
        sys.exit(f"sim_validate: {' '.join(args)} exited {done.returncode}")
    return json.loads((out / "results.json").read_text())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="othello")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("sim-validate"))
    parser.add_argument("--binary", default="target/release/splitpoint")
    parser.add_argument("extra", nargs="*", help="more bench flags (after --)")
    a = parser.parse_args()
    real = bench(a.binary, a.game, a.threads, a.out / "real", a.extra, runs=a.runs)
    sim = bench(a.binary, a.game, a.threads, a.out / "sim", a.extra, sim=True)
    ceiling = {c["threads"]: c["ratio"] for c in real.get("ceilings", [])}
    simulated = {(r["algorithm"], r["threads"]): r for r in sim["rows"]}
    costs = sim["simulation"]
    lines = [
        f"Suite `{real['suite']['name']}`, {a.runs} real runs; simulated at "
        f"{costs['node_ns']:.1f} ns a node, {costs['line_ns']:.0f} ns a line, "
        f"{costs['wake_ns']:.0f} ns a wake-up (calibrated).",
        "",
        "| Algorithm | Threads | Measured [95% CI] | Ceiling | Measured x T / ceiling "
        "| Simulated | Nodes measured | Nodes simulated |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in real["rows"]:
        t = r["threads"]
        if t == 1:
            continue
        s = simulated.get((r["algorithm"], t))
        c = ceiling.get(t)
        cells = [
            r["algorithm"],
            str(t),
            f"{r['speedup']:.2f} [{r['speedup_ci_low']:.2f}–{r['speedup_ci_high']:.2f}]",
            f"{c:.2f}" if c else "–",
            f"{r['speedup'] * t / c:.2f}" if c else "–",
            f"{s['speedup']:.2f}" if s else "–",
            f"{1 + r['overhead']:.3f}",
            f"{1 + s['overhead']:.3f}" if s else "–",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    print(table)
    (a.out / "validation.md").write_text(table + "\n")


if __name__ == "__main__":
    main()
