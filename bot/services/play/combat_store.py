"""Where a fight is stored: one per channel, read and written by compare-and-set.

:class:`FightStore` loads the channel's active fight, applies a change to the pure
:class:`rules.combat.Combat` and writes it only if nobody wrote since it was read
(:func:`bot.services.shared.versioned.update_versioned`): two "next" pressed together advance two
turns, never one twice, and a button from an older message is told it is out of date
instead of being applied.  The turn reminder's durable timer moves in the same transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from enum import Enum
from typing import Any, Literal

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Character, CombatRecord, saved_id, utcnow
from bot.grammar import gender_of
from bot.services.play.combat_views import (
    PANEL_VERSION,
    Change,
    CombatView,
    Health,
    HealthChange,
    combat_view,
    panel_version,
)
from bot.services.play.turn_ledger import actions_left
from bot.services.shared.context import Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.timers import TimerService, cancel, schedule
from bot.services.shared.versioned import StaleWrite, update_versioned
from bot.services.sheets.characters import CharacterService
from rules.combat import Combat, Combatant, effects
from rules.combat.declarations import Mode, mode_of
from rules.systems.base import GameSystem, RulesError, capabilities

__all__ = [
    "KEEP",
    "TURN_TIMER",
    "FightStore",
    "active_fight",
    "fight_in",
    "write_fight_state",
]


async def active_fight(
    sessions: async_sessionmaker[AsyncSession], place: Place
) -> CombatRecord | None:
    """The channel's active fight, if any (one per channel: a unique index)."""
    async with sessions() as session:
        return await fight_in(session, place)


async def fight_in(session: AsyncSession, place: Place) -> CombatRecord | None:
    """:func:`active_fight` read in the caller's session (with what else it reads)."""
    return (
        await session.exec(
            select(CombatRecord).where(
                CombatRecord.guild_id == place.guild_id,
                CombatRecord.channel_id == place.channel_id,
                CombatRecord.status == "active",
            )
        )
    ).first()


async def write_fight_state(
    session: AsyncSession, record: CombatRecord, state: Mapping[str, Any]
) -> None:
    """Compare-and-set of an active fight's state alone (a wound on a group, an ambush, a
    turn's ledger): :class:`StaleWrite` when someone wrote since ``record`` was read."""
    await update_versioned(
        session,
        CombatRecord,
        col(CombatRecord.id) == record.id,
        record.version,
        col(CombatRecord.status) == "active",
        state=dict(state),
        updated_at=utcnow(),
    )


class _Keep(Enum):
    """A sentinel the type checker can narrow (``is KEEP``), unlike a bare ``object()``."""

    KEEP = "keep"


KEEP = _Keep.KEEP  # "leave turn_hours as it is"
TURN_TIMER = "combat.turn"  # the durable timer kind of play-by-post turn reminders


