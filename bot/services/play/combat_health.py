"""Health during a fight: ``/init damage|heal`` and the effects that tick as a turn begins.

Hit points stay on the sheets: damage and healing go through the system's
``apply_damage``/``heal`` and the sheet's versioned write (:class:`SheetWriter`), and the
fight only names who is hurt.  The state shown after the write is the system's own
(:class:`~rules.systems.base.HealthStates`), in its words, with its hit points.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import replace
from typing import Any

from bot.db.models import Character
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import HEALTH_BY_COMMANDS, is_referee
from bot.services.play.combat_store import FightStore
from bot.services.play.combat_views import CombatantLine, CombatView, HealthView, TickView
from bot.services.play.group_health import hurt_group
from bot.services.play.pain import after_fight, apply_defaults
from bot.services.play.pain_ask import ask_for
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.sheets.changes import Damage, EndFightEffects, Heal, TickEffects
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from bot.services.sheets.writes import Applied
from rules.combat import Combat
from rules.systems.base import HealthChange, RulesError, capabilities

__all__ = ["end_effects", "hurt", "owed_defaults", "tick"]


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
    GM's explicit override that heals even the dead.  A sheetless group with hit points is
    wounded or healed creature by creature in the fight's state (:func:`.group_health.hurt_group`:
    the same procedure as an attack's; ``force`` never raises its fallen)."""
    characters = store.characters
    if amount < 1:
        raise DomainError("combat.error.bad_amount")
    record = await store.require(place)
    target = Combat.from_dict(record.state).find_by_name(name)
    if target.character_id is None and target.hit_points is not None:
        return await hurt_group(store, place, actor, target, amount, heal=heal)
    if target.character_id is None:
        raise DomainError("combat.error.no_sheet", name=target.name)
    context = await characters.contexts.load(place)
    _may_change(context, actor, heal=heal, force=force)
    change = Heal(amount, force=force) if heal else Damage(amount)
    applied = await characters.writer.apply(place, actor, change, character_id=target.character_id)
    return await _health_after(characters, context, target.character_id, applied, heal)


def _may_change(context: CampaignContext, actor: Actor, *, heal: bool, force: bool) -> None:
    """Who may name an amount: the GM always; a player damages, but heals his own only where
    the campaign lets hands change health (``salud_por_comandos`` off, issue 23 §3)."""
    referee = is_referee(context.campaign, actor)
    if force and not referee:
        raise NotReferee("dead.error.force_gm_only")
    if heal and not referee and context.settings.get(HEALTH_BY_COMMANDS, True):
        # a player heals through abilities, spells and rest, not by naming an amount
        raise NotReferee("rest.error.heal_gm_only")


async def _health_after(
    characters: CharacterService,
    context: CampaignContext,
    character_id: int,
    applied: Applied[HealthChange],
    heal: bool,
) -> HealthView:
    """What the tracker shows after the write: the state in the system's words and, for
    rolweb's damage past the pain threshold, the choice it now owes."""
    view, result = applied.view, applied.value
    undo = Undoable(applied.log_id, view.version) if applied.log_id else None
    label, description, hit_points = result.state, "", None
    health = capabilities(context.system).health
    if health is not None:
        state = health.combat_state(dict(view.sheet), context.settings)
        label, description, hit_points = state.label, state.description, state.hit_points
    ask = None
    if result.owed is not None:  # rolweb: the GM's damage passed the pain threshold
        async with characters.sessions() as session:
            hurt_one = await session.get(Character, character_id)
        if hurt_one is not None:
            ask = ask_for(context, hurt_one, dict(view.sheet))
    return HealthView(
        view.name,
        result.amount,
        result.state,
        tuple(result.notes),
        heal,
        pain=ask,
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
    ended: str | None = None,
) -> CombatView:
    """A turn passed (issue 23 §2): the effects of ``ended`` (the key whose turn just ended)
    lose a round and expire at 0; then the new current combatant's effects come into play
    (Aura de curación heals).  Writes of their own on the sheets, after the turn's: the turn
    change is already confirmed, so each ticks exactly once, and a sheet write is
    recomputed on its current version if it clashes (the rules act on the owner's behalf:
    whoever passed the turn need not own the character)."""
    if view.turn is None:
        return view
    before = next((line for line in view.lines if line.key == ended), None)
    if before is not None:
        view, done = await _tick_line(characters, place, actor, view, before, rng, "end")
        view = replace(view, ended=done)
    current = view.current
    if current is None:
        return view
    view, done = await _tick_line(characters, place, actor, view, current, rng, "begin")
    view = replace(view, ticked=done)
    return await owed_defaults(characters, place, actor, view)


