#!/usr/bin/env python3
"""PV splitting over MPI, checked against serial search (CI runs it).

Needs a build with the mpi feature (`cargo build --release --features mpi`)
and OpenMPI's mpirun. At 2, 3 and 4 ranks (oversubscribed on a small
machine, which measures correctness, not speed):

- exact-mode scores equal serial search's on synthetic trees, Othello
  midgames, one position of every other game, and Othello endgames solved
  exactly, among them 100 positions in one run (100 searches in a row);
- hybrid: slave ranks on 2 and 3 threads (ybw, workloads) stay exact, and
  their splits and nodes are counted in rank 0's result;
- a timed search ends on time, the stop reaching every rank;
- a rank on another game is refused with a clear error and exit status 2;
- a rank killed in a search ends the run (non-zero status), no hang;
- `bench --transport mpi --ranks 1,2,3` under mpirun: rows pv-split/mpi at
  1, 2 and 3 ranks, every answer serial's, the messages and bytes counted.

Usage: scripts/mpi_check.py [--bin target/release/splitpoint]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe"]
RANKS = (2, 3, 4)
# Every MPI command must end well within this; a hang is a failure.
TIMEOUT = 300


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=TIMEOUT)


def json_lines(out):
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def mpi(bin_, ranks, args, stdin=None):
    return run(MPIRUN + ["-np", str(ranks), bin_] + args + ["--algorithm", "pv-split", "--transport", "mpi"], stdin)


def expect_ok(p, what):
    if p.returncode != 0:
        sys.exit(f"FAIL {what}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")


# --- A small Othello, only to make random endgame positions -----------------

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, sq, me):
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == -me:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += line
    return out


def random_endgame(rng, empties):
    """A position reached by random play with `empties` empty squares, as
    splitpoint's text: a1..h8 row by row, then the side to move."""
    board = [0] * 64
    board[27] = board[36] = -1  # d4, e5: white
    board[28] = board[35] = 1  # e4, d5: black
    me = 1
    while board.count(0) > empties:
        moves = [s for s in range(64) if board[s] == 0 and flips(board, s, me)]
        if not moves:
            if not any(board[s] == 0 and flips(board, s, -me) for s in range(64)):
                return None  # game over before the endgame
            me = -me
            continue
        sq = rng.choice(moves)
        for f in flips(board, sq, me) + [sq]:
            board[f] = me
        me = -me
    text = "".join("X" if v == 1 else "O" if v == -1 else "-" for v in board)
    return f"{text} {'X' if me == 1 else 'O'}"


