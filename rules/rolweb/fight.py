"""``/attack`` in rolweb (seed 001, DEFENSA, VENTAJA, DAÑO Y CURACIÓN, UMBRAL DE DOLOR).

Players always roll («Las tiradas siempre corren a cargo de los Jugadores», seed 001 line 9):

* a character attacking rolls ``[Diestro←Defensa]`` (or the attribute a ``atributo:<name>``
  circumstance names) with the project's opposed reading, A + (10 − B) + modifiers;
* an NPC attacking a character (``defender_rolls``) rolls nothing: the result is a
  :class:`~rules.combat.attack.DefenceRequest` for that character's player, who rolls
  ``[Defensa←Diestro]`` through :func:`resolve_defence` (DEFENSA: «Un personaje que reciba
  un ataque debe hacer una tirada de [Defensa←Diestro]»).

A hit deals the weapon's roll (+1D4 with advantage, VENTAJA) minus the target's armour
roll, never below 0; the Umbral de dolor (half Fuerte, rounded up) is announced when the
damage reaches it; ``apply_damage`` then kills an NPC at 0 and leaves a character moribundo.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from rules.combat import effects
from rules.combat.attack import (
    AttackOutcome,
    AttackRequest,
    AttackResult,
    DefenceRequest,
    Fighter,
    RollLine,
    TargetChange,
)
from rules.combat.health import CombatState, Condition
from rules.rolweb import offers
from rules.rolweb import sheet as sheets
from rules.rolweb.checks import Chances, TestRoll, opposed_target, roll_test
from rules.rolweb.combat import AdvantageReason, advantage, defence
from rules.rolweb.damage import LifeState, roll_damage
from rules.rolweb.equipment import Shield, Weapon, load_weapons
from rules.rolweb.pain import is_prone, owed, prone_advantage
from rules.rolweb.settings import RolwebSettings, parse_settings
from rules.systems.base import Outcome, Problem, RulesError, Settings, Sheet, StepOption

__all__ = [
    "HERIDO",
    "ILESO",
    "STANDING_STATES",
    "attack",
    "combat_state",
    "resolve_defence",
    "weapons",
]

#: A character standing (``LifeState.ACTIVE``) as the tracker shows it: «ileso» at full
#: Resistencia, «herido» below it.  Ids of the ``estado`` names table, like the life states.
ILESO, HERIDO = "ileso", "herido"
STANDING_STATES: tuple[str, ...] = (ILESO, HERIDO)

_ATTRIBUTE = "atributo:"


#: LUCHAR A CIEGAS from the defender's side: a hindered attacker gives the defender the
#: better of two d20, a hindered defender the worse (the players roll their defence)
_DEFENDER = {Chances.ONE: "1", Chances.WORSE: "mejor", Chances.BETTER: "peor"}


def _refuse(key: str, **params: Any) -> RulesError:
    return RulesError(Problem(key, "", params))


def weapons(sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
    """The sheet's weapons with their damage, or the campaign's natural weapon."""
    parsed = parse_settings(settings)
    carried = sheets.weapons(sheet, parsed) or _natural(parsed)
    return tuple(StepOption(w.name, w.name, w.damage) for w in carried)


def _natural(parsed: RolwebSettings) -> tuple[Weapon, ...]:
    return tuple(w for w in load_weapons(parsed) if w.is_natural)[:1]


def _weapon(fighter: Fighter, name: str | None, parsed: RolwebSettings) -> tuple[str, str]:
    """(label, damage dice) of the attacker's weapon."""
    if fighter.sheet is None:
        if not fighter.damage:
            raise _refuse("rolweb.problem.attack_needs_damage", name=fighter.name)
        return name or fighter.name, fighter.damage
    carried = sheets.weapons(fighter.sheet, parsed)
    if name is not None:
        carried = tuple(w for w in carried if w.name.casefold() == name.casefold())
        if not carried:
            raise _refuse("rolweb.problem.unknown_weapon", name=name)
    carried = carried or _natural(parsed)
    if not carried:
        raise _refuse("rolweb.problem.unknown_weapon", name="Natural")
    return carried[0].name, carried[0].damage


