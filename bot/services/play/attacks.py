"""``/attack``: one blow resolved by the campaign's system and written in one transaction.

Who attacks (the caller's active character; the GM may name any character, NPC or
combatant) and whom (a combatant of this channel's fight first, then a character the caller
can see) are looked up here; the system's :meth:`Attacks.attack` rolls and judges; the
damage lands on the target's *current* sheet version together with the audit-log row
(kind ``attack``), through :meth:`SheetWriter.apply_each` — so two players hitting the same
NPC at the same moment both land, one after the other, and no damage is lost.  A miss is
logged too.  A drain that heals the attacker (``to_attacker``) is written in the same
transaction as the target's wound, all or nothing.

Acting *with* a character needs its owner or the GM; being the target does not: the write to
the target's sheet is the rules acting on the attacker's behalf.  The numbers a player must
not see about a hidden NPC (:data:`SECRET_FIELDS` and its hit points) are marked ``secret``
in the view; the cog withholds them and sends them to the GM channel.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, CombatRecord, RollLog, saved_id, utcnow
from bot.grammar import gender_of
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import SHOW_NUMBERS, is_referee
from bot.services.play.checks import parse_circumstances
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audit import AuditEntry, roll_log
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import (
    ConcurrentChange,
    DomainError,
    NotAllowed,
    NotReferee,
    refused,
)
from bot.services.shared.labels import resolve, spoken
from bot.services.shared.retry import attempts, backoff
from bot.services.sheets.access import find_character, require_playable
from bot.services.sheets.changes import Touched
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.dead import heal_living, require_alive_target
from bot.services.sheets.schema import upgraded_sheet
from bot.services.sheets.writes import Computed, Each, SheetChange
from rules import systems
from rules.combat import Combat
from rules.combat.attack import (
    SECRET_FIELDS,
    AttackOutcome,
    AttackRequest,
    AttackResult,
    Fighter,
)
from rules.combat.health import Act, require
from rules.combat.participants import Combatant
from rules.systems.base import (
    Attacks,
    AttackSituations,
    FightMoment,
    GameSystem,
    HealthChange,
    RulesError,
    StepOption,
    capabilities,
)

__all__ = [
    "SHOW_NUMBERS",
    "AttackOrder",
    "AttackService",
    "AttackView",
    "COVERS",
    "GmNote",
    "RANGE_BANDS",
    "Wound",
]

#: Núcleo range bands (seed 002, «Ataque a Distancia») and cover (circumstance names).
RANGE_BANDS = ("bocajarro", "corta", "media", "larga")
COVERS = ("ligera", "media", "grande")
MAX_DAMAGE_TEXT = 40
#: Audit rows read per hand-out of the GM's notes (older ones follow on the next command).
MAX_NOTES_READ = 200
#: ``roll_log.outcome`` of a rolweb defence request waiting for its player, and once answered.
DEFENCE_PENDING = "defence_requested"
DEFENCE_ANSWERED = "defence_answered"


@dataclass(frozen=True, slots=True)
class AttackOrder:
    """What ``/attack`` asked for, as typed."""

    target: str
    weapon: str | None = None
    modifier: int = 0
    circumstances: str | None = None
    private: bool = False
    character: str | None = None
    bonus: int | None = None
    damage: str | None = None
    range_band: str | None = None
    cover: str | None = None
    defence_now: bool = False


@dataclass(frozen=True, slots=True)
class AttackView:
    """A resolved attack for the cog.

    ``secret``: the target is a hidden NPC and the campaign does not show numbers, so the
    public reply must leave out :data:`SECRET_FIELDS`, ``hit_points`` and the target's
    defence; ``description`` is the state in the system's own words, safe for players.
    ``log_id`` is the audit row (an undo button may be added to the reply by it).
    """

    log_id: int
    user_name: str
    attacker: str
    target: str
    result: AttackResult
    state: str | None
    description: str
    hit_points: tuple[int, int] | None
    notes: tuple[str, ...]
    secret: bool
    private: bool
    gm_channel_id: int | None
    target_sheetless: bool = False
    #: rolweb: a pending defence request (the button's version) and the defender's player.
    defence_version: int | None = None
    defender_id: int | None = None
    #: Which side's numbers are withheld (``secret`` is either): a hidden attacker's bonuses
    #: and the target number its stats give; a hidden target's AC/Defensa and hit points.
    attacker_hidden: bool = False
    target_hidden: bool = False
    #: whose ids ``state`` is, and the target's grammatical gender (states and notes agree)
    system: str = ""
    target_gender: str | None = None


@dataclass(slots=True)
class _Side:
    fighter: Fighter
    character: Character | None = None
    combatant: Combatant | None = None


@dataclass(frozen=True, slots=True)
class Wound:
    """The attack's change to the target, re-applied to the sheet's current version."""

    result: AttackResult
    audit: AuditEntry
    validate: bool = False

    def compute(
        self, sheet: dict[str, Any], context: CampaignContext
    ) -> Computed[HealthChange | None]:
        change = self.result.change
        if change is None or change.amount <= 0:
            return Computed(sheet, None, audit=self.audit)
        system = context.system
        if change.kind == "heal":
            done = heal_living(system, sheet, change.amount, context.settings)
        else:  # a target killed meanwhile (a concurrent attack) is refused on this version
            require_alive_target(system, sheet, context.settings)
            done = system.apply_damage(sheet, change.amount, context.settings)
        return Computed(done.sheet, done, audit=self.audit)


@dataclass(frozen=True, slots=True)
class _Drain:
    """What the attacker receives (Toque vampírico), in the same transaction."""

    amount: int
    validate: bool = False

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[HealthChange]:
        done = context.system.heal(sheet, self.amount, context.settings)
        return Computed(done.sheet, done)


def _attacks(system: GameSystem) -> Attacks:
    attacks = capabilities(system).attacks
    if attacks is None:
        raise DomainError("attack.error.no_attacks", system=system.name)
    return attacks


def _damage_text(text: str | None) -> str | None:
    if text is None:
        return None
    text = text.strip().replace(" ", "")
    if not text or len(text) > MAX_DAMAGE_TEXT:
        raise DomainError("attack.error.bad_damage", limit=MAX_DAMAGE_TEXT)
    return text


def _secrets(result: AttackResult) -> dict[str, Any]:
    return {name: getattr(result, name) for name in SECRET_FIELDS}


class AttackService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.rng = rng or random.SystemRandom()

    # -- autocomplete --------------------------------------------------------------------

    async def targets(self, place: Place, actor: Actor, current: str) -> list[str]:
        """The fight's combatants first, then the campaign's characters the actor can see."""
        record = await self._fight(place)
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

    # -- the attack ----------------------------------------------------------------------

    async def attack(self, place: Place, actor: Actor, order: AttackOrder) -> AttackView:
        """Roll ``order`` and write it (see the module docstring).

        A system whose players roll their own defence (:class:`PlayerDefence`, rolweb), an
        NPC attacking a character: the target's player rolls it.  With ``order.defence_now``
        the GM rolls it here; otherwise the request is logged as pending
        (``outcome="defence_requested"``) and :meth:`defend` resolves it later."""
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        attacks = _attacks(system)
        able = capabilities(system)
        referee = is_referee(campaign, actor)
        record = await self._fight(place)
        combat = Combat.from_dict(record.state) if record is not None else None
        attacker = await self._attacker(campaign, actor, order, combat, referee)
        target = await self._target(campaign, actor, order.target, combat, referee)
        if able.health is not None and attacker.fighter.sheet is not None:
            state = able.health.combat_state(attacker.fighter.sheet, settings)
            require(
                state, Act.ATTACK, attacker.fighter.name,
                system=system.id, gender=gender_of(attacker.fighter.sheet),
            )  # fmt: skip
        if target.fighter.sheet is not None:  # before any die: the dead are not attacked
            require_alive_target(system, target.fighter.sheet, settings, target.fighter.name)
        if order.weapon and attacker.fighter.sheet is not None:
            # the label typed without picking the suggestion: «espada» is «Espada larga»
            carried = attacks.weapons(attacker.fighter.sheet, settings)
            named = (spoken(w.value, w.label) for w in carried)
            order = replace(order, weapon=resolve(order.weapon, named) or order.weapon)
        request = self._request(order, attacker, target, able.player_defence is not None)
        where: dict[str, Any] = {}
        if able.attack_situations is not None:
            request, where = await self._situate(
                able.attack_situations, place, campaign, attacker, target, record, combat,
                referee, request,
            )  # fmt: skip
        result = attacks.attack(request, settings, self.rng)
        if record is not None and combat is not None:
            where |= {
                "fight": record.id,
                "round": combat.round,
                "melee": not result.extra.get("ranged", False),
            }
        secret = _secret(settings, attacker, target)
        defence = able.player_defence
        if result.outcome is AttackOutcome.DEFENCE_REQUESTED and result.defence_request:
            if not order.defence_now or defence is None:
                return await self._ask_defence(
                    place, actor, order, attacker, target, result, settings, where
                )
            result = defence.resolve_defence(result.defence_request, settings, self.rng)
        note = secret and not campaign.gm_channel_id and not referee
        audit = self._audit(order, attacker, target, result, secret, note)
        audit = replace(audit, detail={**audit.detail, **where})
        return await self._land(place, actor, context, attacker, target, result, audit, secret)

    async def defend(self, place: Place, actor: Actor, log_id: int, version: int) -> AttackView:
        """The target's player (or the GM) presses the defence button of a pending request
        (:class:`PlayerDefence`): the defence is rolled now on both current sheets, the damage
        and the resolution land in one transaction with the claim of the pending row, so a
        second press (or a press on a stale button) is refused and nothing is applied twice."""
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        attacks = _attacks(system)
        defence = capabilities(system).player_defence
        async with self.sessions() as session:
            row = await session.get(RollLog, log_id)
        pending = row.detail.get("pending") if row is not None else None
        if (
            row is None
            or row.campaign_id != campaign.id
            or row.outcome != DEFENCE_PENDING
            or not isinstance(pending, dict)
            or pending.get("v") != version
            or defence is None
        ):
            raise DomainError("attack.error.defence_stale")
        target_character = await self._by_id(campaign, int(pending["target_id"]))
        if not is_referee(campaign, actor) and (
            target_character.is_npc or target_character.owner_user_id != actor.user_id
        ):
            raise NotAllowed("attack.error.not_your_defence", name=target_character.name)
        target = _Side(
            Fighter(target_character.name, sheet=upgraded_sheet(target_character), player=True),
            character=target_character,
        )
        require_alive_target(
            system, upgraded_sheet(target_character), settings, target.fighter.name
        )
        if pending.get("attacker_id") is not None:
            attacker_character = await self._by_id(campaign, int(pending["attacker_id"]))
            attacker = _Side(
                Fighter(
                    attacker_character.name,
                    sheet=upgraded_sheet(attacker_character),
                    attack_bonus=pending.get("bonus"),
                    damage=pending.get("damage"),
                ),
                character=attacker_character,
            )
        else:
            attacker = _Side(
                Fighter(
                    str(pending.get("attacker")),
                    attack_bonus=pending.get("bonus"),
                    damage=pending.get("damage"),
                )
            )
        order = AttackOrder(
            target_character.name,
            weapon=pending.get("weapon"),
            modifier=int(pending.get("modifier") or 0),
            circumstances=",".join(pending.get("circumstances") or ()) or None,
            private=row.private,
        )
        request = self._request(order, attacker, target, True)
        asked = attacks.attack(request, settings, self.rng)
        if asked.defence_request is None:  # the sheets changed so that no defence is asked
            raise DomainError("attack.error.defence_stale")
        result = defence.resolve_defence(asked.defence_request, settings, self.rng)
        secret = _secret(settings, attacker, target)
        note = secret and not campaign.gm_channel_id and not is_referee(campaign, actor)
        audit = self._audit(order, attacker, target, result, secret, note)
        where = {k: row.detail[k] for k in _WHERE if k in row.detail}
        audit = replace(audit, detail={**audit.detail, **where})

        async def claim(session: AsyncSession) -> None:
            claimed = await session.exec(
                update(RollLog)
                .where(col(RollLog.id) == log_id, col(RollLog.outcome) == DEFENCE_PENDING)
                .values(outcome=DEFENCE_ANSWERED)
            )
            if claimed.rowcount != 1:
                raise DomainError("attack.error.defence_stale")

        return await self._land(
            place, actor, context, attacker, target, result, audit, secret, claim=claim
        )

    async def touch(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        cast: Callable[[Fighter], SheetChange[Touched]],
        *,
        rng: random.Random | None = None,
    ) -> tuple[AttackView, Touched | None]:
        """A Núcleo touch spell (seed 002: Toque eléctrico line 326, Toque vampírico line
        370, «requiere ataque C/C»): the melee attack with the ``toque`` circumstance is
        rolled first, as ``/attack`` rolls it (the target's Defensa, Espejo de sombras'
        miss chance); on a hit, ``cast(target)`` is computed on the caster's current sheet
        (mana, the spell's roll, a drain healing the caster) and the spell's damage lands on
        the target's current sheet — one :meth:`SheetWriter.apply_each`, one audit row
        (kind ``attack``, on the target's write, so the GM's undo takes the damage back).
        A missed touch casts nothing and spends nothing; the miss is logged.  ``rng``: the
        caller's dice (the spell service's, so one seeded source rolls the whole spell)."""
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        attacks = _attacks(system)
        health = capabilities(system).health
        referee = is_referee(campaign, actor)
        record = await self._fight(place)
        combat = Combat.from_dict(record.state) if record is not None else None
        order = replace(order, circumstances="toque", weapon=None, bonus=None, damage=None)
        attacker = await self._attacker(campaign, actor, order, combat, referee)
        target = await self._target(campaign, actor, order.target, combat, referee)
        if attacker.character is None or target.character is None:
            raise DomainError("touch.error.needs_sheets")
        if attacker.character.id == target.character.id:
            raise DomainError(
                "touch.error.self",
                name=attacker.fighter.name,
                genero=gender_of(attacker.fighter.sheet),
            )
        if health is not None and attacker.fighter.sheet is not None:
            able = health.combat_state(attacker.fighter.sheet, settings)
            require(
                able, Act.CAST, attacker.fighter.name,
                system=system.id, gender=gender_of(attacker.fighter.sheet),
            )  # fmt: skip
        if target.fighter.sheet is not None:
            require_alive_target(system, target.fighter.sheet, settings, target.fighter.name)
        request = self._request(
            order, attacker, target, capabilities(system).player_defence is not None
        )
        hit = attacks.attack(request, settings, rng or self.rng)
        secret = _secret(settings, attacker, target)
        note = secret and not campaign.gm_channel_id and not referee

        def caster_step(_values: tuple[Any, ...]) -> SheetChange[Touched] | None:
            return cast(target.fighter) if hit.hit else None

        def target_step(values: tuple[Any, ...]) -> Wound:
            result = values[0].attack(hit) if values[0] is not None else hit
            return Wound(result, self._audit(order, attacker, target, result, secret, note))

        steps = [
            Each(saved_id(attacker.character), after=caster_step),
            Each(saved_id(target.character), after=target_step, acting=False),
        ]
        applied = await self.characters.writer.apply_each(place, actor, steps)
        touched: Touched | None = applied[0].value  # None: the touch missed, nothing cast
        done: HealthChange | None = applied[1].value
        result = touched.attack(hit) if touched is not None else hit
        state, description, hit_points = (done.state if done else None), "", None
        notes = tuple(result.notes) + tuple(n for n in (done.notes if done else ()) if n)
        if health is not None:
            now = health.combat_state(dict(applied[1].view.sheet), settings)
            state, description, hit_points = now.label, now.description, now.hit_points
        hidden = _hidden(settings, attacker, target)
        view = AttackView(
            log_id=applied[1].log_id or 0,
            user_name=actor.name,
            attacker=attacker.fighter.name,
            target=target.fighter.name,
            result=result,
            state=state,
            description=description,
            hit_points=hit_points,
            notes=tuple(dict.fromkeys(notes)),
            secret=secret,
            private=order.private,
            gm_channel_id=campaign.gm_channel_id,
            attacker_hidden=hidden[0],
            target_hidden=hidden[1],
            system=system.id,  # states shown by name, agreeing with the target (as /attack)
            target_gender=gender_of(target.character.sheet) if target.character else None,
        )
        return view, touched

    async def _ask_defence(
        self,
        place: Place,
        actor: Actor,
        order: AttackOrder,
        attacker: _Side,
        target: _Side,
        asked: AttackResult,
        settings: Mapping[str, Any],
        where: Mapping[str, Any],
    ) -> AttackView:
        """Log the pending request (what :meth:`defend` needs to roll it later)."""
        assert target.character is not None
        secret = _secret(settings, attacker, target)
        audit = self._audit(order, attacker, target, asked, secret)
        detail = {**audit.detail, **where}
        detail["pending"] = {
            "v": 1,
            "attacker_id": attacker.character.id if attacker.character else None,
            "attacker": attacker.fighter.name,
            "target_id": target.character.id,
            "weapon": order.weapon,
            "modifier": order.modifier,
            "circumstances": sorted(parse_circumstances(order.circumstances)),
            "bonus": order.bonus,
            "damage": attacker.fighter.damage,
        }
        entry = roll_log(
            place,
            actor,
            target.character.campaign_id,
            audit.character,
            replace(audit, detail=detail, outcome=DEFENCE_PENDING, difficulty=None),
        )
        async with self.sessions() as session, session.begin():
            session.add(entry)
            await session.flush()
            log_id = entry.id
        campaign = await self.characters.campaigns.find(place)
        return AttackView(
            log_id=log_id or 0,
            user_name=actor.name,
            attacker=attacker.fighter.name,
            target=target.fighter.name,
            result=asked,
            state=None,
            description="",
            hit_points=None,
            notes=tuple(asked.notes),
            secret=secret,
            private=order.private,
            gm_channel_id=campaign.gm_channel_id if campaign else None,
            defence_version=1,
            defender_id=target.character.owner_user_id,
            attacker_hidden=_hidden(settings, attacker, target)[0],
            target_hidden=_hidden(settings, attacker, target)[1],
            target_gender=gender_of(target.character.sheet),
        )

    async def _land(
        self,
        place: Place,
        actor: Actor,
        context: CampaignContext,
        attacker: _Side,
        target: _Side,
        result: AttackResult,
        audit: AuditEntry,
        secret: bool,
        *,
        claim: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> AttackView:
        """The write: the target's wound (and the attacker's drain) with the audit row."""
        system, settings = context.system, context.settings
        state, description, hit_points, notes = None, "", None, tuple(result.notes)
        log_id: int | None
        if target.character is not None:
            steps = [Each(saved_id(target.character), Wound(result, audit), acting=False)]
            drain = result.change.to_attacker if result.change else 0
            if drain > 0 and attacker.character is not None:
                steps.append(Each(saved_id(attacker.character), _Drain(drain), acting=False))
            applied = await self.characters.writer.apply_each(
                place, actor, steps, same_transaction=claim
            )
            log_id = applied[0].log_id
            written = applied[0].view
            done = applied[0].value
            if done is not None:
                state = done.state
                notes += tuple(n for n in done.notes if n not in notes)
            health = capabilities(system).health
            if health is not None:
                now = health.combat_state(dict(written.sheet), settings)
                state, description, hit_points = now.label, now.description, now.hit_points
        else:
            log_id, hit_points = await self._group(
                place, actor, context.campaign, target, result, audit
            )
        return AttackView(
            log_id=log_id or 0,
            user_name=actor.name,
            attacker=attacker.fighter.name,
            target=target.fighter.name,
            result=result,
            state=state,
            description=description,
            hit_points=hit_points,
            notes=notes,
            secret=secret,
            private=audit.private,
            gm_channel_id=context.campaign.gm_channel_id,
            target_sheetless=target.character is None,
            attacker_hidden=_hidden(settings, attacker, target)[0],
            target_hidden=_hidden(settings, attacker, target)[1],
            system=system.id,
            target_gender=gender_of(target.character.sheet) if target.character else None,
        )

    # -- the fight's situations (AttackSituations) ---------------------------------------

    async def _situate(
        self,
        situations: AttackSituations,
        place: Place,
        campaign: Campaign,
        attacker: _Side,
        target: _Side,
        record: CombatRecord | None,
        combat: Combat | None,
        referee: bool,
        request: AttackRequest,
    ) -> tuple[AttackRequest, dict[str, Any]]:
        """The request placed in this channel's fight by the system's rules (rolweb: free
        attacks, flanking, the ambush), read from the fight's latest attack rows; returns it
        with the fields its audit row keeps."""
        fight = None
        if record is not None and combat is not None:
            rows = await self._fight_attacks(place, campaign, record)
            fight = FightMoment(
                round=combat.round,
                present=tuple(c.name for c in combat.combatants),
                attacks=tuple(row.detail for row in rows),
                state=record.state,
                attacker_key=_key(combat, attacker),
                target_key=_key(combat, target),
            )
        try:
            situated = situations.situate(request, fight, referee)
        except RulesError as error:
            raise refused(error) from None
        return situated.request, dict(situated.audit)

    async def _fight_attacks(
        self, place: Place, campaign: Campaign, record: CombatRecord
    ) -> list[RollLog]:
        """This fight's latest attack rows (bounded: the rules look one round back)."""
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(RollLog)
                    .where(
                        RollLog.campaign_id == campaign.id,
                        RollLog.channel_id == place.channel_id,
                        RollLog.kind == "attack",
                        col(RollLog.created_at) >= record.created_at,
                    )
                    .order_by(col(RollLog.id).desc())
                    .limit(MAX_NOTES_READ)
                )
            ).all()
        return [row for row in rows if row.detail.get("fight") == record.id]

    # -- the GM's pending notes ---------------------------------------------------------

    async def take_notes(self, place: Place, actor: Actor) -> tuple[GmNote, ...]:
        """The secret numbers of attacks made since the GM last saw them, for a campaign
        without a GM channel (``detail.gm_note``), handed out once: the marker
        ``campaign.gm_notes_seen`` moves by compare-and-set, so two fight commands of the
        GM at the same moment do not both show them."""
        campaign = await self.characters.campaigns.find(place)
        if campaign is None or not is_referee(campaign, actor):
            return ()
        async with self.sessions() as session, session.begin():
            rows = (
                await session.exec(
                    select(RollLog)
                    .where(
                        RollLog.campaign_id == campaign.id,
                        RollLog.kind == "attack",
                        col(RollLog.id) > campaign.gm_notes_seen,
                    )
                    .order_by(col(RollLog.id))
                    .limit(MAX_NOTES_READ)
                )
            ).all()
            if not rows:
                return ()
            last = max(row.id or 0 for row in rows)
            claimed = await session.exec(
                update(Campaign)
                .where(
                    col(Campaign.id) == campaign.id,
                    col(Campaign.gm_notes_seen) == campaign.gm_notes_seen,
                )
                .values(gm_notes_seen=last)
            )
            if claimed.rowcount != 1:
                return ()
        return tuple(_note(row) for row in rows if row.detail.get("gm_note"))

    # -- steps ---------------------------------------------------------------------------

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

    async def _by_id(self, campaign: Campaign, character_id: int) -> Character:
        async with self.sessions() as session:
            character = await session.get(Character, character_id)
        if (
            character is None
            or character.campaign_id != campaign.id
            or character.deleted_at is not None
        ):
            raise DomainError("attack.error.gone")
        return character

    @staticmethod
    def _combatant(combat: Combat | None, name: str | None) -> Combatant | None:
        if combat is None or name is None:
            return None
        wanted = name.strip().casefold()
        return next((c for c in combat.combatants if c.name.casefold() == wanted), None)

    async def _attacker(
        self,
        campaign: Campaign,
        actor: Actor,
        order: AttackOrder,
        combat: Combat | None,
        referee: bool,
    ) -> _Side:
        combatant = self._combatant(combat, order.character)
        if combatant is not None and combatant.character_id is None:
            if not referee:
                raise NotReferee()
            fighter = Fighter(
                combatant.name,
                attack_bonus=order.bonus,
                damage=_damage_text(order.damage),
            )
            return _Side(fighter, combatant=combatant)
        if combatant is not None and combatant.character_id is not None:
            character = await self._by_id(campaign, combatant.character_id)
        else:
            async with self.sessions() as session:
                character = await find_character(session, campaign, actor, order.character)
        if not referee and (character.is_npc or character.owner_user_id != actor.user_id):
            raise NotAllowed("attack.error.not_yours", name=character.name)
        require_playable(character)  # not while it awaits the GM's approval
        sheet = upgraded_sheet(character)
        fighter = Fighter(
            character.name,
            sheet=sheet,
            attack_bonus=order.bonus,
            damage=_damage_text(order.damage),
            player=not character.is_npc,
        )
        return _Side(fighter, character=character, combatant=combatant)

    async def _target(
        self,
        campaign: Campaign,
        actor: Actor,
        name: str,
        combat: Combat | None,
        referee: bool,
    ) -> _Side:
        combatant = self._combatant(combat, name)
        if combatant is not None and combatant.character_id is None:
            fighter = Fighter(
                combatant.name,
                defence=combatant.defence,
                armour=combatant.armour,
                hit_points=combatant.hit_points,
            )
            return _Side(fighter, combatant=combatant)
        # in the fight: a hidden NPC can be attacked by players
        if combatant is not None and combatant.character_id is not None:
            character = await self._by_id(campaign, combatant.character_id)
        else:
            async with self.sessions() as session:
                character = await find_character(session, campaign, actor, name.strip())
        sheet = upgraded_sheet(character)
        fighter = Fighter(character.name, sheet=sheet, player=not character.is_npc)
        return _Side(fighter, character=character, combatant=combatant)

    @staticmethod
    def _request(
        order: AttackOrder, attacker: _Side, target: _Side, players_defend: bool
    ) -> AttackRequest:
        """The system's request; ``players_defend``: its players roll their own defence
        (:class:`PlayerDefence`), so an NPC attacking a character asks for that roll."""
        circumstances = set(parse_circumstances(order.circumstances))
        if order.cover:
            if order.cover not in COVERS:
                raise DomainError("attack.error.bad_cover", covers=", ".join(COVERS))
            circumstances.add(f"cobertura_{order.cover}")
        if order.range_band is not None and order.range_band not in RANGE_BANDS:
            raise DomainError("attack.error.bad_range", ranges=", ".join(RANGE_BANDS))
        npc_attacker = attacker.character is None or attacker.character.is_npc
        pc_target = target.character is not None and not target.character.is_npc
        return AttackRequest(
            attacker=attacker.fighter,
            target=target.fighter,
            weapon=order.weapon.strip() if order.weapon else None,
            modifier=order.modifier,
            circumstances=frozenset(circumstances),
            ranged=order.range_band is not None,
            range_band=order.range_band,
            defender_rolls=players_defend and npc_attacker and pc_target,
        )

    @staticmethod
    def _audit(
        order: AttackOrder,
        attacker: _Side,
        target: _Side,
        result: AttackResult,
        secret: bool,
        gm_note: bool = False,
    ) -> AuditEntry:
        """The whole breakdown; a hidden NPC's numbers stay in ``detail.secret`` (the roll
        history a player reads shows the roll and the outcome, never the target number)."""
        rolls = ([result.attack] if result.attack else []) + list(result.damage_rolls)
        full = "; ".join(f"{r.label}: {r.breakdown}" for r in rolls)
        breakdown = full
        if secret and result.attack is not None:  # rolweb's line names the target number
            shown = [f"{result.attack.label}: {result.total}"]
            breakdown = "; ".join(
                shown + [f"{r.label}: {r.breakdown}" for r in result.damage_rolls]
            )
        return AuditEntry(
            kind="attack",
            expression=result.attack.expression if result.attack else "",
            breakdown=breakdown,
            total=result.total or 0,
            reason=f"{result.weapon} → {target.fighter.name}",
            detail={
                "attacker": attacker.fighter.name,
                "target": target.fighter.name,
                "weapon": result.weapon,
                "damage": result.damage,
                "critical": result.critical,
                "change": (
                    {"kind": result.change.kind, "amount": result.change.amount}
                    if result.change
                    else None
                ),
                "modifiers": [[name, value] for name, value in result.modifiers],
                "notes": list(result.notes),
                "secret": {**_secrets(result), "breakdown": full} if secret else _secrets(result),
                "gm_note": gm_note,
            },
            difficulty=None if secret else result.target_number,
            outcome=result.outcome.value,
            fumble=result.fumble,
            private=order.private,
            character=attacker.fighter.name,
            secrecy=_attack_secrecy(secret, attacker, target),
        )

    async def _group(
        self,
        place: Place,
        actor: Actor,
        campaign: Campaign,
        target: _Side,
        result: AttackResult,
        audit: AuditEntry,
    ) -> tuple[int | None, tuple[int, int] | None]:
        """A sheetless target (a group added by name).  With hit points from ``/init add``
        the wound is a compare-and-set on the fight's state, in the same transaction as the
        log row (recomputed on the current hit points on a clash, so no damage is lost);
        without them only the log row is written."""
        change, key = result.change, target.combatant.key if target.combatant else None
        for attempt in attempts():
            await backoff(attempt)
            record = await self._fight(place)
            combat = Combat.from_dict(record.state) if record is not None else None
            current = None
            if combat is not None and key is not None:
                current = next((c for c in combat.combatants if c.key == key), None)
            left: tuple[int, int] | None = None
            try:
                async with self.sessions() as session, session.begin():
                    if (
                        record is not None
                        and combat is not None
                        and current is not None
                        and current.hit_points is not None
                        and change is not None
                        and change.amount > 0
                    ):
                        delta = change.amount if change.kind == "heal" else -change.amount
                        maximum = current.max_hit_points or current.hit_points
                        hp = current.hit_points + delta
                        if change.kind == "heal":
                            hp = min(hp, maximum)
                        fresh = combat.set_hit_points(current.key, hp)
                        written = await session.exec(
                            update(CombatRecord)
                            .where(
                                col(CombatRecord.id) == record.id,
                                col(CombatRecord.version) == record.version,
                                col(CombatRecord.status) == "active",
                            )
                            .values(
                                state={
                                    **record.state,
                                    **fresh.to_dict(),
                                    "system": record.state.get("system", ""),
                                },
                                version=CombatRecord.version + 1,
                                updated_at=utcnow(),
                            )
                        )
                        if written.rowcount != 1:
                            raise _Clash()
                        left = (hp, maximum)
                    detail = dict(audit.detail)
                    if left is not None:
                        secret = dict(detail.get("secret") or {})
                        secret["hit_points_left"] = left[0]
                        detail["secret"] = secret
                    entry = roll_log(
                        place, actor, campaign.id, audit.character, replace(audit, detail=detail)
                    )
                    session.add(entry)
                    await session.flush()
                    log_id = entry.id
            except _Clash:
                continue
            return log_id, left
        raise ConcurrentChange()


