#!/usr/bin/env python3
"""Where a chess match was lost: each of our moves scored by Stockfish.

Reads the JSON of `splitpoint match` (one file or several), replays every
game from its opening, and has Stockfish score the position before each
of splitpoint's moves (best play) and after it, from splitpoint's side:
the difference is what the move lost. Prints the mean loss by stage of
the game and how many moves lost 50 centipawns or more. With --recheck,
each such mistake is searched again by the engine at the times given:
whether more time finds Stockfish's move tells depth from evaluation.

  python3 scripts/chess_review.py m.json --nodes 150000 \
      --engine target/release/splitpoint --recheck 0.5,5

Needs python-chess and a UCI Stockfish (Debian's /usr/games/stockfish).
"""

import argparse
import json
import statistics
import sys

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("chess_review.py needs python-chess: pip install chess")

CLAMP = 600  # centipawns: beyond this a game is decided


def clamp(cp):
    return max(-CLAMP, min(CLAMP, cp))


def our_moves(path):
    """(round, ply, board before, our move) for every move of ours."""
    games = json.load(open(path))["games"]
    for g in games:
        ours = chess.WHITE if "splitpoint" in g["white"] else chess.BLACK
        board = chess.Board(g["opening"])
        for ply, uci in enumerate(g["moves"].split()):
            if board.turn == ours:
                yield g["round"], ply, board.copy(), chess.Move.from_uci(uci)
            board.push_uci(uci)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("matches", nargs="+", help="JSON files of splitpoint match")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--nodes", type=int, default=150_000, help="Stockfish's nodes a position")
    ap.add_argument("--engine", help="splitpoint binary, for --recheck")
    ap.add_argument("--recheck", help="seconds, comma-separated: search each mistake again")
    ap.add_argument("--out", help="write every scored move here (JSON lines)")
    args = ap.parse_args()
    if args.recheck and not args.engine:
        ap.error("--recheck needs --engine")

    sf = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    sf.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.nodes)
    rows = []
    out = open(args.out, "w") if args.out else None
    for path in args.matches:
        for rnd, ply, board, move in our_moves(path):
            info = sf.analyse(board, limit)
            us = board.turn
            before = info["score"].pov(us).score(mate_score=10_000)
            best = info["pv"][0]
            after = before
            if best != move:
                board.push(move)
                if not board.is_game_over():
                    after = sf.analyse(board, limit)["score"].pov(us).score(mate_score=10_000)
                board.pop()
            row = dict(round=rnd, ply=ply, fen=board.fen(), move=move.uci(),
                       best=best.uci(), before=before, after=after)
            rows.append(row)
            if out:
                out.write(json.dumps(row) + "\n")
            print(f"\r{len(rows)} moves scored", end="", file=sys.stderr)
    sf.quit()
    print(file=sys.stderr)

    # Decided positions say little about the moves: keep |score| < 400.
    live = [r for r in rows if abs(r["before"]) < 400]
    loss = lambda r: max(0, clamp(r["before"]) - clamp(r["after"]))
    print(f"{len(rows)} moves, {len(live)} with the game undecided (|score| < 400)")
    print("plies    moves  mean loss (cp)")
    for lo in range(0, 160, 20):
        band = [loss(r) for r in live if lo <= r["ply"] < lo + 20]
        if band:
            print(f"{lo:3}-{lo + 19:<3}  {len(band):5}  {statistics.mean(band):6.1f}")
    mistakes = [r for r in live if loss(r) >= 50]
    print(f"mistakes of 50 cp or more: {len(mistakes)}, "
          f"{sum(map(loss, mistakes)) / max(1, sum(map(loss, live))):.0%} of the loss")

    if args.recheck:
        ours = chess.engine.SimpleEngine.popen_uci([args.engine, "uci"])
        for t in (float(x) for x in args.recheck.split(",")):
            found = repeated = 0
            for r in mistakes:
                board = chess.Board(r["fen"])
                move = ours.play(board, chess.engine.Limit(time=t)).move.uci()
                found += move == r["best"]
                repeated += move == r["move"]
            print(f"at {t:g} s: Stockfish's move {found}, the same mistake {repeated}, "
                  f"of {len(mistakes)}")
        ours.quit()


if __name__ == "__main__":
    main()
