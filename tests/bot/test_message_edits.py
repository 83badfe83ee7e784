"""Coalesced edits of a shared message (issue 26): at most one per interval, and the last
one always drawn after the last change."""

from __future__ import annotations

import asyncio

from cogs.ui.message_edits import CoalescedEdits

INTERVAL = 0.05


async def test_a_burst_of_touches_makes_few_edits_and_the_last_sees_everything():
    edits = CoalescedEdits(INTERVAL)
    state = {"changes": 0}
    drawn: list[tuple[float, int]] = []
    loop = asyncio.get_running_loop()

    async def edit() -> None:
        began, seen = loop.time(), state["changes"]  # read as it starts, as a redraw does
        await asyncio.sleep(0.01)  # the HTTP call
        drawn.append((began, seen))

    started = loop.time()
    for _ in range(100):
        state["changes"] += 1
        edits.touch(1, edit)
        await asyncio.sleep(0.002)
    while not drawn or drawn[-1][1] < state["changes"]:
        await asyncio.sleep(0.01)
        assert loop.time() - started < 5, drawn
    await asyncio.sleep(INTERVAL * 3)  # nothing more comes
    elapsed = drawn[-1][0] - started
    assert drawn[-1][1] == 100  # the message ends showing every change
    assert len(drawn) <= elapsed / INTERVAL + 2, drawn  # about one per interval, not 100
    # edits begin at least an interval apart (a busy loop may only make them later)
    assert all(b - a >= INTERVAL * 0.99 for (a, _), (b, _) in zip(drawn, drawn[1:], strict=False))


async def test_messages_do_not_wait_for_each_other_and_a_failure_is_not_the_end():
    edits = CoalescedEdits(INTERVAL)
    calls: list[str] = []

    async def broken() -> None:
        calls.append("broken")
        raise RuntimeError("Discord said no")

    async def fine() -> None:
        calls.append("fine")

    edits.touch(1, broken)
    edits.touch(2, fine)
    await asyncio.sleep(0.01)
    assert sorted(calls) == ["broken", "fine"]  # both at once: different messages
    edits.touch(1, fine)  # the next touch of the failed message edits again
    await asyncio.sleep(INTERVAL * 2)
    assert calls[-1] == "fine" and len(calls) == 3
