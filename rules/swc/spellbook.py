"""S&W's :class:`~rules.systems.base.SpellBook`: slots per spell level, no spell list.

Seed 000 ends before the spell lists: it gives only how many spells of each level a class
prepares (Tablas 8–19, «Número de conjuros (por nivel)»), the Elfo's cap, the Clérigo's extra
first-level spell for Sabiduría 15+ and Tabla 4's Inteligencia limits for Magos.  So a cast
names a spell *level* (and the spell's name as free text for the record) and spends one
prepared slot: «Una vez se lanza un conjuro “preparado”, éste desaparece de la mente» (Mago);
«no se podrá volver a lanzar hasta el día siguiente» (Clérigo, Druida).  Slots come back
with the next day's preparation (:func:`rest`).

Spent slots live on the sheet as ``conjuros_gastados``: ``{"explorador.mago.1": 1}`` (class,
spell list, level), because an Explorador prepares clerical and magic spells separately.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules import dice
from rules.names import display
from rules.swc.classes import get_class
from rules.swc.derived import armour_blocks_spells, spell_table
from rules.swc.monster import is_npc
from rules.swc.sheet import character
from rules.swc.spells import SpellEffectDef, find_spell, spell_infos
from rules.swc.validation import problems
from rules.systems.base import (
    CastResult,
    Problem,
    RestResult,
    RulesError,
    Settings,
    Sheet,
    SpellEffect,
    SpellList,
    SpellPool,
    SpellRequest,
    SpellState,
)
from rules.text import fold

__all__ = ["SPENT", "cast", "rest", "spell_list", "spell_state"]

SPENT = "conjuros_gastados"
NOTICE = "swc.note.spell_slots"
LIST_NAMES: Mapping[str, str] = {
    k: display("swc", "lista", k) for k in ("clerigo", "druida", "mago")
}


def _spent(sheet: Sheet) -> dict[str, int]:
    raw = sheet.get(SPENT)
    if not isinstance(raw, Mapping):
        return {}
    return {str(k): v for k, v in raw.items() if isinstance(v, int) and v > 0}


def spell_list(settings: Settings) -> SpellList:
    """The book stops before its spells (the notice says so): the list is the campaign's
    defined spells (:mod:`rules.swc.spells`), the classic healing ones by default."""
    return SpellList(spell_infos(settings), NOTICE)


def _label(clase: str, lista: str, level: int) -> str:
    name = get_class(clase).nombre
    if lista != clase:
        name = f"{name} ({LIST_NAMES.get(lista, lista)})"
    return f"{name}, nivel {level}"


def _pools(sheet: Sheet, settings: Settings) -> tuple[SpellPool, ...]:
    """Every slot pool; none for a stat block or a sheet that is not legal (yet)."""
    if is_npc(sheet) or problems(sheet, settings):
        return ()
    ch = character(sheet, settings)
    spent = _spent(sheet)
    pools = []
    for clase in ch.clases:
        for lista, levels in spell_table(ch, clase, settings).items():
            for level, slots in sorted(levels.items()):
                key = f"{clase}.{lista}.{level}"
                left = max(0, slots - spent.get(key, 0))
                pools.append(SpellPool(key, _label(clase, lista, level), left, slots))
    return tuple(pools)


def spell_state(sheet: Sheet, settings: Settings) -> SpellState:
    """The slots of every class and list, minus those spent since the last rest."""
    return SpellState(_pools(sheet, settings))


def _matches(pool: SpellPool, wanted: str | None) -> bool:
    """``spell_list`` may name the list (``mago``), the class, or ``clase.lista``."""
    if not wanted:
        return True
    clase, lista, _level = pool.key.split(".")
    return fold(wanted) in (clase, lista, f"{clase}.{lista}", fold(LIST_NAMES.get(lista, "")))


def _of_spell(pool: SpellPool, spell: SpellEffectDef | None, level: int | None) -> bool:
    """Whether ``pool`` is a slot this cast may spend: of ``level`` when given, and of the
    level the campaign's ``spell`` has on the pool's list when the spell is defined."""
    _clase, lista, at = pool.key.split(".")
    if level is not None and int(at) != level:
        return False
    return spell is None or spell.lists.get(lista) == int(at)


def cast(sheet: Sheet, request: SpellRequest, settings: Settings, rng: random.Random) -> CastResult:
    """Spend one prepared slot of ``request.level`` — or of the level the campaign's spell
    has on the caster's list (:mod:`rules.swc.spells`) — and roll what a defined spell heals
    (issue 23 §3); an undefined one heals ``request.amount`` when the caster gives it."""
    defined = find_spell(request.spell, settings)
    if request.level is None and defined is None:
        raise RulesError(Problem("spell.problem.level_needed"))
    if defined is not None and defined.healing and request.amount is not None:
        raise RulesError(Problem("swc.problem.spell_rolls", "", {"name": defined.name}))
    if not is_npc(sheet) and (wrong := problems(sheet, settings)):
        raise RulesError(wrong)
    pools = [
        p
        for p in _pools(sheet, settings)
        if _of_spell(p, defined, request.level) and _matches(p, request.spell_list)
    ]
    if not pools and defined is not None:
        named = {"name": defined.name, "lists": _levels_text(defined)}
        raise RulesError(Problem("swc.problem.spell_not_on_lists", "", named))
    if not pools:
        params = {"level": request.level, "list": request.spell_list or "—"}
        raise RulesError(Problem("spell.problem.no_slots_at_level", "", params))
    lists = sorted({p.key.rsplit(".", 1)[0] for p in pools})
    if len(lists) > 1:
        # the lists by their ids (named «Clérigo/Mago» by the bot, and accepted back as
        # ``lista``); ``clase.lista`` only when two classes share a list
        names = sorted({key.split(".")[1] for key in lists})
        shown = names if len(names) == len(lists) else lists
        level = request.level or min(int(p.key.rsplit(".", 1)[1]) for p in pools)
        params = {"level": level, "listas": "/".join(shown), "system": "swc"}
        raise RulesError(Problem("spell.problem.which_list", "", params))
    (pool,) = pools
    if pool.left <= 0:
        raise RulesError(Problem("spell.problem.no_slot_left", "", {"pool": pool.label}))
    ch = character(sheet, settings)
    if armour_blocks_spells(ch, pool.key.split(".")[0]):
        raise RulesError(Problem("spell.problem.armour_blocks", "armadura"))
    spent = _spent(sheet)
    spent[pool.key] = spent.get(pool.key, 0) + 1
    new_sheet: dict[str, Any] = {**sheet, SPENT: spent}
    after = SpellPool(pool.key, pool.label, pool.left - 1, pool.maximum)
    label = defined.name if defined else (request.spell or "").strip()[:100] or pool.label
    return CastResult(
        label=label, sheet=new_sheet, spent=1, pool=after, effect=_healing(defined, request, rng)
    )


def _levels_text(spell: SpellEffectDef) -> str:
    return ", ".join(f"{LIST_NAMES.get(k, k)} {v}" for k, v in sorted(spell.lists.items()))


def _healing(
    spell: SpellEffectDef | None, request: SpellRequest, rng: random.Random
) -> SpellEffect | None:
    """What the cast heals: the defined spell's dice, or the amount the caster gave."""
    if spell is not None and spell.healing:
        rolled = dice.roll(spell.healing, rng)
        return SpellEffect("healing", rolled.expression, max(0, rolled.total), str(rolled))
    if request.amount is not None and request.amount > 0:
        amount = request.amount
        return SpellEffect("healing", str(amount), amount, f"{amount} (lanzador)")
    return None


def rest(sheet: Sheet, settings: Settings) -> RestResult:
    """A new day: the caster prepares (or prays for) every slot again."""
    new_sheet = {k: v for k, v in sheet.items() if k != SPENT}
    return RestResult(new_sheet, _pools(sheet, settings), _pools(new_sheet, settings))
