"""Checks a read chronicle archive against its rule system before anything is written.

Runs in the bot's worker process (:class:`bot.compute.ComputePool`): whatever it raises
must pickle, so every refusal is an :class:`ArchiveProblems`.  Every record is typed strictly
(:class:`~bot.services.chronicle.archive.FieldReader`), every reference between records must
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
    MAX_POST_IMAGES,
    MAX_SCENES,
    ArchiveContents,
    ArchiveProblems,
    FieldReader,
    read_archive,
)
from bot.services.shared.audience import PUBLIC, Audience, Part, Secrecy
from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import Avatar, checked_avatar, image_type
from bot.services.sheets.access import MAX_NAME, NO_SHEET, name_key, player_sheet
from bot.services.sheets.approvals import APPROVAL_STATES
from bot.services.sheets.imports import check_sheet, parse_document
from bot.services.sheets.profiles import MAX_CONCEPT, MAX_DESCRIPTION
from bot.services.sheets.schema import SHEET_SCHEMA_VERSION
from rules import systems
from rules.systems.base import RulesError
from rules.values import MAX_STORED

__all__ = ["CharacterPlan", "ImportPlan", "ScenePlan", "check_contents", "read_and_check"]

INT32 = MAX_STORED + 1  # the one range of a stored number (rules.values): |n| < INT32
MAX_POST_TEXT = 64 * 1024  # more than any Discord message; a post is split into several
MAX_BREAKDOWN = 10_000
MAX_HISTORY = 100_000  # a profile's history, a referee's note (an Umbría character's)
MAX_IMAGE_BYTES = 2 * 1024 * 1024  # a picture inside a post: what an Umbría import takes
MAX_IMAGE_NAME = 200


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
        read = FieldReader(problems, GM_CHARACTERS, entry)
        ref = read.integer("ref", low=1)
        file = read.string("file", 200)
        char_name = read.string("name", MAX_NAME)
        owner_id = read.integer("owner_user_id", low=0)
        npc, hidden = read.boolean("npc"), read.boolean("hidden")
        approval = read.string("approval", 10, optional=True) or "approved"
        if approval not in APPROVAL_STATES:
            read.ok = False
            problems.add(
                "chronicle.problem.bad_value",
                path=GM_CHARACTERS,
                line=str(entry.get("ref"))[:12],
                field="approval",
            )
        template = read.ref("template", character_refs.__contains__)
        created, updated = read.moment("created_at"), read.moment("updated_at")
        deleted_at = read.moment("deleted_at", optional=True)
        deleted_by = read.integer("deleted_by", optional=True, low=0)
        active_for = [owner(u) for u in read.id_list("active_for")]
        concept = read.string("concept", MAX_CONCEPT, optional=True)
        description = read.string("description", MAX_DESCRIPTION, optional=True)
        history = read.string("history", MAX_HISTORY, optional=True)
        gm_note = read.string("gm_note", MAX_HISTORY, optional=True)
        umbria = _umbria_player(read, entry)
        stored_avatar = _avatar(entry.get("avatar"), contents.media)
        avatar = stored_avatar if isinstance(stored_avatar, Avatar) else None
        if "avatar" in entry and avatar is None:
            read.ok = False
            problems.add(
                "chronicle.problem.bad_value",
                path=GM_CHARACTERS,
                line=str(entry.get("ref"))[:12],
                field="avatar",
            )
            if isinstance(stored_avatar, DomainError):  # why: its size in pixels, its format
                problems.add(stored_avatar.key, **stored_avatar.params)
        sheet = None
        if file is not None and file not in contents.sheets:
            problems.add("chronicle.problem.missing_file", path=file[:80])
        elif file is not None:
            sheet = _sheet(
                contents.sheets[file], file, system_id, system, settings, problems,
                validate=approval != NO_SHEET,  # an Umbría character waits for its sheet
            )  # fmt: skip
        if not read.ok or sheet is None:
            continue
        assert ref is not None and char_name is not None and owner_id is not None
        assert created is not None and updated is not None
        if sheet.get("name") != char_name:
            problems.add("chronicle.problem.sheet_mismatch", path=file)
            continue
        key = name_key(char_name)
        if deleted_at is None:
            if key in live_names:
                problems.add("chronicle.problem.duplicate_name", name=char_name)
            live_names[key] = char_name
        for user_id in active_for:
            if user_id in players:
                problems.add("chronicle.problem.two_active", user=user_id)
            players.add(user_id)
        characters.append(
            CharacterPlan(
                ref,
                char_name,
                key,
                owner(owner_id),
                npc,
                hidden,
                approval,
                template,
                created,
                updated,
                deleted_at,
                deleted_by,
                active_for,
                sheet,
                concept,
                description,
                avatar,
                history,
                gm_note,
                umbria,
            )
        )

    found = {"characters": len(contents.characters), "scenes": 0, "rolls": 0, "posts": 0}
    found["xp_awards"] = 0
    scene_refs = _Numbers(problems, GM_SCENES)
    scenes: list[ScenePlan] = []
    for row in contents.scenes:
        found["scenes"] += 1
        scene_refs.add(row.get("ref"))
        read = FieldReader(problems, GM_SCENES, row)
        scene = ScenePlan(
            ref=read.integer("ref", low=1, high=MAX_SCENES),
            title=read.string("title", 100),
            private=read.boolean("private"),
            players=read.id_list("players"),
            opened_by=read.integer("opened_by", low=0),
            created_at=read.moment("created_at"),  # type: ignore[arg-type]  # checked: read.ok
            closed_at=read.moment("closed_at", optional=True),
            round_started_at=read.moment("round_started_at", optional=True),
            opening_text=read.string("opening_text", MAX_POST_TEXT, optional=True),
        )
        if read.string("status", 10) not in ("open", "closed"):
            read.ok = False
            problems.add(
                "chronicle.problem.bad_value", path=GM_SCENES, line=str(scene.ref), field="status"
            )
        if read.ok:
            scenes.append(scene)

    roll_refs = _Numbers(problems, GM_ROLLS)
    rolls: list[dict[str, Any]] = []
    for row in contents.rolls:
        found["rolls"] += 1
        roll_refs.add(_int_or_none(row.get("ref")))
        read = FieldReader(problems, GM_ROLLS, row, text=True)
        roll = {
            "ref": read.integer("ref", low=1),
            "scene": read.ref("scene", scene_refs.__contains__),
            "created_at": read.moment("created_at"),
            "user_id": read.integer("user_id", low=0),
            "user_name": _text(read.string("user_name", 100, optional=True)),
            "character_name": read.string("character_name", 100, optional=True),
            "kind": read.string("kind", 20),
            "expression": read.string("expression", 250),
            "reason": read.string("reason", 200, optional=True),
            "breakdown": _text(read.string("breakdown", MAX_BREAKDOWN, optional=True)),
            "total": read.integer("total", low=-MAX_STORED),
            "difficulty": read.integer("difficulty", optional=True, low=-MAX_STORED),
            "outcome": read.string("outcome", 20, optional=True),
            "fumble": read.boolean("fumble"),
            "private": read.boolean("private"),
            "detail": read.json_object("detail"),
        }
        roll.update(
            _secrecy(
                read,
                row,
                character_refs,
                _legacy_roll(row, bool(roll["private"]), roll["user_id"]),
            )
        )
        for field in ("total", "difficulty"):
            if roll[field] is not None and roll[field] >= INT32:
                read.ok = False
                problems.add(
                    "chronicle.problem.bad_value", path=GM_ROLLS, line=str(read.line), field=field
                )
        if read.ok:
            rolls.append(roll)

    post_refs = _Numbers(problems, GM_POSTS)  # for repeated numbers: nothing names a post
    posts: list[dict[str, Any]] = []
    for row in contents.posts:
        found["posts"] += 1
        post_refs.add(row.get("ref"))
        read = FieldReader(problems, GM_POSTS, row)
        post = {
            "ref": read.integer("ref", low=1),
            "scene": read.ref("scene", scene_refs.__contains__),
            "author_user_id": read.integer("author_user_id", low=0),
            "character": read.ref("character", character_refs.__contains__),
            "speaker_name": read.string("speaker_name", 100),
            "webhook_name": read.string("webhook_name", 80, optional=True),
            "gm_post": read.boolean("gm_post"),
            "gm_only": read.boolean("gm_only"),
            "text": read.string("text", MAX_POST_TEXT),
            "notes": read.string("notes", MAX_POST_TEXT, optional=True),
            "notes_private": read.boolean("notes_private") if "notes_private" in row else False,
            "roll": read.ref("roll", roll_refs.__contains__),
            # every roll of the post (typed [[…]], a macro's rolls); older archives: the one
            "rolls": read.refs("rolls", roll_refs.__contains__),
            "created_at": read.moment("created_at"),
            "edited_at": read.moment("edited_at", optional=True),
            "deleted_at": read.moment("deleted_at", optional=True),
            "source_ref": read.string("source_ref", 60, optional=True),
            "umbria_player": _umbria_player(read, row),
            "images": _post_images(read, row, contents.media),
        }
        legacy = PUBLIC
        if post["gm_only"] and post["author_user_id"] is not None:
            legacy = Secrecy.private(post["author_user_id"])
        post.update(_secrecy(read, row, character_refs, legacy))
        if read.ok:
            if not post["rolls"] and post["roll"]:
                post["rolls"] = [post["roll"]]
            posts.append(post)

    hidden_refs = {c.ref for c in characters if c.npc and c.hidden}
    xp: list[dict[str, Any]] = []
    for row in contents.xp:
        found["xp_awards"] += 1
        read = FieldReader(problems, GM_XP, row, text=True)
        award = {
            "ref": read.integer("ref", low=1),
            "created_at": read.moment("created_at"),
            "character": read.ref("character", character_refs.__contains__, optional=False),
            "character_name": read.string("character_name", 100),
            "granted_by": read.integer("granted_by", low=0),
            "amount": read.integer("amount", low=-MAX_STORED),
            "xp_before": read.integer("xp_before", low=-MAX_STORED),
            "xp_after": read.integer("xp_after", low=-MAX_STORED),
            "reason": read.string("reason", 200, optional=True),
        }
        legacy = PUBLIC
        if award["character"] in hidden_refs:  # version 1 kept them out of the public half
            legacy = PUBLIC.hiding_npc(award["character"], (Part.RECORD,))
        award.update(_secrecy(read, row, character_refs, legacy))
        for field in ("amount", "xp_before", "xp_after"):
            if award[field] is not None and award[field] >= INT32:
                read.ok = False
                problems.add(
                    "chronicle.problem.bad_value", path=GM_XP, line=str(read.line), field=field
                )
        if read.ok:
            xp.append(award)

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
    read: FieldReader,
    row: Mapping[str, Any],
    character_refs: Container[int],
    legacy: Secrecy,
) -> dict[str, Any]:
    """A record's audience columns as the archive has them (``legacy`` when it predates
    them: archive version 1), checked: a known audience, its player, known parts, an NPC that
    is a character of the archive (by export number; the import maps it to the new id)."""
    if row.get("audience") in (None, ""):
        return legacy.columns()
    audience = read.string("audience", 10)
    user_id = read.integer("audience_user_id", optional=True, low=0)
    secrets = read.json_object("secrets") if read.text else row.get("secrets", {})
    if audience not in {a.value for a in Audience} or (audience == "player" and user_id is None):
        read.ok = False
        read.problems.add(
            "chronicle.problem.bad_value",
            path=read.path,
            line=str(read.line)[:12],
            field="audience",
        )
        return PUBLIC.columns()
    npc = secrets.get("npc") if isinstance(secrets, dict) else None
    parts = [
        *(secrets.get("sealed") or [] if isinstance(secrets, dict) else []),
        *(secrets.get("npc_sealed") or [] if isinstance(secrets, dict) else []),
    ]
    if (
        not isinstance(secrets, dict)
        or set(secrets) - {"sealed", "npc", "npc_sealed", "members"}
        or any(not isinstance(p, str) or p not in _PARTS for p in parts)
        or not _members_fit(audience, secrets.get("members"))
        or (npc is not None and (not isinstance(npc, int) or npc not in character_refs))
    ):
        read.ok = False
        read.problems.add(
            "chronicle.problem.bad_value", path=read.path, line=str(read.line)[:12], field="secrets"
        )
        return PUBLIC.columns()
    return Secrecy.of(audience, user_id, secrets).columns()


def _members_fit(audience: str, members: Any) -> bool:
    """A whisper's members: a list of member ids (at most a thread's), only on one."""
    if members is None:
        return audience != Audience.MEMBERS.value
    return (
        audience == Audience.MEMBERS.value
        and isinstance(members, list)
        and 0 < len(members) <= 10
        and all(isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in members)
    )


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


def _text(value: str | None) -> str:
    """A column stored as text that may be empty (an anonymised roll's user name)."""
    return value or ""


def _umbria_player(read: FieldReader, row: Mapping[str, Any]) -> dict[str, Any] | None:
    """``umbria_player`` of a record (issue 27): the Umbría number and name of who wrote or
    played it, and the member who claimed them; absent for everything else."""
    value = row.get("umbria_player")
    if value is None:
        return None
    claimed = value.get("claimed_by") if isinstance(value, dict) else None
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("id"), str)
        or not 0 < len(value["id"]) <= 40
        or not isinstance(value.get("name"), str)
        or not 0 < len(value["name"]) <= 100
        or not (claimed is None or (isinstance(claimed, int) and not isinstance(claimed, bool)))
    ):
        read._bad("umbria_player")
        return None
    return {"id": value["id"], "name": value["name"], "claimed_by": claimed}


