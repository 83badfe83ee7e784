"""``/effect`` (``/efecto``): timed effects and conditions stored with the sheet.

An effect belongs to the character, not to a fight: it is kept under the sheet's ``efectos``
key (:mod:`rules.combat.effects`), so it outlives the fight and lasts until removed outside
one.  Adding and removing go through :class:`SheetWriter` like every sheet change (versioned,
recomputed on a clash, one audit row whose id the reply returns), and the writer's editor
check is the permission: the GM on anyone, a player on their own characters.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.shared.context import Actor, Place
from bot.services.sheets.changes import AddEffect, RemoveEffect
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from rules.combat import effects
from rules.combat.effects import MAX_ROUNDS, Effect

__all__ = ["EffectService", "EffectView", "MAX_ROUNDS"]

MAX_EFFECT_NAME = 60
MAX_MODIFIER_TEXT = 200


@dataclass(frozen=True, slots=True)
class EffectView:
    """The effect added or removed, the character's effects after the write, the log row."""

    character_name: str
    effect: Effect
    effects: tuple[Effect, ...]
    removed: bool
    log_id: int | None
    #: the audit row and sheet version of this write, for the GM's undo button
    undo: Undoable | None = None


class EffectService:
    def __init__(self, characters: CharacterService) -> None:
        self.characters = characters

    async def add(
        self,
        place: Place,
        actor: Actor,
        target: str | None,
        name: str,
        rounds: int | None = None,
        modifier: str | None = None,
        *,
        character_id: int | None = None,
    ) -> EffectView:
        """Put ``name`` on ``target`` (a character's name, or ``character_id``)."""
        effect = Effect(name=name.strip()[: MAX_EFFECT_NAME + 1], rounds=rounds, source="manual")
        text = (modifier or "").strip()[:MAX_MODIFIER_TEXT] or None
        applied = await self.characters.writer.apply(
            place, actor, AddEffect(effect, text), name=target, character_id=character_id
        )
        return EffectView(
            applied.view.name,
            applied.value,
            effects.effects(applied.view.sheet),
            False,
            applied.log_id,
            Undoable(applied.log_id, applied.view.version) if applied.log_id else None,
        )

    async def remove(
        self,
        place: Place,
        actor: Actor,
        target: str | None,
        name: str,
        *,
        character_id: int | None = None,
    ) -> EffectView:
        applied = await self.characters.writer.apply(
            place, actor, RemoveEffect(name), name=target, character_id=character_id
        )
        return EffectView(
            applied.view.name,
            applied.value,
            effects.effects(applied.view.sheet),
            True,
            applied.log_id,
            Undoable(applied.log_id, applied.view.version) if applied.log_id else None,
        )

    async def names(
        self, place: Place, actor: Actor, target: str | None, current: str
    ) -> list[str]:
        """Autocomplete of ``/effect remove``: the effects on the chosen character."""
        try:
            view = await self.characters.show(place, actor, target)
        except Exception:  # noqa: BLE001 - autocomplete never fails loudly
            return []
        needle = current.casefold()
        return [e.name for e in effects.effects(view.sheet) if needle in e.name.casefold()][:25]
