"""Shared UI pieces: a confirmation only its author can press, and the question a service
asks through it (:class:`Asking`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from cogs.ui.custom_ids import CustomId

__all__ = ["Asking", "Confirm", "ask_confirmation"]


#: The confirmation's two buttons (a live View: the author's answer within its timeout).
CONFIRM_ID = CustomId.of("confirm").build()
CANCEL_ID = CustomId.of("cancel").build()


class Confirm(discord.ui.View):
    """Two buttons; ``value`` is True (confirmed), False (cancelled) or None (timed out).

    Only the member who asked can press them: anyone else is told so, privately.
    """

    def __init__(
        self,
        author_id: int,
        locale: str,
        *,
        confirm_key: str,
        cancel_key: str = "common.cancel",
        timeout: float = 120,
    ) -> None:
        super().__init__(timeout=timeout)
        self.author_id = author_id
        self.locale = locale
        self.value: bool | None = None
        self.confirm.label = t(confirm_key, locale)
        self.cancel.label = t(cancel_key, locale)

    async def interaction_check(self, itx: discord.Interaction) -> bool:
        if itx.user.id != self.author_id:
            await itx.response.send_message(
                t("common.not_your_button", self.locale), ephemeral=True
            )
            return False
        return True

    @discord.ui.button(style=discord.ButtonStyle.danger, custom_id=CONFIRM_ID)
    async def confirm(self, itx: discord.Interaction, _button: discord.ui.Button[Confirm]) -> None:
        self.value = True
        self.interaction = itx
        self.stop()

    @discord.ui.button(style=discord.ButtonStyle.secondary, custom_id=CANCEL_ID)
    async def cancel(self, itx: discord.Interaction, _button: discord.ui.Button[Confirm]) -> None:
        self.value = False
        self.interaction = itx
        self.stop()


async def ask_confirmation(
    itx: discord.Interaction, locale: str, *, question: str, confirm_key: str
) -> discord.Interaction | None:
    """Ask privately and wait; return the confirming click (already acknowledged), or None.

    On cancel or timeout the question is replaced by a "nothing changed" note.  On confirm
    the buttons are removed at once, so a second click cannot repeat the action, and the
    caller answers with ``click.edit_original_response`` or ``click.followup``; an error
    raised afterwards reaches the tree's error handler like any other.
    """
    view = Confirm(itx.user.id, locale, confirm_key=confirm_key)
    await itx.response.send_message(question, view=view, ephemeral=True)
    await view.wait()
    if view.value is None:
        await itx.edit_original_response(content=t("common.timed_out", locale), view=None)
        return None
    click = view.interaction
    if not view.value:
        await click.response.edit_message(content=t("common.cancelled", locale), view=None)
        return None
    await click.response.edit_message(content=question, view=None)
    return click


class Asking:
    """The cog's :class:`~bot.services.shared.context.Confirm` for a service method: asks
    ``question_key`` (with the service's parameters) through :func:`ask_confirmation` and
    keeps the confirming click, on which the cog answers (``click``; None: not confirmed)."""

    def __init__(
        self, itx: discord.Interaction, locale: str, *, question_key: str, confirm_key: str
    ) -> None:
        self.itx = itx
        self.locale = locale
        self.question_key = question_key
        self.confirm_key = confirm_key
        self.click: discord.Interaction | None = None

    async def __call__(self, **params: Any) -> bool:
        question = t(self.question_key, self.locale, **params)
        self.click = await ask_confirmation(
            self.itx, self.locale, question=question, confirm_key=self.confirm_key
        )
        return self.click is not None
