"""Start-up objects leave the garbage collector's full collections at the first on_ready.

Why (bot/app.py, ``freeze_startup_objects``): a full collection walked every object of the
bot, about 100 ms with no interaction answered; the load benchmark's tail showed it.
"""

from __future__ import annotations

import gc
import weakref

import bot.app


async def test_the_first_on_ready_freezes_and_a_reconnect_does_not_again(loaded_bot, monkeypatch):
    calls: list[None] = []
    monkeypatch.setattr(bot.app, "freeze_startup_objects", lambda: calls.append(None))
    await loaded_bot.on_ready()
    await loaded_bot.on_ready()  # discord.py calls it again after a reconnect
    assert len(calls) == 1


class _Cycle:
    me: object


def test_freezing_moves_the_live_objects_out_of_the_collections_and_keeps_no_garbage():
    garbage = _Cycle()
    garbage.me = garbage  # a cycle: only a collection frees it
    gone = weakref.ref(garbage)
    del garbage
    before = gc.get_freeze_count()
    try:
        bot.app.freeze_startup_objects()
        assert gc.get_freeze_count() > before + 10_000  # this process's live objects
        assert gone() is None  # collected, not frozen for ever
    finally:
        gc.unfreeze()  # back into the oldest generation: the rest of the run as before
