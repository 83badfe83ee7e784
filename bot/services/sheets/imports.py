"""Reading a ``/sheet import`` document as strictly as the commands read typed values.

Everything here runs before anything is stored and refuses with a translated error that
lists what is wrong (docs/sheet-format.md):

* size and nesting depth are bounded *before* the JSON parser runs (a 50,000-level document
  would make it recurse until it fails);
* the document's ``system``, the sheet's ``system`` and the campaign's system must match;
* unknown keys (in the document and at the top of the sheet) are refused and listed;
* the fields ``/sheet set`` knows keep their types strictly (``"name": 12345`` is refused,
  not converted) and their ranges; every number anywhere fits the database (±2,147,483,647);
* a player cannot set through an import what ``/sheet set`` reserves to the referee
  (:func:`referee_changes`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.grammar import sheet_fields
from bot.services.shared.errors import DomainError
from bot.services.sheets.access import MAX_NAME, checked_name, set_path
from rules import systems
from rules.systems.base import (
    FieldKind,
    FieldSpec,
    GameSystem,
    Problem,
    Settings,
    capabilities,
)
from rules.values import MAX_STORED

__all__ = [
    "DOCUMENT_KEYS",
    "SheetDocument",
    "MAX_DEPTH",
    "MAX_IMPORT_BYTES",
    "MAX_INTEGER",
    "SHEET_FORMAT",
    "SHEET_FORMAT_VERSION",
    "check_sheet",
    "keep_referee_fields",
    "parse_document",
    "range_problems",
    "referee_changes",
    "sheet_document",
    "sheet_keys",
]

SHEET_FORMAT: Final = "arbitro.sheet"
SHEET_FORMAT_VERSION: Final = 1
MAX_IMPORT_BYTES = 256 * 1024
MAX_DEPTH = 16  # the deepest shipped sheet nests 3 tables; documents add one level
MAX_INTEGER = MAX_STORED  # the one range of a stored number (rules.values)
MAX_TEXT = 500
MAX_LISTED = 20
COMMON_KEYS = frozenset({"name", "system", "pnj"})


def _depth(payload: bytes) -> int:
    """The deepest ``[``/``{`` nesting of a JSON text, counted without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in payload:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


class SheetDocument(BaseModel):
    """The envelope of a sheet file (docs/sheet-format.md): what ``/sheet export`` writes and
    ``/sheet import`` and the chronicle's ``gm/characters/*.json`` read.  Strict: no
    conversion (``"npc": "yes"`` is refused, not read as true), no key of its own beyond
    these; the sheet inside is the system's, checked by :func:`check_sheet`."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    format: Literal["arbitro.sheet"]
    version: Literal[1]
    system: str | None = None
    npc: bool = False
    sheet: dict[str, Any]


DOCUMENT_KEYS = frozenset(SheetDocument.model_fields)

#: The translated refusal of each field of the envelope, checked in this order (the first
#: wrong one is the one a user fixes first: a file of another kind says so before anything).
_ENVELOPE_ERRORS = ("format", "version", "extra", "sheet", "npc")


def sheet_document(system: str, npc: bool, sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The exported file's content (the same model reads it back)."""
    return SheetDocument(
        format=SHEET_FORMAT, version=SHEET_FORMAT_VERSION, system=system, npc=npc, sheet=dict(sheet)
    ).model_dump()


def parse_document(payload: bytes) -> SheetDocument:
    """The document, or the translated reason it is not one we read."""
    if len(payload) > MAX_IMPORT_BYTES:
        raise DomainError("sheet.error.import_too_big", limit=MAX_IMPORT_BYTES // 1024)
    if _depth(payload) > MAX_DEPTH:
        raise DomainError("sheet.error.import_too_deep", limit=MAX_DEPTH)
    try:
        document = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise DomainError("formats.json.not_utf8") from None
    except json.JSONDecodeError as error:  # json's message is English: say where, translated
        raise DomainError(
            "formats.json.invalid_file", line=error.lineno, column=error.colno
        ) from None
    except ValueError:  # a 5,000-digit number and the like
        raise DomainError("formats.json.too_large_number") from None
    if not isinstance(document, dict):
        raise DomainError("sheet.error.import_wrong_format", format=SHEET_FORMAT)
    try:
        return SheetDocument.model_validate(document)
    except ValidationError as invalid:
        raise _envelope_error(document, invalid) from None


def _envelope_error(document: Mapping[str, Any], invalid: ValidationError) -> DomainError:
    """pydantic's findings as the one translated message for the first field that is wrong."""
    wrong: dict[str, list[str]] = {}
    for error in invalid.errors():
        field = str(error["loc"][0]) if error["loc"] else "format"
        kind = "extra" if error["type"] == "extra_forbidden" else field
        wrong.setdefault(kind, []).append(field)
    first = next(kind for kind in _ENVELOPE_ERRORS if kind in wrong)
    if first == "format":
        return DomainError("sheet.error.import_wrong_format", format=SHEET_FORMAT)
    if first == "version":
        return DomainError(
            "sheet.error.import_wrong_version",
            version=document.get("version"),
            expected=SHEET_FORMAT_VERSION,
        )
    if first == "extra":
        return DomainError("sheet.error.import_unknown_keys", keys=_listed(sorted(wrong["extra"])))
    if first == "sheet":
        return DomainError("sheet.error.import_no_sheet")
    return DomainError("sheet.error.import_npc_not_boolean")


def sheet_keys(system: GameSystem, settings: Settings) -> frozenset[str]:
    """The top-level keys a sheet of ``system`` may hold: the common ones, those of a new
    sheet, the heads of the fields ``/sheet set`` edits and those the system declares
    (:class:`~rules.systems.base.ExtraSheetKeys`: state its rules write during play, such as spent spell slots)."""
    heads = {spec.path.split(".", 1)[0] for spec in sheet_fields(system, settings)}
    declared = capabilities(system).extra_sheet_keys
    extra = declared.extra_sheet_keys if declared is not None else frozenset()
    recovery = capabilities(system).recovery  # what rest and recovery write (issue 23 §3)
    if recovery is not None:
        extra |= {path.split(".", 1)[0] for path in recovery.guarded_paths(settings)}
    return COMMON_KEYS | frozenset(system.new_sheet("x", settings)) | heads | extra


def check_sheet(
    document: SheetDocument, campaign_system: str, system: GameSystem, settings: Settings
) -> dict[str, Any]:
    """The document's sheet if systems match, no key is unknown and every known field has
    its type and range; otherwise a translated refusal listing what is wrong."""
    sheet = dict(document.sheet)
    declared = (document.system, sheet.get("system"))
    if declared != (campaign_system, campaign_system):
        raise DomainError(
            "sheet.error.import_system_mismatch",
            document=str(declared[0])[:20],
            sheet=str(declared[1])[:20],
            expected=systems.name_of(campaign_system),
            expected_id=campaign_system,
        )
    unknown = sorted(set(sheet) - sheet_keys(system, settings))
    if unknown:
        raise DomainError("sheet.error.import_unknown_keys", keys=_listed(unknown))
    name = sheet.get("name")
    if not isinstance(name, str):
        raise DomainError("sheet.error.import_name_not_text")
    checked_name(name)
    blank = system.new_sheet(name, settings)
    wrong = [spec.path for spec in sheet_fields(system, settings) if not _fits(spec, sheet, blank)]
    if wrong:
        raise DomainError("sheet.error.import_bad_values", fields=_listed(wrong))
    huge = _out_of_range_numbers(sheet)
    if huge:
        raise DomainError(
            "sheet.error.import_number_range", fields=_listed(huge), limit=f"{MAX_INTEGER:,}"
        )
    return sheet


def referee_changes(
    sheet: Mapping[str, Any], baseline: Mapping[str, Any], specs: tuple[FieldSpec, ...]
) -> tuple[str, ...]:
    """Labels of the referee-only fields ``sheet`` sets to something else than ``baseline``
    (a new sheet's creation values, or the stored sheet an import replaces).  A field the
    document leaves out is not a change: it takes the baseline's value."""
    return tuple(
        spec.label
        for spec in specs
        if spec.referee_only
        and _get(sheet, spec.path) is not _MISSING
        and _get(sheet, spec.path) != _get(baseline, spec.path, None)
    )


def keep_referee_fields(
    sheet: Mapping[str, Any], baseline: Mapping[str, Any], specs: tuple[FieldSpec, ...]
) -> dict[str, Any]:
    """``sheet`` with every referee-only field it leaves out taken from ``baseline``."""
    result = dict(sheet)
    for spec in specs:
        if not spec.referee_only or _get(result, spec.path) is not _MISSING:
            continue
        value = _get(baseline, spec.path)
        if value is not _MISSING:
            result = set_path(result, spec.path, value)
    return result


_MISSING = object()


def _get(sheet: Mapping[str, Any], path: str, default: Any = _MISSING) -> Any:
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return default
        node = node[part]
    return node


def _json_type(value: Any) -> str:
    match value:
        case bool():  # before int: a bool is an int
            return "boolean"
        case int():
            return "integer"
        case str():
            return "text"
        case list():
            return "list"
        case dict():
            return "table"
    return type(value).__name__


def _fits(spec: FieldSpec, sheet: Mapping[str, Any], blank: Mapping[str, Any]) -> bool:
    """Strict types, never a conversion: the JSON type a new sheet stores at that field (a
    list of weapons, say), else the one ``/sheet set`` stores for its kind; text lengths.
    Integer ranges are reported with the system's problems (:func:`range_problems`)."""
    value = _get(sheet, spec.path)
    if value is _MISSING or value is None:
        return True
    shape = _get(blank, spec.path, None)
    expected: str | None
    if shape is not None:
        expected = _json_type(shape)
    else:
        expected = {
            FieldKind.INTEGER: "integer",
            FieldKind.BOOLEAN: "boolean",
            FieldKind.TEXT: "text",
        }.get(spec.kind)
    if expected is not None and _json_type(value) != expected:
        return False
    if isinstance(value, str):
        return len(value) <= (MAX_NAME if spec.path == "name" else MAX_TEXT)
    return True


def range_problems(sheet: Mapping[str, Any], specs: tuple[FieldSpec, ...]) -> list[Problem]:
    """Integers outside the range ``/sheet set`` allows for their field, as the same problems
    ``/sheet set`` reports (listed together with the system's own validation)."""
    problems = []
    for spec in specs:
        value = _get(sheet, spec.path)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if (spec.minimum is not None and value < spec.minimum) or (
            spec.maximum is not None and value > spec.maximum
        ):
            params = {
                "field": spec.label,
                "value": value,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
            problems.append(Problem("sheet.problem.out_of_range", spec.path, params))
    return problems


def _out_of_range_numbers(node: Any, path: str = "") -> list[str]:
    if isinstance(node, bool):
        return []
    if isinstance(node, int):
        return [path or "sheet"] if abs(node) > MAX_INTEGER else []
    if isinstance(node, float):
        return [path or "sheet"] if not math.isfinite(node) or abs(node) > MAX_INTEGER else []
    if isinstance(node, Mapping):
        return [
            hit
            for key, child in node.items()
            for hit in _out_of_range_numbers(child, f"{path}.{key}" if path else str(key))
        ]
    if isinstance(node, list):
        return [
            hit
            for i, child in enumerate(node)
            for hit in _out_of_range_numbers(child, f"{path}[{i}]")
        ]
    return []


def _listed(items: list[str]) -> str:
    shown = ", ".join(str(item)[:60] for item in items[:MAX_LISTED])
    return shown + (f" (+{len(items) - MAX_LISTED})" if len(items) > MAX_LISTED else "")
