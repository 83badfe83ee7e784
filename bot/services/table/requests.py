"""GM roll requests (issue 12 §3): ``/request check who option [difficulty] [hidden] [modifier]``.

The GM asks some characters for a check; the bot posts one message with a button per
character.  Each press rolls that character's check through :class:`CheckService` (the same
rules, log and sheet effects as ``/check``) and records it **in the roll's own transaction**
with a compare-and-set on that character's own row (:mod:`.request_entries`): two presses
for the same character at once give exactly one roll (the loser's roll is rolled back, never
shown), a press after the GM closed the request is refused, and presses for different
characters never conflict (issue 26: a whole table pressing at once).

``who`` is typed like a mature bot's target list: member mentions (``@ana @bruno``: each
member's active character), character names separated by commas (an NPC the GM runs, or one
of a member's several characters) and the word ``todos``/``grupo``/``party``/``all`` for the
whole party — in a scene, its players (all of them when the scene is for everyone); elsewhere,
every member with an active character in the campaign.  Everything is bounded before any
work: at most :data:`MAX_WHO` characters of text and :data:`MAX_TARGETS` characters asked.

``hidden`` decides what players see: ``visible`` (the numbers, like ``/check``), ``outcome``
(success or failure only) or ``nothing`` (only that the character rolled).  The GM always
sees the numbers (GM-channel copy, the results button); the request never shows a hidden
difficulty, and hidden rolls are private in the log.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import (
    ActiveCharacter,
    Campaign,
    Character,
    RollLog,
    RollRequest,
    RollRequestEntry,
    Scene,
    saved_id,
    utcnow,
)
from bot.grammar import gender_of
from bot.i18n import LOCALES
from bot.services.campaigns.service import is_referee
from bot.services.play.checks import CheckOrder, CheckService, CheckView, parse_circumstances
from bot.services.shared.audience import (
    NO_REVEALS,
    PUBLIC,
    Audience,
    Part,
    Reader,
    Reveals,
    Secrecy,
    Shown,
    Sight,
    request_seals,
    show,
    sight,
)
from bot.services.shared.context import Actor, Place, Reply
from bot.services.shared.errors import DomainError, NotAllowed, NotReferee
from bot.services.shared.labels import Named, resolve, spoken
from bot.services.shared.retry import retrying
from bot.services.shared.versioned import update_versioned
from bot.services.sheets.access import find_character, require_playable
from bot.services.sheets.characters import CharacterService
from bot.services.sheets.schema import upgraded_sheet
from bot.services.table.request_entries import (
    Rolled,
    claim_completion,
    claim_entry,
    entry_rows,
    rolls_of,
)
from bot.words import Localized, problem_text
from rules.combat.health import Act, require
from rules.systems.base import (
    CheckRequest,
    CheckResult,
    GameSystem,
    Problem,
    RulesError,
    capabilities,
)

__all__ = [
    "HIDDEN",
    "MAX_TARGETS",
    "MAX_WHO",
    "Entry",
    "Press",
    "RequestService",
    "RequestView",
    "gm_runs",
    "parse_who",
    "request_for",
]

HIDDEN = ("visible", "outcome", "nothing")
#: What players read of why a hidden NPC could not roll (its reasons are sealed).
UNABLE_SEALED = "request.unable_sealed"
#: Characters one request asks at most (one button each, with room for the GM's buttons in
#: Discord's 25 components of a message).
MAX_TARGETS = 20
#: Characters of ``who`` read at most.
MAX_WHO = 1000
#: Characters of ``circumstances`` kept (as ``/check`` takes them).
MAX_CIRCUMSTANCES = 200
PARTY_WORDS = frozenset({"todos", "grupo", "party", "all", "everyone", "@todos", "@grupo"})
_MENTION = re.compile(r"<@!?(\d{1,20})>")


@dataclass(frozen=True, slots=True)
class Who:
    """``who`` read: members (by id), character names, and whether the party was asked."""

    members: tuple[int, ...]
    names: tuple[str, ...]
    party: bool


def parse_who(text: str) -> Who:
    """``"<@1> <@!2>, Trasgo, todos"`` → members 1 and 2, the character «Trasgo», the party.

    Only the ids inside mentions are read (never a mention's text), so nothing typed here can
    ping anyone or smuggle in markup; names are matched as characters of the campaign."""
    if len(text) > MAX_WHO:
        raise DomainError("request.error.who_too_long", limit=MAX_WHO)
    members = tuple(dict.fromkeys(int(m) for m in _MENTION.findall(text)))
    rest = _MENTION.sub(",", text)
    names: list[str] = []
    party = False
    for piece in rest.replace(";", ",").split(","):
        name = piece.strip()
        if not name:
            continue
        if name.casefold() in PARTY_WORDS:
            party = True
        else:
            names.append(name)
    if not members and not names and not party:
        raise DomainError("request.error.who_empty")
    return Who(members, tuple(dict.fromkeys(names)), party)


def gm_runs(campaign: Campaign, character: Character) -> bool:
    """Characters the referees press for: NPCs, and characters held by the campaign's GM
    (a player's character handed to the GM for a while is owned by the GM meanwhile)."""
    return character.is_npc or character.owner_user_id == campaign.gm_user_id


@dataclass(frozen=True, slots=True)
class Entry:
    """One requested character and, once rolled, its result."""

    character_id: int
    name: str
    owner_id: int
    log_id: int | None = None
    total: int | None = None
    outcome: str | None = None
    by: int | None = None
    #: why it could not roll when asked (its problems: «está inconsciente»): listed, no button
    unable: tuple[Problem, ...] = ()
    #: the roll's secrecy, as its log row has it (a hidden NPC's numbers, a hidden request)
    secrecy: Secrecy = PUBLIC
    rolled_at: datetime | None = None

    @property
    def rolled(self) -> bool:
        return self.log_id is not None

    @property
    def done(self) -> bool:
        """Nothing more to wait for: rolled, or unable to."""
        return self.rolled or bool(self.unable)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "character_id": self.character_id,
            "name": self.name,
            "owner_id": self.owner_id,
            "log_id": self.log_id,
            "total": self.total,
            "outcome": self.outcome,
            "by": self.by,
            **({"secrecy": self.secrecy.columns()} if self.secrecy != PUBLIC else {}),
            **({"rolled_at": self.rolled_at.isoformat()} if self.rolled_at else {}),
        }
        if self.unable:
            data["unable"] = [
                {"key": p.key, "params": {k: _plain(v) for k, v in p.params.items()}}
                for p in self.unable
            ]
        return data

    @classmethod
    def of(cls, data: dict[str, Any]) -> Entry:
        stored = data.get("secrecy") if isinstance(data.get("secrecy"), dict) else {}
        assert isinstance(stored, dict)
        rolled_at = data.get("rolled_at")
        return cls(
            int(data["character_id"]),
            str(data["name"]),
            int(data["owner_id"]),
            data.get("log_id"),
            data.get("total"),
            data.get("outcome"),
            data.get("by"),
            unable=tuple(
                Problem(str(p["key"]), "", dict(p.get("params") or {}))
                for p in data.get("unable") or ()
            ),
            secrecy=Secrecy.of_row(stored) if stored else PUBLIC,
            rolled_at=datetime.fromisoformat(rolled_at) if isinstance(rolled_at, str) else None,
        )

    def seen(self, seen: Sight) -> Entry:
        """The entry as a reader with this sight of its roll may read it."""
        return replace(
            self,
            total=seen.value(Part.TOTAL, self.total),
            outcome=seen.value(Part.OUTCOME, self.outcome),
        )


def _plain(value: Any) -> Any:
    """A problem's parameter as JSON keeps it (a state or a name: text and numbers)."""
    return value if isinstance(value, (str, int, float, bool)) or value is None else str(value)


@dataclass(frozen=True, slots=True)
class RequestView:
    id: int
    campaign_id: int
    channel_id: int
    message_id: int | None
    requested_by: int
    option: str
    label: str
    difficulty: int | None
    modifier: int
    hidden: str
    status: str
    entries: tuple[Entry, ...]
    version: int
    gm_channel_id: int | None
    circumstances: str | None = None
    #: the GM set a difficulty (``difficulty`` is ``None`` for readers it is sealed from)
    asked_difficulty: bool = False

    @property
    def complete(self) -> bool:
        """Every character asked has rolled (or could not)."""
        return all(entry.done for entry in self.entries)

    @property
    def open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True, slots=True)
