"""Checks a read chronicle archive against its rule system before anything is written.

Runs in the bot's worker process (:class:`bot.compute.ComputePool`): whatever it raises
must pickle, so every refusal is an :class:`ArchiveProblems`.  Every record is typed strictly
(the pydantic models of :mod:`bot.services.chronicle.records`), every reference between records must
point inside the archive, counts must match the manifest, the settings must be ones the
system plays with, and each sheet must pass what ``/sheet import`` demands (format, system,
known keys, field types and ranges, the system's own validation).  The result is a plan of
plain rows; any problem raises :class:`ArchiveProblems` listing them all.
"""

from __future__ import annotations

import base64
from collections.abc import Container, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.i18n import LOCALES
from bot.services.campaigns.service import setting_specs
from bot.services.campaigns.settings import check_settings, resolved_settings
from bot.services.chronicle.archive import (
    GM_CHARACTERS,
    GM_POSTS,
    GM_ROLLS,
    GM_SCENES,
    GM_XP,
    MANIFEST,
    ArchiveContents,
    ArchiveProblems,
    read_archive,
)
from bot.services.chronicle.records import (
    Audience,
    CharacterRecord,
    CsvAudience,
    PictureRecord,
    PostRecord,
    RollRecord,
    SceneRecord,
    UmbriaPlayer,
    XpRecord,
    bad_value,
    read_record,
)
from bot.services.shared.audience import PUBLIC, Part, Secrecy
from bot.services.shared.audience import Audience as Audience_
from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import Avatar, checked_avatar, image_type
from bot.services.sheets.access import NO_SHEET, name_key, player_sheet
from bot.services.sheets.approvals import APPROVAL_STATES
from bot.services.sheets.imports import check_sheet, parse_document
from bot.services.sheets.schema import SHEET_SCHEMA_VERSION
from rules import systems
from rules.systems.base import RulesError

__all__ = ["CharacterPlan", "ImportPlan", "ScenePlan", "check_contents", "read_and_check"]

MAX_IMAGE_BYTES = 2 * 1024 * 1024  # a picture inside a post: what an Umbría import takes


@dataclass(frozen=True, slots=True)
class CharacterPlan:
    ref: int
    name: str
    name_key: str
    owner_user_id: int
    npc: bool
    hidden: bool
    approval: str
    template: int | None
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    deleted_by: int | None
    active_for: list[int]
    sheet: dict[str, Any]
    # the public profile (/sheet profile): concept, description, the avatar's checked bytes
    concept: str | None = None
    description: str | None = None
    avatar: Avatar | None = None
    history: str | None = None
    gm_note: str | None = None  # the referees' note (an Umbría character's Ficha and Equipo)
    umbria_player: dict[str, Any] | None = None  # who played it on Umbría (issue 27)


@dataclass(frozen=True, slots=True)
class ScenePlan:
    ref: int
    title: str
    private: bool
    players: list[int]
    opened_by: int
    created_at: datetime
    closed_at: datetime | None
    round_started_at: datetime | None
    opening_text: str | None = None


@dataclass(frozen=True, slots=True)
class ImportPlan:
    name: str
    system: str
    settings: dict[str, Any]
    locale: str | None
    sheet_version: int
    characters: list[CharacterPlan]
    scenes: list[ScenePlan]
    posts: list[dict[str, Any]]  # Post columns, with ``scene``/``character``/``roll`` refs
    rolls: list[dict[str, Any]]  # RollLog columns, with ``ref`` and ``scene``
    xp: list[dict[str, Any]]  # XpAward columns, with ``character``

    def counts(self) -> dict[str, int]:
        return {
            "scenes": len(self.scenes),
            "posts": len(self.posts),
            "characters": len(self.characters),
            "xp_awards": len(self.xp),
            "rolls": len(self.rolls),
        }


class _Numbers:
    """The export numbers (``ref``) of one file's rows, as they are read; a repeated one is
    a problem.  Rows of a file may name only rows of files read before it (scenes, then
    rolls, then posts), so one pass over each stream is enough."""

    def __init__(self, problems: ArchiveProblems, path: str) -> None:
        self.problems = problems
        self.path = path
        self.seen: set[int] = set()

    def add(self, value: Any) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            if value in self.seen:
                self.problems.add("chronicle.problem.duplicate_ref", path=self.path, ref=value)
            self.seen.add(value)

    def __contains__(self, value: object) -> bool:
        return value in self.seen


def read_and_check(payload: bytes, importer_id: int, name: str | None) -> ImportPlan:
    """The worker process's job for ``/campaign import``: read the zip, check its record."""
    return check_contents(read_archive(payload), importer_id, name)


