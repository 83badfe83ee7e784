"""``/macro``: named rolls per character and per campaign (issue 24 §4).

``ataque`` → ``[[1d20+5]] daño [[1d8+2]]``, or a sheet option with a modifier (``Pilotar +2``):
a character's macros belong to it (its player or the GM adds them), the campaign's are the
GM's (for NPCs, usable by any speaker).  ``[[ataque]]`` in typed text, ``/roll ataque`` and
``ataque`` in ``/post``'s roll field roll what it holds.  Inside ``[[…]]`` a name resolves in
a fixed order — the speaker's macro, then the campaign's, then the sheet's option — so a
macro may not take the name of a sheet option when it is made.  A macro may use another one
by name, to :data:`MAX_DEPTH` levels (a loop ends there with an error), and one use rolls at
most :data:`~bot.services.play.inline.MAX_ROLLS` times in all.  Names are validated (a
letter first; letters, digits, spaces, ``-`` and ``_``; never dice notation) and at most
:data:`MAX_MACROS` per owner.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.locks import lock_campaign
from bot.db.models import Campaign, Character, Macro, saved_id
from bot.services.campaigns.service import is_referee
from bot.services.shared.context import Actor, Place
from bot.services.shared.errors import DomainError, NotReferee
from bot.services.shared.retry import retrying
from bot.services.shared.typed_text import inline_rolls, is_dice, marked_private
from bot.services.shared.versioned import StaleWrite, update_versioned
from bot.services.sheets.access import find_character, require_editor
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.schema import upgraded_sheet
from rules.systems.base import CheckOption, GameSystem
from rules.text import fold

__all__ = [
    "MAX_BODY",
    "MAX_DEPTH",
    "MAX_MACROS",
    "MAX_NAME",
    "MacroBook",
    "MacroService",
    "MacroView",
    "expand",
    "macro_parts",
]

MAX_NAME = 32
MAX_BODY = 200
MAX_MACROS = 25
#: A macro that uses another one, that uses another: no deeper.
MAX_DEPTH = 3
CAMPAIGN = "campaign"
_NAME = re.compile(r"^[^\W\d_][\w\- ]*$")


@dataclass(frozen=True, slots=True)
class MacroView:
    name: str
    body: str
    character: str | None  # None: the campaign's
    version: int


@dataclass(frozen=True, slots=True)
class MacroBook:
    """The macros a speaker may use: their character's, then the campaign's."""

    character: str | None
    own: tuple[MacroView, ...]
    shared: tuple[MacroView, ...]

    def get(self, name: str) -> MacroView | None:
        key = fold(name)
        for macro in (*self.own, *self.shared):
            if fold(macro.name) == key:
                return macro
        return None

    def names(self) -> list[str]:
        return [m.name for m in (*self.own, *self.shared)]


def macro_parts(body: str) -> list[str]:
    """What a macro rolls: each ``[[…]]`` of its body, or the whole body as one roll."""
    spans = inline_rolls(body)
    return [span.inner for span in spans] if spans else [body.strip()]


def _options_key(options: tuple[CheckOption, ...]) -> set[str]:
    """Every name a sheet option answers to: its key, its label, the key's last part."""
    names: set[str] = set()
    for option in options:
        names |= {fold(option.key), fold(option.label), fold(option.key.split(":")[-1])}
    return names


