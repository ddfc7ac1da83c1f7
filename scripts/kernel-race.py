#!/usr/bin/env python3
"""Races perft binaries (or CPU kernels of one binary) on the five bench
positions: one thread, bulk counting, no hash, whole-process wall time,
runs interleaved round by round, best of N per position.

    scripts/kernel-race.py native=/tmp/perft-native portable=target/release/perft
    scripts/kernel-race.py --kernels target/release/perft
    scripts/kernel-race.py cozy-chess=cmd:target/release/examples/cozy-perft perft=target/release/perft

A contender is NAME=BINARY, or NAME=BINARY@KERNEL to run it with
PERFT_CPU=KERNEL, or NAME=cmd:PROGRAM for another perft run as
`PROGRAM DEPTH FEN` that prints its count last (such as the cozy-perft
example: `cargo build --release --example cozy-perft`). --kernels BINARY
races every kernel the binary says this CPU supports (`perft --version`).
The first contender is the reference of the ratios (time of the reference
/ time of the contender: above 1 is faster). Prints a Markdown table;
--json FILE also writes the figures.
"""

import argparse
import json
import math
import os
import platform
import re
import subprocess
import sys
import time

POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6, 119_060_324),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193_690_690),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178_633_661),
    ("mirrored", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706_045_033),
    ("talkchess", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89_941_194),
]


def contender(text):
    name, _, spec = text.partition("=")
    if not spec:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=BINARY, NAME=BINARY@KERNEL or NAME=cmd:PROGRAM")
    if spec.startswith("cmd:"):
        return name, spec[len("cmd:"):], COMMAND
    binary, _, kernel = spec.partition("@")
    return name, binary, kernel or None


# The "kernel" of a contender that is another program (NAME=cmd:PROGRAM).
COMMAND = object()


def supported_kernels(binary):
    env = {k: v for k, v in os.environ.items() if k != "PERFT_CPU"}
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True, env=env).stdout
    match = re.search(r"supports \(?([a-z0-9]+(?:, [a-z0-9]+)*)", out)
    if not match:
        sys.exit(f"{binary} --version does not list the kernels this CPU supports:\n{out}")
    return [k.strip() for k in match.group(1).split(",")]


def run_once(binary, kernel, fen, depth, expected):
    env = dict(os.environ)
    env.pop("PERFT_CPU", None)
    if kernel is COMMAND:
        argv = [binary, str(depth), fen]
    else:
        argv = [binary, "run", str(depth), "--fen", fen, "-t", "1", "-q", "--hash", "0"]
        if kernel:
            env["PERFT_CPU"] = kernel
    start = time.perf_counter()
    out = subprocess.run(argv, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    who = binary if kernel is COMMAND else f"{binary} (PERFT_CPU={kernel})"
    if out.returncode != 0:
        sys.exit(f"{who} failed: {out.stderr.strip()}")
    nodes = int(out.stdout.split()[-1])
    if expected is not None and nodes != expected:
        sys.exit(f"{who} counted {nodes}, expected {expected} at {fen} depth {depth}")
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("contenders", nargs="*", type=contender, metavar="NAME=BINARY[@KERNEL]")
    parser.add_argument("--kernels", metavar="BINARY", help="race every kernel of BINARY this CPU supports")
    parser.add_argument("--rounds", type=int, default=5, help="runs per contender and position (best kept)")
    parser.add_argument("--depth-delta", type=int, default=0, help="add to every depth (-1 for a quick look)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args()
    contenders = list(args.contenders)
    if args.kernels:
        contenders += [(k, args.kernels, k) for k in supported_kernels(args.kernels)]
    if not contenders:
        parser.error("nothing to race: give NAME=BINARY contenders or --kernels BINARY")

    best = {(name, pos[0]): math.inf for name, _, _ in contenders for pos in POSITIONS}
    for round_ in range(args.rounds):
        for label, fen, depth, expected in POSITIONS:
            depth += args.depth_delta
            expect = expected if args.depth_delta == 0 else None
            # Rotate the order each round so no contender always runs first.
            order = contenders[round_ % len(contenders):] + contenders[:round_ % len(contenders)]
            for name, binary, kernel in order:
                seconds = run_once(binary, kernel, fen, depth, expect)
                best[(name, label)] = min(best[(name, label)], seconds)
        print(f"round {round_ + 1}/{args.rounds} done", file=sys.stderr)

    reference = contenders[0][0]
    header = ["position", "depth"] + [f"{name} s" for name, _, _ in contenders]
    header += [f"{name} / {reference}" for name, _, _ in contenders[1:]]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    ratios = {name: [] for name, _, _ in contenders}
    for label, _, depth, _ in POSITIONS:
        row = [label, str(depth + args.depth_delta)]
        row += [f"{best[(name, label)]:.3f}" for name, _, _ in contenders]
        for name, _, _ in contenders[1:]:
            ratio = best[(reference, label)] / best[(name, label)]
            ratios[name].append(ratio)
            row.append(f"{ratio:.3f}")
        print("| " + " | ".join(row) + " |")
    geomeans = {name: math.exp(sum(map(math.log, r)) / len(r)) for name, r in ratios.items() if r}
    row = ["geomean", ""] + [""] * len(contenders) + [f"{geomeans[name]:.3f}" for name, _, _ in contenders[1:]]
    print("| " + " | ".join(row) + " |")
    print(f"\n{platform.machine()}, {args.rounds} rounds, best of each; "
          f"ratio = time of {reference} / time of the contender (above 1: faster)")
    if args.json:
        figures = {
            "rounds": args.rounds,
            "depth_delta": args.depth_delta,
            "reference": reference,
            "contenders": [
                {"name": n, "binary": b, "kernel": "command" if k is COMMAND else k} for n, b, k in contenders
            ],
            "best_seconds": {f"{n}/{p}": s for (n, p), s in best.items()},
            "geomean_ratio": geomeans,
        }
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)


if __name__ == "__main__":
    main()
