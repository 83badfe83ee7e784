"""Character use cases: find, show, list, create, use, set, delete/restore.

Around it, each in its own module: loading the campaign context
(:mod:`bot.services.campaigns.context`), who may read or edit what
(:mod:`bot.services.sheets.access`), every sheet change (:mod:`bot.services.sheets.writes`),
the NPC-only use cases (:mod:`bot.services.sheets.npcs`), export and import
(:mod:`bot.services.sheets.exchange`) and what ``/sheet`` suggests while typing
(:mod:`bot.services.sheets.options`).

The sheet itself is the system's business (:mod:`rules.systems`); this module only decides
*who* may read or change *which* character, keeps one transaction per use case, and checks
versions so two edits arriving together never overwrite each other.
"""

from __future__ import annotations

import builtins
import difflib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, overload

from sqlalchemy import and_, func, not_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.locks import lock_campaign
from bot.db.models import ActiveCharacter, Campaign, Character, saved_id, utcnow
from bot.grammar import sheet_fields
from bot.services.campaigns.context import CampaignContextService
from bot.services.campaigns.service import (
    APPROVE_CHARACTERS,
    CHARACTER_CAP,
    FREE_MONEY,
    CampaignService,
    is_referee,
)
from bot.services.shared.context import Actor, Confirm, Place
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.shared.labels import read_field
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import (
    NO_SHEET,
    CharacterSummary,
    CharacterView,
    character_view,
    checked_name,
    find_character,
    name_clash,
    name_key,
    player_sheet,
    require_editor,
    require_playable,
    set_path,  # noqa: F401 - re-exported
)
from bot.services.sheets.cached_reads import CachedReads
from bot.services.sheets.changes import (
    AdjustInventory,
    AdjustMoney,
    Callback,
    Purse,
    SetField,
)
from bot.services.sheets.guarded import guarded_paths, is_guarded
from bot.services.sheets.imports import (
    SHEET_FORMAT,
    SHEET_FORMAT_VERSION,
)
from bot.services.sheets.schema import upgraded
from bot.services.sheets.writes import SheetWriter
from bot.words import whole_list
from rules import systems
from rules.names import LOCALES, display, field_kind
from rules.systems.base import (
    FieldKind,
    FieldSpec,
    GameSystem,
    Problem,
    RulesError,
)
from rules.text import fold
from rules.values import BadValue, parse_value

__all__ = [
    "CharacterService",
    "CharacterView",
    "CharacterSummary",
    "name_key",
    "player_sheet",
    "set_path",
    "SHEET_FORMAT",
    "SHEET_FORMAT_VERSION",
]


