"""``SYSTEM``: rolweb behind the common :class:`~rules.systems.base.GameSystem` interface.

This module only translates between the interface (sheets as dicts, requests, settings
mappings) and the topic modules; every rule lives in those modules.  Check options are
``atributo:<name>`` for each attribute, ``defensa``, and ``muerte`` while dying.
Circumstances: ``dos_oportunidades_peor`` / ``dos_oportunidades_mejor`` (LUCHAR A CIEGAS;
both together cancel), ``ventaja`` (+2) and ``ventaja_enemigo`` (-2: the NPC attacking a
player has advantage).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from rules.combat import effects
from rules.combat.actions import Allowance, Use
from rules.combat.attack import AttackRequest, AttackResult, DefenceRequest
from rules.combat.health import CombatState
from rules.rolweb import actions as rolweb_actions
from rules.rolweb import (
    belongings,
    builder,
    fight,
    offers,
    pain,
    recovery,
    situations,
    spellbook,
    use,
)
from rules.rolweb import sheet as sheets
from rules.rolweb.abilities import Level, find_ability, load_abilities
from rules.rolweb.advancement import grant, spend_for, upgrade_cost
from rules.rolweb.ambush import ambush as roll_ambush
from rules.rolweb.checks import (
    Chances,
    TestRoll,
    judge,
    opposed_modifier,
    roll_test,
    simple_target,
)
from rules.rolweb.combat import ADVANTAGE_BONUS, defence
from rules.rolweb.damage import (
    DamageRoll,
    LifeState,
    heal,
    pain_threshold,
    roll_damage,
    roll_death_test,
    take_damage,
)
from rules.rolweb.equipment import load_weapons
from rules.rolweb.initiative import roll_initiative
from rules.rolweb.settings import SETTING_SPECS, DeathRule, RolwebSettings, parse_settings
from rules.systems.base import (
    ActRequest,
    AdvanceResult,
    AmbushRoll,
    AmbushSetup,
    CheckOption,
    CheckRequest,
    CheckResult,
    CombatPolicy,
    DelegatedCreation,
    DelegatedSpellBook,
    DerivedValue,
    FieldSpec,
    FightMoment,
    HealthChange,
    InitiativeRoll,
    OpposedResult,
    Outcome,
    PainChosen,
    PainOwed,
    Problem,
    Recovered,
    RulesError,
    Settings,
    SettingSpec,
    Sheet,
    SheetEffect,
    Situated,
    SpellInfo,
    StandTest,
    StepOption,
)

__all__ = ["RolwebSystem", "SYSTEM"]

_ATTRIBUTE = "atributo:"
_DEFENCE = "defensa"
_DEATH = "muerte"
_WORSE = "dos_oportunidades_peor"
_BETTER = "dos_oportunidades_mejor"
_ADVANTAGE = "ventaja"
_ENEMY_ADVANTAGE = "ventaja_enemigo"
_COMBAT = "Combate"  # derived values join the sheet's combat fields in /sheet show
_CIRCUMSTANCES = frozenset({_WORSE, _BETTER, _ADVANTAGE, _ENEMY_ADVANTAGE})


def _defence_of(sheet: Sheet, settings: RolwebSettings) -> tuple[int, str]:
    agil = sheets.attribute(sheet, "Ágil")
    worn_shield = sheets.shield(sheet)
    worn = sheets.armour(sheet, settings)
    formula = f"Ágil {agil}"
    if worn_shield.defence:
        formula += f" + {worn_shield.value} {worn_shield.defence}"
    if worn and worn.defence:
        formula += f" − {worn.name} {-worn.defence}"
    return defence(agil, worn_shield, worn), formula


def _value(sheet: Sheet, option: str, settings: RolwebSettings) -> tuple[int, str]:
    """The number an option rolls against and its label."""
    if option == _DEFENCE:
        return _defence_of(sheet, settings)[0], "Defensa"
    if option.startswith(_ATTRIBUTE):
        name = option.removeprefix(_ATTRIBUTE)
        if name in settings.attributes:
            return sheets.attribute(sheet, name), name
    raise RulesError(Problem("rolweb.problem.unknown_option", "", {"option": option}))


def _chances(circumstances: frozenset[str]) -> Chances:
    unknown = circumstances - _CIRCUMSTANCES
    if unknown:
        raise RulesError(
            Problem("rolweb.problem.unknown_circumstance", "", {"name": ", ".join(sorted(unknown))})
        )
    worse, better = _WORSE in circumstances, _BETTER in circumstances
    if worse and not better:
        return Chances.WORSE
    if better and not worse:
        return Chances.BETTER
    return Chances.ONE  # LUCHAR A CIEGAS: both sides hindered, no adjustment


def _situational(circumstances: frozenset[str]) -> int:
    bonus = ADVANTAGE_BONUS if _ADVANTAGE in circumstances else 0
    return bonus - (ADVANTAGE_BONUS if _ENEMY_ADVANTAGE in circumstances else 0)


def _notes(circumstances: frozenset[str], chances: Chances) -> tuple[str, ...]:
    notes = []
    if chances is Chances.WORSE:
        notes.append("rolweb.note.two_chances_worse")
    elif chances is Chances.BETTER:
        notes.append("rolweb.note.two_chances_better")
    elif {_WORSE, _BETTER} <= circumstances:
        notes.append("rolweb.note.blind_both_sides")
    if _ADVANTAGE in circumstances:
        notes.append("rolweb.note.advantage")
    if _ENEMY_ADVANTAGE in circumstances:
        notes.append("rolweb.note.enemy_advantage")
    return tuple(notes)


def _result(
    option: str, label: str, test: TestRoll, notes: tuple[str, ...], extra: dict[str, Any]
) -> CheckResult:
    return CheckResult(
        option=option,
        label=label,
        expression=test.expression,
        total=test.kept,
        breakdown=test.breakdown,
        outcome=test.outcome,
        target=test.target,
        notes=notes,
        probability=test.probability,
        extra={"rolls": test.rolls, **extra},
    )


@dataclass(frozen=True, slots=True)
class RolwebSystem(DelegatedCreation, DelegatedSpellBook):
    """Partida Rol por web (seed 001), a Symbaroum-style d20 roll-under system."""

    builder = builder  # the wizard's questions and answers (DelegatedCreation)
    spellbook = spellbook  # casting and resting (DelegatedSpellBook)

    id: str = "rolweb"
    name: str = "Partida Rol por web"
    #: what the rules write during play: «en el suelo» and the pain choices owed (pain.py)
    extra_sheet_keys = frozenset({pain.PRONE_KEY, pain.OWED_KEY, pain.LAST_KEY})
    seed: str = "001_10900223c9f5e1ef.txt"

    def settings(self) -> tuple[SettingSpec, ...]:
        return SETTING_SPECS

    def fields(self, settings: Settings) -> tuple[FieldSpec, ...]:
        return sheets.fields(parse_settings(settings))

    def new_sheet(self, name: str, settings: Settings) -> dict[str, Any]:
        return sheets.new_sheet(name, parse_settings(settings))

    def validate(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        return sheets.validate(sheet, parse_settings(settings))

    def derived(self, sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
        parsed = parse_settings(settings)
        fuerte = sheets.attribute(sheet, "Fuerte")
        defensa, formula = _defence_of(sheet, parsed)
        worn = sheets.armour(sheet, parsed)
        balance = sheets.xp(sheet)
        fixed = sheets.fixed_toughness(sheet)
        values = [
            DerivedValue(
                "resistencia",
                "Resistencia",
                sheets.max_toughness(sheet),
                "PNJ" if fixed is not None else f"Fuerte {fuerte}, mínimo 10",
                group=_COMBAT,
            ),
            DerivedValue(
                "umbral_de_dolor",
                "Umbral de dolor",
                pain_threshold(fuerte),
                f"Fuerte {fuerte} / 2 ↑",
                group=_COMBAT,
            ),
            DerivedValue("defensa", "Defensa", defensa, formula, group=_COMBAT),
            DerivedValue(
                "armadura",
                "Protección",
                worn.protection if worn else "—",
                worn.name if worn else "",
                group=_COMBAT,
            ),
            DerivedValue(
                "xp_disponible",
                "Experiencia disponible",
                balance.available,
                f"{balance.total} − {balance.spent}",
                group="xp",
            ),
        ]
        values += [
            DerivedValue(
                f"arma:{w.name}", w.name, w.damage, ", ".join(sorted(w.qualities)), group="Equipo"
            )
            for w in sheets.weapons(sheet, parsed)
        ]
        if pain.is_prone(sheet):
            values.append(DerivedValue(pain.PRONE_KEY, "Postura", "En el suelo", group=_COMBAT))
        owed = pain.owed(sheet)
        if owed:
            values.append(
                DerivedValue(pain.OWED_KEY, "Umbral de dolor superado", len(owed), group=_COMBAT)
            )
        carried = sheet.get("equipo") or {}
        if carried:
            listed = ", ".join(f"{name} ×{count}" for name, count in carried.items())
            values.append(DerivedValue("mochila", "Mochila", listed, group="Equipo"))
        return effects.adjust_derived(values, sheet, {"defensa": (effects.DEFENCE, 1)})

    def check_options(self, sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
        parsed = parse_settings(settings)
        options = [
            CheckOption(f"{_ATTRIBUTE}{name}", name, "atributo") for name in parsed.attributes
        ]
        options.append(CheckOption(_DEFENCE, "Defensa", "defensa"))
        if sheets.state(sheet) is LifeState.DYING:
            options.append(CheckOption(_DEATH, "Tirada de muerte", "muerte"))
        return tuple(options)

    def judge_under(self, total: int, natural: int | None, target: int, settings: Settings) -> str:
        """Seed 001: a test succeeds «igual o inferior» to its number, so a free roll's
        difficulty is the target the result must not exceed (``RollUnder``); a lone d20 reads
        the campaign's natural 1/20 rule (setting ``naturales``) as ``/check`` does."""
        if natural is None:
            return "success" if total <= target else "failure"
        return str(judge(natural, target, parse_settings(settings).naturals))

    def check(
        self, sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
    ) -> CheckResult:
        parsed = parse_settings(settings)
        if request.option == _DEATH:
            return self._death_test(sheet, parsed, rng)
        value, label = _value(sheet, request.option, parsed)
        chances = _chances(request.circumstances)
        mods = effects.option_modifiers(
            sheet, request.option, "Defensa" if request.option == _DEFENCE else None
        )
        if request.option == _DEFENCE:
            mods += effects.modifiers_for(sheet, effects.DEFENCE)
        situational = _situational(request.circumstances) + sum(v for _, v in mods)
        if request.difficulty is None:
            modifier = request.modifier + situational
            target = simple_target(value, modifier)
        else:
            # seed 001 line 15: the GM's Difficulty is attribute + modifier already, so it
            # replaces both; advantage and effects still count
            modifier = situational
            target = simple_target(value, modifier, request.difficulty)
        test = roll_test(target, rng, parsed.naturals, chances)
        notes = _notes(request.circumstances, chances)
        result = _result(
            request.option, label, test, notes, {"valor": value, "modificador": modifier}
        )
        return replace(result, modifiers=tuple(mods))

    def _death_test(self, sheet: Sheet, parsed: RolwebSettings, rng: random.Random) -> CheckResult:
        if sheets.state(sheet) is not LifeState.DYING:
            raise RulesError(Problem("rolweb.problem.not_dying"))
        failures = int(sheet.get("fallos_muerte", 0))
        test = roll_death_test(rng, failures, parsed.death_rule, parsed.rise_toughness)
        # Re-applied by the bot to the current sheet: refused if the character stopped dying
        # or another death test was counted in between (see SheetEffect).
        changed = Problem("rolweb.problem.death_test_changed", "estado")
        effects = [
            SheetEffect.expect("estado", sheet.get("estado"), changed),
            SheetEffect.expect("fallos_muerte", sheet.get("fallos_muerte"), changed),
            SheetEffect.set("estado", test.state.value),
            SheetEffect.set(
                "fallos_muerte", 0 if test.state is LifeState.ACTIVE else test.failures
            ),
        ]
        if test.state is LifeState.ACTIVE:
            effects.append(SheetEffect.set("resistencia.actual", test.toughness))
            outcome, note = Outcome.SUCCESS, "rolweb.note.death_test_rises"
        elif test.state is LifeState.DEAD:
            outcome, note = Outcome.FAILURE, "rolweb.note.death_test_dies"
        elif test.failures > failures:
            outcome, note = Outcome.FAILURE, "rolweb.note.death_test_failure"
        else:
            outcome, note = None, "rolweb.note.death_test_continues"
        target = 10 if parsed.death_rule is DeathRule.FAMILY else 1
        return CheckResult(
            option=_DEATH,
            label="Tirada de muerte",
            expression="1d20",
            total=test.roll,
            breakdown=f"1d20 ({test.roll})",
            outcome=outcome,
            target=target,
            notes=(note,),
            effects=tuple(effects),
            extra={
                "estado": test.state.value,
                "fallos": test.failures,
                "resistencia": test.toughness,
            },
        )

    def opposed(
        self,
        a: Sheet,
        a_request: CheckRequest,
        b: Sheet,
        b_request: CheckRequest,
        settings: Settings,
        rng: random.Random,
    ) -> OpposedResult:
        """[A←B]: only ``a`` rolls, against A + (10 − B) + modifiers.  ``b_request.modifier``
        adjusts B itself before the conversion; players always roll, so make the player ``a``."""
        parsed = parse_settings(settings)
        value, label = _value(a, a_request.option, parsed)
        b_value, b_label = _value(b, b_request.option, parsed)
        b_effective = b_value + b_request.modifier
        chances = _chances(a_request.circumstances)
        modifier = (
            a_request.modifier
            + _situational(a_request.circumstances)
            + opposed_modifier(b_effective)
        )
        test = roll_test(value + modifier, rng, parsed.naturals, chances)
        result = _result(
            a_request.option,
            f"{label}←{b_label}",
            test,
            _notes(a_request.circumstances, chances),
            {"valor": value, "oponente": b_effective, "modificador": modifier},
        )
        return OpposedResult(a=result, b=None, winner="a" if test.success else "b")

    def initiative(self, sheet: Sheet, settings: Settings, rng: random.Random) -> InitiativeRoll:
        """Ágil, then Atento, then 1D20 (ORDEN DE TURNO); ``total`` is Ágil."""
        rolled = roll_initiative(
            sheets.attribute(sheet, "Ágil"), sheets.attribute(sheet, "Atento"), rng
        )
        return InitiativeRoll(
            total=rolled.agil, sort_key=rolled.sort_key, breakdown=rolled.breakdown
        )

    # -- actions in a turn (ActionEconomy) -------------------------------------------------

    def action_allowance(self, actions: int, settings: Settings) -> Allowance:
        """One combat and one movement action (seed 001): :mod:`rules.rolweb.actions`."""
        return rolweb_actions.allowance(parse_settings(settings))

    def action_cost(self, act: ActRequest, settings: Settings) -> Use:
        return rolweb_actions.cost(act, parse_settings(settings))

    def combat_policy(self, settings: Settings) -> CombatPolicy:
        """Rolled once per combat; the most Ágil may wait and pick a later place, once
        (seed 001, ORDEN DE TURNO); ties by Atento, then the d20, then 1D20 again."""
        return CombatPolicy(can_wait=True, ties="reroll_d20", seed="001 ORDEN DE TURNO")

    def apply_damage(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        """``amount`` is already reduced by the armour's roll (see :meth:`roll_hit`).

        At 0 a player character is moribundo; an NPC dies unless the campaign's
        ``pnj_mueren_a_0`` is off (DAÑO Y CURACIÓN: «A menos que el director de juego diga
        lo contrario»), then it is moribundo too and its turn is the death test."""
        parsed = parse_settings(settings)
        wound = take_damage(
            sheets.current_toughness(sheet),
            amount,
            sheets.attribute(sheet, "Fuerte"),
            sheets.is_player(sheet) or not parsed.npcs_die_at_zero,
            sheets.state(sheet),
        )
        updated = sheets.copy_sheet(sheet)
        updated["resistencia"] = {**(updated.get("resistencia") or {}), "actual": wound.after}
        updated["estado"] = wound.state.value
        notes = []
        owed: int | None = None
        if wound.pain and wound.state is LifeState.ACTIVE:
            # UMBRAL DE DOLOR's choice (fall prone, or a free attack) is for one who still
            # stands: a target this hit killed, or left dying, has nothing to choose; it is
            # owed on the sheet until chosen (rules/rolweb/pain.py)
            notes.append("rolweb.note.pain_threshold")
            updated = pain.owe(updated)
            owed = pain.owed(updated)[-1].ref
        elif wound.state is not LifeState.ACTIVE:
            updated = pain.drop_owed(pain.set_prone(updated, False))
        if wound.state is not sheets.state(sheet):
            notes.append(
                "rolweb.note.dying" if wound.state is LifeState.DYING else "rolweb.note.dead"
            )
        return HealthChange(updated, amount, wound.state.value, tuple(notes), owed)

    def heal(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        before = sheets.state(sheet)
        after, new_state = heal(
            sheets.current_toughness(sheet), sheets.max_toughness(sheet), amount, before
        )
        updated = sheets.copy_sheet(sheet)
        updated["resistencia"] = {**(updated.get("resistencia") or {}), "actual": after}
        updated["estado"] = new_state.value
        notes: tuple[str, ...] = ()
        if before is LifeState.DYING and new_state is LifeState.ACTIVE:
            updated["fallos_muerte"] = 0
            notes = ("rolweb.note.stabilised",)
        return HealthChange(updated, amount, new_state.value, notes)

    def inherited_xp(self, previous: Sheet, settings: Settings) -> int | None:
        """MUERTE DE UN PERSONAJE JUGADOR: a dead character's player creates the next one
        «empleando todos los puntos de experiencia acumulados hasta el momento» — the dead
        character's whole total (what it started with and everything it earned)."""
        if not sheets.is_player(previous) or sheets.state(previous) is not LifeState.DEAD:
            return None
        return sheets.xp(previous).total

    def inherit_xp(self, draft: Sheet, xp: int, settings: Settings) -> Sheet:
        """The draft starts with :meth:`starting_xp` (the attributes step keeps it: see
        ``answers.apply_attributes``)."""
        updated = sheets.copy_sheet(draft)
        updated["xp"] = {"total": self.starting_xp(xp, settings), "gastada": 0}
        return updated

    def starting_xp(self, inherited: int | None, settings: Settings) -> int:
        """A new player character starts with the campaign's ``xp_inicial`` (50), or with
        the whole total a dead character passes on when larger (MUERTE DE UN PERSONAJE
        JUGADOR: «así se evita que el nuevo personaje empiece con desventaja»)."""
        return max(parse_settings(settings).starting_xp, inherited or 0)

    def new_character_xp(
        self, sheet: Sheet, inherited: int | None, settings: Settings, *, referee: bool
    ) -> Sheet:
        """An imported new character gets what the wizard gives (issue 23 §4: an import
        started with 0 XP and its abilities for free): :meth:`starting_xp`, its abilities
        bought out of it at MEJORA DE PERSONAJES' costs (10 / 20 / 30)."""
        if not sheets.is_player(sheet):
            return sheet
        levels = [sheets.level(sheet, name) for name in sheet.get("habilidades") or {}]
        cost = sum(upgrade_cost(Level.NONE, level) for level in levels if level is not Level.NONE)
        recorded = sheets.xp(sheet)
        total = self.starting_xp(inherited, settings)
        spent = cost
        if referee:  # the GM's file may record a veteran's experience
            total, spent = max(total, recorded.total), max(cost, recorded.spent)
        if spent > total:
            raise RulesError(
                Problem(
                    "rolweb.problem.abilities_cost_more",
                    "habilidades",
                    {"cost": spent, "available": total},
                )
            )
        updated = sheets.copy_sheet(sheet)
        updated["xp"] = {"total": total, "gastada": spent}
        return updated

    def grant_xp(self, sheet: Sheet, amount: int, settings: Settings) -> AdvanceResult:
        """Add XP; nothing is bought automatically (the player chooses abilities)."""
        before = sheets.xp(sheet)
        after = grant(before, amount)
        updated = sheets.copy_sheet(sheet)
        updated["xp"] = {"total": after.total, "gastada": after.spent}
        return AdvanceResult(updated, before.available, after.available)

    def purchases(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        """Every ability of the campaign below maestro, with the next level and its XP cost
        (MEJORA DE PERSONAJES: 10 principiante, 20 adepto, 30 maestro)."""
        parsed = parse_settings(settings)
        options = []
        for ability in load_abilities(parsed):
            current = sheets.level(sheet, ability.name)
            if current is Level.MAESTRO:
                continue
            wanted = Level(current + 1)
            cost = upgrade_cost(current, wanted)
            options.append(
                StepOption(value=ability.name, label=f"{ability.name} → {wanted.term} ({cost} PX)")
            )
        return tuple(options)

    def purchase(self, sheet: Sheet, what: str, settings: Settings) -> AdvanceResult:
        """Buy the next level of the ability ``what`` (see :meth:`buy_ability`)."""
        return self.buy_ability(sheet, what, settings)

    def buy_ability(
        self, sheet: Sheet, ability: str, settings: Settings, target: str | None = None
    ) -> AdvanceResult:
        """Spend XP to buy ``ability`` or raise it one level (or up to ``target``).

        ``xp_before``/``xp_after`` are the XP available; ``levels`` maps the ability to
        (old, new) level numbers 0-3.  Refuses unknown abilities and missing XP.
        """
        parsed = parse_settings(settings)
        known = find_ability(ability, parsed)
        if known is None:
            raise RulesError(
                Problem("rolweb.problem.unknown_ability", "habilidades", {"name": ability})
            )
        current = sheets.level(sheet, known.name)
        if target is None:
            if current is Level.MAESTRO:
                raise RulesError(
                    Problem(
                        "rolweb.problem.level_not_higher",
                        "",
                        {"nivel_actual": current.term, "nivel_nuevo": current.term},
                    )
                )
            wanted = Level(current + 1)
        else:
            try:
                wanted = Level.from_term(target)
            except ValueError:
                raise RulesError(
                    Problem(
                        "rolweb.problem.unknown_level", "", {"name": known.name, "level": target}
                    )
                ) from None
        before = sheets.xp(sheet)
        after = spend_for(before, current, wanted)
        updated = sheets.copy_sheet(sheet)
        updated["xp"] = {"total": after.total, "gastada": after.spent}
        updated["habilidades"] = {**(updated.get("habilidades") or {}), known.name: wanted.term}
        return AdvanceResult(
            updated, before.available, after.available, {known.name: (int(current), int(wanted))}
        )

    def roll_hit(
        self,
        attacker: Sheet,
        defender: Sheet,
        settings: Settings,
        rng: random.Random,
        weapon: str | None = None,
        advantage: bool = False,
    ) -> DamageRoll:
        """Roll a hit's damage: the attacker's weapon (first one, or ``weapon`` by name;
        the campaign's natural weapon without any), +1D4 with advantage, minus the defender's armour roll."""
        parsed = parse_settings(settings)
        carried = sheets.weapons(attacker, parsed)
        if weapon is not None:
            carried = tuple(w for w in carried if w.name.casefold() == weapon.casefold())
            if not carried:
                raise RulesError(
                    Problem("rolweb.problem.unknown_weapon", "armas", {"name": weapon})
                )
        if not carried:  # unarmed: the campaign's natural weapon (Puños by default)
            carried = tuple(w for w in load_weapons(parsed) if w.is_natural)[:1]
            if not carried:
                raise RulesError(
                    Problem("rolweb.problem.unknown_weapon", "armas", {"name": "Natural"})
                )
        damage = carried[0].damage
        worn = sheets.armour(defender, parsed)
        return roll_damage(damage, worn.protection if worn else None, rng, advantage)

    # -- fights (rules.combat.attack.Attacks, rules.combat.health.HealthStates) ------------

    def weapons(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        return fight.weapons(sheet, settings)

    def attack(
        self, request: AttackRequest, settings: Settings, rng: random.Random
    ) -> AttackResult:
        """``[Diestro←Defensa]``, or a :class:`DefenceRequest` when ``defender_rolls``."""
        return fight.attack(request, settings, rng)

    def resolve_defence(
        self, request: DefenceRequest, settings: Settings, rng: random.Random
    ) -> AttackResult:
        """The defending player's ``[Defensa←Diestro]`` for a :class:`DefenceRequest`."""
        return fight.resolve_defence(request, settings, rng)

    def combat_state(self, sheet: Sheet, settings: Settings) -> CombatState:
        return fight.combat_state(sheet, settings)

    # -- the pain threshold and «en el suelo» (PainChoices, Prone: rules/rolweb/pain.py) ---

    def pain_owed(self, sheet: Sheet) -> tuple[PainOwed, ...]:
        return pain.owed(sheet)

    def name_attacker(self, sheet: Sheet, attacker: str) -> dict[str, Any]:
        return pain.name_attacker(sheet, attacker)

    def choose_pain(
        self, sheet: Sheet, ref: int, choice: str | None, settings: Settings
    ) -> PainChosen:
        return pain.choose(sheet, ref, choice, settings)

    def is_prone(self, sheet: Sheet) -> bool:
        return pain.is_prone(sheet)

    def stand_test(self, sheet: Sheet, settings: Settings, rng: random.Random) -> StandTest:
        return pain.stand_test(sheet, settings, rng)

    def set_prone(self, sheet: Sheet, prone: bool) -> dict[str, Any]:
        return pain.set_prone(sheet, prone)

    def after_fight(self, sheet: Sheet) -> dict[str, Any]:
        return pain.after_fight(sheet)

    # -- abilities (Abilities, rules/rolweb/use.py) ----------------------------------------

    ability_names = staticmethod(use.ability_names)
    known_abilities = staticmethod(use.known_abilities)
    use_ability = staticmethod(use.use_ability)
    pay_ability = staticmethod(use.pay_ability)

    # -- healing between fights (Recovery, rules/rolweb/recovery.py) ----------------------

    def rest_days(self, sheet: Sheet, days: int, settings: Settings) -> Recovered:
        return recovery.rest_days(sheet, days, settings)

    def guarded_paths(self, settings: Settings) -> tuple[str, ...]:
        return recovery.GUARDED_PATHS

    # -- the fight's situations and the ambush (AttackSituations, Ambush) -----------------

    def attack_circumstances(self) -> tuple[str, ...]:
        """Seed 001's combat rules (:data:`rules.rolweb.offers.ATTACK_CIRCUMSTANCES`)."""
        return offers.ATTACK_CIRCUMSTANCES

    def situate(self, request: AttackRequest, fight: FightMoment | None, referee: bool) -> Situated:
        return situations.situate(request, fight, referee)

    def ambush(self, setup: AmbushSetup, settings: Settings, rng: random.Random) -> AmbushRoll:
        return roll_ambush(setup, settings, rng)

    def spells(self, settings: Settings) -> tuple[SpellInfo, ...]:
        """rolweb has abilities and mystical powers, not a spell list."""
        return ()

    # -- magic (SpellBook, rules/rolweb/spellbook.py) --------------------------------------

    # -- CharacterBuilder (rules/rolweb/builder.py, rules/rolweb/belongings.py) -----------

    def catalogue(self, kind: str, settings: Settings) -> tuple[StepOption, ...]:
        return belongings.catalogue(kind, parse_settings(settings))

    def adjust_inventory(
        self, sheet: Sheet, item: str, quantity: int, settings: Settings
    ) -> dict[str, Any]:
        return belongings.adjust_inventory(sheet, item, quantity, parse_settings(settings))

    def adjust_money(
        self, sheet: Sheet, amount: int, currency: str | None, settings: Settings
    ) -> dict[str, Any]:
        return belongings.adjust_money(sheet, amount, currency, parse_settings(settings))


SYSTEM = RolwebSystem()
