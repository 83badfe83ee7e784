"""The roll under a post says its total once (issue 13, «messages cut or wrong»)."""

from __future__ import annotations

import pytest

from bot.services.table.posting import PostRoll
from cogs.ui.render_post import roll_line


@pytest.mark.parametrize(
    ("label", "breakdown", "total", "shown"),
    [
        (
            "Pilotar",
            "1o3d10 (~~5~~, 7, ~~8~~) + 13 = 20",
            20,
            "1o3d10 (~~5~~, 7, ~~8~~) + 13 = **20**",
        ),
        (None, "2d6 (2, 5) + 1 = `8`", 8, "2d6 (2, 5) + 1 = **8**"),
        ("Ágil", "1d20 (13)", 13, "1d20 (13) = **13**"),  # a roll-under test: none to drop
        (None, "1d6 (4) + 10 = 14", 140, "1d6 (4) + 10 = 14 = **140**"),  # not its own total
    ],
)
def test_the_total_appears_once(label, breakdown, total, shown):
    line = roll_line(PostRoll(1, label, "x", breakdown, total, None, False), "es")
    assert shown in line, line
    assert line.count(f"**{total}**") == 1
