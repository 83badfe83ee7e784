"""Finding a character the actor may see, deciding who may change it, and viewing it.

Shared by :class:`~bot.services.sheets.characters.CharacterService` (reads) and
:class:`~bot.services.sheets.writes.SheetWriter` (the one write path), so both apply the
same visibility and ownership rules.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.db.models import ActiveCharacter, Campaign, Character, saved_id
from bot.grammar import sheet_fields
from bot.services.campaigns.context import CampaignContext
from bot.services.campaigns.service import is_referee
from bot.services.shared.context import Actor
from bot.services.shared.errors import DomainError, NotAllowed
from bot.services.sheets.schema import upgraded_sheet
from rules.systems.base import DerivedValue, FieldSpec, Problem, RulesError
from rules.text import fold, name_problem, plain_spaces

__all__ = [
    "NO_SHEET",
    "MAX_NAME",
    "CharacterSummary",
    "CharacterView",
    "character_view",
    "find_character",
    "name_key",
    "player_sheet",
    "require_actor",
    "require_playable",
    "require_editor",
    "name_clash",
    "set_path",
    "checked_name",
    "fits_key",
]

MAX_NAME = 100
#: The approval of a character that came from Comunidad Umbría without a sheet (issue 27):
#: it does not play until its sheet is built with the wizard (``/sheet create`` with its name).
NO_SHEET = "no_sheet"


def name_key(name: str) -> str:
    """Case- and accent-insensitive key, so «Ardelia» and «ardélia» are the same character.

    Cut to the column's width; a new name never needs the cut (:func:`checked_name` refuses a
    name whose key is longer), older ones may have been stored cut."""
    return fold(name)[:MAX_NAME]


def checked_name(name: str) -> str:
    """A character's name as stored (spaces made plain, stripped), or the translated refusal.

    Every path that names a character checks here: creating, the wizard, ``/sheet set
    name``, ``/sheet import`` and the chronicle's import.  A name must have 1 to
    :data:`MAX_NAME` characters, something visible and nothing invisible
    (:func:`rules.text.name_problem`), and a key (:func:`name_key`) that fits: «ß» folds to
    «ss», so a 95-character name of them used to be cut, and two such names (or the copies
    «… 1», «… 2» of ``/npc copy``) shared one key.
    """
    name = plain_spaces(name)
    if not name or len(name) > MAX_NAME:
        raise DomainError("sheet.error.bad_name", limit=MAX_NAME)
    problem = name_problem(name)
    if problem is not None:
        raise DomainError(f"sheet.error.name_{problem}")
    if len(fold(name)) > MAX_NAME:
        raise DomainError("sheet.error.name_key_too_long", limit=MAX_NAME)
    return name


def fits_key(name: str) -> bool:
    """Whether ``name``'s key needs no cut (see :func:`checked_name`)."""
    return len(fold(name)) <= MAX_NAME


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
    #: approved | pending | rejected (issue 12 §2b: the GM approves new characters)
    approval: str = "approved"
    #: a player's import that sets these referee-only fields (their labels) waits for the
    #: GM's approval instead of being refused (issue 23 §5)
    referee_fields: tuple[str, ...] = ()


