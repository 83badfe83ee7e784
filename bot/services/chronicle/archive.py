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
    media/HASH.png|jpg|gif|webp each image players see, once (avatars, pictures inside posts)
    gm/scenes/NNN-title.md|html every scene complete, GM-only material marked
    gm/unplaced.md|html         posts made outside any scene (GM channel, private threads)
    gm/characters.json          every character: owner, NPC, hidden, deleted, sheet file
    gm/characters/NNN-name.json each full sheet, in the /sheet export format
    gm/media/HASH.*             the images only the GM sees (a hidden NPC's, a GM-only post's)
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
import time
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.db.types import as_utc
from bot.services.chronicle.zipfiles import (
    LineTooLong,
    MemberBudget,
    ZipOverflow,
    bad_member_name,
)

__all__ = [
    "ARCHIVE_FORMAT",
    "ARCHIVE_VERSION",
    "MAX_ARCHIVE_BYTES",
    "MAX_FILES",
    "MAX_MEMBER_BYTES",
    "MAX_POST_IMAGES",
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
#: 2: every record carries its audience (issue 22 §1); version 1 archives still import
#: (their audiences are worked out from the old flags, as migration 0020 did).
ARCHIVE_VERSION = 2
READABLE_VERSIONS = (1, 2)
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
#: Pictures one post may show (an Umbría post's; more is a malformed record).
MAX_POST_IMAGES = 50
#: Problems listed at most in one refusal (the rest are counted), and counted at most
#: (then the reading stops: the file is not a chronicle worth reading to its end).
MAX_PROBLEMS = 15
MAX_COUNTED_PROBLEMS = 1_000

LEGACY_ROLL_COLUMNS = (
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
#: Who may see each record (bot.services.shared.audience), from archive version 2 on.
AUDIENCE_COLUMNS = ("audience", "audience_user_id", "secrets")
ROLL_COLUMNS = LEGACY_ROLL_COLUMNS + AUDIENCE_COLUMNS
LEGACY_XP_COLUMNS = (
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
XP_COLUMNS = LEGACY_XP_COLUMNS + AUDIENCE_COLUMNS

# Files the import reads; everything else is for people.
RECORD = "record"  # the group of files the import reads (and the tables players read)
MANIFEST = "manifest.json"
GM_CHARACTERS = "gm/characters.json"
GM_SCENES = "gm/scenes.jsonl"
GM_POSTS = "gm/posts.jsonl"
GM_ROLLS = "gm/rolls.csv"
GM_XP = "gm/xp.csv"
CHARACTER_FILE = re.compile(r"^gm/characters/[0-9]{3,6}-[a-z0-9-]{0,60}\.json$")
#: An image the export stored once (named by its bytes' hash), public or the GM's.
MEDIA_FILE = re.compile(r"^(gm/)?media/[0-9a-f]{32}\.(png|jpg|gif|webp)$")

#: The import's budgets, fixed before the first byte is read (docs/play-by-post.md,
#: «Límites de la crónica»): rows each file of the record may hold — four times the largest
#: campaign the benchmarks play (10,000 posts, 50,000 rolls); scenes as many as the export's
#: :data:`MAX_FILES` leaves room for (four pages each) —, all of them together, bytes
#: per row (a post's text and notes fit many times over), characters, a sheet file's bytes
#: (``/sheet import``'s limit) and seconds for the whole check.  A 29 KiB zip whose
#: ``gm/posts.jsonl`` held millions of ``{}`` took the worker 140 s and 1.27 GB: it now
#: stops at the first row past its file's budget, and no file is ever held whole.
MAX_ROWS = {GM_SCENES: 4_000, GM_POSTS: 40_000, GM_ROLLS: 200_000, GM_XP: 20_000}
MAX_RECORD_ROWS = 250_000
MAX_ROW_BYTES = 1024 * 1024
MAX_CHARACTERS = 2_000
MAX_SHEET_BYTES = 256 * 1024
MAX_CHECK_SECONDS = 90
#: Rows read between two looks at the clock.
CLOCK_EVERY = 500


def iso(value: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC (``+00:00``)."""
    return None if value is None else as_utc(value).isoformat()


def slug(text: str, limit: int = 40) -> str:
    """A file-name-safe form of a title: ``Ascenso al Pico Gris`` → ``ascenso-al-pico-gris``."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:limit].strip("-")


class ArchiveTooBig(Exception):
    """The export grew past what an import accepts (:data:`MAX_UNCOMPRESSED`)."""


#: A member's share of a zip beyond its compressed bytes: its local header and its entry in
#: the central directory (fixed parts; the name is written in both).
ZIP_ENTRY_BYTES = 30 + 46
ZIP_END_BYTES = 22


def zip_size(compressed: int, name: str) -> int:
    """What one member adds to a zip: its compressed bytes and its two headers."""
    return compressed + ZIP_ENTRY_BYTES + 2 * len(name.encode("utf-8"))


class ArchiveWriter:
    """Collects the chronicle's files, counting what they hold so the export never outgrows
    the import, and zips all of them (:meth:`close`) or a part of them (:meth:`zipped`).

    Each file belongs to a *group* (the record the import reads, or one scene's pages) and
    names the images it shows (``uses``): a part holds whole groups and the images they use,
    so every part opens on its own (:mod:`bot.services.chronicle.build`)."""

    def __init__(self) -> None:
        self.total = 0
        self.files: dict[str, bytes] = {}
        self.groups: dict[str, list[str]] = {}
        self.uses: dict[str, set[str]] = {}

    def add(
        self, name: str, data: str | bytes, *, group: str = RECORD, uses: Iterable[str] = ()
    ) -> None:
        payload = data.encode("utf-8") if isinstance(data, str) else data
        if name in self.files:  # an image several pages use: stored once
            return
        self.total += len(payload)
        if (
            self.total > MAX_UNCOMPRESSED
            or len(payload) > MAX_MEMBER_BYTES
            or len(self.files) >= MAX_FILES
        ):
            raise ArchiveTooBig()
        self.files[name] = payload
        self.groups.setdefault(group, []).append(name)
        self.uses.setdefault(group, set()).update(uses)

    def add_json(self, name: str, value: Any, **where: Any) -> None:
        self.add(name, json.dumps(value, ensure_ascii=False, indent=2) + "\n", **where)

    def add_jsonl(self, name: str, rows: Iterable[Mapping[str, Any]], **where: Any) -> None:
        self.add(name, "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), **where)

    def add_csv(
        self, name: str, columns: tuple[str, ...], rows: Iterable[Mapping[str, Any]], **where: Any
    ) -> None:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_csv_cell(row.get(column)) for column in columns])
        self.add(name, out.getvalue(), **where)

    def zipped(self, names: Iterable[str], extra: Mapping[str, bytes] | None = None) -> bytes:
        """A zip of these files (in the order given) and of ``extra`` ones, deterministic:
        every member dated 2020-01-01, so the same campaign gives the same bytes."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for name, payload in [*((n, self.files[n]) for n in names), *(extra or {}).items()]:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, payload)
        return buffer.getvalue()

    def close(self) -> bytes:
        """Every file in one zip."""
        return self.zipped(self.files)


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

    def stop(self, key: str, **params: Any) -> ArchiveProblems:
        """The problem that stopped the reading (a budget ran out): listed first whatever
        came before it, so the refusal always names the limit; returns self, to raise."""
        if len(self.problems) >= MAX_PROBLEMS:
            self.problems.pop()
            self.more += 1
        self.problems.insert(0, (key, params))
        return self

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
    against a rule system: :mod:`bot.services.chronicle.check` does that).

    The record's rows are **streams**, decompressed and parsed a row at a time while the
    check consumes them (scenes, rolls, posts, xp: in that order, each once), so no file is
    held whole and the budgets stop a file at its first row too many.  A stream raises
    :class:`ArchiveProblems` when a budget runs out or the file is unreadable."""

    manifest: dict[str, Any]
    characters: list[Any]  # checked entry by entry (bot.services.chronicle.check)
    sheets: dict[str, bytes]  # character file name → its /sheet export document
    scenes: Iterator[dict[str, Any]]
    posts: Iterator[dict[str, Any]]
    rolls: Iterator[dict[str, Any]]
    xp: Iterator[dict[str, Any]]
    #: the streams' budgets, and the problems list every check adds to
    budget: RecordBudget
    #: the images the characters and the posts name (``media/…``), each read once, when
    #: first asked for (a post's pictures as the post is checked: :class:`MediaFiles`)
    media: Mapping[str, bytes] = field(default_factory=dict)


class RecordBudget:
    """Rows per file, rows in all and the time the check may take (:data:`MAX_ROWS`,
    :data:`MAX_RECORD_ROWS`, :data:`MAX_CHECK_SECONDS`), counted as rows are read; past one,
    the refusal names it and reading stops."""

    def __init__(self, problems: ArchiveProblems, clock: Callable[[], float] = time.monotonic):
        self.problems = problems
        self.clock = clock
        self.deadline = clock() + MAX_CHECK_SECONDS
        self.rows = 0

    def row(self, path: str, number: int) -> None:
        """Count row ``number`` of ``path``; raises :class:`ArchiveProblems` past a budget."""
        self.rows += 1
        if number > MAX_ROWS[path]:
            raise self.problems.stop(
                "chronicle.problem.too_many_rows", path=path, limit=MAX_ROWS[path]
            )
        if self.rows > MAX_RECORD_ROWS:
            raise self.problems.stop(
                "chronicle.problem.too_many_record_rows", limit=MAX_RECORD_ROWS
            )
        if self.problems.more > MAX_COUNTED_PROBLEMS:  # nobody reads further: stop here
            raise self.problems.stop(
                "chronicle.problem.too_many_problems", count=MAX_COUNTED_PROBLEMS
            )
        if self.rows % CLOCK_EVERY == 0:
            self.check_clock()

    def check_clock(self) -> None:
        if self.clock() > self.deadline:
            raise self.problems.stop("chronicle.problem.too_slow", limit=MAX_CHECK_SECONDS)


class MediaFiles(Mapping[str, bytes]):
    """The archive's images (``media/…``, :data:`MEDIA_FILE`), each read from the zip the
    first time it is asked for and kept: the record is read as a stream, so a post's
    pictures are read when the post is checked, within the same budget as every file."""

    def __init__(self, read: Callable[[str], bytes | None]) -> None:
        self._read = read
        self._files: dict[str, bytes] = {}
        self._missing: set[str] = set()  # asked once, its problem listed once

    def get(self, name: object, default: Any = None) -> Any:
        if not isinstance(name, str) or not MEDIA_FILE.match(name) or name in self._missing:
            return default
        if name not in self._files:
            data = self._read(name)
            if data is None:
                self._missing.add(name)
                return default
            self._files[name] = data
        return self._files[name]

    def __getitem__(self, name: str) -> bytes:
        data = self.get(name)
        if data is None:
            raise KeyError(name)
        return data  # type: ignore[no-any-return]  # get returns the bytes it keeps

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)


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

    def read(name: str, limit: int | None = None) -> bytes | None:
        if name not in seen:
            problems.add("chronicle.problem.missing_file", path=name)
            return None
        try:
            return budget.read(archive, name, limit)
        except ZipOverflow:
            if limit is not None and budget.left >= limit:  # this file's own limit
                problems.add("chronicle.problem.file_too_big", path=name, limit=limit // 1024)
            else:
                problems.add(
                    "chronicle.problem.uncompressed_too_big", limit=MAX_UNCOMPRESSED // 2**20
                )
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
    if len(characters) > MAX_CHARACTERS:
        problems.add("chronicle.problem.too_many_characters", limit=MAX_CHARACTERS)
        raise problems
    sheets: dict[str, bytes] = {}
    media = MediaFiles(read)
    for entry in characters:
        name = entry.get("file") if isinstance(entry, dict) else None
        if isinstance(name, str) and CHARACTER_FILE.match(name) and name not in sheets:
            data = read(name, MAX_SHEET_BYTES)
            if data is not None:
                sheets[name] = data
        avatar = entry.get("avatar") if isinstance(entry, dict) else None
        media.get(avatar.get("file") if isinstance(avatar, dict) else None)  # read now
    for name in (GM_SCENES, GM_POSTS, GM_ROLLS, GM_XP):
        if name not in seen:
            problems.add("chronicle.problem.missing_file", path=name)
    if problems:
        raise problems
    rows = RecordBudget(problems)
    legacy = manifest.get("version") == 1
    return ArchiveContents(
        manifest,
        characters,
        sheets,
        _jsonl(archive, GM_SCENES, budget, rows),
        _jsonl(archive, GM_POSTS, budget, rows),
        _csv(archive, GM_ROLLS, LEGACY_ROLL_COLUMNS if legacy else ROLL_COLUMNS, budget, rows),
        _csv(archive, GM_XP, LEGACY_XP_COLUMNS if legacy else XP_COLUMNS, budget, rows),
        rows,
        media,
    )


def _check_manifest(manifest: Any, problems: ArchiveProblems) -> None:
    if not isinstance(manifest, dict) or manifest.get("format") != ARCHIVE_FORMAT:
        problems.add("chronicle.problem.wrong_format", format=ARCHIVE_FORMAT)
        return
    part = manifest.get("part")
    if isinstance(part, dict) and part.get("pages_only"):
        # a later part of a split export: the record is in part 1
        problems.add("chronicle.problem.pages_only", number=str(part.get("number"))[:6])
        return
    if manifest.get("version") not in READABLE_VERSIONS:
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


@contextmanager
def _reading(name: str, rows: RecordBudget, line: Callable[[], int]) -> Iterator[None]:
    """A streamed file's failures as the problems that name them (then reading stops)."""
    problems = rows.problems
    try:
        yield
    except LineTooLong:
        raise problems.stop(
            "chronicle.problem.row_too_big", path=name, line=line(), limit=MAX_ROW_BYTES // 1024
        ) from None
    except ZipOverflow:
        raise problems.stop(
            "chronicle.problem.uncompressed_too_big", limit=MAX_UNCOMPRESSED // 2**20
        ) from None
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, zlib.error):
        problems.add("chronicle.problem.corrupt_file", path=name)
        raise problems from None
    except (UnicodeDecodeError, csv.Error):
        problems.add("chronicle.problem.bad_file", path=name)
        raise problems from None


def _jsonl(
    archive: zipfile.ZipFile, name: str, budget: MemberBudget, rows: RecordBudget
) -> Iterator[dict[str, Any]]:
    """The rows of a JSON Lines file, parsed one at a time as they are decompressed."""
    number = 0
    with _reading(name, rows, lambda: number + 1):
        for line in budget.lines(archive, name, MAX_ROW_BYTES):
            number += 1
            rows.row(name, number)
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except (ValueError, RecursionError):
                row = None
            if not isinstance(row, dict):
                rows.problems.add("chronicle.problem.bad_line", path=name, line=number)
                continue
            yield row


def _csv(
    archive: zipfile.ZipFile,
    name: str,
    columns: tuple[str, ...],
    budget: MemberBudget,
    rows: RecordBudget,
) -> Iterator[dict[str, Any]]:
    """The rows of a CSV file (with its header checked), read one at a time; a row's lines
    (a quoted cell may hold line breaks) count together against :data:`MAX_ROW_BYTES`."""
    read = 0  # bytes of the row being read

    def lines() -> Iterator[str]:
        nonlocal read
        for line in budget.lines(archive, name, MAX_ROW_BYTES):
            read += len(line)
            if read > MAX_ROW_BYTES:
                raise LineTooLong()
            yield line.decode("utf-8")

    number = 1
    with _reading(name, rows, lambda: number):
        reader = csv.reader(lines())
        header = next(reader, None)
        if header is None or tuple(header) != columns:
            rows.problems.add(
                "chronicle.problem.bad_columns", path=name, columns=", ".join(columns)
            )
            raise rows.problems
        read = 0
        for cells in reader:
            number += 1
            read = 0
            rows.row(name, number - 1)
            if len(cells) != len(columns):
                rows.problems.add("chronicle.problem.bad_line", path=name, line=number)
                continue
            yield {"line": number, **dict(zip(columns, cells, strict=True))}
