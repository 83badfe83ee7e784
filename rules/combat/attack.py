"""One attack, the same request and result for every system (issue 11 §1).

The service layer builds an :class:`AttackRequest` (who attacks whom, with what, under which
circumstances), asks the campaign's system (:class:`rules.systems.base.Attacks`) to
resolve it, and writes the :class:`TargetChange` of the result through the system's own
``apply_damage``/``heal`` in the same versioned transaction.  Nothing here touches a database or a user's screen: the
result keeps the numbers a player must not see (the target number, AC/Defensa, hit points)
in named fields (:data:`SECRET_FIELDS`) so the bot can withhold them.

A combatant without a sheet (a group the GM added by name) is a :class:`Fighter` with the
numbers the GM gave; when the defence is unknown the result says so
(:attr:`AttackOutcome.UNJUDGED`) and reports the total for the GM to judge.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rules.systems.base import Sheet

__all__ = [
    "SECRET_FIELDS",
    "AttackOutcome",
    "AttackRequest",
    "AttackResult",
    "DefenceRequest",
    "Fighter",
    "RollLine",
    "TargetChange",
]

#: Fields of :class:`AttackResult` a player sees only if the GM revealed them.
SECRET_FIELDS: tuple[str, ...] = ("target_number", "defence", "hit_points_left")


@dataclass(frozen=True, slots=True)
class Fighter:
    """One side of an attack: a sheet, or what the GM said about a sheetless combatant.

    ``attack_bonus`` and ``damage`` are used by a sheetless attacker (the GM's ``bonus`` and
    ``damage`` options); ``defence`` (AC in the campaign's notation, or Defensa), ``armour``
    (rolweb: the armour's dice; Núcleo: absorption as a number) and ``hit_points`` by a
    sheetless target.  ``hit_dice`` lets a sheetless S&W monster attack on Tabla 32.
    ``player`` says whether a sheetless combatant is a player character (rolweb moribundo).
    """

    name: str
    sheet: Sheet | None = None
    attack_bonus: int | None = None
    damage: str | None = None
    defence: int | None = None
    armour: str | None = None
    hit_points: int | None = None
    hit_dice: str | None = None
    player: bool = False


@dataclass(frozen=True, slots=True)
class AttackRequest:
    """What ``/attack`` asked for; each system reads the parts it uses.

    ``weapon`` names a weapon of the attacker's sheet (None: the sheet's main weapon or the
    system's unarmed blow).  ``ranged`` picks the missile/ranged attack; ``range_band``
    (Núcleo: bocajarro/corta/media/larga) and ``circumstances`` (Núcleo cover and position,
    ``dos_armas``, ``a_caballo``; S&W ``magico:+1``) refine it; ``advantage`` lists rolweb
    VENTAJA reasons; ``defender_rolls`` is rolweb's NPC attacking a player character (the
    player rolls ``[Defensa←Diestro]``: the result is a :class:`DefenceRequest`).
    """

    attacker: Fighter
    target: Fighter
    weapon: str | None = None
    modifier: int = 0
    circumstances: frozenset[str] = frozenset()
    ranged: bool = False
    range_band: str | None = None
    advantage: tuple[str, ...] = ()
    defender_rolls: bool = False
    #: rolweb FLANQUEAR: who is already in melee with the target (read from the fight).
    engaged: tuple[str, ...] = ()


class AttackOutcome(enum.StrEnum):
    """How an attack ended."""

    HIT = "hit"
    MISS = "miss"
    UNJUDGED = "unjudged"  # the target's defence is unknown: the GM judges the total
    DEFENCE_REQUESTED = "defence_requested"  # rolweb: the target's player must roll


@dataclass(frozen=True, slots=True)
class RollLine:
    """One roll of the attack with the dice engine's rendering (dropped dice ``~~…~~``)."""

    label: str
    expression: str
    total: int
    breakdown: str


@dataclass(frozen=True, slots=True)
class TargetChange:
    """What the attack does to the target, re-appliable: ``kind`` is ``"damage"`` (pass
    ``amount`` to ``apply_damage``) or ``"heal"`` (to ``heal``).  ``to_attacker`` is a heal
    the attacker receives (Toque vampírico) applied the same way to the attacker's sheet."""

    kind: str
    amount: int
    to_attacker: int = 0


@dataclass(frozen=True, slots=True)
class DefenceRequest:
    """rolweb: the roll the target's player must make, ``[Defensa←Diestro]``.

    ``target`` is the highest d20 that defends (secret while the GM hides the NPC's Diestro);
    pass this request back to the system's ``resolve_defence`` with the player's rng.
    """

    attacker: Fighter
    defender: Fighter
    weapon: str | None
    target: int
    advantage: tuple[str, ...] = ()
    modifier: int = 0
    #: what the fight's rules noted on the attack (a free attack's trigger): kept on the
    #: resolved defence
    notes: tuple[str, ...] = ()
    #: the defender's chances (rolweb LUCHAR A CIEGAS): ``"1"``, ``"peor"`` (the worse of
    #: two d20: the defender is hindered) or ``"mejor"`` (the better: the attacker is)
    chances: str = "1"


@dataclass(frozen=True, slots=True)
class AttackResult:
    """A resolved attack.

    ``attack`` is the to-hit roll (None when a defence was requested instead); ``total`` its
    total; ``target_number`` what it had to reach (S&W: the table's number; rolweb: the
    highest d20; Núcleo: Defensa or the range difficulty) and ``defence`` the AC/Defensa it
    came from — both secret (:data:`SECRET_FIELDS`).  ``natural`` is the kept d20 (S&W,
    rolweb).  ``damage_rolls`` are the weapon (and armour) rolls, ``damage`` what is dealt
    after armour, ``change`` the re-appliable change to the target.  ``modifiers`` names
    every bonus added to the roll (``("Fuerza", 1)``, ``("Niebla", -2)``); ``notes`` are
    catalogue keys (``"swc.note.natural_20"``, ``"rolweb.note.pain_threshold"``).
    """

    outcome: AttackOutcome
    weapon: str
    attack: RollLine | None
    total: int | None
    target_number: int | None
    defence: int | None
    critical: bool = False
    fumble: bool = False
    natural: int | None = None
    damage_rolls: tuple[RollLine, ...] = ()
    damage: int = 0
    change: TargetChange | None = None
    modifiers: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = ()
    defence_request: DefenceRequest | None = None
    hit_points_left: int | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def hit(self) -> bool:
        return self.outcome is AttackOutcome.HIT