class Press:
    """A press that rolled: the request with this roll (every roll when it completed the
    request), the check, whether this roll was the last one asked (the GM is told once, by
    the press that completed it), and whether a referee pressed (for an NPC: sees it all)."""

    request: RequestView
    check: CheckView
    completed: bool
    referee: bool = False


def request_for(
    view: RequestView, reader: Reader, reveals: Reveals = NO_REVEALS
) -> Shown[RequestView]:
    """The request as ``reader`` may read it (the audience rule, per roll): a hidden
    difficulty and each roll's sealed numbers blanked; what a roll hides entirely (no
    request does today) reads as not rolled."""
    seals = request_seals(view.hidden)
    request = PUBLIC.sealing(*seals)

    def project(seen: Sight) -> RequestView:
        entries = []
        for entry in view.entries:
            if entry.unable:  # why it cannot roll: a hidden NPC's reasons are sealed
                entries.append(_unable_for(entry, reader, reveals))
                continue
            if not entry.rolled:
                entries.append(entry)
                continue
            # the roll's own secrecy (a hidden NPC's), and the request's mode (stored with it)
            secrecy = entry.secrecy.sealing(*seals)
            one = sight(secrecy, reader, written_at=entry.rolled_at, reveals=reveals)
            entries.append(
                entry.seen(one)
                if one is not None
                else Entry(entry.character_id, entry.name, entry.owner_id)
            )
        return replace(
            view,
            difficulty=seen.value(Part.DIFFICULTY, view.difficulty),
            entries=tuple(entries),
        )

    shown = show(request, reader, project)
    assert shown is not None  # a request's message is for everyone
    return shown