class FightStore:
    """The channel's fight: read, changed by compare-and-set, shown (see the module
    docstring)."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        timers: TimerService,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.timers = timers

    async def active(self, place: Place) -> CombatRecord | None:
        return await active_fight(self.sessions, place)

    async def require(self, place: Place) -> CombatRecord:
        record = await self.active(place)
        if record is None:
            raise DomainError("combat.error.none")
        return record

    async def store(
        self,
        record: CombatRecord,
        combat: Combat,
        *,
        ending: bool = False,
        turn_hours: int | None | Literal[_Keep.KEEP] = KEEP,
    ) -> bool:
        """Compare-and-set: True when nobody wrote since ``record`` was read.

        Every change restarts the turn reminder's durable :data:`TURN_TIMER` row (the one
        place its moment is kept) in the same transaction.  On
        success ``record`` (a detached copy) is updated to what was written, so the caller
        shows exactly its own write and not a later one read back after another commit.
        """
        hours = record.turn_hours if turn_hours is KEEP else turn_hours
        values: dict[str, Any] = {
            # ``{**record.state, …}`` keeps what lives next to the order (rolweb's ambush)
            "state": {
                **record.state,
                **combat.to_dict(),
                "system": record.state.get("system", ""),
                PANEL_VERSION: record.version + 1,  # see combat_views.panel_version
            },
            "updated_at": utcnow(),
        }
        if ending:
            values.update(status="ended", ended_at=utcnow())
        values["turn_hours"] = hours
        # by rounds of declarations the round's deadline replaces the turn's (:mod:`.rounds`)
        by_turns = mode_of(record.state) is Mode.TURNS
        due_at = (
            utcnow() + timedelta(hours=hours)
            if hours and combat.current is not None and not ending and by_turns
            else None
        )
        try:
            async with self.sessions() as session, session.begin():
                await update_versioned(
                    session,
                    CombatRecord,
                    col(CombatRecord.id) == record.id,
                    record.version,
                    col(CombatRecord.status) == "active",
                    **values,
                )
                if due_at is not None:
                    await schedule(session, TURN_TIMER, str(record.id), record.guild_id, due_at)
                else:
                    await cancel(session, TURN_TIMER, str(record.id))
        except StaleWrite:
            return False
        self.timers.poke()
        for key, value in values.items():
            setattr(record, key, value)
        record.version += 1
        return True

    async def states(
        self, system: GameSystem, settings: Mapping[str, Any], combat: Combat
    ) -> dict[str, Health]:
        """Every character combatant's health and effects, from one read of their sheets."""
        ids = {c.character_id: c.key for c in combat.combatants if c.character_id is not None}
        if not ids:
            return {}
        # the per-process cache first (bot.services.campaigns.cache): a turn passing in a
        # fight whose sheets did not change reads none of them again (issue 26)
        cache = self.characters.campaigns.cache
        rows: list[tuple[int, Mapping[str, Any], dict[str, Any]]] = []
        missing: list[int] = []
        for character_id in ids:
            cached = cache.row(character_id)
            if cached is not None:
                rows.append((character_id, *cached))
            else:
                missing.append(character_id)
        if missing:
            generation = cache.generation
            async with self.sessions() as session:
                read = (
                    await session.exec(select(Character).where(col(Character.id).in_(missing)))
                ).all()
            for row in read:
                cache.store_character(generation, row)
                read_columns: dict[str, Any] = {
                    "deleted_at": row.deleted_at,
                    "is_npc": row.is_npc,
                    "hidden": row.hidden,
                }
                rows.append((saved_id(row), read_columns, dict(row.sheet)))
        found: dict[str, Health] = {}
        health = capabilities(system).health
        for character_id, columns, sheet in rows:
            if columns["deleted_at"] is not None:
                continue
            state = None
            if health is not None:
                try:
                    state = health.combat_state(sheet, settings)
                except (RulesError, KeyError, TypeError, ValueError):
                    state = None  # a sheet the rules cannot read shows no health, acts normally
            try:
                active = effects.effects(sheet)
            except RulesError:
                active = ()
            npc, hidden = bool(columns["is_npc"]), bool(columns["hidden"])
            found[ids[character_id]] = Health(state, npc, hidden, active, gender_of(sheet))
        return found

    async def change(
        self,
        place: Place,
        change: Change | None = None,
        *,
        health_change: HealthChange | None = None,
        seen: tuple[int, int] | None = None,
        ending: bool = False,
        turn_hours: int | None | Literal[_Keep.KEEP] = KEEP,
        read: CombatRecord | None = None,
    ) -> CombatView:
        """Load, apply, compare-and-set; on a clash recompute on the fresh state.

        ``read``: the fight as the caller has just read it, for the first attempt (``/init
        next`` reads it to choose between turns and rounds); a clash reads it again.

        ``seen`` is ``(combat id, version)`` of a button: any later write makes it stale.
        ``health_change`` (instead of ``change``) also gets every combatant's
        :class:`Health`, read on each attempt (so a heal made meanwhile puts the healed back in the order).
        """

        given = [read] if read is not None else []

        async def attempt() -> CombatView:
            context = await self.characters.contexts.load(place)
            campaign, system, settings = context.campaign, context.system, context.settings
            record = given.pop() if given else await self.active(place)
            if seen is not None:
                if record is None or record.id != seen[0]:
                    raise DomainError("combat.error.gone")
                if panel_version(record) != seen[1]:
                    raise DomainError("combat.error.stale")
            if record is None:
                raise DomainError("combat.error.none")
            before = Combat.from_dict(record.state)
            if health_change is not None:
                health = await self.states(system, settings, before)
                combat, turn, rolled = health_change(campaign, system, settings, before, health)
            elif change is not None:
                combat, turn, rolled = change(campaign, system, settings, before)
            else:
                raise TypeError("a combat change is needed")
            if not await self.store(record, combat, ending=ending, turn_hours=turn_hours):
                if seen is not None:  # reported: the button showed the fight as it was
                    raise DomainError("combat.error.stale")
                raise StaleWrite()  # retried on the fight as it is now
            if health_change is None:  # (a turn passing changes no sheet: its read stands)
                health = await self.states(system, settings, combat)
            left = actions_left(system, settings, record.state, combat)
            return combat_view(record, combat, turn, rolled, health, left)

        return await retrying(attempt)

    async def sheet(self, place: Place, combatant: Combatant) -> dict[str, Any]:
        """The sheet of a character combatant, read the way the referee sees it."""
        async with self.sessions() as session:
            row = await session.get(Character, combatant.character_id)
        if row is None or row.deleted_at is not None:
            raise DomainError("sheet.error.not_found", name=combatant.name)
        return dict(row.sheet)
