#!/usr/bin/env python3
"""Throughput of Othello's batch solver on an OpenCL device beside the CPU
solver at 1 and 2 threads: the tables `scripts/gpu_device.sh` writes.

For each number of empty squares, a set of random endgames (random games by
the rules, from a fixed seed) is solved three ways: `solve --file F
--algorithm gpu --json` (all at once on the device), and `solve --file F
--json` at --threads 1 and 2. Every score must agree. Written under OUTDIR:

- `results.json`: every run (positions, seconds, launches, subtrees a
  launch, device and transfer time, the device's lanes and fill);
- `tables.md`: positions/s and subtrees/s by empties, with GPUOthello2's
  published figure beside;
- `time-by-empties.svg`: seconds a position against empties, one line a
  solver (log scale), as the GPU Othello papers draw it.

Seconds are the solving's alone: the batch's (from the summary line) for
the device, the sum of the positions' for the CPU; start-up (the kernels'
build, reading the file) is left out of both.

Usage: scripts/gpu_tables.py OUTDIR [--bin target/release/splitpoint]
       [--reduced] [--gpu-device N] [--budget SECONDS]
"""

import argparse
import json
import math
import multiprocessing
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mpi_check import random_endgame  # noqa: E402  (random games by the rules)

# Positions a set, by empties: the full form for a real GPU, the reduced
# one for PoCL in CI (about a minute on two cores).
FULL = {10: 32768, 12: 16384, 14: 4096, 16: 1024, 18: 256}
REDUCED = {10: 256, 12: 96}

# GPUOthello2 (primenumber): 1,091,780 positions of 10 empties in 6.44 s,
# one thread a position, on its author's GPU (the README's figure).
GPUOTHELLO2 = ("GPUOthello2 (published, its own GPU)", 10, 1_091_780, 6.44)

SEED = 2026


def endgame(args):
    """The `index`th random endgame of `empties` empties (its own seed)."""
    empties, index = args
    rng = random.Random((SEED * 100 + empties) * 1_000_003 + index)
    while True:
        pos = random_endgame(rng, empties)
        if pos:
            return pos


def endgames(empties, count):
    """`count` random endgames, made on every core (Python's rules are slow)."""
    with multiprocessing.Pool() as pool:
        return pool.map(endgame, [(empties, i) for i in range(count)], chunksize=64)