def _unable_for(entry: Entry, reader: Reader, reveals: Reveals) -> Entry:
    """An entry that could not roll, as ``reader`` may read why: a hidden NPC's reasons
    (they tell of its sheet: unconscious, without that option) become «the GM knows why»."""
    seen = sight(entry.secrecy, reader, written_at=entry.rolled_at, reveals=reveals)
    if seen is not None and seen.shows(Part.DETAIL):
        return entry
    return replace(entry, unable=(Problem(UNABLE_SEALED, "", {"name": entry.name}),))


def _entry_secrecy(rolled: Secrecy) -> Secrecy:
    """What a roll's line on the request seals: the request shows every roll to everyone
    (that is what it is for), so the line keeps the roll's sealed parts — a hidden NPC's
    numbers, the request's own mode — and not its privacy in the log."""
    return Secrecy(
        Audience.EVERYONE, rolled.player_id, rolled.sealed, rolled.npc_id, rolled.npc_sealed
    )


def _with_rolls(entry: Entry, rolled: Rolled) -> Entry:
    """An asked character as its own row says: its roll's numbers from the audit row (those
    the request stored itself before its rows existed, when that row is gone)."""
    return replace(
        entry,
        secrecy=_entry_secrecy(Secrecy.of_row(rolled.secrecy)),
        rolled_at=rolled.rolled_at,
        log_id=rolled.log_id,
        total=rolled.total if rolled.by is not None else entry.total,
        outcome=rolled.outcome if rolled.by is not None else entry.outcome,
        by=rolled.by if rolled.by is not None else entry.by,
    )


def _view(
    row: RollRequest, gm_channel_id: int | None, rolls: Mapping[int, Rolled | None]
) -> RequestView:
    """The request as stored: the asked characters, each with its roll from its own row
    (a character without one — unable to roll when asked — as ``entries`` says)."""
    entries = []
    for data in row.entries:
        entry = Entry.of(data)
        if entry.character_id in rolls:
            rolled = rolls[entry.character_id]
            entry = (
                _with_rolls(entry, rolled)
                if rolled is not None
                else Entry(entry.character_id, entry.name, entry.owner_id)
            )
        entries.append(entry)
    return RequestView(
        id=saved_id(row),
        campaign_id=row.campaign_id,
        channel_id=row.channel_id,
        message_id=row.message_id,
        requested_by=row.requested_by,
        option=row.option,
        label=row.label,
        difficulty=row.difficulty,
        modifier=row.modifier,
        hidden=row.hidden,
        status=row.status,
        entries=tuple(entries),
        version=row.version,
        gm_channel_id=gm_channel_id,
        circumstances=row.circumstances,
        asked_difficulty=row.difficulty is not None,
    )


