"""The GM's undo button: any reply whose write has an audit-log row can carry it.

``with_undo(message, undo, locale)`` adds the button to a reply's ``view`` (creating it, or
appending to the reply's other buttons).  The button is a ``DynamicItem`` keyed
``arb:1:undo:<log id>:<sheet version>``, so it works after a restart and only ever undoes the
write that reply showed; the service decides everything else (GM only, nothing depends on it,
not undone yet) and every refusal is a translated ephemeral reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.sheets.undo import Undoable, UndoView
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["UndoButton", "undone", "with_undo", "without_button"]


def with_undo(
    message: dict[str, Any], undo: Undoable | None, locale: str, *, name: str | None = None
) -> dict[str, Any]:
    """``message`` with the undo button for ``undo`` (unchanged when there is nothing to undo,
    the reply is ephemeral — it could not be found again — or it has no room left).
    ``name`` labels the button when a reply carries several (a party's XP grant)."""
    if undo is None or message.get("ephemeral"):
        return message
    view = message.get("view") or discord.ui.View(timeout=None)
    if len(view.children) >= 25:
        return message
    label = t("undo.button_for", locale, name=name) if name else t("undo.button", locale)
    view.add_item(UndoButton(undo.log_id, undo.version, label=label[:80]))
    return {**message, "view": view}


def undone(view: UndoView, locale: str) -> str:
    """The public line an undo posts (what went back, on whose sheet)."""
    text = t(
        "undo.done",
        locale,
        id=view.log_id,
        kind=t(f"undo.kind.{view.kind}", locale),
        name=view.character_name,
        count=len(view.fields),
    )
    if view.xp:
        text += "\n" + t("undo.xp", locale, amount=view.xp)
    return text


class UndoButton(KeyedButton, kind="undo", emoji="↩️"):
    log_id: int
    version: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.undo.undo(
                ctx.place, ctx.actor, self.log_id, version=self.version
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error)
            return
        # the reply keeps its text (and its other buttons) and loses this one
        await itx.response.edit_message(view=without_button(itx.message, self.custom_id))
        await itx.followup.send(undone(view, ctx.locale))


def without_button(message: discord.Message | None, custom_id: str) -> discord.ui.View | None:
    """The message's buttons less the one clicked (``None`` when none is left)."""
    if message is None:
        return None
    view = discord.ui.View.from_message(message, timeout=None)
    for item in list(view.children):
        if getattr(item, "custom_id", None) == custom_id:
            view.remove_item(item)
    return view if view.children else None
