"""How long the dice engine takes to refuse (or roll) hostile input: issue 2 asks for well
under 50 ms for any expression.

Run from the repository root::

    .venv/bin/python benchmarks/dice_limits_bench.py [--random 5000]

It parses uncached and rolls a fixed list of worst cases (deep nesting, the longest number,
the most terms, chains of exploding dice, the 500-dice ceiling) plus random notation-like
text, takes the best of three runs of each, and prints the slowest ones against a baseline
measured in the same run (an uncached ``1d20``).  Nothing asserts: the figures depend on the
machine, so the tests check only that refusals happen before any die is thrown.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.dice import DiceError, parse  # noqa: E402
from rules.dice.roller import Roller  # noqa: E402

TARGET_MS = 50.0
NOTATION = "0123456789dDoOkKhHlLpPrR!<>=+-*/()[]#% abmx%"
WORST_CASES = [
    "(" * 200,
    "(" * 10 + "1d6" + ")" * 10,
    "1d6" * 66,
    "9" * 200,
    "999999*999999*999999",
    "1d6!" + "+1d6!" * 24,
    "100d6!+100d6!+100d6!+100d6!+100d6!",
    "100d1000kh50",
    "100d6r<5",
    "1o3d10a+" + "+".join(["1o3d10a"] * 24),
    "-" * 199 + "1",
    "1+" * 99,
    "5d10>=7" * 20,
    "1d20<=" + "9" * 7,
]


def once(text: str, seed: int) -> float:
    started = time.perf_counter()
    with contextlib.suppress(DiceError):
        Roller(random.Random(seed)).roll(parse.__wrapped__(text))  # uncached on purpose
    return time.perf_counter() - started


def best_of_three(text: str, seed: int) -> float:
    return min(once(text, seed) for _ in range(3))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=5000, help="random texts to try")
    args = parser.parse_args()
    rng = random.Random(2026)
    baseline = best_of_three("1d20", 0) * 1000
    timings = [(best_of_three(text, 1) * 1000, text) for text in WORST_CASES]
    for _ in range(args.random):
        text = "".join(rng.choice(NOTATION) for _ in range(rng.randint(1, 200)))
        timings.append((best_of_three(text, rng.randrange(2**32)) * 1000, text))
    timings.sort(reverse=True)
    print(f"baseline: uncached 1d20 parse+roll {baseline:.3f} ms")
    print(f"{'ms':>8}  {'x 1d20':>8}  expression")
    for ms, text in timings[:10]:
        shown = text if len(text) <= 60 else text[:57] + "..."
        print(f"{ms:8.3f}  {ms / baseline:8.1f}  {shown!r}")
    worst = timings[0][0]
    verdict = "met" if worst < TARGET_MS else "NOT met"
    print(f"{len(timings)} inputs; slowest {worst:.2f} ms; target < {TARGET_MS:.0f} ms: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
