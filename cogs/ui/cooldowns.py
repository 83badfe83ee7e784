"""Per-member cooldowns on the commands that write or compute.

Generous enough for a fight: each command allows :data:`FIGHT` uses per member in ten
seconds (an attack, its damage and a save, with room to spare); exact odds, which occupy the
worker process, allow :data:`HEAVY`.  Past that, the central error handler
(:mod:`cogs.ui.errors`) answers privately, in the member's language, how long to wait; the
refused command does nothing.  Buckets are per command and per member of each server (a
member's pace in one campaign does not slow them in another).

discord.py's own ``app_commands.checks.cooldown`` walks every live bucket of the command on
each use to drop the expired ones: with a hundred members rolling in the last ten seconds,
each ``/roll`` scanned a hundred buckets (issue 14 §1: 36 µs of a roll under the benchmark's
profile), and the scan grows with the bot's audience.  :class:`MemberCooldown` keeps the same
fixed windows and raises the same :class:`~discord.app_commands.CommandOnCooldown`, but
touches only the member's bucket and sweeps the expired ones when the mapping has doubled
since the last sweep: constant time per use, amortized.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import discord
from discord import app_commands

__all__ = ["FIGHT", "HEAVY", "PER", "MemberCooldown", "fight", "heavy"]

T = TypeVar("T")

#: The window, in seconds.
PER = 10.0
#: Uses per member per window of a command that rolls or writes.
FIGHT = 6
#: Uses per member per window of ``/odds``.
HEAVY = 3
#: A mapping is never swept below this size (a sweep of a few buckets is not worth it).
SWEEP_FLOOR = 256

Key = tuple[int | None, int]


@dataclass(slots=True)
class _Window:
    opened: float  # when the first use of this window came
    used: int


class MemberCooldown:
    """``rate`` uses per ``per`` seconds for each (server, member), in fixed windows that open
    at a member's first use, as discord.py's buckets do."""

    def __init__(self, rate: int, per: float) -> None:
        self.rate = rate
        self.per = per
        self.windows: dict[Key, _Window] = {}
        self._sweep_above = SWEEP_FLOOR

    def use(self, key: Key, now: float) -> float | None:
        """Count one use at ``now`` (seconds); None if allowed, else seconds to wait."""
        window = self.windows.get(key)
        if window is None or now >= window.opened + self.per:
            self.windows[key] = _Window(now, 1)
            if len(self.windows) > self._sweep_above:
                self._sweep(now)
            return None
        if window.used >= self.rate:
            return window.opened + self.per - now
        window.used += 1
        return None

    def _sweep(self, now: float) -> None:
        """Drop the windows that have ended; the next sweep waits until the live ones double."""
        self.windows = {k: w for k, w in self.windows.items() if now < w.opened + self.per}
        self._sweep_above = max(SWEEP_FLOOR, 2 * len(self.windows))

    def check(self, itx: discord.Interaction) -> bool:
        """The app-command check: True, or :class:`~discord.app_commands.CommandOnCooldown`."""
        now = itx.created_at.timestamp()  # the interaction's own time, as discord.py's check
        retry_after = self.use((itx.guild_id, itx.user.id), now)
        if retry_after is not None:
            raise app_commands.CommandOnCooldown(
                app_commands.Cooldown(self.rate, self.per), retry_after
            )
        return True


def fight() -> Callable[[T], T]:
    """Cooldown for rolling and writing commands: :data:`FIGHT` per :data:`PER` seconds.

    Each use makes a new decorator with buckets of its own: sharing one would make every
    command count against the others."""
    return app_commands.check(MemberCooldown(FIGHT, PER).check)


def heavy() -> Callable[[T], T]:
    """Cooldown for worker-pool commands: :data:`HEAVY` per :data:`PER` seconds."""
    return app_commands.check(MemberCooldown(HEAVY, PER).check)
