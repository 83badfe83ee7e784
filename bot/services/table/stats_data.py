"""The table's activity at a glance, pure (``/campaign stats``, issue 25 §3): posts per
player and per week, and how long each player takes to answer the GM.

No database and no clock: :mod:`bot.services.table.stats` reads the rows (already filtered
for the reader by the audience rule) and hands them here; ``tests/bot/test_stats.py`` tests
these rules without a database.

* **Weeks** are calendar weeks of the campaign's time zone, Monday first; the stats cover the
  last :data:`MAX_WEEKS` of them, the current one included.
* **Time to answer the GM**: in each scene, a GM post opens a round of posts (as for the
  pace, :mod:`bot.services.table.pacing`); a player's *first* post after it answers it, and
  the time between the two is that player's answer time.  The median is used (a player away
  for a week does not hide a table that answers within the day).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.db.types import as_utc
from bot.formatting import time_zone

__all__ = [
    "MAX_WEEKS",
    "PlayerActivity",
    "PostFact",
    "activity",
    "week_of",
    "weeks_until",
]

#: Weeks the stats look back over (the current one included): the chart stays readable and
#: the rows read are bounded.
MAX_WEEKS = 12


@dataclass(frozen=True, slots=True)
class PostFact:
    """One post the reader may see: who wrote it, where, when, and whether it is the GM's."""

    author_id: int
    scene_id: int | None
    created_at: datetime
    gm_post: bool
    speaker: str


@dataclass(frozen=True, slots=True)
class PlayerActivity:
    """One player's posts per week (oldest week first) and answer times."""

    user_id: int
    speakers: tuple[str, ...]  # the characters they posted as, most used first
    per_week: tuple[int, ...]
    answers: int  # GM posts answered
    median_answer: timedelta | None

    @property
    def posts(self) -> int:
        return sum(self.per_week)


def week_of(moment: datetime, zone: str) -> date:
    """The Monday of ``moment``'s week, in the campaign's time zone."""
    day = as_utc(moment).astimezone(time_zone(zone)).date()
    return day - timedelta(days=day.weekday())


def weeks_until(now: datetime, zone: str, count: int = MAX_WEEKS) -> tuple[date, ...]:
    """The ``count`` weeks ending with ``now``'s (their Mondays, oldest first)."""
    last = week_of(now, zone)
    return tuple(last - timedelta(weeks=count - 1 - i) for i in range(count))


def activity(
    posts: Iterable[PostFact], weeks: Sequence[date], zone: str
) -> tuple[PlayerActivity, ...]:
    """Each player's posts per week and answer times, most active first (GM posts only open
    rounds: the GM is not a player here).  ``posts`` in the order they were written."""
    index = {week: i for i, week in enumerate(weeks)}
    counts: dict[int, list[int]] = {}
    speakers: dict[int, dict[str, int]] = {}
    round_start: dict[int | None, datetime] = {}
    answered: set[tuple[int | None, int]] = set()
    waits: dict[int, list[float]] = {}
    for post in sorted(posts, key=lambda p: p.created_at):
        at = post.created_at
        if post.gm_post:
            round_start[post.scene_id] = at
            answered = {key for key in answered if key[0] != post.scene_id}
            continue
        row = counts.setdefault(post.author_id, [0] * len(weeks))
        slot = index.get(week_of(at, zone))
        if slot is not None:
            row[slot] += 1
        names = speakers.setdefault(post.author_id, {})
        names[post.speaker] = names.get(post.speaker, 0) + 1
        opened = round_start.get(post.scene_id)
        key = (post.scene_id, post.author_id)
        if post.scene_id is not None and opened is not None and key not in answered:
            answered.add(key)
            waits.setdefault(post.author_id, []).append((at - opened).total_seconds())
    return _ranked(counts, speakers, waits)


def _ranked(
    counts: Mapping[int, list[int]],
    speakers: Mapping[int, Mapping[str, int]],
    waits: Mapping[int, list[float]],
) -> tuple[PlayerActivity, ...]:
    players = [
        PlayerActivity(
            user_id=user,
            speakers=tuple(
                name for name, _n in sorted(speakers[user].items(), key=lambda kv: -kv[1])
            ),
            per_week=tuple(row),
            answers=len(waits.get(user, ())),
            median_answer=(
                timedelta(seconds=statistics.median(waits[user])) if waits.get(user) else None
            ),
        )
        for user, row in counts.items()
    ]
    return tuple(sorted(players, key=lambda p: (-p.posts, p.speakers[:1], p.user_id)))
