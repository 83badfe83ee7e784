"""The creation wizard's components: buttons, a select and a modal, driven by the system's steps.

Every component's ``custom_id`` carries only identity and version
(``arb:1:wiz:<action>:<draft>:<version>``); the state lives in the database.  The items are
``DynamicItem``s registered at start-up, so a wizard left open for days still works after a
restart, and a stale click (an older version) is answered instead of applied twice.  The
form (a modal) is answered by a listener for the same reason (:func:`form_submitted`).
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any, NoReturn, Self

import discord

from bot.grammar import GENDER_PATH, GENDERS, gender_of
from bot.i18n import t
from bot.services.shared.errors import DomainError
from bot.services.sheets.creation import DraftView
from cogs.ui import render_sheet
from cogs.ui.approval import with_approval
from cogs.ui.context import ctx_of
from cogs.ui.custom_ids import INT, CustomId, custom_id_of, form_values, selected_values
from cogs.ui.errors import describe_error, send_error
from cogs.ui.keyed_button import KeyedButton, KeyedItem
from cogs.ui.modal_submissions import modal_submissions
from rules.names import display
from rules.systems.base import StepKind

if TYPE_CHECKING:
    from bot.app import Arbitro

log = logging.getLogger(__name__)

__all__ = ["wizard_message", "WizardButton", "WizardSelect", "register"]

#: The wizard's select (a CHOOSE step, or the last screen's gender) and its form (a FORM step).
CHOOSE_ID = CustomId.of("wiz:choose", draft=INT, version=INT, step=r"[^:]+")
FORM_ID = CustomId.of("wizform", draft=INT, version=INT)


def wizard_message(view: DraftView, locale: str) -> dict[str, Any]:
    """Embed + components for the current step (or the final confirmation)."""
    components = discord.ui.View(timeout=None)
    step = view.step
    if step is None:
        if not view.problems:
            components.add_item(_button(view, "finish", t("wizard.finish", locale)))
            components.add_item(_gender_select(view, locale))
    elif step.kind == StepKind.ROLL:
        components.add_item(_button(view, "roll", t("wizard.roll", locale)))
    elif step.kind == StepKind.FORM:
        components.add_item(_button(view, "form", t("wizard.form", locale)))
    elif step.kind == StepKind.CHOOSE:
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=CHOOSE_ID.build(view.draft_id, view.version, step.key)[:100],
            placeholder=t("wizard.choose", locale),
            min_values=max(0, min(step.min_choices, len(step.options))),
            max_values=max(1, min(step.max_choices, len(step.options), 25)),
            options=[
                discord.SelectOption(
                    label=option.label[:100],
                    value=option.value[:100],
                    description=option.description[:100] or None,
                )
                for option in step.options[:25]
            ],
        )
        components.add_item(WizardSelect(select, view.draft_id, view.version, step.key))
    if step is not None and step.optional:
        components.add_item(_button(view, "skip", t("wizard.skip", locale)))
    components.add_item(_button(view, "restart", t("wizard.restart", locale)))
    components.add_item(_button(view, "cancel", t("wizard.cancel", locale)))
    return {"embeds": render_sheet.draft(view, locale), "view": components}


def _button(view: DraftView, action: str, label: str) -> WizardButton:
    """A button of this draft version: a press on an older screen is answered as stale."""
    return WizardButton(view.draft_id, view.version, action=action, label=label)


def _gender_select(view: DraftView, locale: str) -> WizardSelect:
    """The last screen's optional question: the grammatical gender messages agree with."""
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=CHOOSE_ID.build(view.draft_id, view.version, GENDER_PATH),
        placeholder=t("wizard.gender", locale),
        options=[
            discord.SelectOption(
                label=display(None, "genero", gender, locale).capitalize(),
                value=gender,
                default=gender == view.gender,
            )
            for gender in GENDERS
        ],
    )
    return WizardSelect(select, view.draft_id, view.version, GENDER_PATH)


async def _fail(itx: discord.Interaction[Arbitro], error: Exception) -> None:
    locale = (await ctx_of(itx)).locale
    text = describe_error(error, locale)
    if text is None:
        log.exception("wizard error", exc_info=error)
        text = t("errors.unexpected", locale, reference="wizard")
    await send_error(itx, text)


async def _apply(
    itx: discord.Interaction[Arbitro], draft_id: int, version: int, step_key: str, answer: Any
) -> None:
    ctx = await ctx_of(itx)
    try:
        view = await ctx.services.creation.answer(
            ctx.place, ctx.actor, draft_id, version, step_key, answer
        )
    except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
        await _fail(itx, error)
        return
    await itx.response.edit_message(**wizard_message(view, ctx.locale))


