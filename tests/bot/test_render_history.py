"""``/history`` lines: every outcome a log row holds reads as a word, never a catalogue key."""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.i18n import t
from bot.services.play.rolls import HistoryEntry, HistoryView
from bot.services.shared.audience import PUBLIC, Reader, show
from cogs.ui import render


def _entry(outcome: str | None, *, fumble: bool = False) -> HistoryEntry:
    return HistoryEntry(
        log_id=7,
        user_id=1,
        user_name="ana",
        character_name="Ardelia",
        expression="1o3d10+7",
        total=3,
        reason=None,
        outcome=outcome,
        fumble=fumble,
        private=False,
        created_at=datetime(2026, 12, 1),  # stored naive, UTC
        message_url=None,
    )


@pytest.mark.parametrize("locale", ["es", "en"])
@pytest.mark.parametrize("outcome", ["success", "failure", "critical", "fumble"])
def test_each_outcome_is_translated(outcome: str, locale: str) -> None:
    fumble = outcome == "fumble"
    entry = _entry(outcome, fumble=fumble)
    view = HistoryView((show(PUBLIC, Reader.everyone(), lambda _seen: entry),), None, False)
    text = render.history(view, locale)["embed"].description
    assert t(f"check.outcome.{outcome}", locale) in text
    assert "outcome." not in text  # no raw key (a check's fumble had none in roll.outcome)
    if fumble:  # said once, not as the outcome and again as the fumble mark
        assert t("roll.fumble_short", locale) not in text