def _weapon_of(fighter: Fighter, name: str | None, parsed: RolwebSettings) -> Weapon | None:
    """The attacker's weapon object (None for a sheetless combatant: the GM's dice)."""
    if fighter.sheet is None:
        return None
    carried = sheets.weapons(fighter.sheet, parsed)
    if name is not None:
        carried = tuple(w for w in carried if w.name.casefold() == name.casefold())
    carried = carried or _natural(parsed)
    return carried[0] if carried else None


def _offers(
    request: AttackRequest, parsed: RolwebSettings
) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    """The seed's combat rules the circumstances name (rules.rolweb.offers): the VENTAJA
    reasons, whether the attack is ranged, and the notes (a refusal raises)."""
    situation = offers.situation(request.circumstances)
    reasons, ranged, notes = _situated(request, situation, parsed)
    return reasons, ranged, notes + situation.blind_notes


def _situated(
    request: AttackRequest, situation: offers.Situation, parsed: RolwebSettings
) -> tuple[tuple[str, ...], bool, tuple[str, ...]]:
    weapon = _weapon_of(request.attacker, request.weapon, parsed)
    ranged = request.ranged or (weapon is not None and weapon.is_ranged)
    notes = offers.check_line_of_sight(ranged, situation.line_blocked, situation.override)
    shield = sheets.shield(request.attacker.sheet) if request.attacker.sheet else None
    opponent = _weapon_of(request.target, None, parsed) if request.target.sheet else None
    notes += offers.check_free_attack(
        situation.free_attack, weapon, shield or Shield.NONE, opponent, ranged
    )
    notes += offers.check_reach(request.engaged, request.attacker.name, ranged, situation.override)
    reasons = tuple(dict.fromkeys((*request.advantage, *situation.advantage)))
    if not ranged and prone_advantage(request.attacker.sheet, request.target.sheet):
        # VENTAJA line 216 / LEVANTARSE line 181: melee against one on the ground
        reasons = tuple(dict.fromkeys((*reasons, AdvantageReason.PRONE.value)))
        notes = (*notes, "rolweb.note.target_prone")
    return reasons, ranged, notes


def _defence(fighter: Fighter, parsed: RolwebSettings) -> int | None:
    if fighter.sheet is None:
        return fighter.defence
    sheet = fighter.sheet
    value = defence(
        sheets.attribute(sheet, "Ágil"), sheets.shield(sheet), sheets.armour(sheet, parsed)
    )
    return value + sum(v for _, v in effects.modifiers_for(sheet, effects.DEFENCE))


def _armour(fighter: Fighter, parsed: RolwebSettings) -> str | None:
    if fighter.sheet is None:
        return fighter.armour or None
    worn = sheets.armour(fighter.sheet, parsed)
    return worn.protection if worn else None


def _attribute(fighter: Fighter, name: str, parsed: RolwebSettings | None = None) -> int:
    """The attacker's attribute; a sheetless one's is the ``bonus`` the GM gave (issue 23 §5:
    «bonus:2» was silently its Diestro, and the defence an automatic success).  In a
    roll-under game a bonus is an attribute, so one below the lowest an attribute can be
    (``creacion_minimo``) is refused as the modifier it surely meant."""
    if fighter.sheet is None:
        if fighter.attack_bonus is None:
            raise _refuse("rolweb.problem.attack_needs_bonus", name=fighter.name)
        if parsed is not None and fighter.attack_bonus < parsed.minimum:
            raise _refuse(
                "rolweb.problem.sheetless_attribute_low",
                name=fighter.name,
                attribute=name,
                value=fighter.attack_bonus,
                minimum=parsed.minimum,
            )
        return fighter.attack_bonus
    return sheets.attribute(fighter.sheet, name)


def _hit_points(fighter: Fighter) -> int | None:
    if fighter.sheet is None:
        return fighter.hit_points
    return sheets.current_toughness(fighter.sheet)


def _line(label: str, test: TestRoll) -> RollLine:
    return RollLine(label, test.expression, test.kept, test.breakdown)


