"""The one way to change a stored sheet: a change object in, a typed result out.

Every use case that changes a character — ``/sheet set``, items, money, XP, spells, rests,
damage and healing, checks that spend something, an import that replaces a sheet — hands
:class:`SheetWriter` a :class:`SheetChange`.  The writer

1. loads the campaign context and the character's *current* version,
2. checks that the actor may change it,
3. asks the change to compute the new sheet from that version (the system's rules run here,
   and refuse with :class:`RulesError` when the change no longer makes sense, e.g. a token
   already spent),
4. lets the system validate the result (when the change asks for it),
5. writes the sheet with a compare-and-set on ``version``, in the same transaction as the
   change's audit-log row (:class:`AuditEntry`) and XP-ledger row (:class:`XpEntry`),
6. and on a clash starts again from 1 (the one retry policy, :func:`retrying`, with more
   attempts than the default; then :class:`ConcurrentChange`).

So a confirmed change is always computed on the version it replaced and nothing written in
between is lost.  :meth:`SheetWriter.apply_all` does the same for several characters at once,
all or none (a party-wide XP grant).
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import Character, RollLog, XpAward, saved_id, utcnow
from bot.grammar import sheet_fields
from bot.services.campaigns.context import CampaignContext, CampaignContextService
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audit import (
    AuditDetail,
    AuditEntry,
    audit_detail,
    sheet_diff,
    write_audit,
)
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import StaleWrite, update_versioned
from bot.services.sheets.access import (
    MAX_NAME,
    CharacterView,
    character_view,
    checked_name,
    find_character,
    name_clash,
    name_key,
    player_sheet,
    require_editor,
    require_playable,
)
from bot.services.sheets.schema import SHEET_SCHEMA_VERSION, upgraded_sheet
from rules.systems.base import Problem, RulesError
from rules.values import MAX_STORED, out_of_store

__all__ = [
    "Applied",
    "Computed",
    "Each",
    "PartyRefused",
    "SheetChange",
    "SheetWriter",
    "XpEntry",
    "change_secrecy",
]

#: A sheet is the busiest row (money, damage, checks and XP from a whole table in a fight):
#: more attempts than the default before telling the user to try again.
SHEET_ATTEMPTS = 20

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class XpEntry:
    """A row of the XP ledger written with the sheet (who granted how much, before/after)."""

    amount: int
    xp_before: int
    xp_after: int
    granted_by: int
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Computed(Generic[T_co]):
    """What a change computed on one version: the new sheet, its typed value, its records.

    Covariant (read-only, frozen) so that :class:`SheetChange` may be covariant too."""

    sheet: Mapping[str, Any]
    value: T_co
    audit: AuditEntry | None = None
    xp: XpEntry | None = None
    #: the audit-log row this write undoes: marked undone in the same transaction, refused
    #: if it already was (see :mod:`bot.services.sheets.undo`)
    undoes: int | None = None
    #: the XP grant whose hit die this write rolled: marked in the same transaction, refused
    #: if it already was (see :mod:`bot.services.sheets.levelup`)
    hit_die_for: int | None = None


class SheetChange(Protocol[T_co]):
    """A change to one sheet that can be computed again on a newer version.

    ``validate``: run :meth:`GameSystem.validate` on the result (edits and purchases do;
    rolls, damage and rests do not, since a legal game state may lie outside the ranges a
    hand edit is held to, and a sheet made illegal by a campaign rule must still take damage).
    """

    @property
    def validate(self) -> bool: ...

    def compute(self, sheet: dict[str, Any], context: CampaignContext) -> Computed[T_co]: ...


@dataclass(frozen=True, slots=True)
class Applied(Generic[T]):
    """A confirmed change: the character as written, the change's value, its log row's id."""

    view: CharacterView
    value: T
    log_id: int | None = None

    @property
    def secrecy(self) -> Secrecy:
        """Who may see what this change did (the rule its log row was written with)."""
        return change_secrecy(self.view.id, self.view.is_npc, self.view.hidden)


def change_secrecy(character_id: int, is_npc: bool, hidden: bool) -> Secrecy:
    """A change to a hidden NPC's sheet (an XP award, a rest, damage) is the GM's until the
    NPC is revealed (issue 22 §1); any other change is everyone's."""
    if is_npc and hidden:
        return PUBLIC.hiding_npc(character_id, (Part.RECORD,))
    return PUBLIC


