"""Rounds of declarations (issue 25 §1): open a round, resolve it, open the next.

A fight started ``/init start mode:declarations`` is played by rounds of declarations: the
GM's ``/init next`` opens round 1 (missing initiatives are rolled first) with a header in
the scene — its number, who must declare, the deadline, a durable timer of kind
:data:`ROUND_TIMER` that replaces the per-turn deadline.  Players and the GM declare with
the usual commands (:mod:`.declarations`: dice fixed now, the outcome sealed).  The round
resolves when everyone has declared (the last declaration resolves it), when the GM says
so (``/init next`` again) or at the deadline: the fight's turns of that round are taken in
initiative order (:meth:`.combat.CombatService.step_round`: the same compare-and-set and
effects ticking as a live fight, S&W's side dice rolled now, after the declarations), each
combatant's declarations applied through the live ``/attack`` use case with the dice they
fixed (:meth:`.attacks.AttackService.resolve_declared`).  Who declared nothing holds; an
attack whose target fell earlier in the order is reported, not applied.  One summary (public
numbers only) and the next round's header come back to the cog.

Each step is a compare-and-set on the fight: the round is claimed for its resolution first
(``resolving``), so the last declaration, the GM and the deadline never resolve one round
twice; a claim older than :data:`STALE_CLAIM` (a process that died mid-resolution) may be
taken again.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, CombatRecord, saved_id, utcnow
from bot.db.types import as_utc
from bot.services.campaigns.service import DEFAULT_ACTION, ROUND_HOURS
from bot.services.play import declared_defence, redirects, round_pause
from bot.services.play.abilities import AbilityService
from bot.services.play.attack_record import AttackView
from bot.services.play.attacks import AttackService
from bot.services.play.checks import CheckOrder, CheckService
from bot.services.play.combat import CombatService
from bot.services.play.combat_store import write_fight_state
from bot.services.play.combat_views import (
    PANEL_VERSION,
    CombatantLine,
    CombatView,
    out_of_order,
    owing_tests,
    panel_version,
)
from bot.services.play.declarations import SEED_BITS, order_of, seeded
from bot.services.play.pain import PainAsk, PainService, PainView
from bot.services.play.round_views import ActionLine, Owed, RoundHeader, RoundSummary
from bot.services.play.spells import CastOrder, SpellService
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.timers import Due, TimerService, cancel, schedule
from rules.combat import Combat
from rules.combat.declarations import (
    PREVIOUS_KEY,
    REDIRECT_KEY,
    ROUND_KEY,
    Declaration,
    DeclarationRound,
    Mode,
    mode_of,
    previous_of,
    round_of,
)
from rules.systems.base import RulesError

__all__ = ["ROUND_TIMER", "STALE_CLAIM", "RoundService"]

ROUND_TIMER = "combat.round"  # the durable timer of a round's deadline (ref: the fight's id)
STALE_CLAIM = timedelta(minutes=10)
#: a timer may fire a little early (clocks of several processes): what still counts as due
DEADLINE_SLACK = timedelta(minutes=1)


class RoundService:
    """Opens, resolves and closes the rounds of a fight by declarations."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        combat: CombatService,
        attacks: AttackService,
        timers: TimerService,
        checks: CheckService,
        spells: SpellService,
        abilities: AbilityService,
    ) -> None:
        self.sessions = sessions
        self.combat = combat
        self.attacks = attacks
        self.checks = checks
        self.spells = spells
        self.abilities = abilities
        abilities.close_round = self.close
        #: getting up (rolweb), declared and rolled at resolution (set by the application)
        self.pain: PainService | None = None
        self.timers = timers
        attacks.close_round = self.close  # the last declaration resolves its round

    # -- use cases -----------------------------------------------------------------------

    async def next(
        self,
        place: Place,
        actor: Actor,
        *,
        seen: tuple[int, int] | None = None,
        skip_test: bool = False,
    ) -> CombatView:
        """``/init next`` and its button: by turns, pass the turn; by declarations (the GM
        only), open the first round, or resolve the open one now (who has not declared
        holds) and open the next."""
        record = await self.combat.store.active(place)
        if record is None or mode_of(record.state) is Mode.TURNS:  # (its refusals too)
            return await self.combat.next(place, actor, seen=seen, skip_test=skip_test, read=record)
        await self.combat.require_referee(place, actor)
        if seen is not None and (saved_id(record), panel_version(record)) != seen:
            # an older panel's button: never open or resolve a round twice by it
            raise DomainError("combat.error.stale")
        open_round = round_of(record.state)
        if open_round is None:
            header = await self.open(place)
            view = await self.combat.show(place, actor)
            return replace(view, header=header)
        if open_round.waiting is not None:  # paused for a choice: the GM goes on (default)
            gm = _gm(await self.combat.characters.campaigns.require(place))
            summary = await round_pause.give_up(self, place, open_round, gm, at_deadline=False)
        else:
            summary = await self.resolve(place, open_round.round)
        if summary is None:
            raise DomainError("declare.error.resolving", round=open_round.round)
        return replace(await self.combat.show(place, actor), summary=summary)

    async def defend(self, place: Place, actor: Actor, fight_id: int, ref: int) -> AttackView:
        """rolweb: the defending player (or the GM) rolls the defence against a declared
        NPC attack, with the button posted when it was declared: the dice fixed now, the
        outcome sealed until the round resolves (:func:`.declared_defence.defend`)."""
        return await declared_defence.defend(self, place, actor, fight_id, ref)

    async def redirect_targets(
        self, place: Place, actor: Actor, fight_id: int, ref: int
    ) -> tuple[str, tuple[str, ...]]:
        """GM: whom the fallen target's action ``ref`` may be redirected to."""
        return await redirects.redirect_targets(self, place, actor, fight_id, ref)

    async def redirect(
        self, place: Place, actor: Actor, fight_id: int, ref: int, target: str
    ) -> AttackView:
        """GM: apply the action ``ref`` whose target fell to ``target`` (:mod:`.redirects`)."""
        return await redirects.redirect(self, place, actor, fight_id, ref, target)

    async def after_choice(
        self, place: Place, character_id: int, ref: int, made: PainView
    ) -> RoundSummary | None:
        """A player's pain threshold choice: the round paused for it goes on."""
        return await round_pause.after_choice(self, place, character_id, ref, made)

    async def close(self, place: Place, round_: int) -> RoundSummary | None:
        """The round's last declaration is in: resolve it (None if someone else is)."""
        return await self.resolve(place, round_)

    async def on_deadline(self, due: Due) -> RoundSummary | None:
        """A round's deadline came (its durable timer): resolve it, if it is still open."""
        async with self.sessions() as session:
            record = await session.get(CombatRecord, int(due.ref))
        if record is None or record.status != "active":
            return None
        open_round = round_of(record.state)
        if open_round is None or not open_round.chain or not _due(open_round):
            return None  # resolved meanwhile: the next round has a deadline of its own
        place = Place(record.guild_id, record.channel_id, open_round.chain)
        if open_round.waiting is not None:  # a choice nobody made in time: its default
            async with self.sessions() as session:
                campaign = await session.get(Campaign, record.campaign_id)
            if campaign is None:
                return None
            summary = await round_pause.give_up(
                self, place, open_round, _gm(campaign), at_deadline=True
            )
        else:
            summary = await self.resolve(place, open_round.round, at_deadline=True)
        return replace(summary, nonce=due.nonce) if summary is not None else None

    # -- opening ---------------------------------------------------------------------------

    async def open(self, place: Place) -> RoundHeader:
        """Open the round after the fight's last one: missing initiatives rolled (the GM's
        roll), who must declare (everyone who acts in it), the deadline and its timer."""
        context = await self.combat.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        gm = _gm(campaign)
        record = await self.combat.store.require(place)
        await self._roll_missing(place, gm, record)

        async def attempt() -> RoundHeader:
            record = await self.combat.store.require(place)
            combat = Combat.from_dict(record.state)
            already = round_of(record.state)
            if already is not None:
                return _header(record, campaign, combat, already)
            health = await self.combat.store.states(system, settings, combat)
            number = combat.round + 1
            # who is out, and who owes its turn's test (rolweb's dying): nothing to declare
            out = out_of_order(health) | combat.spent() | owing_tests(health)
            owed = tuple(
                c.key for c in combat.combatants if c.key not in out and not combat.skips(c, number)
            )
            hours = record.turn_hours or int(settings.get(ROUND_HOURS, 48))
            deadline = utcnow() + timedelta(hours=hours)
            new = DeclarationRound(number, _iso(deadline), owed=owed, chain=place.chain)
            await self.write_round(record, new, deadline)
            return _header(record, campaign, combat, new)

        return await retrying(attempt)

    async def _roll_missing(self, place: Place, gm: Actor, record: CombatRecord) -> None:
        """Initiative for whoever has none, rolled as the GM would (``/init roll``)."""
        if not Combat.from_dict(record.state).unrolled():
            return
        try:
            await self.combat.roll(place, gm)
        except DomainError:
            return  # nothing the bot can roll (a group whose initiative the GM types)

    async def write_round(
        self, record: CombatRecord, new: DeclarationRound | None, deadline: datetime | None
    ) -> None:
        """The fight's round (None: no round open) and its timer, by compare-and-set
        (:class:`StaleWrite` when the fight changed since ``record`` was read)."""
        state = {k: v for k, v in record.state.items() if k != ROUND_KEY}
        state[PANEL_VERSION] = record.version + 1  # a round opened or closed: panels go stale
        if new is not None:
            state[ROUND_KEY] = new.to_dict()
        async with self.sessions() as session, session.begin():
            await write_fight_state(session, record, state)
            if deadline is not None:
                await schedule(session, ROUND_TIMER, str(record.id), record.guild_id, deadline)
            else:
                await cancel(session, ROUND_TIMER, str(record.id))
        self.timers.poke()

    # -- resolving ---------------------------------------------------------------------------

    async def resolve(
        self,
        place: Place,
        number: int,
        *,
        at_deadline: bool = False,
        resume: bool = False,
        first: tuple[ActionLine, ...] = (),
    ) -> RoundSummary | None:
        """Resolve round ``number`` (module docstring); None when it is not open any more
        or another resolution holds it.  ``resume``: go on from its pause for a player's
        choice (:mod:`.round_pause`), ``first`` the lines that open the rest (the choice)."""
        claimed = await self._claim(place, number, resume=resume)
        if claimed is None:
            return None
        record, round_ = claimed
        before = round_of(record.state)
        fallen = [int(r) for r in (before.waiting or {}).get("fallen", ())] if before else []
        context = await self.combat.characters.contexts.load(place)
        campaign, settings = context.campaign, context.settings
        gm = _gm(campaign)
        lines: list[ActionLine] = list(first)
        ask = None
        if resume:  # the rest of the acting combatant's declarations first
            current = (await self.combat.show(place, gm)).current
            if current is not None:
                round_, ask = await self._act(place, round_, current, gm, lines)
        else:
            await self._roll_missing(place, gm, record)  # someone joined during the round
            if settings.get(DEFAULT_ACTION) == "repetir":  # standing orders: last round's
                round_ = self._standing(round_, previous_of(record.state))
        while ask is None and (view := await self.combat.step_round(place, gm, number)) is not None:
            if view.current is not None:
                round_, ask = await self._act(place, round_, view.current, gm, lines)
        fallen += [ln.ref for ln in lines if ln.ref]
        summary = RoundSummary(
            saved_id(record), record.channel_id, number, (), None, at_deadline=at_deadline,
            locale=campaign.locale, resumed=resume,
        )  # fmt: skip
        if ask is not None:  # a player's choice: the round waits for it
            until = await round_pause.pause(self, place, round_, ask, fallen)
            return replace(summary, lines=tuple(lines), waiting=ask, waiting_until=until)
        gone = [d for d in round_.entries if d.ref in set(fallen)]
        header = await self._next_round(place, round_, gone)
        return replace(summary, lines=tuple(lines), next=header)

    def _standing(self, round_: DeclarationRound, before: DeclarationRound) -> DeclarationRound:
        """``round_`` with the standing order of each combatant that declared nothing: what
        it did the round before, with new dice (rolled by the bot now), marked repeated."""
        declared = {d.key for d in round_.entries}
        for earlier in before.entries:
            if earlier.key in declared or earlier.key not in round_.owed:
                continue
            seed = self.attacks.rng.getrandbits(SEED_BITS)
            repeated = replace(earlier, seed=seed, defence_seed=None, repeated=True)
            round_ = round_.declaring(replace(repeated, ref=0))
        return round_

    async def _claim(
        self, place: Place, number: int, *, resume: bool = False
    ) -> tuple[CombatRecord, DeclarationRound] | None:
        """Mark round ``number`` as being resolved, by compare-and-set (module docstring);
        a round paused for a choice only by its resumption (``resume``), once."""

        async def attempt() -> tuple[CombatRecord, DeclarationRound] | None:
            record = await self.combat.store.active(place)
            open_round = round_of(record.state) if record is not None else None
            if record is None or open_round is None or open_round.round != number:
                return None
            if (open_round.waiting is not None) != resume:
                return None  # paused: only its resumption; not paused: nothing to resume
            if open_round.resolving and not _stale(open_round.resolving):
                return None
            claimed = replace(open_round, resolving=_iso(utcnow()), waiting=None)
            state = {**record.state, ROUND_KEY: claimed.to_dict()}
            async with self.sessions() as session, session.begin():
                await write_fight_state(session, record, state)
            return record, claimed

        return await retrying(attempt)

    async def _act(
        self,
        place: Place,
        round_: DeclarationRound,
        current: CombatantLine,
        gm: Actor,
        lines: list[ActionLine],
    ) -> tuple[DeclarationRound, PainAsk | None]:
        """What ``current`` declared, applied in its turn (added to ``lines``); nothing
        declared: it holds.  A turn that owes a test (rolweb's death test) is that test,
        rolled by the bot.  A player's pain threshold choice one of them leaves owed stops
        it there (returned, with the round marking what was applied: :mod:`.round_pause`);
        an NPC's takes the default at once."""
        if current.turn_test:
            lines.append(await self._owed_test(place, current, gm))
            return round_, None
        declared = round_.of(current.key)
        if not declared:
            lines.append(ActionLine(current.name, "hold"))
        for declaration in (d for d in declared if d.ref not in round_.applied):
            line = await self._apply(place, declaration)
            lines.append(line)
            round_ = replace(round_, applied=(*round_.applied, declaration.ref))
            ask = line.attack.pain if line.attack is not None else None
            if ask is not None and ask.chooser_id is None:
                lines += await round_pause.npc_defaults(self, place, gm, ask)
            elif ask is not None:
                return round_, ask
        return round_, None

    async def _apply(self, place: Place, declaration: Declaration) -> ActionLine:
        """One declared act through the live use case, with its dice; a target out of the
        fight by now is reported instead (an attack's may be redirected by the GM), as is a
        refusal of the rules then."""
        attack = declaration.act == "attack"
        if await self._fallen(place, declaration.target):
            ref = declaration.ref if attack else 0
            return ActionLine(declaration.name, "target_fell", target=declaration.target, ref=ref)
        actor = Actor(
            declaration.by,
            declaration.by_name,
            frozenset(declaration.by_roles),
            declaration.by_admin,
        )
        if declaration.act == "ability":
            return await self._ability(place, actor, declaration)
        if declaration.act == "stand":  # rolweb: getting up, its Ágil test now
            return await round_pause.stand(self, place, actor, declaration)
        if not attack:
            return await self._cast(place, actor, declaration)
        defence = declaration.defence_seed
        try:
            view = await self.attacks.resolve_declared(
                place, actor, order_of(declaration), seeded(declaration.seed),
                seeded(defence) if defence is not None else None,
            )  # fmt: skip
        except DomainError as error:
            params = tuple((str(k), str(v)) for k, v in error.params.items())
            return ActionLine(
                declaration.name, "refused", target=declaration.target,
                problem=error.key, params=params,
            )  # fmt: skip
        bot_defended = declaration.defender is not None and defence is None
        return ActionLine(
            declaration.name, "attack", attack=view, target=declaration.target,
            defence_by_bot=bot_defended, repeated=declaration.repeated,
        )  # fmt: skip

    async def _cast(self, place: Place, actor: Actor, declaration: Declaration) -> ActionLine:
        """A declared spell, cast now through ``/spell cast``'s use case with its dice."""
        fields = {k: v for k, v in declaration.order.items() if k in CastOrder.__slots__}
        order = replace(CastOrder(**fields), private=False)
        try:
            view = await self.spells.cast(place, actor, order, dice=seeded(declaration.seed))
        except DomainError as error:
            params = tuple((str(k), str(v)) for k, v in error.params.items())
            return ActionLine(
                declaration.name, "refused", target=declaration.target,
                problem=error.key, params=params,
            )  # fmt: skip
        return ActionLine(declaration.name, "cast", cast=view, target=declaration.target)

    async def _ability(self, place: Place, actor: Actor, declaration: Declaration) -> ActionLine:
        """A declared ability, used now through ``/ability use``'s use case with its dice."""
        order = declaration.order
        try:
            view = await self.abilities.use(
                place, actor, str(order.get("ability", "")),
                target=order.get("target"), character=declaration.name,
                level=order.get("level"), herbs=bool(order.get("herbs")),
                amount=_amount(order.get("amount")), dice=seeded(declaration.seed),
            )  # fmt: skip
        except (DomainError, RulesError) as error:
            return _refused(declaration, error)
        return ActionLine(declaration.name, "ability", ability=view, target=declaration.target)

    async def _owed_test(self, place: Place, current: CombatantLine, gm: Actor) -> ActionLine:
        """The turn's owed test (rolweb: «una tirada de muerte … durante la iniciativa de su
        personaje», seed 001), rolled by the bot for the absent player, as the GM may."""
        order = CheckOrder(str(current.turn_test), current.name)
        try:
            view = await self.checks.check(place, gm, order)
        except DomainError as error:
            params = tuple((str(k), str(v)) for k, v in error.params.items())
            return ActionLine(current.name, "refused", problem=error.key, params=params)
        return ActionLine(current.name, "test", check=view)

    async def _fallen(self, place: Place, name: str) -> bool:
        """Whether the combatant ``name`` is out of the fight now (dead, out, unconscious)."""
        context = await self.combat.characters.contexts.load(place)
        _campaign, system, settings = context.campaign, context.system, context.settings
        record = await self.combat.store.require(place)
        combat = Combat.from_dict(record.state)
        try:
            key = combat.find_by_name(name).key
        except Exception:  # noqa: BLE001 - not in the fight: the attack decides
            return False
        health = await self.combat.store.states(system, settings, combat)
        return key in out_of_order(health) | combat.spent()

    async def _next_round(
        self, place: Place, done: DeclarationRound, fallen: list[Declaration]
    ) -> RoundHeader | None:
        """The resolved round closed (its state and timer gone; its actions kept: those whose
        target fell for the GM to redirect, all of them for the standing orders) and the
        next one opened."""
        kept = {"round": done.round, "entries": [d.to_dict() for d in fallen]}
        previous = replace(done, resolving=None).to_dict()

        async def attempt() -> bool:
            record = await self.combat.store.active(place)
            if record is None:
                return False
            record.state = {**record.state, REDIRECT_KEY: kept, PREVIOUS_KEY: previous}
            await self.write_round(record, None, None)
            return True

        if not await retrying(attempt):
            return None
        try:
            return await self.open(place)
        except DomainError:
            return None  # the fight ended meanwhile


