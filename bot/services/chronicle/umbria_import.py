"""``/campaign import`` of a Comunidad Umbría game, and ``/sheet claim`` of its players.

The zip is read and checked in the worker process (:mod:`bot.services.chronicle.umbria`,
pure); every problem is listed before anything is written.  Then a new campaign run by the
importer gets the game's whole record, written in short batches under a campaign nobody sees
until its last batch is in and it is bound here (all or nothing, as the chronicle's own
restore: :mod:`bot.services.chronicle.service`; the batches leave the database to every other
server in between):

* each Umbría player (``imported_player``), until a member claims them;
* each character of the characters' pages: its name, avatar, public description and history
  as its public profile (``/sheet profile``); its «Ficha» and «Equipo», free text on Umbría,
  as a note only the GM sees; no sheet yet (approval ``no_sheet``: it does not play until
  the GM builds it with the wizard, ``/sheet create`` with its name);
* one closed scene per Umbría scene, in order, with its opening text;
* each post as a recorded post of its character (its Umbría player's until claimed), notes
  as notes, director-only posts for the GM only (their rolls private), dates kept;
* each roll as a roll-log row of kind ``imported``: reason, dice and total as Umbría showed
  them, never rolled again;
* the images shown inside posts (from the zip only), and, when asked, the paced posting of
  the scenes into Discord (:mod:`bot.services.chronicle.publication`).
"""

from __future__ import annotations

import asyncio
import pickle
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlalchemy import Table

from bot.db.models import (
    Campaign,
    Character,
    CharacterNote,
    CharacterProfile,
    ImportedPlayer,
    Post,
    PostImage,
    RollLog,
    Scene,
    saved_id,
    utcnow,
)
from bot.services.campaigns.service import setting_specs
from bot.services.campaigns.settings import resolved_settings
from bot.services.chronicle.umbria.reader import read_umbria
from bot.services.chronicle.umbria.records import UmbriaCharacter, UmbriaGame, UmbriaPost
from bot.services.shared.audience import PUBLIC, Secrecy
from bot.services.shared.post_text import image_type, validate_avatar
from bot.services.sheets.access import NO_SHEET, name_key
from bot.services.sheets.profiles import MAX_DESCRIPTION
from rules import systems
from rules.text import fold_words

__all__ = [
    "IMPORTED_KIND",
    "NO_SHEET",
    "Inserter",
    "UmbriaSummary",
    "read_umbria_packed",
    "unpack_game",
    "write_game",
]

#: The roll-log kind of a roll brought from Umbría (shown as such in /history).
IMPORTED_KIND = "imported"
SOURCE = "umbria"
IMAGE_BATCH = 8  # profiles and post images per batch (each may carry a 256 KiB image)
SLICE = 200  # posts per pickle between the worker and the loop (chronicle/transfer.py)


@dataclass(frozen=True, slots=True)
class UmbriaSummary:
    """What the import wrote, and what the director should know about the zip."""

    campaign_id: int
    name: str
    gm_user_id: int
    counts: dict[str, int]
    skipped: tuple[str, ...] = ()  # HTML files that were none of Umbría's pages
    missing_images: int = 0  # images the pages show that the zip does not hold
    unknown_speakers: tuple[str, ...] = ()  # posted under a name no characters' page lists
    bad_avatars: tuple[str, ...] = ()  # characters whose image /sheet profile would refuse
    publication: Any = None  # the paced posting, when asked (publication.PublicationView)


# -- the worker's side ----------------------------------------------------------------------


def read_umbria_packed(payload: bytes) -> tuple[UmbriaGame, list[bytes]]:
    """The worker's job: the game with its scenes' posts packed apart in small pickles, so
    the loop unpickles them a slice at a time (:func:`unpack_game`)."""
    game = read_umbria(payload)
    posts = [p for scene in game.scenes for p in scene.posts]
    bare = replace(game, scenes=tuple(replace(s, posts=()) for s in game.scenes))
    return bare, [pickle.dumps(posts[i : i + SLICE]) for i in range(0, len(posts), SLICE)]


async def unpack_game(bare: UmbriaGame, packed: list[bytes]) -> UmbriaGame:
    """The game whole again, a slice of posts at a time between other work on the loop."""
    by_scene: dict[str, list[UmbriaPost]] = {}
    for piece in packed:
        for post in pickle.loads(piece):
            by_scene.setdefault(post.scene_key, []).append(post)
        await asyncio.sleep(0)
    scenes = tuple(replace(s, posts=tuple(by_scene.get(s.key, ()))) for s in bare.scenes)
    return replace(bare, scenes=scenes)


# -- writing --------------------------------------------------------------------------------


def _table(model: type[Any]) -> Table:
    return model.__table__  # type: ignore[no-any-return]  # set by table=True


