"""Character and NPC use cases: find, show, list, use, set, delete/restore, export/import.

The sheet itself is the system's business (:mod:`rules.systems`); this module only decides
*who* may read or change *which* character, keeps one transaction per use case, and checks
versions so two edits arriving together never overwrite each other.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, Character, utcnow
from bot.services.campaigns import CampaignService, is_referee, setting_specs
from bot.services.context import Actor, Place
from bot.services.errors import ConcurrentChange, DomainError, NotAllowed
from bot.services.retry import attempts, backoff
from bot.services.settings import resolved_settings
from rules import systems
from rules.systems.base import DerivedValue, FieldSpec, GameSystem, Problem, RulesError
from rules.text import fold
from rules.values import BadValue, parse_value

__all__ = [
    "CharacterService",
    "CharacterView",
    "CharacterSummary",
    "name_key",
    "SHEET_FORMAT",
    "SHEET_FORMAT_VERSION",
]

SHEET_FORMAT = "arbitro.sheet"
SHEET_FORMAT_VERSION = 1
MAX_NAME = 100
MAX_IMPORT_BYTES = 256 * 1024
MAX_COPIES = 20


def name_key(name: str) -> str:
    """Case- and accent-insensitive key, so «Ardelia» and «ardélia» are the same character."""
    return fold(name)[:MAX_NAME]


def copy_name(base: str, number: int) -> str:
    """«Goblin 3»: the base is shortened, never the number, so copies stay distinct.

    Cutting the whole string to :data:`MAX_NAME` instead turned every number of a 99-character
    name back into the same name, and the copy loop never ended.
    """
    suffix = f" {number}"
    return base.strip()[: MAX_NAME - len(suffix)].rstrip() + suffix


@dataclass(frozen=True, slots=True)
class CharacterSummary:
    id: int
    name: str
    owner_user_id: int
    is_npc: bool
    hidden: bool
    active: bool
    deleted: bool


@dataclass(frozen=True, slots=True)
class CharacterView:
    id: int
    name: str
    system: str
    system_name: str
    owner_user_id: int
    is_npc: bool
    hidden: bool
    sheet: Mapping[str, Any]
    fields: tuple[FieldSpec, ...]
    derived: tuple[DerivedValue, ...]
    problems: tuple[Problem, ...]
    version: int
    campaign_name: str


class CharacterService:
    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], campaigns: CampaignService
    ) -> None:
        self.sessions = sessions
        self.campaigns = campaigns

    # -- context -------------------------------------------------------------------------

    async def context(self, place: Place) -> tuple[Campaign, GameSystem, dict[str, Any]]:
        """The campaign of ``place``, its system and its effective settings."""
        campaign = await self.campaigns.require(place)
        system = systems.get(campaign.system)
        return (
            campaign,
            system,
            resolved_settings(setting_specs(campaign.system), campaign.settings),
        )

    async def _find(
        self,
        session: AsyncSession,
        campaign: Campaign,
        actor: Actor,
        name: str | None,
        *,
        include_deleted: bool = False,
        npc: bool | None = None,
        as_opponent: bool = False,
    ) -> Character:
        """The character called ``name`` (or the actor's active one) that the actor may see.

        ``as_opponent`` also finds hidden NPCs by their exact name: a player defends against
        the goblin the GM names without being shown its sheet.
        """
        if name is None:
            active = await session.get(ActiveCharacter, (campaign.id, actor.user_id))
            if active is None:
                raise DomainError("sheet.error.no_active")
            character = await session.get(Character, active.character_id)
            if character is None or character.deleted_at is not None:
                raise DomainError("sheet.error.no_active")
            return character
        query = select(Character).where(
            Character.guild_id == campaign.guild_id,
            Character.campaign_id == campaign.id,
            Character.name_key == name_key(name),
        )
        if not include_deleted:
            query = query.where(Character.deleted_at.is_(None))  # type: ignore[union-attr]
        if npc is not None:
            query = query.where(Character.is_npc == npc)
        rows = (await session.exec(query.order_by(Character.id.desc()))).all()  # type: ignore[union-attr]
        visible = [
            c
            for c in rows
            if not (c.is_npc and c.hidden) or is_referee(campaign, actor) or as_opponent
        ]
        if not visible:
            raise DomainError("sheet.error.not_found", name=name)
        return visible[0]

    @staticmethod
    def _require_editor(campaign: Campaign, character: Character, actor: Actor) -> None:
        """Players change only their own characters; referees change any; nobody else."""
        if character.is_npc and not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        if character.owner_user_id != actor.user_id and not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.not_owner", name=character.name)

    def _view(
        self,
        campaign: Campaign,
        system: GameSystem,
        settings: Mapping[str, Any],
        character: Character,
    ) -> CharacterView:
        sheet = dict(character.sheet)
        problems = tuple(system.validate(sheet, settings))
        try:
            derived = tuple(system.derived(sheet, settings))
        except RulesError as error:
            # A sheet stored legally can become illegal when the GM changes a campaign rule:
            # it must still show (with its problems listed) so it can be fixed.
            derived, problems = (), problems or tuple(error.problems)
        return CharacterView(
            id=character.id,
            name=character.name,
            system=character.system,
            system_name=system.name,
            owner_user_id=character.owner_user_id,
            is_npc=character.is_npc,
            hidden=character.hidden,
            sheet=sheet,
            fields=tuple(system.fields(settings)),
            derived=derived,
            problems=problems,
            version=character.version,
            campaign_name=campaign.name,
        )

    # -- reading -------------------------------------------------------------------------

    async def active_name(self, place: Place, actor: Actor) -> str | None:
        """The name of the actor's active character where this campaign is played, if any."""
        campaign = await self.campaigns.find(place)
        if campaign is None:
            return None
        async with self.sessions() as session:
            active = await session.get(ActiveCharacter, (campaign.id, actor.user_id))
            if active is None:
                return None
            character = await session.get(Character, active.character_id)
        if character is None or character.deleted_at is not None:
            return None
        return character.name

    async def sheet_of(
        self, place: Place, actor: Actor, name: str | None = None
    ) -> tuple[Campaign, Character, GameSystem, dict[str, Any]]:
        """The stored character with its campaign, system and settings, deriving nothing.

        For autocomplete and rolls, which need the sheet but not the whole view: one campaign
        lookup and one character read.
        """
        campaign, system, settings = await self.context(place)
        async with self.sessions() as session:
            character = await self._find(session, campaign, actor, name)
        return campaign, character, system, settings

    async def show(
        self, place: Place, actor: Actor, name: str | None = None, *, as_opponent: bool = False
    ) -> CharacterView:
        campaign, system, settings = await self.context(place)
        async with self.sessions() as session:
            character = await self._find(session, campaign, actor, name, as_opponent=as_opponent)
        return self._view(campaign, system, settings, character)

    async def list(
        self, place: Place, actor: Actor, *, npcs: bool = False, deleted: bool = False
    ) -> tuple[CharacterSummary, ...]:
        campaign, _system, _settings = await self.context(place)
        referee = is_referee(campaign, actor)
        if deleted and not referee:
            raise NotAllowed("sheet.error.deleted_gm_only")
        async with self.sessions() as session:
            query = select(Character).where(
                Character.guild_id == campaign.guild_id,
                Character.campaign_id == campaign.id,
                Character.is_npc == npcs,
            )
            if deleted:
                query = query.where(Character.deleted_at.is_not(None))  # type: ignore[union-attr]
            else:
                query = query.where(Character.deleted_at.is_(None))  # type: ignore[union-attr]
            rows = (await session.exec(query.order_by(Character.name_key))).all()
            active = await session.get(ActiveCharacter, (campaign.id, actor.user_id))
        return tuple(
            CharacterSummary(
                id=c.id,
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
    ) -> list[str]:
        """Autocomplete: names the actor may see in this campaign, best matches first, capped."""
        campaign = await self.campaigns.find(place)
        if campaign is None:
            return []
        referee = is_referee(campaign, actor)
        async with self.sessions() as session:
            query = select(Character).where(
                Character.guild_id == campaign.guild_id,
                Character.campaign_id == campaign.id,
                Character.deleted_at.is_(None),  # type: ignore[union-attr]
            )
            if npcs is not None:
                query = query.where(Character.is_npc == npcs)
            rows = (await session.exec(query)).all()
        needle = name_key(current)
        visible = [c for c in rows if referee or not (c.is_npc and c.hidden)]
        ranked = sorted(
            (c for c in visible if needle in c.name_key),
            key=lambda c: (
                not c.name_key.startswith(needle),
                c.owner_user_id != actor.user_id,
                c.name_key,
            ),
        )
        return [c.name for c in ranked][:25]

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
    ) -> CharacterView:
        """Store a complete, legal sheet as a new character (refuses with every problem listed)."""
        campaign, system, settings = await self.context(place)
        if is_npc and not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        name = str(sheet.get("name", "")).strip()
        if not name or len(name) > MAX_NAME:
            raise DomainError("sheet.error.bad_name", limit=MAX_NAME)
        if sheet.get("system") != campaign.system:
            raise DomainError(
                "sheet.error.wrong_system", system=sheet.get("system"), expected=campaign.system
            )
        sheet = player_sheet(sheet) if not is_npc else dict(sheet)
        problems = system.validate(sheet, settings)
        if problems:
            raise RulesError(list(problems))
        character = Character(
            guild_id=campaign.guild_id,
            campaign_id=campaign.id,
            owner_user_id=owner_user_id or actor.user_id,
            name=name,
            name_key=name_key(name),
            system=campaign.system,
            sheet=dict(sheet),
            is_npc=is_npc,
            hidden=hidden,
        )
        try:
            async with self.sessions() as session, session.begin():
                session.add(character)
                await session.flush()
                if make_active and not is_npc:
                    await self._set_active(session, campaign, actor.user_id, character.id)
                if same_transaction is not None:
                    # e.g. closing the creation draft: both happen or neither does
                    await same_transaction(session)
        except IntegrityError:
            raise DomainError("sheet.error.name_taken", name=name) from None
        return self._view(campaign, system, settings, character)

    async def copies(
        self, place: Place, actor: Actor, template_name: str, count: int
    ) -> tuple[CharacterSummary, ...]:
        """Copies of one NPC stat block ("5 goblins"): «Goblin 1» … «Goblin 5»."""
        campaign, _system, _settings = await self.context(place)
        if not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        if not 1 <= count <= MAX_COPIES:
            raise DomainError("sheet.error.bad_copies", limit=MAX_COPIES)
        async with self.sessions() as session, session.begin():
            template = await self._find(session, campaign, actor, template_name, npc=True)
            existing = {
                c.name_key
                for c in (
                    await session.exec(
                        select(Character).where(
                            Character.campaign_id == campaign.id,
                            Character.deleted_at.is_(None),  # type: ignore[union-attr]
                        )
                    )
                ).all()
            }
            made: list[Character] = []
            # Each existing name can block at most one number, so this range always suffices.
            for number in range(1, count + len(existing) + 2):
                if len(made) == count:
                    break
                name = copy_name(template.name, number)
                if name_key(name) in existing:
                    continue
                existing.add(name_key(name))
                sheet = dict(template.sheet)
                sheet["name"] = name
                copy = Character(
                    guild_id=campaign.guild_id,
                    campaign_id=campaign.id,
                    owner_user_id=template.owner_user_id,
                    name=name,
                    name_key=name_key(name),
                    system=template.system,
                    sheet=sheet,
                    is_npc=True,
                    hidden=template.hidden,
                    template_id=template.id,
                )
                session.add(copy)
                made.append(copy)
            try:
                await session.flush()
            except IntegrityError:  # another command took one of the names meanwhile
                raise ConcurrentChange() from None
        return tuple(
            CharacterSummary(c.id, c.name, c.owner_user_id, True, c.hidden, False, False)
            for c in made
        )

    async def use(self, place: Place, actor: Actor, name: str) -> CharacterView:
        """Make ``name`` the actor's character in this campaign (one per member per campaign)."""
        campaign, system, settings = await self.context(place)
        async with self.sessions() as session, session.begin():
            character = await self._find(session, campaign, actor, name, npc=False)
            if character.owner_user_id != actor.user_id and not is_referee(campaign, actor):
                raise NotAllowed("sheet.error.not_owner", name=character.name)
            await self._set_active(session, campaign, actor.user_id, character.id)
        return self._view(campaign, system, settings, character)

    @staticmethod
    async def _set_active(
        session: AsyncSession, campaign: Campaign, user_id: int, character_id: int
    ) -> None:
        active = await session.get(ActiveCharacter, (campaign.id, user_id))
        if active is None:
            session.add(
                ActiveCharacter(
                    campaign_id=campaign.id,
                    user_id=user_id,
                    guild_id=campaign.guild_id,
                    character_id=character_id,
                )
            )
        else:
            active.character_id = character_id
            session.add(active)

    async def update_sheet(
        self,
        place: Place,
        actor: Actor,
        name: str | None,
        change: Any,
        *,
        validate: bool = True,
        character_id: int | None = None,
        same_transaction: Callable[[AsyncSession, Character], Awaitable[None]] | None = None,
    ) -> CharacterView:
        """Apply ``change(sheet, system, settings) -> new sheet`` under a version check.

        Used by every edit (``/sheet set``, inventory, damage, XP): the change is computed on
        the stored sheet, validated by the system, and written only if nobody else wrote in
        between; on a clash it is recomputed on the fresh sheet (a few times, then the user
        is told).  ``character_id`` picks the character directly (a party-wide XP grant);
        ``same_transaction`` writes a record (an XP award) in the same transaction.
        """
        for attempt in attempts():
            await backoff(attempt)
            campaign, system, settings = await self.context(place)
            async with self.sessions() as session:
                if character_id is not None:
                    character = await session.get(Character, character_id)
                    if (
                        character is None
                        or character.campaign_id != campaign.id
                        or character.deleted_at is not None
                    ):
                        raise DomainError("sheet.error.not_found", name=name or "?")
                else:
                    character = await self._find(session, campaign, actor, name)
            self._require_editor(campaign, character, actor)
            new_sheet = dict(change(dict(character.sheet), system, settings))
            if not character.is_npc:
                new_sheet = player_sheet(new_sheet)
            if validate:
                problems = system.validate(new_sheet, settings)
                if problems:
                    raise RulesError(list(problems))
            new_name = str(new_sheet.get("name", character.name)).strip() or character.name
            values: dict[str, Any] = {
                "sheet": new_sheet,
                "updated_at": utcnow(),
                "version": Character.version + 1,
                "name": new_name,
                "name_key": name_key(new_name),
            }
            try:
                async with self.sessions() as session, session.begin():
                    result = await session.exec(
                        update(Character)
                        .where(Character.id == character.id, Character.version == character.version)
                        .values(**values)
                    )
                    if result.rowcount == 1 and same_transaction is not None:
                        await same_transaction(session, character)
            except IntegrityError:
                raise DomainError("sheet.error.name_taken", name=new_name) from None
            if result.rowcount == 1:
                # Show this write, not a later one another command may have committed since.
                character.sheet, character.name = new_sheet, new_name
                character.name_key, character.version = name_key(new_name), character.version + 1
                return self._view(campaign, system, settings, character)
        raise ConcurrentChange()

    async def set_field(
        self, place: Place, actor: Actor, name: str | None, path: str, raw: str
    ) -> CharacterView:
        """``/sheet set``: parse ``raw`` by the field's spec and store it at ``path``."""
        _campaign, system, settings = await self.context(place)
        specs = {spec.path.casefold(): spec for spec in system.fields(settings)}
        spec = specs.get(path.strip().casefold())
        if spec is None:
            raise DomainError(
                "sheet.error.unknown_field",
                field=path,
                valid=", ".join(s.path for s in specs.values())[:900],
            )
        value = parse_field(spec, raw)
        if spec.referee_only:
            campaign = await self.campaigns.require(place)
            if not is_referee(campaign, actor):
                raise NotAllowed("sheet.error.referee_field", field=spec.label)

        def change(
            sheet: dict[str, Any], _system: GameSystem, _settings: Mapping[str, Any]
        ) -> dict[str, Any]:
            return set_path(sheet, spec.path, value)

        return await self.update_sheet(place, actor, name, change)

    async def delete(self, place: Place, actor: Actor, name: str) -> CharacterSummary:
        """Soft delete: hidden from everyone, restorable by a referee."""
        campaign, _system, _settings = await self.context(place)
        async with self.sessions() as session, session.begin():
            character = await self._find(session, campaign, actor, name)
            self._require_editor(campaign, character, actor)
            result = await session.exec(
                update(Character)
                .where(Character.id == character.id, Character.version == character.version)
                .values(
                    deleted_at=utcnow(), deleted_by=actor.user_id, version=Character.version + 1
                )
            )
            if result.rowcount != 1:
                raise ConcurrentChange()
            active = await session.get(ActiveCharacter, (campaign.id, character.owner_user_id))
            if active is not None and active.character_id == character.id:
                await session.delete(active)
        return CharacterSummary(
            character.id,
            character.name,
            character.owner_user_id,
            character.is_npc,
            character.hidden,
            False,
            True,
        )

    async def restore(self, place: Place, actor: Actor, name: str) -> CharacterView:
        campaign, system, settings = await self.context(place)
        if not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.restore_gm_only")
        async with self.sessions() as session:
            rows = (
                await session.exec(
                    select(Character)
                    .where(
                        Character.campaign_id == campaign.id,
                        Character.guild_id == campaign.guild_id,
                        Character.name_key == name_key(name),
                        Character.deleted_at.is_not(None),  # type: ignore[union-attr]
                    )
                    .order_by(Character.deleted_at.desc())  # type: ignore[union-attr]
                )
            ).all()
        if not rows:
            raise DomainError("sheet.error.not_found_deleted", name=name)
        character = rows[0]
        try:
            async with self.sessions() as session, session.begin():
                result = await session.exec(
                    update(Character)
                    .where(Character.id == character.id, Character.version == character.version)
                    .values(deleted_at=None, deleted_by=None, version=Character.version + 1)
                )
                if result.rowcount != 1:
                    raise ConcurrentChange()
        except IntegrityError:
            raise DomainError("sheet.error.name_taken", name=character.name) from None
        async with self.sessions() as session:
            fresh = await session.get(Character, character.id)
        return self._view(campaign, system, settings, fresh)

    async def set_visibility(
        self, place: Place, actor: Actor, name: str, hidden: bool
    ) -> CharacterView:
        campaign, system, settings = await self.context(place)
        if not is_referee(campaign, actor):
            raise NotAllowed("sheet.error.npc_gm_only")
        async with self.sessions() as session, session.begin():
            character = await self._find(session, campaign, actor, name, npc=True)
            character.hidden = hidden
            character.version += 1
            session.add(character)
        return self._view(campaign, system, settings, character)

    # -- export / import -----------------------------------------------------------------

    async def export(self, place: Place, actor: Actor, name: str | None) -> tuple[str, bytes]:
        """The character as a versioned JSON document (``docs/sheet-format.md``)."""
        view = await self.show(place, actor, name)
        document = {
            "format": SHEET_FORMAT,
            "version": SHEET_FORMAT_VERSION,
            "system": view.system,
            "npc": view.is_npc,
            "sheet": view.sheet,
        }
        filename = f"{name_key(view.name).replace(' ', '_') or 'personaje'}.json"
        return filename, json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8")

    async def import_sheet(self, place: Place, actor: Actor, payload: bytes) -> CharacterView:
        """Validate and store an exported document; every problem is listed, nothing is half-saved."""
        if len(payload) > MAX_IMPORT_BYTES:
            raise DomainError("sheet.error.import_too_big", limit=MAX_IMPORT_BYTES // 1024)
        try:
            document = json.loads(payload.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise DomainError("sheet.error.import_not_json", detail=str(error)[:200]) from None
        if not isinstance(document, dict) or document.get("format") != SHEET_FORMAT:
            raise DomainError("sheet.error.import_wrong_format", format=SHEET_FORMAT)
        if document.get("version") != SHEET_FORMAT_VERSION:
            raise DomainError(
                "sheet.error.import_wrong_version",
                version=document.get("version"),
                expected=SHEET_FORMAT_VERSION,
            )
        sheet = document.get("sheet")
        if not isinstance(sheet, dict):
            raise DomainError("sheet.error.import_no_sheet")
        campaign = await self.campaigns.require(place)
        is_npc = bool(document.get("npc", False))
        if is_npc and not is_referee(campaign, actor):
            is_npc = False
        return await self.create(place, actor, sheet, is_npc=is_npc, hidden=is_npc)


def player_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A player character's sheet never carries the NPC flag.

    Every system reads ``"pnj": true`` as an NPC stat block, whose rules are looser (no
    creation pool, attributes up to 20); a player's sheet — imported, built or edited — must
    not keep it, whoever wrote it.
    """
    return {key: value for key, value in sheet.items() if not (key == "pnj" and value)}


def parse_field(spec: FieldSpec, raw: str) -> Any:
    """Text typed in ``/sheet set`` → the field's value, or a translated problem
    (:func:`rules.values.parse_value` reads it, the same way as a campaign setting)."""
    try:
        return parse_value(
            spec.kind, raw, minimum=spec.minimum, maximum=spec.maximum, choices=spec.choices
        )
    except BadValue as bad:
        params = {"field": spec.label, **bad.params}
        if bad.reason == "expected_choice":
            params["choices"] = params["choices"][:900]
        raise RulesError(Problem(f"sheet.problem.{bad.reason}", spec.path, params)) from None


def set_path(sheet: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``sheet`` with the dotted ``path`` set (intermediate tables created)."""
    result = json.loads(json.dumps(sheet))
    node = result
    parts = path.split(".")
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[parts[-1]] = value
    return result


def get_path(sheet: Mapping[str, Any], path: str) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node
