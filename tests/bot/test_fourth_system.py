"""A fourth rule system, added the way docs/architecture.md says: new files plus one line.

The test writes a small but complete system («Dado»: two attributes, a d6 check) into a
temporary directory laid out like the repository — ``rules/dado/system.py`` and
``bot/locales/{es,en}/dado.toml`` — adds the one registry line (``"dado":
"rules.dado.system"`` in ``rules.systems._MODULES``) and nothing else.  Then the contract
suite's core checks, the import contract and the bot's own use of the registry (campaign
choices, the catalogue, a campaign of that system with a character exported and imported
on SQLite and PostgreSQL) must all accept it.

Dado also has optional capabilities of ``rules/systems/base.py``: ``HealthStates`` (dead at
twice Cuerpo in wounds), ``Attacks`` (a blow is 1d6 + Cuerpo against Defensa 3 + Mente) and
``PlayerDefence`` (its players roll their own defence: 1d6 + Mente against 3 + the
attacker's Cuerpo).  ``/attack`` finds both through
``capabilities(system)``: an NPC's blow asks the player's defence, with the button of the
reply, and the player's roll lands the damage — with no edit in ``bot/`` or ``cogs/``.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

import bot.i18n
import rules
from bot.i18n import LOCALES, Catalogue
from bot.services import Actor, Place
from rules import systems
from rules.combat.attack import AttackOutcome
from rules.systems.base import capabilities
from tests import system_contract as contract
from tests.rules.rolweb.conftest import FixedRandom
from tests.rules.test_import_contract import forbidden, imported_names

ROOT = Path(__file__).resolve().parents[2]
GUILD, CHANNEL = 1000, 11
HERE = Place(GUILD, CHANNEL, (CHANNEL,))
GM = Actor(1, "Máster", can_manage_channels=True)
ANA = Actor(2, "Ana")

SYSTEM_PY = '''
"""«Dado»: Cuerpo and Mente from 1 to 6; a check is 1d6 + attribute against a difficulty."""

from __future__ import annotations

import copy
import random
from typing import Any

from rules.combat import effects
from rules.combat.attack import (
    AttackOutcome, AttackRequest, AttackResult, DefenceRequest, Fighter, RollLine, TargetChange,
)
from rules.combat.health import CombatState, Condition
from rules.inventory import item_request
from rules.systems.base import (
    AdvanceResult, CheckOption, CheckRequest, CheckResult, CombatPolicy, CreationOutcome,
    CreationStep, DerivedValue, FieldKind, FieldSpec, HealthChange, InitiativeRoll,
    LoggedRoll, OpposedResult, Outcome, Problem, RestResult, RulesError, SettingSpec, Settings,
    Sheet, SpellInfo, SpellList, SpellState, StepKind, StepOption,
)

ATTRIBUTES = ("Cuerpo", "Mente")
TRADES = {"guerrero": "Guerrero", "sabio": "Sabio"}
NO_SPELLS = "dado.note.no_spells"


def _copy(sheet: Sheet) -> dict[str, Any]:
    return copy.deepcopy(dict(sheet))


class DadoSystem:
    id = "dado"
    name = "Dado"
    seed = "toy"

    def settings(self) -> tuple[SettingSpec, ...]:
        return (SettingSpec("dificultad", FieldKind.INTEGER, 7, minimum=2, maximum=12),)

    def fields(self, settings: Settings) -> tuple[FieldSpec, ...]:
        return (
            *(FieldSpec(f"atributos.{a}", a, FieldKind.INTEGER, 1, 6) for a in ATTRIBUTES),
            FieldSpec("oficio", "Oficio", FieldKind.CHOICE, choices=tuple(TRADES)),
            FieldSpec("heridas", "Heridas", FieldKind.INTEGER, 0, 99),
            FieldSpec("xp", "Experiencia", FieldKind.INTEGER, 0, 100000, referee_only=True),
        )

    def new_sheet(self, name: str, settings: Settings) -> dict[str, Any]:
        return {"name": name, "system": self.id, "atributos": {a: 1 for a in ATTRIBUTES},
                "oficio": None, "heridas": 0, "xp": 0, "dinero": 0, "equipo": {}}

    def validate(self, sheet: Sheet, settings: Settings) -> list[Problem]:
        problems = []
        for a in ATTRIBUTES:
            value = (sheet.get("atributos") or {}).get(a)
            if not isinstance(value, int) or not 1 <= value <= 6:
                problems.append(Problem("dado.problem.attribute", f"atributos.{a}", {"name": a}))
        if sheet.get("oficio") not in TRADES:
            problems.append(Problem("dado.problem.trade", "oficio", {}))
        return problems

    def _value(self, sheet: Sheet, attribute: str) -> int:
        return int(sheet["atributos"][attribute])

    def derived(self, sheet: Sheet, settings: Settings) -> tuple[DerivedValue, ...]:
        body = self._value(sheet, "Cuerpo")
        values = (
            DerivedValue("pv", "Puntos de vida", body * 2 - sheet.get("heridas", 0),
                         f"Cuerpo {body} × 2 − heridas"),
            DerivedValue("defensa", "Defensa", 3 + self._value(sheet, "Mente"), "3 + Mente"),
        )
        return effects.adjust_derived(values, sheet, {"defensa": (effects.DEFENCE, 1)})

    def check_options(self, sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
        return tuple(CheckOption(f"atributo:{a}", a, "atributo") for a in ATTRIBUTES)

    def check(self, sheet: Sheet, request: CheckRequest, settings: Settings,
              rng: random.Random) -> CheckResult:
        kind, _, attribute = request.option.partition(":")
        if kind != "atributo" or attribute not in ATTRIBUTES:
            raise RulesError(Problem("dado.problem.unknown_option", "", {"option": request.option}))
        die = rng.randint(1, 6)
        mods = tuple(effects.check_modifiers(sheet, request.option, attribute))
        total = die + self._value(sheet, attribute) + request.modifier + sum(v for _, v in mods)
        target = request.difficulty or int(settings.get("dificultad", 7))
        outcome = Outcome.SUCCESS if total >= target else Outcome.FAILURE
        return CheckResult(request.option, attribute, f"1d6+{self._value(sheet, attribute)}",
                           total, f"1d6 ({die})", outcome, target, modifiers=mods)

    def opposed(self, a: Sheet, a_request: CheckRequest, b: Sheet, b_request: CheckRequest,
                settings: Settings, rng: random.Random) -> OpposedResult:
        first = self.check(a, a_request, settings, rng)
        second = self.check(b, b_request, settings, rng)
        winner = "a" if first.total > second.total else "b" if second.total > first.total else "tie"
        return OpposedResult(first, second, winner)

    def initiative(self, sheet: Sheet, settings: Settings, rng: random.Random) -> InitiativeRoll:
        die, mind = rng.randint(1, 6), self._value(sheet, "Mente")
        return InitiativeRoll(die + mind, (die + mind, mind), f"1d6 ({die}) + Mente {mind}")

    def combat_policy(self, settings: Settings) -> CombatPolicy:
        return CombatPolicy(seed="Dado: 1d6 + Mente")

    def _health(self, sheet: Sheet, wounds: int, amount: int) -> HealthChange:
        updated = _copy(sheet)
        updated["heridas"] = max(0, wounds)
        state = "muerto" if updated["heridas"] >= self._value(sheet, "Cuerpo") * 2 else "normal"
        return HealthChange(updated, amount, state)

    def apply_damage(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        return self._health(sheet, sheet.get("heridas", 0) + amount, amount)

    def heal(self, sheet: Sheet, amount: int, settings: Settings) -> HealthChange:
        return self._health(sheet, sheet.get("heridas", 0) - amount, amount)

    def grant_xp(self, sheet: Sheet, amount: int, settings: Settings) -> AdvanceResult:
        updated = _copy(sheet)
        updated["xp"] = sheet.get("xp", 0) + amount
        return AdvanceResult(updated, sheet.get("xp", 0), updated["xp"])

    def spells(self, settings: Settings) -> tuple[SpellInfo, ...]:
        return ()

    def spell_list(self, settings: Settings) -> SpellList:
        return SpellList((), NO_SPELLS)

    def spell_state(self, sheet: Sheet, settings: Settings) -> SpellState:
        return SpellState()

    def cast(self, sheet, request, settings, rng):  # noqa: ANN001, ANN201
        raise RulesError(Problem(NO_SPELLS))

    def rest(self, sheet: Sheet, settings: Settings) -> RestResult:
        raise RulesError(Problem(NO_SPELLS))

    def creation_step(self, draft: Sheet, done: tuple[str, ...], settings: Settings, *,
                      npc: bool = False) -> CreationStep | None:
        if "atributos" not in done:
            return CreationStep("atributos", StepKind.ROLL, Problem("dado.step.atributos"))
        if "oficio" not in done:
            options = tuple(StepOption(k, label) for k, label in TRADES.items())
            return CreationStep("oficio", StepKind.CHOOSE, Problem("dado.step.oficio"), options)
        return None

    def apply_creation_step(self, draft: Sheet, step_key: str, answer: Any, settings: Settings,
                            rng: random.Random, *, npc: bool = False) -> CreationOutcome:
        updated = _copy(draft)
        if step_key == "atributos":
            rolls = []
            for a in ATTRIBUTES:
                updated["atributos"][a] = rng.randint(1, 6)
                rolls.append(LoggedRoll("1d6", str(updated["atributos"][a]),
                                        updated["atributos"][a], a))
            return CreationOutcome(updated, tuple(rolls))
        if step_key == "oficio" and isinstance(answer, list) and answer and answer[0] in TRADES:
            updated["oficio"] = answer[0]
            return CreationOutcome(updated)
        raise RulesError(Problem("dado.problem.trade", "oficio", {}))

    def catalogue(self, kind: str, settings: Settings) -> tuple[StepOption, ...]:
        return (StepOption("Cuerda", "Cuerda"),) if kind == "equipo" else ()

    def adjust_inventory(self, sheet: Sheet, item: str, quantity: int,
                         settings: Settings) -> dict[str, Any]:
        name = item_request(item, quantity)
        updated = _copy(sheet)
        have = updated["equipo"].get(name, 0)
        if have + quantity < 0:
            raise RulesError(Problem("dado.problem.not_carried", "equipo", {"name": name}))
        updated["equipo"][name] = have + quantity
        if not updated["equipo"][name]:
            del updated["equipo"][name]
        return updated

    def adjust_money(self, sheet: Sheet, amount: int, currency: str | None,
                     settings: Settings) -> dict[str, Any]:
        if sheet.get("dinero", 0) + amount < 0:
            raise RulesError(Problem("dado.problem.no_money", "dinero", {}))
        updated = _copy(sheet)
        updated["dinero"] = sheet.get("dinero", 0) + amount
        return updated


    # -- HealthStates, Attacks and PlayerDefence (optional capabilities) ------------------

    def combat_state(self, sheet: Sheet, settings: Settings) -> CombatState:
        most = self._value(sheet, "Cuerpo") * 2
        left = most - sheet.get("heridas", 0)
        if left <= 0:
            return CombatState(Condition.DEAD, "muerto", "muerto", skip_turn=True,
                               allowed=frozenset(), reason="combat.problem.cannot_act",
                               description="muerto", hit_points=(left, most))
        return CombatState(Condition.OK, "normal", "normal", description="normal",
                           hit_points=(left, most))

    def weapons(self, sheet: Sheet, settings: Settings) -> tuple[StepOption, ...]:
        return (StepOption("Puño", "Puño", "1d6"),)

    def _body(self, fighter: Fighter) -> int:
        if fighter.sheet is None:
            return fighter.attack_bonus or 0
        return self._value(fighter.sheet, "Cuerpo")

    def _blow(self, outcome: AttackOutcome, line: RollLine, target: int,
              defence: int | None, rng: random.Random) -> AttackResult:
        if outcome is not AttackOutcome.HIT:
            return AttackResult(outcome, "Puño", line, line.total, target, defence)
        damage = rng.randint(1, 6)
        return AttackResult(
            outcome, "Puño", line, line.total, target, defence,
            damage_rolls=(RollLine("Daño", "1d6", damage, f"1d6 ({damage})"),),
            damage=damage, change=TargetChange("damage", damage),
        )

    def attack(self, request: AttackRequest, settings: Settings,
               rng: random.Random) -> AttackResult:
        body = self._body(request.attacker)
        if request.defender_rolls:
            asked = DefenceRequest(request.attacker, request.target, None, 3 + body)
            return AttackResult(AttackOutcome.DEFENCE_REQUESTED, "Puño", None, None, 3 + body,
                                None, defence_request=asked)
        die = rng.randint(1, 6)
        line = RollLine("Ataque", f"1d6+{body}", die + body + request.modifier,
                        f"1d6 ({die}) + {body}")
        target = request.target
        defence = 3 + self._value(target.sheet, "Mente") if target.sheet else target.defence
        if defence is None:
            return AttackResult(AttackOutcome.UNJUDGED, "Puño", line, line.total, None, None)
        hit = line.total >= defence
        outcome = AttackOutcome.HIT if hit else AttackOutcome.MISS
        return self._blow(outcome, line, defence, defence, rng)

    def resolve_defence(self, request: DefenceRequest, settings: Settings,
                        rng: random.Random) -> AttackResult:
        die, mind = rng.randint(1, 6), self._value(request.defender.sheet or {}, "Mente")
        line = RollLine("Defensa", f"1d6+{mind}", die + mind, f"1d6 ({die}) + {mind}")
        outcome = AttackOutcome.MISS if line.total >= request.target else AttackOutcome.HIT
        return self._blow(outcome, line, request.target, None, rng)


SYSTEM = DadoSystem()
'''

LOCALE = {
    "es": """
