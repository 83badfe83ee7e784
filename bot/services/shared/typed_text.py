"""Pure text rules of posting by typing (issue 24): proxy tags, out-of-character marks,
rolls in double brackets, notes and what marks something private.

A member's message in a scene posts as a character when it starts with one of that
character's *proxy tags* (by default its name and a colon: ``Ardelia: …``; others may be set
with ``/proxy``), or, with no tag, as the character that sticks to the member in that scene.
A message marked out of character — wrapped in ``((…))`` or starting with ``//`` — stays the
member's own.  No Discord objects and no database here: the typing service and the cog call
these, and tests check them directly (the conventions follow PluralKit's and Tupperbox's:
the most specific tag wins, a tag with nothing inside matches only a message with files).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

from bot.services.shared.errors import DomainError
from rules.text import fold

__all__ = [
    "MAX_INLINE",
    "MAX_TAG",
    "NOTES_MARKER",
    "OOC_MARKERS",
    "InlineSpan",
    "TagPattern",
    "code_marks",
    "inline_rolls",
    "is_dice",
    "marked_private",
    "match_tag",
    "name_tag",
    "out_of_character",
    "parse_tag",
    "split_notes",
    "with_rolls_marked",
]

T = TypeVar("T")

#: A tag (prefix and suffix together) is short: it is typed at the start of every message.
MAX_TAG = 30
#: Out of character: the whole message in double parentheses, or a leading double slash.
OOC_MARKERS = ("((", "//")
#: The word standing for the message in a tag with a suffix (``-texto-``, ``{text}``), as a
#: word of its own («Pretexto:» is a prefix).
_PLACEHOLDER = re.compile(r"\b(?:texto|text)\b", re.IGNORECASE)
#: A tag never starts with these: ``[`` opens rolls (``[[1d20]]``) and dice labels, ``/`` is a
#: command or an out-of-character mark, ``((`` is out of character, ``-#`` opens the notes.
_RESERVED_STARTS = ("[", "/", "((", "-#")


@dataclass(frozen=True, slots=True)
class TagPattern:
    """A proxy tag: the text before the message and, optionally, after it."""

    prefix: str
    suffix: str = ""

    @property
    def key(self) -> str:
        """How tags are compared (case and accents ignored): unique within a campaign."""
        return f"{fold(self.prefix)}\x1f{fold(self.suffix)}"

    def shown(self, placeholder: str = "texto") -> str:
        """The tag as its owner writes it: ``Ardelia: texto``, ``-texto-``."""
        if self.suffix:
            return f"{self.prefix}{placeholder}{self.suffix}"
        return f"{self.prefix} {placeholder}" if self.prefix.endswith(":") else self.prefix


def name_tag(name: str) -> TagPattern:
    """A character's default tag: its name and a colon (``Ardelia:``)."""
    return TagPattern(f"{' '.join(name.split())}:")


def parse_tag(raw: str) -> TagPattern:
    """A tag as a member typed it for ``/proxy add``: ``A:`` (a prefix), or ``-texto-`` with
    the word «texto» (or «text») where the message goes.  Refused with a translated reason:
    blank, too long, several lines, several placeholders, or starting with what belongs to
    rolls, commands, out-of-character marks or notes."""
    text = raw.strip()
    if not text:
        raise DomainError("typing.error.tag_empty")
    if "\n" in text or "\r" in text:
        raise DomainError("typing.error.tag_one_line")
    prefix, suffix = text, ""
    placeholders = list(_PLACEHOLDER.finditer(text))
    if len(placeholders) > 1:
        raise DomainError("typing.error.tag_two_placeholders")
    if placeholders:
        prefix, suffix = text[: placeholders[0].start()], text[placeholders[0].end() :]
    prefix = prefix.lstrip()
    tag = TagPattern(prefix, suffix.rstrip())
    if not tag.prefix.strip() and not tag.suffix.strip():
        raise DomainError("typing.error.tag_empty")
    if len(tag.prefix) + len(tag.suffix) > MAX_TAG:
        raise DomainError("typing.error.tag_too_long", limit=MAX_TAG)
    if tag.prefix.startswith(_RESERVED_STARTS):
        raise DomainError("typing.error.tag_reserved", tag=tag.shown())
    return tag


def out_of_character(text: str) -> bool:
    """The member marked the message as their own words, not the character's."""
    return text.lstrip().startswith(OOC_MARKERS)


def match_tag(
    text: str, tags: Iterable[tuple[TagPattern, T]], *, has_files: bool = False
) -> tuple[T, str] | None:
    """The owner of the most specific tag the message is written with, and the message
    without the tag; None when no tag matches.  A tag with nothing inside counts only when
    the message carries files (an image posted as the character)."""
    body = text.strip()
    folded_start: dict[int, str] = {}
    for tag, owner in sorted(tags, key=lambda pair: -(len(pair[0].prefix) + len(pair[0].suffix))):
        prefix, suffix = tag.prefix.strip(), tag.suffix.strip()
        if len(body) < len(prefix) + len(suffix):
            continue
        start = folded_start.setdefault(len(prefix), fold(body[: len(prefix)]))
        if start != fold(prefix):
            continue
        if suffix and fold(body[len(body) - len(suffix) :]) != fold(suffix):
            continue
        inner = body[len(prefix) : len(body) - len(suffix)].strip()
        if inner or has_files:
            return owner, inner
    return None


