"""Per-member cooldowns on the commands that write or compute (discord.py's own buckets).

Generous enough for a fight: each command allows :data:`FIGHT` uses per member in ten
seconds (an attack, its damage and a save, with room to spare); exact odds, which occupy the
worker process, allow :data:`HEAVY`.  Past that, the central error handler
(:mod:`cogs.errors`) answers privately, in the member's language, how long to wait; the
refused command does nothing.  Buckets are per command and per member of each server (a
member's pace in one campaign does not slow them in another).

Each use of :func:`fight`/:func:`heavy` makes a new decorator: discord.py keeps one bucket
mapping per decorator, so sharing one would make every command count against the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

__all__ = ["FIGHT", "HEAVY", "PER", "fight", "heavy"]

T = TypeVar("T")

#: The window, in seconds.
PER = 10.0
#: Uses per member per window of a command that rolls or writes.
FIGHT = 6
#: Uses per member per window of ``/odds``.
HEAVY = 3


def _member(itx: discord.Interaction) -> tuple[int | None, int]:
    return itx.guild_id, itx.user.id


def fight() -> Callable[[T], T]:
    """Cooldown for rolling and writing commands: :data:`FIGHT` per :data:`PER` seconds."""
    return app_commands.checks.cooldown(FIGHT, PER, key=_member)


def heavy() -> Callable[[T], T]:
    """Cooldown for worker-pool commands: :data:`HEAVY` per :data:`PER` seconds."""
    return app_commands.checks.cooldown(HEAVY, PER, key=_member)
