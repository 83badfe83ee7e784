"""Runs a bot module under cProfile for ``roll_load_bench.py --profile``.

``python -m standin.launch --module benchmarks.profiled -- MODULE OUT`` imports MODULE, runs
its ``main`` with the profiler on, and writes the statistics to OUT when the benchmark stops
the process (SIGTERM: on the bot's own graceful stop, or at once if it installs no handler).
"""

from __future__ import annotations

import cProfile
import importlib
import os
import signal
import sys


def main(argv: list[str]) -> int:
    module, out = argv[0], argv[1]
    profiler = cProfile.Profile()

    def stop(_signum: int, _frame: object) -> None:
        profiler.disable()
        profiler.dump_stats(out)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)  # the bot may install its own: then it returns
    profiler.enable()
    try:
        return importlib.import_module(module).main([])
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
