"""Changing class ("Cambiando de clase de personaje") and taking the Paladín's vows (seed 000).

Only the rules the book states are enforced: single-class Guerreros, Magos, Clérigos and
Ladrones may change (never Mago ↔ Clérigo) with 16+ in the new class's prime attribute; a
Legal Guerrero with Carisma 17+ may become a Paladín.  What happens to level, hit dice and XP
is left to the referee by the book; we offer its suggested option (new XP divided by the old
level until the new class catches up) and its 9-hit-dice ceiling.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules.swc.classes import get_class
from rules.systems.base import Problem

__all__ = [
    "CHANGEABLE_CLASSES",
    "DUAL_CLASS_MAX_HIT_DICE",
    "class_change_problems",
    "dual_class_xp",
    "paladin_vow_problems",
]

CHANGEABLE_CLASSES: tuple[str, ...] = ("guerrero", "mago", "clerigo", "ladron")
DUAL_CLASS_MAX_HIT_DICE = 9
_NEW_CLASS_MINIMUM = 16
_PALADIN_CHARISMA = 17


def class_change_problems(
    clases: Sequence[str], nueva: str, atributos: Mapping[str, int]
) -> list[Problem]:
    """Why a character with ``clases`` may not change to ``nueva`` (empty when allowed)."""
    problems: list[Problem] = []
    if len(clases) != 1:
        problems.append(Problem("swc.problem.class_change_not_single_class", "clases"))
        return problems
    actual = clases[0]
    for clase in (actual, nueva):
        if clase not in CHANGEABLE_CLASSES:
            problems.append(
                Problem("swc.problem.class_change_class_not_allowed", "clases", {"clase": clase})
            )
    if {actual, nueva} == {"mago", "clerigo"}:
        problems.append(
            Problem(
                "swc.problem.class_change_mago_clerigo",
                "clases",
                {"actual": actual, "nueva": nueva},
            )
        )
    if actual == nueva:
        problems.append(Problem("swc.problem.class_change_same_class", "clases", {"clase": nueva}))
    if nueva in CHANGEABLE_CLASSES:
        for atributo in get_class(nueva).atributos_primarios:
            valor = atributos.get(atributo, 0)
            if valor < _NEW_CLASS_MINIMUM:
                problems.append(
                    Problem(
                        "swc.problem.class_change_attribute_low",
                        f"atributos.{atributo}",
                        {"atributo": atributo, "valor": valor, "minimo": _NEW_CLASS_MINIMUM},
                    )
                )
    return problems


def paladin_vow_problems(
    clases: Sequence[str], alineamiento: str, atributos: Mapping[str, int]
) -> list[Problem]:
    """Why this character may not take the Paladín's vows (empty when allowed)."""
    problems: list[Problem] = []
    if list(clases) != ["guerrero"]:
        problems.append(
            Problem("swc.problem.paladin_vows_not_fighter", "clases", {"clases": "/".join(clases)})
        )
    if alineamiento != "legal":
        problems.append(
            Problem(
                "swc.problem.paladin_vows_not_lawful",
                "alineamiento",
                {"alineamiento": alineamiento},
            )
        )
    carisma = atributos.get("Carisma", 0)
    if carisma < _PALADIN_CHARISMA:
        problems.append(
            Problem(
                "swc.problem.paladin_vows_charisma_low",
                "atributos.Carisma",
                {"valor": carisma, "minimo": _PALADIN_CHARISMA},
            )
        )
    return problems


def dual_class_xp(amount: int, nivel_anterior: int) -> int:
    """The book's optional brake: XP earned after a change is divided by the old class's level."""
    if nivel_anterior < 1:
        raise ValueError(f"level must be >= 1, got {nivel_anterior}")
    return amount // nivel_anterior