class Inserter(Protocol):
    """Writes ``rows`` into ``table`` in batches of their own (``batch`` rows each, or the
    writer's default) and returns their new ids in order (``ids``; else an empty list)."""

    async def __call__(
        self,
        table: Table,
        rows: Iterable[dict[str, Any]],
        *,
        ids: bool = True,
        batch: int | None = None,
    ) -> list[int]: ...


@dataclass
class _Ids:
    """What later rows point at: players by Umbría number, characters by folded name."""

    players: dict[str, int] = field(default_factory=dict)
    player_names: dict[str, str] = field(default_factory=dict)
    characters: dict[str, int] = field(default_factory=dict)
    scenes: dict[str, int] = field(default_factory=dict)


async def write_game(
    insert: Inserter, campaign: Campaign, game: UmbriaGame, importer: int
) -> UmbriaSummary:
    """Every row of the game, through ``insert`` (the caller's batches)."""
    ids = _Ids()
    base = {"guild_id": campaign.guild_id, "campaign_id": saved_id(campaign)}
    players = list(game.players)
    new = await insert(
        _table(ImportedPlayer),
        ({**base, "source": SOURCE, "external_id": p.umbria_id, "name": p.name, "version": 1}
         for p in players),
    )  # fmt: skip
    ids.players = {p.umbria_id: i for p, i in zip(players, new, strict=True)}
    ids.player_names = {p.umbria_id: p.name for p in players}
    bad_avatars = await _characters(insert, campaign, game, importer, ids)
    await _scenes(insert, campaign, game, importer, ids)
    rolls = await _rolls(insert, base, game, ids)
    await _posts(insert, base, game, ids, rolls)
    speakers = {
        p.speaker
        for s in game.scenes
        for p in s.posts
        if fold_words(p.speaker) not in ids.characters
    }
    return UmbriaSummary(
        campaign_id=saved_id(campaign),
        name=campaign.name,
        gm_user_id=importer,
        counts=game.counts(),
        skipped=game.skipped,
        missing_images=game.missing_images,
        unknown_speakers=tuple(sorted(speakers)),
        bad_avatars=tuple(bad_avatars),
    )


async def _characters(
    insert: Inserter, campaign: Campaign, game: UmbriaGame, importer: int, ids: _Ids
) -> list[str]:
    """The characters (no sheet yet), their public profiles and their notes for the GM."""
    system = systems.get(campaign.system)
    settings = resolved_settings(setting_specs(campaign.system), campaign.settings or {})
    now = utcnow()
    base = {"guild_id": campaign.guild_id, "campaign_id": saved_id(campaign)}
    characters = list(game.characters)
    new = await insert(
        _table(Character),
        (
            {
                **base,
                "owner_user_id": importer,
                "name": c.name,
                "name_key": name_key(c.name),
                "system": campaign.system,
                "sheet": system.new_sheet(c.name, settings),
                "is_npc": c.npc,
                "hidden": False,
                "approval": NO_SHEET,
                "imported_player_id": ids.players.get(c.player_id or ""),
                "created_at": now,
                "updated_at": now,
                "version": 1,
                "sheet_version": 2,
            }
            for c in characters
        ),
    )
    profiles, notes, bad = _profile_rows(game, characters, new, base, ids)
    await insert(_table(CharacterProfile), profiles, ids=False, batch=IMAGE_BATCH)
    await insert(_table(CharacterNote), notes, ids=False)
    return bad


