"""What an swc character can roll with ``/check``, and how each roll is judged.

* ``salvacion`` (or ``salvacion:<categoría>`` under Tabla 28): d20 + modifier, success at the
  target or more; the threat arrives as circumstances ``amenaza:<tipo>`` and brings in the
  class and race bonuses (:mod:`rules.swc.saves`).
* ``ladron:<habilidad>``: d100 at or under the percentage, or d6 at or under "x en 6".
* ``atributo:<Atributo>``: seed 000 has no attribute check; we use the common S&W table
  practice of d20 at or under the score (modifier added to the score), documented for referees.
  A difficulty the Árbitro gives replaces the score; every other option refuses a difficulty
  (``swc.problem.difficulty_not_allowed``) instead of ignoring it.
* ``puertas``: forcing a door, d6 at or under Tabla 1's "1-x"; ``puertas_secretas``: d6 at
  or under the race's "x en 6".
"""

from __future__ import annotations

import random
from fractions import Fraction

from rules.dice import roll
from rules.swc.advancement import THREATS
from rules.swc.attributes import ATTRIBUTE_ORDER, strength_modifiers
from rules.swc.derived import armour_blocks_thief_skills
from rules.swc.races import get_race
from rules.swc.saves import character_save
from rules.swc.saving_throws_alt import SaveCategory
from rules.swc.sheet import Character, character, setting
from rules.swc.thief import SKILLS, is_percent, thief_skills
from rules.systems.base import (
    CheckOption,
    CheckRequest,
    CheckResult,
    Outcome,
    Problem,
    RulesError,
    Settings,
    Sheet,
)

__all__ = ["SKILL_LABELS", "check", "check_options"]

SKILL_LABELS = {
    "escalar_muros": "Escalar muros",
    "tareas_delicadas": "Tareas delicadas y trampas",
    "escuchar_ruidos": "Escuchar ruidos",
    "ocultarse_en_las_sombras": "Ocultarse en las sombras",
    "moverse_en_silencio": "Moverse en silencio",
    "forzar_cerraduras": "Forzar cerraduras",
}


def _thief(ch: Character, settings: Settings) -> dict[str, int]:
    """Best value of each skill over the character's classes."""
    best: dict[str, int] = {}
    for clase in ch.clases:
        skills = thief_skills(
            clase,
            ch.niveles[clase],
            ch.raza,
            tabla_asesino=bool(setting(settings, "asesino_tabla_6")),
        )
        for k, v in skills.items():
            best[k] = max(best.get(k, 0), v)
    return best


def check_options(sheet: Sheet, settings: Settings) -> tuple[CheckOption, ...]:
    """Saves, thief skills (if any), the six attributes, doors and secret doors."""
    ch = character(sheet, settings)
    if setting(settings, "salvaciones_alternativas"):
        out = [
            CheckOption(f"salvacion:{c.value}", f"Salvación: {c.value}", "salvacion")
            for c in SaveCategory
        ]
    else:
        out = [CheckOption("salvacion", "Tirada de Salvación", "salvacion")]
    out += [
        CheckOption(f"ladron:{k}", SKILL_LABELS[k], "ladron")
        for k in SKILLS
        if k in _thief(ch, settings)
    ]
    out += [CheckOption(f"atributo:{a}", a, "atributo") for a in ATTRIBUTE_ORDER]
    out += [
        CheckOption("puertas", "Forzar puertas", "puertas"),
        CheckOption("puertas_secretas", "Buscar puertas secretas", "puertas"),
    ]
    return tuple(out)


def _roll_under(
    key: str,
    label: str,
    sides: int,
    chance: int,
    request: CheckRequest,
    rng: random.Random,
    notes: tuple[str, ...] = (),
) -> CheckResult:
    """Roll 1dN and succeed at or under ``chance + modifier`` (clamped to the die)."""
    target = chance + request.modifier
    result = roll(f"1d{sides}", rng)
    success = result.total <= target
    p = Fraction(max(0, min(sides, target)), sides)
    return CheckResult(
        option=key,
        label=label,
        expression=f"1d{sides}",
        total=result.total,
        breakdown=str(result),
        outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
        target=target,
        notes=notes,
        probability=(p.numerator, p.denominator),
    )


#: Tabla 28's row for a threat named in ``/save`` (or ``amenaza:<tipo>``) under the
#: alternative saves; words that are only rows ("aliento") carry no class or race bonus.
THREAT_CATEGORY: dict[str, str] = {
    "veneno": SaveCategory.POISON_DEATH.value,
    "muerte": SaveCategory.POISON_DEATH.value,
    "varita": SaveCategory.WANDS.value,
    "paralisis": SaveCategory.PETRIFICATION.value,
    "petrificacion": SaveCategory.PETRIFICATION.value,
    "aliento": SaveCategory.BREATH.value,
    "conjuro": SaveCategory.SPELLS.value,
}


