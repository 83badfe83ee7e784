"""Runs a bot module under cProfile for ``roll_load_bench.py --profile``.

``python -m standin.launch --module benchmarks.profiled -- MODULE OUT`` imports MODULE, runs
its ``main``, and profiles only between ``SIGUSR1`` (the benchmark's first round) and
``SIGUSR2`` (its last answer), so start-up and imports stay out of the figures; the
statistics are written to OUT at ``SIGUSR2``.
"""

from __future__ import annotations

import cProfile
import importlib
import signal
import sys


def main(argv: list[str]) -> int:
    module, out = argv[0], argv[1]
    profiler = cProfile.Profile()

    def start(_signum: int, _frame: object) -> None:
        profiler.enable()

    def stop(_signum: int, _frame: object) -> None:
        profiler.disable()
        profiler.dump_stats(out)

    signal.signal(signal.SIGUSR1, start)
    signal.signal(signal.SIGUSR2, stop)
    return int(importlib.import_module(module).main([]) or 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