class RequestService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        characters: CharacterService,
        checks: CheckService,
    ) -> None:
        self.sessions = sessions
        self.characters = characters
        self.checks = checks

    # -- asking ----------------------------------------------------------------------------

    async def _targets(
        self, session: AsyncSession, campaign: Campaign, actor: Actor, place: Place, who: Who
    ) -> list[Character]:
        found: dict[int, Character] = {}

        def add(character: Character) -> None:
            if len(found) >= MAX_TARGETS and saved_id(character) not in found:
                raise DomainError("request.error.too_many", limit=MAX_TARGETS)
            found[saved_id(character)] = character

        async def active_of(user_id: int) -> Character | None:
            active = await session.get(ActiveCharacter, (campaign.id, user_id))
            if active is None:
                return None
            character = await session.get(Character, active.character_id)
            if character is None or character.deleted_at is not None:
                return None
            return character

        if len(who.members) + len(who.names) > MAX_TARGETS:
            raise DomainError("request.error.too_many", limit=MAX_TARGETS)
        for user_id in who.members:
            character = await active_of(user_id)
            if character is None:
                raise DomainError("request.error.no_active", member=f"<@{user_id}>")
            add(character)
        for name in who.names:
            add(await find_character(session, campaign, actor, name))
        if who.party:
            for character in await self._party(session, campaign, place):
                add(character)
        if not found:
            raise DomainError("request.error.nobody")
        return list(found.values())

    @staticmethod
    async def _party(session: AsyncSession, campaign: Campaign, place: Place) -> list[Character]:
        """The scene's players here (all of them when the scene is for everyone), or every
        member with an active character in the campaign, in a stable order."""
        scene = (
            await session.exec(
                select(Scene).where(
                    Scene.guild_id == place.guild_id,
                    Scene.channel_id == place.channel_id,
                    Scene.campaign_id == campaign.id,
                )
            )
        ).first()
        query = (
            select(Character)
            .join(ActiveCharacter, col(ActiveCharacter.character_id) == col(Character.id))
            .where(
                ActiveCharacter.campaign_id == campaign.id,
                col(Character.deleted_at).is_(None),
                Character.is_npc == False,  # noqa: E712 - SQL, not Python
                Character.approval == "approved",
            )
            .order_by(col(Character.name_key))
            .limit(MAX_TARGETS + 1)
        )
        if scene is not None and scene.players:
            query = query.where(col(ActiveCharacter.user_id).in_(list(scene.players)))
        return list((await session.exec(query)).all())

    async def create(
        self,
        place: Place,
        actor: Actor,
        *,
        who: str,
        option: str,
        difficulty: int | None = None,
        modifier: int = 0,
        hidden: str = "visible",
        circumstances: str | None = None,
        reply: Reply[RequestView] | None = None,
    ) -> RequestView:
        """Store the request (GM only, never in a closed scene) after a dry run of the pure
        rules on each sheet (nothing logged): a character who cannot roll ``option`` now
        (unconscious, awaiting approval, without it) is listed with why and gets no button;
        the others roll (issue 23 §5).  When nobody can, it is refused with the reasons: once
        when the same for all (a difficulty an S&W save does not take), else per character.
        ``reply`` posts it; the request remembers the message sent (:meth:`attach_message`)."""
        if hidden not in HIDDEN:
            raise DomainError("request.error.bad_hidden")
        context = await self.characters.contexts.load(place)
        campaign, system, settings = context.campaign, context.system, context.settings
        if not is_referee(campaign, actor):
            raise NotReferee()
        await self.characters.campaigns.require_open_scene(place)
        circumstances = (circumstances or "").strip()[:MAX_CIRCUMSTANCES] or None
        parsed = parse_who(who)
        async with self.sessions() as session:
            targets = await self._targets(session, campaign, actor, place, parsed)
        option = _read_option(system, settings, targets, option)
        request = CheckRequest(
            option=option,
            modifier=modifier,
            difficulty=difficulty,
            circumstances=parse_circumstances(circumstances),
        )
        entries, label = _entries(system, settings, targets, request)
        row = RollRequest(
            guild_id=place.guild_id,
            campaign_id=saved_id(campaign),
            channel_id=place.channel_id,
            requested_by=actor.user_id,
            option=option[:100],
            label=label[:100],
            difficulty=difficulty,
            modifier=modifier,
            circumstances=circumstances,
            hidden=hidden,
            entries=[entry.as_json() for entry in entries],
        )
        async with self.sessions() as session, session.begin():
            session.add(row)
            await session.flush()
            session.add_all(entry_rows(saved_id(row), place.guild_id, entries))
            view = _view(row, campaign.gm_channel_id, {})  # nobody rolled yet
        sent = await reply(view) if reply is not None else None
        if sent is not None:
            await self.attach_message(view.id, place.guild_id, sent.message_id)
        return view

    async def attach_message(self, request_id: int, guild_id: int, message_id: int) -> None:
        """Remember the request's message (its buttons are keyed by the request's id; the id
        lets ``/request close`` link it).  Not versioned: only the creating command sets it,
        once, before anyone can press."""
        async with self.sessions() as session, session.begin():
            await session.exec(
                update(RollRequest)
                .where(col(RollRequest.id) == request_id, col(RollRequest.guild_id) == guild_id)
                .values(message_id=message_id)
            )

    # -- answering -------------------------------------------------------------------------

    async def _load(
        self, session: AsyncSession, place: Place, request_id: int
    ) -> tuple[RollRequest, Campaign]:
        campaign = await self.characters.campaigns.require(place)
        row = await session.get(RollRequest, request_id)
        if row is None or row.guild_id != place.guild_id or row.campaign_id != campaign.id:
            raise DomainError("request.error.not_found")
        return row, campaign

    async def _read(self, place: Place, request_id: int) -> tuple[RequestView, Campaign]:
        """The request with every roll stored so far (two queries in one session)."""
        async with self.sessions() as session:
            row, campaign = await self._load(session, place, request_id)
            rolls = await rolls_of(session, place.guild_id, request_id)
        return _view(row, campaign.gm_channel_id, rolls), campaign

    async def roll(self, place: Place, actor: Actor, request_id: int, character_id: int) -> Press:
        """A press of a character's button: its player (or a referee, for a character the GM
        runs) rolls the check once; see the module docstring for the guarantees.  Refused
        before rolling when the request or the character's row already says no; a press
        racing another for the same character is refused by the compare-and-set instead."""
        # the request's scene (its message's thread) closed since it was asked: no more rolls
        await self.characters.campaigns.require_open_scene(place)
        async with self.sessions() as session:
            row, campaign = await self._load(session, place, request_id)
            character = await session.get(Character, character_id)
            stored = await session.get(RollRequestEntry, (request_id, character_id))
        entries, index = _entry_to_roll(row, campaign, character, character_id, actor, stored)
        entry = entries[index]
        assert stored is not None  # _entry_to_roll refuses a character without a row
        seen, hidden = stored.version, row.hidden

        async def record(session: AsyncSession, log_id: int, result: CheckResult) -> None:
            await claim_entry(
                session, place.guild_id, request_id, character_id, seen, log_id, entry.name
            )
            if hidden != "visible":
                await _mark_hidden(session, log_id, hidden)

        check = await self.checks.check(
            place, actor, _check_order(row), character_id=character_id, same_transaction=record
        )
        completed = await claim_completion(self.sessions, place.guild_id, request_id)
        if completed:  # the GM's results: every roll, as stored
            view, _campaign = await self._read(place, request_id)
        else:  # the press's own answer needs only its roll
            result = check.result
            outcome = str(result.outcome) if result.outcome else None
            done = replace(
                entry, log_id=check.log_id, total=result.total, outcome=outcome, by=actor.user_id,
                secrecy=_entry_secrecy(check.secrecy), rolled_at=utcnow(),
            )  # fmt: skip
            rolls: dict[int, Rolled | None] = {}
            view = replace(
                _view(row, campaign.gm_channel_id, rolls),
                entries=(*entries[:index], done, *entries[index + 1 :]),
            )
        return Press(view, check, completed, is_referee(campaign, actor))

    # -- the GM's side ---------------------------------------------------------------------

    async def public(self, place: Place, request_id: int) -> RequestView:
        """The request as its public message shows it (the message hides what it must)."""
        view, _campaign = await self._read(place, request_id)
        return view

    async def show(self, place: Place, actor: Actor, request_id: int) -> RequestView:
        """The request with its numbers: referees only (the results button)."""
        view, campaign = await self._read(place, request_id)
        if not is_referee(campaign, actor):
            raise NotReferee()
        return view

    async def latest_open(self, place: Place, actor: Actor) -> int:
        """The newest open request of this channel (``/request close`` without an id)."""
        campaign = await self.characters.campaigns.require(place)
        if not is_referee(campaign, actor):
            raise NotReferee()
        async with self.sessions() as session:
            found = (
                await session.exec(
                    select(RollRequest.id)
                    .where(
                        RollRequest.guild_id == place.guild_id,
                        RollRequest.campaign_id == campaign.id,
                        RollRequest.channel_id == place.channel_id,
                        RollRequest.status == "open",
                    )
                    .order_by(col(RollRequest.id).desc())
                )
            ).first()
        if found is None:
            raise DomainError("request.error.none_open")
        return found

    async def close(self, place: Place, actor: Actor, request_id: int | None) -> RequestView:
        """Close the request (GM only): later presses are refused; nothing is deleted.
        Without an id, the channel's newest open request (:meth:`latest_open`).  Retried on
        a clash (a press landed meanwhile: close it as it is now)."""
        wanted = request_id if request_id is not None else await self.latest_open(place, actor)

        async def attempt() -> RequestView:
            async with self.sessions() as session:
                row, campaign = await self._load(session, place, wanted)
            if not is_referee(campaign, actor):
                raise NotReferee()
            if row.status != "open":
                raise DomainError("request.error.already_closed")
            async with self.sessions() as session, session.begin():
                await update_versioned(
                    session,
                    RollRequest,
                    col(RollRequest.id) == wanted,
                    row.version,
                    status="closed",
                    closed_at=utcnow(),
                    closed_by=actor.user_id,
                )
            view, _campaign = await self._read(place, wanted)
            return view

        return await retrying(attempt)

    async def options_for(self, place: Place, actor: Actor, who: str | None) -> list[Any]:
        """Autocomplete of ``option``: what the characters in ``who`` can roll (the first
        few), or what any sheet of the system can (a blank one) when ``who`` names nobody
        yet.  Bounded like the command; never raises."""
        try:
            context = await self.characters.contexts.load(place)
        except DomainError:
            return []
        system, settings = context.system, context.settings
        sheets: list[dict[str, Any]] = []
        if who:
            try:
                async with self.sessions() as session:
                    targets = await self._targets(
                        session, context.campaign, actor, place, parse_who(who)
                    )
                sheets = [upgraded_sheet(c) for c in targets[:5]]
            except DomainError:
                sheets = []
        if not sheets:
            sheets = [system.new_sheet("?", settings)]
        seen: dict[str, Any] = {}
        for sheet in sheets:
            try:
                for option in system.check_options(sheet, settings):
                    seen.setdefault(option.key, option)
            except RulesError:
                continue
        return list(seen.values())