@dataclass(frozen=True, slots=True)
class Each:
    """One sheet's part of :meth:`SheetWriter.apply_each`.

    ``acting`` says the actor acts *with* this character (owner or referee required);
    ``False`` is a change the rules make on the actor's behalf (the target of an attack: a
    player may wound the NPC the GM put in the fight without being able to edit it).
    """

    character_id: int
    change: SheetChange[Any] | None = None
    acting: bool = True
    #: Instead of ``change``: the change made from the values the earlier steps computed in
    #: this same attempt (a cast's damage or effect on its target, after the caster's roll).
    #: ``None`` from it leaves this sheet as it is: not written, no log row (a failed cast).
    after: Callable[[tuple[Any, ...]], SheetChange[Any] | None] | None = None
    #: The character acts in the game (a caster): refused while it awaits the GM's approval.
    playing: bool = False


class PartyRefused(DomainError):
    """``apply_all`` changed nobody because these characters refused (name, problems)."""

    key = "sheet.error.party_refused"

    def __init__(self, refusals: Sequence[tuple[str, Sequence[Problem]]]) -> None:
        self.refusals = tuple((name, tuple(problems)) for name, problems in refusals)
        super().__init__(names=", ".join(name for name, _ in self.refusals))


class _CallersClash(Exception):
    """A clash in the caller's own write (``same_transaction``), carried through the sheet
    writer's retries: they would repeat it with the caller's stale reads; the caller's own
    retry (or its report) handles it."""

    def __init__(self, clash: StaleWrite) -> None:
        self.clash = clash


async def _callers(step: Awaitable[None]) -> None:
    try:
        await step
    except StaleWrite as clash:
        raise _CallersClash(clash) from clash


async def _retrying_sheets(attempt: Callable[[], Awaitable[R]]) -> R:
    """The one retry policy, with more attempts (a sheet is busy in a fight); a clash of the
    caller's ``same_transaction`` reaches the caller at once, as the clash it was."""
    try:
        return await retrying(attempt, limit=SHEET_ATTEMPTS)
    except _CallersClash as carried:
        raise carried.clash from None


@dataclass(slots=True)
class _Planned:
    character: Character
    sheet: dict[str, Any]
    computed: Computed[Any]
    before: dict[str, Any]
    #: The version the change was computed on (the compare-and-set's): read once, since the
    #: ORM's UPDATE may bring the session's copy of the row up to date as it writes.
    version: int = 0


