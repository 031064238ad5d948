#!/usr/bin/env python3
"""The gpu algorithm through the command line, checked against the CPU (CI
runs it on PoCL).

Needs a build with the gpu feature (`cargo build --release --features gpu
-p splitpoint-cli`) and an OpenCL platform. Checks:

- `search othello --exact --depth 7 --algorithm gpu` scores as serial
  search from 8 positions (the start and random midgames);
- `solve othello --file F --algorithm gpu --json` solves 40 held-out
  endgames (random games, 8-14 empties, none from the tests) to serial's
  scores, as the batch solver (with its summary line) and as the oracle
  (--oracle, PV splitting);
- `selfplay --a serial:1 --b gpu:1`: CPU-CPU, CPU-GPU, GPU-CPU and GPU-GPU
  games identical move by move;
- `bench --algos serial,gpu-narrow,gpu,gpu-wide`: a row a split with
  every answer serial's, the device's name, pieces, subtrees, launches,
  transfer and kernel time, and a line in the time-against-depth series;
  each piece in more subtrees the wider the split;
- bad uses end with status 2 and a message: gpu on chess, gpu on 2 threads.

Usage: scripts/gpu_check.py [--bin target/release/splitpoint]
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile

# Random games by the rules, the same as the MPI check's held-out endgames.
from mpi_check import random_endgame

TIMEOUT = 600


def positions(seed, count, low, high):
    """`count` positions of random games with `low` to `high` empties."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        pos = random_endgame(rng, rng.randint(low, high))
        if pos:
            out.append(pos)
    return out


def run(cmd, expect=0):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    if r.returncode != expect:
        sys.exit(f"FAIL: {' '.join(cmd)} -> status {r.returncode} (wanted {expect})\n{r.stderr}")
    return r


def check_search(bin_):
    starts = ["start"] + positions(1, 7, 30, 50)
    for pos in starts:
        scores = []
        for algo in ("serial", "gpu"):
            out = run([bin_, "search", "othello", "-p", pos, "--exact", "--depth", "7",
                       "--algorithm", algo, "--json"]).stdout
            scores.append(json.loads(out)["score"])
        if scores[0] != scores[1]:
            sys.exit(f"FAIL: search {pos}: serial {scores[0]}, gpu {scores[1]}")
    print(f"search --exact --depth 7: gpu equals serial on {len(starts)} positions")


def check_solve(bin_):
    endgames = positions(2026, 40, 8, 14)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(endgames) + "\n")
        path = f.name

    def scores(*flags):
        out = run([bin_, "solve", "othello", "--file", path, "--json", *flags]).stdout
        rows = [json.loads(line) for line in out.splitlines()]
        # The batch solver (gpu without --oracle) ends with the run's totals.
        summary = [r for r in rows if r.get("summary")]
        rows = [r for r in rows if not r.get("summary")]
        batched = "gpu" in flags and "--oracle" not in flags
        if batched and (len(summary) != 1 or summary[0]["stats"]["launches"] < 1
                        or summary[0]["stats"]["work_sent"] != sum(r["stats"]["work_sent"] for r in rows)):
            sys.exit(f"FAIL: solve {flags}: no summary line, or one that disagrees: {summary}")
        if not batched and summary:
            sys.exit(f"FAIL: solve {flags}: a summary line without the batch solver")
        if len(rows) != len(endgames):
            sys.exit(f"FAIL: solve {flags}: {len(rows)} rows for {len(endgames)} positions")
        return [r["score"] for r in rows], sum(r["stats"]["work_sent"] for r in rows)

    serial, _ = scores()
    for flags in (("--algorithm", "gpu"), ("--algorithm", "gpu", "--oracle")):
        found, subtrees = scores(*flags)
        wrong = [i for i, (a, b) in enumerate(zip(serial, found)) if a != b]
        if wrong:
            sys.exit(f"FAIL: solve {flags}: positions {wrong} differ from serial")
        if subtrees == 0:
            sys.exit(f"FAIL: solve {flags}: nothing went to the device")
    print(f"solve --file: gpu equals serial on {len(endgames)} endgames (solver and oracle)")


def check_selfplay(bin_):
    out = run([bin_, "selfplay", "--a", "serial:1", "--b", "gpu:1", "--depth", "4",
               "--openings", "3", "--json"]).stdout
    reports = json.loads(out)
    if not reports or not all(r["identical"] for r in reports):
        sys.exit(f"FAIL: selfplay serial:1 against gpu:1 diverged:\n{out}")
    print(f"selfplay: serial and gpu games identical from {len(reports)} openings")


def check_bench(bin_):
    splits = ("gpu-narrow", "gpu", "gpu-wide")
    with tempfile.TemporaryDirectory() as out:
        run([bin_, "bench", "--algos", "serial," + ",".join(splits), "--threads", "1",
             "--runs", "1", "--quiet", "--out", out])
        with open(f"{out}/results.json") as f:
            report = json.load(f)
    rows = {r["algorithm"]: r for r in report["rows"]}
    for name in splits:
        gpu = rows.get(name)
        if (gpu is None or gpu["wrong"] != 0 or gpu["subtrees"] == 0 or gpu["messages"] == 0
                or gpu["device_subtrees"] == 0):
            sys.exit(f"FAIL: bench: no sound {name} row: {gpu}")
        if gpu["kernel_ms"] <= 0 or not report.get("gpu", {}).get("name"):
            sys.exit(f"FAIL: bench: the {name} row lacks its device or times: {gpu} "
                     f"{report.get('gpu')}")
        if not any(s["algorithm"] == name for s in report["time_by_depth"]):
            sys.exit(f"FAIL: bench: no {name} line in time_by_depth")
        print(f"bench: {name} row on {report['gpu']['name']}: {gpu['subtrees']} pieces, "
              f"{gpu['device_subtrees']} subtrees in {gpu['messages']} launches, "
              f"kernel {gpu['kernel_ms']:.0f} ms")
    # Each piece split into more subtrees the wider the split.
    per_piece = [rows[n]["device_subtrees"] / rows[n]["subtrees"] for n in splits]
    if not per_piece[0] < per_piece[1] < per_piece[2]:
        sys.exit(f"FAIL: bench: subtrees a piece, narrow to wide: {per_piece}")


def check_refusals(bin_):
    for cmd, says in (
        (["search", "chess", "--algorithm", "gpu"], "chess has no GPU search"),
        (["search", "othello", "--algorithm", "gpu", "--threads", "2"], "one thread"),
        (["search", "othello", "--algorithm", "gpu", "--gpu-device", "99"], "no OpenCL device 99"),
        (["search", "othello", "--algorithm", "gpu", "--transport", "mpi"], "--transport is for pv-split"),
    ):
        r = run([bin_, *cmd], expect=2)
        if says not in r.stderr:
            sys.exit(f"FAIL: {' '.join(cmd)}: stderr lacks '{says}': {r.stderr}")
    print("bad uses: status 2 with a message")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default="target/release/splitpoint")
    args = parser.parse_args()
    check_refusals(args.bin)
    check_search(args.bin)
    check_solve(args.bin)
    check_selfplay(args.bin)
    check_bench(args.bin)
    print("gpu_check: all passed")


if __name__ == "__main__":
    main()
