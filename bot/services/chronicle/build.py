"""Builds the chronicle's zip from a snapshot of the campaign (runs in the worker process).

The layout and the public/GM split are described in :mod:`bot.services.chronicle.archive`.
Every file is written for its reader through the audience rule
(:mod:`bot.services.shared.audience`): the public half for anyone in the campaign — no
GM-only, deleted or private-thread post, no private notes, no private roll, no sealed number,
no hidden NPC, no private scene — and ``gm/`` for the GM, with each record's audience for the
import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.formatting import DEFAULT_TIME_ZONE
from bot.i18n import t
from bot.services.campaigns.service import TIME_ZONE
from bot.services.chronicle.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    GM_CHARACTERS,
    GM_POSTS,
    GM_ROLLS,
    GM_SCENES,
    GM_XP,
    LEGACY_ROLL_COLUMNS,
    LEGACY_XP_COLUMNS,
    MANIFEST,
    ROLL_COLUMNS,
    XP_COLUMNS,
    ArchiveWriter,
    slug,
)
from bot.services.chronicle.pages import (
    PagePost,
    PageSet,
    html_page,
    index_html,
    index_markdown,
    markdown_page,
)
from bot.services.shared.audience import (
    PUBLIC,
    Audience,
    Part,
    Reader,
    Secrecy,
    Sight,
    show,
    show_all,
    sight,
)
from bot.services.shared.audit import roll_record_seen
from bot.services.sheets.exchange import sheet_document

__all__ = ["Snapshot", "build_archive", "character_file", "scene_stem"]

#: The public CSVs: the record's columns without its audience (what a player reads is
#: already what the rule lets him see; the audience columns are the import's, in ``gm/``).
PUBLIC_ROLL_COLUMNS = LEGACY_ROLL_COLUMNS
PUBLIC_XP_COLUMNS = LEGACY_XP_COLUMNS

#: The two halves' readers: anyone in the campaign (everything outside ``gm/``), the GM.
PLAYERS = Reader.everyone()
GM = Reader.gm()


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The campaign's record as plain values, rows numbered by export number (``ref``)."""

    campaign: dict[str, Any]
    characters: list[dict[str, Any]]
    scenes: list[dict[str, Any]]
    posts: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    xp: list[dict[str, Any]]
    exported_at: str

    def counts(self) -> dict[str, int]:
        return {
            "scenes": len(self.scenes),
            "posts": len(self.posts),
            "characters": len(self.characters),
            "xp_awards": len(self.xp),
            "rolls": len(self.rolls),
        }


def scene_stem(scene: Mapping[str, Any]) -> str:
    return f"{scene['ref']:03d}-{slug(scene['title']) or 'escena'}"


def character_file(character: Mapping[str, Any]) -> str:
    return f"gm/characters/{character['ref']:03d}-{slug(character['name']) or 'personaje'}.json"


def _profile(character: Mapping[str, Any]) -> dict[str, Any]:
    """What every player sees of a character: its name, player (for a PC), system and,
    once ``/sheet profile`` stores them, its concept, description and avatar."""
    profile: dict[str, Any] = {
        "ref": character["ref"],
        "name": character["name"],
        "npc": character["npc"],
        "player_user_id": None if character["npc"] else character["owner_user_id"],
        "system": character["system"],
    }
    for key in ("concept", "description", "history", "avatar"):  # the profile (issue 12 §2)
        if key in character:
            profile[key] = character[key]
    return profile


def _secrecy(record: Mapping[str, Any]) -> Secrecy:
    """A record's secrecy as the snapshot carries it (its NPC by export number, reveals
    already applied: see :meth:`ChronicleService._collect`)."""
    return Secrecy.of_row(record)


