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


def test_rolls_in_brackets_are_found_in_order_and_bounded():
    from bot.services.shared.typed_text import inline_rolls

    spans = inline_rolls("Ataco [[1d20+5]] y luego [[ Pilotar +2 ]].")
    assert [s.inner for s in spans] == ["1d20+5", "Pilotar +2"]
    labelled = inline_rolls("[[1o3d10b+12 [sigilo]]] y [[2d6 [fuego] + 1d4 [frío]]]")
    assert [s.inner for s in labelled] == ["1o3d10b+12 [sigilo]", "2d6 [fuego] + 1d4 [frío]"]
    assert inline_rolls("sin tiradas") == []
    for bad, key in (
        ("[[]]", "typing.error.bad_brackets"),
        ("[[1d20", "typing.error.bad_brackets"),
        ("[[a\nb]]", "typing.error.bad_brackets"),
        ("[[" + "x" * 201 + "]]", "typing.error.bad_brackets"),
        (" ".join(["[[1d6]]"] * 11), "typing.error.too_many_rolls"),
    ):
        with pytest.raises(DomainError) as refused:
            inline_rolls(bad)
        assert refused.value.key == key, bad


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("1d20+5", True),
        ("4d6kh3 fuerza", True),
        ("1o3d10b+12 [sigilo]", True),
        ("d%", True),
        ("2+3", True),
        ("Pilotar", False),
        ("Pilotar +2", False),
        ("Destreza", False),
        ("salvación veneno", False),
        ("ataque", False),
    ],
)
def test_dice_or_a_name(text, dice):
    from bot.services.shared.typed_text import is_dice

    assert is_dice(text) is dice


def test_notes_are_the_subtext_lines_and_rolls_are_marked_in_the_text():
    from bot.services.shared.typed_text import inline_rolls, split_notes, with_rolls_marked

    body, notes = split_notes("—¡Alto! [[1d20]]\n-# Tiro para asustarle.\n-# Y otra nota.")
    assert (body, notes) == ("—¡Alto! [[1d20]]", "Tiro para asustarle.\nY otra nota.")
    assert split_notes("Sin notas.") == ("Sin notas.", None)
    assert with_rolls_marked(body, inline_rolls(body)) == "—¡Alto! `1d20`"
    two = "[[1d20]] y [[1d6]]"
    assert with_rolls_marked(two, inline_rolls(two)) == "`1d20`¹ y `1d6`²"


@pytest.mark.parametrize(
    ("text", "notes", "private"),
    [
        ("[[privada: 1d20]]", None, True),
        ("[[! 1d20]]", None, True),
        ("[[Secret: Sigilo]]", None, True),
        ("[[1d20]]", "gm: solo para ti", True),
        ("[[1d20]]", "Máster: mira esto", True),
        ("[[1d20 privada]]", None, False),  # a comment, not a mark
        ("[[1d20]]", "nota normal", False),
    ],
)
def test_what_marks_something_private(text, notes, private):
    from bot.services.shared.typed_text import inline_rolls, marked_private

    assert marked_private(inline_rolls(text), notes) is private