def _dry_run(
    system: GameSystem,
    settings: Mapping[str, Any],
    character: Character,
    request: CheckRequest,
    rng: random.Random,
) -> CheckResult:
    """What refuses ``character``'s roll now, as a press would meet it: approval, health (the
    check a moribundo's turn asks for passes), then the rules themselves."""
    require_playable(character)
    sheet = upgraded_sheet(character)
    health = capabilities(system).health
    if health is not None:
        require(
            health.combat_state(sheet, settings), Act.CHECK, character.name, request.option,
            system=system.id, gender=gender_of(sheet),
        )  # fmt: skip
    return system.check(sheet, request, settings, rng)


def _entries(
    system: GameSystem, settings: Mapping[str, Any], targets: list[Character], request: CheckRequest
) -> tuple[list[Entry], str]:
    """Each character asked, with why it cannot roll the request now (``unable``), and the
    option's label as rolled; refused (:func:`_nobody_can`) when nobody can."""
    label = request.option
    dry = random.Random(0)
    entries: list[Entry] = []
    for character in targets:
        entry = Entry(saved_id(character), character.name, character.owner_user_id)
        try:
            result = _dry_run(system, settings, character, request, dry)
        except (RulesError, DomainError) as error:
            unable = _problems(error, character.name, request.option)
            # why a hidden NPC cannot roll tells of its sheet: the GM's until it is revealed
            secrecy = (
                PUBLIC.hiding_npc(saved_id(character), (Part.DETAIL,))
                if character.is_npc and character.hidden
                else PUBLIC
            )
            entries.append(replace(entry, unable=unable, secrecy=secrecy))
            continue
        label = result.label
        entries.append(entry)
    if all(entry.unable for entry in entries):
        raise _nobody_can(entries)
    return entries, label


