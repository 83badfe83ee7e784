"""``/init`` use cases: one fight per channel, one transaction and one version check each.

The order, the round and whose turn it is live in :class:`rules.combat.Combat` (pure); each
use case here decides *who* may change them and *how* (a :data:`.combat_views.Change`), and
:class:`.combat_store.FightStore` applies it by compare-and-set.  Health during the fight
(``/init damage|heal``, the effects that tick as a turn begins) is :mod:`.combat_health`;
turn reminders :mod:`.combat_reminders`; what the cog renders :mod:`.combat_views`.
In a closed scene (issue 22 §5) nothing is rolled and no turn passes: joining, adding, rolling
initiative, the next turn and a death test's button are refused, buttons included.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, CampaignBinding, CombatRecord, saved_id
from bot.services.campaigns.service import FIGHT_MODE, is_referee
from bot.services.play.combat_health import end_effects, hurt, tick
from bot.services.play.combat_reminders import reminder
from bot.services.play.combat_store import TURN_TIMER, FightStore
from bot.services.play.combat_views import (
    Change,
    CombatView,
    Health,
    HealthView,
    Reminder,
    Step,
    combat_view,
    out_of_order,
    owing_tests,
)
from bot.services.play.effects import EffectService, EffectView
from bot.services.play.turn_ledger import actions_left
from bot.services.shared.context import Actor, Confirm, Place
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.shared.timers import Due, TimerService
from bot.services.sheets.characters import CharacterService, CharacterView
from rules.combat import Combat, Combatant, Kind, Side, TurnChange
from rules.combat.declarations import MODE_KEY, Mode
from rules.systems.base import GameSystem, RulesError, capabilities

__all__ = ["MAX_COUNT", "MAX_TURN_HOURS", "TURN_TIMER", "CombatService"]

MAX_COUNT = 99
MAX_NAME = 80
MAX_TURN_HOURS = 24 * 14


class CombatService:
    """The initiative tracker's use cases (see the module docstring)."""

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
        self.store = FightStore(sessions, characters, self.timers)

    # -- use cases ---------------------------------------------------------------------

    async def start(self, place: Place, actor: Actor, mode: str | None = None) -> CombatView:
        """The referee opens a fight here (one active fight per channel or forum post),
        played by turns or by rounds of declarations (``mode``; by default the campaign's
        setting ``modo_combate``, whose ``automatico`` is declarations for a campaign bound
        to a forum: issue 25 §1)."""
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        if not is_referee(campaign, actor):
            raise NotReferee()
        chosen = Mode(mode) if mode else await default_mode(self.sessions, campaign, settings)
        combat = Combat(system.combat_policy(settings))
        record = CombatRecord(
            guild_id=place.guild_id,
            campaign_id=saved_id(campaign),
            channel_id=place.channel_id,
            state={**combat.to_dict(), "system": system.id, MODE_KEY: chosen.value},
            created_by=actor.user_id,
        )
        try:
            async with self.sessions() as session, session.begin():
                session.add(record)
        except IntegrityError:
            raise DomainError("combat.error.already_active") from None
        async with self.sessions() as session:
            fresh = await session.get_one(CombatRecord, record.id)
        return replace(combat_view(fresh, combat), ambush=capabilities(system).ambush is not None)

    async def step_round(self, place: Place, actor: Actor, round_: int) -> CombatView | None:
        """The next turn of ``round_`` as its round of declarations resolves (issue 25 §1):
        the same compare-and-set and effects ticking as ``next``; None when nobody is left
        to act in that round (the fight stays on its last turn)."""
        ended: list[str] = []

        def step(
            _c: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
            health: Mapping[str, Health],
        ) -> Step:
            ended[:] = [combat.current.key] if combat.current is not None else []
            out = out_of_order(health) | combat.spent()
            found = combat.turn_of_round(round_, self.rng, out=out, tests=owing_tests(health))
            if found is None:
                raise _RoundOver()
            return found[0], found[1], ()

        try:
            view = await self.store.change(place, health_change=step)
        except _RoundOver:
            return None
        return await tick(
            self.characters, place, actor, view, self.rng, ended[0] if ended else None
        )

    async def show(self, place: Place, actor: Actor) -> CombatView:
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        record = await self.store.require(place)
        combat = Combat.from_dict(record.state)
        health = await self.store.states(system, settings, combat)
        left = actions_left(system, settings, record.state, combat)
        view = combat_view(record, combat, health=health, actions_left=left)
        return replace(view, referee=is_referee(campaign, actor))

    async def join(self, place: Place, actor: Actor, character: str | None = None) -> CombatView:
        """A player brings his own character (his active one by default); the GM anyone's."""
        await self.characters.campaigns.require_open_scene(place)  # nothing rolled there
        campaign = (await self.characters.contexts.load(place)).campaign
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
        changed = await self.store.change(place, _adding(_combatant_of(view), None))
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
        await self.characters.campaigns.require_open_scene(place)  # nothing rolled there
        campaign = (await self.characters.contexts.load(place)).campaign
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
            return await self.store.change(place, _adding(_combatant_of(view), initiative))
        if initiative is None:
            raise DomainError("combat.error.adhoc_needs_initiative", name=name)
        group = _AdHoc(name, initiative, count, defence, armour, hit_points)
        return await self.store.change(place, group.add)

    async def roll(self, place: Place, actor: Actor) -> CombatView:
        """Roll initiative for everyone who has none (a player: only his own)."""
        await self.characters.campaigns.require_open_scene(place)  # nothing rolled there
        campaign = (await self.characters.contexts.load(place)).campaign
        referee = is_referee(campaign, actor)
        record = await self.store.require(place)
        combat = Combat.from_dict(record.state)
        mine = [
            c
            for c in combat.unrolled()
            if c.kind is Kind.CHARACTER and (referee or c.owner_id == actor.user_id)
        ]
        if not mine:
            raise DomainError("combat.error.nothing_to_roll")
        sheets = {}
        for combatant in mine:
            sheets[combatant.key] = await self.store.sheet(place, combatant)

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

        return await self.store.change(place, roll_all)

    async def next(
        self,
        place: Place,
        actor: Actor,
        *,
        seen: tuple[int, int] | None = None,
        skip_test: bool = False,
        read: CombatRecord | None = None,
    ) -> CombatView:
        """Pass the turn: the GM any time, a player only when it is his character's turn.
        A turn that owes a test (rolweb's death test) does not pass until it is rolled;
        ``skip_test``: the GM passes it without the test.  ``read``: the fight as the caller
        has just read it (the first attempt starts from it; a clash reads it again)."""
        await self.characters.campaigns.require_open_scene(place)  # its turn message goes there

        ended: list[str] = []  # whose turn this change ended (its effects count a round)

        def advance(
            campaign: Campaign,
            _s: GameSystem,
            _set: Mapping[str, Any],
            combat: Combat,
            health: Mapping[str, Health],
        ) -> Step:
            ended[:] = [combat.current.key] if combat.current is not None else []
            if not is_referee(campaign, actor):
                current = combat.current
                if current is None or current.owner_id != actor.user_id:
                    raise NotAllowed("combat.error.not_your_turn")
                if skip_test:
                    raise NotReferee()
            combat, turn = combat.next_turn(
                self.rng, out=out_of_order(health), tests=owing_tests(health), skip_test=skip_test
            )
            return combat, turn, ()

        view = await self.store.change(place, health_change=advance, seen=seen, read=read)
        return await tick(
            self.characters, place, actor, view, self.rng, ended[0] if ended else None
        )

    async def previous(self, place: Place, actor: Actor) -> CombatView:
        await self.require_referee(place, actor)
        return await self.store.change(
            place, health_change=lambda *a: (a[3].previous(out=out_of_order(a[4])), None, ())
        )

    async def death_test_target(
        self, place: Place, actor: Actor, character_id: int
    ) -> tuple[str, str]:
        """Who a death-test button rolls for: a combatant of this fight whose turn asks for
        that test, pressed by its player or the GM; ``(name, the check option to roll)``."""
        await self.characters.campaigns.require_open_scene(place)  # nothing rolled there
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        record = await self.store.require(place)
        combat = Combat.from_dict(record.state)
        found = next((c for c in combat.combatants if c.character_id == character_id), None)
        if found is None:
            raise DomainError("combat.error.gone")
        if not is_referee(campaign, actor) and found.owner_id != actor.user_id:
            raise NotAllowed("combat.error.not_your_character", name=found.name)
        health = (await self.store.states(system, settings, combat)).get(found.key)
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

        return await self.store.change(place, set_it)

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

        return await self.store.change(place, wait_it)

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

        return await self.store.change(place, remove_it)

    async def end(
        self,
        place: Place,
        actor: Actor,
        confirm: Confirm | None = None,
        *,
        keep_effects: bool = False,
    ) -> CombatView | None:
        """Archive the fight (it stays in the database with its last state); ``confirm``
        asks the referee first (None: declined).  Effects measured in rounds end with it
        (issue 23 §2), unless the GM keeps them (``keep_effects``)."""
        await self.require_referee(place, actor)
        if confirm is not None and not await confirm():
            return None
        view = await self.store.change(place, lambda *a: (a[3].end(), None, ()), ending=True)
        return await end_effects(self.characters, place, actor, view, keep_effects)

    async def require_referee(self, place: Place, actor: Actor) -> None:
        campaign = await self.characters.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()

    async def names(self, place: Place, current: str) -> list[str]:
        """Autocomplete: the combatants of this channel's fight."""
        record = await self.store.active(place)
        if record is None:
            return []
        needle = current.casefold()
        return [
            c.name for c in Combat.from_dict(record.state).combatants if needle in c.name.casefold()
        ][:25]

    # -- play-by-post turn reminders ---------------------------------------------------

    async def set_deadline(self, place: Place, actor: Actor, hours: int) -> CombatView:
        """GM: remind the channel when one turn has waited ``hours`` (0 turns it off)."""
        await self.require_referee(place, actor)
        if not 0 <= hours <= MAX_TURN_HOURS:
            raise DomainError("combat.error.bad_hours", limit=MAX_TURN_HOURS)
        return await self.store.change(place, lambda *a: (a[3], None, ()), turn_hours=hours or None)

    async def reminder(self, due: Due) -> Reminder | None:
        """What a claimed turn timer says now (:func:`.combat_reminders.reminder`)."""
        return await reminder(self.sessions, due)

    # -- health ------------------------------------------------------------------------

    async def damage(self, place: Place, actor: Actor, combatant: str, amount: int) -> HealthView:
        """Through the system's ``apply_damage`` and the sheet's versioned write (the sheet is
        the one record of hit points, the fight only names who is hurt)."""
        return await hurt(self.store, place, actor, combatant, amount, heal=False)

    async def heal(
        self, place: Place, actor: Actor, combatant: str, amount: int, *, force: bool = False
    ) -> HealthView:
        """``force``: the GM's explicit override that heals even the dead (a resurrection
        the story decided); anyone else asking for it is refused."""
        healed = await hurt(self.store, place, actor, combatant, amount, heal=True, force=force)
        return replace(healed, fight=await self.show(place, actor))  # the panel, refreshed

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
        record = await self.store.require(place)
        target = Combat.from_dict(record.state).find_by_name(combatant)
        if target.character_id is None:
            raise DomainError("combat.error.no_sheet", name=target.name)
        if remove:
            return await self.effects.remove(
                place, actor, None, name, character_id=target.character_id
            )
        return await self.effects.add(
            place, actor, None, name, rounds, modifier, character_id=target.character_id
        )


