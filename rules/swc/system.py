"""``SYSTEM``: Swords & Wizardry Completo behind the common game-system interface.

The sheet shape, the campaign settings and what each computes are documented for referees
in ``docs/systems/swc.md``.  This module only wires the pure rules modules together:
validation (:mod:`rules.swc.validation`), derived values (:mod:`rules.swc.derived`), checks
(:mod:`rules.swc.checks`) and experience, hit points and initiative below.
"""

from __future__ import annotations

import random
from copy import deepcopy
from dataclasses import replace
from typing import Any

from rules.combat import effects
from rules.combat.actions import Allowance, Use
from rules.combat.attack import AttackRequest, AttackResult
from rules.combat.health import CombatState
from rules.swc import (
    attack,
    builder,
    health,
    levelup,
    powers,
    recovery,
    shop,
    spellbook,
    turns,
)
from rules.swc.advancement import hit_dice, xp_bonus
from rules.swc.attributes import ATTRIBUTE_ORDER
from rules.swc.checks import SKILL_LABELS, check, check_options, difficulty_refused
from rules.swc.classes import ALIGNMENTS, CLASS_IDS, get_class
from rules.swc.derived import LEVEL, carried, derived
from rules.swc.equipment import Category, catalogue, find_item
from rules.swc.levelup import HitDiceRoll
from rules.swc.monster import (
    hit_points_roll,
    is_npc,
    monster_check,
    monster_check_options,
    monster_derived,
)
from rules.swc.multiclass import multiclass_hit_dice
from rules.swc.races import RACE_IDS, allowed_combinations, get_race
from rules.swc.sequence import SequenceKind, sequence_c_initiative, sequence_c_interval
from rules.swc.sheet import DEFAULT_SETTINGS, NO_ARMOUR, Character, character, setting
from rules.swc.spells import spell_infos
from rules.swc.validation import problems
from rules.systems.base import (
    ActRequest,
    AdvanceResult,
    CheckOption,
    CheckRequest,
    CheckResult,
    CombatPolicy,
    DelegatedCreation,
    DelegatedSpellBook,
    DerivedValue,
    FieldKind,
    FieldSpec,
    HealthChange,
    InitiativeRoll,
    LoggedRoll,
    OpposedResult,
    Outcome,
    Problem,
    Purse,
    Recovered,
    RulesError,
    Settings,
    SettingSpec,
    Sheet,
    SpellInfo,
    StepOption,
)

__all__ = ["SYSTEM", "SEQUENCES", "SwcSystem"]

SEQUENCES: tuple[str, ...] = tuple(k.value for k in SequenceKind)
_BOOL = FieldKind.BOOLEAN


def _combos(settings: Settings) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for raza in RACE_IDS:
        for combo in allowed_combinations(
            raza, enano_guerrero_clerigo=bool(setting(settings, "enano_guerrero_clerigo"))
        ):
            seen["/".join(combo)] = None
    return tuple(seen)


def _npc_fields() -> list[FieldSpec]:
    """A stat block's fields (shown only on sheets that have them)."""
    return [
        FieldSpec("dados_golpe", "Dados de Golpe", FieldKind.TEXT, group="combate"),
        FieldSpec("ca", "CA (descendente)", FieldKind.INTEGER, -20, 20, group="combate"),
        FieldSpec("ataques", "Ataques", FieldKind.TEXT, group="combate"),
        FieldSpec("movimiento", "Movimiento", FieldKind.INTEGER, 0, 240, group="combate"),
        FieldSpec("valor_px", "Valor en PX", FieldKind.INTEGER, 0, group="combate"),
        FieldSpec(
            "salvacion", "Tirada de Salvación (fija)", FieldKind.INTEGER, 2, 20, group="combate"
        ),
    ]


def _hit_points(ch: Character) -> tuple[int, int]:
    """(dice, fixed hp) of the character, single class or multiclass."""
    if ch.multiclase:
        return multiclass_hit_dice(ch.clases, ch.xp_por_clase)
    clase = ch.clases[0]
    return hit_dice(clase, ch.niveles[clase])


