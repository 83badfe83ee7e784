"""``/init surprise``: the ambush rolled at the start of a fight (:class:`~rules.systems.base.Ambush`).

Seed 001, SORPRESA: «la tirada se realiza con el atributo Discreto más bajo de los atacantes
contra el más Atento de los defensores. En caso de éxito, el enemigo tiene derecho a un ataque
gratuito contra el sorprendido, al principio del turno».  The sheets of the fight's
combatants give the values (a sheetless group's value is the GM's ``discreto``/``atento``);
:func:`rules.rolweb.offers.surprise` rolls and judges.

The result goes into the fight's state under :data:`SURPRISE_KEY`: a fight is surprised once,
before its second round, and :mod:`rules.rolweb.situations` reads it back (:func:`stored`)
when an ambusher makes its free attack.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.combat.participants import Side
from rules.rolweb import offers
from rules.rolweb import sheet as sheets
from rules.rolweb.equipment import Weapon, load_weapons
from rules.rolweb.settings import RolwebSettings, parse_settings
from rules.systems.base import (
    AmbushParty,
    AmbushRoll,
    AmbushSetup,
    Problem,
    RulesError,
    Settings,
)

__all__ = ["SURPRISE_KEY", "Stored", "ambush", "stored"]

#: Where the fight's state keeps the ambush (next to ``system``).
SURPRISE_KEY = "sorpresa"


@dataclass(frozen=True, slots=True)
class Stored:
    """What ``/attack`` reads back: the ambush's outcome and both sides' combatant keys."""

    surprised: bool
    attackers: frozenset[str]
    victims: frozenset[str]


def stored(state: Mapping[str, Any]) -> Stored | None:
    """The fight's recorded ambush, if one was rolled."""
    raw = state.get(SURPRISE_KEY)
    if not isinstance(raw, dict):
        return None
    return Stored(
        bool(raw.get("sorprendidos")),
        frozenset(str(k) for k in raw.get("atacantes") or ()),
        frozenset(str(k) for k in raw.get("victimas") or ()),
    )


def _refuse(key: str, **params: object) -> RulesError:
    return RulesError(Problem(key, "", dict(params)))


def _value(party: AmbushParty, name: str, given: int | None) -> int | None:
    """A combatant's Discreto or Atento: its sheet's, else the GM's number for the side."""
    return given if party.sheet is None else sheets.attribute(party.sheet, name)


def _weapon(party: AmbushParty, parsed: RolwebSettings) -> Weapon | None:
    """The sheet's main weapon (a sheet without one fights with the campaign's natural
    weapon, always ready); None for a sheetless group."""
    if party.sheet is None:
        return None
    carried = sheets.weapons(party.sheet, parsed)
    carried = carried or tuple(w for w in load_weapons(parsed) if w.is_natural)
    return carried[0] if carried else None


def ambush(setup: AmbushSetup, settings: Settings, rng: random.Random) -> AmbushRoll:
    """Roll the ambush of ``setup`` (see the module docstring).  When the players ambushed
    (``ambushing`` is ``jugadores``) they roll ``[Discreto←Atento]``; when the enemies did, the
    players roll the mirror test ``[Atento←Discreto]`` (players always roll)."""
    if stored(setup.state) is not None:
        raise _refuse("rolweb_fight.error.surprise_done")
    if setup.round > 1:
        raise _refuse("rolweb_fight.error.surprise_late")
    if not setup.ambushers or not setup.watchers:
        raise _refuse("rolweb_fight.error.empty_side")
    parsed = parse_settings(settings)
    ambushers = [
        offers.Ambusher(p.name, value)
        for p in setup.ambushers
        if (value := _value(p, "Discreto", setup.ambusher_value)) is not None
    ]
    watchers = [
        offers.Watcher(p.name, _value(p, "Atento", setup.watcher_value), _weapon(p, parsed))
        for p in setup.watchers
    ]
    missing = [p.name for p in setup.ambushers if not any(a.name == p.name for a in ambushers)]
    if missing or all(w.atento is None for w in watchers):
        raise _refuse(
            "rolweb_fight.error.values_needed",
            names=", ".join(missing or [w.name for w in watchers]),
        )
    players_defend = setup.ambushing is Side.ENEMIGOS
    result = offers.surprise(
        ambushers,
        watchers,
        rng,
        parsed.naturals,
        setup.modifier,
        players_roll_defence=players_defend,
    )
    keys = {p.name: p.key for p in (*setup.ambushers, *setup.watchers)}
    surprised = result.surprised
    test = result.test
    return AmbushRoll(
        state={
            SURPRISE_KEY: {
                "v": 1,
                "emboscan": setup.ambushing.value,
                "sorprendidos": surprised,
                "atacantes": [keys[a.name] for a in ambushers] if surprised else [],
                "victimas": [keys[w.name] for w in watchers] if surprised else [],
            }
        },
        expression=test.expression,
        breakdown=test.breakdown,
        roll=test.kept,
        target=test.target,
        outcome=str(test.outcome),
        reason="Atento←Discreto" if players_defend else "Discreto←Atento",
        detail={
            "emboscan": setup.ambushing.value,
            "sorprendidos": surprised,
            "secret": {
                "discreto": result.discreto,
                "atento": result.atento,
                "target": test.target,
                "breakdown": test.breakdown,
            },
        },
        ambush_value=result.discreto,
        watch_value=result.atento,
        surprised=surprised,
        attackers=tuple(a.name for a in ambushers) if surprised else (),
        victims=tuple(w.name for w in watchers) if surprised else (),
        draws=tuple((d.name, d.weapon, d.cost.value if d.cost else None) for d in result.draws),
    )
