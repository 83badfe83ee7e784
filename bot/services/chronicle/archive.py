"""The chronicle's zip (``/campaign export`` and ``/campaign import``): layout, writing, reading.

Pure: no database, no Discord, no event loop.  Both directions run in the bot's worker
process (:class:`bot.compute.ComputePool`, from :mod:`bot.services.chronicle.service`).

Layout (``docs/play-by-post.md``, "La crónica").  Everything outside ``gm/`` is safe to hand
to the players (no GM-only post, no private roll, no hidden NPC, no private scene); ``gm/``
holds the GM's material and the complete record the import reads::

    manifest.json               format, version, campaign, system, settings, counts
    index.html, index.md        the table of contents
    scenes/NNN-title.md|html    each public scene, posts in order
    characters/profiles.json    public profiles of the characters players can see
    xp.csv, rolls.csv           the XP ledger and the roll log, public rows only
    gm/scenes/NNN-title.md|html every scene complete, GM-only material marked
    gm/unplaced.md|html         posts made outside any scene (GM channel, private threads)
    gm/characters.json          every character: owner, NPC, hidden, deleted, sheet file
    gm/characters/NNN-name.json each full sheet, in the /sheet export format
    gm/scenes.jsonl, gm/posts.jsonl, gm/xp.csv, gm/rolls.csv   the complete record

Rows name each other by *export numbers* (``ref``: 1, 2, 3… in database order), never by
database or Discord ids, so exporting an imported campaign gives the same files.

Reading is strict and bounded before anything is decompressed: the archive's size, the
number of members, each member's and the total uncompressed size (counted while reading,
not trusted from the headers), and member names (no absolute paths, no ``..``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
import zipfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.services.chronicle.zipfiles import MemberBudget, ZipOverflow, bad_member_name

__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "MAX_ARCHIVE_BYTES",
    "MAX_FILES",
    "MAX_MEMBER_BYTES",
    "MAX_SCENES",
    "MAX_UNCOMPRESSED",
    "ROLL_COLUMNS",
    "XP_COLUMNS",
    "ArchiveContents",
    "ArchiveProblems",
    "ArchiveTooBig",
    "ArchiveWriter",
    "iso",
    "read_archive",
    "slug",
]

ARCHIVE_FORMAT = "arbitro.chronicle"
ARCHIVE_VERSION = 1
#: Discord's largest upload (a server with level 3 boosts): no exported zip can be bigger.
MAX_ARCHIVE_BYTES = 100 * 1024 * 1024
#: What an archive may hold once decompressed, and one member of it (a zip bomb stops here).
MAX_UNCOMPRESSED = 256 * 1024 * 1024
MAX_MEMBER_BYTES = 64 * 1024 * 1024
MAX_FILES = 20_000
#: Scenes in one archive, and so the largest scene number (``ref``) it may use: an imported
#: scene's channel id is ``-(campaign id × (MAX_SCENES + 1) + ref)``, so a larger number
#: would name another campaign's scene (and 2^63−1 overflowed the column).
MAX_SCENES = 99_999
#: Problems listed at most in one refusal (the rest are counted).
MAX_PROBLEMS = 15

ROLL_COLUMNS = (
    "ref",
    "scene",
    "created_at",
    "user_id",
    "user_name",
    "character_name",
    "kind",
    "expression",
    "reason",
    "breakdown",
    "total",
    "difficulty",
    "outcome",
    "fumble",
    "private",
    "detail",
)
XP_COLUMNS = (
    "ref",
    "created_at",
    "character",
    "character_name",
    "granted_by",
    "amount",
    "xp_before",
    "xp_after",
    "reason",
)

# Files the import reads; everything else is for people.
MANIFEST = "manifest.json"
GM_CHARACTERS = "gm/characters.json"
GM_SCENES = "gm/scenes.jsonl"
GM_POSTS = "gm/posts.jsonl"
GM_ROLLS = "gm/rolls.csv"
GM_XP = "gm/xp.csv"
CHARACTER_FILE = re.compile(r"^gm/characters/[0-9]{3,6}-[a-z0-9-]{0,60}\.json$")


def iso(value: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC (SQLite hands back naive UTC times, PostgreSQL too)."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def slug(text: str, limit: int = 40) -> str:
    """A file-name-safe form of a title: ``Ascenso al Pico Gris`` → ``ascenso-al-pico-gris``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:limit].strip("-")


class ArchiveTooBig(Exception):
    """The export grew past what an import accepts (:data:`MAX_UNCOMPRESSED`)."""