#: Audit fields of an attack that say where in the fight it happened (seed 001's rules).
_WHERE = ("fight", "round", "melee", "free_attack")


def _key(combat: Combat, side: _Side) -> str | None:
    """The side's combatant key in ``combat`` (None: it is not in the fight)."""
    if side.combatant is not None:
        return side.combatant.key
    if side.character is None:
        return None
    return next((c.key for c in combat.combatants if c.character_id == side.character.id), None)


class _Clash(Exception):
    """The fight changed since it was read: recompute on the fresh state."""


@dataclass(frozen=True, slots=True)
class GmNote:
    """One secret attack's numbers for the GM (from its audit row)."""

    log_id: int
    channel_id: int
    attacker: str
    target: str
    outcome: str
    total: int
    target_number: int | None
    defence: int | None
    hit_points_left: int | None
    damage: int


def _note(row: RollLog) -> GmNote:
    secret = row.detail.get("secret") or {}
    return GmNote(
        log_id=row.id or 0,
        channel_id=row.channel_id,
        attacker=str(row.detail.get("attacker", row.character_name or "")),
        target=str(row.detail.get("target", "")),
        outcome=row.outcome or "",
        total=row.total,
        target_number=secret.get("target_number"),
        defence=secret.get("defence"),
        hit_points_left=secret.get("hit_points_left"),
        damage=int(row.detail.get("damage") or 0),
    )


