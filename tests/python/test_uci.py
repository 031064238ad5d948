#!/usr/bin/env python3
"""`splitpoint uci` driven by python-chess, as a GUI or match tool would.

Needs python-chess (`pip install chess`) and a built engine
(harness.py: where it is looked for; run as a plain script or by pytest).
"""

import sys
import time

import chess
import chess.engine

from harness import BIN, TIMEOUT, run_tests  # the sibling module

POSITIONS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2ppbp/2np2p1/2n5/P3PP2/N1P2N2/1PB3PP/R1B1QRK1 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/3nbppp/p2pbn2/4p1P1/1p2P3/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 13",
]


def open_engine():
    return chess.engine.SimpleEngine.popen_uci([BIN, "uci"], timeout=TIMEOUT)


def test_handshake_and_options():
    with open_engine() as engine:
        assert engine.id.get("name", "").startswith("splitpoint"), engine.id
        for name in ("Threads", "Hash", "Algorithm", "Exact"):
            assert name in engine.options, sorted(engine.options)
        algorithms = engine.options["Algorithm"].var
        for name in ("auto", "serial", "ybw", "ybw-strong", "dts"):
            assert name in algorithms, algorithms


def test_analyse_positions():
    with open_engine() as engine:
        for fen in POSITIONS:
            board = chess.Board(fen)
            for limit in (chess.engine.Limit(depth=4), chess.engine.Limit(time=0.2)):
                info = engine.analyse(board, limit)
                assert "score" in info, (fen, info)
                pv = info.get("pv", [])
                assert pv, (fen, info)
                replay = board.copy()
                for move in pv:
                    assert move in replay.legal_moves, (fen, move, pv)
                    replay.push(move)


def test_finds_mate():
    with open_engine() as engine:
        board = chess.Board("3r2k1/5ppp/8/8/8/8/4RPPP/4R1K1 w - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        assert info["score"].white() == chess.engine.Mate(2), info
        result = engine.play(board, chess.engine.Limit(depth=5))
        assert result.move == chess.Move.from_uci("e2e8"), result.move


def test_every_algorithm_and_exact_mode():
    with open_engine() as engine:
        board = chess.Board(POSITIONS[1])
        for name in engine.options["Algorithm"].var:
            for threads in (1, 2):
                engine.configure({"Threads": threads, "Algorithm": name})
                result = engine.play(board, chess.engine.Limit(depth=3))
                assert result.move in board.legal_moves, (name, threads, result.move)
        engine.configure({"Threads": 1, "Algorithm": "auto", "Exact": True})
        result = engine.play(board, chess.engine.Limit(depth=3))
        assert result.move in board.legal_moves, result.move


def test_infinite_analysis_stops():
    with open_engine() as engine:
        board = chess.Board(POSITIONS[2])
        start = time.monotonic()
        with engine.analysis(board) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 3:
                    break
        assert time.monotonic() - start < 30
        # The engine is free again at once.
        result = engine.play(board, chess.engine.Limit(depth=2))
        assert result.move in board.legal_moves


def test_self_play_under_a_clock():
    """Ten moves each at 2 s + 0.1 s: every move legal, no flag falls, and
    Threads and Algorithm change halfway through the game."""
    clock = {chess.WHITE: 2.0, chess.BLACK: 2.0}
    increment = 0.1
    board = chess.Board()
    with open_engine() as engine:
        for ply in range(20):
            if board.is_game_over(claim_draw=True):
                break
            if ply == 10:
                engine.configure({"Threads": 2, "Algorithm": "ybw"})
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=increment,
                black_inc=increment,
            )
            start = time.monotonic()
            result = engine.play(board, limit)
            spent = time.monotonic() - start
            side = board.turn
            clock[side] -= spent
            assert clock[side] > 0, f"flag fell at ply {ply} ({spent:.3f} s spent)"
            clock[side] += increment
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)
    assert len(board.move_stack) >= 10, board.move_stack


def test_multipv_lines_are_distinct_and_ordered():
    """analyse(multipv=3): three lines, three different first moves, the
    first line's score the best, and searchmoves (root_moves) honoured."""
    with open_engine() as engine:
        for fen in POSITIONS:
            board = chess.Board(fen)
            infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
            assert len(infos) == 3, (fen, infos)
            firsts = [info["pv"][0] for info in infos]
            assert len(set(firsts)) == 3, (fen, firsts)
            assert all(move in board.legal_moves for move in firsts), (fen, firsts)
            scores = [info["score"].relative.score(mate_score=100000) for info in infos]
            assert scores[0] >= max(scores[1:]), (fen, scores)
            some = list(board.legal_moves)[-2:]
            info = engine.analyse(board, chess.engine.Limit(depth=3), root_moves=some)
            assert info["pv"][0] in some, (fen, some, info)


def test_ponder_names_a_legal_reply():
    """play(ponder=True): the engine says which reply to ponder on, legal
    after its move; ponderhit then finds the pondered search's answer."""
    with open_engine() as engine:
        board = chess.Board()
        for _ in range(3):
            result = engine.play(board, chess.engine.Limit(depth=4), ponder=True)
            assert result.move in board.legal_moves, result
            board.push(result.move)
            assert result.ponder is not None, result
            assert result.ponder in board.legal_moves, (board.fen(), result)
            board.push(result.ponder)


def test_move_overhead_and_skill_level():
    """Move Overhead keeps a clock game safe; Skill Level 0 searches one ply
    and still plays legal moves."""
    with open_engine() as engine:
        engine.configure({"Move Overhead": 200})
        board = chess.Board()
        limit = chess.engine.Limit(white_clock=1.0, black_clock=1.0)
        start = time.monotonic()
        result = engine.play(board, limit)
        assert result.move in board.legal_moves
        assert time.monotonic() - start < 0.8, "the overhead was not kept back"
        engine.configure({"Skill Level": 0})
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        assert info.get("depth") == 1, info
        assert info["pv"][0] in board.legal_moves, info


if __name__ == "__main__":
    sys.exit(run_tests(globals()))
