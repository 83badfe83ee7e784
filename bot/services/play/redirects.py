"""Redirecting a declared action whose target fell (issue 25 §1): «an action whose target
fell earlier in the order is reported, and the GM can redirect it with a button».

When a round of declarations resolves, the actions whose target was already down are kept in
the fight's state (:data:`rules.combat.declarations.REDIRECT_KEY`, the last resolved round
only).  The GM picks a new target from the summary's button; the action is then applied
through the live ``/attack`` use case with the dice its player declared, as the GM's word
(``forzar``: its turn has passed).  Each redirection first takes the action out of the list by
compare-and-set, so two presses apply it once; an attack the rules refuse then puts it back.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.db.models import saved_id
from bot.services.play.attack_record import AttackView
from bot.services.play.combat_store import write_fight_state
from bot.services.play.declarations import order_of, seeded
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite
from rules.combat import Combat
from rules.combat.declarations import REDIRECT_KEY, Declaration, redirectable

if TYPE_CHECKING:
    from bot.services.play.rounds import RoundService

__all__ = ["FORCE", "redirect", "redirect_targets"]

FORCE = "forzar"  # the GM's word: the attack's turn has passed (turn_actions.FORCE)


async def redirect_targets(
    rounds: RoundService, place: Place, actor: Actor, fight_id: int, ref: int
) -> tuple[str, tuple[str, ...]]:
    """The action ``ref`` (its combatant's name) and whom it may be redirected to: the fight's
    other combatants still standing (at most 25, a select menu's limit)."""
    await rounds.combat.require_referee(place, actor)
    record, declaration = await _find(rounds, place, fight_id, ref)
    context = await rounds.combat.characters.contexts.load(place)
    _campaign, system, settings = context.campaign, context.system, context.settings
    combat = Combat.from_dict(record.state)
    health = await rounds.combat.store.states(system, settings, combat)
    down = {k for k, h in health.items() if h.state is not None and h.state.skip_turn}
    down |= combat.spent()
    names = tuple(
        c.name
        for c in combat.combatants
        if c.key not in down and c.key != declaration.key and c.name != declaration.target
    )
    return declaration.name, names[:25]


async def redirect(
    rounds: RoundService, place: Place, actor: Actor, fight_id: int, ref: int, target: str
) -> AttackView:
    """Apply action ``ref`` to ``target`` (module docstring); GM only."""
    await rounds.combat.require_referee(place, actor)
    declaration = await _take(rounds, place, fight_id, ref)
    order = order_of(replace(declaration, order={**declaration.order, "target": target}))
    circumstances = ",".join(c for c in (order.circumstances, FORCE) if c)
    try:
        return await rounds.attacks.resolve_declared(
            place, actor, replace(order, circumstances=circumstances), seeded(declaration.seed),
            seeded(declaration.defence_seed) if declaration.defence_seed is not None else None,
        )  # fmt: skip
    except Exception:
        await _give_back(rounds, place, declaration)
        raise


async def _find(
    rounds: RoundService, place: Place, fight_id: int, ref: int
) -> tuple[Any, Declaration]:
    record = await rounds.combat.store.active(place)
    if record is None or saved_id(record) != fight_id:
        raise DomainError("declare.error.redirect_gone")
    _round, entries = redirectable(record.state)
    found = next((d for d in entries if d.ref == ref), None)
    if found is None:
        raise DomainError("declare.error.redirect_gone")
    return record, found


async def _take(rounds: RoundService, place: Place, fight_id: int, ref: int) -> Declaration:
    """Take action ``ref`` out of the redirectable ones, by compare-and-set (once)."""

    async def attempt() -> Declaration:
        record, found = await _find(rounds, place, fight_id, ref)
        number, entries = redirectable(record.state)
        kept = [d.to_dict() for d in entries if d.ref != ref]
        state = {**record.state, REDIRECT_KEY: {"round": number, "entries": kept}}
        async with rounds.sessions() as session, session.begin():
            await write_fight_state(session, record, state)
        return found

    return await retrying(attempt)


async def _give_back(rounds: RoundService, place: Place, declaration: Declaration) -> None:
    """An action the rules refused when redirected goes back to the list (the GM may pick
    another target)."""

    async def attempt() -> None:
        record = await rounds.combat.store.active(place)
        if record is None:
            return
        number, entries = redirectable(record.state)
        kept = [d.to_dict() for d in entries if d.ref != declaration.ref]
        state = {
            **record.state,
            REDIRECT_KEY: {"round": number, "entries": [*kept, declaration.to_dict()]},
        }
        async with rounds.sessions() as session, session.begin():
            await write_fight_state(session, record, state)

    with suppress(StaleWrite):  # as busy as that, the GM's next look lists it no more
        await retrying(attempt)