class ArchiveWriter:
    """Builds the zip in memory, counting what it holds so it never outgrows the import."""

    def __init__(self) -> None:
        self.buffer = io.BytesIO()
        self.zip = zipfile.ZipFile(self.buffer, "w", compression=zipfile.ZIP_DEFLATED)
        self.total = 0
        self.names: list[str] = []

    def add(self, name: str, data: str | bytes) -> None:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        self.total += len(payload)
        if (
            self.total > MAX_UNCOMPRESSED
            or len(payload) > MAX_MEMBER_BYTES
            or len(self.names) >= MAX_FILES
        ):
            raise ArchiveTooBig()
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, payload)
        self.names.append(name)

    def add_json(self, name: str, value: Any) -> None:
        self.add(name, json.dumps(value, ensure_ascii=False, indent=2) + "\n")

    def add_jsonl(self, name: str, rows: Iterable[Mapping[str, Any]]) -> None:
        self.add(name, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))

    def add_csv(
        self, name: str, columns: tuple[str, ...], rows: Iterable[Mapping[str, Any]]
    ) -> None:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_csv_cell(row.get(column)) for column in columns])
        self.add(name, out.getvalue())

    def close(self) -> bytes:
        self.zip.close()
        return self.buffer.getvalue()


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


# -- reading ----------------------------------------------------------------------------


@dataclass
class ArchiveProblems(Exception):
    """Everything wrong with an archive, as ``(catalogue key, params)`` pairs (translated by
    the cog), so the GM fixes the file once instead of once per problem."""

    problems: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    more: int = 0

    def add(self, key: str, **params: Any) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append((key, params))
        else:
            self.more += 1

    def __bool__(self) -> bool:
        return bool(self.problems)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole: the worker process raises it, the bot's process reads it."""
        return (type(self), (self.problems, self.more))

    def __str__(self) -> str:
        return "; ".join(f"{key} {params}" for key, params in self.problems)


@dataclass(frozen=True, slots=True)
class ArchiveContents:
    """What the import reads from a valid archive (plain JSON values, not yet checked
    against a rule system: :mod:`bot.services.chronicle.service` does that)."""

    manifest: dict[str, Any]
    characters: list[Any]  # checked entry by entry (bot.services.chronicle.check)
    sheets: dict[str, bytes]  # character file name → its /sheet export document
    scenes: list[dict[str, Any]]
    posts: list[dict[str, Any]]
    rolls: list[dict[str, Any]]
    xp: list[dict[str, Any]]


def read_archive(payload: bytes) -> ArchiveContents:
    """The archive's record, or :class:`ArchiveProblems` listing why it cannot be imported."""
    problems = ArchiveProblems()
    if len(payload) > MAX_ARCHIVE_BYTES:
        problems.add("chronicle.problem.archive_too_big", limit=MAX_ARCHIVE_BYTES // 2**20)
        raise problems
    try:
        archive = zipfile.ZipFile(io.BytesIO(payload))
        members = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError):
        problems.add("chronicle.problem.not_zip")
        raise problems from None
    if len(members) > MAX_FILES:
        problems.add("chronicle.problem.too_many_files", count=len(members), limit=MAX_FILES)
        raise problems
    seen: set[str] = set()
    declared = 0
    for info in members:
        if bad_member_name(info.filename):
            problems.add("chronicle.problem.bad_path", path=info.filename[:80])
        elif info.filename in seen:
            problems.add("chronicle.problem.duplicate_path", path=info.filename[:80])
        seen.add(info.filename)
        declared += info.file_size
    if declared > MAX_UNCOMPRESSED:
        problems.add("chronicle.problem.uncompressed_too_big", limit=MAX_UNCOMPRESSED // 2**20)
    if problems:
        raise problems
    budget = MemberBudget(MAX_UNCOMPRESSED, MAX_MEMBER_BYTES)

    def read(name: str) -> bytes | None:
        if name not in seen:
            problems.add("chronicle.problem.missing_file", path=name)
            return None
        try:
            return budget.read(archive, name)
        except ZipOverflow:
            problems.add("chronicle.problem.uncompressed_too_big", limit=MAX_UNCOMPRESSED // 2**20)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
            problems.add("chronicle.problem.corrupt_file", path=name)
        return None

    manifest = _json(read(MANIFEST), MANIFEST, problems)
    if problems:
        raise problems
    _check_manifest(manifest, problems)
    if problems:
        raise problems
    characters = _json(read(GM_CHARACTERS), GM_CHARACTERS, problems)
    if not isinstance(characters, list):
        if characters is not None:
            problems.add("chronicle.problem.bad_file", path=GM_CHARACTERS)
        characters = []
    sheets: dict[str, bytes] = {}
    for entry in characters:
        name = entry.get("file") if isinstance(entry, dict) else None
        if isinstance(name, str) and CHARACTER_FILE.match(name) and name not in sheets:
            data = read(name)
            if data is not None:
                sheets[name] = data
    scenes = _jsonl(read(GM_SCENES), GM_SCENES, problems)
    posts = _jsonl(read(GM_POSTS), GM_POSTS, problems)
    rolls = _csv(read(GM_ROLLS), GM_ROLLS, ROLL_COLUMNS, problems)
    xp = _csv(read(GM_XP), GM_XP, XP_COLUMNS, problems)
    if problems:
        raise problems
    return ArchiveContents(manifest, characters, sheets, scenes, posts, rolls, xp)


def _check_manifest(manifest: Any, problems: ArchiveProblems) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
        problems.add("chronicle.problem.wrong_format", format=ARCHIVE_FORMAT)
        return
    if manifest.get("version") != ARCHIVE_VERSION:
        problems.add(
            "chronicle.problem.wrong_version",
            version=str(manifest.get("version"))[:20],
            expected=ARCHIVE_VERSION,
        )
    campaign = manifest.get("campaign")
    if not isinstance(campaign, dict):
        problems.add("chronicle.problem.bad_field", path=MANIFEST, field="campaign")
        return
    for key, kind in (("name", str), ("system", str), ("settings", dict)):
        if not isinstance(campaign.get(key), kind):
            problems.add("chronicle.problem.bad_field", path=MANIFEST, field=f"campaign.{key}")
    if not isinstance(manifest.get("counts"), dict):
        problems.add("chronicle.problem.bad_field", path=MANIFEST, field="counts")


def _json(data: bytes | None, name: str, problems: ArchiveProblems) -> Any:
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        problems.add("chronicle.problem.bad_file", path=name)
        return None


def _jsonl(data: bytes | None, name: str, problems: ArchiveProblems) -> list[dict[str, Any]]:
    if data is None:
        return []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        problems.add("chronicle.problem.bad_file", path=name)
        return []
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            row = None
        if not isinstance(row, dict):
            problems.add("chronicle.problem.bad_line", path=name, line=number)
            continue
        rows.append(row)
    return rows


def _csv(
    data: bytes | None, name: str, columns: tuple[str, ...], problems: ArchiveProblems
) -> list[dict[str, Any]]:
    if data is None:
        return []
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""))
        header = next(reader, None)
        if header is None or tuple(header) != columns:
            problems.add("chronicle.problem.bad_columns", path=name, columns=", ".join(columns))
            return []
        rows = []
        for number, cells in enumerate(reader, start=2):
            if len(cells) != len(columns):
                problems.add("chronicle.problem.bad_line", path=name, line=number)
                continue
            rows.append({"line": number, **dict(zip(columns, cells, strict=True))})
        return rows
    except (UnicodeDecodeError, csv.Error):
        problems.add("chronicle.problem.bad_file", path=name)
        return []