class WizardModal(discord.ui.Modal):
    """The FORM step: up to five text inputs, built from the system's :class:`FormField`s."""

    def __init__(self, view: DraftView, locale: str) -> None:
        assert view.step is not None
        super().__init__(
            title=t("wizard.form_title", locale, name=view.name)[:45],
            custom_id=FORM_ID.build(view.draft_id, view.version),
        )
        self.draft_id, self.version, self.step_key = view.draft_id, view.version, view.step.key
        self.inputs: dict[str, discord.ui.TextInput[WizardModal]] = {}
        for field in view.step.fields[:5]:
            text_input: discord.ui.TextInput[WizardModal] = discord.ui.TextInput(
                label=field.label[:45],
                custom_id=field.key[:100],
                placeholder=field.placeholder[:100] or None,
                default=field.default[:4000] or None,
                required=field.required,
                style=discord.TextStyle.paragraph if field.paragraph else discord.TextStyle.short,
                max_length=min(field.max_length, 4000),
            )
            self.inputs[field.key] = text_input
            self.add_item(text_input)

    async def send(self, itx: discord.Interaction[Arbitro]) -> None:
        """Opens the form, then forgets it: :func:`form_submitted` answers every submission.

        discord.py keeps a sent modal in memory only, so a form submitted after a restart
        would get no answer at all; with one listener that reads the draft from the database,
        before and after a restart take the same path.
        """
        await itx.response.send_modal(self)
        self.stop()  # removes it from the view store: the listener below is the only handler


async def form_submitted(itx: discord.Interaction[Arbitro]) -> None:
    """A wizard form (FORM step) was submitted: answer it from the draft in the database."""
    match = FORM_ID.parse(custom_id_of(itx))
    if match is None:
        return
    draft_id, version = int(match["draft"]), int(match["version"])
    try:
        ctx = await ctx_of(itx)
        view = await ctx.services.creation.show(ctx.place, ctx.actor, draft_id)
        if view.version != version or view.step is None or view.step.kind != StepKind.FORM:
            raise_stale()
    except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
        await _fail(itx, error)
        return
    assert view.step is not None
    values = form_values(itx)
    answer = {field.key: values.get(field.key[:100], "") for field in view.step.fields[:5]}
    await _apply(itx, draft_id, version, view.step.key, answer)


class WizardButton(
    KeyedButton,
    kind="wiz:",
    style={
        "roll": discord.ButtonStyle.primary,
        "form": discord.ButtonStyle.primary,
        "skip": discord.ButtonStyle.secondary,
        "finish": discord.ButtonStyle.success,
        "restart": discord.ButtonStyle.secondary,
        "cancel": discord.ButtonStyle.danger,
    },
    reference="wizard",
):
    draft_id: int
    version: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        service = ctx.services.creation
        place, actor, locale = ctx.place, ctx.actor, ctx.locale
        try:
            if self.action == "form":
                view = await service.show(place, actor, self.draft_id)
                if (
                    view.version != self.version
                    or view.step is None
                    or view.step.kind != StepKind.FORM
                ):
                    raise_stale()
                await WizardModal(view, locale).send(itx)
                return
            if self.action == "roll":
                view = await service.show(place, actor, self.draft_id)
                if view.step is None:
                    raise_stale()
                await _apply(itx, self.draft_id, self.version, view.step.key, {})
                return
            if self.action == "skip":
                view = await service.show(place, actor, self.draft_id)
                if view.step is None:
                    raise_stale()
                await _apply(itx, self.draft_id, self.version, view.step.key, None)
                return
            if self.action == "restart":
                view = await service.restart(place, actor, self.draft_id, self.version)
                await itx.response.edit_message(**wizard_message(view, locale))
                return
            if self.action == "cancel":
                await service.cancel(place, actor, self.draft_id, self.version)
                await itx.response.edit_message(
                    content=t("wizard.cancelled", locale), embed=None, view=None
                )
                return
            character = await service.finish(place, actor, self.draft_id, self.version)
        except Exception as error:  # noqa: BLE001
            await _fail(itx, error)
            return
        await itx.response.edit_message(
            content=t(
                "wizard.saved", locale, name=character.name, genero=gender_of(character.sheet)
            ),
            embed=None,
            view=None,
        )
        announcement = render_sheet.character(character, locale)
        announcement["content"] = t(
            "wizard.announce_npc" if character.is_npc else "wizard.announce",
            locale,
            user=actor.name,
            name=character.name,
        )
        if not character.is_npc:
            announcement = with_approval(announcement, character, locale)
        await itx.followup.send(**announcement, ephemeral=character.is_npc)


class WizardSelect(KeyedItem[discord.ui.Select[discord.ui.View]], template=CHOOSE_ID.template):
    def __init__(
        self, select: discord.ui.Select[discord.ui.View], draft_id: int, version: int, step_key: str
    ) -> None:
        super().__init__(select)
        self.draft_id, self.version, self.step_key = draft_id, version, step_key

    @classmethod
    def from_match(cls, item: discord.ui.Select[discord.ui.View], match: re.Match[str]) -> Self:
        return cls(item, int(match["draft"]), int(match["version"]), match["step"])

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        values = selected_values(itx)
        await _apply(itx, self.draft_id, self.version, self.step_key, values)


def raise_stale() -> NoReturn:
    raise DomainError("sheet.error.draft_stale")


def register(bot: Arbitro) -> None:
    bot.add_dynamic_items(WizardButton, WizardSelect)
    modal_submissions(bot).add(form_submitted)