async def default_mode(
    sessions: async_sessionmaker[AsyncSession], campaign: Campaign, settings: Mapping[str, Any]
) -> Mode:
    """The campaign's ``modo_combate``; ``automatico``: declarations where the campaign
    is bound to a forum (a play-by-post table), turns elsewhere (live play)."""
    chosen = str(settings.get(FIGHT_MODE, "automatico"))
    if chosen == "turnos":
        return Mode.TURNS
    if chosen == "declaraciones":
        return Mode.DECLARATIONS
    async with sessions() as session:
        forum = (
            await session.exec(
                select(CampaignBinding.id).where(
                    CampaignBinding.campaign_id == campaign.id,
                    CampaignBinding.kind == "forum",
                    CampaignBinding.active == True,  # noqa: E712 - SQL, not Python
                )
            )
        ).first()
    return Mode.DECLARATIONS if forum is not None else Mode.TURNS


class _RoundOver(Exception):
    """Nobody is left to act in the round being resolved (nothing is written)."""


def _combatant_of(view: CharacterView) -> Combatant:
    """A character as a combatant: an NPC fights with the enemies, a character with the
    players (its owner may act on its turns)."""
    return Combatant(
        key=f"c{view.id}",
        name=view.name,
        kind=Kind.CHARACTER,
        side=Side.ENEMIGOS if view.is_npc else Side.JUGADORES,
        character_id=view.id,
        owner_id=None if view.is_npc else view.owner_user_id,
    )


def _adding(combatant: Combatant, initiative: int | None) -> Change:
    """The change that brings ``combatant`` in (with the initiative the GM typed, if any)."""

    def add(_c: Campaign, _s: GameSystem, _set: Mapping[str, Any], combat: Combat) -> Step:
        combat = combat.add(combatant)
        if initiative is not None:
            combat = combat.set_initiative(combatant.key, initiative)
        return combat, None, ()

    return add


@dataclass(frozen=True, slots=True)
class _AdHoc:
    """A group without a sheet the GM adds by name, with its initiative and, for
    ``/attack`` to judge it, its AC/Defensa, armour and hit points."""

    name: str
    initiative: int
    count: int
    defence: int | None
    armour: str | None
    hit_points: int | None

    def add(self, _c: Campaign, _s: GameSystem, _set: Mapping[str, Any], combat: Combat) -> Step:
        combat, _added = combat.add_adhoc(
            self.name,
            self.initiative,
            count=self.count,
            defence=self.defence,
            armour=self.armour.strip() or None if self.armour else None,
            hit_points=self.hit_points,
        )
        return combat, None, ()