def _post_images(
    read: FieldReader, row: Mapping[str, Any], media: Mapping[str, bytes]
) -> list[dict[str, Any]]:
    """The pictures a post shows (``images``: an Umbría post's, issue 27) as ``PostImage``
    columns: each names an image file of the archive (read within the archive's budgets,
    :func:`~bot.services.chronicle.archive.read_archive`), checked by its bytes — a known
    image type, no bigger than an Umbría import takes — never by the declared type."""
    value = row.get("images")
    if value is None:
        return []
    found: list[dict[str, Any]] = []
    if not isinstance(value, list) or len(value) > MAX_POST_IMAGES:
        read._bad("images")
        return []
    for picture in value:
        name = picture.get("name") if isinstance(picture, dict) else None
        file = picture.get("file") if isinstance(picture, dict) else None
        data = media.get(file) if isinstance(file, str) else None
        kind = image_type(data) if isinstance(data, bytes) else None
        if (
            not isinstance(name, str)
            or not 0 < len(name) <= MAX_IMAGE_NAME
            or data is None
            or kind is None
            or len(data) > MAX_IMAGE_BYTES
        ):
            read._bad("images")
            return []
        found.append({"name": name, "media_type": f"image/{kind}", "data": data})
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
    candidate = sheet if document.get("npc") else player_sheet(sheet)
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
