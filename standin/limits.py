"""Discord's message limits, checked the way Discord checks them.

A body that breaks a limit gets what Discord answers: HTTP 400, code 50035 "Invalid Form Body" and
an ``errors`` tree keyed by the JSON path. discord.py turns that into ``HTTPException`` with the
path in its text, so a bot that overflows fails in tests exactly as it would in production.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

__all__ = ["check_choices", "check_message", "error_body", "status_of"]

IS_COMPONENTS_V2 = 1 << 15

#: (path, code, message) of each invalid field, as Discord lists them
Problems = list[tuple[str, str, str]]
MAX_UPLOAD = 10 * 1024 * 1024  # a guild without boosts; the same as attachment_size_limit
#: What one message may upload in a guild, by boost level (Discord's, as discord.py reads
#: them: ``Guild.filesize_limit``): 10 MiB, 10 MiB, 50 MiB, 100 MiB.
UPLOAD_BY_TIER = (MAX_UPLOAD, MAX_UPLOAD, 50 * 1024 * 1024, 100 * 1024 * 1024)


def upload_limit(premium_tier: int) -> int:
    return UPLOAD_BY_TIER[max(0, min(premium_tier, 3))]


def error_body(problems: Problems) -> dict[str, Any]:
    """Builds Discord's nested ``errors`` object from (path, code, message) triples."""
    tree: dict[str, Any] = {}
    for path, code, message in problems:
        node = tree
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}


def _max(problems: Problems, path: str, value: Any, limit: int) -> None:
    if isinstance(value, str | list) and len(value) > limit:
        problems.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size


