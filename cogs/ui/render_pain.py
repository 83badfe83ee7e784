"""The texts of the pain threshold's choice and of getting up (rolweb, seed 001 UMBRAL DE
DOLOR, LEVANTARSE): what a choice did, a default applied as a turn began, a stand-up."""

from __future__ import annotations

from bot.i18n import t
from bot.services.play.pain import PainView, StandView
from cogs.ui.render import turn_warnings

__all__ = ["chosen_text", "defaults_lines", "stand_text"]


def chosen_text(view: PainView, locale: str) -> str:
    """What a choice did, in the system's words of the choice («cae al suelo»)."""
    attacker = view.attacker or t("pain.the_attacker", locale)
    text = t(f"pain.chosen.{view.choice}", locale, name=view.name, attacker=attacker)
    if view.by_default:
        text = t("pain.by_default", locale, text=text)
    return text


def stand_text(view: StandView, locale: str) -> str:
    if view.declared_round is not None:  # a round of declarations: rolled at resolution
        return t("pain.stand_declared", locale, name=view.name, round=view.declared_round)
    if not view.in_fight:
        text = t("pain.stood_free", locale, name=view.name)
    elif view.success:
        text = t("pain.stood", locale, name=view.name, breakdown=view.breakdown)
    elif view.stood:
        text = t("pain.stood_whole_turn", locale, name=view.name, breakdown=view.breakdown)
    else:
        text = t("pain.still_down", locale, name=view.name, breakdown=view.breakdown)
    if view.warnings:
        text += "\n" + turn_warnings(view.warnings, locale)
    return text


def defaults_lines(made: tuple[PainView, ...], locale: str) -> list[str]:
    """The defaults a turn applied, for the channel: a hidden NPC's stay the GM's (its
    line on the panel shows it on the ground all the same: that is seen)."""
    return [chosen_text(view, locale) for view in made if view.secrecy.npc_id is None]
