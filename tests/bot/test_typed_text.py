"""The pure text rules of posting by typing (bot/services/shared/typed_text.py): tags as
members type them, which tag a message uses, and what is out of character."""

from __future__ import annotations

import pytest

from bot.services.shared.errors import DomainError
from bot.services.shared.typed_text import (
    TagPattern,
    match_tag,
    name_tag,
    out_of_character,
    parse_tag,
)


@pytest.mark.parametrize(
    ("typed", "prefix", "suffix"),
    [
        ("A:", "A:", ""),
        ("  Ardelia >  ", "Ardelia >", ""),
        ("-texto-", "-", "-"),
        ("{text}", "{", "}"),
        ("Pretexto:", "Pretexto:", ""),  # «texto» inside a word is no placeholder
        ("A: texto", "A: ", ""),
    ],
)
def test_tags_as_members_type_them(typed, prefix, suffix):
    assert parse_tag(typed) == TagPattern(prefix, suffix)


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("", "typing.error.tag_empty"),
        ("texto", "typing.error.tag_empty"),
        ("a\nb", "typing.error.tag_one_line"),
        ("texto y texto", "typing.error.tag_two_placeholders"),
        ("x" * 31, "typing.error.tag_too_long"),
        ("[[", "typing.error.tag_reserved"),
        ("[A]", "typing.error.tag_reserved"),
        ("/a", "typing.error.tag_reserved"),
        ("((a", "typing.error.tag_reserved"),
        ("-# a", "typing.error.tag_reserved"),
    ],
)
def test_tags_refused_with_a_reason(typed, key):
    with pytest.raises(DomainError) as refused:
        parse_tag(typed)
    assert refused.value.key == key


def test_the_most_specific_tag_wins_ignoring_case_and_accents():
    tags = [(name_tag("Ana"), "ana"), (name_tag("Ana María"), "ana maría"), (parse_tag("A:"), "a")]
    assert match_tag("ana maría: hola", tags) == ("ana maría", "hola")
    assert match_tag("ANA: hola", tags) == ("ana", "hola")
    assert match_tag("a: hola", tags) == ("a", "hola")
    assert match_tag("Ána: acentos", tags) == ("ana", "acentos")
    assert match_tag("Anabel: no", tags) is None
    assert match_tag("hola", tags) is None


def test_prefix_and_suffix_and_an_empty_inside():
    tags = [(parse_tag("-texto-"), 1), (name_tag("Brisa"), 2)]
    assert match_tag("-con guiones-", tags) == (1, "con guiones")
    assert match_tag("-sin cierre", tags) is None
    assert match_tag("Brisa:", tags) is None  # nothing to post
    assert match_tag("Brisa:", tags, has_files=True) == (2, "")  # an image as Brisa


@pytest.mark.parametrize(
    ("text", "ooc"),
    [("((brb))", True), ("  // pregunta", True), ("(susurra)", False), ("Ardelia: //", False)],
)
def test_out_of_character(text, ooc):
    assert out_of_character(text) is ooc
