"""Start-up objects leave the garbage collector's full collections at the first on_ready.

Why (bot/app.py, ``freeze_startup_objects``): a full collection walked every object of the
bot, about 100 ms with no interaction answered; the load benchmark's tail showed it.
"""

from __future__ import annotations

import subprocess
import sys

import bot.app


async def test_the_first_on_ready_freezes_and_a_reconnect_does_not_again(loaded_bot, monkeypatch):
    calls: list[None] = []
    monkeypatch.setattr(bot.app, "freeze_startup_objects", lambda: calls.append(None))
    await loaded_bot.on_ready()
    await loaded_bot.on_ready()  # discord.py calls it again after a reconnect
    assert len(calls) == 1


def test_freezing_moves_the_live_objects_out_of_the_collections_and_keeps_no_garbage():
    script = (
        "import gc, weakref\n"
        "from bot.app import freeze_startup_objects\n"
        "class Cycle:\n"
        "    pass\n"
        "a = Cycle(); a.me = a; gone = weakref.ref(a); del a  # garbage only a collection frees\n"
        "assert gc.get_freeze_count() == 0\n"
        "freeze_startup_objects()\n"
        "assert gc.get_freeze_count() > 10_000, gc.get_freeze_count()\n"
        "assert gone() is None  # collected, not frozen for ever\n"
        "assert gc.collect(2) == 0\n"
    )  # in a process of its own: freezing the test run's objects would outlive the test
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