def _profile_rows(
    game: UmbriaGame,
    characters: list[UmbriaCharacter],
    new: list[int],
    base: dict[str, Any],
    ids: _Ids,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """Each character's public profile and note for the GM as rows, and the characters
    whose avatar /sheet profile would refuse (not kept)."""
    now = utcnow()
    bad: list[str] = []
    profiles: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    for character, character_id in zip(characters, new, strict=True):
        ids.characters[fold_words(character.name)] = character_id
        image = game.images.get(character.avatar or "")
        avatar = validate_avatar(image.data) if image is not None else None
        if image is not None and avatar is None:
            bad.append(character.name)
        description, history = character.description, character.history
        if description and len(description) > MAX_DESCRIPTION:
            # too long for the one-screen description: the whole text opens the history
            history = "\n\n———\n\n".join(part for part in (description, history) if part)
            description = None
        if description or history or avatar:
            profiles.append(
                {
                    **base,
                    "character_id": character_id,
                    "description": description,
                    "history": history,
                    "avatar": avatar.data if avatar else None,
                    "avatar_type": avatar.kind if avatar else None,
                    "avatar_hash": avatar.sha256 if avatar else None,
                    "updated_at": now,
                    "version": 1,
                }
            )
        if character.sheet:
            notes.append(
                {**base, "character_id": character_id, "audience": "gm", "text": character.sheet,
                 "updated_at": now, "version": 1}
            )  # fmt: skip
    return profiles, notes, bad


async def _scenes(
    insert: Inserter, campaign: Campaign, game: UmbriaGame, importer: int, ids: _Ids
) -> None:
    """One closed scene per Umbría scene, in order; its times are its first and last post's."""
    from bot.services.chronicle.service import scene_channel  # service.py imports this module

    now = utcnow()
    rows: list[dict[str, Any]] = []
    for number, scene in enumerate(game.scenes, start=1):
        first = scene.posts[0].posted_at if scene.posts else now
        last = scene.posts[-1].posted_at if scene.posts else now
        rows.append(
            {
                "guild_id": campaign.guild_id,
                "campaign_id": saved_id(campaign),
                "channel_id": scene_channel(saved_id(campaign), number),
                "parent_id": None,
                "title": scene.title[:100],
                "status": "closed",
                "private": False,
                "players": [],
                "header_message_id": None,
                "opened_by": importer,
                "created_at": first,
                "closed_at": last,
                "round_started_at": None,
                "version": 1,
                "opening_text": scene.opening,
            }
        )
    new = await insert(_table(Scene), rows)
    ids.scenes = {scene.key: i for scene, i in zip(game.scenes, new, strict=True)}
    for number, scene in enumerate(game.scenes, start=1):
        ids.scenes[f"channel:{scene.key}"] = scene_channel(saved_id(campaign), number)


def _channel(ids: _Ids, post: UmbriaPost) -> int:
    return ids.scenes[f"channel:{post.scene_key}"]


async def _rolls(
    insert: Inserter, base: dict[str, Any], game: UmbriaGame, ids: _Ids
) -> dict[str, int]:
    """Each roll as a roll-log row of kind ``imported``; the first of each post's, by post."""
    rows: list[dict[str, Any]] = []
    owners: list[tuple[str, int]] = []
    for scene in game.scenes:
        for post in scene.posts:
            for order, roll in enumerate(post.rolls):
                rows.append(
                    {
                        **base,
                        "channel_id": _channel(ids, post),
                        "user_id": 0,  # a member once the player is claimed (/sheet claim)
                        "user_name": ids.player_names.get(post.author_id or "", "")[:100],
                        "character_name": post.speaker[:100],
                        "kind": IMPORTED_KIND,
                        "expression": roll.expression,
                        "reason": roll.reason,
                        "breakdown": roll.breakdown,
                        "detail": {
                            "source": SOURCE,
                            "post": post.message_id,
                            # the player's Umbría number (stable across exports: /sheet claim)
                            "umbria_player": post.author_id,
                            "dice": list(roll.dice),
                            "modifier": roll.modifier,
                        },
                        "total": roll.total,
                        "difficulty": None,
                        "outcome": None,
                        "fumble": False,
                        "private": post.director_only,
                        "message_id": None,
                        "message_url": None,
                        "created_at": post.posted_at,
                        # who may see it (bot.services.shared.audience): a director-only
                        # post's roll is the GM's
                        **_audience(post.director_only),
                    }
                )
                owners.append((post.message_id, order))
    new = await insert(_table(RollLog), rows)
    return {message: i for (message, order), i in zip(owners, new, strict=True) if order == 0}


def _audience(director_only: bool) -> dict[str, Any]:
    """A record's audience columns: what Umbría showed the director only is the GM's."""
    return (Secrecy.gm_only() if director_only else PUBLIC).columns()


async def _posts(
    insert: Inserter,
    base: dict[str, Any],
    game: UmbriaGame,
    ids: _Ids,
    rolls: dict[str, int],
) -> None:
    posts = [p for scene in game.scenes for p in scene.posts]
    new = await insert(
        _table(Post),
        (
            {
                **base,
                "channel_id": _channel(ids, p),
                "scene_id": ids.scenes[p.scene_key],
                "message_ids": [],
                "author_user_id": 0,  # a member once the player is claimed (/sheet claim)
                "character_id": ids.characters.get(fold_words(p.speaker)),
                "speaker_name": p.speaker,
                "webhook_name": None,
                "gm_post": False,
                "gm_only": p.director_only,
                "text": p.text,
                "notes": p.notes,
                "roll_log_id": rolls.get(p.message_id),
                "notes_private": False,
                "gm_message_ids": [],
                "created_at": p.posted_at,
                "version": 1,
                "imported_player_id": ids.players.get(p.author_id or ""),
                "source_ref": f"{SOURCE}:{p.message_id}",
                **_audience(p.director_only),
            }
            for p in posts
        ),
    )
    images = [
        {
            **base,
            "post_id": post_id,
            "position": position,
            "name": key.rsplit("/", 1)[-1][:200],
            "media_type": f"image/{image_type(game.images[key].data) or 'png'}",
            "data": game.images[key].data,
        }
        for post, post_id in zip(posts, new, strict=True)
        for position, key in enumerate(post.images)
        if key in game.images and image_type(game.images[key].data)
    ]
    await insert(_table(PostImage), images, ids=False, batch=IMAGE_BATCH)
