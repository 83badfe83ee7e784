"""A touch spell's melee attack (Núcleo, seed 002: Toque eléctrico line 326, Toque
vampírico line 370, «requiere ataque C/C»).

The melee attack with the ``toque`` circumstance is rolled first, as ``/attack`` rolls it
(the target's Defensa, Espejo de sombras' miss chance); on a hit, ``cast(target)`` is
computed on the caster's current sheet (mana, the spell's roll, a drain healing the caster)
and the spell's damage lands on the target's current sheet — one
:meth:`SheetWriter.apply_each`, one audit row (kind ``attack``, on the target's write, so the
GM's undo takes the damage back).  A missed touch casts nothing and spends nothing; the miss
is logged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.db.models import saved_id
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.play.attack_landing import Wound, after_write
from bot.services.play.attack_order import AttackOrder, attack_request, attacks_of
from bot.services.play.attack_record import AttackView, attack_audit, attack_view
from bot.services.play.attack_sides import SideFinder, Sides
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.sheets.changes import Touched
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.writes import Applied, Each, SheetChange
from rules.combat.attack import AttackResult, Fighter
from rules.combat.health import Act
from rules.systems.base import HealthChange, capabilities

__all__ = ["touch"]

#: What casts the spell on the caster's current sheet once the touch hits.
Cast = Callable[[Fighter], SheetChange[Touched]]


def _require_two_sheets(sides: Sides) -> None:
    """A touch is between two characters, and not on oneself."""
    attacker, target = sides.attacker, sides.target
    if attacker.character is None or target.character is None:
        raise DomainError("touch.error.needs_sheets")
    if attacker.character.id == target.character.id:
        gender = gender_of(attacker.fighter.sheet)
        raise DomainError("touch.error.self", name=attacker.fighter.name, genero=gender)


async def touch(
    characters: CharacterService,
    finder: SideFinder,
    place: Place,
    actor: Actor,
    order: AttackOrder,
    cast: Cast,
    rng: random.Random,
) -> tuple[AttackView, Touched | None]:
    """Roll the touch and land it (see the module docstring); ``rng``: the caller's dice
    (the spell service's, so one seeded source rolls the whole spell)."""
    context = await characters.contexts.load(place)
    attacks = attacks_of(context.system)
    order = replace(order, circumstances="toque", weapon=None, bonus=None, damage=None)
    sides = await finder.resolve(context.campaign, actor, place, order.target, order.character)
    _require_two_sheets(sides)
    sides.require_fit(context, Act.CAST)
    players_defend = capabilities(context.system).player_defence is not None
    hit = attacks.attack(attack_request(order, sides, players_defend), context.settings, rng)
    secret = sides.secret(context.settings)
    note = secret and not context.campaign.gm_channel_id and not sides.referee
    target = sides.target.fighter

    def caster_step(_values: tuple[Any, ...]) -> SheetChange[Touched] | None:
        return cast(target) if hit.hit else None

    def target_step(values: tuple[Any, ...]) -> Wound:
        result = values[0].attack(hit) if values[0] is not None else hit
        return Wound(result, attack_audit(order, sides, result, secret, note))

    assert sides.attacker.character is not None and sides.target.character is not None
    steps = [
        Each(saved_id(sides.attacker.character), after=caster_step),
        Each(saved_id(sides.target.character), after=target_step, acting=False),
    ]
    applied = await characters.writer.apply_each(place, actor, steps)
    touched: Touched | None = applied[0].value  # None: the touch missed, nothing cast
    return _touched_view(actor, context, sides, hit, touched, applied[1], order.private), touched


def _touched_view(
    actor: Actor,
    context: CampaignContext,
    sides: Sides,
    hit: AttackResult,
    touched: Touched | None,
    written: Applied[Any],
    private: bool,
) -> AttackView:
    """The touch as ``/attack`` shows it: the spell's result on the hit, the target's state."""
    result = touched.attack(hit) if touched is not None else hit
    done: HealthChange | None = written.value
    notes = tuple(result.notes) + tuple(n for n in (done.notes if done else ()) if n)
    landed = after_write(
        context, written.log_id, written.view.sheet, done, tuple(dict.fromkeys(notes))
    )
    return attack_view(actor, context, sides, result, landed, private=private)