class CharacterService:
    """Reads characters and runs the sheet use cases; every write goes through ``writer``."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        campaigns: CampaignService,
        contexts: CampaignContextService | None = None,
        writer: SheetWriter | None = None,
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns
        self.contexts = contexts or CampaignContextService(campaigns)
        self.writer = writer or SheetWriter(sessions, self.contexts)
        #: The reads every roll from a sheet makes, answered from the per-process cache.
        self.reads = CachedReads(sessions, campaigns)

    # -- reading -------------------------------------------------------------------------

    async def active_name(self, place: Place, actor: Actor) -> str | None:
        """The name of the actor's active character where this campaign is played, if any
        (:meth:`CachedReads.active_name`: the per-process cache, or one shared read)."""
        return await self.reads.active_name(place, actor)

    async def sheet_of(
        self, place: Place, actor: Actor, name: str | None = None
    ) -> tuple[Campaign, Character, GameSystem, Mapping[str, Any]]:
        """The stored character with its campaign, system and settings, deriving nothing.

        For autocomplete and rolls, which need the sheet but not the whole view: one campaign
        lookup and one character read.
        """
        context = await self.contexts.load(place)
        character = await self.reads.character(context.campaign, actor, name)
        return context.campaign, upgraded(character), context.system, context.settings

    async def sheet_by_id(
        self, place: Place, character_id: int
    ) -> tuple[Campaign, Character, GameSystem, Mapping[str, Any]]:
        """Like :meth:`sheet_of`, for a character known by id (a button keyed by it): it must
        belong to the campaign played here and not be deleted."""
        context = await self.contexts.load(place)
        missing = {"name": f"#{character_id}"}
        character = await self.reads.by_id(
            context.campaign, character_id, "sheet.error.not_found", missing
        )
        return context.campaign, upgraded(character), context.system, context.settings

    async def show(
        self, place: Place, actor: Actor, name: str | None = None, *, as_opponent: bool = False
    ) -> CharacterView:
        context = await self.contexts.load(place)
        if name is None:  # the actor's own: the cache's (as_opponent changes only names)
            character = await self.reads.character(context.campaign, actor, None)
        else:
            async with self.sessions() as session:
                character = await find_character(
                    session, context.campaign, actor, name, as_opponent=as_opponent
                )
        return character_view(context, character)

    async def list(
        self, place: Place, actor: Actor, *, npcs: bool = False, deleted: bool = False
    ) -> tuple[CharacterSummary, ...]:
        context = await self.contexts.load(place)
        referee = is_referee(context.campaign, actor)
        if deleted and not referee:
            raise NotAllowed("sheet.error.deleted_gm_only")
        async with self.sessions() as session:
            query = select(Character).where(
                Character.guild_id == context.campaign.guild_id,
                Character.campaign_id == context.campaign.id,
                Character.is_npc == npcs,
            )
            if deleted:
                query = query.where(col(Character.deleted_at).is_not(None))
            else:
                query = query.where(col(Character.deleted_at).is_(None))
            rows = (await session.exec(query.order_by(Character.name_key))).all()
            active = await session.get(ActiveCharacter, (context.campaign.id, actor.user_id))
        return tuple(
            CharacterSummary(
                id=saved_id(c),
                name=c.name,
                owner_user_id=c.owner_user_id,
                is_npc=c.is_npc,
                hidden=c.hidden,
                active=bool(active and active.character_id == c.id),
                deleted=c.deleted_at is not None,
            )
            for c in rows
            if referee or not (c.is_npc and c.hidden)
        )

    async def names(
        self, place: Place, actor: Actor, current: str, *, npcs: bool | None = None
    ) -> builtins.list[str]:  # `list` here is the method above
        """Autocomplete: names the actor may see in this campaign, best matches first, capped."""
        campaign = await self.campaigns.find(place)
        if campaign is None:
            return []
        referee = is_referee(campaign, actor)
        needle = name_key(current)
        # Only the columns ranked, only the rows that match: no sheet JSON is read.
        query = select(Character.name, Character.name_key, Character.owner_user_id).where(
            Character.guild_id == campaign.guild_id,
            Character.campaign_id == campaign.id,
            col(Character.deleted_at).is_(None),
            col(Character.name_key).contains(needle, autoescape=True),
        )
        if npcs is not None:
            query = query.where(Character.is_npc == npcs)
        if not referee:
            query = query.where(not_(and_(col(Character.is_npc), col(Character.hidden))))
        async with self.sessions() as session:
            rows = (await session.exec(query)).all()

        def rank(row: tuple[str, str, int]) -> tuple[bool, bool, str]:
            _name, key, owner_user_id = row
            return (not key.startswith(needle), owner_user_id != actor.user_id, key)

        return [name for name, _key, _owner in sorted(rows, key=rank)][:25]

    # -- writing -------------------------------------------------------------------------

    async def create(
        self,
        place: Place,
        actor: Actor,
        sheet: Mapping[str, Any],
        *,
        is_npc: bool = False,
        hidden: bool = False,
        owner_user_id: int | None = None,
        make_active: bool = True,
        same_transaction: Callable[[AsyncSession], Awaitable[None]] | None = None,
        needs_approval: bool = False,
    ) -> CharacterView:
        """Store a complete, legal sheet as a new character (refuses with every problem listed).

        Where the campaign asks for it (``aprobar_personajes``), a player's new character is
        stored ``pending`` and not made active: it plays once the GM approves it
        (:mod:`bot.services.sheets.approvals`).  The referees' own characters need no approval.
        ``needs_approval`` asks for it whatever the setting (a player's import that sets
        referee-only fields)."""
        context = await self.contexts.load(place)
        pending = (
            not is_npc
            and (needs_approval or bool(context.settings.get(APPROVE_CHARACTERS, False)))
            and not is_referee(context.campaign, actor)
        )
        if is_npc and not is_referee(context.campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        name, sheet = _new_sheet(context.campaign, context.system, context.settings, sheet, is_npc)
        waiting = await _sheetless(self.sessions, context.campaign, name, is_npc)
        if waiting is not None:  # an Umbría character: the wizard builds the sheet it lacked
            character = await _complete(
                self.sessions, context.campaign, actor, waiting, sheet, pending=pending,
                make_active=make_active, same_transaction=same_transaction,
            )  # fmt: skip
            return character_view(context, character)
        owner = owner_user_id or actor.user_id
        cap = None if is_npc else int(context.settings.get(CHARACTER_CAP, 10))
        character = _new_row(
            context.campaign, owner, sheet, is_npc=is_npc, hidden=hidden, pending=pending
        )
        try:
            async with self.sessions() as session, session.begin():
                if cap is not None:
                    await lock_campaign(session, saved_id(context.campaign))
                session.add(character)
                await session.flush()
                if cap is not None:
                    await _check_cap(session, context.campaign, owner, cap)
                if make_active and not is_npc and not pending:
                    await _set_active(session, context.campaign, actor.user_id, saved_id(character))
                if same_transaction is not None:
                    # e.g. closing the creation draft: both happen or neither does
                    await same_transaction(session)
        except IntegrityError:
            raise name_clash(context.campaign, actor, name) from None
        return character_view(context, character)

    async def use(self, place: Place, actor: Actor, name: str) -> CharacterView:
        """Make ``name`` the actor's character in this campaign (one per member per campaign)."""
        context = await self.contexts.load(place)
        async with self.sessions() as session, session.begin():
            character = await find_character(session, context.campaign, actor, name, npc=False)
            if character.owner_user_id != actor.user_id and not is_referee(context.campaign, actor):
                raise NotAllowed("sheet.error.not_owner", name=character.name)
            require_playable(character)
            await _set_active(session, context.campaign, actor.user_id, saved_id(character))
        return character_view(context, character)

    async def update_sheet(
        self,
        place: Place,
        actor: Actor,
        name: str | None,
        change: Callable[[dict[str, Any], GameSystem, Mapping[str, Any]], Mapping[str, Any]],
        *,
        validate: bool = True,
        character_id: int | None = None,
    ) -> CharacterView:
        """Apply ``change(sheet, system, settings) -> new sheet`` through :class:`SheetWriter`.

        Kept for callers written before the typed changes of :mod:`bot.services.sheets.changes`
        (prefer those: they return typed results instead of smuggling them out of a callback).
        """
        applied = await self.writer.apply(
            place, actor, Callback(change, validate), name=name, character_id=character_id
        )
        return applied.view

    async def adjust_inventory(
        self, place: Place, actor: Actor, item: str, quantity: int, name: str | None = None
    ) -> CharacterView:
        """``/sheet item``: add or remove ``quantity`` of ``item`` on the current sheet (the
        system refuses an empty name or a quantity of 0: :func:`rules.inventory.item_request`)."""
        change = AdjustInventory(item.strip(), quantity)
        return (await self.writer.apply(place, actor, change, name=name)).view

    async def adjust_money(
        self,
        place: Place,
        actor: Actor,
        amount: int,
        currency: str | None = None,
        name: str | None = None,
    ) -> tuple[CharacterView, Purse]:
        """``/sheet money``: add or spend on the current sheet (never below zero); the
        character as written and its purse after the change (currency and balance)."""
        context = await self.contexts.load(place)
        if not context.settings.get(FREE_MONEY, True) and not is_referee(context.campaign, actor):
            raise NotAllowed("flows.money_gm_only")  # the setting dinero_libre is off
        change = AdjustMoney(amount, currency)
        applied = await self.writer.apply(place, actor, change, name=name)
        return applied.view, applied.value

    async def set_field(
        self, place: Place, actor: Actor, name: str | None, path: str, raw: str
    ) -> CharacterView:
        """``/sheet set``: parse ``raw`` by the field's spec and store it at ``path``."""
        context = await self.contexts.load(place)
        fields = sheet_fields(context.system, context.settings)
        spec = read_field(fields, path)
        if spec is None:
            raise DomainError(
                "sheet.error.unknown_field",
                field=path,
                # what the user can type: the labels /sheet show prints (was: raw paths)
                valid=whole_list(_closest(path, list(dict.fromkeys(s.label for s in fields)))),
            )
        value = parse_field(spec, raw, context.system.id)
        referee = is_referee(context.campaign, actor)
        if spec.referee_only and not referee:
            raise NotAllowed("sheet.error.referee_field", field=spec.label)
        if is_guarded(spec.path, guarded_paths(context.system, context.settings, referee=referee)):
            # salud_por_comandos (issue 23 §3): health changes through the rules' commands;
            # someone else's character is refused as not theirs first, as any other field
            async with self.sessions() as session:
                found = await find_character(session, context.campaign, actor, name)
            require_editor(context.campaign, found, actor)
            raise NotAllowed("sheet.error.health_field", field=spec.label)

        return (await self.writer.apply(place, actor, SetField(spec.path, value), name=name)).view

    @overload
    async def delete(
        self, place: Place, actor: Actor, name: str, confirm: None = None
    ) -> CharacterSummary: ...

    @overload
    async def delete(
        self, place: Place, actor: Actor, name: str, confirm: Confirm
    ) -> CharacterSummary | None: ...

    async def delete(
        self, place: Place, actor: Actor, name: str, confirm: Confirm | None = None
    ) -> CharacterSummary | None:
        """Soft delete: hidden from everyone, restorable by a referee.  ``confirm`` asks
        first, naming the character as the actor sees it (None: declined)."""
        if confirm is not None:
            name = (await self.show(place, actor, name)).name
            if not await confirm(name=name):
                return None
        context = await self.contexts.load(place)
        async with self.sessions() as session, session.begin():
            character = await find_character(session, context.campaign, actor, name)
            require_editor(context.campaign, character, actor)
            await update_versioned(  # reported: the sheet changed as they deleted it
                session,
                Character,
                col(Character.id) == character.id,
                character.version,
                deleted_at=utcnow(),
                deleted_by=actor.user_id,
            )
            active = await session.get(
                ActiveCharacter, (context.campaign.id, character.owner_user_id)
            )
            if active is not None and active.character_id == character.id:
                await session.delete(active)
        return CharacterSummary(
            saved_id(character),
            character.name,
            character.owner_user_id,
            character.is_npc,
            character.hidden,
            False,
            True,
        )

    async def restore(self, place: Place, actor: Actor, name: str) -> CharacterView:
        context = await self.contexts.load(place)
        if not is_referee(context.campaign, actor):
            raise NotAllowed("sheet.error.restore_gm_only")
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(Character)
                    .where(
                        Character.campaign_id == context.campaign.id,
                        Character.guild_id == context.campaign.guild_id,
                        Character.name_key == name_key(name),
                        col(Character.deleted_at).is_not(None),
                    )
                    .order_by(col(Character.deleted_at).desc())
                )
            ).all()
        if not rows:
            raise DomainError("sheet.error.not_found_deleted", name=name)
        character = rows[0]
        try:
            async with self.sessions() as session, session.begin():
                await update_versioned(  # reported: restored or changed meanwhile
                    session,
                    Character,
                    col(Character.id) == character.id,
                    character.version,
                    deleted_at=None,
                    deleted_by=None,
                )
        except IntegrityError:
            raise DomainError("sheet.error.name_taken", name=character.name) from None
        async with self.sessions() as session:
            fresh = await session.get_one(Character, character.id)
        return character_view(context, fresh)


