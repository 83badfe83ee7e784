"""Timed effects and conditions that belong to a character (issue 11 §3).

An effect is data stored **with the sheet** under one key, :data:`EFFECTS_KEY`, as
``{"_v": 1, "lista": [...]}``, so it outlives a fight and travels with ``/sheet export``.
Each effect has a name, a duration in rounds (None: until removed) and either modifiers
keyed by what they modify, or a labelled text (Espejo de sombras, Duplicación, Luz) with,
optionally, a rollable per-turn action (:class:`TurnAction`: a heal, a chance to miss).

Modifier keys (:data:`KEYS`): ``check`` (every check), ``check:<option>`` (one ``/check``
option, e.g. ``check:habilidad:Sigilo``), ``attribute:<name>`` (every roll of that
attribute and the skills based on it), ``defence`` (AC/Defensa), ``to_hit``, ``damage``
(a number, or ``dice`` such as ``1d6``), ``saves``, ``absorption``.  The systems add the
active modifiers to ``check``, ``attack``, saves and ``derived`` and name them (the effect's
name) in the result.  Effects tick at their owner's turn (:func:`tick`) and an expired
effect is reported once with its name.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass, replace
from typing import Any

from rules import dice
from rules.systems.base import DerivedValue, Problem, RulesError, Sheet

__all__ = [
    "ABSORPTION",
    "CHECK",
    "DAMAGE",
    "DEFENCE",
    "EFFECTS_KEY",
    "EFFECTS_VERSION",
    "KEYS",
    "MAX_EFFECTS",
    "SAVES",
    "TO_HIT",
    "ActionRoll",
    "Effect",
    "Modifier",
    "Tick",
    "TurnAction",
    "add",
    "adjust_derived",
    "begin_turn",
    "end_of_fight",
    "end_turn",
    "check_modifiers",
    "option_modifiers",
    "damage_dice",
    "effects",
    "modifiers_for",
    "remove",
    "roll_action",
    "tick",
]

EFFECTS_KEY = "efectos"
EFFECTS_VERSION = 1
MAX_EFFECTS = 20
MAX_ROUNDS = 1000

CHECK = "check"
DEFENCE = "defence"
TO_HIT = "to_hit"
DAMAGE = "damage"
SAVES = "saves"
ABSORPTION = "absorption"
#: Fixed keys; ``check:<option>`` and ``attribute:<name>`` are prefixes.
KEYS: tuple[str, ...] = (CHECK, DEFENCE, TO_HIT, DAMAGE, SAVES, ABSORPTION)
_PREFIXES = ("check:", "attribute:")


def _rounds(rounds: int | None) -> str:
    """« (3 asaltos)», « (1 asalto)» (was «1 asaltos»), nothing until removed."""
    if rounds is None:
        return ""
    return f" ({rounds} asalto)" if rounds == 1 else f" ({rounds} asaltos)"


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(f"effects.problem.{key}", "", params))


@dataclass(frozen=True, slots=True)
class Modifier:
    """``value`` added to what ``key`` names; ``dice`` (``"1d6"``) for a rolled damage bonus."""

    key: str
    value: int = 0
    dice: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"clave": self.key, "valor": self.value}
        if self.dice:
            out["dados"] = self.dice
        return out


@dataclass(frozen=True, slots=True)
class TurnAction:
    """Something the bot rolls at the owner's turn: ``heal`` (``amount`` dice or number,
    Aura de curación) or ``miss_chance`` (``percent``, Espejo de sombras: attacks against
    the owner miss on that roll of d100)."""

    kind: str
    amount: str = ""
    percent: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"tipo": self.kind, "cantidad": self.amount, "porcentaje": self.percent}


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect on a character; ``rounds`` None lasts until removed."""

    name: str
    rounds: int | None = None
    modifiers: tuple[Modifier, ...] = ()
    text: str = ""
    action: TurnAction | None = None
    source: str = ""
    #: its owner has begun a turn with it (:func:`begin_turn`): the end of that turn counts
    #: a round; one added during its owner's turn starts counting at the next
    started: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = {
            "nombre": self.name,
            "asaltos": self.rounds,
            "modificadores": [m.to_dict() for m in self.modifiers],
            "texto": self.text,
            "accion": self.action.to_dict() if self.action else None,
            "origen": self.source,
        }
        if self.started:
            out["en_curso"] = True
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Effect:
        action = raw.get("accion")
        return cls(
            name=str(raw["nombre"]),
            rounds=None if raw.get("asaltos") is None else int(raw["asaltos"]),
            modifiers=tuple(
                Modifier(str(m["clave"]), int(m.get("valor", 0)), m.get("dados") or None)
                for m in raw.get("modificadores") or ()
            ),
            text=str(raw.get("texto", "")),
            action=TurnAction(
                str(action["tipo"]),
                str(action.get("cantidad", "")),
                int(action.get("porcentaje", 0)),
            )
            if action
            else None,
            source=str(raw.get("origen", "")),
            started=bool(raw.get("en_curso", False)),
        )