def endgames(n, empties, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = random_endgame(rng, empties)
        if pos:
            out.append(pos)
    return out


# --- The checks --------------------------------------------------------------


def check_searches(bin_):
    cases = [
        ["search", "synthetic", "-p", "b=6,d=7,seed=3", "--exact"],
        ["search", "synthetic", "-p", "b=8,d=6,seed=11,q=0.6", "--exact"],
        ["search", "othello", "--depth", "9", "--exact"],
        ["search", "othello", "--moves", "f5 d6 c3 d3 c4", "--depth", "8", "--exact"],
        ["search", "chess", "--depth", "5", "--exact"],
        ["search", "draughts", "--depth", "9", "--exact"],
        ["search", "xiangqi", "--depth", "5", "--exact"],
    ]
    for args in cases:
        serial = run([bin_] + args + ["--json"])
        expect_ok(serial, " ".join(args))
        want = json_lines(serial.stdout)[0]["score"]
        for ranks in RANKS:
            p = mpi(bin_, ranks, args + ["--json"])
            expect_ok(p, f"{' '.join(args)} at {ranks} ranks")
            got = json_lines(p.stdout)
            if len(got) != 1 or got[0]["score"] != want:
                sys.exit(f"FAIL {' '.join(args)} at {ranks} ranks: {got} != serial {want}")
            print(f"ok  {' '.join(args):<55} {ranks} ranks: {want}")


def check_hybrid(bin_):
    cases = [
        ["search", "othello", "--depth", "9", "--exact"],
        ["search", "chess", "--depth", "5", "--exact"],
        ["search", "draughts", "--depth", "9", "--exact"],
    ]
    for args in cases:
        want = json_lines(run([bin_] + args + ["--json"]).stdout)[0]["score"]
        for ranks, threads, algo in [(2, 2, "ybw"), (3, 2, "workloads"), (2, 3, "ybw-strong")]:
            extra = ["--json", "--threads", str(threads), "--rank-algorithm", algo]
            p = mpi(bin_, ranks, args + extra)
            expect_ok(p, f"{' '.join(args)} at {ranks} ranks x {threads} threads")
            got = json_lines(p.stdout)
            if len(got) != 1 or got[0]["score"] != want:
                sys.exit(f"FAIL {' '.join(args)} at {ranks} ranks x {threads} threads: {got} != {want}")
            # Rank 0 searches on one thread and never splits by itself:
            # splits beyond its work messages are the slave ranks' own.
            stats = got[0]["stats"]
            print(f"ok  {' '.join(args):<40} {ranks} ranks x {threads} threads ({algo}): "
                  f"{want}, {stats['nodes']} nodes, {stats['splits']} splits")
    p = run(MPIRUN + ["-np", "2", bin_, "search", "othello", "--algorithm", "pv-split",
                      "--transport", "mpi", "--threads", "2", "--rank-algorithm", "dts"])
    if p.returncode != 2 or p.stderr.count("--rank-algorithm: dts cannot share") != 1:
        sys.exit(f"FAIL --rank-algorithm dts: exit {p.returncode}\n{p.stderr[-2000:]}")
    print("ok  --rank-algorithm dts is refused, once")


def check_solves(bin_, path, what):
    serial = run([bin_, "solve", "othello", "--file", path, "--json"])
    expect_ok(serial, f"serial solve of {what}")
    want = [r["score"] for r in json_lines(serial.stdout)]
    for ranks in RANKS:
        p = mpi(bin_, ranks, ["solve", "othello", "--file", path, "--json"])
        expect_ok(p, f"solve of {what} at {ranks} ranks")
        got = [r["score"] for r in json_lines(p.stdout)]
        if got != want:
            sys.exit(f"FAIL solve of {what} at {ranks} ranks: {got} != serial {want}")
        print(f"ok  solve {what} at {ranks} ranks: {len(got)} positions, every score serial's")


def check_stop(bin_):
    for ranks in RANKS:
        start = time.monotonic()
        p = mpi(bin_, ranks, ["search", "othello", "--movetime", "1500", "--json"])
        took = time.monotonic() - start
        expect_ok(p, f"timed search at {ranks} ranks")
        # The move time, plus starting and ending MPI on a loaded machine.
        if took > 20:
            sys.exit(f"FAIL a 1.5 s search at {ranks} ranks took {took:.1f} s")
        print(f"ok  1.5 s search at {ranks} ranks ended in {took:.1f} s")


def check_mismatch(bin_):
    # Rank 0 searches othello, rank 1 chess: refused on rank 0, status 2.
    cmd = MPIRUN + ["-np", "1", bin_, "search", "othello", "--algorithm", "pv-split",
                    "--transport", "mpi", ":", "-np", "1", bin_, "search", "chess",
                    "--algorithm", "pv-split", "--transport", "mpi"]
    p = run(cmd)
    if p.returncode == 0 or "must run the same program" not in p.stderr:
        sys.exit(f"FAIL mismatched ranks: exit {p.returncode}\n{p.stderr[-2000:]}")
    print("ok  ranks on different games are refused")


def check_rank_dies(bin_):
    cmd = MPIRUN + ["-np", "3", bin_, "solve", "othello", "--ffo", "40,41,42,43",
                    "--algorithm", "pv-split", "--transport", "mpi", "--json"]
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    ranks = subprocess.run(["pgrep", "-f", f"^{bin_} solve othello --ffo 40,41,42,43"],
                           capture_output=True, text=True).stdout.split()
    if len(ranks) != 3:
        p.kill()
        sys.exit(f"FAIL a dying rank: found {len(ranks)} ranks, not 3")
    os.kill(int(max(ranks, key=int)), 9)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit("FAIL a dying rank: the run hung")
    if p.returncode == 0:
        sys.exit(f"FAIL a dying rank: exit 0\n{err[-2000:]}")
    print(f"ok  a rank killed in a search ends the run: exit {p.returncode} "
          f"after {time.monotonic() - start:.1f} s")


def check_bench(bin_):
    with tempfile.TemporaryDirectory() as out:
        cmd = MPIRUN + ["-np", "3", bin_, "bench", "--suite", "othello-tiny", "--depth", "9",
                        "--algos", "serial", "--threads", "1", "--runs", "1", "--quiet",
                        "--transport", "mpi", "--ranks", "1,2,3", "--out", out]
        p = run(cmd)
        expect_ok(p, "bench over 3 ranks")
        with open(os.path.join(out, "results.json")) as f:
            report = json.load(f)
    rows = {r["threads"]: r for r in report["rows"] if r["algorithm"] == "pv-split/mpi"}
    if sorted(rows) != [1, 2, 3]:
        sys.exit(f"FAIL bench over ranks: rows {sorted(rows)}\n{p.stdout[-2000:]}")
    if any(r["wrong"] for r in report["rows"]):
        sys.exit(f"FAIL bench over ranks: wrong answers\n{p.stdout[-3000:]}")
    if rows[1]["messages"] != 0 or any(rows[r]["messages"] == 0 or rows[r]["message_bytes"] == 0
                                       for r in (2, 3)):
        sys.exit(f"FAIL bench over ranks: messages {[(r, rows[r]['messages']) for r in rows]}")
    if "### Messages" not in p.stdout or p.stdout.count("## Suite") != 1:
        sys.exit(f"FAIL bench over ranks: rank 0 alone reports, with messages\n{p.stdout[-3000:]}")
    print("ok  bench over 1, 2 and 3 ranks: " + ", ".join(
        f"{r} ranks {rows[r]['speedup']:.2f}x, {rows[r]['messages']} messages" for r in sorted(rows)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.environ.get("SPLITPOINT_BIN", "target/release/splitpoint"))
    args = ap.parse_args()
    check_searches(args.bin)
    check_hybrid(args.bin)
    with tempfile.TemporaryDirectory() as tmp:
        ffo = os.path.join(tmp, "ffo.txt")
        # FFO #40 and #41 (known scores, checked by solve itself).
        p = run([args.bin, "solve", "othello", "--ffo", "40,41", "--json"])
        expect_ok(p, "serial FFO")
        with open(ffo, "w") as f:
            f.writelines(r["position"] + "\n" for r in json_lines(p.stdout))
        check_solves(args.bin, ffo, "FFO #40-41")
        many = os.path.join(tmp, "many.txt")
        with open(many, "w") as f:
            f.writelines(p + "\n" for p in endgames(100, 12, seed=17))
        check_solves(args.bin, many, "100 random 12-empty endgames")
    check_stop(args.bin)
    check_mismatch(args.bin)
    check_rank_dies(args.bin)
    check_bench(args.bin)
    print("mpi: all checks passed")


if __name__ == "__main__":
    main()