def solve(bin_, path, flags, timeout):
    """The JSON lines of one solve run, or None when it ran out of time."""
    cmd = [bin_, "solve", "othello", "--file", path, "--json", *flags]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} -> status {r.returncode}\n{r.stderr}")
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def svg_plot(runs, path):
    """Seconds a position against empties, log scale, one line a solver."""
    w, h, left, right, top, bottom = 640, 400, 70, 170, 40, 50
    series = {}
    for r in runs:
        series.setdefault(r["solver"], []).append((r["empties"], r["seconds"] / r["positions"]))
    points = [p for s in series.values() for p in s]
    if not points:
        return
    xs = [e for e, _ in points]
    ys = [math.log10(max(t, 1e-9)) for _, t in points]
    x0, x1 = min(xs), max(max(xs), min(xs) + 1)
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys) + 1e-9)
    y1 = max(y1, y0 + 1)

    def x(e):
        return left + (w - left - right) * (e - x0) / (x1 - x0)

    def y(t):
        return top + (h - top - bottom) * (1 - (math.log10(max(t, 1e-9)) - y0) / (y1 - y0))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{(w - right + left) / 2}" y="22" font-size="15" text-anchor="middle">'
           'Othello endgames: seconds a position against empties</text>']
    for p in range(y0, y1 + 1):
        yy = y(10 ** p)
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{yy + 4:.1f}" text-anchor="end">1e{p}</text>')
    for e in sorted(set(xs)):
        out.append(f'<text x="{x(e):.1f}" y="{h - bottom + 18}" text-anchor="middle">{e}</text>')
    out.append(f'<text x="{(w - right + left) / 2}" y="{h - 12}" text-anchor="middle">'
               'empty squares</text>')
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    for i, (name, pts) in enumerate(sorted(series.items())):
        pts.sort()
        c = colours[i % len(colours)]
        line = " ".join(f"{x(e):.1f},{y(t):.1f}" for e, t in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="{c}" stroke-width="2"/>')
        for e, t in pts:
            out.append(f'<circle cx="{x(e):.1f}" cy="{y(t):.1f}" r="3" fill="{c}"/>')
        ly = top + 20 * i + 10
        out.append(f'<line x1="{w - right + 10}" x2="{w - right + 30}" y1="{ly}" y2="{ly}" '
                   f'stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{w - right + 36}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def si(x):
    for unit, div in (("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.1f}{unit}"
    return f"{x:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--bin", default="target/release/splitpoint")
    parser.add_argument("--reduced", action="store_true",
                        help="small sets (PoCL in CI): about a minute")
    parser.add_argument("--gpu-device", default="0", help="the OpenCL device (gpu-info)")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds for all the runs [default: 60 reduced, 300 full]")
    args = parser.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    sets = REDUCED if args.reduced else FULL
    budget = args.budget or (60.0 if args.reduced else 300.0)
    deadline = time.monotonic() + budget
    solvers = [("gpu (batch)", ["--algorithm", "gpu", "--gpu-device", args.gpu_device]),
               ("cpu 1 thread", []),
               ("cpu 2 threads", ["--threads", "2"])]
    runs, skipped = [], []
    given_up = set()
    for empties, count in sorted(sets.items()):
        positions = endgames(empties, count)
        path = os.path.join(args.outdir, f"endgames-{empties}.txt")
        with open(path, "w") as f:
            f.write("\n".join(positions) + "\n")
        scores = {}
        for name, flags in solvers:
            left = deadline - time.monotonic()
            if name in given_up or left < 5:
                skipped.append(f"{name} at {empties} empties")
                continue
            t = time.monotonic()
            rows = solve(args.bin, path, flags, left)
            wall = time.monotonic() - t
            if rows is None:
                # Out of time: this solver runs no bigger set.
                given_up.add(name)
                skipped.append(f"{name} at {empties} empties (ran out of time)")
                continue
            summary = next((r for r in rows if r.get("summary")), None)
            rows = [r for r in rows if not r.get("summary")]
            scores[name] = [r["score"] for r in rows]
            run = {"solver": name, "empties": empties, "positions": len(rows), "wall": wall,
                   "seconds": summary["seconds"] if summary else sum(r["seconds"] for r in rows),
                   "nodes": sum(r["nodes"] for r in rows)}
            if summary:
                s = summary["stats"]
                run.update({"device": summary["device"], "launches": s["launches"],
                            "subtrees": s["work_sent"],
                            "subtrees_per_launch": summary["subtrees_per_launch"],
                            "largest_launch": summary["largest_launch"],
                            "kernel": s["device_micros"] / 1e6,
                            "transfer": s["transfer_micros"] / 1e6,
                            "lanes": summary["lanes"], "fill": summary["fill"]})
            runs.append(run)
            print(f"{empties} empties, {name}: {len(rows)} positions in {run['seconds']:.3f} s",
                  flush=True)
        if len(set(map(tuple, scores.values()))) > 1:
            sys.exit(f"FAIL: {empties} empties: the solvers' scores differ")

    with open(os.path.join(args.outdir, "results.json"), "w") as f:
        json.dump({"runs": runs, "skipped": skipped, "reduced": args.reduced}, f, indent=1)
    lines = ["| solver | empties | positions | seconds | positions/s | subtrees/s | launches "
             "| subtrees a launch | largest | kernel (s) | transfer (s) | fill (a lane) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in runs:
        pps = r["positions"] / max(r["seconds"], 1e-9)
        if "launches" in r:
            extra = (f"{si(r['subtrees'] / max(r['seconds'], 1e-9))} | {r['launches']} | "
                     f"{r['subtrees_per_launch']:.0f} | {r['largest_launch']} | "
                     f"{r['kernel']:.3f} | {r['transfer']:.3f} | {r['fill']:.2f} of {r['lanes']}")
        else:
            extra = " | | | | | | "
        lines.append(f"| {r['solver']} | {r['empties']} | {r['positions']} | "
                     f"{r['seconds']:.3f} | {si(pps)} | {extra} |")
    name, empties, count, seconds = GPUOTHELLO2
    lines.append(f"| {name} | {empties} | {count} | {seconds} | {si(count / seconds)} "
                 "| | | | | | | |")
    device = next((r["device"] for r in runs if "device" in r), "?")
    text = (f"Device: {device}.\n\n" + "\n".join(lines) + "\n")
    if skipped:
        text += "\nNot run (the time budget): " + "; ".join(skipped) + ".\n"
    with open(os.path.join(args.outdir, "tables.md"), "w") as f:
        f.write(text)
    svg_plot(runs, os.path.join(args.outdir, "time-by-empties.svg"))
    print(text)


if __name__ == "__main__":
    main()
