"""The stats chart, drawn in the bot's worker process (``/campaign stats``, issue 25 §3).

:func:`stats_job` is the one job :class:`bot.services.table.stats.StatsService` submits to
:class:`bot.compute.ComputePool`: it places each roll within its own distribution
(:mod:`rules.dice.luck`) and draws the PNG.  Everything it receives is plain, picklable data
already filtered for the reader and bounded by the service (weeks, players, characters,
distinct expressions), and the labels come translated: the worker knows no campaign.

The chart is drawn with **matplotlib** on its Agg backend (a PNG in memory: no display, no
system package; wheels on the package index for every platform we run on), through its
object API (:class:`matplotlib.figure.Figure`, no ``pyplot`` global state).  It is imported
*here, inside the job*, so only the worker process ever loads it: the bot's own memory does not
grow by matplotlib's (tens of MB), and a bot that never draws a chart never imports it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.dice.luck import Luck, LuckRoll, luck_by_character

if TYPE_CHECKING:  # types only: matplotlib is imported by the worker's job alone
    from matplotlib.axes import Axes

__all__ = ["CHART_HEIGHT", "CHART_WIDTH", "ChartInput", "StatsResult", "draw", "stats_job"]

#: The PNG's size in pixels (readable on a phone, under 200 KB).
CHART_WIDTH = 1200
CHART_HEIGHT = 1200
_DPI = 100
#: Bars shown per panel: the busiest players and the characters with most rolls.
MAX_BARS = 15


@dataclass(frozen=True, slots=True)
class ChartInput:
    """What the chart shows, every text already in the reader's language."""

    title: str
    weeks: tuple[str, ...]  # week labels, oldest first
    players: tuple[tuple[str, tuple[int, ...]], ...]  # name, posts per week
    answers: tuple[tuple[str, float], ...]  # name, median hours to answer the GM
    posts_title: str
    answers_title: str
    answers_axis: str
    luck_title: str
    luck_axis: str
    nothing: str


@dataclass(frozen=True, slots=True)
class StatsResult:
    luck: tuple[Luck, ...]
    png: bytes


def stats_job(
    rolls: Sequence[LuckRoll], expressions: Sequence[str], chart: ChartInput
) -> StatsResult:
    """The worker's job: the characters' luck, then the chart with it."""
    luck = luck_by_character(rolls, expressions)
    return StatsResult(luck, draw(chart, luck))


def draw(chart: ChartInput, luck: Sequence[Luck]) -> bytes:
    """The PNG (:data:`CHART_WIDTH` × :data:`CHART_HEIGHT`): posts per week per player, the
    median time each takes to answer the GM, and each character's dice luck."""
    import matplotlib  # noqa: PLC0415 - only the worker loads it (module docstring)

    matplotlib.use("Agg")
    from matplotlib.figure import Figure  # noqa: PLC0415

    figure = Figure(figsize=(CHART_WIDTH / _DPI, CHART_HEIGHT / _DPI), dpi=_DPI)
    posts, answers, dice = figure.subplots(3, 1, gridspec_kw={"height_ratios": [3, 2, 2]})
    figure.suptitle(chart.title, fontsize=16)
    _posts(posts, chart)
    _answers(answers, chart)
    _luck(dice, chart, luck)
    figure.tight_layout(rect=(0, 0, 1, 0.97))
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=_DPI)
    return out.getvalue()


def _empty(axes: Axes, text: str) -> None:
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes)
    axes.set_xticks([])
    axes.set_yticks([])


def _posts(axes: Axes, chart: ChartInput) -> None:
    """Lines: one per player (the busiest :data:`MAX_BARS`), posts in each week."""
    axes.set_title(chart.posts_title)
    players = chart.players[:MAX_BARS]
    if not players or not any(sum(counts) for _name, counts in players):
        _empty(axes, chart.nothing)
        return
    positions = list(range(len(chart.weeks)))
    for name, counts in players:
        axes.plot(positions, counts, marker="o", label=name)
    axes.set_xticks(positions, chart.weeks, rotation=45, ha="right")
    axes.set_ylim(bottom=0)
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415 - the worker's import

    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.grid(axis="y", alpha=0.3)
    axes.legend(loc="upper left", fontsize="small", ncols=min(3, len(players)))


def _answers(axes: Axes, chart: ChartInput) -> None:
    """Horizontal bars: each player's median hours to answer the GM."""
    axes.set_title(chart.answers_title)
    rows = chart.answers[:MAX_BARS]
    if not rows:
        _empty(axes, chart.nothing)
        return
    names = [name for name, _hours in rows]
    axes.barh(names, [hours for _name, hours in rows], color="#4c72b0")
    axes.invert_yaxis()
    axes.set_xlabel(chart.answers_axis)
    axes.grid(axis="x", alpha=0.3)


def _luck(axes: Axes, chart: ChartInput, luck: Sequence[Luck]) -> None:
    """Horizontal bars around 50 %: each character's mean percentile (the characters with
    most rolls)."""
    axes.set_title(chart.luck_title)
    rows = sorted(luck, key=lambda item: -item.rolls)[:MAX_BARS]
    if not rows:
        _empty(axes, chart.nothing)
        return
    rows.sort(key=lambda item: item.character.casefold())
    values = [item.mean * 100 for item in rows]
    colours = ["#55a868" if value >= 50 else "#c44e52" for value in values]
    labels = [f"{item.character} ({item.rolls})" for item in rows]
    axes.barh(labels, [v - 50 for v in values], left=50, color=colours)
    axes.axvline(50, color="black", linewidth=1)
    axes.set_xlim(0, 100)
    axes.invert_yaxis()
    axes.set_xlabel(chart.luck_axis)
    axes.grid(axis="x", alpha=0.3)