# -- typed fields of the record ---------------------------------------------------------


class FieldReader:
    """Reads one record's fields with strict types, listing every bad one in ``problems``.

    JSON rows carry typed values; CSV cells are text (``text=True``) and are converted here
    exactly (``"12"`` is an integer, ``"12.0"`` is not).
    """

    def __init__(
        self, problems: ArchiveProblems, path: str, row: Mapping[str, Any], *, text: bool = False
    ) -> None:
        self.problems = problems
        self.path = path
        self.row = row
        self.text = text
        self.line = row.get("line") if text else row.get("ref")
        self.ok = True

    def _bad(self, name: str) -> None:
        self.ok = False
        self.problems.add(
            "chronicle.problem.bad_value", path=self.path, line=str(self.line)[:12], field=name
        )

    def _raw(self, name: str, optional: bool) -> tuple[bool, Any]:
        value = self.row.get(name)
        if value is None or (self.text and value == ""):
            if not optional:
                self._bad(name)
            return False, None
        return True, value

    def integer(
        self, name: str, *, optional: bool = False, low: int = -(2**63), high: int = 2**63 - 1
    ) -> Any:
        present, value = self._raw(name, optional)
        if not present:
            return None
        if self.text:
            value = (
                int(value)
                if isinstance(value, str) and re.fullmatch(r"-?\d{1,19}", value)
                else None
            )
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self._bad(name)
            return None
        return value

    def string(self, name: str, limit: int, *, optional: bool = False) -> Any:
        present, value = self._raw(name, optional)
        if not present:
            return None
        if not isinstance(value, str) or len(value) > limit:
            self._bad(name)
            return None
        return value

    def boolean(self, name: str) -> bool:
        value = self.row.get(name)
        if self.text:
            value = {"true": True, "false": False}.get(value) if isinstance(value, str) else None
        if not isinstance(value, bool):
            self._bad(name)
            return False
        return value

    def moment(self, name: str, *, optional: bool = False) -> datetime | None:
        present, value = self._raw(name, optional)
        if not present:
            return None
        try:
            parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
        except ValueError:
            parsed = None
        if parsed is None:
            self._bad(name)
            return None
        return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)

    def json_object(self, name: str) -> dict[str, Any]:
        value = self.row.get(name)
        if self.text and isinstance(value, str):
            try:
                value = json.loads(value) if value else {}
            except (ValueError, RecursionError):
                value = None
        if not isinstance(value, dict):
            self._bad(name)
            return {}
        return value

    def id_list(self, name: str) -> list[int]:
        value = self.row.get(name)
        if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) and 0 <= item < 2**63
            for item in value
        ):
            self._bad(name)
            return []
        return list(value)

    def ref(self, name: str, known: Callable[[int], bool], *, optional: bool = True) -> Any:
        """An export number of another record, which must exist in the archive."""
        value = self.integer(name, optional=optional, low=1)
        if value is not None and not known(value):
            self._bad(name)
            return None
        return value
