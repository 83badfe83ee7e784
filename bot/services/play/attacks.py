"""``/attack``: one blow resolved by the campaign's system and written in one transaction.

Each part of an attack is its own module: who attacks whom (:mod:`.attack_sides`, shared by
every use case), what was asked (:mod:`.attack_order`), where it lands
(:mod:`.attack_landing`), what it leaves (:mod:`.attack_record`: the audit row and the
view), a defence its player rolls (:mod:`.attack_defence`), a touch spell's attack
(:mod:`.attack_touch`) and the GM's notes of secret attacks (:mod:`.attack_notes`).  This
module holds ``/attack`` itself and its suggestions; :class:`AttackService` is the one entry
point the cogs and the spell service call.

The system's :class:`~rules.systems.base.Attacks` rolls and judges; a system whose attack
circumstances depend on the fight (:class:`~rules.systems.base.AttackSituations`: seed
001's free attacks, flanking, the ambush) places the request in the fight first, from its
latest attack rows.  In a closed scene (issue 22 §5) nothing is rolled: an attack, and a
defence asked before the scene closed, are refused saying how the GM reopens it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, CombatRecord, RollLog
from bot.services.campaigns.context import CampaignContext
from bot.services.play import attack_defence, attack_notes, attack_touch
from bot.services.play.attack_defence import ask_defence
from bot.services.play.attack_landing import land
from bot.services.play.attack_notes import MAX_NOTES_READ, GmNote
from bot.services.play.attack_order import AttackOrder, attack_request, attacks_of
from bot.services.play.attack_record import AttackView, Landed, attack_audit, attack_view
from bot.services.play.attack_sides import SideFinder, Sides
from bot.services.play.attack_touch import Cast
from bot.services.play.declarations import declare_attack, declaring
from bot.services.play.rolls import RollService
from bot.services.play.turn_actions import TurnActions
from bot.services.shared.context import Actor, Place, Reply
from bot.services.shared.errors import DomainError, refused
from bot.services.shared.labels import resolve, spoken
from bot.services.sheets.changes import Touched
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.use_case import CharacterUseCase
from rules import systems
from rules.combat import Combat
from rules.combat.attack import AttackOutcome, AttackRequest, AttackResult
from rules.combat.health import Act
from rules.systems.base import (
    ActRequest,
    Attacks,
    AttackSituations,
    FightMoment,
    RulesError,
    StepOption,
    capabilities,
)

if TYPE_CHECKING:
    from bot.services.play.round_views import RoundSummary

__all__ = ["AttackOrder", "AttackService", "AttackView", "RoundCloser"]

#: What resolves a round of declarations once its last declaration is in (the round
#: service, :mod:`.rounds`, set by the application: it builds on this service).
RoundCloser = Callable[[Place, int], Awaitable["RoundSummary | None"]]


class AttackService(CharacterUseCase):
    """``/attack``, the defence button, a touch spell's attack and the GM's notes."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
        rolls: RollService | None = None,
    ) -> None:
        super().__init__(sessions, characters, rng)
        self.sides = SideFinder(sessions)
        self.turns = TurnActions(sessions)
        #: links an attack's audit row to its reply (the roll log's message links)
        self.rolls = rolls
        #: resolves a round of declarations its last declaration completed (issue 25 §1)
        self.close_round: RoundCloser | None = None

    # -- suggestions ---------------------------------------------------------------------

    async def targets(self, place: Place, actor: Actor, current: str) -> list[str]:
        """The fight's combatants first, then the campaign's characters the actor can see."""
        record = await self.sides.fight(place)
        needle = current.casefold()
        names: list[str] = []
        if record is not None:
            names = [
                c.name
                for c in Combat.from_dict(record.state).combatants
                if needle in c.name.casefold()
            ]
        try:
            more = await self.characters.names(place, actor, current)
        except DomainError:
            more = []
        seen = {n.casefold() for n in names}
        names += [n for n in more if n.casefold() not in seen]
        return names[:25]

    async def circumstances(self, place: Place) -> tuple[str, ...]:
        """What ``/attack``'s circumstances autocomplete offers: the fight's situations of a
        system that has them (:class:`AttackSituations`: rolweb reads seed 001's combat rules
        there)."""
        campaign = await self.characters.campaigns.find(place)
        if campaign is None:
            return ()
        situations = capabilities(systems.get(campaign.system)).attack_situations
        return situations.attack_circumstances() if situations is not None else ()

    async def weapons(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[StepOption, ...]:
        try:
            _c, stored, system, settings = await self.characters.sheet_of(place, actor, character)
        except DomainError:
            return ()
        attacks = capabilities(system).attacks
        if attacks is None:
            return ()
        return tuple(attacks.weapons(stored.sheet, settings))

    # -- use cases -----------------------------------------------------------------------

    async def attack(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        reply: Reply[AttackView] | None = None,
    ) -> AttackView:
        """Roll ``order``, write it and show it with ``reply`` (the audit row links to the
        message it sent); see the module docstring.

        A system whose players roll their own defence (:class:`PlayerDefence`, rolweb), an
        NPC attacking a character: the target's player rolls it.  With ``order.defence_now``
        the GM rolls it here; otherwise the request is logged as pending and :meth:`defend`
        resolves it later."""
        await self.characters.campaigns.require_open_scene(place)  # a closed scene: no rolls
        context = await self.characters.contexts.load(place)
        view = await self._attack(place, actor, order, context)
        if view.declared is not None and view.declared.complete and self.close_round:
            view = replace(view, summary=await self.close_round(place, view.declared.round))
        if self.rolls is not None:
            await self.rolls.reply_linked(place, view.log_id, view, reply)
        elif reply is not None:
            await reply(view)  # built without the roll log's links (a test's bare service)
        return view

    async def resolve_declared(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        dice: random.Random,
        defence: random.Random | None = None,
    ) -> AttackView:
        """A declared attack at its round's resolution (issue 25 §1, :mod:`.rounds`): the
        same use case as a live ``/attack``, with the dice the declaration fixed (and the
        defence its player rolled, if any: otherwise it is rolled now)."""
        context = await self.characters.contexts.load(place)
        return await self._attack(place, actor, order, context, (dice, defence or dice))

    async def declared_defence(
        self, place: Place, actor: Actor, order: AttackOrder, dice: random.Random,
        defence: random.Random,
    ) -> AttackView:  # fmt: skip
        """The defence a player rolled against a declared attack, as things stand now (its
        sealed preview: nothing is written; the resolution rolls the same dice)."""
        context = await self.characters.contexts.load(place)
        settings, able = context.settings, capabilities(context.system)
        sides = await self.sides.resolve(
            context.campaign, actor, place, order.target, order.character,
            bonus=order.bonus, damage=order.damage,
        )  # fmt: skip
        request = attack_request(order, sides, able.player_defence is not None)
        result = attacks_of(context.system).attack(request, settings, dice)
        if able.player_defence is not None and result.defence_request is not None:
            result = able.player_defence.resolve_defence(result.defence_request, settings, defence)
        return attack_view(actor, context, sides, result, Landed(None), private=True)

    async def _attack(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        context: CampaignContext,
        dice: tuple[random.Random, random.Random] | None = None,
    ) -> AttackView:
        """The attack itself: sides, the fight's situations, the roll, the write; during a
        round of declarations (no ``dice`` yet: the attack's and the defence's), its sealed
        declaration instead."""
        settings, able = context.settings, capabilities(context.system)
        attacks = attacks_of(context.system)
        sides = await self.sides.resolve(
            context.campaign, actor, place, order.target, order.character,
            bonus=order.bonus, damage=order.damage,
        )  # fmt: skip
        sides.require_fit(context, Act.ATTACK)
        order = _named_weapon(order, attacks, sides, settings)
        request = attack_request(order, sides, able.player_defence is not None)
        if dice is None and declaring(sides.record) is not None:
            return await declare_attack(
                self.sessions, place, actor, context, order, sides, request, self.rng
            )
        key = sides.key(sides.attacker)
        act = ActRequest("attack", request.circumstances)
        spent = None
        if key is not None:  # the attacker's action in this fight (issue 23 §1)
            spent = await self.turns.spend(place, context, act, referee=sides.referee, key=key)
        try:
            view = await self._resolve(
                place, actor, order, context, sides, request, dice or (self.rng, self.rng)
            )
        except Exception:
            await self.turns.refund(place, spent)
            raise
        return replace(view, turn_warnings=spent.warnings) if spent is not None else view

    async def _resolve(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        context: CampaignContext,
        sides: Sides,
        request: AttackRequest,
        dice: tuple[random.Random, random.Random],
    ) -> AttackView:
        """The attack once its action is counted: the fight's situations, the roll, the
        write (or the defence asked of the target's player); ``dice``: the attack's and the
        defence's."""
        settings, able, attacks = (
            context.settings,
            capabilities(context.system),
            attacks_of(context.system),
        )
        request, where = await self._situate(able.attack_situations, context, sides, request)
        result = attacks.attack(request, settings, dice[0])
        where |= _in_fight(sides, result)
        defence = able.player_defence
        if result.outcome is AttackOutcome.DEFENCE_REQUESTED and result.defence_request:
            if not order.defence_now or defence is None:
                return await ask_defence(
                    self.sides, place, actor, context, order, sides, result, where
                )
            result = defence.resolve_defence(result.defence_request, settings, dice[1])
        secret = sides.secret(settings)
        note = secret and not context.campaign.gm_channel_id and not sides.referee
        audit = attack_audit(order, sides, result, secret, note)
        audit = replace(audit, detail={**audit.detail, **where})
        landed = await land(
            self.characters, self.sides, place, actor, context, sides, result, audit
        )
        return attack_view(actor, context, sides, result, landed, private=audit.private)

    async def defend(self, place: Place, actor: Actor, log_id: int, version: int) -> AttackView:
        """The defender's player (or the GM) presses the defence button of a pending request
        (:func:`.attack_defence.defend`)."""
        await self.characters.campaigns.require_open_scene(place)  # closed since it was asked
        return await attack_defence.defend(
            self.characters, self.sides, place, actor, log_id, version, self.rng
        )

    async def touch(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        cast: Cast,
        *,
        rng: random.Random | None = None,
    ) -> tuple[AttackView, Touched | None]:
        """A Núcleo touch spell's melee attack, then the spell (:func:`.attack_touch.touch`);
        ``rng``: the caller's dice (one seeded source rolls the whole spell)."""
        return await attack_touch.touch(
            self.characters, self.sides, place, actor, order, cast, rng or self.rng
        )

    async def take_notes(self, place: Place, actor: Actor) -> tuple[GmNote, ...]:
        """The GM's notes of secret attacks, once (:func:`.attack_notes.take_notes`)."""
        return await attack_notes.take_notes(self.characters, place, actor)

    # -- the fight's situations (AttackSituations) ---------------------------------------

    async def _situate(
        self,
        situations: AttackSituations | None,
        context: CampaignContext,
        sides: Sides,
        request: AttackRequest,
    ) -> tuple[AttackRequest, dict[str, Any]]:
        """The request placed in this channel's fight by the system's rules (rolweb: free
        attacks, flanking, the ambush), read from the fight's latest attack rows; returns it
        with the fields its audit row keeps."""
        if situations is None:
            return request, {}
        fight = None
        if sides.record is not None and sides.combat is not None:
            rows = await self._fight_attacks(context.campaign, sides.record)
            fight = FightMoment(
                round=sides.combat.round,
                present=tuple(c.name for c in sides.combat.combatants),
                attacks=tuple(row.detail for row in rows),
                state=sides.record.state,
                attacker_key=sides.key(sides.attacker),
                target_key=sides.key(sides.target),
            )
        try:
            situated = situations.situate(request, fight, sides.referee)
        except RulesError as error:
            raise refused(error) from None
        return situated.request, dict(situated.audit)

    async def _fight_attacks(self, campaign: Campaign, record: CombatRecord) -> list[RollLog]:
        """This fight's latest attack rows (bounded: the rules look one round back)."""
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(RollLog)
                    .where(
                        RollLog.campaign_id == campaign.id,
                        RollLog.channel_id == record.channel_id,
                        RollLog.kind == "attack",
                        col(RollLog.created_at) >= record.created_at,
                    )
                    .order_by(col(RollLog.id).desc())
                    .limit(MAX_NOTES_READ)
                )
            ).all()
        return [row for row in rows if row.detail.get("fight") == record.id]


def _named_weapon(order: AttackOrder, attacks: Attacks, sides: Sides, settings: Any) -> AttackOrder:
    """The weapon's label typed without picking the suggestion: «espada» is «Espada larga»."""
    sheet = sides.attacker.fighter.sheet
    if not order.weapon or sheet is None:
        return order
    named = (spoken(w.value, w.label) for w in attacks.weapons(sheet, settings))
    return replace(order, weapon=resolve(order.weapon, named) or order.weapon)


def _in_fight(sides: Sides, result: AttackResult) -> dict[str, Any]:
    """Where in the fight the attack happened (the audit fields the fight's rules read)."""
    if sides.record is None or sides.combat is None:
        return {}
    return {
        "fight": sides.record.id,
        "round": sides.combat.round,
        "melee": not result.extra.get("ranged", False),
    }