def build_archive(snapshot: Snapshot, locale: str) -> bytes:
    """The zip's bytes; raises :class:`ArchiveTooBig` past the import's limits.

    Every file is rendered for its reader through the audience rule
    (:mod:`bot.services.shared.audience`): the public half for anyone in the campaign, the
    ``gm/`` half for the GM.  A private scene is the GM's to hand out (its records read as
    the GM's in the public half), and so is a deleted post (its author's and the GM's)."""
    out = ArchiveWriter()
    campaign = snapshot.campaign
    zone = str((campaign.get("settings") or {}).get(TIME_ZONE) or DEFAULT_TIME_ZONE)
    characters = {c["ref"]: c for c in snapshot.characters}
    rolls = {r["ref"]: r for r in snapshot.rolls}
    scene_secrecy = {
        s["ref"]: Secrecy.gm_only() if s["private"] else PUBLIC for s in snapshot.scenes
    }

    def in_scene(record: Mapping[str, Any]) -> Secrecy:
        """The record's own secrecy, narrowed by its scene's (a private scene's: the GM's)."""
        secrecy = _secrecy(record)
        scene = scene_secrecy.get(record.get("scene") or 0, PUBLIC)
        return secrecy.narrowed(scene.audience, scene.player_id)

    def post_secrecy(post: Mapping[str, Any]) -> Secrecy:
        secrecy = in_scene(post)
        if post.get("deleted_at"):  # withdrawn: its author's and the GM's
            secrecy = secrecy.narrowed(Audience.PLAYER, post.get("author_user_id"))
        return secrecy

    def roll_for(post: Mapping[str, Any], reader: Reader) -> Mapping[str, Any] | None:
        roll = rolls.get(post["roll"]) if post.get("roll") else None
        if roll is None:
            return None
        shown = show(in_scene(roll), reader, lambda seen: roll_record_seen(roll, seen))
        return shown.value if shown is not None else None

    def page_post(post: Mapping[str, Any], seen: Sight) -> PagePost:
        return PagePost(
            post={**post, "notes": seen.value(Part.NOTES, post.get("notes"))},
            roll=roll_for(post, seen.reader),
            character=characters.get(post["character"]) if post.get("character") else None,
        )

    out.add_json(
        MANIFEST,
        {
            "format": ARCHIVE_FORMAT,
            "version": ARCHIVE_VERSION,
            "exported_at": snapshot.exported_at,
            "campaign": campaign,
            "counts": snapshot.counts(),
        },
    )
    by_scene: dict[int | None, list[dict[str, Any]]] = {}
    for post in sorted(snapshot.posts, key=lambda p: (p["created_at"] or "", p["ref"])):
        by_scene.setdefault(post["scene"], []).append(post)

    def pages(scene: Mapping[str, Any] | None, title: str, reader: Reader) -> PageSet:
        posts = by_scene.get(scene["ref"] if scene else None, [])
        return PageSet(
            title=title,
            campaign=campaign["name"],
            scene=scene,
            posts=show_all(posts, reader, post_secrecy, page_post),
            gm=reader.is_gm,
            locale=locale,
            zone=zone,
        )

    public_entries = []
    for scene in snapshot.scenes:
        stem = scene_stem(scene)
        gm_pages = pages(scene, scene["title"], GM)
        out.add(f"gm/scenes/{stem}.md", markdown_page(gm_pages))
        out.add(f"gm/scenes/{stem}.html", html_page(gm_pages))
        if sight(scene_secrecy[scene["ref"]], PLAYERS) is None:
            continue  # a private scene, for part of the party: the GM decides whom to give it
        public_entries.append((f"scenes/{stem}", scene))
        public = pages(scene, scene["title"], PLAYERS)
        out.add(f"scenes/{stem}.md", markdown_page(public))
        out.add(f"scenes/{stem}.html", html_page(public))
    unplaced = pages(None, t("chronicle.page.unplaced", locale), GM)
    out.add("gm/unplaced.md", markdown_page(unplaced))
    out.add("gm/unplaced.html", html_page(unplaced))
    out.add("index.md", index_markdown(campaign, public_entries, locale))
    out.add("index.html", index_html(campaign, public_entries, locale))

    def character_secrecy(character: Mapping[str, Any]) -> Secrecy:
        """A hidden NPC is the GM's; a deleted character is no one's public profile."""
        return Secrecy.gm_only() if character["hidden"] or character["deleted_at"] else PUBLIC

    out.add_json(
        "characters/profiles.json",
        [
            shown.value
            for shown in show_all(
                snapshot.characters, PLAYERS, character_secrecy, lambda c, _s: _profile(c)
            )
        ],
    )
    index = []
    for character in snapshot.characters:
        name = character_file(character)
        document = sheet_document(character["system"], character["npc"], character["sheet"])
        out.add_json(name, document)
        index.append(
            {
                "file": name,
                **{k: v for k, v in character.items() if k not in ("sheet", "system")},
            }
        )
    out.add_json(GM_CHARACTERS, index)
    out.add_jsonl(GM_SCENES, snapshot.scenes)
    out.add_jsonl(GM_POSTS, snapshot.posts)
    out.add_csv(GM_XP, XP_COLUMNS, snapshot.xp)
    out.add_csv(GM_ROLLS, ROLL_COLUMNS, snapshot.rolls)
    out.add_csv(
        "xp.csv",
        PUBLIC_XP_COLUMNS,
        [shown.value for shown in show_all(snapshot.xp, PLAYERS, _secrecy, lambda x, _s: x)],
    )
    out.add_csv(
        "rolls.csv",
        PUBLIC_ROLL_COLUMNS,
        [shown.value for shown in show_all(snapshot.rolls, PLAYERS, in_scene, roll_record_seen)],
    )
    return out.close()
