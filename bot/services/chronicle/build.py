"""Builds the chronicle's zip from a snapshot of the campaign (runs in the worker process).

The layout and the public/GM split are described in :mod:`bot.services.chronicle.archive`.
Every file is written for its reader through the audience rule
(:mod:`bot.services.shared.audience`): the public half for anyone in the campaign — no
GM-only, deleted or private-thread post, no private notes, no private roll, no sealed number,
no hidden NPC, no private scene — and ``gm/`` for the GM, with each record's audience for the
import.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
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
    RECORD,
    ROLL_COLUMNS,
    XP_COLUMNS,
    ArchiveWriter,
    slug,
    zip_size,
)
from bot.services.chronicle.pages import (
    PagePost,
    PageSet,
    html_page,
    index_html,
    index_markdown,
    markdown_page,
    post_images,
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

__all__ = ["Snapshot", "build_archive", "build_parts", "character_file", "scene_stem"]

#: The public CSVs: the record's columns without its audience (what a player reads is
#: already what the rule lets him see; the audience columns are the import's, in ``gm/``).
PUBLIC_ROLL_COLUMNS = LEGACY_ROLL_COLUMNS
PUBLIC_XP_COLUMNS = LEGACY_XP_COLUMNS

#: Groups of files that are not a scene's pages: the images, the posts outside scenes.
MEDIA, UNPLACED = "media", "unplaced"

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


#: Files an image may be stored as, by media type.
MEDIA_EXTENSIONS = {
    "image/png": "png",
    "image/jpeg": "jpg",
    "image/gif": "gif",
    "image/webp": "webp",
}
#: Room kept in each part of a split export for its manifest, its index and the zip's end.
PART_MARGIN = 256 * 1024


class _Media:
    """Each stored image as one file, named by its bytes' hash: ``media/`` when anything the
    players see shows it (a character they see, a post they read), else ``gm/media/`` (a
    hidden NPC's face, a director-only post's picture are the GM's).  The same bytes shown
    twice — an avatar that is also a post's picture — are one file."""

    def __init__(self) -> None:
        self.found: dict[str, tuple[str, bytes, bool]] = {}  # digest → (type, bytes, shown)

    def add(self, kind: str, data: bytes, shown: bool) -> str | None:
        """The image's digest (``None`` for a type the archive does not store)."""
        if kind not in MEDIA_EXTENSIONS:
            return None
        digest = hashlib.sha256(data).hexdigest()[:32]
        seen = self.found.get(digest)
        self.found[digest] = (kind, data, shown or (seen is not None and seen[2]))
        return digest

    def kind(self, digest: str) -> str:
        return self.found[digest][0]

    def file(self, digest: str) -> str:
        kind, _data, shown = self.found[digest]
        return f"{'media' if shown else 'gm/media'}/{digest}.{MEDIA_EXTENSIONS[kind]}"

    def files(self) -> dict[str, bytes]:
        return {self.file(digest): data for digest, (_k, data, _s) in self.found.items()}


def _avatars(characters: list[dict[str, Any]], public: set[int], media: _Media) -> dict[int, str]:
    """The digest of each stored avatar by character number (shown when the players see
    the character)."""
    digest_of: dict[int, str] = {}
    for character in characters:
        avatar = character.get("avatar")
        if not isinstance(avatar, Mapping) or not isinstance(avatar.get("bytes"), bytes):
            continue
        digest = media.add(str(avatar.get("type")), avatar["bytes"], character["ref"] in public)
        if digest is not None:
            digest_of[character["ref"]] = digest
    return digest_of


def _post_images(
    posts: list[dict[str, Any]], public: Callable[[Mapping[str, Any]], bool], media: _Media
) -> dict[int, list[tuple[str, str]]]:
    """The pictures shown inside each post (an Umbría post's, issue 27) as ``(name,
    digest)`` by post number, in order: under ``media/`` when the players read the post,
    else ``gm/media/`` (through the audience rule: a director-only post's are the GM's)."""
    found: dict[int, list[tuple[str, str]]] = {}
    for post in posts:
        shown = None
        for image in post.get("images") or ():
            if shown is None:
                shown = public(post)
            digest = media.add(str(image.get("type")), image["bytes"], shown)
            if digest is not None:
                found.setdefault(post["ref"], []).append((str(image["name"]), digest))
    return found


def build_parts(snapshot: Snapshot, locale: str, limit: int | None = None) -> list[bytes]:
    """The chronicle as zips of at most ``limit`` bytes each (the server's upload limit):
    one zip when it fits, else independent parts (:func:`_split`); raises
    :class:`ArchiveTooBig` past the import's limits.

    Every file is rendered for its reader through the audience rule
    (:mod:`bot.services.shared.audience`): the public half for anyone in the campaign, the
    ``gm/`` half for the GM.  A private scene is the GM's to hand out (its records read as
    the GM's in the public half), and so is a deleted post (its author's and the GM's)."""
    out, build = _write(snapshot, locale)
    whole = out.close()
    if limit is None or len(whole) <= limit:
        return [whole]
    return _split(out, build, whole, limit)


def build_archive(snapshot: Snapshot, locale: str) -> bytes:
    """The chronicle as one zip, whatever its size."""
    return build_parts(snapshot, locale)[0]


@dataclass(slots=True)
class _Built:
    """What a split needs to write each part's manifest and index again."""

    campaign: dict[str, Any]
    manifest: dict[str, Any]
    locale: str
    entries: dict[str, tuple[str, Mapping[str, Any]]]  # group → (public page stem, scene)
    order: list[str]  # page groups in the campaign's order


def _write(snapshot: Snapshot, locale: str) -> tuple[ArchiveWriter, _Built]:
    out = ArchiveWriter()
    campaign = snapshot.campaign
    zone = str((campaign.get("settings") or {}).get(TIME_ZONE) or DEFAULT_TIME_ZONE)
    rolls = {r["ref"]: r for r in snapshot.rolls}
    scene_secrecy = {
        s["ref"]: Secrecy.gm_only() if s["private"] else PUBLIC for s in snapshot.scenes
    }

    def character_secrecy(character: Mapping[str, Any]) -> Secrecy:
        """A hidden NPC is the GM's; a deleted character is no one's public profile."""
        return Secrecy.gm_only() if character["hidden"] or character["deleted_at"] else PUBLIC

    public = {
        c["ref"] for c in snapshot.characters if sight(character_secrecy(c), PLAYERS) is not None
    }
    media = _Media()
    avatar_digests = _avatars(snapshot.characters, public, media)

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

    post_digests = _post_images(
        snapshot.posts, lambda p: sight(post_secrecy(p), PLAYERS) is not None, media
    )
    for name, data in media.files().items():
        out.add(name, data, group=MEDIA)
    avatars = {
        ref: {"type": media.kind(digest), "file": media.file(digest)}
        for ref, digest in avatar_digests.items()
    }
    records = [
        {k: v for k, v in c.items() if k != "avatar"}
        | ({"avatar": avatars[c["ref"]]} if c["ref"] in avatars else {})
        for c in snapshot.characters
    ]
    characters = {c["ref"]: c for c in records}
    posts = [
        {k: v for k, v in p.items() if k != "images"}
        | (
            {
                "images": [
                    {"name": name, "type": media.kind(digest), "file": media.file(digest)}
                    for name, digest in post_digests[p["ref"]]
                ]
            }
            if p["ref"] in post_digests
            else {}
        )
        for p in snapshot.posts
    ]
    post_files = sorted({media.file(d) for found in post_digests.values() for _n, d in found})

    def rolls_for(post: Mapping[str, Any], reader: Reader) -> tuple[Mapping[str, Any], ...]:
        """The post's rolls (a typed post's several ``[[…]]``) as ``reader`` may see them."""
        refs = post.get("rolls") or ([post["roll"]] if post.get("roll") else [])
        found = [rolls[ref] for ref in refs if ref in rolls]
        return tuple(
            shown.value
            for roll in found
            if (shown := show(in_scene(roll), reader, partial(roll_record_seen, roll))) is not None
        )

    def page_post(post: Mapping[str, Any], seen: Sight) -> PagePost:
        return PagePost(
            post={**post, "notes": seen.value(Part.NOTES, post.get("notes"))},
            rolls=rolls_for(post, seen.reader),
            character=characters.get(post["character"]) if post.get("character") else None,
        )

    manifest = {
        "format": ARCHIVE_FORMAT,
        "version": ARCHIVE_VERSION,
        "exported_at": snapshot.exported_at,
        "campaign": campaign,
        "counts": snapshot.counts(),
    }
    out.add_json(MANIFEST, manifest)
    by_scene: dict[int | None, list[dict[str, Any]]] = {}
    for post in sorted(posts, key=lambda p: (p["created_at"] or "", p["ref"])):
        by_scene.setdefault(post["scene"], []).append(post)

    def pages(scene: Mapping[str, Any] | None, title: str, reader: Reader, folder: str) -> PageSet:
        posts = by_scene.get(scene["ref"] if scene else None, [])
        return PageSet(
            title=title,
            campaign=campaign["name"],
            scene=scene,
            posts=show_all(posts, reader, post_secrecy, page_post),
            gm=reader.is_gm,
            locale=locale,
            zone=zone,
            folder=folder,
        )

    def add_pages(stem: str, page: PageSet, group: str) -> None:
        uses = {
            str(shown.value.character["avatar"]["file"])
            for shown in page.posts
            if shown.value.character and "avatar" in shown.value.character
        } | {str(image["file"]) for shown in page.posts for image in post_images(shown.value.post)}
        out.add(f"{stem}.md", markdown_page(page), group=group)
        out.add(f"{stem}.html", html_page(page), group=group, uses=uses)

    built = _Built(dict(campaign), manifest, locale, {}, [])
    for scene in snapshot.scenes:
        stem, group = scene_stem(scene), f"scene:{scene['ref']}"
        built.order.append(group)
        add_pages(f"gm/scenes/{stem}", pages(scene, scene["title"], GM, "gm/scenes"), group)
        if sight(scene_secrecy[scene["ref"]], PLAYERS) is None:
            continue  # a private scene, for part of the party: the GM decides whom to give it
        built.entries[group] = (f"scenes/{stem}", scene)
        add_pages(f"scenes/{stem}", pages(scene, scene["title"], PLAYERS, "scenes"), group)
    built.order.append(UNPLACED)
    add_pages("gm/unplaced", pages(None, t("chronicle.page.unplaced", locale), GM, "gm"), UNPLACED)
    entries = list(built.entries.values())
    out.add("index.md", index_markdown(campaign, entries, locale))
    out.add("index.html", index_html(campaign, entries, locale))
    out.add_json(
        "characters/profiles.json",
        [
            shown.value
            for shown in show_all(records, PLAYERS, character_secrecy, lambda c, _s: _profile(c))
        ],
        uses=[avatars[ref]["file"] for ref in public if ref in avatars],
    )
    index = []
    for character, record in zip(snapshot.characters, records, strict=True):
        name = character_file(character)
        document = sheet_document(character["system"], character["npc"], character["sheet"])
        out.add_json(name, document)
        index.append(
            {"file": name, **{k: v for k, v in record.items() if k not in ("sheet", "system")}}
        )
    out.add_json(GM_CHARACTERS, index, uses=[a["file"] for a in avatars.values()])
    out.add_jsonl(GM_SCENES, snapshot.scenes)
    out.add_jsonl(GM_POSTS, posts, uses=post_files)
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
    return out, built


def _split(out: ArchiveWriter, built: _Built, whole: bytes, limit: int) -> list[bytes]:
    """Independent zips of at most ``limit`` bytes each: the first holds the record the
    import reads (with every avatar it names) and the tables; the next ones hold whole
    scenes' pages (public and GM) with the images they show, as many as fit.  Each part has
    its own manifest and an index of what it holds, so any of them opens on its own; an
    image two parts show is in both.  Sizes are the members' compressed sizes in the whole
    zip (deflate compresses each member alone)."""
    with zipfile.ZipFile(io.BytesIO(whole)) as archive:
        size = {
            info.filename: zip_size(info.compress_size, info.filename)
            for info in archive.infolist()
        }
    budget = max(limit - PART_MARGIN, 1)
    record = [
        n for n in out.groups.get(RECORD, []) if n not in (MANIFEST, "index.md", "index.html")
    ]
    record_media = set(out.uses.get(RECORD, ()))
    parts: list[tuple[list[str], list[str]]] = [([RECORD], [*record, *sorted(record_media)])]
    current: tuple[list[str], list[str]] | None = None
    used = 0
    for group in built.order:
        files = out.groups.get(group, [])
        if not files:
            continue
        images = sorted(set(out.uses.get(group, ())))
        if current is not None:
            new_images = [i for i in images if i not in current[1]]
            need = sum(size[n] for n in [*files, *new_images])
            if used + need <= budget:
                current[0].append(group)
                current[1].extend([*files, *new_images])
                used += need
                continue
        current = ([group], [*files, *images])
        used = sum(size[n] for n in current[1])
        parts.append(current)
    zips = []
    for number, (groups, names) in enumerate(parts, start=1):
        zips.append(out.zipped(names, _part_pages(built, groups, number, len(parts))))
    return zips


def _part_pages(built: _Built, groups: list[str], number: int, count: int) -> dict[str, bytes]:
    """A part's manifest (which part it is; the first, the record's, with its counts) and its
    index: the scenes it holds, linked, and which part of how many it is."""
    manifest = {**built.manifest, "part": {"number": number, "of": count}}
    if RECORD not in groups:
        manifest = {
            "format": ARCHIVE_FORMAT,
            "version": ARCHIVE_VERSION,
            "exported_at": built.manifest["exported_at"],
            "campaign": {"name": built.campaign["name"]},
            "part": {"number": number, "of": count, "pages_only": True},
        }
    entries = [built.entries[g] for g in groups if g in built.entries]
    note = t("chronicle.page.part", built.locale, number=number, count=count)
    return {
        MANIFEST: (json.dumps(manifest, ensure_ascii=False, indent=2) + "\n").encode(),
        "index.md": index_markdown(built.campaign, entries, built.locale, note=note).encode(),
        "index.html": index_html(built.campaign, entries, built.locale, note=note).encode(),
    }
