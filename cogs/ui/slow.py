"""Commands that may take time acknowledge Discord first, then answer.

Discord drops an interaction not acknowledged within 3 seconds; a command that downloads a
file, writes many rows or waits for the worker process could save its change and then fail
to say so.  Such commands call :func:`acknowledge` before the slow part and :func:`reply`
after it.

The deferral is **private** (only the author sees "thinking…"), so a refusal that comes after
it stays private as before; a public answer then replaces the private "thinking…" with a
short "done" and goes to the channel as its own message.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t

__all__ = ["acknowledge", "reply"]


async def acknowledge(itx: discord.Interaction) -> None:
    """Defers privately, unless the interaction was already answered."""
    if not itx.response.is_done():
        await itx.response.defer(ephemeral=True, thinking=True)


async def reply(
    itx: discord.Interaction,
    locale: str,
    *,
    ephemeral: bool = False,
    done: str | None = None,
    **message: Any,
) -> None:
    """Sends the answer: the response itself if not deferred, else follow-ups (see module).

    ``done`` is what the author's private message says when the answer itself is public
    (default: "Done.").
    """
    ephemeral = bool(message.pop("ephemeral", ephemeral))
    if not itx.response.is_done():
        await itx.response.send_message(**message, ephemeral=ephemeral)
        return
    message = {key: value for key, value in message.items() if value is not None}
    if ephemeral:
        await itx.followup.send(**message, ephemeral=True)
        return
    await itx.followup.send(done or t("common.done", locale), ephemeral=True)
    await itx.followup.send(**message)
