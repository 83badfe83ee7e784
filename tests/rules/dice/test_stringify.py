"""Plain and Markdown breakdowns of scripted rolls."""

from __future__ import annotations

from rules.dice import roll
from tests.rules.helpers import Cells

BREAKDOWNS = [
    ("1d20+5", [20], "1d20 (20) + 5 = 25", "1d20 (**20**) + 5 = `25`"),
    (
        "4d6kh3",
        [6, 1, 3, 5],
        "4d6kh3 (6, ~~1~~, 3, 5) = 14",
        "4d6kh3 (**6**, ~~**1**~~, 3, 5) = `14`",
    ),
    ("2d6!", [4, 6, 6, 2], "2d6! (4, 6!, 6!, 2) = 18", "2d6! (4, **6**!, **6**!, 2) = `18`"),
    ("2d6ro1", [1, 1, 4], "2d6ro1 (~~1~~→1, 4) = 5", "2d6ro1 (~~1~~→**1**, 4) = `5`"),
    ("3d10>=7", [7, 2, 10], "3d10>=7 (7*, 2, 10*) = 2", "3d10>=7 (__7__, 2, __**10**__) = `2`"),
    ("1d20<=12", [7], "1d20<=12 (7) = 7 ✓", "1d20<=12 (7) = `7` ✓"),
    ("1d20<=12", [13], "1d20<=12 (13) = 13 ✗", "1d20<=12 (13) = `13` ✗"),
    (
        "1o3d10+2",
        [10, 7, 10, 3, 8, 5],
        "1o3d10 (10!, ~~7~~, ~~10~~ | ~~3~~, ~~8~~, 5) + 2 = 17",
        "1o3d10 (**10**!, ~~7~~, ~~10~~ | ~~3~~, ~~8~~, 5) + 2 = `17`",
    ),
    (
        "1o3d10b+12 [sigilo]",
        [9, 1, 8],
        "1o3d10b (~~9~~, 1, ~~8~~) + 12 [sigilo] = 13",
        "1o3d10b (~~9~~, **1**, ~~8~~) + 12 [sigilo] = `13`",
    ),
    (
        "(1d6 [fuego] + 2) * 2",
        [3],
        "(1d6 (3) [fuego] + 2) * 2 = 10",
        "(1d6 (3) [fuego] + 2) * 2 = `10`",
    ),
    ("-1d4", [2], "-1d4 (2) = -2", "-1d4 (2) = `-2`"),
]


def test_breakdowns(scripted):
    """Every shape's plain and Markdown breakdown; a failure lists every wrong one."""
    cells = Cells()
    for expression, faces, plain, markdown in BREAKDOWNS:
        where = f"{expression!r} with faces {faces}"
        cells.check(f"{where} plain", str(roll(expression, scripted(faces))), plain)
        cells.check(f"{where} Markdown", roll(expression, scripted(faces)).markdown(), markdown)
    cells.assert_all_match()


def test_capped_chain_shows_the_last_ten_without_a_mark(scripted):
    text = str(roll("1o3d10a", scripted([10] * 63)))
    assert text.count("10!") == 20
    assert text.endswith("~~10~~, ~~10~~, 10) = 210")


def test_markdown_escapes_labels(scripted):
    result = roll("1d6 [fu*ego_x ~~ (a)]", scripted([2]))
    assert result.markdown() == "1d6 (2) [fu\\*ego\\_x \\~\\~ (a)] = `2`"
    assert str(roll("1d6 [fu*ego]", scripted([2]))) == "1d6 (2) [fu*ego] = 2"
