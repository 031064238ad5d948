#!/usr/bin/env python3
"""`splitpoint hub` driven by pydraughts, as a draughts GUI would, and the
move generator checked against pydraughts' on positions from random games.

Needs pydraughts (`pip install pydraughts`) and a built engine
(harness.py: where it is looked for; run as a plain script or by pytest).
"""

import contextlib
import random
import subprocess
import sys
import time

import draughts
import draughts.engine
from draughts.engine import HubEngine, Limit

from harness import BIN, TIMEOUT, Pipe, run_tests, splitpoint  # the sibling module

POSITIONS = [
    "W:W31-50:B1-20",
    "B:W32,33,35-39,41,44,45,47-50:B2-8,12,14-16,18,20,24",
    "W:W24,27,31-33,36-38,40,41,44,47-50:B2,4-6,8,12,13,15-18,20,21,25,26",
    "W:W33,35,40,41,47,K1:B2,4,5,8,10,16,17,K49",
    "B:W23,32,37-40,44-47,49,50:B1-11,13-15,21,35,K26",
]


@contextlib.contextmanager
def hub_engine(init=True):
    """pydraughts' Hub engine on `splitpoint hub` (`init` sent unless told
    not to); it must quit at the end."""
    engine = HubEngine([BIN, "hub"])
    try:
        if init:
            engine.init()
        yield engine
    finally:
        engine.quit()
        try:
            engine.p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            engine.kill_process()
            raise AssertionError("the engine did not quit")
        finally:
            engine.p.stdin.close()
            engine.p.stdout.close()


def move_key(move):
    """A move as pydraughts' Hub form: from, to and the sorted captures."""
    return move.hub_position_move


def legal_keys(board):
    return {move_key(m) for m in board.legal_moves()}


def test_handshake_and_params():
    with hub_engine(init=False) as engine:
        assert engine.id.get("name") == "splitpoint", engine.id
        for name in ("threads", "hash", "algorithm", "exact", "variant"):
            assert name in engine.options, sorted(engine.options)
        assert engine.variants == {"normal"}, engine.variants
        engine.configure({"threads": 2, "hash": 32, "algorithm": "ybw"})
        engine.init()
        engine.ping()


def test_analyse_positions():
    with hub_engine() as engine:
        for fen in POSITIONS:
            for limit in (Limit(depth=4), Limit(movetime=0.2)):
                board = draughts.Board("standard", fen)
                result = engine.play(board, limit, ponder=False)
                assert move_key(result.move) in legal_keys(board), (fen, result.move.hub_move)
                info = result.info
                assert "score" in info and "depth" in info and "nodes" in info, (fen, info)
                pv = info.get("pv", "").strip('"').split()  # pydraughts keeps the quotes
                assert pv and pv[0] == result.move.hub_move, (fen, info)
                replay = board.copy()
                for hub_move in pv:
                    move = draughts.Move(replay, hub_move=hub_move)  # raises if illegal
                    replay.push(move)


def test_finds_a_win():
    with hub_engine() as engine:
        # Every White capture leaves Black without a move.
        board = draughts.Board("standard", "W:W30,34,K15:B10,25,K9")
        result = engine.play(board, Limit(depth=3), ponder=False)
        assert result.info["score"] == {"win": 1}, result.info
        board.push(result.move)
        assert board.winner() == draughts.WHITE, board.fen


def test_every_algorithm_and_exact_mode():
    names = [
        "auto", "serial", "shared-tt", "lazy-smp", "root-split", "ybw", "ybw-strong",
        "dts", "abdada", "workloads", "pv-split",
    ]
    with hub_engine() as engine:
        board = draughts.Board("standard", POSITIONS[1])
        for name in names:
            for threads in (1, 2):
                engine.configure({"threads": threads, "algorithm": name})
                result = engine.play(board, Limit(depth=5), ponder=False)
                assert move_key(result.move) in legal_keys(board), (name, threads)
        engine.configure({"threads": 1, "algorithm": "auto", "exact": True})
        result = engine.play(board, Limit(depth=4), ponder=False)
        assert move_key(result.move) in legal_keys(board)


def test_self_play_under_a_clock():
    """Up to 60 plies at 5 s + 0.1 s each: every move legal by pydraughts' rules,
    no flag falls, and threads and algorithm change halfway."""
    clock = {draughts.WHITE: 5.0, draughts.BLACK: 5.0}
    increment = 0.1
    board = draughts.Board("standard", "startpos")
    with hub_engine() as engine:
        for ply in range(60):
            if board.is_over():
                break
            if ply == 30:
                engine.configure({"threads": 2, "algorithm": "ybw"})
            side = board.turn
            legal = legal_keys(board)
            start = time.monotonic()
            result = engine.play(board, Limit(time=clock[side], inc=increment), ponder=False)
            spent = time.monotonic() - start
            clock[side] -= spent
            assert clock[side] > 0, f"flag fell at ply {ply} ({spent:.3f} s spent)"
            clock[side] += increment
            assert move_key(result.move) in legal, (board.fen, result.move.hub_move)
            board.push(result.move)
        assert len(board.move_stack) >= 30 or board.is_over(), board.fen