def _problems(error: RulesError | DomainError, name: str, option: str) -> tuple[Problem, ...]:
    """Why a character cannot roll, as catalogue problems naming it; the option by the name
    its suggestion showed («Volar»), not its key («habilidad:Volar»)."""
    found = (
        error.problems
        if isinstance(error, RulesError)
        else [Problem(error.key, "", dict(error.params))]
    )
    shown = option.split(":", 1)[-1]
    return tuple(
        Problem(
            p.key,
            p.path,
            {"name": name, **{k: shown if v == option else v for k, v in p.params.items()}},
        )
        for p in found
    )


def _nobody_can(entries: Sequence[Entry]) -> RulesError | DomainError:
    """Nobody asked can roll: the reason once when it is the same for all (it is about the
    request: an S&W save takes no difficulty), else each character's, by name."""

    def without_name(problem: Problem) -> tuple[str, tuple[tuple[str, str], ...]]:
        params = tuple(sorted((k, str(v)) for k, v in problem.params.items() if k != "name"))
        return problem.key, params

    if len({tuple(map(without_name, entry.unable)) for entry in entries}) == 1:
        return RulesError(list(entries[0].unable))
    reasons = Localized(
        {
            locale: "\n".join(
                f"• **{entry.name}**: "
                + " ".join(problem_text(p.key, p.params, locale) for p in entry.unable)
                for entry in entries
            )
            for locale in LOCALES
        }
    )
    return DomainError("request.error.nobody_can", reasons=reasons)