def _closest(typed: str, paths: list[str]) -> list[str]:
    """The fields a mistyped name probably meant first, then the rest (the list is summarised
    past its budget, so the likely ones must lead)."""
    folded = {fold(p): p for p in paths}
    near = difflib.get_close_matches(fold(typed), list(folded), n=5, cutoff=0.5)
    first = [folded[n] for n in near]
    return first + [p for p in paths if p not in first]


def parse_field(spec: FieldSpec, raw: str, system: str | None = None) -> Any:
    """Text typed in ``/sheet set`` → the field's value, or a translated problem
    (:func:`rules.values.parse_value` reads it, the same way as a campaign setting).
    A name keeps the 100-character limit of every other path (autocomplete shows it).

    A field of ids (``piramide``, ``escudo``…) of ``system`` takes its display name in
    either language («Versátil», «shield») as well as the id, and a refusal lists the
    display names (:func:`bot.words.named_params`), never «versatil, especialista»."""
    kind = field_kind(system, spec.path) if system is not None else None
    if kind is not None and spec.kind is FieldKind.CHOICE:
        raw = _choice_by_name(system, kind, spec.choices, raw)
    if spec.path == "name":  # the limit is a name's (it said «1 a 500»), visible, its key whole
        return checked_name(raw)
    try:
        value = parse_value(
            spec.kind, raw, minimum=spec.minimum, maximum=spec.maximum, choices=spec.choices
        )
    except BadValue as bad:
        params = {"field": spec.label, **bad.params}
        if bad.reason == "expected_choice":
            params["choices"] = whole_list(list(spec.choices))
            if kind is not None:  # named in the reader's language when rendered
                params.update(system=system, choice_kind=kind, choice_ids=tuple(spec.choices))
        raise RulesError(Problem(f"sheet.problem.{bad.reason}", spec.path, params)) from None
    return value