class SheetWriter:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], contexts: CampaignContextService
    ) -> None:
        self.sessions = sessions
        self.contexts = contexts

    async def apply(
        self,
        place: Place,
        actor: Actor,
        change: SheetChange[T],
        *,
        name: str | None = None,
        character_id: int | None = None,
        on_behalf: bool = False,
        same_transaction: Callable[[AsyncSession, int | None], Awaitable[None]] | None = None,
        playing: bool = False,
    ) -> Applied[T]:
        """Apply ``change`` to the character ``name`` (default: the actor's active one) or
        ``character_id``; see the module docstring for the steps.

        ``on_behalf``: the rules change this sheet for someone who does not own it (the
        *target* of the actor's act — healed by an ability or a spell, hit by an attack — or
        the owner's turn ticking its effects when another player passes the turn): the caller
        has already decided the actor may act, so the editor check is skipped (issue 11 §1);
        the audit row still names the actor.  ``same_transaction(session, log_id)`` runs
        inside the write's transaction after it (a GM roll request records the roll there);
        an exception it raises rolls the write back and reaches the caller.  ``playing``: the
        change is the character acting in the game (casting), which a character still awaiting
        the GM's approval may not do (editing its sheet meanwhile is fine)."""

        async def attempt() -> Applied[T]:
            context = await self.contexts.load(place)
            planned: _Planned | None = None
            try:  # read and write in one transaction: one checkout (issue 26)
                async with self.sessions() as session, session.begin():
                    if character_id is not None:
                        character = await self._by_id(session, context, character_id, name)
                    else:
                        character = await find_character(session, context.campaign, actor, name)
                    if not on_behalf:
                        require_editor(context.campaign, character, actor)
                    if playing:
                        require_playable(character)
                    planned = self._plan(context, character, change)
                    log_id = await self._write(session, place, actor, context, planned)
                    if same_transaction is not None:
                        await _callers(same_transaction(session, log_id))
            except IntegrityError:
                typed = planned.sheet.get("name") if planned is not None else None
                raise name_clash(context.campaign, actor, typed) from None
            return Applied(self._written(context, planned), planned.computed.value, log_id)

        return await _retrying_sheets(attempt)

    async def apply_all(
        self,
        place: Place,
        actor: Actor,
        character_ids: Sequence[int],
        change: SheetChange[T],
    ) -> tuple[Applied[T], ...]:
        """Apply ``change`` to every character in one transaction, or to none.

        Every character is computed and validated first; if any refuses, nothing is written
        and :class:`PartyRefused` lists each one that did, with its problems.
        """

        async def attempt() -> tuple[Applied[T], ...]:
            context = await self.contexts.load(place)
            async with self.sessions() as session, session.begin():  # one transaction
                characters = [
                    await self._by_id(session, context, cid, None) for cid in character_ids
                ]
                plans: list[_Planned] = []
                refusals: list[tuple[str, Sequence[Problem]]] = []
                for character in characters:
                    try:
                        require_editor(context.campaign, character, actor)
                        plans.append(self._plan(context, character, change))
                    except RulesError as error:
                        refusals.append((character.name, error.problems))
                    except DomainError as error:
                        refusals.append((character.name, [Problem(error.key, "", error.params)]))
                if refusals:
                    raise PartyRefused(refusals)
                log_ids = [await self._write(session, place, actor, context, p) for p in plans]
            return tuple(
                Applied(self._written(context, p), p.computed.value, log_id)
                for p, log_id in zip(plans, log_ids, strict=True)
            )

        return await _retrying_sheets(attempt)

    async def apply_each(
        self,
        place: Place,
        actor: Actor,
        steps: Sequence[Each],
        *,
        same_transaction: Callable[[AsyncSession], Awaitable[None]] | None = None,
    ) -> tuple[Applied[Any], ...]:
        """Different changes to different sheets in one transaction, all or nothing.

        Each sheet is computed on its current version and written with its own
        compare-and-set; a clash on any rolls all back and recomputes all (an attack that
        wounds the target and heals the attacker, Toque vampírico).  A step with
        :attr:`Each.after` is computed from the earlier steps' values of the same attempt (a
        spell's caster rolls, then the roll lands on its target); a step it leaves out is
        returned as read, with the value ``None``.  ``same_transaction``
        runs inside that transaction after the writes (claiming a pending defence request);
        an exception it raises rolls everything back.
        """

        async def attempt() -> tuple[Applied[Any], ...]:
            context = await self.contexts.load(place)
            async with self.sessions() as session, session.begin():  # one transaction
                characters = [
                    await self._by_id(session, context, step.character_id, None) for step in steps
                ]
                if len({c.id for c in characters}) < len(characters):  # one write per sheet
                    raise DomainError("sheet.error.pair_same_character", name=characters[0].name)
                plans: list[_Planned | None] = []
                values: list[Any] = []
                for step, character in zip(steps, characters, strict=True):
                    if step.acting:
                        require_editor(context.campaign, character, actor)
                    if step.playing:
                        require_playable(character)
                    change = step.change if step.after is None else step.after(tuple(values))
                    planned = self._plan(context, character, change) if change is not None else None
                    plans.append(planned)
                    values.append(planned.computed.value if planned is not None else None)
                log_ids = [
                    await self._write(session, place, actor, context, p) if p is not None else None
                    for p in plans
                ]
                if same_transaction is not None:
                    await _callers(same_transaction(session))
            return tuple(
                Applied(self._written(context, p), p.computed.value, log_id)
                if p is not None
                else Applied(character_view(context, character), None)
                for p, character, log_id in zip(plans, characters, log_ids, strict=True)
            )

        return await _retrying_sheets(attempt)

    # -- steps ---------------------------------------------------------------------------

    @staticmethod
    async def _by_id(
        session: AsyncSession, context: CampaignContext, character_id: int, name: str | None
    ) -> Character:
        character = await session.get(Character, character_id)
        if (
            character is None
            or character.campaign_id != context.campaign.id
            or character.deleted_at is not None
        ):
            raise DomainError("sheet.error.not_found", name=name or "?")
        return character

    @staticmethod
    def _plan(context: CampaignContext, character: Character, change: SheetChange[Any]) -> _Planned:
        before = upgraded_sheet(character)
        computed = change.compute(copy.deepcopy(before), context)
        sheet = dict(computed.sheet)
        name = sheet.get("name", character.name)
        if not isinstance(name, str):
            raise DomainError("sheet.error.bad_name", limit=MAX_NAME)
        if name != character.name:  # a rename: the rules of a new name (a stored one stays)
            sheet["name"] = name = checked_name(name)
        if not character.is_npc:
            sheet = player_sheet(sheet)
        _keep_to_the_store(context, before, sheet, computed)
        if change.validate:
            problems = context.system.validate(sheet, context.settings)
            if problems:
                raise RulesError(list(problems))
        return _Planned(character, sheet, computed, before, character.version)

    @staticmethod
    async def _write(
        session: AsyncSession,
        place: Place,
        actor: Actor,
        context: CampaignContext,
        planned: _Planned,
    ) -> int | None:
        """The versioned write and its records; :class:`StaleWrite` rolls them back."""
        character, sheet = planned.character, planned.sheet
        new_name = str(sheet.get("name", character.name)).strip() or character.name
        await update_versioned(
            session,
            Character,
            col(Character.id) == character.id,
            planned.version,
            sheet=sheet,
            updated_at=utcnow(),
            name=new_name,
            name_key=name_key(new_name),
            sheet_version=SHEET_SCHEMA_VERSION,
        )
        log_id = await _log(session, place, actor, context, planned, new_name)
        xp = planned.computed.xp
        if planned.computed.undoes is not None:
            await _mark_undone(session, planned.computed.undoes, character.id, log_id)
        if planned.computed.hit_die_for is not None:
            await _mark_hit_die(session, planned.computed.hit_die_for, character.id, log_id)
        if xp is not None:
            session.add(
                XpAward(
                    **change_secrecy(
                        saved_id(character), character.is_npc, character.hidden
                    ).columns(),
                    guild_id=character.guild_id,
                    campaign_id=character.campaign_id,
                    character_id=saved_id(character),
                    character_name=new_name,
                    granted_by=xp.granted_by,
                    amount=xp.amount,
                    xp_before=xp.xp_before,
                    xp_after=xp.xp_after,
                    reason=xp.reason,
                )
            )
        return log_id

    @staticmethod
    def _written(context: CampaignContext, planned: _Planned) -> CharacterView:
        """The character as this write left it (not a later write another command made)."""
        character = planned.character
        new_name = str(planned.sheet.get("name", character.name)).strip() or character.name
        character.sheet, character.name = planned.sheet, new_name
        character.name_key, character.version = name_key(new_name), planned.version + 1
        return character_view(context, character)


