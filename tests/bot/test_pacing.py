"""The pacing rules of :mod:`bot.services.table.pacing`, without a database: rounds of posts,
which reminders are due and when to look again, what an absence may be, when an NPCized
character comes back.  (tests/bot/test_pace.py runs the same rules through the service on
SQLite and PostgreSQL.)"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from bot.db.models import Scene
from bot.services.shared.errors import DomainError
from bot.services.table.pacing import (
    MAX_ABSENCE_DAYS,
    RECHECK,
    Member,
    build_rounds,
    check_absence,
    due_reminders,
    npc_return,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
GM = 1
ANA = Member(user_id=2, character_id=20, name="Ardelia", owner_id=2)
BRUNO = Member(user_id=3, character_id=30, name="Bruno", owner_id=3)
CARLA = Member(user_id=4, character_id=40, name="Carla", owner_id=4)


def scene(scene_id: int, *, players: list[int] | None = None, gm_at: datetime | None = None):
    return Scene(
        id=scene_id,
        guild_id=1000,
        campaign_id=1,
        channel_id=500 + scene_id,
        title=f"Escena {scene_id}",
        players=players or [],
        opened_by=GM,
        created_at=NOW - timedelta(hours=30),
        round_started_at=gm_at,
    )


def test_a_round_is_who_posted_since_the_gms_last_post_pending_first():
    """Ana posted after the GM; Bruno and Carla are pending, by name; a scene for Bruno
    alone has only him; a scene where the GM has not posted starts at its opening."""
    gm_at = NOW - timedelta(hours=10)
    rounds = build_rounds(
        [scene(1, gm_at=gm_at), scene(2, players=[3])],
        [ANA, BRUNO, CARLA],
        frozenset(),
        {(1, 20): NOW - timedelta(hours=2)},
        {},
        GM,
        24,
    )
    first, second = rounds
    assert [(e.name, e.pending) for e in first.entries] == [
        ("Bruno", True),
        ("Carla", True),
        ("Ardelia", False),
    ]
    assert first.started_at == gm_at and first.gm_started and first.deadline_hours == 24
    assert [e.name for e in second.entries] == ["Bruno"]
    assert second.started_at == NOW - timedelta(hours=30) and not second.gm_started


def test_an_npcized_character_is_the_gms_to_post_and_absences_follow_who_must_post():
    rounds = build_rounds(
        [scene(1)], [ANA, BRUNO], frozenset({30}), {}, {GM: date(2026, 12, 3)}, GM, 24
    )
    bruno = next(e for e in rounds[0].entries if e.name == "Bruno")
    ana = next(e for e in rounds[0].entries if e.name == "Ardelia")
    assert (bruno.npcized, bruno.responsible_id, bruno.player_id) == (True, GM, 3)
    assert bruno.absent_until == date(2026, 12, 3) and ana.absent_until is None


def test_reminders_are_due_after_the_deadline_once_per_round_never_while_away():
    """Started 30 h ago with a 24 h deadline: Bruno is due; Carla was reminded in this
    round already; Ana's member is away.  A 48 h deadline: nobody yet, and the watch looks
    again at the deadline if it comes before RECHECK."""
    view = build_rounds(
        [scene(1)], [ANA, BRUNO, CARLA], frozenset(), {}, {2: date(2026, 12, 2)}, GM, 24
    )[0]
    sent = frozenset({(1, 40, view.round_key)})
    found, next_at = due_reminders([view], sent, 24, NOW)
    assert [entry.name for _view, entry in found] == ["Bruno"] and next_at == NOW + RECHECK
    found, next_at = due_reminders([view], sent, 30, NOW - timedelta(minutes=20))
    assert found == [] and next_at == NOW
    assert due_reminders([view], sent, 48, NOW) == ([], NOW + RECHECK)


def test_an_absence_is_checked_before_it_is_stored():
    today = date(2026, 12, 1)
    assert check_absence(today, today, today, "  viaje ", "es") == "viaje"
    assert check_absence(today, today, today, "   ", "es") is None
    refused = {
        "pace.error.ends_before": (date(2026, 12, 5), date(2026, 12, 4), None),
        "pace.error.in_the_past": (date(2026, 11, 1), date(2026, 11, 30), None),
        "pace.error.too_long": (today, today + timedelta(days=MAX_ABSENCE_DAYS), None),
        "pace.error.too_far": (today + timedelta(days=1200), today + timedelta(days=1201), None),
        "pace.error.note_too_long": (today, today, "x" * 201),
    }
    for key, (first, last, note) in refused.items():
        with pytest.raises(DomainError) as error:
            check_absence(first, last, today, note, "es")
        assert error.value.key == key


def test_an_npcized_character_comes_back_at_midnight_of_the_campaigns_zone():
    back = npc_return(date(2026, 12, 3), "Europe/Madrid", NOW, "es")
    assert back == datetime(2026, 12, 2, 23, 0, tzinfo=UTC)
    with pytest.raises(DomainError) as past:
        npc_return(date(2026, 12, 1), "Europe/Madrid", NOW, "es")
    assert past.value.key == "pace.error.in_the_past"
    with pytest.raises(DomainError) as far:
        npc_return(date(2030, 12, 3), "Europe/Madrid", NOW, "es")
    assert far.value.key == "pace.error.too_far"