def _refused(declaration: Declaration, error: DomainError | RulesError) -> ActionLine:
    """A declared act the rules refused when its turn came (with the reason)."""
    if isinstance(error, RulesError) and error.problems:
        problem = error.problems[0]
        key, params = problem.key, problem.params
    else:
        key = getattr(error, "key", "errors.generic")
        params = getattr(error, "params", {})
    return ActionLine(
        declaration.name, "refused", target=declaration.target, problem=key,
        params=tuple((str(k), str(v)) for k, v in params.items()),
    )  # fmt: skip


def _gm(campaign: Campaign) -> Actor:
    """The bot acting as the campaign's GM (rolling missing initiatives, passing turns)."""
    return Actor(campaign.gm_user_id, "", frozenset(), True)


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()


def _due(round_: DeclarationRound) -> bool:
    """Whether the round's deadline has come (a timer fired for a round resolved meanwhile
    must not close the next one early)."""
    if not round_.deadline:
        return False
    deadline = as_utc(datetime.fromisoformat(round_.deadline))
    return deadline <= utcnow() + DEADLINE_SLACK


def _stale(claimed: str) -> bool:
    try:
        since = datetime.fromisoformat(claimed)
    except ValueError:
        return True
    return utcnow() - as_utc(since) > STALE_CLAIM


def _header(
    record: CombatRecord, campaign: Campaign, combat: Combat, round_: DeclarationRound
) -> RoundHeader:
    present = {c.key: c for c in combat.combatants}
    owed = tuple(Owed(present[k].name, present[k].owner_id) for k in round_.owed if k in present)
    deadline = datetime.fromisoformat(round_.deadline) if round_.deadline else None
    return RoundHeader(
        saved_id(record), record.channel_id, round_.round, owed, deadline, campaign.gm_user_id
    )


def _amount(value: object) -> int | None:
    """A declared ability's chosen amount (S&W's Imposición de manos), as stored."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
