"""Optimistic-concurrency retries shared by the services.

A versioned write that finds the row changed reloads and recomputes; a short random pause
between attempts keeps many simultaneous clicks from colliding again in lock-step.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

__all__ = ["attempts", "MAX_ATTEMPTS"]

MAX_ATTEMPTS = 6
_jitter = random.Random()


async def backoff(attempt: int) -> None:
    if attempt:
        await asyncio.sleep(_jitter.uniform(0, 0.01 * attempt))


def attempts(limit: int = MAX_ATTEMPTS) -> Iterator[int]:
    """``for attempt in attempts(): await backoff(attempt); ...`` — then give up."""
    return iter(range(limit))
