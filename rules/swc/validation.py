"""What makes an swc sheet illegal, each problem naming the field and the rule it breaks.

A multiclass character is "sujeto a las limitaciones de todas las clases a la vez", but the
book's own example lets a Guerrero/Ladrón *wear* any armour (he just cannot use thief skills
in it), so armour and shield are legal when any class allows them; the consequences are
notes in :mod:`rules.swc.derived`.  Alignment, race and the original minimums are checked
against every class.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.swc.attributes import ATTRIBUTE_ORDER
from rules.swc.classes import ALIGNMENTS, CLASS_IDS, get_class
from rules.swc.equipment import Armour, find_item
from rules.swc.monster import is_npc, monster_problems
from rules.swc.races import RACE_IDS, combination_allowed
from rules.swc.sheet import NO_ARMOUR, classes_of, setting
from rules.systems.base import Problem, Settings, Sheet
from rules.values import is_int

__all__ = ["CHARACTER_KEYS", "NPC_KEYS", "armour_allowed", "below_original_minimums", "problems"]


def armour_allowed(clase: str, armour: Armour) -> bool:
    """Whether ``clase`` may wear ``armour`` ("cuero" matches "Peto de cuero")."""
    allowed = get_class(clase).armaduras
    if allowed == "todas":
        return True
    name = armour.name.lower()
    return any(kind in name for kind in allowed)


def _classes(sheet: Sheet, settings: Settings) -> list[Problem]:
    out: list[Problem] = []
    clases = classes_of(sheet)
    if not clases:
        return [Problem("swc.problem.no_class", "clases")]
    for clase in clases:
        if clase not in CLASS_IDS:
            out.append(Problem("swc.problem.unknown_class", "clases", {"clase": clase}))
    if len(set(clases)) != len(clases):
        out.append(Problem("swc.problem.duplicate_class", "clases", {"clases": "/".join(clases)}))
    if out:
        return out
    raza = sheet.get("raza")
    if raza not in RACE_IDS:
        return [Problem("swc.problem.unknown_race", "raza", {"raza": raza})]
    if "monje" in clases and not setting(settings, "monjes_permitidos"):
        out.append(Problem("swc.problem.monk_not_allowed", "clases"))
    if not combination_allowed(
        raza, clases, enano_guerrero_clerigo=bool(setting(settings, "enano_guerrero_clerigo"))
    ):
        key = (
            "class_not_allowed_for_race" if len(clases) == 1 else "combination_not_allowed_for_race"
        )
        out.append(
            Problem(f"swc.problem.{key}", "clases", {"clases": "/".join(clases), "raza": raza})
        )
    alineamiento = sheet.get("alineamiento")
    if alineamiento not in ALIGNMENTS:
        out.append(
            Problem("swc.problem.unknown_alignment", "alineamiento", {"alineamiento": alineamiento})
        )
    else:
        for clase in clases:
            if alineamiento not in get_class(clase).alineamientos:
                out.append(
                    Problem(
                        "swc.problem.alignment_not_allowed",
                        "alineamiento",
                        {"clase": clase, "alineamiento": alineamiento},
                    )
                )
    return out


def _attributes(sheet: Sheet, settings: Settings) -> list[Problem]:
    out: list[Problem] = []
    atributos = sheet.get("atributos") or {}
    for name in ATTRIBUTE_ORDER:
        value = atributos.get(name)
        path = f"atributos.{name}"
        if value is None:
            out.append(Problem("swc.problem.attribute_missing", path, {"atributo": name}))
        elif not is_int(value) or not 3 <= value <= 18:
            out.append(
                Problem(
                    "swc.problem.attribute_out_of_range", path, {"atributo": name, "valor": value}
                )
            )
    if out or not setting(settings, "minimos_originales"):
        return out
    return below_original_minimums([c for c in classes_of(sheet) if c in CLASS_IDS], atributos)


def below_original_minimums(clases: Sequence[str], atributos: Mapping[str, int]) -> list[Problem]:
    """The Original Game's minimum scores each class misses (campaign setting
    ``minimos_originales``; the minimums are each class file's ``minimos_originales``, seed
    000's class descriptions), one problem per class and score: checked on a finished sheet
    and, by the wizard, on the class combinations it offers."""
    return [
        Problem(
            "swc.problem.below_original_minimum",
            f"atributos.{name}",
            {"clase": clase, "atributo": name, "valor": atributos[name], "minimo": minimum},
        )
        for clase in clases
        for name, minimum in get_class(clase).minimos_originales.items()
        if atributos[name] < minimum
    ]


def _numbers(sheet: Sheet) -> list[Problem]:
    out: list[Problem] = []
    xp = sheet.get("xp", 0)
    if not is_int(xp) or xp < 0:
        out.append(Problem("swc.problem.xp_invalid", "xp", {"valor": xp}))
    pg = sheet.get("pg") or {}
    maximum, current = pg.get("max", 0), pg.get("actual", 0)
    if not is_int(maximum) or maximum < 0:
        out.append(Problem("swc.problem.hp_max_invalid", "pg.max", {"valor": maximum}))
    elif not is_int(current) or current > maximum:
        out.append(
            Problem(
                "swc.problem.hp_current_invalid", "pg.actual", {"valor": current, "max": maximum}
            )
        )
    for coin, amount in (sheet.get("monedas") or {}).items():
        if not is_int(amount) or amount < 0:
            out.append(
                Problem(
                    "swc.problem.coins_invalid",
                    f"monedas.{coin}",
                    {"moneda": coin, "valor": amount},
                )
            )
    return out


def _armour(sheet: Sheet) -> list[Problem]:
    clases = [c for c in classes_of(sheet) if c in CLASS_IDS]
    if not clases:
        return []
    out: list[Problem] = []
    name = sheet.get("armadura")
    if name is not None and str(name).strip().lower() not in NO_ARMOUR:
        item = find_item(str(name))
        if not isinstance(item, Armour) or item.shield:
            out.append(Problem("swc.problem.unknown_armour", "armadura", {"armadura": name}))
        elif not any(armour_allowed(c, item) for c in clases):
            out.append(
                Problem(
                    "swc.problem.armour_not_allowed",
                    "armadura",
                    {"clases": "/".join(clases), "armadura": item.name},
                )
            )
    if sheet.get("escudo") and all(get_class(c).escudo == "ninguno" for c in clases):
        out.append(
            Problem("swc.problem.shield_not_allowed", "escudo", {"clases": "/".join(clases)})
        )
    return out


#: Keys only a stat block has, and keys only a character has: a sheet of one shape carrying
#: the other's keys was changed by hand (``/sheet set ca`` on a character) and is refused.
NPC_KEYS = ("dados_golpe", "ca", "ataques", "movimiento", "valor_px", "salvacion")
CHARACTER_KEYS = ("raza", "clases", "alineamiento", "atributos", "xp", "armadura", "escudo")
MAX_NOTES = 1000


def _belongings(sheet: Sheet) -> list[Problem]:
    """The backpack's shape and the notes (both shapes have them)."""
    out: list[Problem] = []
    equipo = sheet.get("equipo", [])
    if not isinstance(equipo, list):
        return [Problem("swc.problem.equipment_invalid", "equipo", {"valor": equipo})]
    for entry in equipo:
        if isinstance(entry, str) and entry.strip():
            continue
        if (
            isinstance(entry, dict)
            and str(entry.get("nombre", "")).strip()
            and is_int(entry.get("cantidad"))
            and entry["cantidad"] > 0
        ):
            continue
        out.append(Problem("swc.problem.equipment_invalid", "equipo", {"valor": entry}))
    notes = sheet.get("notas", "")
    if notes is not None and (not isinstance(notes, str) or len(notes) > MAX_NOTES):
        out.append(Problem("swc.problem.notes_invalid", "notas", {"limite": MAX_NOTES}))
    return out


