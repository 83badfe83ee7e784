"""Messages as plain text for a terminal: embeds as boxes, components numbered to click.

Numbers restart with every rendered reply; ``Clickable`` remembers what each number points at so
that ``:click 2`` or ``:select 3 verde`` in the REPL can act on it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .replies import Msg, Reply

__all__ = ["Clickable", "render_message", "render_modal", "render_reply"]

ONLY_YOU = "(solo tú lo ves / only you)"
WIDTH = 72
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


@dataclass(frozen=True)
class Clickable:
    number: int
    message_id: int
    kind: str  # "button" | "select"
    custom_id: str
    label: str
    options: tuple[str, ...] = ()


def _plain(text: str, names: Callable[[int], str | None]) -> str:
    """Markdown a terminal cannot show becomes readable: bold/underline marks go, mentions get names."""

    def mention(m: re.Match) -> str:
        name = names(int(m.group(2)))
        sigil = "#" if m.group(1) == "#" else "@"
        return f"{sigil}{name}" if name else m.group(0)

    text = _MENTION.sub(mention, text)
    text = _TIMESTAMP.sub(_timestamp, text)
    return text.replace("**", "").replace("__", "")


def _timestamp(m: re.Match) -> str:
    """Discord's <t:UNIX:STYLE> shows a local date; a terminal gets the same, in ISO form."""
    when = datetime.fromtimestamp(int(m.group(1)))
    return when.strftime("%Y-%m-%d" if m.group(2) in ("d", "D") else "%Y-%m-%d %H:%M")


def _box(embed: dict[str, Any], names: Callable[[int], str | None]) -> list[str]:
    title = embed.get("title") or (embed.get("author") or {}).get("name") or ""
    lines = [f"╭─ {_plain(title, names)}" if title else "╭─"]

    def body(text: str, prefix: str = "│ ") -> None:
        for raw in _plain(text, names).splitlines() or [""]:
            wrapped = textwrap.wrap(
                raw, WIDTH - len(prefix), break_long_words=False, break_on_hyphens=False
            ) or [""]
            lines.extend(prefix + w for w in wrapped)

    if embed.get("title") and (embed.get("author") or {}).get("name"):
        body(embed["author"]["name"])
    if embed.get("description"):
        body(embed["description"])
    for f in embed.get("fields") or []:
        name, value = _plain(f.get("name") or "", names), f.get("value") or ""
        if "\n" in value or len(name) + len(value) > WIDTH - 6:
            lines.append(f"│ ▸ {name}:")
            body(value, "│     ")
        else:
            lines.append(f"│ ▸ {name}: {_plain(value, names)}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"╰─ {_plain(embed['footer']['text'], names)}")
    else:
        lines.append("╰─")
    return lines


def _components(msg: Msg, start: int, clickables: list[Clickable]) -> list[str]:
    lines = []
    number = start
    for row in msg.components:
        parts = []
        for comp in row.get("components") or [row]:
            kind = comp.get("type")
            if kind == 2:
                label = comp.get("label") or (comp.get("emoji") or {}).get("name") or "?"
                if comp.get("style") == 5:
                    parts.append(f"[↗ {label}: {comp.get('url', '')}]")
                    continue
                off = " (desactivado / disabled)" if comp.get("disabled") else ""
                parts.append(f"[{number}] {label}{off}")
                clickables.append(
                    Clickable(number, msg.id, "button", comp.get("custom_id", ""), label)
                )
                number += 1
            elif kind in (3, 5, 6, 7, 8):
                options = tuple(o["value"] for o in comp.get("options") or [])
                shown = " | ".join(
                    f"{o['label']}={o['value']}" if o["label"] != o["value"] else o["value"]
                    for o in comp.get("options") or []
                )
                what = {
                    5: "usuario/user",
                    6: "rol/role",
                    7: "usuario o rol/user or role",
                    8: "canal/channel",
                }.get(kind, shown)
                placeholder = comp.get("placeholder") or ""
                parts.append(f"[{number}] ▾ {placeholder}: {what}".replace(" : ", ": "))
                clickables.append(
                    Clickable(
                        number, msg.id, "select", comp.get("custom_id", ""), placeholder, options
                    )
                )
                number += 1
        if parts:
            lines.append("  " + "   ".join(parts))
    return lines


def render_message(
    msg: Msg,
    *,
    clickables: list[Clickable] | None = None,
    names: Callable[[int], str | None] = lambda _id: None,
    header: str | None = None,
) -> list[str]:
    clickables = clickables if clickables is not None else []
    lines = [(header or f"── {msg.author}") + (f"  {ONLY_YOU}" if msg.ephemeral else "")]
    if msg.content:
        lines += [_plain(line, names) for line in msg.content.splitlines()]
    for embed in msg.embeds:
        lines += _box(embed, names)
    lines += _components(msg, len(clickables) + 1, clickables)
    for filename, content in msg.attachments.items():
        lines.append(f"  📎 {filename} ({len(content)} bytes)")
    return lines


def render_modal(modal: dict[str, Any]) -> list[str]:
    lines = [f"📝 {modal.get('title', '')}  — :modal campo=valor … / field=value …"]
    for top in modal.get("components") or []:
        inner = top.get("components") or (
            [top["component"]] if isinstance(top.get("component"), dict) else []
        )
        for comp in inner:
            label = comp.get("label") or top.get("label") or ""
            need = "obligatorio/required" if comp.get("required", True) else "opcional/optional"
            limit = f", máx./max {comp['max_length']}" if comp.get("max_length") else ""
            lines.append(f"  {comp.get('custom_id')}: {label} ({need}{limit})")
    return lines


def render_reply(
    reply: Reply,
    *,
    clickables: list[Clickable],
    names: Callable[[int], str | None] = lambda _id: None,
) -> str:
    """Everything the user would see: the response, follow-ups, a modal or suggestions."""
    if not reply.ok:
        return f"✗ Discord no lo permite / Discord would refuse: {reply.error}"
    lines: list[str] = []
    if reply.modal is not None:
        lines += render_modal(reply.modal)
    if reply.choices:
        lines.append("Sugerencias / suggestions: " + " | ".join(c["name"] for c in reply.choices))
    for msg in reply.messages:
        if msg.deleted:
            continue
        lines += render_message(msg, clickables=clickables, names=names)
    if not lines and reply.deferred:
        lines.append("(el bot actualizó sin decir nada / the bot acknowledged silently)")
    for rejected in reply.rejections:
        lines.append(
            f"⚠ la API rechazó / the API refused {rejected['request']}: {rejected['error']}"
        )
    return "\n".join(lines)