class MacroService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], characters: CharacterService
    ) -> None:
        self.sessions = sessions
        self.characters = characters

    async def add(
        self,
        place: Place,
        actor: Actor,
        name: str,
        body: str,
        *,
        character: str | None = None,
        campaign_wide: bool = False,
    ) -> tuple[MacroView, bool]:
        """Add (or change) a macro; whether it replaced one of the same name."""
        name, body = _check_name(name), _check_body(body)
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings

        async def attempt() -> tuple[MacroView, bool]:  # retried: the member asked for it
            try:
                async with self.sessions() as session, session.begin():
                    owner = await self._owner(session, campaign, actor, character, campaign_wide)
                    await self._refuse_option_name(session, campaign, owner, name, system, settings)
                    return await self._write(session, campaign, actor, owner, name, body)
            except IntegrityError:  # another first use of the name: read it again, change it
                raise StaleWrite() from None

        return await retrying(attempt)

    async def _owner(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        character: str | None,
        campaign_wide: bool,
    ) -> Character | None:
        """The character the macro belongs to (its owner or the GM), or None: the campaign's
        (the GM's only)."""
        if campaign_wide:
            if not is_referee(campaign, actor):
                raise NotReferee("macro.error.campaign_gm_only")
            return None
        target = await find_character(session, campaign, actor, character)
        require_editor(campaign, target, actor)
        return target

    @staticmethod
    async def _refuse_option_name(
        session: AsyncSession,
        campaign: Campaign,
        owner: Character | None,
        name: str,
        system: GameSystem,
        settings: Mapping[str, Any],
    ) -> None:
        """A macro never takes a sheet option's name: the character's options, or for a
        campaign macro the options of every character of the campaign."""
        if owner is not None:
            sheets = [owner]
        else:
            query = select(Character).where(
                Character.campaign_id == campaign.id, col(Character.deleted_at).is_(None)
            )
            sheets = list((await session.exec(query.limit(500))).all())
        taken: set[str] = _options_key(
            tuple(system.check_options(system.new_sheet(name, settings), settings))
        )
        for sheet_owner in sheets:
            sheet = upgraded_sheet(sheet_owner)
            taken |= _options_key(tuple(system.check_options(sheet, settings)))
        if fold(name) in taken:
            raise DomainError("macro.error.option_name", name=name)

    async def _write(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        owner: Character | None,
        name: str,
        body: str,
    ) -> tuple[MacroView, bool]:
        owner_key = f"c{saved_id(owner)}" if owner is not None else CAMPAIGN
        await lock_campaign(session, saved_id(campaign))
        existing = (
            await session.exec(
                select(Macro).where(
                    Macro.campaign_id == campaign.id,
                    Macro.owner_key == owner_key,
                    Macro.name_key == fold(name),
                )
            )
        ).first()
        who = owner.name if owner is not None else None
        if existing is not None:
            seen = existing.version  # the update leaves the row's attributes to be read again
            await update_versioned(
                session, Macro, col(Macro.id) == existing.id, seen, name=name, body=body
            )
            return MacroView(name, body, who, seen + 1), True
        count = len(
            (
                await session.exec(
                    select(Macro.id).where(
                        Macro.campaign_id == campaign.id, Macro.owner_key == owner_key
                    )
                )
            ).all()
        )
        if count >= MAX_MACROS:
            raise DomainError("macro.error.too_many", limit=MAX_MACROS)
        session.add(
            Macro(
                guild_id=campaign.guild_id,
                campaign_id=saved_id(campaign),
                character_id=saved_id(owner) if owner is not None else None,
                owner_key=owner_key,
                name=name,
                name_key=fold(name),
                body=body,
                created_by=actor.user_id,
            )
        )
        await session.flush()
        return MacroView(name, body, who, 1), False

    async def remove(
        self,
        place: Place,
        actor: Actor,
        name: str,
        *,
        character: str | None = None,
        campaign_wide: bool = False,
    ) -> MacroView:
        campaign = (await self.characters.contexts.load(place)).campaign
        async with self.sessions() as session, session.begin():
            owner = await self._owner(session, campaign, actor, character, campaign_wide)
            owner_key = f"c{saved_id(owner)}" if owner is not None else CAMPAIGN
            found = (
                await session.exec(
                    select(Macro).where(
                        Macro.campaign_id == campaign.id,
                        Macro.owner_key == owner_key,
                        Macro.name_key == fold(name),
                    )
                )
            ).first()
            if found is None:
                raise DomainError("macro.error.not_found", name=name.strip()[:MAX_NAME])
            await session.exec(delete(Macro).where(col(Macro.id) == found.id))
        return MacroView(found.name, found.body, owner.name if owner else None, found.version)

    async def book(self, place: Place, actor: Actor, character: str | None) -> MacroBook:
        """The macros ``character`` (a name the actor may see; None: their active one, if
        any) may use: its own, then the campaign's."""
        campaign = (await self.characters.contexts.load(place)).campaign
        async with self.sessions() as session:
            owner: Character | None = None
            try:
                owner = await find_character(session, campaign, actor, character)
            except DomainError:
                if character is not None:
                    raise
            return await self._book(session, campaign, owner)

    async def book_of(self, campaign_id: int, character_id: int | None) -> MacroBook:
        """The same for a speaker known by id (a post's), without a visibility check."""
        async with self.sessions() as session:
            campaign = await session.get_one(Campaign, campaign_id)
            owner = await session.get(Character, character_id) if character_id else None
            return await self._book(session, campaign, owner)

    @staticmethod
    async def _book(
        session: AsyncSession, campaign: Campaign, owner: Character | None
    ) -> MacroBook:
        keys = [CAMPAIGN] + ([f"c{saved_id(owner)}"] if owner is not None else [])
        rows = (
            await session.exec(
                select(Macro)
                .where(Macro.campaign_id == campaign.id, col(Macro.owner_key).in_(keys))
                .order_by(col(Macro.name_key))
            )
        ).all()
        who = owner.name if owner is not None else None
        own = tuple(
            MacroView(m.name, m.body, who, m.version) for m in rows if m.owner_key != CAMPAIGN
        )
        shared = tuple(
            MacroView(m.name, m.body, None, m.version) for m in rows if m.owner_key == CAMPAIGN
        )
        return MacroBook(who, own, shared)


def _check_name(raw: str) -> str:
    name = " ".join(raw.split())
    if not name or len(name) > MAX_NAME or not _NAME.match(name) or is_dice(name):
        raise DomainError("macro.error.bad_name", limit=MAX_NAME)
    if fold(name) in ("narrador", "narrator"):
        raise DomainError("macro.error.bad_name", limit=MAX_NAME)
    return name


def _check_body(raw: str) -> str:
    body = raw.strip()
    if not body or len(body) > MAX_BODY or "\n" in body:
        raise DomainError("macro.error.bad_body", limit=MAX_BODY)
    parts = inline_rolls(body) if "[[" in body else []
    if marked_private(parts, None) or (not parts and marked_private([], body)):
        raise DomainError("macro.error.private")
    return body


def expand(book: MacroBook, written: str, depth: int = 0) -> list[tuple[str, str]] | None:
    """What ``[[written]]`` rolls when ``written`` names a macro: (roll text, macro name) for
    each roll in order, a macro used inside another expanded in place; None: no macro has
    that name.  Bounded: :data:`MAX_DEPTH` levels (a macro that uses itself ends there)."""
    macro = book.get(written)
    if macro is None:
        return None
    if depth >= MAX_DEPTH:
        raise DomainError("macro.error.too_deep", name=macro.name, limit=MAX_DEPTH)
    out: list[tuple[str, str]] = []
    for part in macro_parts(macro.body):
        nested = None if is_dice(part) else expand(book, part, depth + 1)
        out.extend(nested if nested is not None else [(part, macro.name)])
    return out
