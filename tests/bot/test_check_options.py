"""``/check`` takes an option by the name the sheet shows, not only by its key (issue 13 §4:
a newcomer types «Atento» or «destreza», and Discord sends the typed text when nobody picks
a suggestion)."""

from __future__ import annotations

import pytest

from bot.services.play.checks import resolve_option
from bot.services.shared.labels import Ambiguous
from bot.services.table.posting import PostRoll
from cogs.ui.render_post import roll_line
from rules.systems.base import CheckOption

OPTIONS = (
    CheckOption("atributo:Atento", "Atento", "atributo"),
    CheckOption("atributo:Ágil", "Ágil", "atributo"),
    CheckOption("defensa", "Defensa", "defensa"),
)


def test_a_key_stays_a_key() -> None:
    assert resolve_option(OPTIONS, "atributo:Atento") == "atributo:Atento"


def test_a_shown_name_finds_its_key_whatever_the_case_and_accents() -> None:
    assert resolve_option(OPTIONS, "Atento") == "atributo:Atento"
    assert resolve_option(OPTIONS, " agil ") == "atributo:Ágil"
    assert resolve_option(OPTIONS, "DEFENSA") == "defensa"


def test_anything_else_is_left_for_the_system_to_refuse_by_name() -> None:
    assert resolve_option(OPTIONS, "Volar") == "Volar"
    twins = (CheckOption("a:X", "X", "a"), CheckOption("b:X", "X", "b"))
    with pytest.raises(Ambiguous):  # not guessed: refused with both names
        resolve_option(twins, "x")


def test_a_posts_roll_says_its_total_once() -> None:
    """Was: «1o3d10b (~~7~~, 2, ~~4~~) + 13 = 15 = **15**»."""
    roll = PostRoll(
        1, "Advertir/Notar", "1o3d10b+13", "1o3d10b (7, 2, 4) + 13 = 15", 15, None, False
    )
    assert roll_line(roll, "es").endswith("+ 13 = **15**")
    plain = PostRoll(2, None, "2d6+1", "2d6 (3, 4) + 1", 8, None, False)
    assert roll_line(plain, "es").endswith("2d6 (3, 4) + 1 = **8**")
