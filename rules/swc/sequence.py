"""Surprise, initiative and the combat sequences of Swords & Wizardry Completo (seed 000).

The book's own sequence rolls a d6 per *side* each round; it offers three alternatives:
A (the Core edition's three phases), B (Holmes: everything in Destreza order) and C
(Supplement III, modified: 10 six-second segments per round, each character acting every
6 segments plus modifiers).  The phases and numbers are data
(``data/swc/combat_sequence.json``, cited by section: the book gives them no table
number); this module rolls and orders.  Ties are *reported*, never broken silently: the
referee chooses between simultaneous action and a re-roll (:func:`reroll_ties`).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from rules.swc.attributes import roll_3d6
from rules.swc.combat import normalize_class
from rules.swc.data import DataError, load
from rules.swc.equipment import armour

__all__ = [
    "SequenceKind",
    "Phase",
    "CombatSequence",
    "SurpriseRoll",
    "SurpriseResult",
    "SideInitiative",
    "SegmentInterval",
    "combat_sequence",
    "side_is_watchful",
    "surprise",
    "surprise_check",
    "drops_held_item",
    "encounter_distance",
    "side_initiative",
    "reroll_ties",
    "dexterity_order",
    "roll_monster_dexterity",
    "sequence_c_initiative",
    "sequence_c_interval",
    "monster_interval",
    "segment_position",
    "actions_in_round",
]


class SequenceKind(enum.StrEnum):
    """Which combat sequence a campaign uses (``secuencia_combate``; the book's own is "estandar")."""

    STANDARD = "estandar"
    A = "A"
    B = "B"
    C = "C"


@dataclass(frozen=True, slots=True)
class Phase:
    """One step of a sequence: a stable key for the bot and the book's description."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class CombatSequence:
    """A whole sequence, in order."""

    kind: SequenceKind
    name: str
    phases: tuple[Phase, ...]


@dataclass(frozen=True, slots=True)
class SurpriseRoll:
    """One side's d6: surprised when ``roll <= threshold`` (2, or 1 with an Explorador/Monje)."""

    roll: int
    threshold: int

    @property
    def surprised(self) -> bool:
        return self.roll <= self.threshold


@dataclass(frozen=True, slots=True)
class SurpriseResult:
    """Every side's roll and who is surprised once mutual surprise cancels out."""

    rolls: tuple[tuple[str, SurpriseRoll], ...]
    surprised: frozenset[str]
    cancelled: bool


@dataclass(frozen=True, slots=True)
class SideInitiative:
    """A round's side initiative.

    ``order`` lists groups of sides in acting order; a group of several sides is a tie the
    referee resolves (simultaneous, or :func:`reroll_ties`).  ``automatic`` is the first
    round after a surprise, won without rolling.
    """

    rolls: tuple[tuple[str, int], ...]
    order: tuple[tuple[str, ...], ...]
    automatic: bool = False

    @property
    def winner(self) -> str | None:
        """The side acting first, or None when the first place is tied."""
        first = self.order[0]
        return first[0] if len(first) == 1 else None

    @property
    def ties(self) -> tuple[tuple[str, ...], ...]:
        """Every tied group, first place included."""
        return tuple(group for group in self.order if len(group) > 1)


@dataclass(frozen=True, slots=True)
class SegmentInterval:
    """Alternative C: segments until the next action, with every modifier shown."""

    base: int
    armour: int
    spell: int
    dexterity: int
    wounds: int
    movement: int
    fighter: int
    total: int


def _data() -> dict[str, Any]:
    return load("combat_sequence")


@cache
def _sequences() -> dict[SequenceKind, CombatSequence]:
    result = {}
    for raw in _data()["secuencias"]:
        kind = SequenceKind(raw["clave"])
        phases = tuple(Phase(p["clave"], p["texto"]) for p in raw["fases"])
        result[kind] = CombatSequence(kind, raw["nombre"], phases)
    if set(result) != set(SequenceKind):
        raise DataError("combat_sequence: expected the complete sequence and alternatives A, B, C")
    return result


def combat_sequence(kind: SequenceKind | str = SequenceKind.STANDARD) -> CombatSequence:
    """The phases of a sequence, for ``/combate`` to walk through."""
    return _sequences()[SequenceKind(kind)]


def side_is_watchful(classes: Collection[str]) -> bool:
    """Whether a side includes an Explorador or a Monje (surprised only on a 1)."""
    watchful = set(_data()["sorpresa"]["clases_vigilantes"])
    return any(normalize_class(c) in watchful for c in classes)


def surprise(rng: random.Random, side_has_explorer_or_monk: bool) -> SurpriseRoll:
    """One side's surprise roll: 1d6, surprised on 1-2 (only 1 with an Explorador or Monje)."""
    rules = _data()["sorpresa"]
    threshold = rules[
        "sorprendido_hasta_con_vigilante" if side_has_explorer_or_monk else "sorprendido_hasta"
    ]
    return SurpriseRoll(rng.randint(1, rules["dado"]), threshold)


def surprise_check(rng: random.Random, sides: Mapping[str, bool]) -> SurpriseResult:
    """Roll for every side (name -> has an Explorador/Monje); if all are surprised, nobody is."""
    rolls = tuple((side, surprise(rng, watchful)) for side, watchful in sides.items())
    surprised = frozenset(side for side, roll in rolls if roll.surprised)
    cancelled = len(rolls) > 1 and len(surprised) == len(rolls)
    return SurpriseResult(rolls, frozenset() if cancelled else surprised, cancelled)


def drops_held_item(rng: random.Random) -> bool:
    """Each member of a surprised side drops what they hold on a 1 in 4."""
    rule = _data()["sorpresa"]["soltar_objetos"]
    return rng.randint(1, rule["dado"]) <= int(rule["sobre"])


def encounter_distance(rng: random.Random, lugar: str = "subterraneo") -> int:
    """Feet between the sides: 1d6 x 10 underground, ten times that outdoors, three in poor sight."""
    rule = _data()["distancia_encuentro"]
    try:
        factor = rule["multiplicadores"][lugar]
    except KeyError:
        raise ValueError(
            f"unknown place {lugar!r}; use {sorted(rule['multiplicadores'])}"
        ) from None
    return rng.randint(1, rule["dado"]) * int(rule["pies_por_punto"]) * int(factor)


def _rank(values: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """Highest first; equal values share a group, in the callers' order."""
    distinct = sorted(set(values.values()), reverse=True)
    return tuple(tuple(s for s in values if values[s] == v) for v in distinct)


def side_initiative(
    rng: random.Random, sides: Sequence[str], surprised: Collection[str] = ()
) -> SideInitiative:
    """Each side rolls a d6; highest acts first.

    ``surprised`` is for the first round after a surprise: the other sides win without
    rolling (they roll among themselves only if there are several of them).
    """
    if len(sides) < 2 or len(set(sides)) != len(sides):
        raise ValueError("initiative needs two or more distinct sides")
    die = _data()["iniciativa"]["dado"]
    caught = [s for s in sides if s in set(surprised)]
    if caught and len(caught) < len(sides):
        awake = [s for s in sides if s not in caught]
        rolls = {s: rng.randint(1, die) for s in awake} if len(awake) > 1 else {}
        order = (_rank(rolls) if rolls else (tuple(awake),)) + (tuple(caught),)
        return SideInitiative(tuple(rolls.items()), order, automatic=True)
    rolls = {s: rng.randint(1, die) for s in sides}
    return SideInitiative(tuple(rolls.items()), _rank(rolls))


def reroll_ties(rng: random.Random, initiative: SideInitiative) -> SideInitiative:
    """The referee's other option for a tie: tied sides roll again among themselves."""
    die = _data()["iniciativa"]["dado"]
    order: list[tuple[str, ...]] = []
    rolls = dict(initiative.rolls)
    for group in initiative.order:
        if len(group) == 1:
            order.append(group)
            continue
        again = {s: rng.randint(1, die) for s in group}
        rolls.update(again)
        order.extend(_rank(again))
    return SideInitiative(tuple(rolls.items()), tuple(order), initiative.automatic)


def dexterity_order(participants: Mapping[str, int]) -> tuple[tuple[str, ...], ...]:
    """Alternative B: act from the highest Destreza down; equal Destreza act together."""
    return _rank(participants)


def roll_monster_dexterity(rng: random.Random) -> int:
    """Alternative B's suggestion: 3d6 once per kind of monster."""
    return roll_3d6(rng)


def sequence_c_initiative(rng: random.Random) -> int:
    """Alternative C: 1d10 per character, once per combat; the segment of the first action."""
    return rng.randint(1, _data()["segmentos"]["dado_iniciativa"])


def _band(rows: list[dict[str, Any]], value: int) -> int:
    return next(int(r["mod"]) for r in rows if r["valores"][0] <= value <= r["valores"][1])


def sequence_c_interval(
    *,
    destreza: int,
    armadura: str | None = None,
    escudo: bool = False,
    nivel_conjuro: int | None = None,
    pg: int | None = None,
    pg_max: int | None = None,
    movimiento: int | None = None,
    nivel_guerrero: int | None = None,
) -> SegmentInterval:
    """Alternative C: 6 segments plus armour, spell level and "otros" modifiers.

    Wounds take the larger of "½ o menos pg +4" and "¼ o menos pg +6" (not both).
    ``nivel_guerrero`` enables the book's variant for Guerreros: minus half the level,
    rounded down.  The result never drops below 1 segment.
    """
    rules = _data()["segmentos"]
    if not 3 <= destreza <= 18:
        raise ValueError("Destreza must be 3-18")
    armour_mod = 0
    if armadura is not None:
        worn = armour(armadura)
        if worn.shield:
            raise ValueError("the shield is given with escudo=True")
        armour_mod += rules["armadura"][worn.name]
    if escudo:
        armour_mod += rules["armadura"]["Escudo"]
    spell = 0
    if nivel_conjuro is not None:
        try:
            spell = rules["nivel_conjuro"][str(nivel_conjuro)]
        except KeyError:
            raise ValueError("spell level must be 1-9") from None
    wounds = 0
    if pg is not None or pg_max is not None:
        if pg is None or not pg_max or pg_max < 1:
            raise ValueError("give both pg and a positive pg_max")
        for row in rules["heridas"]:  # worst first
            num, den = row["fraccion_pg"]
            if pg * den <= pg_max * num:
                wounds = row["mod"]
                break
    slow = rules["movimiento_lento"]
    movement = slow["mod"] if movimiento is not None and movimiento <= slow["hasta"] else 0
    fighter = -(nivel_guerrero // 2) if nivel_guerrero else 0
    dexterity = _band(rules["destreza"], destreza)
    raw = rules["intervalo_base"] + armour_mod + spell + dexterity + wounds + movement + fighter
    total = max(rules["intervalo_minimo"], raw)
    return SegmentInterval(
        rules["intervalo_base"], armour_mod, spell, dexterity, wounds, movement, fighter, total
    )


def monster_interval(velocidad: str = "normal") -> int:
    """Alternative C for monsters: every 10 segments; 13 if very slow, 7 if very fast."""
    try:
        return int(_data()["segmentos"]["monstruos"][velocidad])
    except KeyError:
        raise ValueError("velocidad is 'normal', 'lento' or 'rapido'") from None


def segment_position(absolute_segment: int) -> tuple[int, int]:
    """Absolute segment (1 = round 1, segment 1) -> (round, segment 1-10)."""
    if absolute_segment < 1:
        raise ValueError("segments are counted from 1")
    per_round = _data()["segmentos"]["por_asalto"]
    return (absolute_segment - 1) // per_round + 1, (absolute_segment - 1) % per_round + 1


def actions_in_round(first_segment: int, interval: int, round_number: int) -> tuple[int, ...]:
    """Segments (1-10) of ``round_number`` in which someone acting first at ``first_segment``
    of round 1 and then every ``interval`` segments acts."""
    if interval < 1 or round_number < 1 or first_segment < 1:
        raise ValueError("first segment, interval and round start at 1")
    per_round = _data()["segmentos"]["por_asalto"]
    start, end = (round_number - 1) * per_round + 1, round_number * per_round
    if first_segment > end:
        return ()
    skip = max(0, -(-(start - first_segment) // interval))
    return tuple(
        segment_position(s)[1] for s in range(first_segment + skip * interval, end + 1, interval)
    )
