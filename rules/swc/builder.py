"""Creating swc characters and NPC stat blocks one step at a time (``CharacterBuilder``).

A player character follows the book's order ("Crear un personaje"): 3d6 in order for each
attribute, then a race and a class (or multiclass combination) the scores allow, an alignment
every class accepts, hit points (the class die plus Constitución; multiclass: the average of a
roll of each class's die), 3d6 × 10 mo, and equipment bought from Tablas 20-24 aisle by aisle
(armour and shield, melee weapons, missile weapons, general gear in two parts), each aisle only
offering what the classes may use and refusing a basket the purse cannot pay.

An NPC is a quick stat block: one modal with what a monster entry gives (Hit Dice, AC, attacks,
move, XP value), then its hit points rolled from the Hit Dice (:mod:`rules.swc.monster`).

Which step comes next is computed from the draft and the steps already answered, never stored,
so an aisle with nothing the classes may buy (a Mago's armour) is passed over.  Every roll made
here is returned as a :class:`LoggedRoll` for the audit log; the draft given is never mutated.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.dice import roll
from rules.names import display
from rules.swc.advancement import hit_dice
from rules.swc.attributes import (
    ATTRIBUTE_ORDER,
    constitution_modifiers,
    roll_attributes_dice,
    roll_starting_gold,
)
from rules.swc.classes import ALIGNMENTS, CLASS_IDS, get_class
from rules.swc.derived import derived
from rules.swc.equipment import Armour, Item, Weapon, find_item
from rules.swc.monster import hit_points_roll, monster_problems, parse_armour_class, show_ac
from rules.swc.races import RACE_IDS, allowed_combinations, combination_allowed, get_race
from rules.swc.sheet import setting
from rules.swc.shop import buy, cost_copper, format_copper, inventory, purse_copper, shop
from rules.swc.validation import below_original_minimums, problems
from rules.systems.base import (
    CreationOutcome,
    CreationStep,
    FormField,
    LoggedRoll,
    Problem,
    RulesError,
    Settings,
    Sheet,
    StepKind,
    StepOption,
)
from rules.text import spanish_number

__all__ = ["PER_SELECT", "apply_creation_step", "creation_step", "hit_point_roll"]

PER_SELECT = 25  # Discord's limit of options in one select menu
_ALIGNMENT_LABELS = {a: display("swc", "alineamiento", a).capitalize() for a in ALIGNMENTS}
_AISLES = {
    "compra_armadura": ("armadura", "swc.step.buy_armour"),
    "compra_cuerpo": ("cuerpo", "swc.step.buy_melee"),
    "compra_proyectiles": ("proyectiles", "swc.step.buy_missile"),
}
_NPC_FIELDS = ("dados_golpe", "ca", "ataques", "movimiento", "valor_px")


def _copy(sheet: Sheet) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(dict(sheet)))
    return copied


def _clases(draft: Sheet) -> tuple[str, ...]:
    return tuple(draft.get("clases") or ())


def _gear_parts(clases: Sequence[str]) -> list[tuple[Item, ...]]:
    items = shop(clases, "equipo")
    return [items[i : i + PER_SELECT] for i in range(0, len(items), PER_SELECT)]


def _aisle(key: str, clases: Sequence[str]) -> tuple[Item, ...]:
    if key in _AISLES:
        return shop(clases, _AISLES[key][0])
    index = int(key.rpartition("_")[2])
    parts = _gear_parts(clases)
    return parts[index - 1] if index <= len(parts) else ()


def _plan(draft: Sheet, npc: bool) -> list[str]:
    """Every step that applies to this draft now, in order."""
    if npc:
        return ["pnj_perfil", "pnj_pg"]
    keys = ["atributos", "raza", "clase", "alineamiento", "puntos_de_golpe", "oro"]
    clases = _clases(draft)
    if not clases:
        return keys + [*_AISLES, "compra_equipo_1"]
    keys += [k for k in _AISLES if shop(clases, _AISLES[k][0])]
    keys += [f"compra_equipo_{i}" for i in range(1, len(_gear_parts(clases)) + 1)]
    return keys


# -- what the scores allow --------------------------------------------------------------


def _combo_problems(
    combo: Sequence[str], atributos: Mapping[str, int], settings: Settings
) -> list[Problem]:
    """Why the campaign refuses a class combination for these scores (empty: allowed)."""
    out: list[Problem] = []
    if "monje" in combo and not setting(settings, "monjes_permitidos"):
        out.append(Problem("swc.problem.monk_not_allowed", "clases"))
    if setting(settings, "minimos_originales"):
        out.extend(below_original_minimums(combo, atributos))
    return out


def _combos(raza: str, settings: Settings) -> tuple[tuple[str, ...], ...]:
    return allowed_combinations(
        raza, enano_guerrero_clerigo=bool(setting(settings, "enano_guerrero_clerigo"))
    )


def _combo_label(combo: Sequence[str]) -> str:
    return "/".join(get_class(c).nombre for c in combo)


def _why_not(combo: Sequence[str], atributos: Mapping[str, int], settings: Settings) -> str:
    """A summary line in game terms: ``"Paladín — Carisma 12 < 17"``."""
    reasons = []
    for problem in _combo_problems(combo, atributos, settings):
        if problem.key.endswith("monk_not_allowed"):
            reasons.append(
                f"no permitido (ajuste «{display('swc', 'setting', 'monjes_permitidos')}»)"
            )
        else:
            p = problem.params
            reasons.append(
                f"{p['atributo']} {p['valor']} < {p['minimo']} ({get_class(p['clase']).nombre})"
            )
    return f"{_combo_label(combo)} — {', '.join(reasons)}"


def _open_combos(
    raza: str, atributos: Mapping[str, int], settings: Settings
) -> list[tuple[str, ...]]:
    return [c for c in _combos(raza, settings) if not _combo_problems(c, atributos, settings)]


# -- the public protocol ----------------------------------------------------------------


def creation_step(
    draft: Sheet, done: tuple[str, ...], settings: Settings, *, npc: bool = False
) -> CreationStep | None:
    """The next question for this draft, or None when the character is complete."""
    for key in _plan(draft, npc):
        if key not in done:
            return _ask(key, draft, settings, npc, done)
    return None


def apply_creation_step(
    draft: Sheet,
    step_key: str,
    answer: Any,
    settings: Settings,
    rng: random.Random,
    *,
    npc: bool = False,
) -> CreationOutcome:
    """Validate ``answer`` to ``step_key`` and return the new draft with the rolls it made."""
    if step_key not in _plan(draft, npc):
        raise RulesError(Problem("swc.problem.unknown_step", "", {"step": step_key}))
    if step_key == "pnj_perfil":
        return CreationOutcome(draft=_npc_profile(draft, _form(answer, step_key), settings))
    if step_key == "pnj_pg":
        return _npc_hit_points(draft, rng)
    if step_key == "atributos":
        return _roll_attributes(draft, rng)
    if step_key == "raza":
        return CreationOutcome(draft=_choose_race(draft, _single(answer, step_key), settings))
    if step_key == "clase":
        return CreationOutcome(draft=_choose_class(draft, _single(answer, step_key), settings))
    if step_key == "alineamiento":
        return CreationOutcome(draft=_choose_alignment(draft, _single(answer, step_key)))
    if step_key == "puntos_de_golpe":
        return _roll_hit_points(draft, rng)
    if step_key == "oro":
        return _roll_gold(draft, rng)
    return _buy(draft, step_key, _values(answer, step_key))


# -- answers ----------------------------------------------------------------------------


def _bad_answer(step_key: str) -> RulesError:
    return RulesError(Problem("swc.problem.bad_answer", "", {"step": step_key}))


def _form(answer: Any, step_key: str) -> Mapping[str, Any]:
    if not isinstance(answer, Mapping):
        raise _bad_answer(step_key)
    return answer


def _values(answer: Any, step_key: str) -> list[str]:
    if isinstance(answer, str | bytes | Mapping) or not isinstance(answer, Sequence):
        raise _bad_answer(step_key)
    return list(dict.fromkeys(str(value) for value in answer))


def _single(answer: Any, step_key: str) -> str:
    values = _values(answer, step_key)
    if len(values) != 1:
        raise _bad_answer(step_key)
    return values[0].strip()


def _roll_attributes(draft: Sheet, rng: random.Random) -> CreationOutcome:
    dice = roll_attributes_dice(rng)
    new = _copy(draft)
    new["atributos"] = {name: sum(d) for name, d in dice.items()}
    rolls = tuple(
        LoggedRoll("3d6", f"3d6 ({', '.join(map(str, d))}) = {sum(d)}", sum(d), name)
        for name, d in dice.items()
    )
    return CreationOutcome(draft=new, rolls=rolls)


def _choose_race(draft: Sheet, raza: str, settings: Settings) -> dict[str, Any]:
    if raza not in RACE_IDS:
        raise RulesError(Problem("swc.problem.unknown_race", "raza", {"raza": raza}))
    atributos = draft["atributos"]
    if not _open_combos(raza, atributos, settings):
        found = [
            p for c in _combos(raza, settings) for p in _combo_problems(c, atributos, settings)
        ]
        raise RulesError([Problem("swc.problem.race_no_class", "raza", {"raza": raza}), *found])
    new = _copy(draft)
    new["raza"] = raza
    new["clases"] = []
    return new


def _choose_class(draft: Sheet, value: str, settings: Settings) -> dict[str, Any]:
    combo = tuple(c.strip() for c in value.split("/") if c.strip())
    unknown = [c for c in combo if c not in CLASS_IDS]
    if not combo or unknown:
        raise RulesError(
            Problem("swc.problem.unknown_class", "clases", {"clase": "/".join(unknown) or value})
        )
    raza = draft["raza"]
    if not combination_allowed(
        raza, combo, enano_guerrero_clerigo=bool(setting(settings, "enano_guerrero_clerigo"))
    ):
        key = (
            "class_not_allowed_for_race" if len(combo) == 1 else "combination_not_allowed_for_race"
        )
        raise RulesError(
            Problem(f"swc.problem.{key}", "clases", {"clases": "/".join(combo), "raza": raza})
        )
    found = _combo_problems(combo, draft["atributos"], settings)
    if found:
        raise RulesError(found)
    new = _copy(draft)
    new["clases"] = list(combo)
    new["alineamiento"] = ""
    return new


def _alignments(clases: Sequence[str]) -> tuple[str, ...]:
    return tuple(a for a in ALIGNMENTS if all(a in get_class(c).alineamientos for c in clases))


def _choose_alignment(draft: Sheet, value: str) -> dict[str, Any]:
    if value not in ALIGNMENTS:
        raise RulesError(
            Problem("swc.problem.unknown_alignment", "alineamiento", {"alineamiento": value})
        )
    refused = [c for c in _clases(draft) if value not in get_class(c).alineamientos]
    if refused:
        raise RulesError(
            [
                Problem(
                    "swc.problem.alignment_not_allowed",
                    "alineamiento",
                    {"clase": c, "alineamiento": value},
                )
                for c in refused
            ]
        )
    new = _copy(draft)
    new["alineamiento"] = value
    return new


def hit_point_roll(
    clases: Sequence[str], constitucion: int, rng: random.Random
) -> tuple[int, str, tuple[LoggedRoll, ...]]:
    """First-level hit points: ``(total, how, rolls)``.

    One class: each of its first-level dice (the Explorador has two) plus the Constitución
    modifier per die.  Multiclass: "tira el dado apropiado para cada clase y calcula la media"
    (rounded half up), plus the modifier once.  At least 1 hit point.
    """
    per_die = constitution_modifiers(constitucion).hp_per_hit_die
    rolls: list[LoggedRoll] = []
    faces: list[int] = []
    if len(clases) == 1:
        clase = clases[0]
        count, sides = hit_dice(clase, 1)[0], get_class(clase).dado_golpe
        for _ in range(count):
            result = roll(f"1d{sides}", rng)
            faces.append(result.total)
            rolls.append(
                LoggedRoll(
                    f"1d{sides}",
                    str(result),
                    result.total,
                    f"Puntos de Golpe ({get_class(clase).nombre})",
                )
            )
        base = sum(faces)
        dice_text = " + ".join(f"1d{sides} ({f})" for f in faces)
        modifier = per_die * count
    else:
        for clase in clases:
            sides = get_class(clase).dado_golpe
            result = roll(f"1d{sides}", rng)
            faces.append(result.total)
            rolls.append(
                LoggedRoll(
                    f"1d{sides}",
                    str(result),
                    result.total,
                    f"Puntos de Golpe ({get_class(clase).nombre})",
                )
            )
        base = (2 * sum(faces) + len(faces)) // (2 * len(faces))
        dice_text = (
            "media de "
            + ", ".join(
                f"1d{get_class(c).dado_golpe} ({f})" for c, f in zip(clases, faces, strict=True)
            )
            + f" = {base}"
        )
        modifier = per_die
    total = max(1, base + modifier)
    how = f"{dice_text}; Constitución {modifier:+d}"
    return total, how, tuple(rolls)


def _roll_hit_points(draft: Sheet, rng: random.Random) -> CreationOutcome:
    total, how, rolls = hit_point_roll(_clases(draft), int(draft["atributos"]["Constitución"]), rng)
    new = _copy(draft)
    new["pg"] = {"max": total, "actual": total}
    note = Problem("swc.note.hp_rolled", "pg", {"total": total, "detalle": how})
    return CreationOutcome(draft=new, rolls=rolls, notes=(note,))


def _roll_gold(draft: Sheet, rng: random.Random) -> CreationOutcome:
    dice, gold = roll_starting_gold(rng)
    new = _copy(draft)
    new["monedas"] = {"mo": gold, "mp": 0, "mc": 0}
    breakdown = f"3d6 ({', '.join(map(str, dice))}) = {sum(dice)} × 10 = {gold}"
    note = Problem("swc.note.gold_rolled", "monedas", {"oro": gold, "detalle": breakdown})
    return CreationOutcome(
        draft=new,
        rolls=(LoggedRoll("3d6*10", breakdown, gold, "Tesoro inicial (mo)"),),
        notes=(note,),
    )


def _buy(draft: Sheet, step_key: str, names: list[str]) -> CreationOutcome:
    clases = _clases(draft)
    offered = {item.name: item for item in _aisle(step_key, clases)}
    refused = []
    for name in names:
        if name not in offered:
            item = find_item(name)
            refused.append(
                Problem(
                    "swc.problem.cannot_buy",
                    "equipo",
                    {"objeto": item.name if item else name, "clases": _combo_label(clases)},
                )
            )
    if refused:
        raise RulesError(refused)
    bodies = [n for n in names if isinstance(item := offered[n], Armour) and not item.shield]
    if len(bodies) > 1:
        raise RulesError(
            Problem("swc.problem.one_armour", "armadura", {"armaduras": ", ".join(bodies)})
        )
    new = buy(draft, names)
    spent = sum(cost_copper(offered[n]) for n in names)
    note = Problem(
        "swc.note.bought",
        "equipo",
        {"coste": format_copper(spent), "quedan": format_copper(purse_copper(new["monedas"]))},
    )
    return CreationOutcome(draft=new, notes=(note,))


# -- NPC stat blocks --------------------------------------------------------------------


def _npc_int(form: Mapping[str, Any], key: str, label: str, out: list[Problem]) -> int:
    text = str(form.get(key, "")).strip()
    try:
        value = int(text)
    except ValueError:
        out.append(Problem("swc.problem.npc_bad_number", key, {"campo": label, "valor": text}))
        return 0
    if value < 0:
        out.append(Problem("swc.problem.npc_bad_number", key, {"campo": label, "valor": text}))
    return value


def _npc_profile(draft: Sheet, form: Mapping[str, Any], settings: Settings) -> dict[str, Any]:
    out: list[Problem] = []
    ascending = bool(setting(settings, "ca_ascendente"))
    try:
        ca = parse_armour_class(str(form.get("ca", "")), ascending)
    except RulesError as error:
        out += error.problems
        ca = 9
    sheet = {
        "name": draft.get("name", ""),
        "system": "swc",
        "pnj": True,
        "dados_golpe": " ".join(str(form.get("dados_golpe", "")).split()),
        "ca": ca,
        "ataques": " ".join(str(form.get("ataques", "")).split()),
        "movimiento": _npc_int(form, "movimiento", "Movimiento", out),
        "valor_px": _npc_int(form, "valor_px", "Valor en PX", out),
        "pg": {"max": 0, "actual": 0},
        "salvacion": None,
        "equipo": [],
        "monedas": {"mo": 0, "mp": 0, "mc": 0},
        "notas": "",
    }
    out += [p for p in monster_problems(sheet) if p.path not in ("ca", "movimiento", "valor_px")]
    if out:
        raise RulesError(out)
    return sheet


def _npc_hit_points(draft: Sheet, rng: random.Random) -> CreationOutcome:
    total, logged = hit_points_roll(str(draft["dados_golpe"]), rng)
    new = _copy(draft)
    new["pg"] = {"max": total, "actual": total}
    note = Problem("swc.note.hp_rolled", "pg", {"total": total, "detalle": logged.breakdown})
    return CreationOutcome(draft=new, rolls=(logged,), notes=(note,))


# -- questions --------------------------------------------------------------------------


def _ask(
    key: str, draft: Sheet, settings: Settings, npc: bool, done: tuple[str, ...]
) -> CreationStep:
    if npc:
        return _ask_npc(key, draft, settings)
    summary = _summary(draft, settings, done)
    if key == "atributos":
        return CreationStep(key, StepKind.ROLL, Problem("swc.step.attributes"), summary=summary)
    if key == "raza":
        return _ask_race(draft, settings, summary)
    if key == "clase":
        return _ask_class(draft, settings, summary)
    if key == "alineamiento":
        options = tuple(StepOption(a, _ALIGNMENT_LABELS[a]) for a in _alignments(_clases(draft)))
        return CreationStep(
            key, StepKind.CHOOSE, Problem("swc.step.alignment"), options=options, summary=summary
        )
    if key == "puntos_de_golpe":
        clases = _clases(draft)
        dice = " / ".join(f"d{get_class(c).dado_golpe}" for c in clases)
        con = constitution_modifiers(int(draft["atributos"]["Constitución"])).hp_per_hit_die
        prompt_key = "swc.step.hit_points_multiclass" if len(clases) > 1 else "swc.step.hit_points"
        return CreationStep(
            key,
            StepKind.ROLL,
            Problem(prompt_key, "", {"dados": dice, "con": f"{con:+d}"}),
            summary=summary,
        )
    if key == "oro":
        return CreationStep(key, StepKind.ROLL, Problem("swc.step.gold"), summary=summary)
    return _ask_shop(key, draft, summary)


def _ask_race(draft: Sheet, settings: Settings, summary: tuple[str, ...]) -> CreationStep:
    atributos = draft["atributos"]
    options, closed = [], []
    for raza in RACE_IDS:
        open_ = _open_combos(raza, atributos, settings)
        if open_:
            text = ", ".join(_combo_label(c) for c in open_)
            options.append(StepOption(raza, get_race(raza).nombre, text[:100]))
        else:
            reasons = "; ".join(_why_not(c, atributos, settings) for c in _combos(raza, settings))
            closed.append(f"✗ {get_race(raza).nombre}: {reasons}")
    return CreationStep(
        "raza",
        StepKind.CHOOSE,
        Problem("swc.step.race"),
        options=tuple(options),
        summary=(*summary, *closed),
    )


def _ask_class(draft: Sheet, settings: Settings, summary: tuple[str, ...]) -> CreationStep:
    atributos = draft["atributos"]
    options, closed = [], []
    for combo in _combos(draft["raza"], settings):
        if _combo_problems(combo, atributos, settings):
            closed.append(f"✗ {_why_not(combo, atributos, settings)}")
            continue
        dice = "/".join(f"d{get_class(c).dado_golpe}" for c in combo)
        prime = ", ".join(dict.fromkeys(a for c in combo for a in get_class(c).atributos_primarios))
        options.append(
            StepOption("/".join(combo), _combo_label(combo), f"DG {dice} · {prime}"[:100])
        )
    return CreationStep(
        "clase",
        StepKind.CHOOSE,
        Problem("swc.step.class", "", {"raza": get_race(draft["raza"]).nombre}),
        options=tuple(options[:PER_SELECT]),
        summary=(*summary, *closed),
    )


def _describe(item: Item) -> str:
    parts = [format_copper(cost_copper(item))]
    weight = getattr(item, "weight_lb", None)
    if weight is not None:
        parts.append(f"{spanish_number(weight)} lb")
    if isinstance(item, Armour):
        parts.append(f"CA {item.ac_effect:+d} [{item.ac_bonus:+d}]")
    elif isinstance(item, Weapon):
        if item.melee is not None:
            parts.append(item.melee.damage)
        elif item.missile is not None and item.missile.damage:
            parts.append(item.missile.damage)
    return " · ".join(parts)


def _ask_shop(key: str, draft: Sheet, summary: tuple[str, ...]) -> CreationStep:
    items = _aisle(key, _clases(draft))
    options = tuple(StepOption(i.name, i.name, _describe(i)) for i in items)
    oro = format_copper(purse_copper(draft.get("monedas")))
    if key in _AISLES:
        prompt = Problem(_AISLES[key][1], "", {"oro": oro})
    else:
        parts = len(_gear_parts(_clases(draft)))
        index = int(key.rpartition("_")[2])
        prompt = Problem("swc.step.buy_gear", "", {"oro": oro, "parte": index, "partes": parts})
    return CreationStep(
        key,
        StepKind.CHOOSE,
        prompt,
        options=options,
        min_choices=1,
        max_choices=len(options),
        optional=True,
        summary=summary,
    )


def _ask_npc(key: str, draft: Sheet, settings: Settings) -> CreationStep:
    if key == "pnj_pg":
        summary = (
            f"Dados de Golpe {draft['dados_golpe']} · CA {show_ac(int(draft['ca']), bool(setting(settings, 'ca_ascendente')))}"
            f" · Movimiento {draft['movimiento']} · PX {draft['valor_px']}",
            f"Ataques: {draft['ataques']}",
        )
        return CreationStep(
            key,
            StepKind.ROLL,
            Problem("swc.step.npc_hit_points", "", {"dados_golpe": draft["dados_golpe"]}),
            summary=summary,
        )
    ascending = bool(setting(settings, "ca_ascendente"))
    fields = (
        FormField("dados_golpe", "Dados de Golpe", placeholder="1+1", max_length=10),
        FormField(
            "ca", "Clase de Armadura", placeholder="[13]" if ascending else "6 [13]", max_length=12
        ),
        FormField("ataques", "Ataques (daño)", placeholder="1 arma (1d8)", max_length=200),
        FormField("movimiento", "Movimiento", placeholder="12", max_length=3),
        FormField("valor_px", "Valor en PX", placeholder="15", max_length=7),
    )
    return CreationStep(key, StepKind.FORM, Problem("swc.step.npc_profile"), fields=fields)


# -- what is decided so far ---------------------------------------------------------------


def _summary(draft: Sheet, settings: Settings, done: tuple[str, ...]) -> tuple[str, ...]:
    lines: list[str] = []
    if "atributos" in done:
        atributos = draft["atributos"]
        lines.append(" · ".join(f"{a} {atributos[a]}" for a in ATTRIBUTE_ORDER))
    if "raza" in done:
        lines.append(f"Raza: {get_race(draft['raza']).nombre}")
    if "clase" in done:
        lines.append(f"Clase: {_combo_label(_clases(draft))}")
    if "alineamiento" in done:
        lines.append(f"Alineamiento: {_ALIGNMENT_LABELS[draft['alineamiento']]}")
    if "puntos_de_golpe" in done:
        lines.append(f"Puntos de Golpe: {draft['pg']['max']}")
    if "oro" in done:
        lines.append(f"Dinero: {format_copper(purse_copper(draft.get('monedas')))}")
        lines += _kit_lines(draft, settings)
    return tuple(lines)


def _kit_lines(draft: Sheet, settings: Settings) -> list[str]:
    """Armour, backpack, load, Mov (Tabla 25) and AC in the campaign's notation."""
    lines = []
    worn = [n for n in (draft.get("armadura"), "Escudo" if draft.get("escudo") else None) if n]
    if worn:
        lines.append(f"Armadura: {', '.join(worn)}")
    carried = inventory(draft)
    if carried:
        lines.append(
            "Equipo: "
            + ", ".join(
                f"{e['cantidad']}× {e['nombre']}" if e["cantidad"] != 1 else e["nombre"]
                for e in carried
            )
        )
    if problems(draft, settings):
        return lines
    values = {v.key: v.value for v in derived(draft, settings)}
    ca = f"[{values['ca']}]" if setting(settings, "ca_ascendente") else values["ca"]
    lines.append(
        f"Carga: {spanish_number(float(values['carga']))} lb · Movimiento {values['movimiento']} (Tabla 25) · CA {ca}"
    )
    return lines
