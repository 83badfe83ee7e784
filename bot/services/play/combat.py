"""``/init`` use cases: one fight per channel, one transaction and one version check each.

The order, the round and whose turn it is live in :class:`rules.combat.Combat` (pure);
this module decides *who* may change them, loads and stores the state, and makes every
change a compare-and-set (``UPDATE … WHERE id = :id AND version = :seen``): two "next"
pressed together advance two turns, never one twice, and a button from an older message
is told it is out of date instead of being applied.  Hit points stay on the sheets:
damage and healing go through the system and :meth:`CharacterService.update_sheet`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum
from typing import Any, Literal

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, CombatRecord, saved_id, utcnow
from bot.grammar import gender_of
from bot.services.campaigns.service import is_referee
from bot.services.play.effects import EffectService, EffectView
from bot.services.shared.audience import PUBLIC, Part, Reader, Secrecy, Shown, Sight, show, sight
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import ConcurrentChange, DomainError, NotAllowed, NotReferee
from bot.services.shared.retry import attempts, backoff
from bot.services.shared.timers import Due, TimerService, cancel, schedule
from bot.services.sheets.changes import Damage, Heal, Ticked, TickEffects
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.undo import Undoable
from rules.combat import Combat, Combatant, Kind, Side, TurnChange, effects
from rules.combat.health import CombatState
from rules.systems.base import GameSystem, RulesError, capabilities

__all__ = [
    "CombatService",
    "Health",
    "TickView",
    "CombatView",
    "CombatantLine",
    "HealthView",
    "RolledLine",
    "combat_for",
    "Reminder",
    "MAX_COUNT",
    "MAX_TURN_HOURS",
    "TURN_TIMER",
]

MAX_COUNT = 99
MAX_NAME = 80
MAX_TURN_HOURS = 24 * 14


class _Keep(Enum):
    """A sentinel the type checker can narrow (``is KEEP``), unlike a bare ``object()``."""

    KEEP = "keep"


KEEP = _Keep.KEEP  # "leave turn_hours as it is"
TURN_TIMER = "combat.turn"  # the durable timer kind of play-by-post turn reminders


@dataclass(frozen=True, slots=True)
class CombatantLine:
    key: str
    name: str
    kind: str
    side: str
    owner_id: int | None
    count: int
    initiative: int | None
    breakdown: str
    actions: int
    current: bool
    skips_this_round: bool
    waited_after: str | None
    # health (issue 11 §2): the system's word, the common condition, what a player may read
    # about a hidden NPC, and the numbers — ``secret`` when only the GM may see them
    state: str = ""
    condition: str = ""
    description: str = ""
    hit_points: tuple[int, int] | None = None
    secret: bool = False
    turn_test: str | None = None
    character_id: int | None = None
    effects: tuple[tuple[str, int | None], ...] = ()  # (name, rounds left; None: until removed)
    gender: str | None = None  # the sheet's grammatical gender: «Aldara · malherida»
    #: who may see its numbers (a hidden NPC's are the GM's until it is revealed); ``secret``
    #: above says whether *this* view's reader may not (set by :func:`combat_for`)
    secrecy: Secrecy = PUBLIC


@dataclass(frozen=True, slots=True)
class RolledLine:
    """An initiative this use case rolled: ``breakdown`` is ``None`` where the reader may
    not see it (a hidden NPC's, in the channel)."""

    name: str
    breakdown: str | None
    secrecy: Secrecy = PUBLIC


@dataclass(frozen=True, slots=True)
class Health:
    """A character combatant's sheet read for the tracker: its state and its effects."""

    state: CombatState | None
    is_npc: bool
    hidden: bool
    effects: tuple[effects.Effect, ...] = ()
    gender: str | None = None

    @property
    def secret(self) -> bool:
        """A hidden NPC's numbers are the GM's until the NPC is revealed."""
        return self.is_npc and self.hidden


@dataclass(frozen=True, slots=True)
class TickView:
    """The new current combatant's effects at the start of its turn (see :class:`Ticked`)."""

    name: str
    ticked: Ticked
    secret: bool
    log_id: int | None


@dataclass(frozen=True, slots=True)
class CombatView:
    """What the cog renders; ``turn`` is set when this use case changed whose turn it is."""

    id: int
    version: int
    channel_id: int
    system: str
    round: int
    active: bool
    lines: tuple[CombatantLine, ...]
    current: CombatantLine | None
    side_rolls: tuple[tuple[str, int], ...]
    by_side: bool
    can_wait: bool
    turn: TurnChange | None = None
    rolled: tuple[RolledLine, ...] = ()  # rolled by this use case
    ticked: TickView | None = None  # the effects of the combatant whose turn just began
    referee: bool = False  # the viewer is the GM (``show``): secret numbers may go to them
    ambush: bool = False  # ``start``: the system rolls an ambush now (``/init surprise``)
    joined: str | None = None  # ``join``: the character that came in (the reply names it)


@dataclass(frozen=True, slots=True)
class Reminder:
    """A turn that waited ``hours``: whom to mention (the player, or the GM for an NPC)."""

    channel_id: int
    combat_id: int
    name: str
    mention_id: int
    round: int
    hours: int
    locale: str | None = None  # the campaign's language, for a message nobody asked for
    nonce: str = ""  # the timer firing's Discord nonce: a repeated post returns the first


@dataclass(frozen=True, slots=True)
class HealthView:
    """``/init damage|heal``: what was done, the new state, what is left (``secret`` for a
    hidden NPC: the numbers go to the GM only), and the audit row (for an undo button)."""

    name: str
    amount: int
    state: str
    notes: tuple[str, ...]
    healed: bool
    #: the audit row and sheet version of this write, for the GM's undo button
    undo: Undoable | None = None
    label: str = ""
    description: str = ""
    hit_points: tuple[int, int] | None = None
    secret: bool = False
    log_id: int | None = None
    system: str = ""  # whose state ids ``state`` and the notes are
    gender: str | None = None  # the character's grammatical gender, for agreement


def _secrecy(health: Health | None, character_id: int | None) -> Secrecy:
    """A combatant's numbers: a hidden NPC's are sealed until it is revealed (issue 22 §1)."""
    if health is not None and health.secret and character_id is not None:
        return PUBLIC.hiding_npc(character_id)
    return PUBLIC


def _health_fields(health: Health | None) -> dict[str, Any]:
    if health is None:
        return {}
    fields: dict[str, Any] = {
        "effects": tuple((e.name, e.rounds) for e in health.effects),
        "secret": health.secret,
        "gender": health.gender,
    }
    state = health.state
    if state is not None:
        fields.update(
            state=state.label,
            condition=state.condition.value,
            description=state.description,
            hit_points=state.hit_points,
            turn_test=state.turn_test,
        )
    return fields


def _view(
    record: CombatRecord,
    combat: Combat,
    turn: TurnChange | None = None,
    rolled: Rolled = (),
    health: Mapping[str, Health] | None = None,
) -> CombatView:
    names = {c.key: c.name for c in combat.combatants}
    current = combat.current
    health = health or {}
    lines = tuple(
        CombatantLine(
            key=c.key,
            name=c.name,
            kind=c.kind.value,
            side=c.side.value,
            owner_id=c.owner_id,
            count=c.count,
            initiative=c.initiative,
            breakdown=c.breakdown,
            actions=c.actions,
            current=current is not None and c.key == current.key,
            skips_this_round=combat.skips(c, combat.round),
            waited_after=names.get(c.waited_after or ""),
            character_id=c.character_id,
            secrecy=_secrecy(health.get(c.key), c.character_id),
            **_health_fields(health.get(c.key)),
        )
        for c in combat.combatants
    )
    secrecy = {line.key: line.secrecy for line in lines}
    return CombatView(
        id=saved_id(record),
        version=record.version,
        channel_id=record.channel_id,
        system=str(record.state.get("system", "")),
        round=combat.round,
        active=record.status == "active" and not combat.ended,
        lines=lines,
        current=next((line for line in lines if line.current), None),
        side_rolls=combat.side_rolls,
        by_side=combat.policy.by_side,
        can_wait=combat.policy.can_wait,
        turn=turn,
        rolled=tuple(
            RolledLine(name, breakdown, secrecy.get(key, PUBLIC)) for key, name, breakdown in rolled
        ),
    )


#: Lines rolled by a use case: (combatant key, name, breakdown).
Rolled = tuple[tuple[str, str, str], ...]
#: What a change computes: the new combat, the turn change it made, what it rolled.
Step = tuple[Combat, TurnChange | None, Rolled]
# A change: (campaign, system, settings, combat) -> Step
Change = Callable[[Campaign, GameSystem, Mapping[str, Any], Combat], Step]
# A change that reads the combatants' health first (``next``, ``prev``): + health by key
HealthChange = Callable[
    [Campaign, GameSystem, Mapping[str, Any], Combat, Mapping[str, Health]], Step
]


def combat_for(view: CombatView, reader: Reader) -> Shown[CombatView]:
    """The fight as ``reader`` may see it (the audience rule, per combatant): a combatant
    whose numbers are sealed from him shows no initiative roll, hit points or heal amounts
    (``secret``), and the initiatives rolled now keep their dice from him."""

    def project(_seen: Sight) -> CombatView:
        lines = tuple(_line_for(line, reader) for line in view.lines)
        rolled = []
        for line in view.rolled:
            seen = sight(line.secrecy, reader)
            shows = seen is not None and seen.shows(Part.TOTAL)
            rolled.append(replace(line, breakdown=line.breakdown if shows else None))
        ticked = view.ticked
        if ticked is not None:
            current = next((line for line in lines if line.current), None)
            hidden = current.secret if current is not None else ticked.secret
            ticked = replace(ticked, secret=ticked.secret and hidden)
        return replace(
            view,
            lines=lines,
            current=next((line for line in lines if line.current), None),
            rolled=tuple(rolled),
            ticked=ticked,
            referee=reader.is_gm,
        )

    shown = show(PUBLIC, reader, project)
    assert shown is not None  # a fight's panel is for everyone
    return shown


def _line_for(line: CombatantLine, reader: Reader) -> CombatantLine:
    seen = sight(line.secrecy, reader)
    return replace(line, secret=seen is None or not seen.shows(Part.TOTAL))


def out_of_order(health: Mapping[str, Health]) -> frozenset[str]:
    """The keys the turn order passes over (dead, out, unconscious: ``skip_turn``)."""
    return frozenset(k for k, h in health.items() if h.state is not None and h.state.skip_turn)


class CombatService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
        timers: TimerService | None = None,
        effects: EffectService | None = None,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.rng = rng or random.Random()
        # the durable timers (turn reminders are kind TURN_TIMER, ref = the fight's id)
        self.timers = timers or TimerService(sessions)
        self.effects = effects or EffectService(characters)

    # -- loading and storing -----------------------------------------------------------

    async def _active(self, place: Place) -> CombatRecord | None:
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

    async def _require(self, place: Place) -> CombatRecord:
        record = await self._active(place)
        if record is None:
            raise DomainError("combat.error.none")
        return record

    @staticmethod
    def _combat(record: CombatRecord) -> Combat:
        return Combat.from_dict(record.state)

    async def _store(
        self,
        record: CombatRecord,
        combat: Combat,
        *,
        ending: bool = False,
        turn_hours: int | None | Literal[_Keep.KEEP] = KEEP,
    ) -> bool:
        """Compare-and-set: True when nobody wrote since ``record`` was read.

        Every change restarts the turn reminder's timer (``due_at`` and its durable
        :data:`TURN_TIMER` row) in the same transaction.  On
        success ``record`` (a detached copy) is updated to what was written, so the caller
        shows exactly its own write and not a later one read back after another commit.
        """
        hours = record.turn_hours if turn_hours is KEEP else turn_hours
        values: dict[str, Any] = {
            # ``{**record.state, …}`` keeps what lives next to the order (rolweb's ambush)
            "state": {**record.state, **combat.to_dict(), "system": record.state.get("system", "")},
            "version": CombatRecord.version + 1,
            "updated_at": utcnow(),
        }
        if ending:
            values.update(status="ended", ended_at=utcnow())
        values["turn_hours"] = hours
        values["due_at"] = (
            utcnow() + timedelta(hours=hours)
            if hours and combat.current is not None and not ending
            else None
        )
        async with self.sessions() as session, session.begin():
            result = await session.exec(
                update(CombatRecord)
                .where(
                    col(CombatRecord.id) == record.id,
                    col(CombatRecord.version) == record.version,
                    col(CombatRecord.status) == "active",
                )
                .values(**values)
            )
            if result.rowcount == 1 and values["due_at"] is not None:
                await schedule(
                    session, TURN_TIMER, str(record.id), record.guild_id, values["due_at"]
                )
            elif result.rowcount == 1:
                await cancel(session, TURN_TIMER, str(record.id))
        if result.rowcount != 1:
            return False
        self.timers.poke()
        for key, value in values.items():
            setattr(record, key, record.version + 1 if key == "version" else value)
        return True

    async def _states(
        self, system: GameSystem, settings: Mapping[str, Any], combat: Combat
    ) -> dict[str, Health]:
        """Every character combatant's health and effects, from one read of their sheets."""
        ids = {c.character_id: c.key for c in combat.combatants if c.character_id is not None}
        if not ids:
            return {}
        async with self.sessions() as session:
            rows = (
                await session.exec(select(Character).where(col(Character.id).in_(list(ids))))
            ).all()
        found: dict[str, Health] = {}
        health = capabilities(system).health
        for row in rows:
            if row.deleted_at is not None:
                continue
            sheet = dict(row.sheet)
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
            found[ids[saved_id(row)]] = Health(
                state, row.is_npc, row.hidden, active, gender_of(sheet)
            )
        return found

    async def _change(
        self,
        place: Place,
        change: Change | None = None,
        *,
        health_change: HealthChange | None = None,
        seen: tuple[int, int] | None = None,
        ending: bool = False,
        turn_hours: int | None | Literal[_Keep.KEEP] = KEEP,
    ) -> CombatView:
        """Load, apply, compare-and-set; on a clash recompute on the fresh state.

        ``seen`` is ``(combat id, version)`` of a button: any later write makes it stale.
        ``health_change`` (instead of ``change``) also gets every combatant's
        :class:`Health`, read on each attempt (so a heal made meanwhile puts the healed back in the order).
        """
        for attempt in attempts():
            await backoff(attempt)
            campaign, system, settings = await self.characters.context(place)
            record = await self._active(place)
            if seen is not None:
                if record is None or record.id != seen[0]:
                    raise DomainError("combat.error.gone")
                if record.version != seen[1]:
                    raise DomainError("combat.error.stale")
            if record is None:
                raise DomainError("combat.error.none")
            before = self._combat(record)
            if health_change is not None:
                health = await self._states(system, settings, before)
                combat, turn, rolled = health_change(campaign, system, settings, before, health)
            elif change is not None:
                combat, turn, rolled = change(campaign, system, settings, before)
            else:
                raise TypeError("a combat change is needed")
            if await self._store(record, combat, ending=ending, turn_hours=turn_hours):
                health = await self._states(system, settings, combat)
                return _view(record, combat, turn, rolled, health)
            if seen is not None:
                raise DomainError("combat.error.stale")
        raise ConcurrentChange()

    # -- use cases ---------------------------------------------------------------------

    async def start(self, place: Place, actor: Actor) -> CombatView:
        """The referee opens a fight here (one active fight per channel or forum post)."""
        campaign, system, settings = await self.characters.context(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        combat = Combat(system.combat_policy(settings))
        record = CombatRecord(
            guild_id=place.guild_id,
            campaign_id=saved_id(campaign),
            channel_id=place.channel_id,
            state={**combat.to_dict(), "system": system.id},
            created_by=actor.user_id,
        )
        try:
            async with self.sessions() as session, session.begin():
                session.add(record)
        except IntegrityError:
            raise DomainError("combat.error.already_active") from None
        async with self.sessions() as session:
            fresh = await session.get_one(CombatRecord, record.id)
        return replace(_view(fresh, combat), ambush=capabilities(system).ambush is not None)

    async def show(self, place: Place, actor: Actor) -> CombatView:
        campaign, system, settings = await self.characters.context(place)
        record = await self._require(place)
        combat = self._combat(record)
        health = await self._states(system, settings, combat)
        view = _view(record, combat, health=health)
        return replace(view, referee=is_referee(campaign, actor))

    async def join(self, place: Place, actor: Actor, character: str | None = None) -> CombatView:
        """A player brings his own character (his active one by default); the GM anyone's."""
        campaign, _system, _settings = await self.characters.context(place)
        view = await self.characters.show(place, actor, character)
        referee = is_referee(campaign, actor)
        if not referee and (view.is_npc or view.owner_user_id != actor.user_id):
            raise NotAllowed("combat.error.not_your_character", name=view.name)
        if view.approval != "approved":  # it does not play until the GM approves it
            key = (
                "approval.error.awaiting"
                if view.approval == "pending"
                else "approval.error.rejected"
            )
            raise NotAllowed(key, name=view.name)
        combatant = Combatant(
            key=f"c{view.id}",
            name=view.name,
            kind=Kind.CHARACTER,
            side=Side.ENEMIGOS if view.is_npc else Side.JUGADORES,
            character_id=view.id,
            owner_id=None if view.is_npc else view.owner_user_id,
        )
        changed = await self._change(place, lambda *_a: (_a[3].add(combatant), None, ()))
        return replace(changed, joined=view.name)

    async def add(
        self,
        place: Place,
        actor: Actor,
        name: str,
        initiative: int | None = None,
        count: int = 1,
        *,
        defence: int | None = None,
        armour: str | None = None,
        hit_points: int | None = None,
    ) -> CombatView:
        """GM: an NPC from ``/npc`` by name, or an ad-hoc group with a typed initiative (and
        optionally its AC/Defensa, armour and hit points, for ``/attack`` to judge it)."""
        campaign, _system, _settings = await self.characters.context(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        name = name.strip()[:MAX_NAME]
        if not name or not 1 <= count <= MAX_COUNT:
            raise DomainError("combat.error.bad_add", limit=MAX_COUNT)
        try:
            view = await self.characters.show(place, actor, name)
        except DomainError:
            view = None
        if view is not None and count == 1:
            if defence is not None or armour or hit_points is not None:
                # a character's numbers are on its sheet: refuse rather than ignore them
                raise DomainError("attack.error.numbers_on_sheet", name=view.name)
            combatant = Combatant(
                key=f"c{view.id}",
                name=view.name,
                kind=Kind.CHARACTER,
                side=Side.ENEMIGOS if view.is_npc else Side.JUGADORES,
                character_id=view.id,
                owner_id=None if view.is_npc else view.owner_user_id,
            )

            def add_character(
                _c: Campaign,
                _s: GameSystem,
                _set: Mapping[str, Any],
                combat: Combat,
            ) -> Step:
                combat = combat.add(combatant)
                if initiative is not None:
                    combat = combat.set_initiative(combatant.key, initiative)
                return combat, None, ()

            return await self._change(place, add_character)
        if initiative is None:
            raise DomainError("combat.error.adhoc_needs_initiative", name=name)

        def add_adhoc(
            _c: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
        ) -> Step:
            combat, _added = combat.add_adhoc(
                name,
                initiative,
                count=count,
                defence=defence,
                armour=armour.strip() or None if armour else None,
                hit_points=hit_points,
            )
            return combat, None, ()

        return await self._change(place, add_adhoc)

    async def roll(self, place: Place, actor: Actor) -> CombatView:
        """Roll initiative for everyone who has none (a player: only his own)."""
        campaign, _system, _settings = await self.characters.context(place)
        referee = is_referee(campaign, actor)
        record = await self._require(place)
        combat = self._combat(record)
        mine = [
            c
            for c in combat.unrolled()
            if c.kind is Kind.CHARACTER and (referee or c.owner_id == actor.user_id)
        ]
        if not mine:
            raise DomainError("combat.error.nothing_to_roll")
        sheets = {}
        for combatant in mine:
            sheets[combatant.key] = await self._sheet(place, combatant)

        def roll_all(
            _c: Campaign,
            system: GameSystem,
            settings: Mapping[str, Any],
            combat: Combat,
        ) -> Step:
            rolled = []
            for key, sheet in sheets.items():
                try:
                    target = combat.find(key)
                except RulesError:
                    continue  # removed meanwhile
                if target.rolled:
                    continue  # rolled meanwhile
                result = system.initiative(sheet, settings, self.rng)
                combat = combat.record_roll(
                    key,
                    result.total,
                    result.sort_key,
                    result.breakdown,
                    actions=result.actions,
                    skips_first_round=result.skips_first_round,
                    goes_last=result.goes_last,
                )
                rolled.append((key, target.name, result.breakdown))
            return combat.break_ties(self.rng), None, tuple(rolled)

        return await self._change(place, roll_all)

    async def _sheet(self, place: Place, combatant: Combatant) -> dict[str, Any]:
        """The sheet of a character combatant, read the way the referee sees it."""
        async with self.sessions() as session:
            row = await session.get(Character, combatant.character_id)
        if row is None or row.deleted_at is not None:
            raise DomainError("sheet.error.not_found", name=combatant.name)
        return dict(row.sheet)

    async def next(
        self, place: Place, actor: Actor, *, seen: tuple[int, int] | None = None
    ) -> CombatView:
        """Pass the turn: the GM any time, a player only when it is his character's turn."""

        def advance(
            campaign: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
            health: Mapping[str, Health],
        ) -> Step:
            if not is_referee(campaign, actor):
                current = combat.current
                if current is None or current.owner_id != actor.user_id:
                    raise NotAllowed("combat.error.not_your_turn")
            combat, turn = combat.next_turn(self.rng, out=out_of_order(health))
            return combat, turn, ()

        view = await self._change(place, health_change=advance, seen=seen)
        return await self._tick(place, actor, view)

    async def _tick(self, place: Place, actor: Actor, view: CombatView) -> CombatView:
        """The owner's turn began: its effects lose a round (expired ones are reported, Aura de
        curación heals).  A write of its own on the sheet, after the turn's: the turn change
        is already confirmed, so it ticks exactly once, and the sheet write is recomputed on
        its current version if it clashes (the rules act on the owner's behalf: whoever
        passed the turn need not own the character)."""
        current = view.current
        if view.turn is None or current is None or current.character_id is None:
            return view
        if not current.effects:
            return view
        try:
            applied = await self.characters.writer.apply(
                place, actor, TickEffects(self.rng), character_id=current.character_id,
                on_behalf=True,
            )  # fmt: skip
        except (DomainError, RulesError):
            return view  # the sheet went away or cannot be read: the turn still passes
        ticked = applied.value
        left = tuple((e.name, e.rounds) for e in ticked.remaining)
        changes: dict[str, Any] = {"effects": left}
        if ticked.health is not None:
            campaign, system, settings = await self.characters.context(place)
            health = capabilities(system).health
            if health is not None:
                state = health.combat_state(dict(applied.view.sheet), settings)
                changes.update(
                    state=state.label, description=state.description, hit_points=state.hit_points
                )
        line = replace(current, **changes)
        lines = tuple(line if x.key == current.key else x for x in view.lines)
        tick = TickView(current.name, ticked, current.secret, applied.log_id)
        return replace(view, lines=lines, current=line, ticked=tick)

    async def previous(self, place: Place, actor: Actor) -> CombatView:
        await self.require_referee(place, actor)
        return await self._change(
            place, health_change=lambda *a: (a[3].previous(out=out_of_order(a[4])), None, ())
        )

    async def death_test_target(
        self, place: Place, actor: Actor, character_id: int
    ) -> tuple[str, str]:
        """Who a death-test button rolls for: a combatant of this fight whose turn asks for
        that test, pressed by its player or the GM; ``(name, the check option to roll)``."""
        campaign, system, settings = await self.characters.context(place)
        record = await self._require(place)
        combat = self._combat(record)
        found = next((c for c in combat.combatants if c.character_id == character_id), None)
        if found is None:
            raise DomainError("combat.error.gone")
        if not is_referee(campaign, actor) and found.owner_id != actor.user_id:
            raise NotAllowed("combat.error.not_your_character", name=found.name)
        health = (await self._states(system, settings, combat)).get(found.key)
        if health is None or health.state is None or not health.state.turn_test:
            raise DomainError("combat.error.no_death_test", name=found.name)
        return found.name, health.state.turn_test

    async def move(self, place: Place, actor: Actor, combatant: str, initiative: int) -> CombatView:
        await self.require_referee(place, actor)

        def set_it(
            _c: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
        ) -> Step:
            return combat.set_initiative(combat.find_by_name(combatant).key, initiative), None, ()

        return await self._change(place, set_it)

    async def wait(
        self, place: Place, actor: Actor, after: str, combatant: str | None = None
    ) -> CombatView:
        """rolweb: wait and act after ``after``; a player waits with his own character."""

        def wait_it(
            campaign: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
        ) -> Step:
            referee = is_referee(campaign, actor)
            if combatant is not None:
                waiter = combat.find_by_name(combatant)
            elif combat.current is not None and (
                referee or combat.current.owner_id == actor.user_id
            ):
                waiter = combat.current
            else:
                own = [c for c in combat.combatants if c.owner_id == actor.user_id]
                if not own:
                    raise DomainError("combat.error.not_in_combat")
                waiter = own[0]
            if not referee and waiter.owner_id != actor.user_id:
                raise NotAllowed("combat.error.not_your_character", name=waiter.name)
            before = combat.current
            combat = combat.wait(waiter.key, combat.find_by_name(after).key)
            turn = None
            if before is not None and combat.current is not None and before != combat.current:
                turn = TurnChange(combat.round, False, combat.current, combat.current.actions)
            return combat, turn, ()

        return await self._change(place, wait_it)

    async def remove(self, place: Place, actor: Actor, combatant: str) -> CombatView:
        await self.require_referee(place, actor)

        def remove_it(
            _c: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
        ) -> Step:
            combat, turn = combat.remove(combat.find_by_name(combatant).key, self.rng)
            return combat, turn, ()

        return await self._change(place, remove_it)

    async def end(self, place: Place, actor: Actor) -> CombatView:
        """Archive the fight (it stays in the database with its last state)."""
        await self.require_referee(place, actor)
        return await self._change(place, lambda *a: (a[3].end(), None, ()), ending=True)

    async def require_referee(self, place: Place, actor: Actor) -> None:
        campaign = await self.characters.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()

    async def names(self, place: Place, current: str) -> list[str]:
        """Autocomplete: the combatants of this channel's fight."""
        record = await self._active(place)
        if record is None:
            return []
        needle = current.casefold()
        return [c.name for c in self._combat(record).combatants if needle in c.name.casefold()][:25]

    # -- play-by-post turn reminders ---------------------------------------------------

    async def set_deadline(self, place: Place, actor: Actor, hours: int) -> CombatView:
        """GM: remind the channel when one turn has waited ``hours`` (0 turns it off)."""
        await self.require_referee(place, actor)
        if not 0 <= hours <= MAX_TURN_HOURS:
            raise DomainError("combat.error.bad_hours", limit=MAX_TURN_HOURS)
        return await self._change(place, lambda *a: (a[3], None, ()), turn_hours=hours or None)

    async def next_due(self) -> datetime | None:
        """The earliest pending reminder of any active fight, or None."""
        async with self.sessions() as session:
            return (
                await session.exec(
                    select(func.min(CombatRecord.due_at)).where(CombatRecord.status == "active")
                )
            ).one()

    async def reminder(self, due: Due) -> Reminder | None:
        """What a claimed turn timer says now: whose turn, where; None if nothing to remind.

        Read when the timer fires (not when it was set), so a fight ended or a turn passed
        meanwhile reminds nobody: both move or cancel the timer in the same transaction.
        """
        async with self.sessions() as session:
            row = (
                await session.exec(
                    select(CombatRecord, Campaign)
                    .join(Campaign, col(Campaign.id) == CombatRecord.campaign_id)
                    .where(CombatRecord.id == int(due.ref), CombatRecord.status == "active")
                )
            ).first()
        if row is None:
            return None
        record, campaign = row
        combat = self._combat(record)
        if combat.current is None or not record.turn_hours:
            return None
        return Reminder(
            channel_id=record.channel_id,
            combat_id=saved_id(record),
            name=combat.current.name,
            mention_id=combat.current.owner_id or campaign.gm_user_id,
            round=combat.round,
            hours=record.turn_hours,
            locale=campaign.locale,
            nonce=due.nonce,
        )

    # -- health ------------------------------------------------------------------------

    async def damage(self, place: Place, actor: Actor, combatant: str, amount: int) -> HealthView:
        return await self._health(place, actor, combatant, amount, heal=False)

    async def heal(
        self, place: Place, actor: Actor, combatant: str, amount: int, *, force: bool = False
    ) -> HealthView:
        """``force``: the GM's explicit override that heals even the dead (a resurrection
        the story decided); anyone else asking for it is refused."""
        return await self._health(place, actor, combatant, amount, heal=True, force=force)

    async def _health(
        self, place: Place, actor: Actor, name: str, amount: int, *, heal: bool, force: bool = False
    ) -> HealthView:
        """Through the system's ``apply_damage``/``heal`` and the sheet's versioned write:
        the sheet is the one record of hit points, the fight only names who is hurt."""
        if amount < 1:
            raise DomainError("combat.error.bad_amount")
        record = await self._require(place)
        target = self._combat(record).find_by_name(name)
        if target.character_id is None:
            raise DomainError("combat.error.no_sheet", name=target.name)
        if force and not is_referee(await self.characters.campaigns.require(place), actor):
            raise NotReferee("dead.error.force_gm_only")
        change = Heal(amount, force=force) if heal else Damage(amount)
        applied = await self.characters.writer.apply(
            place, actor, change, character_id=target.character_id
        )
        view, result = applied.view, applied.value
        undo = Undoable(applied.log_id, view.version) if applied.log_id else None
        _campaign, system, settings = await self.characters.context(place)
        label, description, hit_points = result.state, "", None
        health = capabilities(system).health
        if health is not None:
            state = health.combat_state(dict(view.sheet), settings)
            label, description, hit_points = state.label, state.description, state.hit_points
        return HealthView(
            view.name,
            result.amount,
            result.state,
            tuple(result.notes),
            heal,
            label=label,
            description=description,
            hit_points=hit_points,
            secret=view.is_npc and view.hidden,
            log_id=applied.log_id,
            undo=undo,
            system=view.system,
            gender=gender_of(view.sheet),
        )

    # -- effects during the fight (``/init effect``) -------------------------------------

    async def effect(
        self,
        place: Place,
        actor: Actor,
        combatant: str,
        name: str,
        *,
        rounds: int | None = None,
        modifier: str | None = None,
        remove: bool = False,
    ) -> EffectView:
        """``/init effect add|remove``: the same write as ``/effect``, on a combatant by name."""
        record = await self._require(place)
        target = self._combat(record).find_by_name(combatant)
        if target.character_id is None:
            raise DomainError("combat.error.no_sheet", name=target.name)
        if remove:
            return await self.effects.remove(
                place, actor, None, name, character_id=target.character_id
            )
        return await self.effects.add(
            place, actor, None, name, rounds, modifier, character_id=target.character_id
        )