def _damage(
    attacker: Fighter,
    target: Fighter,
    weapon: str | None,
    reasons: tuple[str, ...],
    ranged: bool,
    parsed: RolwebSettings,
    rng: random.Random,
) -> tuple[str, tuple[RollLine, ...], int, list[str]]:
    label, dice_ = _weapon(attacker, weapon, parsed)
    extra = advantage(reasons, ranged).active
    if attacker.sheet is not None:
        for _name, extra_dice in effects.damage_dice(attacker.sheet):
            dice_ += f"+{extra_dice}"
    rolled = roll_damage(dice_, _armour(target, parsed), rng, extra)
    lines = [RollLine("Daño", rolled.expression, rolled.weapon, rolled.weapon_breakdown)]
    if rolled.armour_breakdown:
        lines.append(RollLine("Armadura", "", rolled.armour, rolled.armour_breakdown))
    # the pain threshold is announced when the wound is written (``apply_damage``): only
    # there is it known whether the target still stands to choose (not dead nor dying)
    notes = ["rolweb.note.advantage_damage"] if extra else []
    return label, tuple(lines), rolled.damage, notes


def attack(request: AttackRequest, settings: Settings, rng: random.Random) -> AttackResult:
    """``[Diestro←Defensa]`` by the attacker's player, or a defence request for the target's."""
    parsed = parse_settings(settings)
    attribute = next(
        (c.removeprefix(_ATTRIBUTE) for c in request.circumstances if c.startswith(_ATTRIBUTE)),
        "Diestro",
    )
    reasons, ranged, offered = _offers(request, parsed)
    blind = offers.situation(request.circumstances).chances
    adv = advantage(reasons, ranged)
    named: list[tuple[str, int]] = []
    if request.attacker.sheet is not None:
        named += effects.modifiers_for(
            request.attacker.sheet, effects.TO_HIT, f"attribute:{attribute}"
        )
    if request.modifier:
        named.append(("Modificador", request.modifier))
    own = _attribute(request.attacker, attribute, parsed)
    if request.attacker.sheet is None:  # say what the GM's bonus was taken for
        offered = (*offered, "rolweb.note.sheetless_attribute")
    defensa = _defence(request.target, parsed)
    if request.defender_rolls:
        if request.target.sheet is None or defensa is None:
            raise _refuse("rolweb.problem.defence_needs_sheet", name=request.target.name)
        modifier = adv.defender_modifier - sum(v for _, v in named)
        target = opposed_target(defensa, own, modifier)
        label, _ = _weapon(request.attacker, request.weapon, parsed)
        defence_request = DefenceRequest(
            request.attacker, request.target, request.weapon, target,
            tuple(r.value for r in adv.reasons), modifier, offered, _DEFENDER[blind],
        )  # fmt: skip
        return AttackResult(
            AttackOutcome.DEFENCE_REQUESTED, label, None, None, target, defensa,
            modifiers=tuple(named), notes=("rolweb.note.defence_requested", *offered),
            extra={"ranged": ranged},
            defence_request=defence_request, hit_points_left=_hit_points(request.target),
        )  # fmt: skip
    if adv.active:
        named.append(("Ventaja", adv.test_modifier))
    modifier = sum(v for _, v in named)
    label, _ = _weapon(request.attacker, request.weapon, parsed)
    if defensa is None:
        test = roll_test(own + modifier, rng, parsed.naturals, blind)
        return AttackResult(
            AttackOutcome.UNJUDGED, label, _line(f"{attribute}", test), test.kept, None, None,
            natural=test.kept, modifiers=tuple(named),
            notes=("rolweb.note.attack_unjudged", *offered),
            extra={"valor": own, "modificador": modifier, "ranged": ranged},
        )  # fmt: skip
    target = opposed_target(own, defensa, modifier)
    test = roll_test(target, rng, parsed.naturals, blind)
    line = _line(f"{attribute}←Defensa", test)
    hp = _hit_points(request.target)
    critical, fumble = test.outcome is Outcome.CRITICAL, test.outcome is Outcome.FUMBLE
    if not test.success:
        return AttackResult(
            AttackOutcome.MISS, label, line, test.kept, target, defensa, fumble=fumble,
            natural=test.kept, modifiers=tuple(named), hit_points_left=hp, notes=offered,
            extra={"ranged": ranged},
        )  # fmt: skip
    label, rolls, amount, notes = _damage(
        request.attacker, request.target, request.weapon, reasons, ranged, parsed, rng,
    )  # fmt: skip
    notes = [*offered, *notes]
    return AttackResult(
        AttackOutcome.HIT, label, line, test.kept, target, defensa, critical=critical,
        natural=test.kept, damage_rolls=rolls, damage=amount,
        change=TargetChange("damage", amount), modifiers=tuple(named), notes=tuple(notes),
        hit_points_left=None if hp is None else max(0, hp - amount), extra={"ranged": ranged},
    )  # fmt: skip


