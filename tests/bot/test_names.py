"""Every id of every system has a display name in Spanish and in English (issue 13, §1).

The ids are gathered from the rules and the data files themselves, not from the names table,
so that a class, a setting or a choice added later fails here until it is named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.services.campaigns.service import COMMON_SETTINGS
from rules import systems
from rules.names import LOCALES, display, field_kind, has_name
from rules.systems.base import FieldKind
from rules.text import fold

DATA = Path(__file__).resolve().parents[2] / "data"
#: Choices that are numbers or dice read the same in every language.
_LITERAL = re.compile(r"^\d+(d\d+)?$")
#: A stored value shaped like an id (a field's choice may also be words: armour «Ligera»).
_ID = re.compile(r"^[a-z0-9_]+$")


def _swc_ids() -> Iterator[tuple[str, str]]:
    from rules.swc.advancement import THREATS
    from rules.swc.checks import THREAT_CATEGORY
    from rules.swc.classes import ALIGNMENTS, CLASS_IDS
    from rules.swc.races import RACE_IDS
    from rules.swc.saving_throws_alt import SaveCategory

    yield from (("clase", c) for c in CLASS_IDS)
    yield from (("clase", p.stem) for p in (DATA / "swc" / "classes").glob("*.json"))
    yield from (("raza", r) for r in RACE_IDS)
    races = json.loads((DATA / "swc" / "races.json").read_text(encoding="utf-8"))
    yield from (("raza", r["id"]) for r in races["razas"])
    for race in races["razas"]:
        yield from (("amenaza", t) for t in race["bonos_salvacion"])
    yield from (("alineamiento", a) for a in ALIGNMENTS)
    yield from (("amenaza", t) for t in (*THREATS, *THREAT_CATEGORY))
    yield from (("salvacion", s.value) for s in SaveCategory)
    from rules.swc import health

    yield from _states(iter((health.NORMAL, health.INCAPACITADO, health.MUERTO, health.ABATIDO)))
    # the default hit-point words a hidden NPC is described by («gravemente herido»)
    yield from _states(w.replace(" ", "_") for w in fold(health.DEFAULT_DESCRIPTION).split("|"))
    alt = json.loads((DATA / "swc" / "saving_throws_alt.json").read_text(encoding="utf-8"))
    yield from (("salvacion", c["clave"]) for c in alt["categorias"])
    for path in (DATA / "swc" / "classes").glob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for threat in doc.get("bonos_salvacion", {}):
            yield ("amenaza", threat)
        for row in doc["avance"]:
            yield from (("lista", lista) for lista in row.get("conjuros") or {})


def _states(states: Iterator[str]) -> Iterator[tuple[str, str]]:
    for state in states:
        yield ("estado", state)
        yield ("estado_femenino", state)


def _rolweb_ids() -> Iterator[tuple[str, str]]:
    from rules.rolweb.damage import LifeState
    from rules.rolweb.equipment import Shield
    from rules.rolweb.fight import STANDING_STATES
    from rules.rolweb.sheet import LEVEL_CHOICES

    yield from _states(s.value for s in LifeState)
    yield from _states(iter(STANDING_STATES))  # «ileso», «herido»: the tracker's words
    from rules.rolweb.actions import Action

    yield from (("accion", a.value) for a in Action)  # «acción de reacción» (no_action_left)
    yield from (("escudo", s.value) for s in Shield)
    yield from (("nivel", level) for level in LEVEL_CHOICES)
    yield ("armadura", "ninguna")


def _nucleo_ids() -> Iterator[tuple[str, str]]:
    from rules.nucleo import health

    yield from _states(iter((health.NORMAL, health.MALHERIDO, health.INCONSCIENTE, health.MUERTO)))
    skills = json.loads((DATA / "nucleo" / "skills.json").read_text(encoding="utf-8"))
    yield from (("piramide", p) for p in skills["pyramids"])
    races = json.loads((DATA / "nucleo" / "races.json").read_text(encoding="utf-8"))
    for race in races["races"]:
        yield from (("piramide", p) for p in race.get("pyramids", ()))


_OWN = {"swc": _swc_ids, "rolweb": _rolweb_ids, "nucleo": _nucleo_ids}


def _all_ids() -> Iterator[tuple[str | None, str, str]]:
    for spec in COMMON_SETTINGS:
        yield (None, "setting", spec.key)
    for gender in ("femenino", "masculino", "neutro"):
        yield (None, "genero", gender)
    for system in systems.all_systems():
        yield from ((system.id, kind, value) for kind, value in _OWN[system.id]())
        for spec in system.settings():
            yield (system.id, "setting", spec.key)
            if spec.kind is FieldKind.CHOICE:
                for choice in spec.choices:
                    if not _LITERAL.match(str(choice)):
                        yield (system.id, f"valor.{spec.key}", str(choice))
        defaults = {s.key: s.default for s in system.settings()}
        for spec in system.fields(defaults):
            kind = field_kind(system.id, spec.path)
            if kind is not None and spec.kind is FieldKind.CHOICE:
                for choice in spec.choices:
                    for part in str(choice).split("/"):
                        if _ID.match(part):
                            yield (system.id, kind, part)


def test_the_walk_finds_the_ids_the_issue_names() -> None:
    found = set(_all_ids())
    for expected in [
        ("swc", "clase", "clerigo"),
        ("swc", "amenaza", "paralisis"),
        ("swc", "alineamiento", "caotico"),
        ("nucleo", "piramide", "versatil"),
        ("rolweb", "setting", "movimiento_a_combate"),
        ("swc", "setting", "monjes_permitidos"),
        ("swc", "lista", "clerigo"),
    ]:
        assert expected in found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_id_of_every_system_has_a_display_name(locale: str) -> None:
    missing = sorted(
        {
            f"{system or 'comun'}.{kind}.{value}"
            for system, kind, value in _all_ids()
            if not has_name(system, kind, value, locale)
            and not (system and has_name(None, kind, value, locale))
        }
    )
    assert not missing, f"ids without a {locale} display name: {missing}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_state_reads_lowercase(locale: str) -> None:
    """A state is written as Spanish writes it mid-sentence («Estado: malherida», «Aldara
    está inconsciente») in every system, gender and language; a renderer capitalises the
    one that begins a line, never the table (was: «normal» but «Malherido», «Ileso»)."""
    states = [
        (system, kind, value)
        for system, kind, value in _all_ids()
        if kind in ("estado", "estado_femenino")
    ]
    assert {system for system, _k, _v in states} == {"swc", "rolweb", "nucleo"}
    capitalised = [
        f"{system}.{kind}.{value}: {named}"
        for system, kind, value in states
        if (named := display(system, kind, value, locale)) != named.lower()
    ]
    assert not capitalised


@pytest.mark.parametrize(
    ("system", "kind", "value", "es", "en"),
    [
        ("swc", "clase", "clerigo", "Clérigo", "Cleric"),
        ("swc", "clase", "paladin", "Paladín", "Paladin"),
        ("swc", "alineamiento", "caotico", "caótico", "chaotic"),
        ("swc", "amenaza", "paralisis", "parálisis", "paralysis"),
        ("nucleo", "piramide", "versatil", "Versátil", "Versatile"),
        ("nucleo", "estado", "malherido", "malherido", "badly wounded"),
        ("rolweb", "estado", "herido", "herido", "wounded"),
        ("rolweb", "estado_femenino", "ileso", "ilesa", "unhurt"),
        ("swc", "estado_femenino", "gravemente herido", "gravemente herida", "badly wounded"),
        ("swc", "clase", "guerrero/mago", "Guerrero/Mago", "Fighter/Magic-User"),
        ("nucleo", "raza", "Alto Elfo", "Alto Elfo", "Alto Elfo"),  # already words
    ],
)
def test_display_names(system: str, kind: str, value: str, es: str, en: str) -> None:
    assert display(system, kind, value, "es") == es
    assert display(system, kind, value, "en") == en


def test_spanish_names_agree_with_the_data_files() -> None:
    """The class and race names of the names table are the book's (data/swc)."""
    from rules.swc.classes import CLASS_IDS, get_class
    from rules.swc.races import RACE_IDS, get_race

    for clase in CLASS_IDS:
        assert display("swc", "clase", clase) == get_class(clase).nombre
    for raza in RACE_IDS:
        assert display("swc", "raza", raza) == get_race(raza).nombre


