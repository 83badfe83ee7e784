"""NPCs and monsters in swc: a quick stat block instead of a character sheet.

The referee types what a monster entry gives ("DG 1+1, CA 6 [13], Ataque 1 arma (1d8),
Mov 9, PX 15"); the rules derive the rest: the attack roll from Tabla 32 (engineer B's
:func:`rules.swc.combat.monster_to_hit_target`) and the saving throw by Hit Dice.  Seed 000
ends before the monsters, so the save table is S&W Completo's, recorded in
``data/swc/monster_saves.json`` and overridable per NPC (``salvacion``).

A stat block is a sheet with ``"pnj": true``::

    {"name": "Orco", "system": "swc", "pnj": true, "dados_golpe": "1", "ca": 6,
     "ataques": "1 arma (1d8)", "movimiento": 12, "valor_px": 15,
     "pg": {"max": 5, "actual": 5}, "salvacion": null, "equipo": [], "monedas": {...}}

``ca`` is stored descending (the book's official notation) and shown in the campaign's.
"""

from __future__ import annotations

import random
import re
from fractions import Fraction
from functools import cache

from rules.dice import DiceError, parse, roll
from rules.swc.combat import (
    ascending_to_descending,
    descending_to_ascending,
    monster_attack_bonus,
    monster_hit_dice,
    monster_to_hit_target,
)
from rules.swc.data import DataError, load
from rules.systems.base import (
    CheckOption,
    CheckRequest,
    CheckResult,
    DerivedValue,
    LoggedRoll,
    Outcome,
    Problem,
    RulesError,
    Settings,
    Sheet,
)
from rules.values import is_int

__all__ = [
    "hit_points_roll",
    "is_npc",
    "monster_check",
    "monster_check_options",
    "monster_derived",
    "monster_problems",
    "monster_save",
    "parse_armour_class",
    "parse_attacks",
    "parse_hit_dice",
    "show_ac",
]

_HD = re.compile(
    r"^\s*(?:(?P<less><\s*1)|(?P<frac>\d+\s*/\s*\d+)|(?P<n>\d+)\s*(?P<k>[+-]\s*\d+)?)\s*$"
)
_AC = re.compile(r"^\s*(?P<d>-?\d+)?\s*(?:\[\s*(?P<a>-?\d+)\s*\])?\s*$")
_ATTACK = re.compile(r"^\s*(?:(?P<n>\d+)\s+)?(?P<what>[^()]+?)\s*\((?P<damage>[^()]+)\)\s*$")
_DICE_LIKE = re.compile(r"^\s*\d|\bd\d", re.IGNORECASE)
FRACTION_HIT_DIE = 4  # "<1" and "1/2" DG roll 1d4 hit points
HIT_DIE = 8  # monsters roll d8 per Hit Die
MAX_NOTES = 1000


def is_npc(sheet: Sheet) -> bool:
    """Whether ``sheet`` is a quick stat block rather than a character."""
    return bool(sheet.get("pnj"))


def parse_hit_dice(text: str) -> tuple[int, int, int]:
    """``"4+1"`` -> (4 dice, +1, die 8); ``"1/2"`` or ``"<1"`` -> (1, 0, die 4).

    Raises :class:`ValueError` on anything else.
    """
    match = _HD.match(str(text))
    if not match:
        raise ValueError(text)
    if match["less"] or match["frac"]:
        return 1, 0, FRACTION_HIT_DIE
    return int(match["n"]), int((match["k"] or "0").replace(" ", "")), HIT_DIE


def hit_points_roll(dados_golpe: str, rng: random.Random) -> tuple[int, LoggedRoll]:
    """Roll a monster's hit points: its Hit Dice in d8 plus the "+k" (at least 1)."""
    dice, bonus, sides = parse_hit_dice(dados_golpe)
    expression = f"{dice}d{sides}" + (f"{bonus:+d}" if bonus else "")
    result = roll(expression, rng)
    total = max(1, result.total)
    return total, LoggedRoll(expression, str(result), total, f"Puntos de Golpe ({dados_golpe} DG)")


def parse_armour_class(text: str, ascending: bool) -> int:
    """The descending AC typed as ``"6"``, ``"[13]"`` or ``"6 [13]"``.

    A bare number is read in the campaign's notation.  Raises :class:`RulesError` naming
    the problem (unreadable, or two notations that disagree).
    """
    match = _AC.match(str(text))
    if not match or (match["d"] is None and match["a"] is None):
        raise RulesError(Problem("swc.problem.npc_bad_ac", "ca", {"valor": text}))
    desc, asc = match["d"], match["a"]
    if desc is not None and asc is not None:
        if descending_to_ascending(int(desc)) != int(asc):
            raise RulesError(
                Problem(
                    "swc.problem.npc_ac_mismatch",
                    "ca",
                    {"ca": desc, "ascendente": asc, "esperada": descending_to_ascending(int(desc))},
                )
            )
        return int(desc)
    if asc is not None:
        return ascending_to_descending(int(asc))
    return ascending_to_descending(int(desc)) if ascending else int(desc)


def show_ac(ca: int, ascending: bool) -> str:
    """``6`` -> ``"6"`` or ``"[13]"`` by the campaign's notation."""
    return f"[{descending_to_ascending(ca)}]" if ascending else str(ca)


