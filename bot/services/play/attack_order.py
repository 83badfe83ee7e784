"""What ``/attack`` asks for (:class:`AttackOrder`), and the request the system resolves.

The order is what the user typed; :func:`attack_request` reads it into the one
:class:`~rules.combat.attack.AttackRequest` every system takes: the circumstances (Núcleo's
cover and range band checked against their names), and whether the defender's player rolls
(a system whose players roll their own defence, an NPC attacking a player's character).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.play.attack_sides import Sides
from bot.services.play.checks import parse_circumstances
from bot.services.shared.errors import DomainError
from rules.combat.attack import AttackRequest
from rules.systems.base import Attacks, GameSystem, capabilities

__all__ = ["COVERS", "RANGE_BANDS", "AttackOrder", "attack_request", "attacks_of"]

#: Núcleo range bands (seed 002, «Ataque a Distancia») and cover (circumstance names).
RANGE_BANDS = ("bocajarro", "corta", "media", "larga")
COVERS = ("ligera", "media", "grande")


@dataclass(frozen=True, slots=True)
class AttackOrder:
    """What ``/attack`` asked for, as typed."""

    target: str
    weapon: str | None = None
    modifier: int = 0
    circumstances: str | None = None
    private: bool = False
    character: str | None = None
    bonus: int | None = None
    damage: str | None = None
    range_band: str | None = None
    cover: str | None = None
    defence_now: bool = False


def attack_request(order: AttackOrder, sides: Sides, players_defend: bool) -> AttackRequest:
    """The system's request; ``players_defend``: its players roll their own defence
    (:class:`~rules.systems.base.PlayerDefence`), so an NPC attacking a character asks for
    that roll."""
    circumstances = set(parse_circumstances(order.circumstances))
    if order.cover:
        if order.cover not in COVERS:
            raise DomainError("attack.error.bad_cover", covers=", ".join(COVERS))
        circumstances.add(f"cobertura_{order.cover}")
    if order.range_band is not None and order.range_band not in RANGE_BANDS:
        raise DomainError("attack.error.bad_range", ranges=", ".join(RANGE_BANDS))
    attacker, target = sides.attacker, sides.target
    npc_attacker = attacker.character is None or attacker.character.is_npc
    pc_target = target.character is not None and not target.character.is_npc
    return AttackRequest(
        attacker=attacker.fighter,
        target=target.fighter,
        weapon=order.weapon.strip() if order.weapon else None,
        modifier=order.modifier,
        circumstances=frozenset(circumstances),
        ranged=order.range_band is not None,
        range_band=order.range_band,
        defender_rolls=players_defend and npc_attacker and pc_target,
    )


def attacks_of(system: GameSystem) -> Attacks:
    """The system's attacks, or a translated refusal naming it."""
    attacks = capabilities(system).attacks
    if attacks is None:
        raise DomainError("attack.error.no_attacks", system=system.name)
    return attacks