def _attack_secrecy(secret: bool, attacker: _Side, target: _Side) -> Secrecy:
    """Who may see an attack's numbers (issue 22 §1): a secret attack seals the GM's numbers
    it keeps (``detail.secret``, the target number) — until the hidden NPC on either side
    is revealed, or for good when they are a group's numbers the GM typed."""
    if not secret:
        return PUBLIC
    sealed = (Part.DETAIL, Part.DIFFICULTY)
    secrecy = PUBLIC
    for side in (attacker, target):
        character = side.character
        if character is not None and character.is_npc and character.hidden:
            secrecy = secrecy.hiding_npc(saved_id(character), sealed)
    return secrecy if secrecy.npc_id is not None else secrecy.sealing(*sealed)


def _hidden(settings: Mapping[str, Any], attacker: _Side, target: _Side) -> tuple[bool, bool]:
    """(attacker's numbers withheld, target's numbers withheld) — see :func:`_secret`."""
    if settings.get(SHOW_NUMBERS, False):
        return False, False

    def npc(side: _Side) -> bool:
        return bool(side.character is not None and side.character.is_npc and side.character.hidden)

    group = target.character is None and (
        target.fighter.defence is not None or target.fighter.hit_points is not None
    )
    return npc(attacker), npc(target) or group


def _secret(settings: Mapping[str, Any], attacker: _Side, target: _Side) -> bool:
    """A hidden NPC on either side keeps its numbers from the players (its AC/Defensa or
    hit points as a target; as an attacker, the defence target its Diestro gives away), and
    so does a sheetless group whose numbers the GM typed."""
    hidden = any(
        side.character is not None and side.character.is_npc and side.character.hidden
        for side in (attacker, target)
    )
    gms_numbers = target.character is None and (
        target.fighter.defence is not None or target.fighter.hit_points is not None
    )  # a group's numbers typed by the GM at /init add
    return (hidden or gms_numbers) and not bool(settings.get(SHOW_NUMBERS, False))