def _choice_by_name(system: str | None, kind: str, choices: Sequence[str], raw: str) -> str:
    """The id whose display name (either language) is ``raw``; else ``raw`` for the parser."""
    wanted = fold(raw)
    for choice in choices:
        if any(fold(display(system, kind, choice, locale)) == wanted for locale in LOCALES):
            return choice
    return raw


def get_path(sheet: Mapping[str, Any], path: str) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _new_row(
    campaign: Campaign,
    owner: int,
    sheet: Mapping[str, Any],
    *,
    is_npc: bool,
    hidden: bool,
    pending: bool,
) -> Character:
    """A new character's row (its sheet already checked by :func:`_new_sheet`)."""
    name = str(sheet["name"])
    return Character(
        guild_id=campaign.guild_id,
        campaign_id=saved_id(campaign),
        owner_user_id=owner,
        name=name,
        name_key=name_key(name),
        system=campaign.system,
        sheet=dict(sheet),
        is_npc=is_npc,
        hidden=hidden,
        approval="pending" if pending else "approved",
    )


def _new_sheet(
    campaign: Campaign,
    system: GameSystem,
    settings: Mapping[str, Any],
    sheet: Mapping[str, Any],
    is_npc: bool,
) -> tuple[str, dict[str, Any]]:
    """A new character's name and sheet as stored: a name a reader can see, within
    :data:`MAX_NAME` (:func:`checked_name`), the campaign's system, a player's sheet without
    NPC keys, and every problem the system finds refused at once (RulesError)."""
    name = checked_name(str(sheet.get("name", "")))
    if sheet.get("system") != campaign.system:
        raise DomainError(
            "sheet.error.wrong_system",
            system=systems.name_of(str(sheet.get("system"))[:20]),
            expected=systems.name_of(campaign.system),
        )
    stored = player_sheet(sheet) if not is_npc else dict(sheet)
    stored["name"] = name
    problems = system.validate(stored, settings)
    if problems:
        raise RulesError(list(problems))
    return name, stored