def check_contents(
    contents: ArchiveContents, importer_id: int, name: str | None = None
) -> ImportPlan:
    """The import plan, or :class:`ArchiveProblems` with everything that is wrong."""
    problems = contents.budget.problems  # one list, with what the streams find
    campaign = contents.manifest["campaign"]
    system_id = campaign["system"]
    if system_id not in systems.ids():
        problems.add(
            "campaign.error.unknown_system",
            system=system_id[:20],
            choices=", ".join(systems.labelled(i) for i in systems.ids()),
        )
        raise problems
    system = systems.get(system_id)
    title = (name if name is not None else campaign["name"]).strip()
    if not title or len(title) > 100:
        problems.add("campaign.error.bad_name", limit=100)
    locale = campaign.get("locale")
    if locale is not None and locale not in LOCALES:
        problems.add("chronicle.problem.bad_field", path=MANIFEST, field="campaign.locale")
        locale = None
    stored = dict(campaign["settings"])
    specs = setting_specs(system_id)
    unknown = sorted(set(stored) - {spec.key for spec in specs})
    if unknown:
        problems.add("chronicle.problem.unknown_settings", keys=", ".join(unknown[:10]))
    settings = resolved_settings(specs, stored)
    try:
        check_settings(system, settings)
    except RulesError as error:
        for problem in error.problems:
            problems.add(problem.key, **dict(problem.params))
    except DomainError as error:
        problems.add(error.key, **error.params)
    if problems:
        raise problems  # sheets cannot be checked against settings the system refuses

    old_gm = campaign.get("gm_user_id")

    def owner(user_id: int) -> int:
        """The old GM's characters (NPCs above all) pass to the new GM, the importer."""
        return importer_id if user_id == old_gm else user_id

    character_refs = _Numbers(problems, GM_CHARACTERS)
    for entry in contents.characters:
        character_refs.add(entry.get("ref") if isinstance(entry, dict) else None)
    characters: list[CharacterPlan] = []
    live_names: dict[str, str] = {}
    players: set[int] = set()
    for entry in contents.characters:
        contents.budget.check_clock()  # checking a sheet takes the system's rules
        if not isinstance(entry, dict):
            problems.add("chronicle.problem.bad_file", path=GM_CHARACTERS)
            continue
        line = entry.get("ref")
        record = read_record(CharacterRecord, entry, problems, GM_CHARACTERS, line)
        approval = (record.approval if record else None) or "approved"
        if approval not in APPROVAL_STATES:
            bad_value(problems, GM_CHARACTERS, line, "approval")
            record = None
        if record is not None and not _known(
            problems, GM_CHARACTERS, line, template=(record.template, character_refs)
        ):
            record = None
        stored_avatar = _avatar(entry.get("avatar"), contents.media)
        avatar = stored_avatar if isinstance(stored_avatar, Avatar) else None
        if "avatar" in entry and avatar is None:
            bad_value(problems, GM_CHARACTERS, line, "avatar")
            record = None
            if isinstance(stored_avatar, DomainError):  # why: its size in pixels, its format
                problems.add(stored_avatar.key, **stored_avatar.params)
        file = entry.get("file") if isinstance(entry.get("file"), str) else None
        sheet = None
        if file is not None and file not in contents.sheets:
            problems.add("chronicle.problem.missing_file", path=file[:80])
        elif file is not None:
            sheet = _sheet(
                contents.sheets[file], file, system_id, system, settings, problems,
                validate=approval != NO_SHEET,  # an Umbría character waits for its sheet
            )  # fmt: skip
        if record is None or sheet is None:
            continue
        char_name = record.name
        active_for = [owner(u) for u in record.active_for]
        if sheet.get("name") != char_name:
            problems.add("chronicle.problem.sheet_mismatch", path=file)
            continue
        key = name_key(char_name)
        if record.deleted_at is None:
            if key in live_names:
                problems.add("chronicle.problem.duplicate_name", name=char_name)
            live_names[key] = char_name
        for user_id in active_for:
            if user_id in players:
                problems.add("chronicle.problem.two_active", user=user_id)
            players.add(user_id)
        characters.append(
            CharacterPlan(
                record.ref,
                char_name,
                key,
                owner(record.owner_user_id),
                record.npc,
                record.hidden,
                approval,
                record.template,
                record.created_at,
                record.updated_at,
                record.deleted_at,
                record.deleted_by,
                active_for,
                sheet,
                record.concept,
                record.description,
                avatar,
                record.history,
                record.gm_note,
                _umbria_player(record.umbria_player),
            )
        )

    found = {"characters": len(contents.characters), "scenes": 0, "rolls": 0, "posts": 0}
    found["xp_awards"] = 0
    scene_refs = _Numbers(problems, GM_SCENES)
    scenes: list[ScenePlan] = []
    for row in contents.scenes:
        found["scenes"] += 1
        scene_refs.add(row.get("ref"))
        scene = read_record(SceneRecord, row, problems, GM_SCENES, row.get("ref"))
        if scene is not None:
            scenes.append(
                ScenePlan(
                    ref=scene.ref,
                    title=scene.title,
                    private=scene.private,
                    players=list(scene.players),
                    opened_by=scene.opened_by,
                    created_at=scene.created_at,
                    closed_at=scene.closed_at,
                    round_started_at=scene.round_started_at,
                    opening_text=scene.opening_text,
                )
            )

    roll_refs = _Numbers(problems, GM_ROLLS)
    rolls: list[dict[str, Any]] = []
    for row in contents.rolls:
        found["rolls"] += 1
        roll_refs.add(_int_or_none(row.get("ref")))
        line = row.get("line")
        roll = read_record(RollRecord, row, problems, GM_ROLLS, line)
        if roll is None or not _known(problems, GM_ROLLS, line, scene=(roll.scene, scene_refs)):
            continue
        legacy = _legacy_roll(row, roll.private, roll.user_id)
        secrecy = _secrecy(roll, legacy, character_refs, problems, GM_ROLLS, line)
        if secrecy is not None:
            rolls.append(
                roll.model_dump(exclude={"audience", "audience_user_id", "secrets"})
                | {"user_name": roll.user_name or "", "breakdown": roll.breakdown or ""}
                | secrecy
            )

    post_refs = _Numbers(problems, GM_POSTS)  # for repeated numbers: nothing names a post
    posts: list[dict[str, Any]] = []
    for row in contents.posts:
        found["posts"] += 1
        post_refs.add(row.get("ref"))
        line = row.get("ref")
        post = read_record(PostRecord, row, problems, GM_POSTS, line)
        if post is None or not _known(
            problems, GM_POSTS, line,
            scene=(post.scene, scene_refs), character=(post.character, character_refs),
            roll=(post.roll, roll_refs), rolls=(post.rolls, roll_refs),
        ):  # fmt: skip
            continue
        images = _post_images(post.images, contents.media)
        if images is None:
            bad_value(problems, GM_POSTS, line, "images")
            continue
        legacy = PUBLIC
        if post.gm_only:
            legacy = Secrecy.private(post.author_user_id)
        secrecy = _secrecy(post, legacy, character_refs, problems, GM_POSTS, line)
        if secrecy is not None:
            posts.append(
                post.model_dump(exclude={"audience", "audience_user_id", "secrets", "images"})
                | {
                    "rolls": list(post.rolls) or ([post.roll] if post.roll else []),
                    "umbria_player": _umbria_player(post.umbria_player),
                    "images": images,
                }
                | secrecy
            )

    hidden_refs = {c.ref for c in characters if c.npc and c.hidden}
    xp: list[dict[str, Any]] = []
    for row in contents.xp:
        found["xp_awards"] += 1
        line = row.get("line")
        award = read_record(XpRecord, row, problems, GM_XP, line)
        if award is None or not _known(
            problems, GM_XP, line, character=(award.character, character_refs)
        ):
            continue
        legacy = PUBLIC
        if award.character in hidden_refs:  # version 1 kept them out of the public half
            legacy = PUBLIC.hiding_npc(award.character, (Part.RECORD,))
        secrecy = _secrecy(award, legacy, character_refs, problems, GM_XP, line)
        if secrecy is not None:
            xp.append(
                award.model_dump(exclude={"audience", "audience_user_id", "secrets"}) | secrecy
            )

    counts = contents.manifest["counts"]
    for what, count in found.items():
        if counts.get(what) != count:
            problems.add(
                "chronicle.problem.count_mismatch",
                what=what,
                expected=str(counts.get(what))[:12],
                found=count,
            )
    if problems:
        raise problems
    return ImportPlan(
        name=title,
        system=system_id,
        settings=stored,
        locale=locale,
        sheet_version=SHEET_SCHEMA_VERSION,
        characters=characters,
        scenes=scenes,
        posts=posts,
        rolls=rolls,
        xp=xp,
    )


