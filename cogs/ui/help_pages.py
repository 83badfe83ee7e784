"""``/help`` pages, generated from the command tree and the catalogue.

Nothing here lists commands by hand: :func:`command_docs` reads the payloads the bot syncs
(``command.get_translated_payload``: names, descriptions, options and choices with their
Spanish localizations from ``commands.toml``), so a command added by a later cog gets its help
page, its topic in the menu and its autocomplete entry without an edit here.  The only
hand-written parts are the guides (``help.guide.*``) and the optional example line per command
(``help.examples.<path>``, e.g. ``help.examples.campaign.create``).

A topic is a guide id (``about``, ``gm``, ``player``, ``dice``, ``typing``) or the English
path of a command (``campaign`` — the whole group — or ``campaign create``).  Long topics are
split into pages that each fit an embed; nothing is ever cut.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.i18n import catalogue, t

if TYPE_CHECKING:
    from bot.app import Arbitro

__all__ = [
    "GUIDES",
    "CommandDoc",
    "OptionDoc",
    "command_docs",
    "docs_of",
    "suggestions",
    "find_topic",
    "fit_names",
    "menu_description",
    "page_count",
    "topic_label",
    "topic_page",
    "topics",
]

GUIDES = ("about", "gm", "player", "dice", "typing")
PAGE_LIMIT = 2000  # an embed holds 4096, but a shorter page reads better on a phone
_SPANISH = "es-ES"
_OPTION_KINDS = {
    3: "text",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


@dataclass(frozen=True)
class OptionDoc:
    name: str  # English (canonical) name: what the sandbox and the README also accept
    names: Mapping[str, str]  # locale → name
    descriptions: Mapping[str, str]
    required: bool
    kind: str
    choices: tuple[Mapping[str, str], ...]  # each: locale → choice name
    autocomplete: bool


@dataclass(frozen=True)
class CommandDoc:
    """One invocable command: a slash (sub)command or a context-menu command."""

    path: str  # English path, "campaign create"
    names: Mapping[str, str]  # locale → localized path, "campaña crear"
    descriptions: Mapping[str, str]
    options: tuple[OptionDoc, ...]
    context_menu: str | None = None  # "user" | "message" for right-click commands

    @property
    def root(self) -> str:
        """The top-level command: its topic (a context-menu name may hold spaces)."""
        return self.path if self.context_menu else self.path.split(" ")[0]


def _localized(payload: Mapping[str, Any], field: str) -> dict[str, str]:
    english = str(payload.get(field) or "")
    spanish = (payload.get(f"{field}_localizations") or {}).get(_SPANISH) or english
    return {"en": english, "es": str(spanish)}


def _option(payload: Mapping[str, Any]) -> OptionDoc:
    return OptionDoc(
        name=str(payload["name"]),
        names=_localized(payload, "name"),
        descriptions=_localized(payload, "description"),
        required=bool(payload.get("required")),
        kind=_OPTION_KINDS.get(int(payload.get("type", 3)), "text"),
        choices=tuple(_localized(c, "name") for c in payload.get("choices") or ()),
        autocomplete=bool(payload.get("autocomplete")),
    )


def command_docs(payloads: Iterable[Mapping[str, Any]]) -> list[CommandDoc]:
    """Every invocable command in the synced payloads, groups walked down to their leaves."""
    docs: list[CommandDoc] = []

    def walk(node: Mapping[str, Any], path: list[str], names: dict[str, list[str]]) -> None:
        here = _localized(node, "name")
        path = [*path, str(node["name"])]
        names = {lang: [*names.get(lang, []), here[lang]] for lang in ("es", "en")}
        children = [o for o in node.get("options") or () if o.get("type") in (1, 2)]
        if children:
            for child in children:
                walk(child, path, names)
            return
        docs.append(
            CommandDoc(
                path=" ".join(path),
                names={lang: " ".join(parts) for lang, parts in names.items()},
                descriptions=_localized(node, "description"),
                options=tuple(_option(o) for o in node.get("options") or ()),
            )
        )

    for payload in payloads:
        kind = int(payload.get("type", 1))
        if kind in (2, 3):
            docs.append(
                CommandDoc(
                    path=str(payload["name"]),
                    names=_localized(payload, "name"),
                    descriptions={},
                    options=(),
                    context_menu="user" if kind == 2 else "message",
                )
            )
        else:
            walk(payload, [], {})
    return docs  # in the tree's order: the order the cogs declare their commands


async def docs_of(bot: Arbitro) -> list[CommandDoc]:
    """The commands as Discord shows them (with their Spanish names), from the tree right now.

    Translating the payloads asks the translator for every Discord locale of every string
    (~0.1-0.2 s of event-loop time for the whole tree), so the result is kept until the tree
    changes: the key names every command object in it, so a command added, removed or replaced
    later (or a subcommand added to a group) rebuilds it."""
    tree = bot.tree
    key = _tree_key(tree.get_commands())
    cached = _CACHE.get(id(tree))
    if cached is not None and len(cached[0]) == len(key) and all(map(operator.is_, cached[0], key)):
        return cached[1]
    payloads: list[dict[str, Any]] = []
    for command in tree.get_commands():
        if tree.translator is not None:
            payloads.append(await command.get_translated_payload(tree, tree.translator))
        else:
            payloads.append(command.to_dict(tree))
    docs = command_docs(payloads)
    _CACHE[id(tree)] = (key, docs)
    return docs


# the key holds the command objects themselves, so an id is never reused while it is cached
_CACHE: dict[int, tuple[tuple[object, ...], list[CommandDoc]]] = {}


def _tree_key(commands: Iterable[Any]) -> tuple[object, ...]:
    """Every command object in the tree, depth first (cheap to compute, compared by identity)."""
    found: list[object] = []
    for command in commands:
        found.append(command)
        children = getattr(command, "commands", None)
        if children:
            found.extend(_tree_key(children))
    return tuple(found)


def topics(docs: list[CommandDoc]) -> list[str]:
    """The guides, then one topic per top-level command (a group shows all its subcommands)."""
    return [*GUIDES, *dict.fromkeys(d.root for d in docs)]


def _root_name(docs: list[CommandDoc], root: str, locale: str) -> str:
    doc = next(d for d in docs if d.root == root)
    return doc.names[locale] if doc.context_menu else doc.names[locale].split(" ")[0]


def topic_label(docs: list[CommandDoc], topic: str, locale: str) -> str:
    """What the menu and the autocomplete show: a guide's title or ``/tirar (/roll)``."""
    if topic in GUIDES:
        return t(f"help.guide.{topic}.title", locale)
    matching = [d for d in docs if d.path == topic or d.root == topic]
    if not matching:
        return topic
    doc = matching[0]
    local = doc.names[locale] if doc.path == topic else _root_name(docs, topic, locale)
    slash = "" if doc.context_menu else "/"
    label = f"{slash}{local}"
    if local != topic:
        label += f" ({slash}{topic})"
    return label


