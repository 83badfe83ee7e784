"""The question a pain threshold's choice asks (rolweb, seed 001 UMBRAL DE DOLOR): who was
hurt, which choice, who chooses, and who may see it — built where a wound is written
(:mod:`.attack_landing`, :mod:`.combat_health`) and answered by :mod:`.pain`.  Its own module
so that the attack's view can carry it without importing the choice's use cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.db.models import Character, saved_id
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from rules.systems.base import capabilities

__all__ = ["PainAsk", "ask_for", "pain_secrecy"]


@dataclass(frozen=True, slots=True)
class PainAsk:
    """A choice to ask for: the hurt character, the choice's number, who hit it, the options;
    ``chooser_id`` the player who chooses (None: the GM); ``secrecy``: a hidden NPC's
    choice is the GM's business (issue 22 §1)."""

    character_id: int
    ref: int
    name: str
    attacker: str | None
    options: tuple[str, ...]
    chooser_id: int | None
    secrecy: Secrecy = PUBLIC
    gender: str | None = None


def pain_secrecy(character: Character) -> Secrecy:
    """A hidden NPC's choice is sealed with the NPC (the GM's until it is revealed)."""
    if character.is_npc and character.hidden:
        return PUBLIC.hiding_npc(saved_id(character), (Part.RECORD,))
    return PUBLIC


def ask_for(
    context: CampaignContext, character: Character, sheet: dict[str, Any]
) -> PainAsk | None:
    """The newest choice ``sheet`` owes, as the prompt the attack's reply carries."""
    able = capabilities(context.system).pain_choices
    owed = able.pain_owed(sheet) if able is not None else ()
    if not owed:
        return None
    latest = owed[-1]
    return PainAsk(
        character_id=saved_id(character),
        ref=latest.ref,
        name=character.name,
        attacker=latest.attacker,
        options=latest.options,
        chooser_id=None if character.is_npc else character.owner_user_id,
        secrecy=pain_secrecy(character),
        gender=gender_of(sheet),
    )
