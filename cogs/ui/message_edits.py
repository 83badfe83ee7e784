"""Edits of one shared message, coalesced: at most one per :data:`INTERVAL`, the last one
always drawn after the last change (issue 26).

A roll request's message shows every character's roll, and a whole table may press its
buttons in the same second.  Editing it once per press made 100 full renders and edits of
one message, all in one Discord rate-limit bucket, most of them shown for a few milliseconds
at most.  Now a press only :meth:`~CoalescedEdits.touch`\\ es the message: the first touch
edits at once, touches while an edit is due or under way are folded into one more edit, and
that edit reads the stored state when it starts — so it shows every change that came
before it, and the message ends showing all of them.  Edits of different messages do not
wait for each other.

The edit is a callable that reads and draws the message itself (the caller's latest one is
used); a failed edit is logged, and the next touch tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

__all__ = ["INTERVAL", "CoalescedEdits"]

log = logging.getLogger(__name__)

#: Seconds between two edits of one message, at least.
INTERVAL = 1.0
#: Messages remembered (their last edit's time) before the idle ones are forgotten.
REMEMBERED = 1000

Edit = Callable[[], Awaitable[None]]


@dataclass(slots=True)
class _Slot:
    """One message: the edit to run, whether it is due, when the last began, who runs it."""

    edit: Edit
    dirty: bool = True
    last: float = float("-inf")
    task: asyncio.Task[None] | None = None


class CoalescedEdits:
    """Per-message edit scheduler of one bot process (a guild lives in one process)."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._slots: dict[int, _Slot] = {}

    def touch(self, message_id: int, edit: Edit) -> None:
        """The message changed: redraw it with ``edit`` soon (at once if it was not edited
        within the interval).  Returns at once; the edit runs in a task of its own."""
        slot = self._slots.get(message_id)
        if slot is None:
            self._forget_idle()
            slot = self._slots[message_id] = _Slot(edit)
        slot.edit, slot.dirty = edit, True
        if slot.task is None or slot.task.done():
            slot.task = asyncio.get_running_loop().create_task(self._run(message_id, slot))

    async def _run(self, message_id: int, slot: _Slot) -> None:
        loop = asyncio.get_running_loop()
        while slot.dirty:  # no await between this test and the task's end: no touch is lost
            wait = slot.last + self.interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            slot.dirty, slot.last = False, loop.time()
            try:
                await slot.edit()
            except Exception:  # noqa: BLE001 - a failed redraw must not stop the next one
                log.warning("could not edit message %s", message_id, exc_info=True)

    def _forget_idle(self) -> None:
        """Keep at most :data:`REMEMBERED` messages: drop those idle past the interval."""
        if len(self._slots) < REMEMBERED:
            return
        now = asyncio.get_running_loop().time()
        for message_id, slot in list(self._slots.items()):
            idle = slot.task is None or slot.task.done()
            if idle and now - slot.last >= self.interval:
                del self._slots[message_id]
