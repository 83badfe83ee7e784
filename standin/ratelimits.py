"""Discord's webhook rate limits, answered as Discord answers them.

Discord does not publish the numbers; what bots observe, and what this models, is a bucket
per webhook of 5 messages per 2 seconds, and 30 webhook messages per minute in one channel
(a thread counts as its own channel).  Every answer carries the bucket's headers
(``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``, ``-Bucket``), and a
request over the limit gets 429 with ``retry_after`` and a ``Via`` header (discord.py treats a
429 without one as Cloudflare's ban and gives up).  Fixed windows: a bucket's window starts
with its first request and resets after the period, like Discord's ``Reset-After``.
"""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .httputil import json_response
from .state import World

__all__ = ["check_webhook_limits", "limit_headers"]


def _window(world: World, key: str, limit: int, period: float, now: float) -> tuple[int, float]:
    """(requests left after this one, seconds until the window resets); -1 left: refused."""
    start, count = world.rate_windows.get(key, (now, 0.0))
    if now - start >= period:
        start, count = now, 0.0
    reset_after = period - (now - start)
    if count >= limit:
        return -1, reset_after
    world.rate_windows[key] = [start, count + 1]
    return int(limit - count - 1), reset_after


def check_webhook_limits(
    world: World, webhook_id: int, channel_id: int
) -> tuple[web.Response | None, dict[str, str]]:
    """(a 429 to answer, or None; the headers to add to the answer) for one webhook message."""
    now = time.monotonic()
    limit, period = world.webhook_limit
    left, reset_after = _window(world, f"webhook:{webhook_id}", limit, period, now)
    headers = limit_headers(limit, max(left, 0), reset_after, f"webhook-{webhook_id}")
    if left >= 0:
        channel_limit, channel_period = world.channel_webhook_limit
        channel_left, channel_reset = _window(
            world, f"channel:{channel_id}", channel_limit, channel_period, now
        )
        if channel_left < 0:
            left, reset_after = -1, channel_reset
    if left >= 0:
        return None, headers
    world.rate_limited.append(
        {"webhook_id": webhook_id, "channel_id": channel_id, "retry_after": reset_after}
    )
    body: dict[str, Any] = {
        "message": "You are being rate limited.",
        "retry_after": round(reset_after, 3),
        "global": False,
    }
    response = json_response(body, 429)
    response.headers.update({**headers, "Retry-After": str(max(1, round(reset_after)))})
    return response, headers


def limit_headers(limit: int, remaining: int, reset_after: float, bucket: str) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "Via": "1.1 google",
    }