class SwcSystem(DelegatedCreation, DelegatedSpellBook):
    """Swords & Wizardry Completo (seed 000)."""

    builder = builder  # the wizard's questions and answers (DelegatedCreation)
    spellbook = spellbook  # casting and resting (DelegatedSpellBook)

    id = "swc"
    #: Sheet keys written during play or by optional rules, besides a new sheet's and the
    #: editable fields' (an import refuses any other top-level key).
    extra_sheet_keys = frozenset(
        {"conjuros_gastados", "clase_tras_limite", "heridas", "pnj", powers.USED_TODAY}
    )
    name = "Swords & Wizardry Completo"
    seed = "000_69fa394cbd22cdf4.txt"

    def settings(self) -> tuple[SettingSpec, ...]:
        specs = [
            SettingSpec(k, _BOOL, v) for k, v in DEFAULT_SETTINGS.items() if isinstance(v, bool)
        ]
        specs.append(SettingSpec("secuencia_combate", FieldKind.CHOICE, "estandar", SEQUENCES))
        specs.append(
            SettingSpec("bono_fuerza_no_guerreros", FieldKind.INTEGER, 0, minimum=0, maximum=1)
        )
        specs.append(SettingSpec("bono_fuego_druida", FieldKind.INTEGER, 2, minimum=1, maximum=2))
        specs.append(
            SettingSpec("naturales_ataque", FieldKind.CHOICE, "ninguno", attack.NATURAL_MODES)
        )
        specs.append(SettingSpec("pg_cero", FieldKind.CHOICE, "incapacitado", health.DEATH_RULES))
        specs.append(SettingSpec("descripcion_pg", FieldKind.TEXT, health.DEFAULT_DESCRIPTION))
        # hit points a day of rest heals (issue 23 §3: seed 000 gives none; rules/swc/recovery.py)
        specs.append(SettingSpec("curacion_por_dia", FieldKind.INTEGER, 1, minimum=0, maximum=20))
        # what the campaign's spells do (JSON; empty: data/swc/spells.json; rules/swc/spells.py)
        specs.append(SettingSpec("conjuros", FieldKind.TEXT, ""))
        return tuple(specs)

    def fields(self, settings: Settings) -> tuple[FieldSpec, ...]:
        """What ``/sheet set`` changes.  Rolled or chosen at creation (race, classes, alignment,
        attributes, experience, maximum hit points) is the referee's to change by hand; a
        player keeps his name, notes, current hit points, armour worn and the level class."""
        armours = tuple(
            e.name for e in catalogue() if e.category is Category.ARMOUR and e.name != "Escudo"
        )
        out = [
            FieldSpec("name", "Nombre", FieldKind.TEXT),
            FieldSpec("raza", "Raza", FieldKind.CHOICE, choices=RACE_IDS, referee_only=True),
            FieldSpec(
                "clases", "Clase", FieldKind.CHOICE, choices=_combos(settings), referee_only=True
            ),
            FieldSpec(
                "alineamiento",
                "Alineamiento",
                FieldKind.CHOICE,
                choices=ALIGNMENTS,
                referee_only=True,
            ),
        ]
        out += [
            FieldSpec(
                f"atributos.{a}", a, FieldKind.INTEGER, 3, 18, group="atributos", referee_only=True
            )
            for a in ATTRIBUTE_ORDER
        ]
        out += [
            FieldSpec(
                "xp", "Puntos de Experiencia", FieldKind.INTEGER, 0, group=LEVEL, referee_only=True
            ),
            FieldSpec(
                "pg.max",
                "Puntos de Golpe máximos",
                FieldKind.INTEGER,
                0,
                group="combate",
                referee_only=True,
            ),
            FieldSpec("pg.actual", "Puntos de Golpe actuales", FieldKind.INTEGER, group="combate"),
            FieldSpec(
                "armadura",
                "Armadura",
                FieldKind.CHOICE,
                choices=("ninguna", *armours),
                group="equipo",
            ),
            FieldSpec("escudo", "Escudo", FieldKind.BOOLEAN, group="equipo"),
            FieldSpec("armadura_magica", "Armadura mágica", FieldKind.BOOLEAN, group="equipo"),
        ]
        out += [
            FieldSpec(f"monedas.{c}", c, FieldKind.INTEGER, 0, group="equipo")
            for c in ("mo", "mp", "mc")
        ]
        out.append(FieldSpec("notas", "Notas", FieldKind.TEXT))
        out += _npc_fields()
        if setting(settings, "avance_lento_tras_limite"):
            out.append(
                FieldSpec(
                    "clase_tras_limite",
                    "Clase que sigue avanzando",
                    FieldKind.CHOICE,
                    choices=("", *CLASS_IDS),
                    group=LEVEL,
                )
            )
        return tuple(out)

    def new_sheet(self, name: str, settings: Settings) -> dict[str, Any]:
        return {
            "name": name,
            "system": "swc",
            "raza": "humano",
            "clases": [],
            "alineamiento": "",
            "atributos": dict.fromkeys(ATTRIBUTE_ORDER, 10),
            "xp": 0,
            "pg": {"max": 0, "actual": 0},
            "armadura": None,
            "escudo": False,
            "armadura_magica": False,
            "equipo": [],
            "monedas": {"mo": 0, "mp": 0, "mc": 0},
            "notas": "",
        }

    def validate(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        return problems(sheet, settings)

    def _valid(self, sheet: Sheet, settings: Settings) -> None:
        found = problems(sheet, settings)
        if found:
            raise RulesError(found)

    def derived(self, sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
        self._valid(sheet, settings)
        ascending = bool(setting(settings, "ca_ascendente"))
        # a Defensa bonus lowers a descending AC and raises an ascending one
        keys = {"ca": (effects.DEFENCE, 1 if ascending else -1)}
        if is_npc(sheet):
            values = (*monster_derived(sheet, ascending), *carried(sheet))
        else:
            values = derived(sheet, settings)
        return effects.adjust_derived(values, sheet, keys)

    def check_options(self, sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
        self._valid(sheet, settings)
        if is_npc(sheet):
            return monster_check_options(settings)
        return check_options(sheet, settings)

    def check(
        self, sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
    ) -> CheckResult:
        self._valid(sheet, settings)
        mods = effects.option_modifiers(sheet, request.option)
        request = replace(request, modifier=request.modifier + sum(v for _, v in mods))
        if is_npc(sheet):
            if request.difficulty is not None:
                raise difficulty_refused(request.option)
            result = monster_check(sheet, request, rng)
        else:
            result = check(sheet, request, settings, rng)
        return replace(result, modifiers=tuple(mods))

    def opposed(
        self,
        a: Sheet,
        a_request: CheckRequest,
        b: Sheet,
        b_request: CheckRequest,
        settings: Settings,
        rng: random.Random,
    ) -> OpposedResult:
        """Both roll; a success beats a failure, otherwise it is a tie (the book has no contests)."""
        ra = self.check(a, a_request, settings, rng)
        rb = self.check(b, b_request, settings, rng)
        wins_a, wins_b = ra.outcome is Outcome.SUCCESS, rb.outcome is Outcome.SUCCESS
        winner = "a" if wins_a and not wins_b else "b" if wins_b and not wins_a else "tie"
        return OpposedResult(ra, rb, winner)

    def initiative(self, sheet: Sheet, settings: Settings, rng: random.Random) -> InitiativeRoll:
        """Standard and A: nothing to roll per combatant — the side's d6 comes from the combat
        each asalto and Destreza orders a side; B (Holmes): Destreza, no roll; C: engineer B's 1d10 segment, lowest first, with the
        character's interval in the breakdown."""
        sequence = SequenceKind(setting(settings, "secuencia_combate"))
        destreza = int((sheet.get("atributos") or {}).get("Destreza", 10))
        if sequence is SequenceKind.B:
            return InitiativeRoll(destreza, (destreza,), f"Destreza {destreza}")
        if sequence is SequenceKind.C:
            segment = sequence_c_initiative(rng)
            pg = sheet.get("pg") or {}
            armour = sheet.get("armadura")
            interval = sequence_c_interval(
                destreza=destreza,
                armadura=None if armour is None or str(armour).lower() in NO_ARMOUR else armour,
                escudo=bool(sheet.get("escudo")),
                pg=int(pg["actual"]) if pg.get("max") else None,
                pg_max=int(pg["max"]) if pg.get("max") else None,
            )
            breakdown = f"1d10 ({segment}) = {segment}; +{interval.total} segmentos"
            return InitiativeRoll(segment, (-segment, destreza), breakdown)
        # standard and A: the order is the side's d6 (rolled by the combat each asalto) and,
        # inside a side, Destreza — a d6 per combatant would be shown and never used
        return InitiativeRoll(destreza, (destreza,), f"Destreza {destreza}")

    def _hp_change(
        self, sheet: Sheet, amount: int, current: int, settings: Settings
    ) -> HealthChange:
        new = deepcopy(dict(sheet))
        new.setdefault("pg", {"max": 0, "actual": 0})["actual"] = current
        state = health.life_state(new, current, settings)
        notes = () if state == health.NORMAL else (f"swc.note.{state}",)
        return HealthChange(new, amount, state, notes)

    # -- fights (rules.combat.attack.Attacks, rules.combat.health.HealthStates) ------------

    def weapons(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        return attack.weapons(sheet, settings)

    def attack(
        self, request: AttackRequest, settings: Settings, rng: random.Random
    ) -> AttackResult:
        for fighter in (request.attacker, request.target):
            if fighter.sheet is not None:
                self._valid(fighter.sheet, settings)
        return attack.attack(request, settings, rng)

    def combat_state(self, sheet: Sheet, settings: Settings) -> CombatState:
        return health.combat_state(sheet, settings)

    def roll_copy(
        self, sheet: Sheet, settings: Settings, rng: random.Random
    ) -> tuple[Sheet, tuple[LoggedRoll, ...]]:
        """A monster copy rolls its own hit points from its Hit Dice (seed 000: each
        monster's hit points are rolled); a character-shaped NPC keeps its sheet."""
        if not is_npc(sheet) or "dados_golpe" not in sheet:
            return sheet, ()
        total, logged = hit_points_roll(str(sheet["dados_golpe"]), rng)
        copy = dict(sheet)
        copy["pg"] = {"max": total, "actual": total}
        return copy, (logged,)

    def roll_hit_dice(
        self, before: Sheet, after: Sheet, settings: Settings, rng: random.Random
    ) -> HitDiceRoll:
        """The hit dice an XP grant's levels brought (:mod:`rules.swc.levelup`)."""
        return levelup.roll_hit_dice(before, after, settings, rng)

    # -- actions in a round (ActionEconomy) ------------------------------------------------

    def action_allowance(self, actions: int, settings: Settings) -> Allowance:
        """One attack or spell a round, in the side's phase: :mod:`rules.swc.turns`."""
        return turns.allowance(self.combat_policy(settings))

    def action_cost(self, act: ActRequest, settings: Settings) -> Use:
        return turns.cost(act)

    def combat_policy(self, settings: Settings) -> CombatPolicy:
        """Standard and A: one d6 per side at the start of every asalto, higher side first,
        a tie rolled again («puede pedir que se vuelvan a lanzar los dados», seed 000,
        DETERMINAR LA INICIATIVA); B: Destreza for the whole combat; C: one 1d10 segment for
        the whole combat, lowest first (seed 000, Alternativa C)."""
        sequence = SequenceKind(setting(settings, "secuencia_combate"))
        if sequence is SequenceKind.B:
            return CombatPolicy(seed="000 Alternativa B")
        if sequence is SequenceKind.C:
            return CombatPolicy(lowest_first=True, seed="000 Alternativa C")
        return CombatPolicy(
            by_side=True,
            reroll_each_round=True,
            side_die=6,
            ties="reroll_side",
            seed="000 DETERMINAR LA INICIATIVA",
        )

    def apply_damage(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        """Hit points drop; at 0 or less the character falls incapacitated (death is the referee's)."""
        if amount < 0:
            raise RulesError(Problem("swc.problem.negative_amount", "pg", {"valor": amount}))
        pg = sheet.get("pg") or {}
        return self._hp_change(sheet, amount, int(pg.get("actual", 0)) - amount, settings)

    def heal(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        if amount < 0:
            raise RulesError(Problem("swc.problem.negative_amount", "pg", {"valor": amount}))
        pg = sheet.get("pg") or {}
        current, maximum = int(pg.get("actual", 0)), int(pg.get("max", 0))
        healed = max(current, min(maximum, current + amount))
        return self._hp_change(sheet, healed - current, healed, settings)

    # -- healing between fights (Abilities, Recovery: rules/swc/powers.py, recovery.py) ---

    ability_names = staticmethod(powers.power_names)
    known_abilities = staticmethod(powers.known_powers)
    use_ability = staticmethod(powers.use_power)
    pay_ability = staticmethod(powers.pay_power)

    def rest_days(self, sheet: Sheet, days: int, settings: Settings) -> Recovered:
        return recovery.rest_days(sheet, days, settings)

    def guarded_paths(self, settings: Settings) -> tuple[str, ...]:
        return recovery.GUARDED_PATHS

    def grant_xp(self, sheet: Sheet, amount: int, settings: Settings) -> AdvanceResult:
        """Add XP: the single-class bonus (or the multiclass even split), the slow-advancement
        halving past a race limit, then every level it buys.  Fixed hit points past the dice cap
        are added; new hit dice are left to roll (note ``swc.note.roll_hit_die``)."""
        self._valid(sheet, settings)
        if is_npc(sheet):
            raise RulesError(Problem("swc.problem.npc_no_xp", "xp"))
        before = character(sheet, settings)
        notes: list[str] = []
        gained = amount
        if amount > 0:
            chosen = not before.multiclase or sheet.get("clase_tras_limite") in before.clases
            if setting(settings, "avance_lento_tras_limite") and chosen and before.at_limit():
                gained //= 2
                notes.append("swc.note.slow_advancement")
            if before.multiclase:
                notes.append("swc.note.multiclass_xp_split")
            else:
                bonus = xp_bonus(before.clases[0], before.atributos)
                if bonus:
                    gained += gained * bonus // 100
                    notes.append("swc.note.xp_bonus_applied")
        new = deepcopy(dict(sheet))
        new["xp"] = max(0, before.xp + gained)
        after = character(new, settings)
        dice_before, fixed_before = _hit_points(before)
        dice_after, fixed_after = _hit_points(after)
        if fixed_after != fixed_before:
            pg = new.setdefault("pg", {"max": 0, "actual": 0})
            pg["max"] = int(pg.get("max", 0)) + fixed_after - fixed_before
            pg["actual"] = min(
                int(pg.get("actual", 0)) + max(0, fixed_after - fixed_before), pg["max"]
            )
        if dice_after > dice_before:
            notes.append("swc.note.roll_hit_die")
        levels = {c: (before.niveles[c], after.niveles[c]) for c in after.clases}
        if any(b != a for b, a in levels.values()):
            notes.append("swc.note.level_up" if amount >= 0 else "swc.note.level_lost")
        return AdvanceResult(
            new, before.xp, new["xp"], levels, tuple(notes), hit_dice=dice_after > dice_before
        )

    def spells(self, settings: Settings) -> tuple[SpellInfo, ...]:
        """Seed 000 ends before the spell lists: the campaign's defined spells
        (:mod:`rules.swc.spells`, the classic healing ones by default)."""
        return spell_infos(settings)

    # -- magic (SpellBook, rules/swc/spellbook.py) --------------------------------------

    # -- CharacterBuilder ----------------------------------------------------------------

    def catalogue(self, kind: str, settings: Settings) -> tuple[StepOption, ...]:
        """Classes (and the combinations races allow), races, thief skills and the shop;
        no spells (seed 000 ends before the spell lists)."""
        if kind == "clase":
            monks = bool(setting(settings, "monjes_permitidos"))
            return tuple(
                StepOption(combo, "/".join(get_class(c).nombre for c in combo.split("/")))
                for combo in _combos(settings)
                if monks or "monje" not in combo.split("/")
            )
        if kind == "raza":
            return tuple(StepOption(r, get_race(r).nombre) for r in RACE_IDS)
        if kind == "hechizo":  # the campaign's defined spells (checked when the GM sets them)
            return tuple(
                StepOption(s.name, s.name, s.description[:100]) for s in spell_infos(settings)
            )
        if kind == "habilidad":
            return tuple(StepOption(f"ladron:{k}", label) for k, label in SKILL_LABELS.items())
        if kind == "equipo":
            return tuple(StepOption(e.name, e.name, _price(e.name)) for e in catalogue())
        return ()

    def adjust_inventory(
        self, sheet: Sheet, item: str, quantity: int, settings: Settings
    ) -> dict[str, Any]:
        """Tablas 20-24 items only: the book's list is the shop (unknown names are refused
        with the closest names)."""
        return shop.adjust_inventory(sheet, item, quantity)

    def adjust_money(
        self, sheet: Sheet, amount: int, currency: str | None, settings: Settings
    ) -> dict[str, Any]:
        """mo (default), mp or mc; spending more of a coin than the purse holds breaks a
        bigger one (1 mo = 10 mp = 100 mc)."""
        return shop.adjust_money(sheet, amount, currency)

    def purse(self, sheet: Sheet, currency: str | None, settings: Settings) -> Purse:
        """Coinage: the three coins (:func:`rules.swc.shop.purse`)."""
        return shop.purse(sheet, currency, settings)


def _price(name: str) -> str:
    """A Tablas 20-24 entry's cost («5 mo»); the name comes from the table, so it is found."""
    item = find_item(name)
    assert item is not None
    return shop.format_copper(shop.cost_copper(item))


SYSTEM = SwcSystem()
