"""Núcleo behind the common :class:`rules.systems.base.GameSystem` interface (seed 002).

The bot never branches on the system: it asks this object for fields, validation, derived
values, checks, initiative and health changes.  Everything here delegates to the topic
modules (checks are read by :mod:`rules.nucleo.rolls`); what lives here is the sheet's
fields, its validation as a whole and the derived values as ``/sheet show`` lists them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.combat import effects
from rules.combat.actions import Allowance, Use
from rules.combat.attack import AttackRequest, AttackResult, Fighter, TargetChange
from rules.combat.health import CombatState
from rules.nucleo import (
    advancement,
    belongings,
    builder,
    combat,
    creation,
    equipment,
    fight,
    health,
    magic,
    npc,
    recovery,
    rolls,
    spell_effects,
    spellbook,
    turns,
)
from rules.nucleo.data import ATTRIBUTES, catalogue
from rules.nucleo.sheet import (
    SETTINGS,
    carried,
    character,
    equipment_items,
    is_npc,
    new_sheet,
    normalise,
    setting,
)
from rules.systems.base import (
    ActRequest,
    AdvanceResult,
    CastResult,
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
    OpposedResult,
    Problem,
    Recovered,
    Settings,
    SettingSpec,
    Sheet,
    SpellInfo,
    StepOption,
)

__all__ = ["MAX_NOTES", "SYSTEM", "NucleoSystem"]

MAX_NOTES = 2000
#: The problem that names the ``creacion_estricta`` setting when a sheet breaks the
#: creation budget while it is on (issue 13 §3: a refused raise says which rule refuses it).
STRICT_CREATION = "nucleo.problem.strict_creation"


class NucleoSystem(DelegatedCreation, DelegatedSpellBook):
    """The Núcleo rules (seed 002) as a :class:`~rules.systems.base.GameSystem`."""

    builder = builder  # the wizard's questions and answers (DelegatedCreation)
    spellbook = spellbook  # casting and resting (DelegatedSpellBook)

    id = "nucleo"
    name = "Núcleo"
    seed = "002_2016ed9f803eee4c.txt"

    # -- sheet -----------------------------------------------------------------------------

    def settings(self) -> tuple[SettingSpec, ...]:
        return SETTINGS

    def fields(self, settings: Settings) -> tuple[FieldSpec, ...]:
        data = catalogue()
        strict = setting(settings, "creacion_estricta")
        level_max = 6 if strict else None
        fields = [
            FieldSpec("name", "Nombre", FieldKind.TEXT, group="general"),
            FieldSpec("notas", "Notas", FieldKind.TEXT, group="general"),
        ]
        fields += [
            FieldSpec(
                f"atributos.{a}",
                a,
                FieldKind.INTEGER,
                data.attribute_min,
                data.attribute_max,
                group="atributos",
            )
            for a in ATTRIBUTES
        ]
        fields.append(
            FieldSpec(
                "piramide",
                "Pirámide",
                FieldKind.CHOICE,
                choices=tuple(data.pyramids),
                group="habilidades",
            )
        )
        fields += [
            FieldSpec(f"habilidades.{s}", s, FieldKind.INTEGER, 0, level_max, group="habilidades")
            for s in data.skills
        ]
        if setting(settings, "magia"):
            fields += [
                FieldSpec(f"hechizos.{s}", s, FieldKind.INTEGER, 0, level_max, group="hechizos")
                for s in data.spells
            ]
        if setting(settings, "ventajas"):
            fields.append(
                FieldSpec("ventaja", "Ventaja", FieldKind.CHOICE, choices=tuple(data.advantages))
            )
        if setting(settings, "razas"):
            races = tuple(data.races) + tuple(data.race_aliases)
            fields.append(FieldSpec("raza", "Raza", FieldKind.CHOICE, choices=races))
            choices = tuple(c for r in data.races.values() for c in r.free_advantage_choice)
            fields.append(
                FieldSpec("ventaja_racial", "Ventaja racial", FieldKind.CHOICE, choices=choices)
            )
        weapons = tuple(data.weapons)
        armour = tuple(
            a.name
            for a in data.armour.values()
            if setting(settings, "armaduras_especiales") or not a.special
        )
        fields += [
            FieldSpec(
                "equipo.arma_principal",
                "Arma principal",
                FieldKind.CHOICE,
                choices=weapons,
                group="equipo",
            ),
            FieldSpec("equipo.dos_manos", "A dos manos", FieldKind.BOOLEAN, group="equipo"),
            FieldSpec(
                "equipo.arma_secundaria",
                "Arma secundaria",
                FieldKind.CHOICE,
                choices=weapons,
                group="equipo",
            ),
            FieldSpec(
                "equipo.armadura", "Armadura", FieldKind.CHOICE, choices=armour, group="equipo"
            ),
            FieldSpec("equipo.escudo", "Escudo", FieldKind.BOOLEAN, group="equipo"),
            FieldSpec("heridas", "Heridas", FieldKind.INTEGER, 0, group="estado"),
            # The GM holds the token once given and decides when to hand it back.
            FieldSpec("token", "Token", FieldKind.BOOLEAN, group="estado", referee_only=True),
            FieldSpec("px", "PX", FieldKind.INTEGER, 0, group="estado", referee_only=True),
            FieldSpec("dinero", "Dinero", FieldKind.INTEGER, 0, group="equipo"),
            FieldSpec(
                "pv_maximo",
                "PV fijos (PNJ)",
                FieldKind.INTEGER,
                0,
                npc.PV_MAX,
                group="estado",
                referee_only=True,
            ),
        ]
        if setting(settings, "magia"):
            fields.append(
                FieldSpec("mana_gastado", "Maná gastado", FieldKind.INTEGER, 0, group="estado")
            )
        return tuple(fields)

    def new_sheet(self, name: str, settings: Settings) -> dict[str, Any]:
        return new_sheet(name)

    def validate(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        sheet, problems = normalise(sheet)
        if sheet.get("system", "nucleo") != "nucleo":
            problems.append(
                Problem(
                    "nucleo.problem.wrong_system", "system", {"system": str(sheet.get("system"))}
                )
            )
        races_on = setting(settings, "razas")
        race = creation.find_race(sheet.get("raza")) if races_on else None
        attributes = sheet.get("atributos") or {}
        if is_npc(sheet):
            problems += npc.validate_npc(
                sheet,
                races=races_on,
                advantages=setting(settings, "ventajas"),
                magic=setting(settings, "magia"),
            )
        else:
            # the creation rules on the sheet as created: PX bought raises since (advancement)
            problems += self._validate_creation(advancement.created(sheet), race, settings)
        problems += self._validate_equipment(sheet, attributes, race, settings)
        problems += self._validate_state(sheet, settings)
        return problems

    @staticmethod
    def _validate_creation(sheet: Sheet, race: Any, settings: Settings) -> list[Problem]:
        """A player character follows the creation rules: points, pyramid, race, advantage."""
        problems: list[Problem] = []
        races_on = setting(settings, "razas")
        if races_on:
            problems += creation.validate_race(sheet.get("raza"), sheet.get("ventaja_racial"))
        attributes = sheet.get("atributos") or {}
        problems += creation.validate_attributes(attributes, race)
        spells = sheet.get("hechizos") or {}
        if not setting(settings, "magia"):
            problems += [
                Problem(
                    "nucleo.problem.module_disabled",
                    f"hechizos.{name}",
                    {"item": name, "module": "magia"},
                )
                for name, level in spells.items()
                if level
            ]
            spells = {}
        problems += creation.validate_pyramid(
            sheet.get("piramide"), sheet.get("habilidades") or {}, spells, race
        )
        if setting(settings, "ventajas"):
            problems += creation.validate_advantage(sheet.get("ventaja"), attributes, race)
        loose = {"nucleo.problem.attribute_total", "nucleo.problem.pyramid_count"}
        if not setting(settings, "creacion_estricta"):
            problems = [p for p in problems if p.key not in loose]
        elif any(p.key in loose for p in problems):
            # A raise after creation (Físico 6 → 7 with /sheet set) breaks the 37 points or
            # the pyramid: say which rule refuses it and how the GM turns it off.
            problems.append(
                Problem(STRICT_CREATION, "", {})
            )  # not a setting's path: see check_settings
        if sheet.get("pv_maximo"):  # 0 or absent: Físico × 4, as for everyone
            problems.append(Problem("nucleo.problem.npc_only", "pv_maximo", {"field": "pv_maximo"}))
        return problems

    @staticmethod
    def _validate_equipment(
        sheet: Sheet, attributes: Mapping[str, int], race: Any, settings: Settings
    ) -> list[Problem]:
        data = catalogue()
        equipo = sheet.get("equipo") or {}
        if not isinstance(equipo, Mapping):
            return [Problem("nucleo.problem.bad_equipment", "equipo")]
        problems = []
        for slot, table in (
            ("arma_principal", data.weapons),
            ("arma_secundaria", data.weapons),
            ("armadura", data.armour),
        ):
            item = equipo.get(slot)
            if item and (not isinstance(item, str) or item not in table):
                problems.append(
                    Problem("nucleo.problem.item_unknown", f"equipo.{slot}", {"item": item})
                )
        problems += equipment.validate_equipment(
            equipment_items(sheet),
            attributes,
            race,
            special_armour=setting(settings, "armaduras_especiales"),
        )
        return problems

    def _validate_state(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        problems = []
        for key in ("heridas", "mana_gastado", "px", "dinero"):
            value = sheet.get(key, 0)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.append(
                    Problem("nucleo.problem.bad_number", key, {"field": key, "value": value})
                )
        notes = sheet.get("notas", "")
        if notes is not None and (not isinstance(notes, str) or len(notes) > MAX_NOTES):
            problems.append(Problem("nucleo.problem.bad_notes", "notas", {"limit": MAX_NOTES}))
        char = character(sheet, settings)
        if setting(settings, "magia") and char.mana_spent > char.derived.mana:
            params = {"spent": char.mana_spent, "maximum": char.derived.mana}
            problems.append(Problem("nucleo.problem.mana_spent", "mana_gastado", params))
        return problems

    def derived(self, sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
        char = character(sheet, settings)
        a, d, gear = char.attributes, char.derived, char.loadout
        limits = char.limits
        if is_npc(sheet) and sheet.get("pv_maximo"):
            pv_formula = "PV fijos (PNJ)"
        else:
            pv_formula = f"Físico {a['Físico']} × {d.pv // a['Físico'] if a['Físico'] else 4}"
        values = [
            DerivedValue("pv", "Puntos de Vida", d.pv, pv_formula),
            DerivedValue(
                "esquivar",
                "Esquivar",
                d.esquivar,
                f"Destreza {a['Destreza']} + Esquivar {char.skills.get('Esquivar', 0)}",
            ),
            DerivedValue(
                "defensa",
                "Defensa",
                d.defensa,
                f"Esquivar {d.esquivar} + 5" + self._bonus_text(d.defensa - d.esquivar - 5),
            ),
            DerivedValue(
                "reflejos",
                "Reflejos",
                d.reflejos,
                f"Percepción {a['Percepción']} + Reflejos {char.skills.get('Reflejos', 0)}",
            ),
            DerivedValue(
                "iniciativa",
                "Iniciativa",
                d.iniciativa,
                f"Reflejos {d.reflejos}" + self._bonus_text(d.iniciativa - d.reflejos),
            ),
            DerivedValue(
                "voluntad",
                "Voluntad",
                d.voluntad,
                f"Carisma {a['Carisma']} + Inteligencia {a['Inteligencia']} + 5",
            ),
        ]
        if setting(settings, "magia"):
            mana_mult = d.mana // a["Inteligencia"] if a["Inteligencia"] else 3
            values.append(
                DerivedValue(
                    "mana", "Maná", d.mana, f"Inteligencia {a['Inteligencia']} × {mana_mult}"
                )
            )
            values.append(
                DerivedValue(
                    "mana_restante",
                    "Maná restante",
                    char.mana_left,
                    f"{d.mana} − {char.mana_spent}",
                    "estado",
                )
            )
        values += [
            DerivedValue(
                "absorcion",
                "Absorción",
                gear.absorption,
                f"{gear.armour_absorption} + {gear.natural_absorption}",
                "equipo",
            ),
            DerivedValue("estorbo", "Estorbo", gear.estorbo, "", "equipo"),
            DerivedValue(
                "otros",
                "Otros objetos",
                ", ".join(
                    name if count == 1 else f"{name} ×{count}"
                    for name, count in carried(sheet).items()
                ),
                "",
                "equipo",
            ),
            DerivedValue(
                "umbrales",
                "Umbrales de heridas",
                f"{limits.malherido} / {limits.inconsciente} / {limits.muerto}",
                "malherido / inconsciente / muerto",
                "estado",
            ),
            DerivedValue(
                "pv_restantes",
                "PV restantes",
                d.pv - char.wounds,
                f"{d.pv} − {char.wounds}",
                "estado",
            ),
            DerivedValue("estado", "Estado", char.state, "", "estado"),
        ]
        keys = {"defensa": (effects.DEFENCE, 1), "absorcion": (effects.ABSORPTION, 1)}
        return effects.adjust_derived(values, sheet, keys)

    @staticmethod
    def _bonus_text(bonus: int) -> str:
        return f" {'+' if bonus >= 0 else '−'} {abs(bonus)}" if bonus else ""

    # -- checks ----------------------------------------------------------------------------

    def check_options(self, sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
        data = catalogue()
        options = [CheckOption(f"atributo:{a}", a, "atributo") for a in ATTRIBUTES]
        options += [CheckOption(f"habilidad:{s}", s, "habilidad") for s in data.skills]
        options.append(CheckOption("iniciativa", "Iniciativa", "iniciativa"))
        options.append(CheckOption("ataque:cuerpo_a_cuerpo", "Ataque cuerpo a cuerpo", "ataque"))
        options.append(CheckOption("ataque:distancia", "Ataque a distancia", "ataque"))
        options += [
            CheckOption(f"salvacion:{a}", f"Salvación ({a})", "salvacion") for a in ATTRIBUTES
        ]
        if setting(settings, "magia"):
            char = character(sheet, settings)
            options += [
                CheckOption(f"hechizo:{s}", s, "hechizo")
                for s, level in char.spells.items()
                if level > 0
            ]
        return tuple(options)

    def check(
        self, sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
    ) -> CheckResult:
        return rolls.check(sheet, request, settings, rng)

    def opposed(
        self,
        a: Sheet,
        a_request: CheckRequest,
        b: Sheet,
        b_request: CheckRequest,
        settings: Settings,
        rng: random.Random,
    ) -> OpposedResult:
        return rolls.opposed(a, a_request, b, b_request, settings, rng)

    # -- combat and health -----------------------------------------------------------------

    def initiative(self, sheet: Sheet, settings: Settings, rng: random.Random) -> InitiativeRoll:
        char = character(sheet, settings)
        keep = rolls.keep_for(char, frozenset(), settings, False, [])
        roll = combat.roll_initiative(
            char.derived.iniciativa, rng, keep, setting(settings, "pifia_con_menor")
        )
        last = roll.goes_last
        return InitiativeRoll(
            total=roll.check.total,
            sort_key=(0 if last else 1, roll.check.total, char.derived.iniciativa),
            breakdown=roll.check.breakdown,
            actions=roll.actions,
            skips_first_round=roll.skips_first_round,
            goes_last=last,
        )

    def _with(self, sheet: Sheet, **changes: Any) -> dict[str, Any]:
        updated = dict(sheet)
        updated.update(changes)
        return updated

    # -- actions in a turn (ActionEconomy) -------------------------------------------------

    def action_allowance(self, actions: int, settings: Settings) -> Allowance:
        """The initiative's actions (seed 002, Combate 2): :mod:`rules.nucleo.turns`."""
        return turns.allowance(actions)

    def action_cost(self, act: ActRequest, settings: Settings) -> Use:
        return turns.cost(act)

    def combat_policy(self, settings: Settings) -> CombatPolicy:
        """Iniciativa + 1o3d10 once for the whole combat; 20+ gives 2 actions, 30+ 3 …
        (seed 002, Combate 1-3); ties by the base Iniciativa in the key."""
        return CombatPolicy(action_step=10, typed_prefix=(1,), seed="002 Combate")

    def apply_damage(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        before = character(sheet, settings)
        wounds = health.apply_damage(before.wounds, amount)
        updated = self._with(sheet, heridas=wounds)
        after = character(updated, settings)
        notes = (f"nucleo.note.estado_{after.state}",) if after.state != before.state else ()
        return HealthChange(updated, wounds - before.wounds, after.state, notes)

    def heal(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        before = character(sheet, settings)
        recuperacion = "Recuperación" in before.advantages
        wounds = health.heal(before.wounds, amount, recuperacion)
        updated = self._with(sheet, heridas=wounds)
        after = character(updated, settings)
        notes = []
        if recuperacion and amount > 0:
            notes.append("nucleo.note.recuperacion")
        if after.state != before.state:
            notes.append(f"nucleo.note.estado_{after.state}")
        return HealthChange(updated, before.wounds - wounds, after.state, tuple(notes))

    # -- healing between fights (Recovery, CatchBreath: rules/nucleo/recovery.py) ---------

    def rest_days(self, sheet: Sheet, days: int, settings: Settings) -> Recovered:
        return recovery.rest_days(sheet, days, settings)

    def guarded_paths(self, settings: Settings) -> tuple[str, ...]:
        return recovery.GUARDED_PATHS

    def catch_breath(
        self, sheet: Sheet, fight: int | None, settings: Settings, rng: random.Random
    ) -> Recovered:
        return recovery.catch_breath(sheet, fight, settings, rng)

    def session_bonus(self, sheet: Sheet, settings: Settings) -> tuple[int, str | None]:
        """Seed 002, «Módulo de reglas: Razas»: Humano «Recibe 1px más por partida»,
        Artificial «Gana 1px menos por partida» (``SessionAward``); only with races on."""
        if is_npc(sheet) or not setting(settings, "razas"):
            return 0, None
        race = creation.find_race(sheet.get("raza"))
        if race is None or not race.px_per_session:
            return 0, None
        return race.px_per_session, race.name

    # -- experience (Advancement, PurchaseApproval: rules/nucleo/advancement.py) ----------

    def purchases(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        return advancement.purchases(sheet, settings)

    def purchase(self, sheet: Sheet, what: str, settings: Settings) -> AdvanceResult:
        result = advancement.purchase(sheet, what, settings)
        return replace(result, sheet={**result.sheet, "mejora_pendiente": None})

    def needs_approval(self, settings: Settings) -> bool:
        return bool(setting(settings, "mejoras_con_aprobacion"))

    def ask_purchase(self, sheet: Sheet, what: str, settings: Settings) -> tuple[Sheet, str]:
        """Checked as the purchase itself would be (the maxima, the pyramid, the PX), so an
        impossible one is refused now rather than when the GM approves it."""
        result = advancement.purchase(sheet, what, settings)
        kind, name = advancement.read(what, settings)
        before, after = result.levels[name]
        cost = result.xp_before - result.xp_after
        shown = f"{name} {before} → {after} ({cost} PX)"
        return {**sheet, "mejora_pendiente": f"{kind}:{name}"}, shown

    def pending_purchase(self, sheet: Sheet) -> str | None:
        pending = sheet.get("mejora_pendiente")
        return pending if isinstance(pending, str) and pending else None

    def drop_pending(self, sheet: Sheet) -> Sheet:
        return {**sheet, "mejora_pendiente": None}

    def grant_xp(self, sheet: Sheet, amount: int, settings: Settings) -> AdvanceResult:
        """The seed names PX only through races (±1 per session) and sets no costs: we keep
        the count and buy nothing automatically."""
        before = sheet.get("px", 0) if isinstance(sheet.get("px"), int) else 0
        after = max(0, before + amount)
        return AdvanceResult(self._with(sheet, px=after), before, after)

    # -- fights (rules.combat.attack.Attacks, rules.combat.health.HealthStates) ------------

    def weapons(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        return fight.weapons(sheet, settings)

    def attack(
        self, request: AttackRequest, settings: Settings, rng: random.Random
    ) -> AttackResult:
        return fight.attack(request, settings, rng)

    def combat_state(self, sheet: Sheet, settings: Settings) -> CombatState:
        return fight.combat_state(sheet, settings)

    def spell_change(
        self, cast: CastResult, target: Fighter, settings: Settings
    ) -> TargetChange | None:
        """What a damaging or healing cast does to ``target`` (absorption unless the spell
        ignores armour; Toque vampírico's drain goes to the caster as ``to_attacker``)."""
        spell = magic.find_spell(cast.label)
        if spell is None:
            return None
        return spell_effects.spell_change(cast, spell, target, settings)

    def spells(self, settings: Settings) -> tuple[SpellInfo, ...]:
        return spellbook.spell_infos(settings)

    # -- creation (CharacterBuilder) -------------------------------------------------------

    def catalogue(self, kind: str, settings: Settings) -> tuple[StepOption, ...]:
        return belongings.catalogue(kind, settings)

    def adjust_inventory(
        self, sheet: Sheet, item: str, quantity: int, settings: Settings
    ) -> dict[str, Any]:
        return belongings.adjust_inventory(sheet, item, quantity, settings)

    def adjust_money(
        self, sheet: Sheet, amount: int, currency: str | None, settings: Settings
    ) -> dict[str, Any]:
        return belongings.adjust_money(sheet, amount, currency, settings)


SYSTEM = NucleoSystem()
