"""Numbers, money, dates and time zones in the reader's language (issue 13, §2)."""

from __future__ import annotations

from datetime import UTC, datetime
from fractions import Fraction

import pytest

from bot.formatting import (
    BadDateTime,
    format_date,
    format_datetime,
    format_number,
    format_percent,
    parse_user_datetime,
    valid_time_zone,
)
from cogs.ui.render import percent
from cogs.ui.render_sheet import field_value, money_changed
from rules.swc.shop import purse
from rules.systems.base import Purse, single_purse


@pytest.mark.parametrize(
    ("value", "decimals", "es", "en"),
    [
        (58.3, None, "58,3", "58.3"),
        (90.4, None, "90,4", "90.4"),
        (12, None, "12", "12"),
        (-3, None, "-3", "-3"),
        (12500, None, "12500", "12500"),  # never grouped: players copy it into commands
        (30, 2, "30,00", "30.00"),
        (2.675, 2, "2,68", "2.68"),  # as written (2.675), half up: what a reader expects
    ],
)
def test_numbers(value, decimals, es, en) -> None:
    assert format_number(value, "es", decimals) == es
    assert format_number(value, "en", decimals) == en


def test_percentages() -> None:
    assert format_percent(Fraction(3, 10), "es") == "30,00 %"
    assert format_percent(Fraction(3, 10), "en") == "30.00%"
    assert format_percent(Fraction(1, 3), "es") == "33,33 %"
    assert format_percent(Fraction(1, 10**6), "es") == "0,0001 %"  # never «0,00 %»
    assert percent(Fraction(1, 2), "en") == "50.00%"


def test_sheet_measures_follow_the_reader() -> None:
    """Was: «58.3 lb» for a Spanish reader."""
    assert field_value(58.3, "es") == "58,3" and field_value(58.3, "en") == "58.3"


WHEN = datetime(2026, 12, 1, 17, 5, tzinfo=UTC)


def test_dates_in_the_readers_order_and_the_campaigns_zone() -> None:
    assert format_date(WHEN, "es", "Europe/Madrid") == "01/12/2026"
    assert format_date(WHEN, "en", "Europe/Madrid") == "12/01/2026"
    assert format_datetime(WHEN, "es", "Europe/Madrid") == "01/12/2026 18:05 CET"
    assert format_datetime(WHEN, "en", "Europe/Madrid") == "12/01/2026 6:05 PM CET"
    # the same moment for a campaign played from Mexico City: the day before, 11:05
    assert format_datetime(WHEN, "es", "America/Mexico_City") == "01/12/2026 11:05 CST"
    late = datetime(2026, 12, 2, 3, 0, tzinfo=UTC)
    assert format_date(late, "es", "America/Argentina/Buenos_Aires") == "02/12/2026"
    assert format_date(late, "es", "America/Los_Angeles") == "01/12/2026"
    # stored times are naive UTC
    assert format_datetime(WHEN.replace(tzinfo=None), "es", None) == "01/12/2026 18:05 CET"
    # summer time
    assert format_datetime(datetime(2026, 7, 1, 10, 0), "es", "Europe/Madrid").endswith(
        "12:00 CEST"
    )


NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)  # 13:00 in Madrid


@pytest.mark.parametrize(
    ("text", "locale", "zone", "expected_utc"),
    [
        ("15/12/2026 18:30", "es", "Europe/Madrid", datetime(2026, 12, 15, 17, 30, tzinfo=UTC)),
        ("12/15/2026 6:30 pm", "en", "Europe/Madrid", datetime(2026, 12, 15, 17, 30, tzinfo=UTC)),
        ("2026-12-15 18:30", "en", "Europe/Madrid", datetime(2026, 12, 15, 17, 30, tzinfo=UTC)),
        (
            "15/12/2026 18:30",
            "es",
            "America/Mexico_City",
            datetime(2026, 12, 16, 0, 30, tzinfo=UTC),
        ),
        ("15/12", "es", "Europe/Madrid", datetime(2026, 12, 14, 23, 0, tzinfo=UTC)),
        ("3/1", "es", "Europe/Madrid", datetime(2027, 1, 2, 23, 0, tzinfo=UTC)),  # next one
        ("mañana 9:00", "es", "Europe/Madrid", datetime(2026, 12, 2, 8, 0, tzinfo=UTC)),
        ("tomorrow 9am", "en", "Europe/Madrid", datetime(2026, 12, 2, 8, 0, tzinfo=UTC)),
        ("18:30", "es", "Europe/Madrid", datetime(2026, 12, 1, 17, 30, tzinfo=UTC)),
        ("9:00", "es", "Europe/Madrid", datetime(2026, 12, 2, 8, 0, tzinfo=UTC)),  # passed
        ("15/12/26 18.30", "es", None, datetime(2026, 12, 15, 17, 30, tzinfo=UTC)),
    ],
)
def test_parse_user_datetime(text, locale, zone, expected_utc) -> None:
    assert parse_user_datetime(text, locale, zone, now=NOW) == expected_utc


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("el viernes", "format"),
        ("31/02/2026", "date"),
        ("15/12/2026 25:00", "date"),
        ("", "format"),
    ],
)
def test_bad_dates_say_why(text, reason) -> None:
    with pytest.raises(BadDateTime) as error:
        parse_user_datetime(text, "es", "Europe/Madrid", now=NOW)
    assert error.value.reason == reason


def test_time_zones_are_checked_and_spelled_canonically() -> None:
    assert valid_time_zone("europe/madrid") == "Europe/Madrid"
    assert valid_time_zone("America/Mexico City") == "America/Mexico_City"
    assert valid_time_zone("Marte/Olimpo") is None and valid_time_zone("") is None


def test_money_says_the_change_and_the_new_balance() -> None:
    """Was: «Dinero de Þórr: 50 .» and «Dinero de Íñigo: -1 mo.»."""
    swc = purse({"monedas": {"mo": 4, "mp": 5, "mc": 0}}, "oro", {})
    assert swc == Purse("mo", ((4, "mo"), (5, "mp")))
    assert money_changed("Íñigo", -1, swc, "es") == (
        "Dinero de **Íñigo**: −1 mo; ahora tiene 4 mo 5 mp."
    )
    nucleo = single_purse({"dinero": 12500}, None, {"moneda": "créditos"})
    assert money_changed("Þórr", 50, nucleo, "es") == (
        "Dinero de **Þórr**: +50 créditos; ahora tiene 12500 créditos."
    )
    assert money_changed("Þórr", 50, nucleo, "en") == (
        "**Þórr**'s money: +50 créditos; balance now 12500 créditos."
    )
    broke = purse({"monedas": {}}, None, {})
    assert broke.balance == ((0, "mo"),)
