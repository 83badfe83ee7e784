"""Wounds and health states in Núcleo (seed 002, «Estados de Salud», «Recuperar el aliento»).

Núcleo counts *wounds* (damage received) rather than subtracting from PV.  The seed defines
«Malherido» twice: «si los PVs … son iguales a su físico, o inferior» (Circunstancias
especiales) and «Heridas de Físico x3 a Físico x4» (Estados de Salud).  With PV = Físico × 4
both say the same thing; with Muro (PV = Físico × 5) they do not.  By default we define the
states on *remaining* PV, so every threshold moves up by one Físico with Muro and the
advantage keeps a meaning; the campaign setting ``muro_estados = "fijo"`` keeps the printed
×3/×4/×6 instead (docs/rules-decisions.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules import dice
from rules.nucleo.data import catalogue

__all__ = [
    "BREATH_RULES",
    "MURO_MODES",
    "BreathResult",
    "Thresholds",
    "apply_damage",
    "heal",
    "health_state",
    "recover_breath",
    "state_for",
    "thresholds",
    "thresholds_from_pv",
]

#: ``desplazar``: thresholds follow the PV (Muro shifts them by one Físico); ``fijo``: ×3/×4/×6.
MURO_MODES: tuple[str, ...] = ("desplazar", "fijo")
#: ``recuperar_aliento`` (issue 23 §3, rules/nucleo/recovery.py): once after each fight
#: (default) or whenever the GM allows it — the seed sets no limit
BREATH_RULES: tuple[str, ...] = ("una_por_combate", "libre")

NORMAL = "normal"
MALHERIDO = "malherido"
INCONSCIENTE = "inconsciente"
MUERTO = "muerto"


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The number of wounds at which each state *starts* (the state below ends one earlier)."""

    malherido: int
    inconsciente: int
    muerto: int


def thresholds(fisico: int, muro: bool = False, mode: str = "desplazar") -> Thresholds:
    """«Normal: 0 a Físico x3 … Muerto: Físico x6 o superior», shifted by Físico with Muro.

    Written on remaining PV: Malherido when PV left ≤ Físico, Inconsciente when PV left ≤ 0,
    Muerto when PV left ≤ −2 × Físico.  Without Muro that is exactly ×3/×4/×6.
    """
    if mode not in MURO_MODES:
        raise ValueError(f"unknown muro_estados mode {mode!r}")
    pv = fisico * (5 if muro and mode == "desplazar" else 4)
    return Thresholds(malherido=pv - fisico, inconsciente=pv, muerto=pv + 2 * fisico)


def health_state(
    fisico: int, wounds: int, advantage: str | None = None, *, mode: str = "desplazar"
) -> str:
    """``normal``, ``malherido``, ``inconsciente`` or ``muerto`` for these wounds.

    >>> health_state(8, 24)  # «Con Físico 8 … 0 / 24 / 32 / 48»
    'malherido'
    """
    return state_for(thresholds(fisico, advantage == "Muro", mode), wounds)


def thresholds_from_pv(pv: int) -> Thresholds:
    """The states of an NPC whose PV the referee fixed (``pv_maximo``): the same proportions
    as ×3/×4/×6 of Físico, i.e. Malherido at ¾ of the PV, Muerto at 1½ (our reading)."""
    return Thresholds(malherido=pv - pv // 4, inconsciente=pv, muerto=pv + pv // 2)


def state_for(limits: Thresholds, wounds: int) -> str:
    """The state these wounds reach under ``limits``."""
    if wounds >= limits.muerto:
        return MUERTO
    if wounds >= limits.inconsciente:
        return INCONSCIENTE
    if wounds >= limits.malherido:
        return MALHERIDO
    return NORMAL


def apply_damage(wounds: int, damage: int) -> int:
    """Wounds after taking ``damage`` (already reduced by absorption); never below zero."""
    return max(0, wounds + max(0, damage))


def heal(wounds: int, amount: int, recuperacion: bool = False) -> int:
    """Wounds after healing ``amount``; Recuperación «cura 2 PV adicional en cada curación»."""
    if amount <= 0:
        return wounds
    return max(0, wounds - amount - (2 if recuperacion else 0))


@dataclass(frozen=True, slots=True)
class BreathResult:
    """«Recuperar el aliento»: the 1d6 rolled and the wounds left afterwards."""

    roll: int
    breakdown: str
    healed: int
    wounds: int


def recover_breath(wounds: int, rng: random.Random, recuperacion: bool = False) -> BreathResult:
    """Five minutes' rest after a combat «recupera 1d6 puntos de vida» (+2 with Recuperación).

    Only damage dice explode in Núcleo, so this is a plain 1d6.
    """
    result = dice.roll(catalogue().combat.breath_dice, rng)
    after = heal(wounds, result.total, recuperacion)
    return BreathResult(result.total, str(result), wounds - after, after)