async def find_character(
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
    if name is None:  # one statement: every roll from a sheet starts here (issue 26)
        active = select(Character).join(
            ActiveCharacter, col(ActiveCharacter.character_id) == col(Character.id)
        )
        found = (
            await session.exec(
                active.where(
                    ActiveCharacter.campaign_id == campaign.id,
                    ActiveCharacter.user_id == actor.user_id,
                    col(Character.deleted_at).is_(None),
                )
            )
        ).first()
        if found is None:
            raise DomainError("sheet.error.no_active")
        return found
    query = select(Character).where(
        Character.guild_id == campaign.guild_id,
        Character.campaign_id == campaign.id,
        Character.name_key == name_key(name),
    )
    if not include_deleted:
        query = query.where(col(Character.deleted_at).is_(None))
    if npc is not None:
        query = query.where(Character.is_npc == npc)
    rows = (await session.exec(query.order_by(col(Character.id).desc()))).all()
    visible = [
        c for c in rows if not (c.is_npc and c.hidden) or is_referee(campaign, actor) or as_opponent
    ]
    if not visible:
        # an NPC command names what it looked for (was «no hay ningún personaje» for a
        # player's character that does exist)
        raise DomainError(
            "sheet.error.npc_not_found" if npc else "sheet.error.not_found", name=name
        )
    return visible[0]


def require_editor(campaign: Campaign, character: Character, actor: Actor) -> None:
    """Players change only their own characters; referees change any; nobody else."""
    if character.is_npc and not is_referee(campaign, actor):
        raise NotAllowed("sheet.error.npc_gm_only")
    if character.owner_user_id != actor.user_id and not is_referee(campaign, actor):
        raise NotAllowed("sheet.error.not_owner", name=character.name)


def require_playable(character: Character) -> None:
    """A character the GM has not approved (campaign setting ``aprobar_personajes``) does not
    play yet: it is not made active, does not roll and does not post, whoever asks."""
    if character.approval == "pending":
        raise NotAllowed("approval.error.awaiting", name=character.name)
    if character.approval == "rejected":
        raise NotAllowed("approval.error.rejected", name=character.name)
    if character.approval == NO_SHEET:
        raise NotAllowed("umbria.error.no_sheet", name=character.name)


def require_actor(campaign: Campaign, character: Character, actor: Actor) -> None:
    """Acting *with* a character (rolling, spending, casting as it) is for its owner or a
    referee; NPCs act only for referees.  Being the *target* of someone's action is not
    acting, so opponents and targets are never checked with this.  Nobody acts with a
    character still waiting for the GM's approval (:func:`require_playable`)."""
    require_playable(character)
    if character.is_npc and not is_referee(campaign, actor):
        raise NotAllowed("sheet.error.npc_gm_only")
    if character.owner_user_id != actor.user_id and not is_referee(campaign, actor):
        raise NotAllowed("sheet.error.not_your_character", name=character.name)


def name_clash(campaign: Campaign, actor: Actor, name: object) -> DomainError:
    """The refusal of a name already used in the campaign.

    A referee is told plainly.  A player gets one message whatever holds the name, so it
    cannot confirm that a hidden NPC called that exists (a message only for hidden names
    would give it away just the same).
    """
    if is_referee(campaign, actor):
        return DomainError("sheet.error.name_taken", name=name)
    return NotAllowed("sheet.error.name_unavailable", name=name)


def character_view(context: CampaignContext, character: Character) -> CharacterView:
    """The character as users see it: sheet, derived values and the problems it has now."""
    system, settings = context.system, context.settings
    sheet = upgraded_sheet(character)
    problems = tuple(system.validate(sheet, settings))
    try:
        derived = tuple(system.derived(sheet, settings))
    except RulesError as error:
        # A sheet stored legally can become illegal when the GM changes a campaign rule:
        # it must still show (with its problems listed) so it can be fixed.
        derived, problems = (), problems or tuple(error.problems)
    return CharacterView(
        id=saved_id(character),
        name=character.name,
        system=character.system,
        system_name=system.name,
        owner_user_id=character.owner_user_id,
        is_npc=character.is_npc,
        hidden=character.hidden,
        sheet=sheet,
        fields=tuple(sheet_fields(system, settings)),
        derived=derived,
        problems=problems,
        version=character.version,
        campaign_name=context.campaign.name,
        approval=character.approval,
    )


def player_sheet(sheet: Mapping[str, Any]) -> dict[str, Any]:
    """A player character's sheet never carries the NPC flag.

    Every system reads ``"pnj": true`` as an NPC stat block, whose rules are looser (no
    creation pool, attributes up to 20); a player's sheet — imported, built or edited — must
    not keep it, whoever wrote it.
    """
    return {key: value for key, value in sheet.items() if not (key == "pnj" and value)}


def set_path(sheet: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``sheet`` with the dotted ``path`` set (intermediate tables created)."""
    result: dict[str, Any] = json.loads(json.dumps(sheet))
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