async def owed_defaults(
    characters: CharacterService, place: Place, actor: Actor, view: CombatView
) -> CombatView:
    """The current combatant's turn began with a pain choice still owed (rolweb, issue 23
    §1): the campaign's default applies now (:mod:`.pain`), and its line shows the result."""
    current = view.current
    if current is None or current.character_id is None or not current.choice_owed:
        return view
    try:
        made = await apply_defaults(characters, place, actor, current.character_id)
    except (DomainError, RulesError):
        return view  # the sheet went away or cannot be read: the turn still begins
    if not made:
        return view
    new = replace(current, choice_owed=False, prone=current.prone or any(m.prone for m in made))
    lines = tuple(new if x.key == current.key else x for x in view.lines)
    return replace(view, lines=lines, current=new, pain_defaults=made)


async def _tick_line(
    characters: CharacterService,
    place: Place,
    actor: Actor,
    view: CombatView,
    line: CombatantLine,
    rng: random.Random,
    phase: str,
) -> tuple[CombatView, TickView | None]:
    """One combatant's effects ticked (``phase``: its turn begins or ends); the view with
    its line as written, and what happened (None: nothing to tick, or the sheet is gone)."""
    if line.character_id is None or not line.effects:
        return view, None
    try:
        applied = await characters.writer.apply(
            place,
            actor,
            TickEffects(rng, phase=phase),
            character_id=line.character_id,
            on_behalf=True,
        )
    except (DomainError, RulesError):
        return view, None  # the sheet went away or cannot be read: the turn still passes
    ticked = applied.value
    changes: dict[str, Any] = {"effects": tuple((e.name, e.rounds) for e in ticked.remaining)}
    if ticked.health is not None:
        context = await characters.contexts.load(place)
        health = capabilities(context.system).health
        if health is not None:
            state = health.combat_state(dict(applied.view.sheet), context.settings)
            changes.update(
                state=state.label, description=state.description, hit_points=state.hit_points
            )
    new = replace(line, **changes)
    lines = tuple(new if x.key == line.key else x for x in view.lines)
    current = new if view.current is not None and view.current.key == line.key else view.current
    done = TickView(line.name, ticked, line.secret, applied.log_id)
    return replace(view, lines=lines, current=current), done


async def end_effects(
    characters: CharacterService, place: Place, actor: Actor, view: CombatView, keep: bool
) -> CombatView:
    """The fight ended: each combatant's effects measured in rounds end with it, or stay
    when the GM keeps them (one write each, on the owner's behalf); the view lists what
    ended, by owner."""
    ended: list[tuple[str, tuple[str, ...]]] = []
    for line in view.lines:
        if line.character_id is not None and (line.prone or line.choice_owed):
            # everyone gets up, no choice of this fight stays owed (rolweb)
            with contextlib.suppress(DomainError, RulesError):
                await after_fight(characters, place, actor, line.character_id)

        if line.character_id is None or not any(r is not None for _n, r in line.effects):
            continue
        try:
            applied = await characters.writer.apply(
                place, actor, EndFightEffects(keep), character_id=line.character_id, on_behalf=True
            )
        except (DomainError, RulesError):
            continue  # a sheet gone or unreadable keeps what it has
        if applied.value:
            ended.append((line.name, tuple(e.name for e in applied.value)))
    return replace(view, effects_ended=tuple(ended), effects_kept=keep)
