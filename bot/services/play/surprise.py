"""``/init surprise`` (rolweb): the ambush rolled at the start of a fight and applied to its
first round.

Seed 001, SORPRESA: «la tirada se realiza con el atributo Discreto más bajo de los atacantes
contra el más Atento de los defensores. En caso de éxito, el enemigo tiene derecho a un ataque
gratuito contra el sorprendido, al principio del turno».  The GM names the side that
ambushes; the sheets of the fight's combatants give the values (a sheetless group's value is
the GM's ``discreto``/``atento``); :func:`rules.rolweb.offers.surprise` rolls and judges.

The result is stored in the fight's state (``state["sorpresa"]``) by the same
compare-and-set as every other change of the fight, with its audit row (kind ``surprise``)
in the same transaction: a fight is surprised once, before its second round, and
``/attack … circumstances:ataque_libre_sorpresa`` reads it (an ambusher against a surprised
combatant, in the first round, once per ambusher).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Character, CombatRecord, utcnow
from bot.services.campaigns.service import SHOW_NUMBERS, is_referee
from bot.services.shared.audit import AuditEntry, roll_log
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotReferee
from bot.services.shared.retry import attempts, backoff
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.schema import upgraded_sheet
from rules.combat import Combat, Combatant, Side
from rules.rolweb import offers
from rules.rolweb import sheet as sheets
from rules.rolweb.equipment import Weapon, load_weapons
from rules.rolweb.settings import RolwebSettings, parse_settings
from rules.systems.base import RulesError

__all__ = ["SIDES", "SURPRISE_KEY", "SurpriseOrder", "SurpriseService", "SurpriseView", "stored"]

#: Where the fight's state keeps the ambush (next to ``system``).
SURPRISE_KEY = "sorpresa"
SIDES = tuple(side.value for side in Side)


@dataclass(frozen=True, slots=True)
class SurpriseOrder:
    """``ambushers``: the side that tries to surprise (``jugadores`` or ``enemigos``);
    ``discreto``/``atento``: the GM's value for the sheetless groups of each side."""

    ambushers: str
    modifier: int = 0
    discreto: int | None = None
    atento: int | None = None


@dataclass(frozen=True, slots=True)
class SurpriseView:
    """The ambush for the cog.  ``secret``: a hidden NPC's value is part of the test, so
    the public reply shows the die and the outcome, and the numbers go to the GM alone."""

    log_id: int
    ambushers: str
    discreto: int
    atento: int
    target: int
    roll: int
    breakdown: str
    players_rolled: bool
    surprised: bool
    attackers: tuple[str, ...]
    victims: tuple[str, ...]
    draws: tuple[tuple[str, str | None, str | None], ...]
    secret: bool


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


