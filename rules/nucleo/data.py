"""Typed, validated game data for Núcleo, read from ``data/nucleo/*.json`` (seed 002).

The tables stay in JSON so a referee can compare them line by line with the seed; this
module turns each file into frozen records once, and refuses a file whose rows do not have
the shape the rules rely on (a typo in a dice expression or an attribute name would
otherwise surface mid-combat).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

__all__ = [
    "ATTRIBUTES",
    "DATA_DIR",
    "Advantage",
    "Armour",
    "Catalogue",
    "CombatTable",
    "DataError",
    "Race",
    "Save",
    "Shield",
    "Skill",
    "Spell",
    "Weapon",
    "catalogue",
    "load",
]

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "nucleo"

#: seed 002, «Atributos»: the five attributes, in the seed's order.
ATTRIBUTES: tuple[str, ...] = ("Físico", "Destreza", "Inteligencia", "Percepción", "Carisma")

_DICE = re.compile(r"^\d+d\d+([+-]\d+)?$")
_GRIPS = frozenset({"una_mano", "dos_manos"})
_RANGES = frozenset({"personal", "toque", "distancia"})
_CRITICALS = frozenset({"dado", "bono", "turnos"})
_EFFECTS = frozenset(
    {
        "spell_check",
        "melee_attack",
        "ranged_damage",
        "defensa",
        "melee_damage",
        "mana_multiplier",
        "estorbo_ignored",
        "pv_multiplier",
        "absorption",
        "ranged_attack",
        "iniciativa",
        "healing",
    }
)


class DataError(ValueError):
    """A data file is missing or a row does not have the shape the rules expect."""


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


def _frozen(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, slots=True)
class Skill:
    """A skill and the attribute it is rolled with (seed 002, «Lista de Habilidades»)."""

    name: str
    attribute: str


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon of «Equipo»; ``damage`` maps a grip (``una_mano``/``dos_manos``) to dice."""

    name: str
    kind: str
    damage: Mapping[str, str]
    ranges_m: tuple[int, int, int] | None = None
    requires: Mapping[str, int] = field(default_factory=_empty)
    light: bool = False
    reload: bool = False
    mounted_only: bool = False
    variants: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Armour:
    """Body armour: ``absorption`` is subtracted from damage, ``estorbo`` from some rolls."""

    name: str
    absorption: int
    estorbo: int
    requires: Mapping[str, int] = field(default_factory=_empty)
    special: bool = False


@dataclass(frozen=True, slots=True)
class Shield:
    """«Escudo Defensa +1, Cobertura +2»."""

    name: str
    defensa: int
    cover: int


@dataclass(frozen=True, slots=True)
class Advantage:
    """One of the fourteen «Ventajas»; ``effects`` is what the rules apply automatically."""

    name: str
    requires: Mapping[str, int]
    text: str
    effects: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Race:
    """A race of the «Razas» module and the effects the rules apply for it."""

    name: str
    text: str
    aliases: tuple[str, ...] = ()
    natural_absorption: int = 0
    can_wear_armour: bool = True
    no_advantage: bool = False
    pyramids: tuple[str, ...] = ("versatil", "especialista")
    px_per_session: int = 0
    free_advantages: tuple[str, ...] = ()
    free_advantage_choice: tuple[str, ...] = ()
    infravision: bool = False
    attribute_max: Mapping[str, int] = field(default_factory=_empty)


