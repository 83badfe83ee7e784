"""Per-member cooldowns (cogs/ui/cooldowns.py): discord.py's fixed windows, in constant time.

The end-to-end behaviour (the translated answer, nothing done) is in
tests/e2e/test_no_stall.py; here the windows and the sweep that keeps the mapping small.
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from discord import app_commands

from cogs.ui.cooldowns import FIGHT, PER, SWEEP_FLOOR, MemberCooldown


def test_rate_uses_pass_then_the_wait_is_what_is_left_of_the_window():
    cooldown = MemberCooldown(3, 10.0)
    assert [cooldown.use((1, 7), t) for t in (100.0, 101.0, 102.0)] == [None, None, None]
    assert cooldown.use((1, 7), 104.0) == pytest.approx(6.0)  # refused: counts nothing
    assert cooldown.use((1, 7), 109.5) == pytest.approx(0.5)
    assert cooldown.use((1, 7), 110.0) is None  # a new window opens with this use
    assert [cooldown.use((1, 7), 110.0 + t) for t in (1, 2)] == [None, None]
    assert cooldown.use((1, 7), 113.0) == pytest.approx(7.0)


def test_buckets_are_per_member_and_per_server():
    cooldown = MemberCooldown(1, 10.0)
    assert cooldown.use((1, 7), 0.0) is None
    assert cooldown.use((1, 7), 1.0) == pytest.approx(9.0)
    assert cooldown.use((1, 8), 1.0) is None  # another member
    assert cooldown.use((2, 7), 1.0) is None  # the same member in another server


def test_the_sweep_drops_ended_windows_only_and_keeps_the_mapping_bounded():
    cooldown = MemberCooldown(FIGHT, PER)
    # 100 new members a second for 1,000 seconds: about 1,000 windows live at any time
    live_most = 0
    for step in range(100_000):
        now = step / 100
        assert cooldown.use((1, step), now) is None
        if step % 997 == 0:
            live = sum(1 for w in cooldown.windows.values() if now < w.opened + PER)
            live_most = max(live_most, live)
        assert len(cooldown.windows) <= max(SWEEP_FLOOR, 2 * 1001) + 1
    assert live_most == 1000
    # a sweep never forgets a live window: its member is still counted
    cooldown = MemberCooldown(2, PER)
    cooldown.use((1, 0), 5.0)
    cooldown.use((1, 0), 5.0)
    for member in range(1, 1000):  # ended by t=12 (the sweeps at t=0 drop nothing)
        cooldown.use((1, member), 0.0)
    assert len(cooldown.windows) == 1000
    member, late = 1000, {0}
    while len(cooldown.windows) >= len(late) + 999:  # until a sweep at t=12 happens
        cooldown.use((1, member), 12.0)
        late.add(member)
        member += 1
    assert {member for _guild, member in cooldown.windows} == late
    assert cooldown.use((1, 0), 12.0) == pytest.approx(3.0)


def _interaction(guild_id: int, user_id: int, at: float) -> SimpleNamespace:
    return SimpleNamespace(
        guild_id=guild_id,
        user=SimpleNamespace(id=user_id),
        created_at=datetime.fromtimestamp(at, tz=UTC),
    )


def test_the_check_raises_discords_own_error_with_the_wait():
    cooldown = MemberCooldown(1, 10.0)
    assert cooldown.check(_interaction(1, 7, 1_000.0)) is True  # type: ignore[arg-type]
    with pytest.raises(app_commands.CommandOnCooldown) as error:
        cooldown.check(_interaction(1, 7, 1_004.0))  # type: ignore[arg-type]
    assert error.value.retry_after == pytest.approx(6.0)
    assert (error.value.cooldown.rate, error.value.cooldown.per) == (1, 10.0)
