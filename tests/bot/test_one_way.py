"""One way to do each thing (issue 21 §3): the second ways are gone and stay gone.

Each test reads the source of ``bot/`` and ``cogs/`` and fails on the old way, naming where.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CODE = [*sorted((REPO / "bot").rglob("*.py")), *sorted((REPO / "cogs").rglob("*.py"))]


def _found(pattern: str, *, skip: set[str] = frozenset()) -> set[str]:
    compiled = re.compile(pattern)
    return {
        f"{path.relative_to(REPO)}:{number}"
        for path in CODE
        if str(path.relative_to(REPO)) not in skip
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if compiled.search(line)
    }


def test_no_versioned_write_is_written_by_hand():
    """update_versioned / delete_versioned (bot/services/shared/versioned.py) replace
    ``col(X.version) == seen`` and its rowcount check."""
    assert _found(r"\.version\)?\s*==") == set()


def test_a_campaign_context_is_loaded_as_one_object():
    """``contexts.load(place)`` → a CampaignContext; the tuple form
    ``campaign, system, settings = await ….context(place)`` is gone."""
    assert _found(r"\.context\(place\)") == set()


def test_stored_moments_need_no_aware_copy():
    """Stored moments come back aware (bot/db/types.py): no ``_aware`` helper, no
    ``x if x.tzinfo else x.replace(tzinfo=UTC)``; ``as_utc`` for moments from outside."""
    assert _found(r"def _aware|tzinfo else|tzinfo is None", skip={"bot/db/types.py"}) == set()


def test_one_scheduler():
    """Deadlines are durable timers (bot/services/shared/timers.py); no cog or service keeps
    a loop of its own that sleeps until a date."""
    assert _found(r"asyncio\.create_task\(.*_loop\(|async def _\w*_loop\(") == set()


def test_an_audit_row_is_written_one_way():
    """``write_audit`` (in the caller's transaction) or, for a plain roll, the batch writer:
    no service builds a RollLog and adds it by hand."""
    assert (
        _found(
            r"roll_log\(|RollLog\(",
            skip={"bot/services/shared/audit.py", "bot/db/models.py"},
        )
        == set()
    )
