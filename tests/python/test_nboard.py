#!/usr/bin/env python3
"""`splitpoint nboard` driven as the NBoard GUI drives an engine: complete
games engine against engine from several openings and at several depths,
every move checked legal by the project's own rules (`splitpoint moves
othello`), passes included, and the rest of the protocol (hint, ping, learn,
a game set up from a BO[] board, bad lines).

Needs only a built engine
(harness.py: where it is looked for; run as a plain script or by pytest).
"""

import sys

from harness import Pipe, run_tests, splitpoint  # the sibling module


class Engine(Pipe):
    """One `splitpoint nboard` process at `depth`."""

    def __init__(self, depth):
        super().__init__("nboard")
        self.send("nboard 2")
        self.expect("set myname")
        self.send(f"set depth {depth}")
        self.until(lambda l: l == f"set myname splitpoint{depth}")

    def go(self):
        self.send("go")
        lines = self.expect("=== ")
        move, eval_, seconds = lines[-1][4:].split("/")
        float(eval_), float(seconds)
        return move, lines


def legal_moves(position):
    """The project's own move generator: lowercase squares, or 'pass'."""
    return splitpoint("moves", "othello", "--position", position, check=True).stdout.split()


def after(moves):
    """The position after `moves` from the start, by the project's rules."""
    # `search --depth 1 --json` prints the position it searched.
    out = splitpoint("search", "othello", "--moves", " ".join(moves) or "", "--depth", "1", check=True)
    return out.stdout.splitlines()[0].split(" ", 1)[1]


def ggf(moves, board=None):
    """A GGF game record of `moves` (NBoard's form), from `board` or the start."""
    board = board or ("8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *")
    record = "".join(
        f"{'B' if i % 2 == 0 else 'W'}[{m.upper() if m != 'pass' else 'PA'}]" for i, m in enumerate(moves)
    )
    return f"(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[{board}]{record};)"


def play_game(opening, black_depth, white_depth):
    """A complete game between two engines, the GUI's way: `go` to the side
    to move, then `move` to both. Returns the moves (passes as 'pass')."""
    engines = [Engine(black_depth), Engine(white_depth)]
    moves = list(opening)
    for engine in engines:
        engine.send(f"set game {ggf(moves)}")
    try:
        while True:
            position = after(moves)
            legal = legal_moves(position)
            if not legal:
                break  # the game is over
            side = 0 if position.endswith("X") else 1
            move, _ = engines[side].go()
            move = move.lower()
            name = "pass" if move == "pa" else move
            assert name in legal, f"{name} is illegal in {position} (legal: {legal})"
            for engine in engines:
                engine.send(f"move {move.upper() if move != 'pa' else 'PA'}/0.00/0.0")
            moves.append(name)
        for engine in engines:
            engine.send("ping 7")
            engine.until(lambda l: l == "pong 7")
    finally:
        for engine in engines:
            engine.quit()
    return moves


def test_complete_games_from_several_openings_and_depths():
    passes = 0
    for opening, depths in [([], (1, 2)), (["f5"], (3, 1)), (["f5", "d6"], (2, 4)), (["e6", "f4", "c3"], (4, 3))]:
        moves = play_game(opening, *depths)
        assert len(moves) >= 40, moves
        passes += moves.count("pass")
    print(f"     4 games, {passes} passes")


def test_a_pass_is_played_and_a_board_is_set_up_from_bo():
    # White to move has no move (its only disc, b1, brackets nothing) while
    # black can take a1: white must pass, then black plays a1.
    squares = "-O" + "*" * 62
    with Engine(3) as engine:
        engine.send(f"set game (;GM[Othello]BO[8 {squares} O];)")
        move, _ = engine.go()
        assert move == "PA", move
        engine.send("move PA")
        move, _ = engine.go()
        assert move == "A1", move
        # The same through the game record: the pass as W[PA].
        engine.send(f"set game (;GM[Othello]BO[8 {squares} O]W[PA];)")
        move, _ = engine.go()
        assert move == "A1", move


def test_hint_ping_learn_and_bad_lines():
    with Engine(4) as engine:
        engine.send(f"set game {ggf(['f5', 'd6'])}")
        engine.send("hint 3")
        lines = engine.until(lambda l: l == "status")
        searches = [l for l in lines if l.startswith("search ")]
        assert len(searches) == 3, lines
        legal = legal_moves(after(["f5", "d6"]))
        for line in searches:
            _, pv, eval_, zero, depth = line.split()
            assert pv[:2].lower() in legal, line
            float(eval_), int(depth)
        # Bad lines are answered with a status line and change nothing.
        for bad in ["move Z9", "set depth 0", "set game (;GM[Othello]BO[8 x *];)", "bogus", "move"]:
            engine.send(bad)
        engine.send("go")
        engine.send("ping 3")
        lines = engine.until(lambda l: l == "pong 3")
        assert any(l.startswith("=== ") for l in lines), lines
        assert lines.index(next(l for l in lines if l.startswith("==="))) < lines.index("pong 3")
        engine.send("learn")
        engine.until(lambda l: l == "learned")


def test_an_endgame_is_solved_exactly():
    # FFO #40 (20 empties): at depth 12 the engine solves it (12 + 8 ≥ 20).
    board = "8 " + "O--OOOO*-OOOOOO*OO**OOO*OO*OOO**OOOOOO**---OOOO*----O--*-------- *"
    with Engine(12) as engine:
        engine.send(f"set game (;GM[Othello]BO[{board}];)")
        move, _ = engine.go()
        assert move == "A2", move  # the only move scoring +38


if __name__ == "__main__":
    sys.exit(run_tests(globals()))
