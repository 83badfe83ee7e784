"""Numbers, money, dates and times in the reader's language and the campaign's time zone.

Spanish readers write «58,3 lb», «30,00 %», «01/12/2026 17:05» (24 h); English readers
«58.3 lb», «30.00%», «12/01/2026 5:05 PM».  Every reply formats through these functions, and
every date a user types goes through :func:`parse_user_datetime`, so that a group spread
over Spain and the Americas reads and writes times in the campaign's zone (the common
setting ``zona_horaria``, :data:`DEFAULT_TIME_ZONE` until the GM changes it).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.db.types import as_utc
from bot.i18n import t

__all__ = [
    "DEFAULT_TIME_ZONE",
    "valid_time_zone",
    "BadDateTime",
    "format_date",
    "format_datetime",
    "format_number",
    "format_percent",
    "format_signed",
    "parse_user_datetime",
    "time_zone",
]

#: The campaign time zone until its GM sets ``zona_horaria`` (most groups of the community
#: the bot serves play from Spain; docs/rules-decisions.md).
DEFAULT_TIME_ZONE = "Europe/Madrid"


def time_zone(name: str | None) -> tzinfo:
    """The zone called ``name`` (IANA), or the default zone when it is empty or unknown.

    Validation happens when the GM sets it (:func:`bot.services.campaigns.service`); a stored name
    that a later tzdata drops must not break every reply, hence the fallback here.
    """
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def valid_time_zone(name: str) -> str | None:
    """The canonical spelling of IANA zone ``name`` (case-insensitive: «europe/madrid» →
    «Europe/Madrid»), or None when zoneinfo does not know it."""
    from zoneinfo import available_timezones

    text = name.strip()
    if not text or len(text) > 64:
        return None
    zones = {z.casefold(): z for z in available_timezones()}
    found = zones.get(text.casefold().replace(" ", "_"))
    if found is None:
        return None
    try:
        ZoneInfo(found)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return found


def format_number(
    value: float | int | Decimal | Fraction, locale: str, decimals: int | None = None
) -> str:
    """``58.3`` → ``"58,3"`` (es) or ``"58.3"`` (en); ``decimals`` fixes the places (else
    as many as the value needs, at most 2), rounding half up.  Thousands are not grouped in
    either language: players copy these numbers into commands (``/sheet money 12500``),
    where a separator would be read as a decimal point or refused."""
    number = Decimal(str(float(value))) if isinstance(value, (float, Fraction)) else Decimal(value)
    places = 2 if decimals is None else decimals
    quantum = Decimal(1).scaleb(-places)
    text = f"{number.quantize(quantum, rounding=ROUND_HALF_UP):f}"
    if decimals is None and "." in text:
        text = text.rstrip("0").rstrip(".")
    sign = ""
    if text.startswith("-"):
        sign, text = "-", text[1:]
    whole, _, fraction = text.partition(".")
    mark = "," if locale == "es" else "."
    return sign + whole + (mark + fraction if fraction else "")


def format_signed(value: int, locale: str) -> str:
    """``+3``, ``-2`` (a true minus sign is not used: players copy these into /roll)."""
    return ("+" if value >= 0 else "") + format_number(value, locale)


def format_percent(probability: Fraction | float, locale: str) -> str:
    """``Fraction(3, 10)`` → ``"30,00 %"`` (es, the sign after a space) or ``"30.00%"``
    (``common.percent``).  A chance above zero never reads as 0,00 %: it gets two
    significant digits instead."""
    value = float(probability) * 100
    if 0 < value < 0.005:
        digits = f"{value:.2g}"
        text = digits.replace(".", ",") if locale == "es" else digits
    else:
        text = format_number(value, locale, 2)
    return t("common.percent", locale, value=text)


def format_date(moment: datetime | date, locale: str, zone: str | None = None) -> str:
    """``01/12/2026`` (es: day first) or ``12/01/2026`` (en: month first), in the zone."""
    if isinstance(moment, datetime):
        moment = as_utc(moment).astimezone(time_zone(zone)).date()
    if locale == "es":
        return f"{moment.day:02d}/{moment.month:02d}/{moment.year:04d}"
    return f"{moment.month:02d}/{moment.day:02d}/{moment.year:04d}"


def format_datetime(moment: datetime, locale: str, zone: str | None = None) -> str:
    """``01/12/2026 17:05`` (es, 24 h) or ``12/01/2026 5:05 PM`` (en), in the campaign's
    zone, with the zone's abbreviation when it has one (``CET``, ``-05``)."""
    local = as_utc(moment).astimezone(time_zone(zone))
    day = format_date(local.date(), locale)
    if locale == "es":
        clock = f"{local.hour:02d}:{local.minute:02d}"
    else:
        hour = local.hour % 12 or 12
        clock = f"{hour}:{local.minute:02d} {'AM' if local.hour < 12 else 'PM'}"
    abbreviation = local.tzname() or ""
    return f"{day} {clock} {abbreviation}".rstrip()