async def _check_cap(session: AsyncSession, campaign: Campaign, owner: int, cap: int) -> None:
    """A member keeps at most ``cap`` live characters per campaign (setting
    ``personajes_por_jugador``): a runaway script cannot fill the campaign.

    Counted *after* the new row is flushed, inside the inserting transaction and behind
    :func:`lock_campaign`, so two creations at the same moment cannot both pass a count
    that each made before the other's insert."""
    count = (
        await session.exec(
            select(func.count())
            .select_from(Character)
            .where(
                Character.campaign_id == campaign.id,
                Character.owner_user_id == owner,
                Character.is_npc == False,  # noqa: E712 - SQL, not Python
                col(Character.deleted_at).is_(None),
            )
        )
    ).one()
    if count > cap:
        raise DomainError("sheet.error.too_many_characters", limit=cap)


async def _set_active(
    session: AsyncSession, campaign: Campaign, user_id: int, character_id: int
) -> None:
    """Make ``character_id`` the member's character in the campaign (one per member)."""
    active = await session.get(ActiveCharacter, (campaign.id, user_id))
    if active is None:
        session.add(
            ActiveCharacter(
                campaign_id=saved_id(campaign),
                user_id=user_id,
                guild_id=campaign.guild_id,
                character_id=character_id,
            )
        )
    else:
        active.character_id = character_id
        session.add(active)


async def _sheetless(
    sessions: async_sessionmaker[AsyncSession], campaign: Campaign, name: str, is_npc: bool
) -> Character | None:
    """The live character called ``name`` that came without a sheet (``no_sheet``)."""
    async with sessions() as session:
        return (
            await session.exec(
                select(Character).where(
                    Character.campaign_id == campaign.id,
                    Character.name_key == name_key(name),
                    col(Character.deleted_at).is_(None),
                    Character.approval == NO_SHEET,
                    Character.is_npc == is_npc,
                )
            )
        ).first()


async def _complete(
    sessions: async_sessionmaker[AsyncSession],
    campaign: Campaign,
    actor: Actor,
    waiting: Character,
    sheet: Mapping[str, Any],
    *,
    pending: bool,
    make_active: bool,
    same_transaction: Callable[[AsyncSession], Awaitable[None]] | None,
) -> Character:
    """The sheet a sheetless character lacked, written on it (same id, profile, posts and
    log): its owner or a referee; compare-and-set on its version."""
    require_editor(campaign, waiting, actor)
    approval = "pending" if pending else "approved"
    async with sessions() as session, session.begin():
        await update_versioned(  # reported: completed or changed meanwhile
            session,
            Character,
            col(Character.id) == waiting.id,
            waiting.version,
            col(Character.approval) == NO_SHEET,
            sheet=dict(sheet),
            name=str(sheet["name"]),
            approval=approval,
            updated_at=utcnow(),
        )
        own = waiting.owner_user_id == actor.user_id
        if make_active and own and not waiting.is_npc and approval == "approved":
            await _set_active(session, campaign, actor.user_id, saved_id(waiting))
        if same_transaction is not None:
            await same_transaction(session)
        character = await session.get(Character, saved_id(waiting), populate_existing=True)
        assert character is not None  # just written
    return character