[system]
choice = "Dado (1d6 + atributo)"

[problem]
attribute = "«{name}» va de 1 a 6."
trade = "Elige un oficio."
unknown_option = "No se puede tirar «{option}»."
not_carried = "No lleva «{name}»."
no_money = "No alcanza el dinero."

[note]
no_spells = "Dado no tiene conjuros."

[step]
atributos = "Tira Cuerpo y Mente."
oficio = "Elige un oficio."
""",
    "en": """
[system]
choice = "Dado (1d6 + attribute)"

[problem]
attribute = "“{name}” goes from 1 to 6."
trade = "Choose a trade."
unknown_option = "“{option}” cannot be rolled."
not_carried = "Not carrying “{name}”."
no_money = "Not enough money."

[note]
no_spells = "Dado has no spells."

[step]
atributos = "Roll Cuerpo and Mente."
oficio = "Choose a trade."
""",
}


@pytest.fixture
def dado(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalogue:
    """Write the new files, add the registry line; return the catalogue the bot would load."""
    package = tmp_path / "rules" / "dado"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""The «Dado» rule system (a test\'s toy)."""\n')
    (package / "system.py").write_text(SYSTEM_PY.lstrip(), encoding="utf-8")
    locales = tmp_path / "bot" / "locales"
    shutil.copytree(ROOT / "bot" / "locales", locales)  # the existing files, untouched
    for lang, text in LOCALE.items():
        (locales / lang / "dado.toml").write_text(text.lstrip(), encoding="utf-8")
    # The new package is found where a real one would be: under the ``rules`` package.
    monkeypatch.setattr(rules, "__path__", [*rules.__path__, str(tmp_path / "rules")])
    # The one registry line.
    monkeypatch.setitem(systems._MODULES, "dado", "rules.dado.system")
    monkeypatch.setattr(systems, "_cache", {})
    merged = Catalogue.load(locales)
    monkeypatch.setattr(bot.i18n, "catalogue", lambda: merged)
    yield merged
    for name in [m for m in sys.modules if m.startswith("rules.dado")]:
        del sys.modules[name]