def _keep_to_the_store(
    context: CampaignContext,
    before: Mapping[str, Any],
    sheet: Mapping[str, Any],
    computed: Computed[Any],
) -> None:
    """Refuses a write that would store a number outside :data:`rules.values.MAX_STORED`'s
    range: a sheet value it changed (XP past 2,147,483,647 after a grant, money past it
    after ``/sheet money``, hit points after a thousand blows), the XP ledger's row or the
    log's total.  PostgreSQL refused those with «Algo ha fallado» (``integer`` columns) while
    SQLite stored them, and the export of such a sheet was refused by the bot's own import.
    Only what this write changed is checked: an older out-of-range value does not block
    every later write to the sheet.
    """
    labels = {spec.path: spec.label for spec in sheet_fields(context.system, context.settings)}
    for path, _old, new in sheet_diff(before, sheet):
        for value in _integers(new):
            if out_of_store(value):
                raise DomainError(
                    "sheet.error.number_out_of_store",
                    field=labels.get(path, path),
                    value=value,
                    limit=MAX_STORED,
                )
    numbers: list[tuple[str, int]] = []
    if computed.xp is not None:
        numbers += [("PX", computed.xp.amount), ("PX", computed.xp.xp_after)]
    if computed.audit is not None:
        numbers += [(computed.audit.kind, computed.audit.total)]
        numbers += [(computed.audit.kind, computed.audit.difficulty or 0)]
    for field, value in numbers:
        if out_of_store(value):
            raise DomainError(
                "sheet.error.number_out_of_store", field=field, value=value, limit=MAX_STORED
            )


