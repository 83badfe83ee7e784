"""The one retry policy of versioned writes (:mod:`bot.services.shared.versioned`).

A write that clashes (:class:`StaleWrite`) is tried again from the start — read, recompute,
write, in a new transaction — after a short random pause that keeps many simultaneous
clicks from colliding again in lock-step; after ``limit`` attempts the last clash reaches
the user (:class:`ConcurrentChange`: «it changed meanwhile, try again»).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.services.shared.versioned import StaleWrite

__all__ = ["MAX_ATTEMPTS", "retrying"]

T = TypeVar("T")

MAX_ATTEMPTS = 6
_jitter = random.Random()


async def _backoff(attempt: int) -> None:
    if attempt:
        await asyncio.sleep(_jitter.uniform(0, 0.01 * attempt))


async def retrying(attempt: Callable[[], Awaitable[T]], *, limit: int = MAX_ATTEMPTS) -> T:
    """``attempt()`` until it returns without a :class:`StaleWrite`, at most ``limit`` times
    (the last clash propagates); each call must read what it writes afresh, in a transaction
    of its own."""
    if limit < 1:
        raise ValueError("at least one attempt")
    for number in range(limit - 1):
        await _backoff(number)
        try:
            return await attempt()
        except StaleWrite:
            continue
    await _backoff(limit - 1)
    return await attempt()