def parse_attacks(text: str) -> list[Problem]:
    """Problems of an attack line like ``"2 garras (1d4), 1 mordisco (1d6)"`` (empty: fine).

    Every attack names its damage in brackets: dice (checked by the dice engine) or a word
    for a special effect ("1 toque (parálisis)").
    """
    if not str(text).strip():
        return [Problem("swc.problem.npc_no_attacks", "ataques")]
    out = []
    for part in re.split(r"[,;]", str(text)):
        if not part.strip():
            continue
        match = _ATTACK.match(part)
        if not match:
            out.append(
                Problem(
                    "swc.problem.npc_attack_without_damage", "ataques", {"ataque": part.strip()}
                )
            )
            continue
        damage = match["damage"].strip()
        if _DICE_LIKE.search(damage):
            try:
                parse(damage)
            except DiceError:
                out.append(
                    Problem(
                        "swc.problem.npc_bad_damage",
                        "ataques",
                        {"ataque": part.strip(), "dano": damage},
                    )
                )
    return out


@cache
def _save_rows() -> tuple[int, ...]:
    rows = load("monster_saves")["filas"]
    if [r["dados_golpe"] for r in rows] != list(range(len(rows))):
        raise DataError("monster_saves: rows must run 0 (<1 DG), 1, 2 ...")
    return tuple(int(r["salvacion"]) for r in rows)


def monster_save(sheet: Sheet) -> tuple[int, str]:
    """The NPC's saving throw and where it comes from (the referee's, or by Hit Dice)."""
    fixed = sheet.get("salvacion")
    if fixed not in (None, ""):
        return int(fixed), "fijada por el Árbitro"
    hd = monster_hit_dice(str(sheet["dados_golpe"]))
    rows = _save_rows()
    return rows[min(hd, len(rows) - 1)], f"por Dados de Golpe ({sheet['dados_golpe']})"


def monster_problems(sheet: Sheet) -> list[Problem]:
    """Every problem of a stat block, each naming its field."""
    out: list[Problem] = []
    try:
        parse_hit_dice(str(sheet.get("dados_golpe", "")))
    except ValueError:
        out.append(
            Problem(
                "swc.problem.npc_bad_hit_dice", "dados_golpe", {"valor": sheet.get("dados_golpe")}
            )
        )
    ca = sheet.get("ca")
    if not is_int(ca) or not -20 <= ca <= 20:
        out.append(Problem("swc.problem.npc_bad_ac", "ca", {"valor": ca}))
    out += parse_attacks(str(sheet.get("ataques", "")))
    for key, label in (("movimiento", "Movimiento"), ("valor_px", "Valor en PX")):
        value = sheet.get(key)
        if not is_int(value) or value < 0:
            out.append(Problem("swc.problem.npc_bad_number", key, {"campo": label, "valor": value}))
    save = sheet.get("salvacion")
    if save not in (None, "") and (not is_int(save) or not 2 <= save <= 20):
        out.append(Problem("swc.problem.npc_bad_save", "salvacion", {"valor": save}))
    return out


def _to_hit_line(hd_text: str, ascending: bool) -> str:
    acs = range(10, 20) if ascending else range(9, -1, -1)
    return " ".join(f"{ac}:{monster_to_hit_target(hd_text, ac, ascending)}" for ac in acs)


def monster_derived(sheet: Sheet, ascending: bool) -> tuple[DerivedValue, ...]:
    """What ``/sheet show`` adds to a stat block: AC in the campaign's notation, the save and
    the Tabla 32 attack line (hit points, Hit Dice and attacks are fields of their own)."""
    hd = str(sheet["dados_golpe"])
    save, source = monster_save(sheet)
    return (
        DerivedValue(
            "ca", "Clase de Armadura", show_ac(int(sheet["ca"]), ascending), "PNJ", "combate"
        ),
        DerivedValue("salvacion", "Tirada de Salvación", save, source, "combate"),
        DerivedValue(
            "impactar",
            "Impactar",
            _to_hit_line(hd, ascending),
            f"Tabla 32, fila {monster_hit_dice(hd) or '<1'} DG; CA:d20 necesario; "
            f"bono de ataque +{monster_attack_bonus(hd)}",
            "combate",
        ),
    )


def monster_check_options(settings: Settings) -> tuple[CheckOption, ...]:
    """A monster rolls only its saving throw from the sheet (attacks go through /attack)."""
    return (CheckOption("salvacion", "Tirada de Salvación", "salvacion"),)


def monster_check(sheet: Sheet, request: CheckRequest, rng: random.Random) -> CheckResult:
    """The saving throw: 1d20 + modifier at or above the save (one number for every threat
    and, under Tabla 28, every category: monsters have a single save)."""
    if request.option.partition(":")[0] != "salvacion":
        raise RulesError(Problem("swc.problem.unknown_check", "option", {"option": request.option}))
    target, source = monster_save(sheet)
    expression = "1d20" + (f"{request.modifier:+d}" if request.modifier else "")
    result = roll(expression, rng)
    needed = target - request.modifier
    p = Fraction(max(0, min(20, 21 - needed)), 20)
    return CheckResult(
        option=request.option,
        label="Tirada de Salvación",
        expression=expression,
        total=result.total,
        breakdown=str(result),
        outcome=Outcome.SUCCESS if result.total >= target else Outcome.FAILURE,
        target=target,
        probability=(p.numerator, p.denominator),
        extra={"origen": source},
    )