@pytest.mark.parametrize("locale", LOCALES)
def test_every_setting_says_what_it_does(locale: str) -> None:
    """/campaign show prints each rule with a description: none may be missing."""
    from bot.i18n import catalogue
    from bot.words import setting_description

    missing = []
    for system in systems.all_systems():
        for spec in (*system.settings(), *COMMON_SETTINGS):
            if not setting_description(system.id, spec.key, locale):
                missing.append(f"{system.id}.{spec.key}")
            key_es = [
                k
                for k in (f"{system.id}.setting.{spec.key}", f"settings.{system.id}.{spec.key}")
                if catalogue().has(k, locale)
            ]
            assert key_es or catalogue().has(f"settings.comun.{spec.key}", locale), spec.key
    assert not missing


def test_a_problem_names_its_lists_and_its_system() -> None:
    """Was: «varias listas (explorador.clerigo, explorador.mago)» and «del sistema «swc»»."""
    from bot.words import problem_text

    params = {"level": 1, "listas": "clerigo/mago", "system": "swc"}
    text = problem_text("spell.problem.which_list", params, "es")
    assert "varias listas (Clérigo/Mago): elige `lista`" in text
    assert "several lists (Cleric/Magic-User)" in problem_text(
        "spell.problem.which_list", params, "en"
    )
    wrong = problem_text("nucleo.problem.wrong_system", {"system": "swc"}, "es")
    assert wrong == "Esta ficha es del sistema «Swords & Wizardry Completo», no de Núcleo."
    typed = problem_text("nucleo.problem.wrong_system", {"system": "gurps"}, "es")
    assert "«gurps»" in typed  # not a system's id: shown as it came