def _save(
    ch: Character, request: CheckRequest, settings: Settings, rng: random.Random
) -> CheckResult:
    threats = {c.split(":", 1)[1] for c in request.circumstances if c.startswith("amenaza:")}
    unknown = sorted(threats - set(THREATS) - set(THREAT_CATEGORY))
    if unknown:
        raise RulesError(
            Problem(
                "swc.problem.unknown_threat",
                "circumstances",
                {
                    "amenaza": unknown[0],
                    # ids: the bot names them in the reader's language
                    "amenazas": ", ".join(sorted({*THREATS, *THREAT_CATEGORY})),
                },
            )
        )
    category = request.option.partition(":")[2] or None
    alternative = bool(setting(settings, "salvaciones_alternativas"))
    if alternative and category is None:  # /save under Tabla 28: the threat names the row
        rows = sorted({THREAT_CATEGORY[t] for t in threats if t in THREAT_CATEGORY})
        if len(rows) != 1:
            raise RulesError(
                Problem(
                    "swc.problem.save_category_needed",
                    "option",
                    {"categorias": ", ".join(c.value for c in SaveCategory)},
                )
            )
        category = rows[0]
    if alternative != (category is not None) or (category and category not in set(SaveCategory)):
        raise RulesError(Problem("swc.problem.unknown_check", "option", {"option": request.option}))
    save = character_save(
        ch.raza,
        ch.niveles,
        threats,
        categoria=category,
        druid_fire_bonus=int(setting(settings, "bono_fuego_druida")),
    )
    expression = "1d20" + (f"{request.modifier:+d}" if request.modifier else "")
    result = roll(expression, rng)
    success = result.total >= save.objetivo
    needed = save.objetivo - request.modifier
    p = Fraction(max(0, min(20, 21 - needed)), 20)
    notes = tuple(f"swc.note.amenaza_{t}" for t in sorted(threats) if t in THREATS)
    return CheckResult(
        option=request.option,
        label="Tirada de Salvación",
        expression=expression,
        total=result.total,
        breakdown=str(result),
        outcome=Outcome.SUCCESS if success else Outcome.FAILURE,
        target=save.objetivo,
        notes=notes,
        probability=(p.numerator, p.denominator),
        extra={
            "clase": save.clase,
            "base": save.base,
            "bono_clase": save.bono_clase,
            "bono_raza": save.bono_raza,
        },
    )


def difficulty_refused(option: str) -> RulesError:
    """Saves, thief skills and doors have the seed's own numbers (Tablas 1, 4-8, 25-28): a
    difficulty typed by the Árbitro has no place in them, so it is refused, never ignored."""
    return RulesError(
        Problem("swc.problem.difficulty_not_allowed", "difficulty", {"option": option})
    )


def check(
    sheet: Sheet, request: CheckRequest, settings: Settings, rng: random.Random
) -> CheckResult:
    """Roll and judge ``request``; :class:`RulesError` for an option this character lacks."""
    ch = character(sheet, settings)
    kind, _, name = request.option.partition(":")
    unknown = RulesError(Problem("swc.problem.unknown_check", "option", {"option": request.option}))
    if request.difficulty is not None and kind != "atributo":
        raise difficulty_refused(request.option)
    if kind == "salvacion":
        return _save(ch, request, settings, rng)
    if kind == "ladron":
        skills = _thief(ch, settings)
        if name not in skills:
            raise unknown
        notes = ("swc.note.armadura_impide_ladron",) if armour_blocks_thief_skills(ch) else ()
        sides = 100 if is_percent(name) else 6
        return _roll_under(
            request.option, SKILL_LABELS[name], sides, skills[name], request, rng, notes
        )
    if kind == "atributo" and name in ATTRIBUTE_ORDER:
        # a difficulty the Árbitro names replaces the score (d20 at or under it)
        score = ch.atributos[name] if request.difficulty is None else request.difficulty
        return _roll_under(request.option, name, 20, score, request, rng)
    if request.option == "puertas":
        doors = strength_modifiers(ch.atributos["Fuerza"]).open_doors
        return _roll_under("puertas", "Forzar puertas", 6, doors, request, rng)
    if request.option == "puertas_secretas":
        chance = get_race(ch.raza).puertas_secretas
        return _roll_under("puertas_secretas", "Buscar puertas secretas", 6, chance, request, rng)
    raise unknown