_PARTS = frozenset(part.value for part in Part)


def _secrecy(
    record: Audience | CsvAudience,
    legacy: Secrecy,
    character_refs: Container[int],
    problems: ArchiveProblems,
    path: str,
    line: Any,
) -> dict[str, Any] | None:
    """A record's audience columns as the archive has them (``legacy`` when it predates
    them: archive version 1), checked: a known audience, its player, known parts, an NPC that
    is a character of the archive (by export number; the import maps it to the new id);
    None, with the field listed in ``problems``, when they are wrong."""
    if record.audience is None:
        return legacy.columns()
    audience, user_id, secrets = record.audience, record.audience_user_id, record.secrets
    if audience not in {a.value for a in Audience_} or (audience == "player" and user_id is None):
        bad_value(problems, path, line, "audience")
        return None
    npc = secrets.get("npc")
    parts = [*(secrets.get("sealed") or []), *(secrets.get("npc_sealed") or [])]
    if (
        set(secrets) - {"sealed", "npc", "npc_sealed", "members"}
        or any(not isinstance(p, str) or p not in _PARTS for p in parts)
        or not _members_fit(audience, secrets.get("members"))
        or (npc is not None and (not isinstance(npc, int) or npc not in character_refs))
    ):
        bad_value(problems, path, line, "secrets")
        return None
    return Secrecy.of(audience, user_id, secrets).columns()