@dataclass(frozen=True, slots=True)
class Save:
    """A spell's «Salvación»: attribute and difficulty (or the difficulties to pick from)."""

    attribute: str
    difficulty: int | None = None
    difficulty_choices: tuple[int, ...] = ()
    plus_level: bool = False


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell of the «Magia» module; ``difficulty``/``mana_cost`` are None for Disipar Magia."""

    name: str
    difficulty: int | None
    mana_cost: int | None
    range: str
    text: str
    damage: str | None = None
    healing: str | None = None
    healing_per_mana_max: int | None = None
    ignores_armour: bool = False
    melee_attack: bool = False
    save: Save | None = None
    duration: str | None = None
    critical: tuple[str, ...] = ()
    dispel: bool = False
    effect: SpellEffectData | None = None


@dataclass(frozen=True, slots=True)
class SpellEffectData:
    """What a spell with a duration leaves on a character (``efecto`` in spells.json).

    ``target``: ``lanzador`` (personal), ``objetivo`` (whom the caster picks) or ``area``
    (whom the GM names); ``modifiers`` are ``(key, value, dice)`` as
    :class:`rules.combat.effects.Modifier`; ``action`` ``(kind, amount, percent)`` a
    per-turn roll (Aura de curación, Espejo de sombras); ``source`` cites the seed line.
    """

    target: str
    modifiers: tuple[tuple[str, int, str | None], ...] = ()
    action: tuple[str, str, int] | None = None
    source: str = ""


@dataclass(frozen=True, slots=True)
class CombatTable:
    """The numbers of «Combate» (``data/nucleo/combat.json``)."""

    actions_from: int
    actions_step: int
    movement_m: Mapping[str, int]
    square_m: float
    extra_die_per: int
    extra_die: str
    melee_modifiers: Mapping[str, int]
    two_weapons_bonus: int
    range_difficulties: Mapping[str, int]
    ranged_modifiers: Mapping[str, int]
    breath_dice: str


@dataclass(frozen=True, slots=True)
class Catalogue:
    """Everything in ``data/nucleo``, indexed by name."""

    attribute_points: int
    attribute_min: int
    attribute_max: int
    pyramids: Mapping[str, Mapping[int, int]]
    pyramid_labels: Mapping[str, str]
    skills: Mapping[str, Skill]
    skill_aliases: Mapping[str, str]
    weapons: Mapping[str, Weapon]
    unarmed_damage: str
    improvised_damage: str
    armour: Mapping[str, Armour]
    shields: Mapping[str, Shield]
    races: Mapping[str, Race]
    race_aliases: Mapping[str, str]
    advantages: Mapping[str, Advantage]
    spells: Mapping[str, Spell]
    attribute_difficulties: Mapping[str, int]
    skill_difficulties: Mapping[str, int]
    critical_margin: int
    infravision_penalty: int
    combat: CombatTable


@cache
def load(name: str) -> dict[str, Any]:
    """Parse ``data/nucleo/<name>.json`` once; the result is shared, treat it as read-only."""
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise DataError(f"missing nucleo data file: {path}")
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON in {path}: {exc}") from exc
    if not isinstance(value, dict) or not str(value.get("source", "")).startswith("seed 002"):
        raise DataError(f"{path}: top level must be an object citing its seed section")
    return value


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DataError(message)


def _requires(row: Mapping[str, Any], where: str) -> Mapping[str, int]:
    requires = row.get("requires", {})
    for attribute, value in requires.items():
        _check(attribute in ATTRIBUTES, f"{where}: unknown attribute {attribute!r}")
        _check(isinstance(value, int) and 4 <= value <= 10, f"{where}: bad requirement {value!r}")
    return _frozen(requires)


def _dice(expression: str, where: str) -> str:
    _check(
        isinstance(expression, str) and bool(_DICE.match(expression)), f"{where}: {expression!r}"
    )
    return expression


def _skills(doc: Mapping[str, Any]) -> tuple[dict[str, Skill], dict[str, str]]:
    _check(tuple(doc["attributes"]) == ATTRIBUTES, "skills.json: attributes differ from seed")
    skills: dict[str, Skill] = {}
    for row in doc["skills"]:
        _check(row["attribute"] in ATTRIBUTES, f"skill {row['name']}: bad attribute")
        _check(row["name"] not in skills, f"skill {row['name']}: duplicated")
        skills[row["name"]] = Skill(row["name"], row["attribute"])
    aliases = dict(doc.get("aliases", {}))
    for alias, target in aliases.items():
        _check(target in skills and alias not in skills, f"skill alias {alias!r}: bad target")
    return skills, aliases


def _pyramids(doc: Mapping[str, Any]) -> tuple[dict[str, Mapping[int, int]], dict[str, str]]:
    pyramids: dict[str, Mapping[int, int]] = {}
    labels: dict[str, str] = {}
    for key, row in doc["pyramids"].items():
        levels = {int(level): int(count) for level, count in row["levels"].items()}
        _check(set(levels) == set(range(1, 7)), f"pyramid {key}: levels must be 1..6")
        pyramids[key] = MappingProxyType(levels)
        labels[key] = row["label"]
    return pyramids, labels


def _weapon(row: Mapping[str, Any]) -> Weapon:
    where = f"weapon {row.get('name')!r}"
    _check(row["kind"] in {"cuerpo_a_cuerpo", "distancia"}, f"{where}: bad kind")
    damage = dict(row["damage"])
    _check(bool(damage) and set(damage) <= _GRIPS, f"{where}: bad grips {sorted(damage)}")
    for dice in damage.values():
        _dice(dice, where)
    ranges = row.get("ranges_m")
    if ranges is not None:
        _check(len(ranges) == 3 and list(ranges) == sorted(ranges), f"{where}: bad ranges")
        ranges = tuple(int(r) for r in ranges)
    _check(row["kind"] != "distancia" or ranges is not None, f"{where}: ranged without ranges")
    variants = {label: _dice(dice, where) for label, dice in row.get("variants", {}).items()}
    return Weapon(
        name=row["name"],
        kind=row["kind"],
        damage=_frozen(damage),
        ranges_m=ranges,
        requires=_requires(row, where),
        light=bool(row.get("light", False)),
        reload=bool(row.get("reload", False)),
        mounted_only=bool(row.get("mounted_only", False)),
        variants=_frozen(variants),
    )


def _armour(row: Mapping[str, Any]) -> Armour:
    where = f"armour {row.get('name')!r}"
    _check(row["absorption"] >= 0 and row["estorbo"] >= 0, f"{where}: negative value")
    return Armour(
        name=row["name"],
        absorption=int(row["absorption"]),
        estorbo=int(row["estorbo"]),
        requires=_requires(row, where),
        special=bool(row.get("special", False)),
    )


def _advantage(row: Mapping[str, Any]) -> Advantage:
    where = f"advantage {row.get('name')!r}"
    effects = dict(row["effects"])
    _check(set(effects) <= _EFFECTS, f"{where}: unknown effect in {sorted(effects)}")
    return Advantage(row["name"], _requires(row, where), row["text"], _frozen(effects))


def _race(row: Mapping[str, Any], advantages: Mapping[str, Advantage]) -> Race:
    where = f"race {row.get('name')!r}"
    free = tuple(row.get("free_advantages", ()))
    choice = tuple(row.get("free_advantage_choice", ()))
    _check(all(a in advantages for a in free + choice), f"{where}: unknown advantage")
    attribute_max = dict(row.get("attribute_max", {}))
    _check(set(attribute_max) <= set(ATTRIBUTES), f"{where}: bad attribute_max")
    return Race(
        name=row["name"],
        text=row["text"],
        aliases=tuple(row.get("aliases", ())),
        natural_absorption=int(row.get("natural_absorption", 0)),
        can_wear_armour=bool(row.get("can_wear_armour", True)),
        no_advantage=bool(row.get("no_advantage", False)),
        pyramids=tuple(row.get("pyramids", ("versatil", "especialista"))),
        px_per_session=int(row.get("px_per_session", 0)),
        free_advantages=free,
        free_advantage_choice=choice,
        infravision=bool(row.get("infravision", False)),
        attribute_max=_frozen(attribute_max),
    )


def _spell(row: Mapping[str, Any]) -> Spell:
    where = f"spell {row.get('name')!r}"
    _check(row["range"] in _RANGES, f"{where}: bad range type")
    critical = tuple(row.get("critical", ()))
    _check(set(critical) <= _CRITICALS, f"{where}: bad critical benefit")
    dispel = bool(row.get("dispel", False))
    _check(
        dispel or (isinstance(row["difficulty"], int) and isinstance(row["mana_cost"], int)),
        f"{where}: difficulty and mana cost are required",
    )
    save = None
    if "save" in row:
        raw = row["save"]
        _check(raw["attribute"] in ATTRIBUTES, f"{where}: bad save attribute")
        _check("difficulty" in raw or "difficulty_choices" in raw, f"{where}: save difficulty")
        save = Save(
            attribute=raw["attribute"],
            difficulty=raw.get("difficulty"),
            difficulty_choices=tuple(raw.get("difficulty_choices", ())),
            plus_level=bool(raw.get("plus_level", False)),
        )
    damage = row.get("damage")
    healing = row.get("healing")
    return Spell(
        name=row["name"],
        difficulty=row["difficulty"],
        mana_cost=row["mana_cost"],
        range=row["range"],
        text=row["text"],
        damage=_dice(damage, where) if damage else None,
        healing=healing,
        healing_per_mana_max=row.get("healing_per_mana_max"),
        ignores_armour=bool(row.get("ignores_armour", False)),
        melee_attack=bool(row.get("melee_attack", False)),
        save=save,
        duration=row.get("duration"),
        critical=critical,
        dispel=dispel,
        effect=_spell_effect(row.get("efecto"), where),
    )


_EFFECT_TARGETS = frozenset({"lanzador", "objetivo", "area"})


def _spell_effect(raw: Any, where: str) -> SpellEffectData | None:
    if raw is None:
        return None
    _check(raw.get("objetivo") in _EFFECT_TARGETS, f"{where}: bad effect target")
    modifiers = tuple(
        (str(m["clave"]), int(m.get("valor", 0)), m.get("dados"))
        for m in raw.get("modificadores", ())
    )
    action = raw.get("accion")
    return SpellEffectData(
        target=raw["objetivo"],
        modifiers=modifiers,
        action=(
            str(action["tipo"]),
            str(action.get("cantidad", "")),
            int(action.get("porcentaje", 0)),
        )
        if action
        else None,
        source=str(raw.get("fuente", "")),
    )


def _index(rows: list[Any], where: str) -> dict[str, Any]:
    index: dict[str, Any] = {}
    for row in rows:
        _check(row.name not in index, f"{where}: duplicated {row.name!r}")
        index[row.name] = row
    return index


def _combat(doc: Mapping[str, Any]) -> CombatTable:
    movement = {k: int(v) for k, v in doc["movement_m"].items()}
    _check(set(movement) == {"mayor", "menor", "maximo"}, "combat.json: movement_m keys")
    ranges = {k: int(v) for k, v in doc["range_difficulties"].items()}
    _check(list(ranges.values()) == sorted(ranges.values()), "combat.json: range difficulties")
    return CombatTable(
        actions_from=int(doc["actions_from"]),
        actions_step=int(doc["actions_step"]),
        movement_m=_frozen(movement),
        square_m=float(doc["square_m"]),
        extra_die_per=int(doc["extra_die_per"]),
        extra_die=_dice(doc["extra_die"], "combat.json"),
        melee_modifiers=_frozen({k: int(v) for k, v in doc["melee_modifiers"].items()}),
        two_weapons_bonus=int(doc["two_weapons_bonus"]),
        range_difficulties=_frozen(ranges),
        ranged_modifiers=_frozen({k: int(v) for k, v in doc["ranged_modifiers"].items()}),
        breath_dice=_dice(doc["breath_dice"], "combat.json"),
    )


def _difficulties(table: Mapping[str, Any], where: str) -> Mapping[str, int]:
    values = [int(v) for v in table.values()]
    _check(len(values) == 5 and values == sorted(values), f"{where}: five rising difficulties")
    return _frozen({k: int(v) for k, v in table.items()})


@cache
def catalogue() -> Catalogue:
    """All Núcleo data, loaded and validated once."""
    skills_doc = load("skills")
    checks_doc = load("checks")
    skills, aliases = _skills(skills_doc)
    pyramids, labels = _pyramids(skills_doc)
    weapons_doc = load("weapons")
    armour_doc = load("armour")
    advantages = _index([_advantage(r) for r in load("advantages")["advantages"]], "advantages")
    races = _index([_race(r, advantages) for r in load("races")["races"]], "races")
    race_aliases = {alias: race.name for race in races.values() for alias in race.aliases}
    spells = _index([_spell(r) for r in load("spells")["spells"]], "spells")
    _check(not set(spells) & set(skills), "a spell shares its name with a skill")
    return Catalogue(
        attribute_points=int(skills_doc["attribute_points"]),
        attribute_min=int(skills_doc["attribute_min"]),
        attribute_max=int(skills_doc["attribute_max"]),
        pyramids=MappingProxyType(pyramids),
        pyramid_labels=MappingProxyType(labels),
        skills=MappingProxyType(skills),
        skill_aliases=MappingProxyType(aliases),
        weapons=MappingProxyType(_index([_weapon(r) for r in weapons_doc["weapons"]], "weapons")),
        unarmed_damage=_dice(weapons_doc["unarmed"]["damage"], "unarmed"),
        improvised_damage=_dice(weapons_doc["improvised"]["damage"], "improvised"),
        armour=MappingProxyType(_index([_armour(r) for r in armour_doc["armour"]], "armour")),
        shields=MappingProxyType(
            {
                r["name"]: Shield(r["name"], int(r["defensa"]), int(r["cover"]))
                for r in armour_doc["shields"]
            }
        ),
        races=MappingProxyType(races),
        race_aliases=MappingProxyType(race_aliases),
        advantages=MappingProxyType(advantages),
        spells=MappingProxyType(spells),
        attribute_difficulties=_difficulties(checks_doc["attribute_difficulties"], "attribute"),
        skill_difficulties=_difficulties(checks_doc["skill_difficulties"], "skill"),
        critical_margin=int(checks_doc["critical_margin"]),
        infravision_penalty=int(checks_doc["infravision_penalty"]),
        combat=_combat(load("combat")),
    )