# -- rolls and notes inside the text --------------------------------------------------------

#: At most this many ``[[…]]`` in one message (each is a logged roll).
MAX_INLINE = 10
#: What may stand between the brackets: a dice expression, a macro or a sheet option.
MAX_INLINE_TEXT = 200
#: Umbría's notes: a line that starts with Discord's subtext mark ``-#`` is out of character,
#: shown small under the post (what the member typed already looks so in Discord).
NOTES_MARKER = "-#"
#: Inside: anything but brackets and line ends, and dice labels in single brackets
#: (``[[1o3d10+5 [sigilo]]]``); the length is checked after the match.
_INLINE = re.compile(r"\[\[((?:[^\[\]\n]|\[[^\[\]\n]*\])+?)\]\](?!\])")
_OPEN = re.compile(r"\[\[")
#: What marks something private: ``!`` or a word such as «privada:» / «secret:» / «gm:» at the
#: start of a roll or a note.  Typed text is visible (and notifies) until the bot removes it,
#: so nothing private is accepted there: such a message is not posted (``/post`` instead).
_PRIVATE = re.compile(
    r"^\s*(?:!|(?:privad[oa]s?|private|secret[oa]?s?|oculto|oculta|hidden|gm|m[aá]ster)\s*:)",
    re.IGNORECASE,
)
#: A dice term (``d20``, ``3d6``, ``d%``, Núcleo's ``1o3d10``) or bare arithmetic.
_DICE = re.compile(r"\d*\s*d\s*(?:\d|%)|\d+\s*o\s*\d*\s*d", re.IGNORECASE)
_ARITHMETIC = re.compile(r"^[\d\s+\-*/()]+$")


@dataclass(frozen=True, slots=True)
class InlineSpan:
    """One ``[[…]]`` of a message: where it is and what is written inside."""

    start: int
    end: int
    inner: str


def inline_rolls(text: str) -> list[InlineSpan]:
    """The message's ``[[…]]``, in order (refused beyond :data:`MAX_INLINE`, or when a pair
    of brackets holds nothing or too much)."""
    spans = [InlineSpan(m.start(), m.end(), m.group(1).strip()) for m in _INLINE.finditer(text)]
    if len(_OPEN.findall(text)) != len(spans) or any(
        not span.inner or len(span.inner) > MAX_INLINE_TEXT for span in spans
    ):
        raise DomainError("typing.error.bad_brackets", limit=MAX_INLINE_TEXT)
    if len(spans) > MAX_INLINE:
        raise DomainError("typing.error.too_many_rolls", limit=MAX_INLINE)
    return spans


def is_dice(text: str) -> bool:
    """Dice notation (``1d20+5``, ``4d6kh3 fuerza``, ``1o3d10``) rather than a name."""
    body = text.split("#", 1)[0].split("[", 1)[0]
    return bool(_DICE.search(body) or _ARITHMETIC.match(body.strip() or "x"))


def split_notes(text: str) -> tuple[str, str | None]:
    """The text without its notes lines (``-# …``), and the notes (None: none)."""
    kept: list[str] = []
    notes: list[str] = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(NOTES_MARKER):
            notes.append(stripped[len(NOTES_MARKER) :].strip())
        else:
            kept.append(line)
    joined = "\n".join(n for n in notes if n).strip()
    return "\n".join(kept).strip(), joined or None


def marked_private(spans: Iterable[InlineSpan], notes: str | None) -> bool:
    """A roll or a note the member marked private (``[[privada: 1d20]]``, ``-# gm: …``)."""
    if any(_PRIVATE.match(span.inner) for span in spans):
        return True
    return any(_PRIVATE.match(line) for line in (notes or "").splitlines())


_CODE_MARK = re.compile(r"`[^`\n]*`[⁰¹²³⁴⁵⁶⁷⁸⁹]*")


def code_marks(text: str) -> list[str]:
    """The inline-code marks of a post's text, in order: where :func:`with_rolls_marked` put
    each ``[[…]]`` (and any code its author wrote).  Two versions of a post with the same
    marks roll the same things."""
    return _CODE_MARK.findall(text)


def with_rolls_marked(text: str, spans: list[InlineSpan]) -> str:
    """The post's text: each ``[[…]]`` becomes what was written in it as inline code (the
    results go under the text, numbered in the same order when there are several)."""
    out: list[str] = []
    last = 0
    for index, span in enumerate(spans, start=1):
        mark = f"`{span.inner.replace('`', 'ˋ')}`"
        if len(spans) > 1:
            mark += _superscript(index)
        out.append(text[last : span.start] + mark)
        last = span.end
    out.append(text[last:])
    return "".join(out)


def _superscript(number: int) -> str:
    return "".join("⁰¹²³⁴⁵⁶⁷⁸⁹"[int(digit)] for digit in str(number))