def _members_fit(audience: str, members: Any) -> bool:
    """A whisper's members: a list of member ids (at most a thread's), only on one."""
    if members is None:
        return audience != Audience_.MEMBERS.value
    return (
        audience == Audience_.MEMBERS.value
        and isinstance(members, list)
        and 0 < len(members) <= 10
        and all(isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in members)
    )


def _known(
    problems: ArchiveProblems, path: str, line: Any, **refs: tuple[Any, Container[int]]
) -> bool:
    """Each reference of a record (an export number, or a list of them; None: none) names a
    record of the archive; every one that does not is listed."""
    ok = True
    for field, (value, known) in refs.items():
        values = value if isinstance(value, list) else [] if value is None else [value]
        if any(item not in known for item in values):
            bad_value(problems, path, line, field)
            ok = False
    return ok


def _legacy_roll(row: Mapping[str, Any], private: bool, user_id: int | None) -> Secrecy:
    """A version-1 roll's audience, as migration 0020 works it out from its flags."""
    secrecy = Secrecy.private(user_id) if private and user_id is not None else PUBLIC
    detail = row.get("detail")
    text = detail if isinstance(detail, str) else ""
    numbers = (Part.TOTAL, Part.DIFFICULTY, Part.DETAIL)
    if "hidden_opponent" in text or "hidden_request" in text:
        secrecy = secrecy.sealing(*numbers)
        if '"nothing"' in text:
            secrecy = secrecy.sealing(Part.OUTCOME)
    if '"secret"' in text:
        secrecy = secrecy.sealing(Part.DETAIL)
    return secrecy


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _umbria_player(player: UmbriaPlayer | None) -> dict[str, Any] | None:
    """``umbria_player`` of a record (issue 27) as the import stores it."""
    return None if player is None else player.model_dump()


def _post_images(
    pictures: list[PictureRecord], media: Mapping[str, bytes]
) -> list[dict[str, Any]] | None:
    """The pictures a post shows (``images``: an Umbría post's, issue 27) as ``PostImage``
    columns: each names an image file of the archive (read within the archive's budgets,
    :func:`~bot.services.chronicle.archive.read_archive`), checked by its bytes — a known
    image type, no bigger than an Umbría import takes — never by the declared type; None
    when one is not."""
    found: list[dict[str, Any]] = []
    for picture in pictures:
        data = media.get(picture.file)
        kind = image_type(data) if data is not None else None
        if data is None or kind is None or len(data) > MAX_IMAGE_BYTES:
            return None
        found.append({"name": picture.name, "media_type": f"image/{kind}", "data": data})
    return found


def _sheet(
    payload: bytes,
    path: str,
    system_id: str,
    system: Any,
    settings: Mapping[str, Any],
    problems: ArchiveProblems,
    *,
    validate: bool = True,
) -> dict[str, Any] | None:
    """One character's sheet, as strictly as ``/sheet import`` reads it (``validate``: also
    legal under the rules; an Umbría character's blank sheet waits for the wizard)."""
    try:
        document = parse_document(payload)
        sheet = check_sheet(document, system_id, system, dict(settings))
    except DomainError as error:
        problems.add("chronicle.problem.in_file", path=path)
        problems.add(error.key, **error.params)
        return None
    candidate = sheet if document.npc else player_sheet(sheet)
    found = list(system.validate(candidate, settings)) if validate else []
    if found:
        problems.add("chronicle.problem.in_file", path=path)
        for problem in found:
            problems.add(problem.key, **dict(problem.params))
        return None
    return sheet


def _avatar(value: Any, media: Mapping[str, bytes]) -> Avatar | DomainError | None:
    """A stored avatar as the export writes it — the image file it names (``file``; version
    1 archives carried base64 ``data``) — checked as ``/sheet profile`` checks an upload
    (:func:`checked_avatar`: its bytes and its header, never the declared type); the
    refusal, or None when it is no avatar record at all (or names no file of the zip)."""
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("file"), str):
        data = media.get(value["file"])
        return _checked(data) if data is not None else None
    if not isinstance(value.get("data"), str):
        return None
    try:
        decoded = base64.b64decode(value["data"], validate=True)
    except ValueError:
        return None
    return _checked(decoded)


def _checked(data: bytes) -> Avatar | DomainError:
    try:
        return checked_avatar(data)
    except DomainError as refused:
        return refused