def test_stop_ping_and_bad_input():
    # `splitpoint hub` on pipes, for the lines pydraughts does not send.
    with Pipe("hub") as session:
        session.send("hub")
        session.expect("wait")
        session.send("init")
        session.expect("ready")
        for bad in ["nonsense", "pos pos=Xbad", "pos", "level depth=deep", "go sideways",
                    "set-param name=threads value=0", "set-param name=nosuch value=1",
                    'pos pos=W:W31-50:B1-20 moves="32-28 bogus"', 'level time="1']:
            session.send(bad)
            assert session.expect("error")[-1].startswith('error message="'), bad
        session.send("pos pos=" + POSITIONS[1])
        session.send("level infinite")
        session.send("go analyze")
        session.expect("info")
        session.send("ping")
        assert "pong" in session.expect("pong")
        start = time.monotonic()
        session.send("stop")
        done = session.expect("done")[-1]
        assert done.startswith("done move="), done
        assert time.monotonic() - start < 10
        # Free again at once.
        session.send("level depth=3")
        session.send("go think")
        assert session.expect("done")[-1].startswith("done move=")
        session.send("new-game")
        session.send("ping")
        session.expect("pong")


# ---------------------------------------------------------------- move generation


def coords(n):
    row = (n - 1) // 5
    return row, 2 * ((n - 1) % 5) + (1 if row % 2 == 0 else 0)


def square(row, col):
    return row * 5 + col // 2 + 1


def pieces(fen):
    """Side to move and {square: colour} of a PDN FEN (ranges allowed)."""
    side, *fields = fen.split(":")
    out = {}
    for field in fields:
        for item in filter(None, field[1:].split(",")):
            first, _, last = item.lstrip("K").partition("-")
            for n in range(int(first), int(last or first) + 1):
                out[n] = field[0]
    return side, out


def our_key(text, fen):
    """Our PDN move as (from, to, kind, captures): captures read off the
    route when it is written in full, None for the short form."""
    kind = "x" if "x" in text else "-"
    squares = [int(s) for s in text.split(kind)]
    if len(squares) == 2:
        return squares[0], squares[1], kind, None
    side, board = pieces(fen)
    captured = []
    for a, b in zip(squares, squares[1:]):
        (ra, ca), (rb, cb) = coords(a), coords(b)
        assert abs(rb - ra) == abs(cb - ca) > 0, (text, fen)
        dr, dc = (rb > ra) - (rb < ra), (cb > ca) - (cb < ca)
        between = [square(ra + k * dr, ca + k * dc) for k in range(1, abs(rb - ra))]
        hit = [n for n in between if n in board and n != squares[0]]
        assert len(hit) == 1 and board[hit[0]] != side, (text, fen, hit)
        captured.append(hit[0])
    return squares[0], squares[-1], "x", tuple(sorted(captured))


def their_keys(board):
    """pydraughts' legal moves in the same form: routes over the same pieces
    to the same square are one move, and the captures are named only where
    two moves share their first and last squares (as PDN writes them)."""
    full = set()
    for m in board.legal_moves():
        captured = tuple(sorted(c for c in (m.captures or []) if c is not None))
        full.add((m.board_move[0][0], m.board_move[-1][1], "x" if captured else "-", captured))
    groups = {}
    for first, last, kind, captured in full:
        groups.setdefault((first, last, kind), set()).add(captured)
    keys = set()
    for (first, last, kind), sets in groups.items():
        if len(sets) == 1:
            keys.add((first, last, kind, None))
        else:
            keys |= {(first, last, kind, c) for c in sets}
    most = max((len(c) for *_, c in full), default=0)
    return keys, most


def test_move_generator_agrees_with_pydraughts():
    rng = random.Random(20261122)
    positions = []
    while len(positions) < 1200:
        board = draughts.Board("standard", "startpos")
        for _ in range(160):
            moves = board.legal_moves()
            if not moves:
                break
            positions.append((board.fen, their_keys(board)))
            board.push(rng.choice(moves))
    out = splitpoint("moves", "draughts", "--stdin", input="".join(fen + "\n" for fen, _ in positions))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert len(lines) >= len(positions), (len(lines), len(positions))
    kings = multi = 0
    for (fen, (keys, most)), line in zip(positions, lines):
        ours = {our_key(text, fen) for text in line.split()}
        assert ours == keys, (fen, "ours only", ours - keys, "pydraughts only", keys - ours)
        kings += "K" in fen
        multi += most >= 2
    print(f"     {len(positions)} positions, {kings} with kings, {multi} with multi-captures")
    assert kings > 0 and multi > 0, (kings, multi)


if __name__ == "__main__":
    sys.exit(run_tests(globals()))
