"""What a Núcleo spell leaves behind (seed 002, «Módulo de reglas: Magia», lines 318-399).

* A spell with a duration and an ``efecto`` in ``data/nucleo/spells.json`` becomes a
  :class:`rules.combat.effects.Effect` when the cast succeeds: «1 turno/nivel» lasts the
  caster's level in that spell in rounds, «1 min/nivel» 20 rounds per level («Un turno dura
  3 segundos»), hours and days last until removed.  A critical (line 399: «+1d6 (conjuros de
  daño y curación), +1 (bonos de atributo), o 2 turnos extra») adds what the spell's
  ``critical`` lists: ``turnos`` +2 rounds, ``bono`` +1 to each modifier, ``dado`` +1d6 to a
  rolled damage bonus (Arma de fuego) or to a heal each turn (Aura de curación).
* A spell that damages or heals becomes a :class:`~rules.combat.attack.TargetChange` for
  its target (:func:`spell_change`): damage minus the target's absorption unless the spell
  «ignora armadura»; Toque vampírico «drena 2d6 pv's al objetivo, otorgándoselos al
  lanzador» (line 370): the points the target loses heal the caster.
* Touch spells that «requiere(n) tirada/ataque C/C» (Toque eléctrico line 326, Toque
  vampírico line 370) need a melee attack first: ``/attack`` with the ``toque``
  circumstance (:func:`rules.nucleo.fight.attack`), then the cast.
"""

from __future__ import annotations

import re

from rules.combat import effects
from rules.combat.attack import Fighter, TargetChange
from rules.nucleo.data import Spell
from rules.nucleo.sheet import character
from rules.systems.base import CastResult, Settings

__all__ = [
    "CRITICAL_ROUNDS",
    "ROUNDS_PER_MINUTE",
    "duration_rounds",
    "spell_change",
    "timed_effect",
]

ROUNDS_PER_MINUTE = 20  # «Un turno dura 3 segundos»
CRITICAL_ROUNDS = 2  # «2 turnos extra»
_DURATION = re.compile(
    r"^\s*(?P<n>\d+)\s+(?P<unit>turno|min|minuto|hora|día|dia)s?\s*/\s*nivel\s*$"
)


def duration_rounds(duration: str | None, level: int) -> int | None:
    """Rounds a printed duration lasts at ``level`` (None: until removed)."""
    if not duration:
        return None
    match = _DURATION.match(duration)
    if match is None:
        return None
    count = int(match["n"]) * max(1, level)
    if match["unit"] == "turno":
        return count
    if match["unit"] in ("min", "minuto"):
        return count * ROUNDS_PER_MINUTE
    return None


def timed_effect(spell: Spell, level: int, critical: tuple[str, ...] = ()) -> effects.Effect | None:
    """The effect a successful cast of ``spell`` at ``level`` leaves (None: it leaves none)."""
    data = spell.effect
    if data is None:
        return None
    rounds = duration_rounds(spell.duration, level)
    if rounds is not None and "turnos" in critical:
        rounds += CRITICAL_ROUNDS
    bonus = 1 if "bono" in critical else 0
    modifiers = []
    for key, value, dice in data.modifiers:
        if dice and "dado" in critical:
            dice = f"{dice}+1d6"
        signed = value + (bonus if value > 0 else -bonus if value < 0 else 0)
        modifiers.append(effects.Modifier(key, signed, dice))
    action = effects.TurnAction(*data.action) if data.action else None
    if action is not None and action.kind == "heal" and "dado" in critical:
        action = effects.TurnAction("heal", f"{action.amount}+1d6")  # Aura de curación
    text = "" if modifiers else spell.text
    return effects.validate(
        effects.Effect(spell.name, rounds, tuple(modifiers), text, action, f"hechizo:{spell.name}")
    )


def spell_change(
    cast: CastResult, spell: Spell, target: Fighter, settings: Settings
) -> TargetChange | None:
    """The change a damaging or healing cast makes to ``target`` (None: it makes none)."""
    if cast.effect is None:
        return None
    amount = max(0, cast.effect.total)
    if cast.effect.kind == "healing":
        return TargetChange("heal", amount)
    if not cast.effect.ignores_armour:
        if target.sheet is not None:
            absorption = character(target.sheet, settings).loadout.absorption
            absorption += sum(v for _, v in effects.modifiers_for(target.sheet, effects.ABSORPTION))
        else:
            absorption = int(target.armour) if target.armour and target.armour.isdigit() else 0
        amount = max(0, amount - absorption)
    drained = amount if spell.name == "Toque vampírico" else 0
    return TargetChange("damage", amount, to_attacker=drained)
