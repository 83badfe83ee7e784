"""Rolling from a sheet: ``/check`` and ``/save`` through the game-system interface.

Every check lands in the audit log with the character's name, like a ``/roll``.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Campaign, Character, saved_id, utcnow
from bot.grammar import gender_of
from bot.services.play.rolls import MAX_REASON
from bot.services.play.turn_tests import Claim, claim_test
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audit import AuditEntry, entry_secrecy, roll_log_values, write_audit
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, InvalidSetting
from bot.services.shared.labels import resolve, spoken
from bot.services.shared.write_batch import WriteBatch
from bot.services.sheets.access import require_actor
from bot.services.sheets.changes import ApplyEffects
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.use_case import CharacterUseCase
from rules.combat.health import Act, require
from rules.systems.base import (
    CheckOption,
    CheckRequest,
    CheckResult,
    GameSystem,
    OpposedResult,
    capabilities,
)
from rules.text import fold

__all__ = ["CheckOrder", "CheckService", "CheckView", "SAVE_OPTION", "resolve_option"]

MAX_CIRCUMSTANCES = 8
#: The option ``/save`` rolls: S&W's single «Tirada de Salvación» (with the alternative
#: saves setting the system reads the threat to pick the category).
SAVE_OPTION = "salvacion"
#: Runs in the transaction that stores a check: ``(session, log id, result)``.
SameTransaction = Callable[[AsyncSession, int, CheckResult], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class CheckOrder:
    """What ``/check`` asked for (the option and its details, as typed)."""

    option: str
    character: str | None = None
    modifier: int = 0
    difficulty: int | None = None
    circumstances: str | None = None
    against: str | None = None
    against_option: str | None = None
    private: bool = False
    #: What the check is for, as ``/roll``'s ``reason``: shown and kept in the log.
    reason: str | None = None
    #: Parts of the roll only the GM reads (a GM roll request with a hidden difficulty).
    sealed: frozenset[Part] = frozenset()
    #: Who the roll is for when not everyone (a post's audience: a private thread's, a
    #: whisper's); None: everyone in the campaign
    audience: Secrecy | None = None


@dataclass(frozen=True, slots=True)
class CheckView:
    log_id: int
    user_name: str
    character_name: str
    result: CheckResult
    opponent_name: str | None
    opposed: OpposedResult | None
    private: bool
    gm_channel_id: int | None
    #: the character's grammatical gender: notes agree with it («Sigue moribunda»)
    gender: str | None = None
    reason: str | None = None
    #: Who may see the roll (bot.services.shared.audience): a hidden NPC on either side seals
    #: its numbers (the reply shows the outcome; the GM's copy the numbers).
    secrecy: Secrecy = PUBLIC
    written_at: datetime | None = None

    @property
    def opponent_hidden(self) -> bool:
        """The opponent is an NPC hidden from the players (its numbers are sealed)."""
        return self.opposed is not None and self.secrecy.npc_id is not None


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    """Keep only what the audit log can store as JSON."""
    safe = {}
    for key, value in values.items():
        if isinstance(value, (str, int, float, bool, type(None), list, dict)):
            safe[str(key)] = value
        else:
            safe[str(key)] = str(value)
    return safe


def resolve_option(options: tuple[CheckOption, ...], typed: str) -> str:
    """The option a player named, by its key or by the name the autocomplete shows
    («Atento» for ``atributo:Atento``, «destreza» for S&W's Destreza, «Salvación (Fís» for
    Núcleo's one beginning so): Discord sends the typed text when nobody picks a suggestion,
    and a newcomer types what the sheet shows (:func:`bot.services.shared.labels.resolve`; a name
    several options share is refused with their names, never guessed).  Anything else is
    returned as typed, for the system to refuse by name (some options are valid without
    being offered, S&W's ``salvacion``)."""
    return resolve(typed, (spoken(o.key, o.label) for o in options)) or typed.strip()


def parse_circumstances(text: str | None) -> frozenset[str]:
    """``"token, amenaza:veneno"`` → ``{"token", "amenaza:veneno"}``."""
    if not text:
        return frozenset()
    # folded: «amenaza:parálisis» typed with its accent is the threat «paralisis»
    items = [fold(part) for part in text.replace(";", ",").split(",") if part.strip()]
    if len(items) > MAX_CIRCUMSTANCES:
        raise DomainError("check.error.too_many_circumstances", limit=MAX_CIRCUMSTANCES)
    return frozenset(items)


class CheckService(CharacterUseCase):
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        rng: random.Random | None = None,
        log_writes: WriteBatch[dict[str, Any], int] | None = None,
    ) -> None:
        super().__init__(sessions, characters, rng)
        #: The roll log's group commit (``RollService.log_writes``): a check that changes
        #: nothing on the sheet is one row of a shared statement, as a ``/roll`` is.
        self.log_writes = log_writes

    async def options(
        self, place: Place, actor: Actor, character: str | None
    ) -> tuple[CheckOption, ...]:
        try:
            _campaign, stored, system, settings = await self.characters.sheet_of(
                place, actor, character
            )
        except DomainError:
            return ()
        return tuple(system.check_options(stored.sheet, settings))

    async def check(
        self,
        place: Place,
        actor: Actor,
        order: CheckOrder,
        *,
        character_id: int | None = None,
        same_transaction: SameTransaction | None = None,
    ) -> CheckView:
        """Roll ``order`` on the character's sheet; what the roll changes (a token given to
        the GM, a death test) is re-applied to the sheet's current version together with the
        audit-log row, or the check is refused and nothing is logged.

        ``character_id`` names the character by id instead of ``order.character`` (a GM roll
        request's button); ``same_transaction(session, log_id, result)`` runs in the
        transaction that stores the roll, and an exception it raises stores nothing
        (:mod:`bot.services.table.requests` records the roll on the request there, once)."""
        if character_id is not None:
            campaign, own, system, settings = await self.characters.sheet_by_id(place, character_id)
        else:
            campaign, own, system, settings = await self.characters.sheet_of(
                place, actor, order.character
            )
        # Rolling *with* a character is acting as it: its owner or a referee only.
        require_actor(campaign, own, actor)
        option = resolve_option(tuple(system.check_options(own.sheet, settings)), order.option)
        claim = await self._fit(place, own, system, settings, option)
        same_transaction = _with_claim(claim, same_transaction)
        reason = (order.reason or "").strip() or None
        if reason is not None and len(reason) > MAX_REASON:
            raise InvalidSetting("roll.error.reason_too_long", limit=MAX_REASON)
        request = CheckRequest(
            option=option,
            modifier=order.modifier,
            difficulty=order.difficulty,
            circumstances=parse_circumstances(order.circumstances),
        )
        rolled = await self._roll(place, actor, campaign, own, system, settings, order, request)
        result = rolled.result
        audit = _check_audit(rolled, reason, order.private)
        log_id, character_name = await self._store(
            place, actor, campaign, own, rolled, audit, same_transaction
        )
        return CheckView(
            log_id=log_id or 0,
            user_name=actor.name,
            character_name=character_name,
            result=result,
            opponent_name=rolled.opponent_name,
            opposed=rolled.opposed,
            private=order.private,
            gm_channel_id=campaign.gm_channel_id,
            gender=gender_of(own.sheet),
            reason=reason,
            secrecy=entry_secrecy(actor, audit),
            written_at=utcnow(),
        )

    async def _fit(
        self,
        place: Place,
        own: Character,
        system: GameSystem,
        settings: Mapping[str, Any],
        option: str,
    ) -> Claim | None:
        """Refuse what the character's health forbids; a test its turn owes (rolweb's death
        test) comes with the fight's claim on it (:mod:`.turn_tests`)."""
        health = capabilities(system).health
        if health is None:
            return None
        state = health.combat_state(own.sheet, settings)
        require(state, Act.CHECK, own.name, option, system=system.id, gender=gender_of(own.sheet))
        if state.turn_test is not None and option == state.turn_test:
            return await claim_test(self.sessions, place, saved_id(own))
        return None

    async def _roll(
        self,
        place: Place,
        actor: Actor,
        campaign: Campaign,
        own: Character,
        system: GameSystem,
        settings: Mapping[str, Any],
        order: CheckOrder,
        request: CheckRequest,
    ) -> _Rolled:
        """The check, opposed when ``order.against`` names an opponent (whose option is
        ``against_option``, or the same); a hidden NPC opponent stays unnamed to players.

        Who may see it is decided here, once, for every output (issue 22 §1): a hidden NPC's
        numbers are the GM's, and a request's hidden difficulty stays sealed."""
        secrecy = (order.audience or PUBLIC).sealing(*order.sealed)
        if own.is_npc and own.hidden:
            secrecy = secrecy.hiding_npc(saved_id(own))
        if order.against is None:
            return _Rolled(system.check(own.sheet, request, settings, self.rng), secrecy=secrecy)
        opponent = await self.characters.show(place, actor, order.against, as_opponent=True)
        if opponent.is_npc and opponent.hidden:
            secrecy = secrecy.hiding_npc(opponent.id)
        typed = order.against_option or order.option
        other = CheckRequest(
            option=resolve_option(tuple(system.check_options(opponent.sheet, settings)), typed)
        )
        opposed = system.opposed(own.sheet, request, opponent.sheet, other, settings, self.rng)
        return _Rolled(opposed.a, opposed, opponent.name, secrecy)

    async def _store(
        self,
        place: Place,
        actor: Actor,
        campaign: Campaign,
        own: Character,
        rolled: _Rolled,
        audit: AuditEntry,
        same_transaction: SameTransaction | None,
    ) -> tuple[int | None, str]:
        """The audit row, with what the roll changes on the sheet's current version (one
        write), and ``same_transaction`` in that transaction; (log id, the character's name)."""
        then: Callable[[AsyncSession, int | None], Awaitable[None]] | None = None
        if same_transaction is not None:
            hook = same_transaction

            async def record(session: AsyncSession, log_id: int | None) -> None:
                await hook(session, log_id or 0, rolled.result)

            then = record
        if rolled.result.effects:
            applied = await self.characters.writer.apply(
                place,
                actor,
                ApplyEffects(rolled.result.effects, audit),
                character_id=own.id,
                same_transaction=then,
            )
            return applied.log_id, applied.view.name
        if then is None and self.log_writes is not None:
            # it records no change: the roll log's group commit, as /roll's rows (write_audit)
            values = roll_log_values(place, actor, campaign.id, own.name, audit)
            return await self.log_writes.submit(values), own.name
        async with self.sessions() as session, session.begin():
            log_id = await write_audit(session, place, actor, campaign.id, own.name, audit)
            if then is not None:
                await then(session, log_id)
        return log_id, own.name

    async def save(
        self,
        place: Place,
        actor: Actor,
        *,
        threat: str | None = None,
        character: str | None = None,
        modifier: int = 0,
        private: bool = False,
        audience: Secrecy | None = None,
    ) -> CheckView:
        """``/save``: the saving throw (S&W «Tirada de Salvación»), against a kind of threat."""
        order = CheckOrder(
            SAVE_OPTION,
            character=character,
            modifier=modifier,
            circumstances=f"amenaza:{threat}" if threat else None,
            private=private,
            audience=audience,
        )
        return await self.check(place, actor, order)


def _with_claim(claim: Claim | None, then: SameTransaction | None) -> SameTransaction | None:
    """``then`` preceded by the fight's claim of an owed turn test, in the same transaction."""
    if claim is None:
        return then

    async def both(session: AsyncSession, log_id: int, result: CheckResult) -> None:
        await claim(session)
        if then is not None:
            await then(session, log_id, result)

    return both


@dataclass(frozen=True, slots=True)
class _Rolled:
    """A check as rolled: its result, and the opposed roll with the opponent's name."""

    result: CheckResult
    opposed: OpposedResult | None = None
    opponent_name: str | None = None
    #: who may see it (a hidden NPC on either side seals its numbers; a request's difficulty)
    secrecy: Secrecy = PUBLIC


def _hidden_opponent(rolled: _Rolled) -> bool:
    return rolled.opposed is not None and rolled.secrecy.npc_id is not None


def _check_audit(rolled: _Rolled, reason: str | None, private: bool) -> AuditEntry:
    """The check's audit row (kind ``check``): the roll, the opponent, the reason typed."""
    result, against = rolled.result, rolled.opponent_name
    return AuditEntry(
        kind="check",
        expression=result.expression,
        reason=result.label
        + (f" ← {against}" if against else "")
        + (f" — {reason}" if reason else ""),
        breakdown=result.breakdown,
        detail={
            "option": result.option,
            "notes": list(result.notes),
            **_jsonable(result.extra),
            **({"hidden_opponent": True} if _hidden_opponent(rolled) else {}),
        },
        total=result.total,
        difficulty=result.target,
        outcome=str(result.outcome) if result.outcome else None,
        fumble=result.outcome == "fumble",
        private=private,
        secrecy=rolled.secrecy,
    )