def _read_option(
    system: GameSystem, settings: Mapping[str, Any], targets: Sequence[Character], typed: str
) -> str:
    """The option ``typed`` names among those the asked characters can roll (the key a
    suggestion sends, or the label the GM typed: «Percepción»); unnamed text passes on and
    the dry run says who cannot roll it."""
    offered: dict[str, Named] = {}
    for character in targets:
        try:
            for option in system.check_options(upgraded_sheet(character), settings):
                offered.setdefault(option.key, spoken(option.key, option.label))
        except RulesError:
            continue
    return resolve(typed, offered.values()) or typed.strip()


async def _mark_hidden(session: AsyncSession, log_id: int, hidden: str) -> None:
    """Hidden requests keep the numbers from players in ``/history`` too (and from their
    data export): the log row says what the player may see."""
    row = await session.get(RollLog, log_id)
    if row is not None:  # the row's secrecy says what is sealed; the detail names the mode
        row.detail = {**row.detail, "hidden_request": hidden}
        session.add(row)


def _check_order(row: RollRequest) -> CheckOrder:
    """The check a press rolls: the request's option, numbers and circumstances; a hidden
    request's roll is private and seals what its mode hides (the audience rule)."""
    return CheckOrder(
        row.option,
        modifier=row.modifier,
        difficulty=row.difficulty,
        circumstances=row.circumstances,
        private=row.hidden != "visible",
        sealed=request_seals(row.hidden),
    )


def _entry_to_roll(
    row: RollRequest,
    campaign: Campaign,
    character: Character | None,
    character_id: int,
    actor: Actor,
    stored: RollRequestEntry | None,
) -> tuple[list[Entry], int]:
    """The request's entries and which one this press rolls: refused on a closed request,
    for a character it did not ask, by someone who does not play it (its player, or the GM
    for a character the GM runs), or when already rolled (its own row says so)."""
    if row.status != "open":
        raise DomainError("request.error.closed")
    entries = [Entry.of(e) for e in row.entries]
    index = next((i for i, e in enumerate(entries) if e.character_id == character_id), -1)
    if index < 0 or character is None or character.deleted_at is not None:
        raise DomainError("request.error.not_asked")
    entry = entries[index]
    if actor.user_id != character.owner_user_id and not (
        is_referee(campaign, actor) and gm_runs(campaign, character)
    ):
        raise NotAllowed("request.error.not_yours", name=entry.name)
    if entry.unable:
        raise DomainError("request.error.unable", name=entry.name)
    if stored is None:
        raise DomainError("request.error.not_asked")
    if stored.log_id is not None:
        raise DomainError("request.error.already_rolled", name=entry.name)
    return entries, index
