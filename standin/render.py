"""Messages as plain text for a terminal: embeds as boxes, components numbered to click.

Numbers restart with every rendered reply; ``Clickable`` remembers what each number points at so
that ``:click 2`` or ``:select 3 verde`` in the REPL can act on it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any

from .replies import Msg, Reply
from .timestamps import TIMESTAMP, discord_time

__all__ = [
    "Clickable",
    "Clock",
    "modal_fields",
    "render_message",
    "render_modal",
    "render_reply",
    "reader_clock",
]

ONLY_YOU = "(solo tú lo ves / only you)"
WIDTH = 72
_MENTION = re.compile(r"<(@[!&]?|#)(\d+)>")
_LINK = re.compile(
    r"\[([^\]]+)\]\((https?://(?:\w+\.)?discord(?:app)?\.com/channels/\d+/(\d+)(?:/\d+)?|[^)\s]+)\)"
)
_HEADING = re.compile(r"^#{1,3} |^-# ", re.MULTILINE)
#: How a reader's client shows ``<t:UNIX:STYLE>`` (standin.timestamps.discord_time with the
#: reader's language and zone); the default reads in Spanish, in this machine's zone.
Clock = Callable[[int, str | None], str]


def reader_clock(locale: str, zone: tzinfo | None = None) -> Clock:
    """How a reader with Discord in ``locale`` and a computer in ``zone`` (None: this one's)
    sees timestamps."""
    return lambda unix, style: discord_time(unix, style, locale, zone)


def _spanish_here(unix: int, style: str | None) -> str:
    return discord_time(unix, style, "es-ES")


@dataclass(frozen=True)
class Clickable:
    number: int
    message_id: int
    kind: str  # "button" | "select"
    custom_id: str
    label: str
    options: tuple[str, ...] = ()


def _plain(
    text: str, names: Callable[[int], str | None], clock: Clock | None = _spanish_here
) -> str:
    """Markdown a terminal cannot show becomes readable: bold/underline marks go, mentions get
    names, timestamps read as the reader's client shows them (``clock``; None where Discord
    leaves them as typed: titles, field names, footers)."""

    def mention(m: re.Match[str]) -> str:
        name = names(int(m.group(2)))
        sigil = "#" if m.group(1) == "#" else "@"
        return f"{sigil}{name}" if name else m.group(0)

    def link(m: re.Match[str]) -> str:
        channel = names(int(m.group(3))) if m.group(3) else None
        return f"{m.group(1)} → #{channel}" if channel else f"{m.group(1)} <{m.group(2)}>"

    text = _MENTION.sub(mention, text)
    text = _LINK.sub(link, text)
    if clock is not None:
        text = TIMESTAMP.sub(lambda m: clock(int(m.group(1)), m.group(2)), text)
    text = _HEADING.sub("", text)
    return text.replace("**", "").replace("__", "")


def _box(
    embed: dict[str, Any], names: Callable[[int], str | None], clock: Clock = _spanish_here
) -> list[str]:
    title = embed.get("title") or (embed.get("author") or {}).get("name") or ""
    lines = [f"╭─ {_plain(title, names, None)}" if title else "╭─"]

    def body(text: str, prefix: str = "│ ", stamps: Clock | None = clock) -> None:
        for raw in _plain(text, names, stamps).splitlines() or [""]:
            wrapped = textwrap.wrap(
                raw, WIDTH - len(prefix), break_long_words=False, break_on_hyphens=False
            ) or [""]
            lines.extend(prefix + w for w in wrapped)

    if embed.get("title") and (embed.get("author") or {}).get("name"):
        body(embed["author"]["name"], stamps=None)
    if embed.get("description"):
        body(embed["description"])
    for f in embed.get("fields") or []:
        name, value = _plain(f.get("name") or "", names, None), f.get("value") or ""
        if "\n" in value or len(name) + len(value) > WIDTH - 6:
            lines.append(f"│ ▸ {name}:")
            body(value, "│     ")
        else:
            lines.append(f"│ ▸ {name}: {_plain(value, names, clock)}")
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"╰─ {_plain(embed['footer']['text'], names, None)}")
    else:
        lines.append("╰─")
    return lines


def _item(comp: dict[str, Any], msg_id: int, clickables: list[Clickable]) -> str | None:
    """A button or select as one numbered token; None for anything else."""
    kind, number = comp.get("type"), len(clickables) + 1
    if kind == 2:
        label = comp.get("label") or (comp.get("emoji") or {}).get("name") or "?"
        if comp.get("style") == 5:
            return f"[↗ {label}: {comp.get('url', '')}]"
        off = " (desactivado / disabled)" if comp.get("disabled") else ""
        clickables.append(Clickable(number, msg_id, "button", comp.get("custom_id", ""), label))
        return f"[{number}] {label}{off}"
    if kind in (3, 5, 6, 7, 8):
        opts = comp.get("options") or []
        shown = " | ".join(
            o["value"] if o["label"] == o["value"] else f"{o['label']}={o['value']}" for o in opts
        )
        what = {
            5: "usuario/user",
            6: "rol/role",
            7: "usuario o rol/user or role",
            8: "canal/channel",
        }
        placeholder = comp.get("placeholder") or ""
        values = tuple(o["value"] for o in opts)
        clickables.append(
            Clickable(number, msg_id, "select", comp.get("custom_id", ""), placeholder, values)
        )
        head = f"[{number}] ▾ {placeholder}:"
        if any(o.get("description") for o in opts):
            # as Discord does: each option on its own line, its description under the label
            return "\n".join([head, *(_option_line(o) for o in opts)])
        return f"{head} {what.get(kind, shown)}".replace(" : ", ": ")
    return None


def _option_line(option: dict[str, Any]) -> str:
    """``· label=value — description`` (``value`` is what ``:select N VALUE`` takes)."""
    label, value = option["label"], option["value"]
    line = f"    · {label}" if label == value else f"    · {label}={value}"
    if option.get("default"):
        line += " ✓"
    if option.get("description"):
        line += f" — {option['description']}"
    return line


def _components(
    components: list[dict[str, Any]],
    msg_id: int,
    clickables: list[Clickable],
    names: Callable[[int], str | None],
    prefix: str = "  ",
    clock: Clock = _spanish_here,
) -> list[str]:
    """Classic action rows and Components V2 layouts (containers, sections, text displays)."""
    lines: list[str] = []
    for comp in components:
        kind = comp.get("type")
        if kind == 1:
            parts = [p for c in comp.get("components") or [] if (p := _item(c, msg_id, clickables))]
            if parts:
                lines += [prefix + line for line in "   ".join(parts).split("\n")]
        elif kind == 10:
            lines += [
                prefix + _plain(line, names, clock)
                for line in (comp.get("content") or "").splitlines()
            ]
        elif kind == 9:
            lines += _components(
                comp.get("components") or [], msg_id, clickables, names, prefix, clock
            )
            accessory = comp.get("accessory") or {}
            if token := _item(accessory, msg_id, clickables):
                lines += [prefix + "  " + line for line in token.split("\n")]
        elif kind == 17:
            lines.append(prefix + "┏━")
            lines += _components(
                comp.get("components") or [], msg_id, clickables, names, prefix + "┃ ", clock
            )
            lines.append(prefix + "┗━")
        elif kind == 14:
            lines.append(prefix + "─" * 20)
        elif kind in (11, 12, 13):
            lines.append(
                prefix
                + {
                    11: "[miniatura / thumbnail]",
                    12: "[imágenes / images]",
                    13: "[archivo / file]",
                }[kind]
            )
        elif token := _item(comp, msg_id, clickables):
            lines += [prefix + line for line in token.split("\n")]
    return lines


def render_message(
    msg: Msg,
    *,
    clickables: list[Clickable] | None = None,
    names: Callable[[int], str | None] = lambda _id: None,
    header: str | None = None,
    clock: Clock = _spanish_here,
) -> list[str]:
    """One message as its reader sees it (``clock``: their client's timestamps)."""
    clickables = clickables if clickables is not None else []
    lines = [(header or f"── {msg.author}") + (f"  {ONLY_YOU}" if msg.ephemeral else "")]
    if msg.content:
        lines += [_plain(line, names, clock) for line in msg.content.splitlines()]
    for embed in msg.embeds:
        lines += _box(embed, names, clock)
    lines += _components(msg.components, msg.id, clickables, names, clock=clock)
    for filename, content in msg.attachments.items():
        lines.append(f"  📎 {filename} ({len(content)} bytes)")
    return lines


def render_modal(modal: dict[str, Any], typed: dict[str, str] | None = None) -> list[str]:
    """The form's fields; ``typed`` (what was typed before) and the bot's pre-filled values show
    after ``=``: ``:modal`` sends them again unless a field is typed anew."""
    lines = [f"📝 {modal.get('title', '')}  — :modal campo=valor … / field=value …"]
    for comp in modal_fields(modal):
        cid = comp.get("custom_id") or ""
        label = comp.get("label") or ""
        need = "obligatorio/required" if comp.get("required", True) else "opcional/optional"
        limit = f", máx./max {comp['max_length']}" if comp.get("max_length") else ""
        line = f"  {cid}: {label} ({need}{limit})"
        value = (typed or {}).get(cid, comp.get("value") or "")
        if value:
            line += f" = «{value}»"
        lines.append(line)
    return lines


def modal_fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The input fields of a modal, in order (classic rows and labelled components)."""
    fields: list[dict[str, Any]] = []
    for top in modal.get("components") or []:
        inner = top.get("components") or (
            [top["component"]] if isinstance(top.get("component"), dict) else []
        )
        for comp in inner:
            fields.append({**comp, "label": comp.get("label") or top.get("label") or ""})
    return fields


def render_reply(
    reply: Reply,
    *,
    clickables: list[Clickable],
    names: Callable[[int], str | None] = lambda _id: None,
    typed: dict[str, str] | None = None,
    clock: Clock = _spanish_here,
) -> str:
    """Everything the user would see: the response, follow-ups, a modal or suggestions.
    ``typed``: what was typed before into fields of the same ids (shown in a re-opened form)."""
    if not reply.ok:
        return f"✗ Discord no lo permite / Discord would refuse: {reply.error}"
    lines: list[str] = []
    if reply.modal is not None:
        lines += render_modal(reply.modal, typed)
    if reply.choices:
        lines.append("Sugerencias / suggestions: " + " | ".join(c["name"] for c in reply.choices))
    for msg in reply.messages:
        if msg.deleted:
            lines.append(f"── {msg.author}: (mensaje borrado / message deleted)")
            continue
        lines += render_message(msg, clickables=clickables, names=names, clock=clock)
    if not lines and reply.deferred:
        lines.append("(el bot actualizó sin decir nada / the bot acknowledged silently)")
    for rejected in reply.rejections:
        lines.append(
            f"⚠ la API rechazó / the API refused {rejected['request']}: {rejected['error']}"
        )
    return "\n".join(lines)