class BadDateTime(ValueError):
    """What a user typed is not a date (``reason``: ``format``, ``date``)."""

    def __init__(self, reason: str, text: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.text = text


_DATE = re.compile(r"^(\d{1,4})[/.-](\d{1,2})(?:[/.-](\d{2,4}))?$")
_TIME = re.compile(r"^(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.\s?m\.|p\.\s?m\.)?$", re.IGNORECASE)
_TODAY = {"hoy": 0, "today": 0, "mañana": 1, "manana": 1, "tomorrow": 1, "pasado mañana": 2}


def _date_part(text: str, locale: str, today: date) -> date:
    word = text.casefold()
    if word in _TODAY:
        return today + timedelta(days=_TODAY[word])
    match = _DATE.match(text)
    if not match:
        raise BadDateTime("format", text)
    a, b, c = match.groups()
    try:
        if len(a) == 4:  # ISO order, whatever the locale: 2026-12-01
            if c is None:
                raise BadDateTime("format", text)
            return date(int(a), int(b), int(c))
        first, second = int(a), int(b)
        day, month = (first, second) if locale == "es" else (second, first)
        if c is None:
            year = today.year
            candidate = date(year, month, day)
            return candidate if candidate >= today else date(year + 1, month, day)
        year = int(c) + (2000 if len(c) == 2 else 0)
        return date(year, month, day)
    except ValueError:
        raise BadDateTime("date", text) from None


def _time_part(text: str) -> time:
    match = _TIME.match(text.strip())
    if not match:
        raise BadDateTime("format", text)
    hour, minute, meridiem = int(match.group(1)), int(match.group(2) or 0), match.group(3)
    if meridiem:
        if not 1 <= hour <= 12:
            raise BadDateTime("date", text)
        pm = meridiem.casefold().startswith("p")
        hour = hour % 12 + (12 if pm else 0)
    if hour > 23 or minute > 59:
        raise BadDateTime("date", text)
    return time(hour, minute)


def parse_user_datetime(
    text: str, locale: str, tz: str | None, *, now: datetime | None = None
) -> datetime:
    """What a user typed (``"15/12/2026 18:30"``, ``"15/12"``, ``"mañana 9:00"``,
    ``"2026-12-15"``, ``"12/15/2026 6:30 pm"`` in English) → an aware UTC datetime.

    The date reads day first in Spanish and month first in English (ISO ``yyyy-mm-dd`` in
    both); a date without a year is the next one to come; a date without a time is its
    start (00:00).  The time is the campaign's zone ``tz`` (IANA; None = the default zone),
    so «18:30» means 18:30 in Madrid for a Madrid campaign, whatever the server's clock.
    Raises :class:`BadDateTime` (``reason`` ``format`` or ``date``) for anything else.
    """
    zone = time_zone(tz)
    current = as_utc(now or datetime.now(UTC)).astimezone(zone)
    words = " ".join(text.strip().split())
    if not words or len(words) > 40:
        raise BadDateTime("format", text)
    lowered = words.casefold()
    date_text, time_text = words, ""
    for phrase in sorted(_TODAY, key=len, reverse=True):
        if lowered.startswith(phrase):
            date_text, time_text = words[: len(phrase)], words[len(phrase) :].strip()
            break
    else:
        if " " in words:
            date_text, time_text = words.split(" ", 1)
    # a time alone («18:30») means today at that time (tomorrow if it has passed)
    if not time_text and _TIME.match(date_text) and not _DATE.match(date_text):
        clock = _time_part(date_text)
        day = current.date()
        if clock <= current.time().replace(tzinfo=None):
            day += timedelta(days=1)
        return _localize(datetime.combine(day, clock), zone)
    day = _date_part(date_text, locale, current.date())
    clock = _time_part(time_text) if time_text else time(0, 0)
    return _localize(datetime.combine(day, clock), zone)


def _localize(naive: datetime, zone: tzinfo) -> datetime:
    return naive.replace(tzinfo=zone).astimezone(UTC)
