#!/usr/bin/env python3
"""The reproductions of the hangs once seen with more threads than cores (searches to a depth or a move time, and stops in engine protocol sessions), each run N times in a row.

Run by hand (minutes to an hour; not in CI, which runs `splitpoint stress`):

    cargo build --release -p splitpoint-cli
    python3 scripts/hang_reproductions.py [--runs 200] [--bin target/release/splitpoint] [--only NAME]

Each command-line case is one process under a 10 s timeout; each protocol case
is one `go`/`stop` pair in a long-lived engine process, with 10 s allowed for
the answer. Prints, per case, how many of the runs hung; exits 1 if any did.
"""

import argparse
import queue
import subprocess
import sys
import threading
import time

OTHELLO_START = "---------------------------OX------XO--------------------------- X"

COMMAND_CASES = {
    "draughts-x8-depth15": ["search", "draughts", "--threads", "8", "--depth", "15"],
    "draughts-x8-movetime2000": ["search", "draughts", "--threads", "8", "--movetime", "2000"],
    "draughts-x16-depth15": ["search", "draughts", "--threads", "16", "--depth", "15"],
    "draughts-x3-depth15": ["search", "draughts", "--threads", "3", "--depth", "15"],
    "othello-x8-depth11": ["search", "othello", f"--position={OTHELLO_START}", "--threads", "8", "--depth", "11"],
    "othello-ybw-strong-x8-depth11": [
        "search", "othello", f"--position={OTHELLO_START}", "--threads", "8", "--depth", "11",
        "--algorithm", "ybw-strong",
    ],
}

PROTOCOL_CASES = {
    # (engine arguments, set-up lines, ready answer, go lines, answer prefix, think time)
    "hub-x8-ybw-analyze-stop": (
        ["hub"],
        ["hub", "set-param name=threads value=8", "set-param name=algorithm value=ybw", "init"],
        "ready",
        ["pos pos=start", "level infinite", "go analyze"],
        "done",
        0.5,
    ),
    "uci-chess-x8-ybw-infinite-stop": (
        ["uci"],
        ["uci", "setoption name Threads value 8", "setoption name Algorithm value ybw", "isready"],
        "readyok",
        ["position startpos", "go infinite"],
        "bestmove",
        0.5,
    ),
}


def run_command_case(binary, args, runs):
    hung = 0
    for i in range(runs):
        try:
            subprocess.run([binary, *args], stdout=subprocess.DEVNULL, timeout=10, check=True)
        except subprocess.TimeoutExpired:
            hung += 1
            print(f"  run {i + 1}: HUNG", flush=True)
        except subprocess.CalledProcessError as e:
            print(f"  run {i + 1}: exit {e.returncode}", flush=True)
            hung += 1
    return hung


def run_protocol_case(binary, case, runs):
    args, setup, ready, go, answer, think = case
    engine = subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    lines = queue.Queue()

    def read():
        for line in engine.stdout:
            lines.put(line.strip())
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()

    def send(text):
        engine.stdin.write(text + "\n")
        engine.stdin.flush()

    def wait_for(prefix, timeout):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                return False
            if line is None:
                return False
            if line.startswith(prefix):
                return True

    for text in setup:
        send(text)
    if not wait_for(ready, 10):
        engine.kill()
        return runs
    hung = 0
    for i in range(runs):
        for text in go:
            send(text)
        time.sleep(think)
        send("stop")
        if not wait_for(answer, 10):
            print(f"  go/stop {i + 1}: HUNG (no '{answer}' within 10 s)", flush=True)
            hung += runs - i
            break
    engine.kill()
    return hung


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--bin", default="target/release/splitpoint")
    parser.add_argument("--only", help="run only the cases whose name contains this")
    options = parser.parse_args()
    total = 0
    for name, args in COMMAND_CASES.items():
        if options.only and options.only not in name:
            continue
        start = time.monotonic()
        hung = run_command_case(options.bin, args, options.runs)
        total += hung
        print(f"{name}: {hung} of {options.runs} hung ({time.monotonic() - start:.0f} s)", flush=True)
    for name, case in PROTOCOL_CASES.items():
        if options.only and options.only not in name:
            continue
        start = time.monotonic()
        hung = run_protocol_case(options.bin, case, options.runs)
        total += hung
        print(f"{name}: {hung} of {options.runs} go/stop pairs hung ({time.monotonic() - start:.0f} s)", flush=True)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