def test_a_list_of_threats_is_named_in_the_readers_language() -> None:
    """Was: the threats written in Spanish by the rules, in an English reply too."""
    from bot.words import problem_text
    from rules.swc.checks import THREAT_CATEGORY, THREATS
    from rules.swc.saving_throws_alt import SaveCategory

    params = {"amenaza": "venenno", "amenazas": ", ".join(sorted({*THREATS, *THREAT_CATEGORY}))}
    es = problem_text("swc.problem.unknown_threat", params, "es")
    en = problem_text("swc.problem.unknown_threat", params, "en")
    assert "parálisis" in es and "paralisis" not in es
    assert "paralysis" in en and "parálisis" not in en
    categories = {"categorias": ", ".join(c.value for c in SaveCategory)}
    for locale in LOCALES:
        text = problem_text("swc.problem.save_category_needed", categories, locale)
        assert not any(c.value in text for c in SaveCategory if "_" in c.value), text


def test_rolweb_levels_and_actions_in_problems_are_named() -> None:
    """Was: «como acción de reaccion» (the id, unaccented) and «principiante» in English."""
    from bot.words import problem_text

    key = "rolweb.problem.no_action_left"
    assert "como acción de reacción este turno" in problem_text(key, {"action": "reaccion"}, "es")
    assert "como acción gratuita" in problem_text(key, {"action": "gratuita"}, "es")
    assert "used as a reaction action" in problem_text(key, {"action": "reaccion"}, "en")
    levels = {"nivel_actual": "maestro", "nivel_nuevo": "maestro"}
    assert "already master" in problem_text("rolweb.problem.level_not_higher", levels, "en")


def test_a_disabled_module_is_named_by_its_setting() -> None:
    """Was: «pertenece al módulo «armaduras_especiales»»."""
    from bot.words import problem_text

    params = {"item": "Cota de Mithril", "module": "armaduras_especiales"}
    es = problem_text("nucleo.problem.module_disabled", params, "es")
    assert es.startswith("«Cota de Mithril» necesita «Armaduras especiales»")
    en = problem_text("nucleo.problem.module_disabled", params, "en")
    assert "needs “Special armour”" in en
