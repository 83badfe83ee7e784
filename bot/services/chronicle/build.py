"""Builds the chronicle's zip from a snapshot of the campaign (runs in the worker process).

The layout and the public/GM split are described in :mod:`bot.services.chronicle.archive`.
What stays out of the public half: posts marked for the GM only and deleted posts, private
rolls (and the GM's secret numbers kept in a roll's detail), hidden NPCs (their profiles,
sheets and XP), and scenes that are private to part of the party.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import t
from bot.services.chronicle.archive import (
    ARCHIVE_FORMAT,
    ARCHIVE_VERSION,
    GM_CHARACTERS,
    GM_POSTS,
    GM_ROLLS,
    GM_SCENES,
    GM_XP,
    MANIFEST,
    ROLL_COLUMNS,
    XP_COLUMNS,
    ArchiveWriter,
    slug,
)
from bot.services.chronicle.pages import (
    PageSet,
    html_page,
    index_html,
    index_markdown,
    markdown_page,
)
from bot.services.sheets.exchange import sheet_document

__all__ = ["Snapshot", "build_archive", "character_file", "scene_stem"]

#: Detail keys of a roll that hold the GM's numbers (an attack on a hidden NPC).
SECRET_DETAIL = ("secret",)


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


def _public_roll(roll: Mapping[str, Any]) -> dict[str, Any]:
    detail = {k: v for k, v in roll["detail"].items() if k not in SECRET_DETAIL}
    return {**roll, "detail": detail}


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


def build_archive(snapshot: Snapshot, locale: str) -> bytes:
    """The zip's bytes; raises :class:`ArchiveTooBig` past the import's limits."""
    out = ArchiveWriter()
    campaign = snapshot.campaign
    characters = {c["ref"]: c for c in snapshot.characters}
    hidden = {ref for ref, c in characters.items() if c["hidden"]}
    rolls = {r["ref"]: r for r in snapshot.rolls}
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

    def pages(scene: Mapping[str, Any] | None, title: str, gm: bool) -> PageSet:
        return PageSet(
            title=title,
            campaign=campaign["name"],
            scene=scene,
            posts=by_scene.get(scene["ref"] if scene else None, []),
            characters=characters,
            rolls=rolls,
            gm=gm,
            locale=locale,
        )

    public_entries = []
    for scene in snapshot.scenes:
        stem = scene_stem(scene)
        gm_pages = pages(scene, scene["title"], gm=True)
        out.add(f"gm/scenes/{stem}.md", markdown_page(gm_pages))
        out.add(f"gm/scenes/{stem}.html", html_page(gm_pages))
        if scene["private"]:
            continue  # for part of the party: the GM decides whom to give it
        public_entries.append((f"scenes/{stem}", scene))
        public = pages(scene, scene["title"], gm=False)
        out.add(f"scenes/{stem}.md", markdown_page(public))
        out.add(f"scenes/{stem}.html", html_page(public))
    unplaced = pages(None, t("chronicle.page.unplaced", locale), gm=True)
    out.add("gm/unplaced.md", markdown_page(unplaced))
    out.add("gm/unplaced.html", html_page(unplaced))
    out.add("index.md", index_markdown(campaign, public_entries, locale))
    out.add("index.html", index_html(campaign, public_entries, locale))

    out.add_json(
        "characters/profiles.json",
        [_profile(c) for c in snapshot.characters if not c["hidden"] and c["deleted_at"] is None],
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
    out.add_csv("xp.csv", XP_COLUMNS, [x for x in snapshot.xp if x["character"] not in hidden])
    # rolls of private scenes, of hidden NPCs and of GM-only posts stay in the GM's log too
    private_scenes = {s["ref"] for s in snapshot.scenes if s["private"]}
    gm_rolls = {
        ref
        for p in snapshot.posts
        if p["gm_only"]
        for ref in (p.get("rolls") or ([p["roll"]] if p["roll"] else []))
    }
    hidden_names = {characters[ref]["name"] for ref in hidden}
    out.add_csv(
        "rolls.csv",
        ROLL_COLUMNS,
        [
            _public_roll(r)
            for r in snapshot.rolls
            if not r["private"]
            and r["scene"] not in private_scenes
            and r["ref"] not in gm_rolls
            and r["character_name"] not in hidden_names
        ],
    )
    return out.close()
