"""The questions of the Núcleo creation wizard: prompts, options, modal fields, the summary.

Split from :mod:`rules.nucleo.builder` (which checks the answers): everything here only
reads a draft.  Options list only what the character may take (races its attributes allow,
advantages whose requirement is met, weapons and armour its Físico can use), so a select
rarely leads to a refusal; the builder still checks every answer.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.nucleo import creation
from rules.nucleo import npc as npc_rules
from rules.nucleo.data import ATTRIBUTES, Race, catalogue
from rules.nucleo.derived import compute
from rules.nucleo.sheet import setting
from rules.systems.base import (
    CreationStep,
    FormField,
    Problem,
    Settings,
    Sheet,
    StepKind,
    StepOption,
)

__all__ = [
    "BANDS",
    "TWO_HANDS",
    "allowed_advantages",
    "armour_names",
    "ask",
    "expected",
    "race_of",
    "race_problems",
    "requirements_met",
    "summary",
    "weapon_options",
]

#: The pyramid's levels, split over two modals (Discord allows five inputs per modal).
BANDS: tuple[tuple[int, ...], ...] = ((6, 5, 4), (3, 2, 1))
#: Marks the two-handed grip of a weapon that has both («Espada larga (2M)»).
TWO_HANDS = "|dos_manos"


def race_of(draft: Sheet, settings: Settings) -> Race | None:
    return creation.find_race(draft.get("raza")) if setting(settings, "razas") else None


def race_problems(race: Race, attributes: Mapping[str, int]) -> list[Problem]:
    problems = []
    for name, maximum in race.attribute_max.items():
        value = attributes.get(name, 0)
        if value > maximum:
            params = {"attribute": name, "value": value, "maximum": maximum, "race": race.name}
            problems.append(Problem("nucleo.problem.attribute_race_max", "raza", params))
    return problems


def allowed_advantages(draft: Sheet, settings: Settings) -> list[str]:
    return creation.available_advantages(
        draft.get("atributos") or {}, race_of(draft, settings), draft.get("ventaja_racial")
    )


def expected(draft: Sheet, level: int) -> int:
    pyramid = draft.get("piramide") or "versatil"
    return catalogue().pyramids[pyramid][level]


def requirements_met(requires: Mapping[str, int], attributes: Mapping[str, int]) -> bool:
    return all(attributes.get(k, 0) >= v for k, v in requires.items())


def weapon_options(draft: Sheet) -> list[StepOption]:
    attributes = draft.get("atributos") or {}
    options = []
    for weapon in catalogue().weapons.values():
        if not requirements_met(weapon.requires, attributes):
            continue
        for grip, damage in weapon.damage.items():
            two = grip == "dos_manos"
            label = f"{weapon.name} (2M)" if two and len(weapon.damage) > 1 else weapon.name
            value = weapon.name + (TWO_HANDS if two and len(weapon.damage) > 1 else "")
            detail = [damage, "2M" if two else "1M"]
            if weapon.ranges_m:
                detail.append("/".join(str(r) for r in weapon.ranges_m) + " m")
            options.append(StepOption(value, label, " · ".join(detail)))
    return options


def special_armour_at_creation(settings: Settings, *, npc: bool) -> bool:
    """Special armour «costarían un ojo de la cara. O necesitarian hacer misiones especiales»
    (seed 002, «Módulo de reglas: Armaduras especiales»): a player's new character does not
    pick one unless the campaign says so (``armaduras_especiales_al_crear``); the GM's NPCs
    may wear it, and the GM hands one out in play."""
    if not setting(settings, "armaduras_especiales"):
        return False
    return npc or bool(setting(settings, "armaduras_especiales_al_crear"))


def armour_names(settings: Settings, *, npc: bool = False) -> list[str]:
    special = special_armour_at_creation(settings, npc=npc)
    return [a.name for a in catalogue().armour.values() if special or not a.special]


def ask(key: str, draft: Sheet, settings: Settings, done: tuple[str, ...]) -> CreationStep:
    lines = summary(draft, settings, done)
    if key in ("atributos", "pnj_atributos"):
        return _ask_attributes(key, draft, settings, lines)
    if key == "pnj_bloque":
        return _ask_npc_block(draft, settings, lines)
    if key == "raza":
        return _ask_race(draft, lines)
    if key == "ventaja_racial":
        race = race_of(draft, settings)
        assert race is not None
        options = tuple(
            StepOption(a, a, catalogue().advantages[a].text[:100])
            for a in race.free_advantage_choice
        )
        prompt = Problem("nucleo.step.racial_advantage", "", {"race": race.name})
        return CreationStep(key, StepKind.CHOOSE, prompt, options=options, summary=lines)
    if key == "piramide":
        return _ask_pyramid(draft, settings, lines)
    if key.startswith("habilidades_"):
        return _ask_skills(key, draft, settings, lines)
    if key == "ventaja":
        options = tuple(
            StepOption(name, name, catalogue().advantages[name].text[:100])
            for name in allowed_advantages(draft, settings)
        )
        return CreationStep(
            key, StepKind.CHOOSE, Problem("nucleo.step.advantage"), options=options, summary=lines
        )
    if key == "arma":
        return CreationStep(
            key,
            StepKind.CHOOSE,
            Problem("nucleo.step.weapon"),
            options=tuple(weapon_options(draft)),
            optional=True,
            summary=lines,
        )
    if key == "armadura":
        attributes = draft.get("atributos") or {}
        armour = catalogue().armour
        options = tuple(
            StepOption(
                name,
                name,
                f"Absorción {armour[name].absorption} · Estorbo {armour[name].estorbo}",
            )
            for name in armour_names(settings)
            if requirements_met(armour[name].requires, attributes)
        )
        return CreationStep(
            key,
            StepKind.CHOOSE,
            Problem("nucleo.step.armour"),
            options=options,
            optional=True,
            summary=lines,
        )
    shield = next(iter(catalogue().shields.values()))
    option = StepOption(
        "escudo", shield.name, f"Defensa +{shield.defensa} · Cobertura +{shield.cover}"
    )
    return CreationStep(
        key,
        StepKind.CHOOSE,
        Problem("nucleo.step.shield"),
        options=(option,),
        optional=True,
        summary=lines,
    )


def _ask_attributes(
    key: str, draft: Sheet, settings: Settings, summary: tuple[str, ...]
) -> CreationStep:
    data = catalogue()
    npc_block = key == "pnj_atributos"
    low, high = (
        (npc_rules.ATTRIBUTE_MIN, npc_rules.ATTRIBUTE_MAX)
        if npc_block
        else (
            data.attribute_min,
            data.attribute_max,
        )
    )
    fields = tuple(
        FormField(name, f"{name} ({low}–{high})", placeholder="7", max_length=2)
        for name in ATTRIBUTES
    )
    if npc_block:
        prompt = Problem("nucleo.step.npc_attributes", "", {"minimum": low, "maximum": high})
    elif setting(settings, "creacion_estricta"):
        params = {"points": data.attribute_points, "minimum": low, "maximum": high}
        prompt = Problem("nucleo.step.attributes", "", params)
    else:
        prompt = Problem("nucleo.step.attributes_free", "", {"minimum": low, "maximum": high})
    return CreationStep(key, StepKind.FORM, prompt, fields=fields, summary=summary)


def _ask_race(draft: Sheet, summary: tuple[str, ...]) -> CreationStep:
    attributes = draft.get("atributos") or {}
    options, excluded = [], []
    for race in catalogue().races.values():
        problems = race_problems(race, attributes)
        if problems:
            limits = ", ".join(f"{p.params['attribute']} ≤ {p.params['maximum']}" for p in problems)
            excluded.append(f"{race.name} ({limits})")
        else:
            options.append(StepOption(race.name, race.name, race.text[:100]))
    if excluded:
        prompt = Problem("nucleo.step.race_excluded", "", {"excluded": ", ".join(excluded)})
    else:
        prompt = Problem("nucleo.step.race")
    return CreationStep("raza", StepKind.CHOOSE, prompt, options=tuple(options), summary=summary)


def _ask_pyramid(draft: Sheet, settings: Settings, summary: tuple[str, ...]) -> CreationStep:
    data = catalogue()
    race = race_of(draft, settings)
    options = tuple(
        StepOption(
            key,
            data.pyramid_labels[key],
            " · ".join(f"{n}×{level}" for level, n in sorted(levels.items(), reverse=True)),
        )
        for key, levels in data.pyramids.items()
        if race is None or key in race.pyramids
    )
    return CreationStep(
        "piramide",
        StepKind.CHOOSE,
        Problem("nucleo.step.pyramid"),
        options=options,
        summary=summary,
    )


def _ask_skills(
    key: str, draft: Sheet, settings: Settings, summary: tuple[str, ...]
) -> CreationStep:
    index = int(key.rpartition("_")[2])
    band = BANDS[index - 1]
    strict = setting(settings, "creacion_estricta")
    examples = {6: "Pilotar", 5: "Esquivar, Advertir/Notar", 4: "Reflejos, Buscar, Sigilo"}
    fields = tuple(
        FormField(
            f"nivel_{level}",
            f"Nivel {level} ({expected(draft, level)})" if strict else f"Nivel {level}",
            placeholder=examples.get(level, "Labia, Leyes, Nadar"),
            required=strict and expected(draft, level) > 0,
            paragraph=True,
            max_length=600,
        )
        for level in band
    )
    params = {
        "part": index,
        "parts": len(BANDS),
        "pyramid": catalogue().pyramid_labels[draft.get("piramide") or "versatil"],
    }
    prompt_key = "nucleo.step.skills_magic" if setting(settings, "magia") else "nucleo.step.skills"
    return CreationStep(
        key, StepKind.FORM, Problem(prompt_key, "", params), fields=fields, summary=summary
    )


def _ask_npc_block(draft: Sheet, settings: Settings, summary: tuple[str, ...]) -> CreationStep:
    fisico = (draft.get("atributos") or {}).get("Físico", 0)
    fields = (
        FormField(
            "habilidades",
            "Habilidades",
            placeholder="Armas cuerpo a cuerpo 4, Esquivar 3, Advertir/Notar 2",
            required=False,
            paragraph=True,
            max_length=1000,
        ),
        FormField(
            "pv", "PV", placeholder=f"{fisico * 4} (Físico × 4)", required=False, max_length=3
        ),
        FormField("arma", "Arma principal", placeholder="Espada corta", required=False),
        FormField("armadura", "Armadura", placeholder="Armadura ligera", required=False),
        FormField("escudo", "Escudo", placeholder="no", required=False, max_length=10),
    )
    prompt = Problem("nucleo.step.npc_block", "", {"maximum": npc_rules.SKILL_MAX})
    return CreationStep("pnj_bloque", StepKind.FORM, prompt, fields=fields, summary=summary)


def summary(draft: Sheet, settings: Settings, done: tuple[str, ...]) -> tuple[str, ...]:
    """What is decided so far, as game terms and values."""
    data = catalogue()
    attributes = draft.get("atributos") or {}
    lines: list[str] = []
    if "atributos" in done or "pnj_atributos" in done:
        lines.append(" · ".join(f"{a} {attributes[a]}" for a in ATTRIBUTES))
        skills = dict(draft.get("habilidades") or {})
        advantages = creation.advantages_of(
            draft.get("ventaja"),
            draft.get("raza"),
            draft.get("ventaja_racial"),
            advantages_module=setting(settings, "ventajas"),
            races_module=setting(settings, "razas"),
        )
        values = compute(attributes, skills, advantages)
        pv = draft.get("pv_maximo") or values.pv
        lines.append(
            f"PV {pv} · Defensa {values.defensa} · Iniciativa {values.iniciativa}"
            f" · Voluntad {values.voluntad}"
        )
    if draft.get("raza"):
        extra = f" ({draft['ventaja_racial']})" if draft.get("ventaja_racial") else ""
        lines.append(f"Raza: {draft['raza']}{extra}")
    if done and draft.get("piramide") in data.pyramid_labels and not draft.get("pnj"):
        lines.append(f"Pirámide: {data.pyramid_labels[draft['piramide']]}")
    table = {**(draft.get("hechizos") or {}), **(draft.get("habilidades") or {})}
    for level in range(10, 0, -1):
        names = [name for name, value in table.items() if value == level]
        if names:
            lines.append(f"Nivel {level}: {', '.join(names)}")
    if draft.get("ventaja"):
        lines.append(f"Ventaja: {draft['ventaja']}")
    equipo = draft.get("equipo") or {}
    gear = [equipo.get("arma_principal"), equipo.get("armadura")]
    gear = [g for g in gear if g] + (["Escudo"] if equipo.get("escudo") else [])
    if gear:
        lines.append("Equipo: " + ", ".join(gear))
    return tuple(lines)