def _integers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, Mapping):
        return [n for child in value.values() for n in _integers(child)]
    if isinstance(value, list):
        return [n for child in value for n in _integers(child)]
    return []


async def _mark_undone(
    session: AsyncSession, log_id: int, character_id: int | None, undo_id: int | None
) -> None:
    """Mark the undone row in the undo's own transaction.

    Two undos of one row both write its character with a compare-and-set, so the second
    clashes, recomputes and finds the mark; the check here refuses anyway (rolling back)
    should a row ever be undone by a write on another version.
    """
    row = await session.get(RollLog, log_id)
    detail = audit_detail(row) if row is not None else AuditDetail()
    if row is None or detail.undo is None or detail.undo.character_id != character_id:
        raise DomainError("undo.error.not_found", id=log_id)
    if detail.undo.undone_by:
        raise DomainError("undo.error.already", id=log_id)
    hit_die = detail.hit_die
    if hit_die and not await _undone(session, hit_die):
        # the grant's hit die went onto the hit points: undo that roll first
        raise DomainError("undo.error.hit_die_first", id=log_id, hit_die=hit_die)
    row.detail = {**row.detail, "undo": {**row.detail["undo"], "undone_by": undo_id or True}}
    session.add(row)


async def _undone(session: AsyncSession, log_id: int) -> bool:
    row = await session.get(RollLog, log_id)
    undo = audit_detail(row).undo if row is not None else None
    return bool(row is None or (undo is not None and undo.undone_by))


async def _mark_hit_die(
    session: AsyncSession, grant_id: int, character_id: int | None, roll_id: int | None
) -> None:
    """A grant's hit die is rolled once, and never for a grant undone meanwhile."""
    row = await session.get(RollLog, grant_id)
    detail = audit_detail(row) if row is not None else AuditDetail()
    if row is None or detail.undo is None or detail.undo.character_id != character_id:
        raise DomainError("undo.error.not_found", id=grant_id)
    if detail.hit_die and not await _undone(session, detail.hit_die):
        raise DomainError("xp.error.hit_die_rolled")
    if detail.undo.undone_by:
        raise DomainError("xp.error.hit_die_stale", id=grant_id)
    row.detail = {**row.detail, "hit_die": roll_id}
    session.add(row)


async def _log(
    session: AsyncSession,
    place: Place,
    actor: Actor,
    context: CampaignContext,
    planned: _Planned,
    name: str,
) -> int | None:
    """The change's audit row, with what it changed (``detail.undo``: the GM undoes it from
    its reply or /history); a hidden NPC's is the GM's until it is revealed.  None: the change logs nothing."""
    audit, character, xp = planned.computed.audit, planned.character, planned.computed.xp
    if audit is None:
        return None
    if character.is_npc and character.hidden and audit.secrecy.npc_id is None:
        # a change to a hidden NPC's sheet is the GM's until the NPC is revealed (a use case
        # that shows part of it, an attack, says which parts it seals)
        audit = replace(
            audit, secrecy=audit.secrecy.hiding_npc(saved_id(character), (Part.RECORD,))
        )
    undo = {
        "character_id": character.id,
        "version": planned.version + 1,
        "changes": sheet_diff(planned.before, planned.sheet),
        **({"xp": [xp.amount, xp.xp_before, xp.xp_after]} if xp is not None else {}),
    }
    audit = replace(audit, detail={**audit.detail, "undo": undo})
    return await write_audit(
        session, place, actor, context.campaign.id, audit.character or name, audit
    )