def validate(effect: Effect) -> Effect:
    """Refuse what the bot could not apply: an empty name, a bad duration or key, bad dice."""
    name = effect.name.strip()
    if not name or len(name) > 60:
        raise _refuse("bad_name", name=effect.name)
    if effect.rounds is not None and not 1 <= effect.rounds <= MAX_ROUNDS:
        raise _refuse("bad_rounds", rounds=effect.rounds, maximum=MAX_ROUNDS)
    for mod in effect.modifiers:
        if mod.key not in KEYS and not mod.key.startswith(_PREFIXES):
            raise _refuse("bad_key", modifier=mod.key, keys=", ".join(KEYS))
        if mod.dice is not None:
            try:
                dice.parse(mod.dice)
            except dice.DiceError:
                raise _refuse("bad_dice", dice=mod.dice) from None
    if effect.action is not None and effect.action.kind not in ("heal", "miss_chance"):
        raise _refuse("bad_action", action=effect.action.kind)
    return replace(effect, name=name)


def effects(sheet: Sheet) -> tuple[Effect, ...]:
    """The sheet's effects (any stored version; a sheet without the key has none)."""
    raw = sheet.get(EFFECTS_KEY)
    if not isinstance(raw, Mapping):
        return ()
    if int(raw.get("_v", 1)) > EFFECTS_VERSION:
        raise _refuse("newer_version", version=raw.get("_v"))
    return tuple(Effect.from_dict(e) for e in raw.get("lista") or ())


def _store(sheet: Sheet, found: Iterable[Effect]) -> dict[str, Any]:
    new = deepcopy(dict(sheet))
    items = [e.to_dict() for e in found]
    if items:
        new[EFFECTS_KEY] = {"_v": EFFECTS_VERSION, "lista": items}
    else:
        new.pop(EFFECTS_KEY, None)
    return new


def add(sheet: Sheet, effect: Effect) -> dict[str, Any]:
    """A copy of ``sheet`` with ``effect``; an effect of the same name is replaced (a spell
    cast again restarts its duration instead of stacking)."""
    effect = validate(effect)
    kept = [e for e in effects(sheet) if e.name.casefold() != effect.name.casefold()]
    if len(kept) >= MAX_EFFECTS:
        raise _refuse("too_many", limit=MAX_EFFECTS)
    return _store(sheet, [*kept, effect])


def remove(sheet: Sheet, name: str) -> tuple[dict[str, Any], Effect]:
    """A copy without the effect ``name`` (case-insensitive) and the effect removed."""
    current = effects(sheet)
    match = next((e for e in current if e.name.casefold() == name.strip().casefold()), None)
    if match is None:
        raise _refuse("unknown_effect", name=name)
    return _store(sheet, [e for e in current if e is not match]), match


@dataclass(frozen=True, slots=True)
class Tick:
    """What the owner's turn did: the new sheet, effects that ended, effects whose turn
    action the bot must roll (:func:`roll_action`)."""

    sheet: dict[str, Any]
    expired: tuple[Effect, ...]
    actions: tuple[Effect, ...]


def tick(sheet: Sheet) -> Tick:
    """A whole turn of the owner at once (:func:`begin_turn` then :func:`end_turn`)."""
    begun = begin_turn(sheet)
    ended = end_turn(begun.sheet)
    return Tick(ended.sheet, ended.expired, begun.actions)


def begin_turn(sheet: Sheet) -> Tick:
    """The owner's turn begins: its effects are in play for this turn (they count a round
    when it ends) and the turn actions the bot rolls are due (Aura de curación heals now, so
    a 1-round aura heals once)."""
    current = effects(sheet)
    actions = tuple(e for e in current if e.action is not None)
    return Tick(_store(sheet, [replace(e, started=True) for e in current]), (), actions)


def end_turn(sheet: Sheet) -> Tick:
    """The owner's turn ends: each timed effect that was in play since the turn began loses
    a round and expires at 0 — so an effect of *N* rounds affects *N* of its owner's turns
    (issue 23 §2; the seeds count durations in «turnos»).  One added during this turn
    (a spell its owner just cast) is not counted yet."""
    kept: list[Effect] = []
    expired: list[Effect] = []
    for effect in effects(sheet):
        if effect.rounds is None or not effect.started:
            kept.append(effect)
        elif effect.rounds <= 1:
            expired.append(effect)
        else:
            kept.append(replace(effect, rounds=effect.rounds - 1))
    return Tick(_store(sheet, kept), tuple(expired), ())


