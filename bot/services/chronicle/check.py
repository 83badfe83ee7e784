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
from collections.abc import Callable, Mapping
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
    CharacterRecord,
    PostRecord,
    RollRecord,
    SceneRecord,
    XpRecord,
    bad_value,
    read_record,
)
from bot.services.shared.errors import DomainError
from bot.services.shared.post_text import Avatar, validate_avatar
from bot.services.sheets.access import NO_SHEET, name_key, player_sheet
from bot.services.sheets.approvals import APPROVAL_STATES
from bot.services.sheets.imports import check_sheet, parse_document
from bot.services.sheets.schema import SHEET_SCHEMA_VERSION
from rules import systems
from rules.systems.base import RulesError

__all__ = ["CharacterPlan", "ImportPlan", "ScenePlan", "check_contents", "read_and_check"]


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


def _refs(
    rows: list[Any], problems: ArchiveProblems, path: str, ref: Callable[[Any], Any]
) -> set[int]:
    """The export numbers of ``rows``; a repeated one is a problem."""
    seen: set[int] = set()
    for row in rows:
        value = ref(row)
        if isinstance(value, int) and not isinstance(value, bool):
            if value in seen:
                problems.add("chronicle.problem.duplicate_ref", path=path, ref=value)
            seen.add(value)
    return seen


def read_and_check(payload: bytes, importer_id: int, name: str | None) -> ImportPlan:
    """The worker process's job for ``/campaign import``: read the zip, check its record."""
    return check_contents(read_archive(payload), importer_id, name)


def check_contents(
    contents: ArchiveContents, importer_id: int, name: str | None = None
) -> ImportPlan:
    """The import plan, or :class:`ArchiveProblems` with everything that is wrong."""
    problems = ArchiveProblems()
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

    character_refs = _refs(
        contents.characters,
        problems,
        GM_CHARACTERS,
        lambda c: c.get("ref") if isinstance(c, dict) else None,
    )
    characters: list[CharacterPlan] = []
    live_names: dict[str, str] = {}
    players: set[int] = set()
    for entry in contents.characters:
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
            record, {"template": character_refs}, problems, GM_CHARACTERS, entry
        ):
            record = None
        avatar = _avatar(entry.get("avatar"))
        if "avatar" in entry and avatar is None:
            bad_value(problems, GM_CHARACTERS, line, "avatar")
            record = None
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
                record.umbria_player.model_dump() if record.umbria_player else None,
            )
        )

    scene_refs = _refs(contents.scenes, problems, GM_SCENES, lambda s: s.get("ref"))
    scenes: list[ScenePlan] = []
    for row in contents.scenes:
        scene = read_record(SceneRecord, row, problems, GM_SCENES, row.get("ref"))
        if scene is not None:
            scenes.append(
                ScenePlan(
                    ref=scene.ref,
                    title=scene.title,
                    private=scene.private,
                    players=scene.players,
                    opened_by=scene.opened_by,
                    created_at=scene.created_at,
                    closed_at=scene.closed_at,
                    round_started_at=scene.round_started_at,
                    opening_text=scene.opening_text,
                )
            )

    roll_refs = _refs(contents.rolls, problems, GM_ROLLS, lambda r: _int_or_none(r.get("ref")))
    rolls: list[dict[str, Any]] = []
    for row in contents.rolls:
        roll = read_record(RollRecord, row, problems, GM_ROLLS, row.get("line"))
        if roll is not None and _known(roll, {"scene": scene_refs}, problems, GM_ROLLS, row):
            rolls.append(
                {
                    **roll.model_dump(),
                    "user_name": roll.user_name or "",  # an anonymised roll's is empty
                    "breakdown": roll.breakdown or "",
                }
            )

    post_refs = _refs(contents.posts, problems, GM_POSTS, lambda p: p.get("ref"))
    del post_refs
    posts: list[dict[str, Any]] = []
    for row in contents.posts:
        post = read_record(PostRecord, row, problems, GM_POSTS, row.get("ref"))
        known = {"scene": scene_refs, "character": character_refs, "roll": roll_refs}
        if post is not None and _known(post, known, problems, GM_POSTS, row):
            posts.append(post.model_dump())

    xp: list[dict[str, Any]] = []
    for row in contents.xp:
        award = read_record(XpRecord, row, problems, GM_XP, row.get("line"))
        if award is not None and _known(award, {"character": character_refs}, problems, GM_XP, row):
            xp.append(award.model_dump())

    counts = contents.manifest["counts"]
    found = {
        "scenes": len(contents.scenes),
        "posts": len(contents.posts),
        "characters": len(contents.characters),
        "xp_awards": len(contents.xp),
        "rolls": len(contents.rolls),
    }
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


def _int_or_none(value: Any) -> int | None:
    return int(value) if isinstance(value, str) and value.isdigit() else None


def _known(
    record: Any,
    refs: Mapping[str, set[int]],
    problems: ArchiveProblems,
    path: str,
    row: Mapping[str, Any],
) -> bool:
    """Every export number ``record`` refers to is a record of the archive (a wrong one is
    listed as a bad value of that field)."""
    ok = True
    for field, known in refs.items():
        value = getattr(record, field)
        if value is not None and value not in known:
            bad_value(problems, path, row.get("line", row.get("ref")), field)
            ok = False
    return ok


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


def _avatar(value: Any) -> Avatar | None:
    """A stored avatar as the export writes it (``type`` and base64 ``data``), checked as
    ``/sheet profile`` checks an upload: by its bytes, never by the declared type."""
    if not isinstance(value, dict) or not isinstance(value.get("data"), str):
        return None
    try:
        data = base64.b64decode(value["data"], validate=True)
    except ValueError:
        return None
    return validate_avatar(data)