def test_the_new_system_passes_the_contract_suite(dado):
    assert "dado" in systems.ids()
    contract.run_core(systems.get("dado"), "dado", answers={})
    able = capabilities(systems.get("dado"))
    assert able.attacks and able.health and able.player_defence
    assert able.ambush is None and able.attack_situations is None


def test_the_new_system_keeps_the_import_contract(dado, tmp_path):
    source = (tmp_path / "rules" / "dado" / "system.py").read_text(encoding="utf-8")
    names = imported_names(source, "rules.dado.system")
    assert "rules.inventory" in names and forbidden(names) == set()


def test_the_bot_offers_and_translates_the_new_system(dado):
    from cogs.campaign import system_choices

    assert [c.value for c in system_choices()][-1] == "dado"
    assert system_choices()[-1].name == "Dado (1d6 + attribute)"
    # The catalogue's parity rule holds with the new files, and every key the system
    # emits has a message in both languages.
    dado_keys = {
        lang: {k for k in dado.messages[lang] if k.startswith("dado.")} for lang in LOCALES
    }
    assert dado_keys["es"] == dado_keys["en"] and len(dado_keys["es"]) == 9
    for lang in LOCALES:
        assert dado.get("dado.system.choice", lang)
        for key in ("dado.note.no_spells", "dado.step.oficio", "dado.problem.trade"):
            assert dado.has(key, lang), (key, lang)


