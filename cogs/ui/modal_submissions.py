"""One ``on_interaction`` listener for every modal answered outside a live View.

The sheet wizard's forms, the play-by-post modals and the scene opening form are answered
after restarts too, so they are matched by custom id from ``on_interaction`` rather than by a
View in memory.  discord.py schedules a task per listener for *every* interaction: three
listeners meant three tasks on each ``/roll`` and each click that only looked at the type and
returned (issue 14 §1: per-command cost).  Here one listener looks at the type once and hands a
modal submission to each registered handler in turn; each handler still checks its own custom
id and returns when it is not its modal.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = ["ModalSubmissions", "modal_submissions"]

log = logging.getLogger(__name__)

Handler = Callable[[discord.Interaction[Any]], Awaitable[None]]


class ModalSubmissions:
    """The handlers of modal submissions, called from a single ``on_interaction`` listener."""

    def __init__(self) -> None:
        self.handlers: list[Handler] = []

    def add(self, handler: Handler) -> None:
        """Register ``handler`` (once: a reloaded extension does not answer twice)."""
        if handler not in self.handlers:
            self.handlers.append(handler)

    def remove(self, handler: Handler) -> None:
        if handler in self.handlers:
            self.handlers.remove(handler)

    async def dispatch(self, itx: discord.Interaction[Any]) -> None:
        if itx.type != discord.InteractionType.modal_submit:
            return
        for handler in list(self.handlers):
            try:
                await handler(itx)
            except Exception:  # noqa: BLE001 - one handler's bug must not keep the others from their modal
                log.exception("modal handler %s failed", getattr(handler, "__qualname__", handler))


def modal_submissions(bot: Arbitro) -> ModalSubmissions:
    """The bot's registry, created with its listener on first use."""
    registry: ModalSubmissions | None = getattr(bot, "_modal_submissions", None)
    if registry is None:
        registry = ModalSubmissions()
        bot._modal_submissions = registry  # type: ignore[attr-defined]  # one per bot, set here
        bot.add_listener(registry.dispatch, "on_interaction")
    return registry
