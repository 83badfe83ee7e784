"""Throughput of the dice engine against d20 1.1.2 and against a bare ``random`` loop.

Issue 2, section 6.  Run from the repository root::

    .venv/bin/python benchmarks/dice_bench.py [--seconds 1.0]

For each expression it measures :func:`rules.dice.roll` (parse cached, as in real use) and
a hand-written loop that throws the same dice with the same ``rng.randint`` calls and does
the same keeping, with no tree and no result object: the floor any engine pays.  It prints
rolls/s, how many times slower than the floor we are, and our multiple of d20 1.1.2's
figures on this kind of machine (the reference we must beat 5x).  Not a timed test: the
numbers depend on the machine, so nothing here asserts.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import roll  # noqa: E402

#: d20 1.1.2 rolls/s measured on this kind of machine (issue 2, section 6).
D20_REFERENCE = {"1d20": 57_000, "4d6kh3": 13_000, "8d6!": 11_000, "1o3d10": 16_000, "100d6": 2_100}
TARGET_MULTIPLE = 5
KEEP_ONE_FLOOR_RATIO = 3


def bare_1d20(rng: random.Random) -> int:
    return rng.randint(1, 20)


def bare_4d6kh3(rng: random.Random) -> int:
    randint = rng.randint
    faces = [randint(1, 6), randint(1, 6), randint(1, 6), randint(1, 6)]
    return sum(faces) - min(faces)


def bare_8d6_explode(rng: random.Random) -> int:
    randint = rng.randint
    total = 0
    for _ in range(8):
        face = randint(1, 6)
        total += face
        while face == 6:
            face = randint(1, 6)
            total += face
    return total


def bare_1o3d10(rng: random.Random) -> int:
    randint = rng.randint
    total = 0
    for _ in range(21):
        kept = sorted((randint(1, 10), randint(1, 10), randint(1, 10)))[1]
        total += kept
        if kept != 10:
            break
    return total


def bare_100d6(rng: random.Random) -> int:
    randint = rng.randint
    return sum([randint(1, 6) for _ in range(100)])


BARE: dict[str, Callable[[random.Random], int]] = {
    "1d20": bare_1d20,
    "4d6kh3": bare_4d6kh3,
    "8d6!": bare_8d6_explode,
    "1o3d10": bare_1o3d10,
    "100d6": bare_100d6,
}


def _batch(work: Callable[[], object]) -> int:
    """How many calls take about 10 ms, so the clock is read rarely."""
    batch = 1
    while True:
        started = time.perf_counter()
        for _ in range(batch):
            work()
        if time.perf_counter() - started > 0.01:
            return batch
        batch *= 2


def _run(work: Callable[[], object], batch: int, seconds: float) -> float:
    calls = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for _ in range(batch):
            work()
        calls += batch
    return calls / (time.perf_counter() - started)


def rates(
    ours: Callable[[], object], floor: Callable[[], object], seconds: float, rounds: int = 5
) -> tuple[float, float]:
    """Best calls/s of each over ``rounds`` interleaved runs (a shared machine is noisy)."""
    batches = _batch(ours), _batch(floor)
    best_ours = best_floor = 0.0
    for _ in range(rounds):
        best_ours = max(best_ours, _run(ours, batches[0], seconds / (2 * rounds)))
        best_floor = max(best_floor, _run(floor, batches[1], seconds / (2 * rounds)))
    return best_ours, best_floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per expression")
    args = parser.parse_args()
    rng = random.Random(2024)
    print(f"Python {sys.version.split()[0]}, {args.seconds:.1f} s per expression, best of 5")
    header = f"{'expression':<10} {'ours/s':>10} {'bare/s':>10} {'floor x':>8} {'d20 1.1.2/s':>12} {'vs d20':>7}"
    print(header)
    print("-" * len(header))
    ok = True
    for expression, bare in BARE.items():
        roll(expression, rng)  # warm the parse cache, as a running bot has
        ours, floor = rates(lambda e=expression: roll(e, rng), lambda b=bare: b(rng), args.seconds)
        reference = D20_REFERENCE[expression]
        multiple = ours / reference
        slower = floor / ours
        ok &= multiple >= TARGET_MULTIPLE
        if expression == "1o3d10":
            ok &= slower <= KEEP_ONE_FLOOR_RATIO
        print(
            f"{expression:<10} {ours:>10,.0f} {floor:>10,.0f} {slower:>7.2f}x "
            f"{reference:>12,} {multiple:>6.1f}x"
        )
    print(
        f"targets: >= {TARGET_MULTIPLE}x d20 1.1.2 everywhere, 1o3d10 within "
        f"{KEEP_ONE_FLOOR_RATIO}x of the bare loop: {'met' if ok else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