def end_of_fight(sheet: Sheet, keep: bool = False) -> Tick:
    """The fight ends: effects measured in rounds end with it (issue 23 §2: «Bendición
    (2 asaltos)» outlived ``/init end``), unless the GM keeps them; those until removed
    stay.  Kept ones start counting afresh in the next fight."""
    if keep:
        return Tick(_store(sheet, [replace(e, started=False) for e in effects(sheet)]), (), ())
    ended = tuple(e for e in effects(sheet) if e.rounds is not None)
    kept = [e for e in effects(sheet) if e.rounds is None]
    return Tick(_store(sheet, kept), ended, ())


def modifiers_for(sheet: Sheet, *keys: str) -> list[tuple[str, int]]:
    """``(effect name, value)`` of every numeric modifier on any of ``keys``."""
    wanted = set(keys)
    return [
        (effect.name, mod.value)
        for effect in effects(sheet)
        for mod in effect.modifiers
        if mod.key in wanted and mod.value
    ]


def check_modifiers(
    sheet: Sheet, option: str, attribute: str | None = None
) -> list[tuple[str, int]]:
    """The modifiers a ``/check`` of ``option`` gets: every check, that option, and the
    attribute it rolls (Niebla −2 to Percepción reaches the skills based on Percepción)."""
    keys = [CHECK, f"check:{option}"]
    if attribute:
        keys.append(f"attribute:{attribute}")
    return modifiers_for(sheet, *keys)


def damage_dice(sheet: Sheet) -> list[tuple[str, str]]:
    """``(effect name, dice)`` of rolled damage bonuses (Arma de fuego +1d6)."""
    return [
        (effect.name, mod.dice)
        for effect in effects(sheet)
        for mod in effect.modifiers
        if mod.key == DAMAGE and mod.dice
    ]


@dataclass(frozen=True, slots=True)
class ActionRoll:
    """A rolled turn action: ``amount`` healed, or ``missed`` for a miss chance."""

    effect: str
    kind: str
    expression: str
    total: int
    breakdown: str
    amount: int = 0
    missed: bool = False


def roll_action(effect: Effect, rng: random.Random) -> ActionRoll:
    """Roll an effect's turn action: the heal of Aura de curación, the 50 % of Espejo de
    sombras (d100 ≤ percent: the attack misses)."""
    if effect.action is None:
        raise _refuse("no_action", name=effect.name)
    if effect.action.kind == "heal":
        rolled = dice.roll(effect.action.amount, rng)
        amount = max(0, rolled.total)
        return ActionRoll(effect.name, "heal", rolled.expression, rolled.total, str(rolled), amount)
    rolled = dice.roll("1d100", rng)
    missed = rolled.total <= effect.action.percent
    return ActionRoll(
        effect.name, "miss_chance", rolled.expression, rolled.total, str(rolled), missed=missed
    )


def option_modifiers(
    sheet: Sheet, option: str, attribute: str | None = None
) -> list[tuple[str, int]]:
    """:func:`check_modifiers` plus ``saves`` for a saving throw option (``salvacion…``);
    ``attribute`` defaults to the one an ``atributo:<name>`` option names."""
    kind, _, name = option.partition(":")
    if attribute is None and kind == "atributo":
        attribute = name
    found = check_modifiers(sheet, option, attribute)
    if kind.startswith("salvacion"):
        found += modifiers_for(sheet, SAVES)
    return found


def adjust_derived(
    values: Iterable[DerivedValue], sheet: Sheet, keys: Mapping[str, tuple[str, int]]
) -> tuple[DerivedValue, ...]:
    """``/sheet show`` with active effects: each derived value named in ``keys`` (``"defensa"``
    → ``(DEFENCE, 1)``; a descending AC → ``(DEFENCE, -1)``) gets the modifiers on that effect
    key, named in its formula, and one ``efectos`` line lists the effects with rounds left."""
    active = effects(sheet)
    out = []
    for value in values:
        wanted = keys.get(value.key)
        if wanted is None or not active or not isinstance(value.value, int):
            out.append(value)
            continue
        mods = modifiers_for(sheet, wanted[0])
        total = value.value + wanted[1] * sum(v for _, v in mods)
        formula = value.formula + "".join(f" {v:+d} {n}" for n, v in mods)
        out.append(replace(value, value=total, formula=formula))
    if active:
        listed = ", ".join(e.name + _rounds(e.rounds) for e in active)
        out.append(DerivedValue("efectos", "Efectos", listed, "", "efectos"))
    return tuple(out)