async def test_a_campaign_of_the_new_system_stores_exports_and_imports_a_character(dado, services):
    system = systems.get("dado")
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="dado", target_id=CHANNEL, kind="channel"
    )
    settings = contract.default_settings(system)
    sheet = contract.build(system, settings, {}, name="Eira")
    created = await services.characters.create(HERE, ANA, sheet)
    assert {d.key for d in created.derived} == {"pv", "defensa"}
    changed = await services.characters.set_field(HERE, ANA, None, "oficio", "SABIO")
    assert changed.sheet["oficio"] == "sabio"
    _filename, payload = await services.sheet_exchange.export(HERE, ANA, "Eira")
    document = json.loads(payload)
    document["sheet"]["name"] = "Eira II"
    imported = await services.sheet_exchange.import_sheet(HERE, ANA, json.dumps(document).encode())
    assert imported.sheet == {**changed.sheet, "name": "Eira II"}


async def test_the_new_systems_defence_reaches_attack(dado, services):
    """The Ogro (Cuerpo 5) hits Eira: Dado's players roll their defence, so ``/attack`` asks
    for it (3 + 5 = 8), its reply carries the defence button, and Eira's player rolls it
    (1d6 2 + Mente 3 = 5 < 8: hit, 1d6 4 damage) — the write and the audit row as for any
    system.  Then Eira hits back (1d6 6 + Cuerpo 4 = 10 ≥ Defensa 3 + 1: 1d6 3)."""
    from bot.services.play.attacks import AttackOrder
    from cogs.ui.attack_panel import DefenceButton, attack_message

    system = systems.get("dado")
    await services.campaigns.create(
        HERE, GM, name="Mesa", system="dado", target_id=CHANNEL, kind="channel"
    )
    settings = contract.default_settings(system)
    eira = contract.build(system, settings, {}, name="Eira")
    eira["atributos"] = {"Cuerpo": 4, "Mente": 3}
    await services.characters.create(HERE, ANA, eira)
    ogre = contract.build(system, settings, {}, name="Ogro")
    ogre["atributos"] = {"Cuerpo": 5, "Mente": 1}
    await services.characters.create(HERE, GM, ogre, is_npc=True)
    assert [w.value for w in await services.attacks.weapons(HERE, ANA, None)] == ["Puño"]

    asked = await services.attacks.attack(HERE, GM, AttackOrder("Eira", character="Ogro"))
    assert asked.result.outcome is AttackOutcome.DEFENCE_REQUESTED
    assert (asked.result.target_number, asked.defender_id) == (8, ANA.user_id)
    (button,) = attack_message(asked, "es")["view"].children  # the reply's defence button
    assert isinstance(button, DefenceButton) and (button.log_id, button.version) == (
        asked.log_id,
        1,
    )
    services.attacks.rng = FixedRandom(2, 4)
    defended = await services.attacks.defend(HERE, ANA, asked.log_id, 1)
    assert defended.result.hit and defended.result.damage == 4
    assert (await services.characters.show(HERE, ANA, "Eira")).sheet["heridas"] == 4

    services.attacks.rng = FixedRandom(6, 3)
    blow = await services.attacks.attack(HERE, ANA, AttackOrder("Ogro"))
    assert blow.result.hit and (blow.result.total, blow.result.damage) == (10, 3)
    assert (await services.characters.show(HERE, GM, "Ogro")).sheet["heridas"] == 3