def resolve_defence(
    request: DefenceRequest, settings: Settings, rng: random.Random
) -> AttackResult:
    """The target's player rolls ``[Defensa←Diestro]``: success parries or dodges (a miss);
    failure takes the attacker's weapon (+1D4 with advantage) minus the armour roll.  The
    notes the request was made with (a free attack's) come first."""
    result = _defend(request, settings, rng)
    offered = request.notes
    return replace(result, notes=(*offered, *(n for n in result.notes if n not in offered)))


def _defend(request: DefenceRequest, settings: Settings, rng: random.Random) -> AttackResult:
    parsed = parse_settings(settings)
    chances = {"peor": Chances.WORSE, "mejor": Chances.BETTER}.get(request.chances, Chances.ONE)
    test = roll_test(request.target, rng, parsed.naturals, chances)
    line = _line("Defensa←Diestro", test)
    defensa = _defence(request.defender, parsed)
    hp = _hit_points(request.defender)
    label, _ = _weapon(request.attacker, request.weapon, parsed)
    weapon = _weapon_of(request.attacker, request.weapon, parsed)
    ranged: dict[str, object] = {"ranged": weapon is not None and weapon.is_ranged}
    if test.success:
        return AttackResult(
            AttackOutcome.MISS, label, line, test.kept, request.target, defensa,
            natural=test.kept, notes=("rolweb.note.defended",), hit_points_left=hp, extra=ranged,
        )  # fmt: skip
    label, rolls, amount, notes = _damage(
        request.attacker, request.defender, request.weapon, request.advantage,
        False, parsed, rng,
    )  # fmt: skip
    return AttackResult(
        AttackOutcome.HIT, label, line, test.kept, request.target, defensa,
        fumble=test.outcome is Outcome.FUMBLE, natural=test.kept, damage_rolls=rolls,
        damage=amount, change=TargetChange("damage", amount), notes=tuple(notes),
        hit_points_left=None if hp is None else max(0, hp - amount), extra=ranged,
    )  # fmt: skip


def combat_state(sheet: Sheet, settings: Settings) -> CombatState:
    """PERSONAJES MORIBUNDOS (seed 001): a moribundo character keeps its place but its turn
    is the death test (``turn_test = "muerte"``, rolled with ``check``; its result is the
    state transition) and it can do nothing else («no puede hacer nada por curarse a sí
    mismo»); the dead leave the order.  A character standing is «ileso» at full Resistencia
    and «herido» below it — the words a player may read about a hidden NPC.  Labels and
    descriptions are ids of the ``estado`` names table (:data:`STANDING_STATES` and the life
    states); :func:`rules.names.display_state` names them in the reader's language."""
    life = sheets.state(sheet)
    left, maximum = sheets.current_toughness(sheet), sheets.max_toughness(sheet)
    if life is LifeState.DEAD:
        return CombatState(
            Condition.DEAD, life.value, life.value, skip_turn=True, allowed=frozenset(),
            reason="combat.problem.cannot_act", description=life.value,
            hit_points=(left, maximum),
        )  # fmt: skip
    if life is LifeState.DYING:
        return CombatState(
            Condition.DYING, life.value, life.value, turn_test="muerte", allowed=frozenset(),
            reason="combat.problem.cannot_act", description=life.value,
            hit_points=(left, maximum),
        )  # fmt: skip
    wounded = left < maximum
    word = HERIDO if wounded else ILESO
    return CombatState(
        Condition.WOUNDED if wounded else Condition.OK, life.value, word,
        description=word, hit_points=(left, maximum),
        prone=is_prone(sheet), choice_owed=bool(owed(sheet)),
    )  # fmt: skip
