"""One ordered queue per channel: typed posts go out in the order they were written.

A message takes its ticket the moment it arrives (synchronously, before any ``await``, so
tickets follow the gateway's order); deciding who speaks and rolling its dice may then run
alongside the others, but its post waits until every earlier message of the same channel has
been posted or given up.  Finishing is idempotent: a message that turns out not to be a post
finishes its ticket at once and the next one goes.  A channel's queue is forgotten when its
last ticket finishes, so idle channels cost nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["ChannelQueue", "Ticket"]


class Ticket:
    """A place in one channel's queue.  It is *done* when it and every earlier ticket have
    finished: a ticket that finishes early (a message that is no post) waits for the ones
    before it, so a later message never overtakes an earlier one still posting."""

    def __init__(self, queue: ChannelQueue, channel_id: int, before: Ticket | None) -> None:
        self._queue = queue
        self._channel_id = channel_id
        self._before = before
        self._after: Ticket | None = None
        self._finished = False
        self._done = asyncio.Event()
        if before is not None:
            before._after = self

    async def wait(self) -> None:
        """Until every earlier ticket of the channel is done."""
        before = self._before
        if before is not None:
            await before._done.wait()

    def finish(self) -> None:
        """This message is posted or given up (idempotent)."""
        self._finished = True
        ticket: Ticket | None = self
        while ticket is not None and ticket._ready():
            ticket._done.set()
            ticket._before = None  # free the chain behind it
            ticket._queue._done(ticket._channel_id, ticket)
            ticket = ticket._after

    def _ready(self) -> bool:
        before = self._before
        return (
            self._finished and not self._done.is_set() and (before is None or before._done.is_set())
        )

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Wait for this ticket's turn, hold it for the block, then let the next one go."""
        try:
            await self.wait()
            yield
        finally:
            self.finish()


class ChannelQueue:
    """The tickets of every channel, in arrival order."""

    def __init__(self) -> None:
        self._last: dict[int, Ticket] = {}

    def ticket(self, channel_id: int) -> Ticket:
        ticket = Ticket(self, channel_id, self._last.get(channel_id))
        self._last[channel_id] = ticket
        return ticket

    def _done(self, channel_id: int, ticket: Ticket) -> None:
        if self._last.get(channel_id) is ticket:  # no ticket after it: the channel is idle
            del self._last[channel_id]

    def __len__(self) -> int:
        """Channels with a ticket still open."""
        return len(self._last)
