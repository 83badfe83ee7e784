"""Pure text rules of posting by typing (issue 24): proxy tags, out-of-character marks.

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
    "MAX_TAG",
    "OOC_MARKERS",
    "TagPattern",
    "match_tag",
    "name_tag",
    "out_of_character",
    "parse_tag",
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
