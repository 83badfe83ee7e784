"""Health during a fight: ``/init damage|heal`` and the effects that tick as a turn begins.

Hit points stay on the sheets: damage and healing go through the system's
``apply_damage``/``heal`` and the sheet's versioned write (:class:`SheetWriter`), and the
fight only names who is hurt.  The state shown after the write is the system's own
(:class:`~rules.systems.base.HealthStates`), in its words, with its hit points.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from bot.grammar import gender_of
from bot.services.campaigns.service import is_referee
from bot.services.play.combat_store import FightStore
from bot.services.play.combat_views import CombatView, HealthView, TickView
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.sheets.changes import Damage, Heal, TickEffects
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from rules.combat import Combat
from rules.systems.base import RulesError, capabilities

__all__ = ["hurt", "tick"]


async def hurt(
    store: FightStore,
    place: Place,
    actor: Actor,
    name: str,
    amount: int,
    *,
    heal: bool,
    force: bool = False,
) -> HealthView:
    """Damage or heal the combatant ``name`` by ``amount`` through its sheet; ``force``: the
    GM's explicit override that heals even the dead."""
    characters = store.characters
    if amount < 1:
        raise DomainError("combat.error.bad_amount")
    record = await store.require(place)
    target = Combat.from_dict(record.state).find_by_name(name)
    if target.character_id is None:
        raise DomainError("combat.error.no_sheet", name=target.name)
    if force and not is_referee(await characters.campaigns.require(place), actor):
        raise NotReferee("dead.error.force_gm_only")
    change = Heal(amount, force=force) if heal else Damage(amount)
    applied = await characters.writer.apply(place, actor, change, character_id=target.character_id)
    view, result = applied.view, applied.value
    undo = Undoable(applied.log_id, view.version) if applied.log_id else None
    _campaign, system, settings = await characters.context(place)
    label, description, hit_points = result.state, "", None
    health = capabilities(system).health
    if health is not None:
        state = health.combat_state(dict(view.sheet), settings)
        label, description, hit_points = state.label, state.description, state.hit_points
    return HealthView(
        view.name,
        result.amount,
        result.state,
        tuple(result.notes),
        heal,
        label=label,
        description=description,
        hit_points=hit_points,
        secret=view.is_npc and view.hidden,
        log_id=applied.log_id,
        undo=undo,
        system=view.system,
        gender=gender_of(view.sheet),
    )


async def tick(
    characters: CharacterService,
    place: Place,
    actor: Actor,
    view: CombatView,
    rng: random.Random,
) -> CombatView:
    """The owner's turn began: its effects lose a round (expired ones are reported, Aura de
    curación heals).  A write of its own on the sheet, after the turn's: the turn change
    is already confirmed, so it ticks exactly once, and the sheet write is recomputed on
    its current version if it clashes (the rules act on the owner's behalf: whoever
    passed the turn need not own the character)."""
    current = view.current
    if view.turn is None or current is None or current.character_id is None:
        return view
    if not current.effects:
        return view
    try:
        applied = await characters.writer.apply(
            place, actor, TickEffects(rng), character_id=current.character_id, on_behalf=True
        )
    except (DomainError, RulesError):
        return view  # the sheet went away or cannot be read: the turn still passes
    ticked = applied.value
    left = tuple((e.name, e.rounds) for e in ticked.remaining)
    changes: dict[str, Any] = {"effects": left}
    if ticked.health is not None:
        _campaign, system, settings = await characters.context(place)
        health = capabilities(system).health
        if health is not None:
            state = health.combat_state(dict(applied.view.sheet), settings)
            changes.update(
                state=state.label, description=state.description, hit_points=state.hit_points
            )
    line = replace(current, **changes)
    lines = tuple(line if x.key == current.key else x for x in view.lines)
    tick_view = TickView(current.name, ticked, current.secret, applied.log_id)
    return replace(view, lines=lines, current=line, ticked=tick_view)
