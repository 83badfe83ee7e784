"""The rolweb defence button of an ``/attack`` reply (seed 001, DEFENSA).

An NPC attacking a character makes that character's player roll ``[Defensa←Diestro]``: the
reply carries a ``DynamicItem`` keyed ``arb:1:defend:<log id>:<version>`` that works after a
restart.  Only the target's player (or the GM) may press it; a press on an answered or stale
request is answered and the button removed, never applied twice (the service claims the
pending row in the same transaction as the damage).

:func:`attack_components` builds the reply's view; other buttons (an undo) can be added to
the same view by the caller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.play.attacks import AttackView
from cogs.ui import render_attack
from cogs.ui.context import ctx_of
from cogs.ui.keyed_button import KeyedButton
from cogs.ui.pain_panel import ask_pain

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = [
    "DeclaredDefenceButton",
    "DefenceButton",
    "attack_components",
    "attack_message",
    "defence_asked",
    "send_gm_notes",
]

STRIP_ON = ("attack.error.defence_stale",)
DECLARED_STRIP_ON = ("declare.error.defence_gone", "declare.error.defended")


def attack_components(view: AttackView, locale: str) -> discord.ui.View | None:
    """The reply's buttons: the defence request's, if any (None: no buttons)."""
    if view.defence_version is None:
        return None
    components = discord.ui.View(timeout=None)
    components.add_item(
        DefenceButton(view.log_id, view.defence_version, label=t("attack.defend_button", locale))
    )
    return components


def attack_message(view: AttackView, locale: str) -> dict[str, Any]:
    """The reply with its buttons (a ``view`` key only when there are some)."""
    message = render_attack.attack(view, locale)
    components = attack_components(view, locale)
    if components is not None:
        message["view"] = components
    return message


async def send_gm_notes(itx: discord.Interaction[Arbitro]) -> None:
    """After a fight command of the GM's: the secret numbers kept for the GM (a campaign
    without a GM channel), privately, once.  Call after the command's own reply."""
    ctx = await ctx_of(itx)
    if ctx.where is None:
        return
    notes = await ctx.services.attacks.take_notes(ctx.place, ctx.actor)
    if notes:
        await itx.followup.send(render_attack.gm_notes(notes, ctx.locale), ephemeral=True)


class DefenceButton(KeyedButton, kind="defend", style=discord.ButtonStyle.primary):
    log_id: int
    version: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.attacks.defend(
                ctx.place, ctx.actor, self.log_id, self.version
            )
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=STRIP_ON)
            return
        await itx.response.edit_message(view=None)
        await itx.followup.send(
            **render_attack.attack(view, ctx.locale, defence=True), ephemeral=view.private
        )
        await ask_pain(  # the wound passed the defender's pain threshold: its choice
            itx, view.pain, private=view.private, log_id=view.log_id, user_name=view.user_name
        )


def defence_asked(view: AttackView, locale: str) -> dict[str, Any] | None:
    """rolweb, a round of declarations: the NPC attack the GM declared asks its target's
    player for the defence, in the scene, with a button (mentioning that player only)."""
    declared = view.declared
    if declared is None or declared.defender_id is None:
        return None
    components = discord.ui.View(timeout=None)
    label = t("declare.defence_button", locale)
    components.add_item(DeclaredDefenceButton(declared.fight_id, declared.ref, label=label))
    text = t(
        "declare.defence_asked",
        locale,
        user=declared.defender_id,
        attacker=view.attacker,
        target=view.target,
        round=declared.round,
    )
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(id=declared.defender_id)]
    )
    return {"content": text, "view": components, "allowed_mentions": mentions}


class DeclaredDefenceButton(
    KeyedButton, kind="decl-defend", style=discord.ButtonStyle.primary, reference="defend"
):
    """A player's own defence (seed 001) against a declared NPC attack (issue 25 §1): its player (or the GM)
    fixes the defence's dice now; the outcome stays sealed until the round resolves."""

    combat_id: int
    ref: int

    async def callback(self, itx: discord.Interaction[Arbitro]) -> None:  # type: ignore[override]  # discord.py: any Client; ours is always Arbitro
        ctx = await ctx_of(itx)
        try:
            view = await ctx.services.rounds.defend(ctx.place, ctx.actor, self.combat_id, self.ref)
        except Exception as error:  # noqa: BLE001 - every failure becomes a translated reply
            await self.refuse(itx, error, strip_on=DECLARED_STRIP_ON)
            return
        await itx.response.edit_message(view=None)
        message = render_attack.attack(view, ctx.locale, defence=True)
        message["content"] = t("declare.defended", ctx.locale)
        await itx.followup.send(**message, ephemeral=True)