def find_topic(docs: list[CommandDoc], typed: str) -> str | None:
    """The topic a user typed: a guide id or title, or a command path in either language."""
    text = " ".join(typed.strip().lstrip("/").lower().split())
    if not text:
        return None
    for guide in GUIDES:
        titles = {t(f"help.guide.{guide}.title", lang).lower() for lang in ("es", "en")}
        if text == guide or text in titles:
            return guide
    for doc in docs:
        if text in (doc.path.lower(), *(n.lower() for n in doc.names.values())):
            return doc.path
    for root in dict.fromkeys(d.root for d in docs):
        if text in (root.lower(), *(_root_name(docs, root, lang).lower() for lang in ("es", "en"))):
            return root
    # a label chosen in the autocomplete: "/tirar (/roll)"
    inside = text.rsplit("(", 1)[-1].rstrip(")").lstrip("/").strip()
    return find_topic(docs, inside) if inside and inside != text else None


def suggestions(docs: list[CommandDoc], typed: str, locale: str) -> list[tuple[str, str]]:
    """(label, value) pairs for the ``topic`` option: guides, groups and commands that match."""
    text = typed.strip().lstrip("/").lower()
    every = [*topics(docs), *(d.path for d in docs if " " in d.path)]
    found: list[tuple[str, str]] = []
    for topic in dict.fromkeys(every):
        label = topic_label(docs, topic, locale)
        if not text or text in label.lower() or text in topic:
            found.append((label[:100], topic))
    return found[:25]


