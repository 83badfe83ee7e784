"""Discord timestamps (``<t:UNIX:STYLE>``) as Discord's client shows them to one reader.

The client renders a timestamp in the reader's own time zone and language, with moment.js's
formats (``d`` ``L``, ``D`` ``LL``, ``f`` ``LLL``, ``F`` ``LLLL``, ``t`` ``LT``, ``T``
``LTS``; ``R`` ``fromNow``); the bot sends the moment only.  The sandbox shows them the same
way, in the terminal's zone (or ``--tz``) and the user's ``:locale``, so that what a player in
Madrid and one in Mexico read can be tried.  Only message content, embed descriptions, field
values and text displays render them: in a title, a field's name or a footer Discord leaves
``<t:…>`` as typed, and so does :mod:`standin.render`.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, tzinfo

__all__ = ["TIMESTAMP", "discord_time"]

TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")

_MONTHS = {
    "es": [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ],
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
}
_DAYS = {
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
}
#: moment.js relativeTime: (few seconds, one, several) per unit; "%d" is the count.
_RELATIVE = {
    "es": {
        "past": "hace {}",
        "future": "en {}",
        "s": "unos segundos",
        "m": ("un minuto", "%d minutos"),
        "h": ("una hora", "%d horas"),
        "d": ("un día", "%d días"),
        "M": ("un mes", "%d meses"),
        "y": ("un año", "%d años"),
    },
    "en": {
        "past": "{} ago",
        "future": "in {}",
        "s": "a few seconds",
        "m": ("a minute", "%d minutes"),
        "h": ("an hour", "%d hours"),
        "d": ("a day", "%d days"),
        "M": ("a month", "%d months"),
        "y": ("a year", "%d years"),
    },
}


def _language(locale: str) -> str:
    return "en" if locale.lower().startswith("en") else "es"


def _clock(moment: datetime, language: str, seconds: bool = False) -> str:
    if language == "es":  # «H:mm»: 17:05, 9:05
        return f"{moment.hour}:{moment.minute:02d}" + (f":{moment.second:02d}" if seconds else "")
    hour = moment.hour % 12 or 12  # «h:mm A»: 5:05 PM
    tail = f":{moment.second:02d}" if seconds else ""
    return f"{hour}:{moment.minute:02d}{tail} {'AM' if moment.hour < 12 else 'PM'}"


def _long_date(moment: datetime, language: str) -> str:
    month = _MONTHS[language][moment.month - 1]
    if language == "es":
        return f"{moment.day} de {month} de {moment.year}"
    return f"{month} {moment.day}, {moment.year}"


def _relative(seconds: float, language: str) -> str:
    """moment.js ``fromNow`` with its default thresholds (45 s, 45 min, 22 h, 26 d, 11 M)."""
    words = _RELATIVE[language]
    span = abs(seconds)
    minutes, hours, days = span / 60, span / 3600, span / 86400
    if span < 45:
        text = str(words["s"])
    else:
        unit, count = (
            ("m", round(minutes))
            if minutes < 45
            else ("h", round(hours))
            if hours < 22
            else ("d", round(days))
            if days < 26
            else ("M", round(days / 30.4))
            if days < 320
            else ("y", round(days / 365))
        )
        one, several = words[unit]
        text = one if count <= 1 else several % count
    return str(words["future" if seconds > 0 else "past"]).format(text)


def discord_time(
    unix: int, style: str | None, locale: str, zone: tzinfo | None = None, now: float | None = None
) -> str:
    """``<t:unix:style>`` as a reader with ``locale`` in ``zone`` (None: this machine's) sees it."""
    language = _language(locale)
    moment = datetime.fromtimestamp(unix, zone) if zone else datetime.fromtimestamp(unix)
    style = style or "f"
    if style == "R":
        return _relative(unix - (time.time() if now is None else now), language)
    if style == "d":
        if language == "es":
            return f"{moment.day:02d}/{moment.month:02d}/{moment.year}"
        return f"{moment.month:02d}/{moment.day:02d}/{moment.year}"
    if style == "D":
        return _long_date(moment, language)
    if style == "t":
        return _clock(moment, language)
    if style == "T":
        return _clock(moment, language, seconds=True)
    text = f"{_long_date(moment, language)} {_clock(moment, language)}"
    if style == "F":
        day = _DAYS[language][moment.weekday()]
        return f"{day}, {text}"
    return text  # "f"