def _foreign(sheet: Sheet, keys: tuple[str, ...], key: str) -> list[Problem]:
    return [Problem(key, k, {"campo": k}) for k in keys if k in sheet]


def _npc(sheet: Sheet) -> list[Problem]:
    out = monster_problems(sheet)
    pg = sheet.get("pg") or {}
    maximum, current = pg.get("max", 0), pg.get("actual", 0)
    if not is_int(maximum) or maximum < 1:
        out.append(Problem("swc.problem.npc_bad_hp", "pg.max", {"valor": maximum}))
    elif not is_int(current) or current > maximum:
        out.append(
            Problem(
                "swc.problem.hp_current_invalid", "pg.actual", {"valor": current, "max": maximum}
            )
        )
    return out + _foreign(sheet, CHARACTER_KEYS, "swc.problem.character_field_on_npc")


def problems(sheet: Sheet, settings: Settings) -> list[Problem]:
    """Every problem of the sheet, in field order; empty when it is legal."""
    out: list[Problem] = []
    if not str(sheet.get("name", "")).strip():
        out.append(Problem("swc.problem.name_missing", "name"))
    if sheet.get("system") != "swc":
        out.append(Problem("swc.problem.wrong_system", "system", {"system": sheet.get("system")}))
    if is_npc(sheet):
        return out + _npc(sheet) + _numbers({"monedas": sheet.get("monedas")}) + _belongings(sheet)
    out += _classes(sheet, settings)
    out += _attributes(sheet, settings)
    out += _numbers(sheet)
    out += _armour(sheet)
    choice = sheet.get("clase_tras_limite")
    if choice not in (None, "") and choice not in classes_of(sheet):
        out.append(
            Problem("swc.problem.slow_class_not_taken", "clase_tras_limite", {"clase": choice})
        )
    out += _belongings(sheet)
    return out + _foreign(sheet, NPC_KEYS, "swc.problem.npc_field_on_character")