def menu_description(docs: list[CommandDoc], topic: str, locale: str) -> str | None:
    """The grey line under a menu entry: a guide's summary or the command's description."""
    if topic in GUIDES:
        return t(f"help.guide.{topic}.summary", locale)[:100]
    doc = next((d for d in docs if d.path == topic or d.root == topic), None)
    if doc is None:
        return None
    same_root = [d for d in docs if d.root == topic]
    if len(same_root) > 1:
        return fit_names([d.names[locale].split(" ", 1)[-1] for d in same_root], locale)
    return (doc.descriptions.get(locale) or "")[:100] or None


def fit_names(names: list[str], locale: str, limit: int = 100) -> str:
    """As many whole names as fit in a menu entry's description, then "and N more" (never cut)."""
    for shown in range(len(names), 0, -1):
        text = ", ".join(names[:shown])
        if shown < len(names):
            text += " " + t("help.more", locale, count=len(names) - shown)
        if len(text) <= limit:
            return text
    return t("help.more", locale, count=len(names))[:limit]


def _example(doc: CommandDoc, locale: str) -> str | None:
    key = "help.examples." + doc.path.replace(" ", ".")
    messages = catalogue().messages
    if key not in messages.get(locale, {}) and key not in messages.get("es", {}):
        return None
    return t(key, locale)


def command_help(doc: CommandDoc, locale: str) -> str:
    """One command's help: its name in both languages, what it does, each option, an example."""
    if doc.context_menu:
        title = f"**{doc.names[locale]}**"
        if doc.names[locale] != doc.path:
            title += f" ({doc.path})"
        return title + "\n" + t(f"help.context_menu.{doc.context_menu}", locale)
    lines = [f"**/{doc.names[locale]}**" + ("" if locale == "en" else f" (`/{doc.path}`)")]
    lines.append(doc.descriptions.get(locale) or doc.descriptions.get("en") or "")
    for option in doc.options:
        name = f"`{option.names[locale]}`"
        if option.names[locale] != option.name:
            name += f" (`{option.name}:`)"
        need = t("help.required" if option.required else "help.optional", locale)
        kind = t(f"help.kind.{option.kind}", locale)
        description = option.descriptions.get(locale) or ""
        line = f"• {name} — {need}, {kind}" + (f": {description}" if description else "")
        extra = ""
        if option.choices:
            choices = ", ".join(c[locale] for c in option.choices)
            extra = t("help.choices", locale, choices=choices)
        elif option.autocomplete:
            extra = t("help.suggested", locale)
        if extra:
            line += ("" if line.endswith((".", "!", "?")) else ".") + " " + extra
        lines.append(line)
    if not doc.options:
        lines.append(t("help.no_options", locale))
    example = _example(doc, locale)
    if example:
        lines.append(t("help.example", locale, example=example))
    return "\n".join(lines)


def _blocks(docs: list[CommandDoc], topic: str, locale: str) -> list[str]:
    if topic in GUIDES:
        return t(f"help.guide.{topic}.body", locale).split("\n\n")
    exact = [d for d in docs if d.path == topic]
    chosen = exact or [d for d in docs if d.root == topic]
    return [command_help(d, locale) for d in chosen]


def _pages(docs: list[CommandDoc], topic: str, locale: str) -> list[str]:
    """Whole blocks (a command, a paragraph) per page; a block longer than a page is split by
    lines, and a line longer than a page by characters, so nothing is ever cut off."""
    pages: list[str] = []
    current = ""
    pieces: list[str] = []
    for block in _blocks(docs, topic, locale):
        if len(block) <= PAGE_LIMIT:
            pieces.append(block)
            continue
        for line in block.split("\n"):
            pieces += [line[i : i + PAGE_LIMIT] for i in range(0, len(line), PAGE_LIMIT)] or [""]
    for piece in pieces:
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) > PAGE_LIMIT and current:
            pages.append(current)
            current = piece
        else:
            current = joined
    pages.append(current)
    return pages


def page_count(docs: list[CommandDoc], topic: str, locale: str) -> int:
    return len(_pages(docs, topic, locale))


def topic_page(docs: list[CommandDoc], topic: str, locale: str, page: int) -> tuple[str, int]:
    """Page ``page`` (0-based, clamped) of a topic and how many pages it has."""
    pages = _pages(docs, topic, locale)
    return pages[max(0, min(page, len(pages) - 1))], len(pages)
