"""A post's HTML (or a character's section) as Discord Markdown.

Bold, italics, underline and strike become ``**``, ``*``, ``__`` and ``~~``; quotes become
``>`` lines; lists ``-`` and ``1.`` lines; links ``[text](url)`` (only ``http``, ``https`` and
``mailto``: a relative link or any other scheme keeps its text alone); a table becomes a
text table in a code block (Discord draws none); an image becomes ``🖼 name`` in the text and
its zip member is handed back, so the post carries the image itself.  Text the author wrote
is escaped, so «2*3*4» stays three numbers and two stars.

HTML entities (``&aacute;``) are decoded by the parser before any of this.  Nesting deeper
than :data:`MAX_DEPTH` is read as plain text: a hostile page cannot exhaust the stack.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bs4 import BeautifulSoup
from bs4.element import CData, Comment, Declaration, Doctype, NavigableString, PageElement, Tag

__all__ = ["MAX_DEPTH", "Converted", "to_markdown"]

MAX_DEPTH = 40
IMAGE_MARK = "🖼"

_DROPPED = frozenset(
    {"script", "style", "noscript", "iframe", "object", "embed", "form", "input", "button",
     "select", "textarea", "head", "title", "meta", "link", "template", "svg"}
)  # fmt: skip
_BLOCKS = frozenset(
    {"p", "div", "section", "article", "center", "header", "footer", "dl", "dd", "dt",
     "address", "figure", "figcaption", "main", "aside", "nav", "tbody", "thead"}
)  # fmt: skip
_WRAPS = {
    "b": "**",
    "strong": "**",
    "i": "*",
    "em": "*",
    "cite": "*",
    "u": "__",
    "ins": "__",
    "s": "~~",
    "strike": "~~",
    "del": "~~",
}
_NOT_TEXT = (Comment, Declaration, Doctype, CData)
_ESCAPED = re.compile(r"([\\*_~`|])")
_URL = re.compile(r"(https?://\S+)")
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")
_RUNS = re.compile(r"(?<=\S) {2,}")
_LINKABLE = ("http", "https", "mailto")
#: A list item's continuation indent, made spaces only after the layout's spaces are gone.
_INDENT = "\x01"

#: Looks an image's ``src`` up in the zip: its member key, or None when the zip lacks it.
ImageLookup = Callable[[str], str | None]


@dataclass
class Converted:
    text: str
    images: list[str] = field(default_factory=list)  # zip keys, in the order shown
    missing_images: int = 0


def to_markdown(nodes: Iterable[PageElement], images: ImageLookup | None = None) -> Converted:
    """``nodes`` (an element's children, or a run of siblings) as Discord Markdown."""
    writer = _Writer(images or (lambda _src: None))
    text = "".join(writer.node(node, 0) for node in nodes)
    return Converted(_tidy(text), writer.found, writer.missing)


def _tidy(text: str) -> str:
    """Spaces the HTML's layout left (around tags, at line starts) removed, blank lines
    collapsed; code blocks kept as they are, list indents (:data:`_INDENT`) made spaces."""
    lines: list[str] = []
    fenced = False
    for line in text.replace("\r", "").split("\n"):
        if line.strip() == "```":
            fenced = not fenced
            lines.append("```")
        elif fenced:
            lines.append(line.rstrip())
        else:
            lines.append(_RUNS.sub(" ", line).strip().replace(_INDENT, " "))
    joined = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", joined).strip("\n")


def _escape(text: str) -> str:
    """Markdown characters as literal text (URLs left whole: Discord links them as typed)."""
    pieces = _URL.split(text)
    return "".join(
        piece if index % 2 else _ESCAPED.sub(r"\\\1", piece) for index, piece in enumerate(pieces)
    )


def _plain(node: PageElement) -> str:
    """The visible text of a node, spaces collapsed (for table cells and deep nesting)."""
    if isinstance(node, Tag):
        return _SPACES.sub(" ", node.get_text(" ")).strip()
    return _SPACES.sub(" ", str(node)).strip()


def _wrap(marker: str, inner: str) -> str:
    """``**inner**`` with the spaces around it kept outside the markers (Discord ignores
    ``** bold **``); nothing to wrap gives the spaces alone."""
    found = re.match(r"^(\s*)(.*?)(\s*)$", inner, re.DOTALL)
    assert found is not None  # the pattern matches any text
    lead, core, trail = found.groups()
    if not core:
        return lead + trail
    return f"{lead}{marker}{core}{marker}{trail}"


def _block(inner: str) -> str:
    return f"\n\n{inner.strip()}\n\n" if inner.strip() else ""


class _Writer:
    def __init__(self, images: ImageLookup) -> None:
        self.images = images
        self.found: list[str] = []
        self.missing = 0

    def children(self, tag: Tag, depth: int) -> str:
        return "".join(self.node(child, depth + 1) for child in tag.children)

    def node(self, node: PageElement, depth: int) -> str:
        if isinstance(node, _NOT_TEXT):
            return ""
        if isinstance(node, NavigableString):
            return _escape(_SPACES.sub(" ", str(node)))
        if not isinstance(node, Tag):
            return ""
        name = (node.name or "").lower()
        if name in _DROPPED:
            return ""
        if depth >= MAX_DEPTH:
            return _escape(_plain(node))
        handler = _HANDLERS.get(name)
        if handler is not None:
            return handler(self, node, depth)
        if name in _WRAPS:
            return _wrap(_WRAPS[name], self.children(node, depth))
        if name in _BLOCKS:
            return _block(self.children(node, depth))
        return self.children(node, depth)

    # -- one method per element that is more than a wrapper --------------------------------

    def br(self, _tag: Tag, _depth: int) -> str:
        return "\n"

    def hr(self, _tag: Tag, _depth: int) -> str:
        return "\n\n———\n\n"

    def heading(self, tag: Tag, depth: int) -> str:
        inner = _SPACES.sub(" ", self.children(tag, depth)).strip()
        return _block(f"**{inner}**") if inner else ""

    def code(self, tag: Tag, _depth: int) -> str:
        text = _SPACES.sub(" ", tag.get_text()).replace("`", "ˋ").strip()
        return f"`{text}`" if text else ""

    def pre(self, tag: Tag, _depth: int) -> str:
        text = tag.get_text().replace("```", "ˋˋˋ").strip("\n")
        return f"\n\n```\n{text}\n```\n\n" if text.strip() else ""

    def link(self, tag: Tag, depth: int) -> str:
        inner = self.children(tag, depth)
        href = str(tag.get("href") or "").strip()
        scheme = urlsplit(href).scheme.lower() if href else ""
        if scheme not in _LINKABLE or not inner.strip():
            return inner
        url = href.replace(" ", "%20").replace(")", "%29").replace("(", "%28")
        if _plain(tag) == href:
            return url
        label = inner.strip().replace("[", "\\[").replace("]", "\\]")
        return f"[{label}]({url})"

    def quote(self, tag: Tag, depth: int) -> str:
        inner = _tidy(self.children(tag, depth))
        if not inner:
            return ""
        return "\n\n" + "\n".join(f"> {line}".rstrip() for line in inner.split("\n")) + "\n\n"

    def listing(self, tag: Tag, depth: int) -> str:
        ordered = (tag.name or "").lower() == "ol"
        lines = []
        number = 0
        for item in tag.find_all("li", recursive=False):
            number += 1
            text = _tidy(self.children(item, depth + 1))
            if not text:
                continue
            bullet = f"{number}. " if ordered else "- "
            indented = text.replace("\n", "\n" + _INDENT * len(bullet))
            lines.append(bullet + indented)
        return "\n\n" + "\n".join(lines) + "\n\n" if lines else ""

    def image(self, tag: Tag, _depth: int) -> str:
        src = str(tag.get("src") or "").strip()
        label = _SPACES.sub(" ", str(tag.get("alt") or "")).strip()
        name = src.rsplit("/", 1)[-1].split("?", 1)[0] or label
        key = self.images(src) if src else None
        if key is None:
            self.missing += 1
        else:
            self.found.append(key)
            name = key.rsplit("/", 1)[-1]
        return f"{IMAGE_MARK} {_escape(label or name)}" if (label or name) else ""

    def table(self, tag: Tag, _depth: int) -> str:
        rows: list[list[str]] = []
        for row in tag.find_all("tr"):
            if row.find_parent("table") is not tag:
                continue  # a row of a table inside this one: read as its cell's text
            cells = [_plain(cell) for cell in row.find_all(("td", "th"), recursive=False)]
            if any(cells):
                rows.append(cells)
        if not rows:
            return ""
        return "\n\n```\n" + text_table(rows).replace("```", "ˋˋˋ") + "\n```\n\n"


def text_table(rows: list[list[str]]) -> str:
    """Rows of cells as aligned text; a rule under the first row."""
    columns = max(len(row) for row in rows)
    padded = [row + [""] * (columns - len(row)) for row in rows]
    widths = [max(len(row[i]) for row in padded) for i in range(columns)]
    lines = []
    for row in padded:
        cells = [cell.ljust(widths[i]) for i, cell in enumerate(row)]
        while len(cells) > 1 and not cells[-1].strip():
            cells.pop()  # a short row ends where its text does
        lines.append(" | ".join(cells).rstrip())
    rule = "-+-".join("-" * width for width in widths)
    return "\n".join([lines[0], rule, *lines[1:]])


_HANDLERS: dict[str, Callable[[_Writer, Tag, int], str]] = {
    "br": _Writer.br,
    "hr": _Writer.hr,
    "h1": _Writer.heading,
    "h2": _Writer.heading,
    "h3": _Writer.heading,
    "h4": _Writer.heading,
    "h5": _Writer.heading,
    "h6": _Writer.heading,
    "code": _Writer.code,
    "tt": _Writer.code,
    "kbd": _Writer.code,
    "pre": _Writer.pre,
    "a": _Writer.link,
    "blockquote": _Writer.quote,
    "ul": _Writer.listing,
    "ol": _Writer.listing,
    "img": _Writer.image,
    "table": _Writer.table,
}


def html_to_markdown(html: str) -> str:
    """A fragment of HTML as Markdown (for tests and the scene list's loose text)."""
    soup = BeautifulSoup(html, "html.parser")
    return to_markdown(soup.contents).text
