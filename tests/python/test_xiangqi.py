#!/usr/bin/env python3
"""splitpoint's xiangqi checked against Fairy-Stockfish.

(a) Legal moves: `splitpoint moves xiangqi --stdin` against pyffish's
    `legal_moves` on positions from seeded random play (some in check).
(b) A short match between splitpoint (over UCCI in one game, UCI in the
    other) and Fairy-Stockfish, every move checked legal by pyffish.

Needs pyffish (`pip install pyffish`), Fairy-Stockfish (`apt install
fairy-stockfish`, or FAIRY_STOCKFISH_BIN) and a built engine
(harness.py: where it is looked for; run as a plain script or by pytest).
"""

import os
import random
import re
import sys

import pyffish

from harness import BIN, Pipe, run_tests, splitpoint  # the sibling module

FAIRY = os.environ.get("FAIRY_STOCKFISH_BIN", "/usr/games/fairy-stockfish")

VARIANT = "xiangqi"
START = pyffish.start_fen(VARIANT)
# Every engine answer is bounded: a hang fails the test instead of the run.
TIMEOUT = 30.0

ICCS = re.compile(r"([a-i])([0-9])([a-i])([0-9])")
UCI = re.compile(r"([a-i])(10|[1-9])([a-i])(10|[1-9])")


def iccs_to_uci(move):
    """ICCS counts ranks 0-9, Fairy-Stockfish's UCI 1-10."""
    m = ICCS.fullmatch(move)
    assert m, f"not an ICCS move: {move!r}"
    return f"{m[1]}{int(m[2]) + 1}{m[3]}{int(m[4]) + 1}"


def uci_to_iccs(move):
    m = UCI.fullmatch(move)
    assert m, f"not a UCI xiangqi move: {move!r}"
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def random_positions(count, seed):
    """FENs from seeded random games (lengths 1-150 plies), with how many
    are in check."""
    rng = random.Random(seed)
    fens, checks = [], 0
    while len(fens) < count:
        fen = START
        for _ in range(rng.randint(1, 150)):
            moves = pyffish.legal_moves(VARIANT, fen, [])
            if not moves:
                break
            fen = pyffish.get_fen(VARIANT, fen, [rng.choice(moves)])
            fens.append(fen)
            checks += pyffish.gives_check(VARIANT, fen, [])
            if len(fens) == count:
                break
    return fens, checks


def test_legal_moves_match_fairy_stockfish():
    fens, checks = random_positions(1500, seed=2026)
    assert checks >= 20, f"only {checks} positions in check"
    fens_text = "\n".join(fens) + "\n"
    result = splitpoint("moves", "xiangqi", "--stdin", input=fens_text, timeout=TIMEOUT)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split("\n")[: len(fens)]
    assert len(lines) == len(fens), (len(lines), len(fens))
    total = 0
    for fen, line in zip(fens, lines):
        ours = sorted(iccs_to_uci(m) for m in line.split())
        theirs = sorted(pyffish.legal_moves(VARIANT, fen, []))
        assert ours == theirs, (fen, set(ours) - set(theirs), set(theirs) - set(ours))
        total += len(ours)
    print(f"     {len(fens)} positions ({checks} in check), {total} moves agree")


def test_bad_positions_exit_2():
    result = splitpoint("moves", "xiangqi", "--stdin", input=START + "\nrnbakabnr/9/1c5c1 w\n",
                        timeout=TIMEOUT)
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "10 ranks" in result.stderr, result.stderr


class Engine(Pipe):
    """Fairy-Stockfish or splitpoint: `argv` on pipes, named in failures."""

    def __init__(self, argv, name):
        super().__init__(*argv[1:], program=argv[0], name=name, timeout=TIMEOUT)

    def close(self):
        """Quits without judging how: Fairy-Stockfish's exit is its own."""
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


class UciPlayer:
    """Fairy-Stockfish or splitpoint over UCI, UCI_Variant xiangqi."""

    def __init__(self, argv, name, depth):
        self.engine, self.depth = Engine(argv, name), depth
        self.engine.send("uci")
        hello = self.engine.until(lambda l: l == "uciok")
        variant = [l for l in hello if l.startswith("option name UCI_Variant")]
        assert variant and " var xiangqi" in variant[0], hello
        self.engine.send(f"setoption name UCI_Variant value {VARIANT}")
        self.engine.send("isready")
        self.engine.until(lambda l: l == "readyok")

    def move(self, moves):
        self.engine.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.engine.send(f"go depth {self.depth}")
        best = self.engine.until(lambda l: l.startswith("bestmove"))[-1].split()[1]
        return None if best in ("(none)", "0000") else best


class UcciPlayer:
    """splitpoint over UCCI: moves in ICCS, converted at the edge."""

    def __init__(self, argv, name, depth):
        self.engine, self.depth = Engine(argv, name), depth
        self.engine.send("ucci")
        self.engine.until(lambda l: l == "ucciok")
        self.engine.send("isready")
        self.engine.until(lambda l: l == "readyok")

    def move(self, moves):
        iccs = [uci_to_iccs(m) for m in moves]
        self.engine.send("position startpos" + (" moves " + " ".join(iccs) if iccs else ""))
        self.engine.send(f"go depth {self.depth}")
        answer = self.engine.until(lambda l: l.startswith("bestmove") or l == "nobestmove")[-1]
        return None if answer == "nobestmove" else iccs_to_uci(answer.split()[1])


MAX_PLIES = 120


def play_game(red, black):
    """Plays from the start: 'red', 'black' or 'draw' (the move cap, or the
    game ended by rule), with the plies played."""
    moves = []
    players = (red, black)
    while len(moves) < MAX_PLIES:
        legal = pyffish.legal_moves(VARIANT, START, moves)
        if not legal:
            # No legal move: the side to move loses (mate or stalemate).
            return ("black" if len(moves) % 2 == 0 else "red"), moves
        ended, result = pyffish.is_optional_game_end(VARIANT, START, moves)
        if ended:
            return ("draw" if result == 0 else "decided by rule"), moves
        mover = players[len(moves) % 2]
        move = mover.move(moves)
        assert move in legal, (mover.engine.name, move, moves)
        moves.append(move)
    return "draw", moves


def test_match_against_fairy_stockfish():
    sp_ucci = [BIN, "ucci"]
    sp_uci = [BIN, "uci", "--game", "xiangqi"]
    games = [
        (lambda: UcciPlayer(sp_ucci, "splitpoint (ucci)", 5), lambda: UciPlayer([FAIRY], "fairy-stockfish", 4)),
        (lambda: UciPlayer([FAIRY], "fairy-stockfish", 4), lambda: UciPlayer(sp_uci, "splitpoint (uci)", 5)),
    ]
    for make_red, make_black in games:
        red, black = make_red(), make_black()
        try:
            result, moves = play_game(red, black)
        finally:
            red.engine.close()
            black.engine.close()
        winner = {"red": red.engine.name, "black": black.engine.name}.get(result, result)
        print(f"     {red.engine.name} (red) vs {black.engine.name} (black): {winner} after {len(moves)} plies")


if __name__ == "__main__":
    sys.exit(run_tests(globals()))
