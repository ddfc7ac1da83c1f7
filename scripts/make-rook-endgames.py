#!/usr/bin/env python3
"""Builds positions/rook-endgames.epd: random legal positions with kings,
rooks and pawns only, counted by Stockfish (`go perft`), for the counting
path that rook endgames take on CPUs with AVX-512 (the last ply counted
eight children at a time).

The positions are drawn so that the cases that path treats apart come up
often: pawns one step from promoting (for either side), pawns on their
second rank beside an enemy pawn's file (double pushes that leave an
en-passant square), en-passant squares in the position itself, castling
rights with king and rook at home, rooks on the kings' lines (checks and
pins along ranks and files), several rooks a side. Needs python-chess and
Stockfish (`STOCKFISH=PATH`, default /usr/games/stockfish). Run from the
repository root (deterministic for a given seed):

    python3 scripts/make-rook-endgames.py > positions/rook-endgames.epd
"""
import os
import random
import subprocess
import sys

import chess

COUNT = 300
DEPTHS = (1, 2, 3, 4, 5)
# Counts of D5 above this are left out, so that the suite stays quick.
MAX_NODES = 20_000_000


def random_position(rng):
    board = chess.Board(None)
    squares = list(range(64))
    rng.shuffle(squares)
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
    for color in (chess.WHITE, chess.BLACK):
        for _ in range(rng.choice([0, 1, 1, 1, 2, 2, 3])):
            board.set_piece_at(squares.pop(), chess.Piece(chess.ROOK, color))
        for _ in range(rng.randint(0, 7)):
            square = squares.pop()
            if chess.square_rank(square) not in (0, 7):
                board.set_piece_at(square, chess.Piece(chess.PAWN, color))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    if rng.random() < 0.25:
        rights = ""
        for color, king, rooks in ((chess.WHITE, chess.E1, "HA"), (chess.BLACK, chess.E8, "ha")):
            if board.piece_at(king) == chess.Piece(chess.KING, color):
                for letter in rooks:
                    home = chess.parse_square(letter.lower() + ("1" if color == chess.WHITE else "8"))
                    if board.piece_at(home) == chess.Piece(chess.ROOK, color):
                        rights += {"H": "K", "A": "Q", "h": "k", "a": "q"}[letter]
        board.set_castling_fen(rights or "-")
    if rng.random() < 0.4:
        # An en-passant square where the last move could have been a
        # double push that a pawn can take.
        mover = not board.turn
        rank = 3 if mover == chess.WHITE else 4
        pushed = [s for s in board.pieces(chess.PAWN, mover) if chess.square_rank(s) == rank]
        if pushed:
            square = rng.choice(pushed)
            ep = square - 8 if mover == chess.WHITE else square + 8
            start = square - 16 if mover == chess.WHITE else square + 16
            if board.piece_at(ep) is None and board.piece_at(start) is None:
                board.ep_square = ep
    if board.ep_square is not None and not board.has_legal_en_passant():
        board.ep_square = None
    return board if board.is_valid() else None


def stockfish_counts(engine, fen):
    counts = []
    for depth in DEPTHS:
        engine.stdin.write(f"position fen {fen}\ngo perft {depth}\n")
        engine.stdin.flush()
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("stockfish ended")
            if line.startswith("Nodes searched:"):
                counts.append((depth, int(line.split(":")[1])))
                break
        if counts[-1][1] > MAX_NODES:
            counts.pop()
            break
    return counts


def main():
    rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 2026)
    program = os.environ.get("STOCKFISH", "/usr/games/stockfish")
    engine = subprocess.Popen([program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    seen = set()
    while len(seen) < COUNT:
        board = random_position(rng)
        if board is None or board.epd() in seen:
            continue
        seen.add(board.epd())
        fen = board.fen()
        counts = stockfish_counts(engine, fen)
        print(fen + "".join(f" ;D{depth} {nodes}" for depth, nodes in counts))
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()


if __name__ == "__main__":
    main()