class SurpriseService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.rng = rng or random.SystemRandom()

    async def surprise(self, place: Place, actor: Actor, order: SurpriseOrder) -> SurpriseView:
        """Roll the ambush and store it on the fight (see the module docstring)."""
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        if not is_referee(campaign, actor):
            raise NotReferee()
        if system.id != "rolweb":
            raise DomainError("rolweb_fight.error.rolweb_only")
        if order.ambushers not in SIDES:
            raise DomainError("rolweb_fight.error.bad_side", sides=", ".join(SIDES))
        parsed = parse_settings(settings)
        for attempt in attempts():
            await backoff(attempt)
            record = await self._fight(place)
            if record is None:
                raise DomainError("combat.error.none")
            combat = Combat.from_dict(record.state)
            if stored(record.state) is not None:
                raise DomainError("rolweb_fight.error.surprise_done")
            if combat.round > 1:
                raise DomainError("rolweb_fight.error.surprise_late")
            ambush_side = Side(order.ambushers)
            mine = [c for c in combat.combatants if c.side is ambush_side]
            theirs = [c for c in combat.combatants if c.side is not ambush_side]
            if not mine or not theirs:
                raise DomainError("rolweb_fight.error.empty_side")
            characters = await self._characters(combat)
            ambushers = [
                offers.Ambusher(c.name, value)
                for c in mine
                if (value := self._value(c, characters, "Discreto", order.discreto)) is not None
            ]
            watchers = [
                offers.Watcher(
                    c.name,
                    self._value(c, characters, "Atento", order.atento),
                    self._weapon(c, characters, parsed),
                )
                for c in theirs
            ]
            missing = [c.name for c in mine if not any(a.name == c.name for a in ambushers)]
            if missing or all(w.atento is None for w in watchers):
                raise DomainError(
                    "rolweb_fight.error.values_needed",
                    names=", ".join(missing or [w.name for w in watchers]),
                )
            players_defend = ambush_side is Side.ENEMIGOS
            try:
                result = offers.surprise(
                    ambushers,
                    watchers,
                    self.rng,
                    parsed.naturals,
                    order.modifier,
                    players_roll_defence=players_defend,
                )
            except RulesError as error:
                raise DomainError(error.problems[0].key, **error.problems[0].params) from None
            secret = any(
                c.character_id is not None
                and characters.get(c.character_id) is not None
                and characters[c.character_id].is_npc
                and characters[c.character_id].hidden
                for c in combat.combatants
            ) and not bool(settings.get(SHOW_NUMBERS, False))
            keys = {c.name: c.key for c in combat.combatants}
            view_draws = tuple(
                (d.name, d.weapon, d.cost.value if d.cost else None) for d in result.draws
            )
            state = {
                **record.state,
                SURPRISE_KEY: {
                    "v": 1,
                    "emboscan": order.ambushers,
                    "sorprendidos": result.surprised,
                    "atacantes": [keys[a.name] for a in ambushers] if result.surprised else [],
                    "victimas": [keys[w.name] for w in watchers] if result.surprised else [],
                },
            }
            test = result.test
            audit = AuditEntry(
                kind="surprise",
                expression=test.expression,
                breakdown=f"{test.kept}" if secret else test.breakdown,
                total=test.kept,
                reason=("Atento←Discreto" if players_defend else "Discreto←Atento"),
                detail={
                    "emboscan": order.ambushers,
                    "sorprendidos": result.surprised,
                    "secret": {
                        "discreto": result.discreto,
                        "atento": result.atento,
                        "target": test.target,
                        "breakdown": test.breakdown,
                    },
                },
                difficulty=None if secret else test.target,
                outcome=str(test.outcome),
            )
            async with self.sessions() as session, session.begin():
                written = await session.exec(
                    update(CombatRecord)
                    .where(
                        col(CombatRecord.id) == record.id,
                        col(CombatRecord.version) == record.version,
                        col(CombatRecord.status) == "active",
                    )
                    .values(state=state, version=CombatRecord.version + 1, updated_at=utcnow())
                )
                if written.rowcount != 1:
                    continue
                entry = roll_log(place, actor, campaign.id, None, audit)
                session.add(entry)
                await session.flush()
                log_id = entry.id or 0
            return SurpriseView(
                log_id=log_id,
                ambushers=order.ambushers,
                discreto=result.discreto,
                atento=result.atento,
                target=test.target,
                roll=test.kept,
                breakdown=test.breakdown,
                players_rolled=True,
                surprised=result.surprised,
                attackers=tuple(a.name for a in ambushers) if result.surprised else (),
                victims=tuple(w.name for w in watchers) if result.surprised else (),
                draws=view_draws,
                secret=secret,
            )
        raise ConcurrentChange()

    async def _fight(self, place: Place) -> CombatRecord | None:
        async with self.sessions() as session:
            return (
                await session.exec(
                    select(CombatRecord).where(
                        CombatRecord.guild_id == place.guild_id,
                        CombatRecord.channel_id == place.channel_id,
                        CombatRecord.status == "active",
                    )
                )
            ).first()

    async def _characters(self, combat: Combat) -> dict[int, Character]:
        ids = [c.character_id for c in combat.combatants if c.character_id is not None]
        if not ids:
            return {}
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(Character).where(
                        col(Character.id).in_(ids), col(Character.deleted_at).is_(None)
                    )
                )
            ).all()
        return {row.id: row for row in rows if row.id is not None}

    @staticmethod
    def _value(
        combatant: Combatant, characters: Mapping[int, Character], name: str, given: int | None
    ) -> int | None:
        """A combatant's Discreto or Atento: its sheet's, else the GM's number for the side."""
        character = characters.get(combatant.character_id or -1)
        if character is None:
            return given
        return sheets.attribute(upgraded_sheet(character), name)

    @staticmethod
    def _weapon(
        combatant: Combatant, characters: Mapping[int, Character], parsed: RolwebSettings
    ) -> Weapon | None:
        """The sheet's main weapon (a sheet without one fights with the campaign's natural
        weapon, always ready); None for a sheetless group."""
        character = characters.get(combatant.character_id or -1)
        if character is None:
            return None
        carried = sheets.weapons(upgraded_sheet(character), parsed)
        carried = carried or tuple(w for w in load_weapons(parsed) if w.is_natural)
        return carried[0] if carried else None