def _check_embeds(embeds: list[dict[str, Any]], problems: Problems) -> None:
    _max(problems, "embeds", embeds, 10)
    for i, e in enumerate(embeds):
        p = f"embeds.{i}"
        _max(problems, f"{p}.title", e.get("title"), 256)
        _max(problems, f"{p}.description", e.get("description"), 4096)
        _max(problems, f"{p}.footer.text", (e.get("footer") or {}).get("text"), 2048)
        _max(problems, f"{p}.author.name", (e.get("author") or {}).get("name"), 256)
        fields = e.get("fields") or []
        _max(problems, f"{p}.fields", fields, 25)
        for j, f in enumerate(fields):
            _max(problems, f"{p}.fields.{j}.name", f.get("name"), 256)
            _max(problems, f"{p}.fields.{j}.value", f.get("value"), 1024)
            if not f.get("name") or not f.get("value"):
                problems.append((f"{p}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required"))
    if sum(_embed_size(e) for e in embeds) > 6000:
        problems.append(
            ("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
        )


def _check_item(item: dict[str, Any], path: str, problems: Problems) -> None:
    _max(problems, f"{path}.custom_id", item.get("custom_id"), 100)
    if item.get("type") == 2:
        _max(problems, f"{path}.label", item.get("label"), 80)
        if item.get("style") != 5 and item.get("style") != 6 and not item.get("custom_id"):
            problems.append((f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
    if item.get("type") in (3, 5, 6, 7, 8):
        _max(problems, f"{path}.placeholder", item.get("placeholder"), 150)
        options = item.get("options")
        if item.get("type") == 3:
            _max(problems, f"{path}.options", options or [], 25)
            if not options:
                problems.append(
                    (f"{path}.options", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
                )
            for k, o in enumerate(options or []):
                _max(problems, f"{path}.options.{k}.label", o.get("label"), 100)
                _max(problems, f"{path}.options.{k}.value", o.get("value"), 100)
                _max(problems, f"{path}.options.{k}.description", o.get("description"), 100)


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for c in components:
        yield c
        yield from _walk(c.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                yield c[key]


def _check_layout(components: list[dict[str, Any]], problems: Problems) -> None:
    """Components V2: at most 40 components in all, 4,000 characters of text displays."""
    every = list(_walk(components))
    if len(every) > 40:
        problems.append(("components", "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length."))
    if sum(len(c.get("content") or "") for c in every if c.get("type") == 10) > 4000:
        problems.append(
            ("components", "MAX_TEXT_DISPLAY_LENGTH", "Text displays exceed 4000 characters")
        )
    for i, c in enumerate(every):
        if c.get("type") in (2, 3, 5, 6, 7, 8):
            _check_item(c, f"components.{i}", problems)


def _check_components(components: list[dict[str, Any]], flags: int, problems: Problems) -> None:
    if flags & IS_COMPONENTS_V2:
        _check_layout(components, problems)
        return
    _max(problems, "components", components, 5)
    for i, row in enumerate(components):
        path = f"components.{i}"
        if row.get("type") != 1:
            problems.append(
                (f"{path}.type", "UNION_TYPE_CHOICES", 'Value of field "type" must be 1.')
            )
            continue
        items = row.get("components") or []
        _max(problems, f"{path}.components", items, 5)
        if not items:
            problems.append(
                (f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            )
        has_select = any(it.get("type") != 2 for it in items)
        if has_select and len(items) > 1:
            problems.append(
                (
                    f"{path}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        for j, item in enumerate(items):
            _check_item(item, f"{path}.components.{j}", problems)


def _check_allowed_mentions(allowed: Any, problems: list[tuple[str, str, str]]) -> None:
    """Discord refuses ``parse`` and an explicit list of the same kind together, and more
    than 100 listed ids."""
    if not isinstance(allowed, dict):
        return
    parse = set(allowed.get("parse") or ())
    for kind in ("users", "roles"):
        listed = allowed.get(kind) or []
        if kind in parse and listed:
            problems.append(
                (
                    f"allowed_mentions.{kind}",
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
        _max(problems, f"allowed_mentions.{kind}", listed, 100)


def check_message(
    body: dict[str, Any],
    *,
    files: Sequence[tuple[str, bytes]] = (),
    partial: bool = False,
    upload: int = MAX_UPLOAD,
) -> dict[str, Any] | None:
    """Returns Discord's error body when ``body`` breaks a limit, else None.

    ``files`` are the uploaded (filename, bytes), at most ``upload`` bytes in all (the
    guild's limit: :func:`upload_limit`). ``partial`` is for edits, which may omit
    everything; new messages must carry something.
    """
    if sum(len(content) for _, content in files) > upload:
        return {"code": 40005, "message": "Request entity too large"}
    problems: Problems = []
    _max(problems, "attachments", list(files), 10)
    _max(problems, "content", body.get("content"), 2000)
    _check_embeds(body.get("embeds") or [], problems)
    flags = int(body.get("flags") or 0)
    _check_components(body.get("components") or [], flags, problems)
    _check_allowed_mentions(body.get("allowed_mentions"), problems)
    if flags & IS_COMPONENTS_V2 and (body.get("content") or body.get("embeds")):
        problems.append(
            (
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "content and embeds cannot be used with IS_COMPONENTS_V2",
            )
        )
    if problems:
        return error_body(problems)
    empty = not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or files
        or body.get("sticker_ids")
        or body.get("poll")
    )
    if empty and not partial:
        return {"code": 50006, "message": "Cannot send an empty message"}
    return None


def check_choices(choices: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Autocomplete answers: at most 25 choices, names of 1-100 characters, values up to 100."""
    problems: Problems = []
    _max(problems, "data.choices", choices, 25)
    for i, choice in enumerate(choices[:25]):
        name = choice.get("name") or ""
        if not name:
            problems.append(
                (f"data.choices.{i}.name", "BASE_TYPE_REQUIRED", "This field is required")
            )
        _max(problems, f"data.choices.{i}.name", name, 100)
        _max(problems, f"data.choices.{i}.value", choice.get("value"), 100)
    return error_body(problems) if problems else None


def status_of(problem: dict[str, Any]) -> int:
    """The HTTP status Discord uses for a ``check_message`` result."""
    return 413 if problem.get("code") == 40005 else 400
