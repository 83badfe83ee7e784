"""Derived values of Núcleo (seed 002, «Valores Especiales» and the Ventajas/Magia modules).

The formulas, not the worked example, are the rule: the printed character Ardelia says
Iniciativa 13 and Voluntad 19 where these formulas give 12 and 21 (docs/rules-decisions.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from rules.nucleo.data import catalogue

__all__ = ["Derived", "compute", "derived"]


@dataclass(frozen=True, slots=True)
class Derived:
    """Every value «Valores Especiales» defines, with the intermediate Esquivar and Reflejos."""

    pv: int
    esquivar: int
    defensa: int
    reflejos: int
    iniciativa: int
    voluntad: int
    mana: int


def _effect(advantages: Collection[str], effect: str) -> int:
    """The sum of one effect over the advantages held (e.g. ``defensa`` from Defensor)."""
    known = catalogue().advantages
    return sum(known[name].effects.get(effect, 0) for name in advantages if name in known)


def _multiplier(advantages: Collection[str], effect: str, default: int) -> int:
    """A replacing multiplier (Muro: × 5, Maná abundante: × 4), or the default."""
    known = catalogue().advantages
    values = [
        known[name].effects[effect]
        for name in advantages
        if name in known and effect in known[name].effects
    ]
    return max(values, default=default)


def compute(
    attributes: Mapping[str, int],
    skills: Mapping[str, int],
    advantages: Collection[str] = (),
    *,
    estorbo: int = 0,
    defensa_bonus: int = 0,
) -> Derived:
    """All derived values.

    * PV = Físico × 4 (× 5 with Muro).
    * Esquivar = Destreza + skill Esquivar; Defensa = Esquivar + 5 (+1 Defensor, +1 Escudo
      through ``defensa_bonus``).
    * Reflejos = Percepción + skill Reflejos; Iniciativa = Reflejos (+2 Rápido) − Estorbo
      («Estorbo … se aplica a iniciativa»).
    * Voluntad = Carisma + Inteligencia + 5.
    * Maná = Inteligencia × 3 (× 4 with Maná abundante).
    """
    fisico = attributes["Físico"]
    esquivar = attributes["Destreza"] + skills.get("Esquivar", 0)
    reflejos = attributes["Percepción"] + skills.get("Reflejos", 0)
    return Derived(
        pv=fisico * _multiplier(advantages, "pv_multiplier", 4),
        esquivar=esquivar,
        defensa=esquivar + 5 + _effect(advantages, "defensa") + defensa_bonus,
        reflejos=reflejos,
        iniciativa=reflejos + _effect(advantages, "iniciativa") - estorbo,
        voluntad=attributes["Carisma"] + attributes["Inteligencia"] + 5,
        mana=attributes["Inteligencia"] * _multiplier(advantages, "mana_multiplier", 3),
    )


def derived(
    attributes: dict[str, int], skills: dict[str, int], advantage: str | None = None
) -> dict[str, int]:
    """The public shortcut: ``pv``, ``defensa``, ``iniciativa``, ``voluntad``, ``mana``.

    >>> derived({"Físico": 6, "Destreza": 7, "Inteligencia": 9, "Percepción": 8,
    ...          "Carisma": 7}, {"Esquivar": 5, "Reflejos": 4})["iniciativa"]
    12
    """
    values = compute(attributes, skills, (advantage,) if advantage else ())
    return {
        "pv": values.pv,
        "defensa": values.defensa,
        "iniciativa": values.iniciativa,
        "voluntad": values.voluntad,
        "mana": values.mana,
    }
