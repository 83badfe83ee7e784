"""The audience test (issue 22 §1): every output, a campaign full of secrets, sentinels.

One campaign holds each kind of secret the GM keeps, each carrying a sentinel — a text no
other output could contain, or the exact numbers as the GM reads them:

* a hidden NPC («Pirata») in a fight: its initiative dice, the opponent's dice of a check a
  player rolled against it, its XP award, its rest, its total in a visible roll request;
* a private roll, private notes, a GM-only post, a GM ↔ player private thread;
* a roll request with a hidden difficulty.

Then it walks every output: what the bot posted in the channels (replies, panels, the
pinned header, the closing summary, turn and request messages), ``/history``, ``/xp log``,
``/init show``, ``/scene status``, ``/catch-up``, the players' ``/campaign stats``, the players' half of ``/campaign export`` (Markdown, HTML,
CSV, JSON) and each member's ``/privacy export`` — and fails if a sentinel appears where its
audience does not allow.  The GM's own outputs (his channel, his ephemeral replies, the
``gm/`` half) must hold every sentinel: a sentinel nobody sees would prove nothing.
"""

from __future__ import annotations

import gzip
import io
import re
import zipfile

import pytest

from standin.client import GuildHandle, Sandbox
from standin.replies import Msg, Reply
from tests.e2e.helpers import import_sheet, new_campaign, press, sheet_file
from tests.examples import ARDELIA, ardelia, ardelia_the_mage

pytestmark = pytest.mark.e2e

ROLL = "arb:1:req-roll:"
RESULTS = "arb:1:req-results:"
SCENE = "La bodega"
GM_ONLY = "SOLO-MASTER-8812"
NOTES = "NOTA-PRIVADA-5521"
PRIVATE_ROLL = "PRIVADA-ANA-7731"
THREAD = "HILO-PRIVADO-4410"
XP_REASON = "XP-PIRATA-3309"
DIFFICULTY = 613  # no other number of this campaign has three digits like it


def _post(sb: Sandbox, g: GuildHandle, channel, values, *, user="ana", options=None) -> Reply:
    opened = sb.command("post", options or {}, guild=g, channel=channel, user=user)
    assert opened.modal is not None, opened.text
    return sb.submit_modal(opened, values, user=user).expect_ok()


def _roll_button(sb: Sandbox, message: Msg, name: str) -> str:
    for button in sb.message(message.id).buttons:
        if button.get("custom_id", "").startswith(ROLL) and button.get("label") == name:
            return button["custom_id"]
    raise AssertionError(f"no roll button for {name}")


def _unzip(payload: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        return {n: archive.read(n).decode("utf-8", "replace") for n in archive.namelist()}


def _file(reply: Reply) -> str:
    ((name, payload),) = reply.attachments.items()
    if name.endswith(".gz"):
        payload = gzip.decompress(payload)
    return payload.decode("utf-8")


def _campaign(sb: Sandbox) -> tuple[GuildHandle, object]:
    """Ardelia (ana), Bertrán (bruno), the hidden NPC Pirata, a GM channel, an open scene."""
    g = new_campaign(sb, "Audiencias", "nucleo")
    sb.command(
        "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ARDELIA, user="ana")
    import_sheet(sb, g, ardelia(name="Bertrán"), user="bruno")
    pirata = ardelia_the_mage()
    pirata["name"] = "Pirata"
    sb.command(  # an imported NPC is hidden until the GM reveals it
        "sheet import", {"file": sheet_file(pirata, npc=True)}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    form = sb.command("scene open", {"title": SCENE}, guild=g, channel="mesa", user="gm")
    assert form.modal is not None, form.text
    sb.submit_modal(form, {"text": "Bajáis a la bodega."}, user="gm").expect_ok()
    (scene,) = [t for t in sb.threads(g, "mesa") if t.name == SCENE]
    return g, scene


def test_every_output_keeps_each_secret_to_its_audience(discord_env):
    sb = discord_env
    g, scene = _campaign(sb)
    gm_saw: list[str] = []  # the GM's ephemeral replies
    ana_saw: list[str] = []  # what only Ana read (ephemeral replies to her)
    bruno_saw: list[str] = []

    # -- the secrets ----------------------------------------------------------------------
    _post(sb, g, scene, {"text": "Huele a vino agrio."}, user="gm", options={"as": "Narrador"})
    _post(sb, g, scene, {"text": GM_ONLY}, user="bruno", options={"private": True})
    # the GM-only post moves nobody in the channel's round of posts: Bertrán still pending
    status = sb.command("scene status", {}, guild=g, channel=scene, user="ana").expect_ok()
    before, _, posted_part = status.all_text.partition("Ya han publicado")
    pending_part = before.partition("Pendientes")[2]
    assert "Bertrán" in pending_part and "Bertrán" not in posted_part, status.all_text
    _post(
        sb,
        g,
        scene,
        {"text": "Ardelia sonríe.", "notes": NOTES},
        user="ana",
        options={"private_notes": True},
    )
    private = sb.command(
        "roll",
        {"expression": "1d20", "private": True, "reason": PRIVATE_ROLL},
        guild=g,
        channel=scene,
        user="ana",
    ).expect_ok()
    assert private.ephemeral
    ana_saw.append(private.all_text)
    _post(sb, g, "mesa", {"text": THREAD}, user="gm", options={"to": "ana"})

    # a fight with the hidden NPC
    sb.command("init start", {}, guild=g, channel=scene, user="gm").expect_ok()
    sb.command("init join", {}, guild=g, channel=scene, user="ana").expect_ok()
    sb.command("init join", {"character": "Pirata"}, guild=g, channel=scene, user="gm").expect_ok()
    rolled = sb.command("init roll", {}, guild=g, channel=scene, user="gm").expect_ok()
    secret = [m for m in rolled.followups if m.ephemeral and "Pirata" in m.text]
    assert secret, rolled.all_text  # the GM reads the hidden NPC's dice privately
    init_dice = secret[0].text.split("Pirata: ", 1)[1].strip()
    gm_saw.append(secret[0].text)
    assert "Pirata" in rolled.text and init_dice not in rolled.text  # the panel: its place only

    # a player's opposed check against it: the GM channel has the NPC's dice
    mark = sb.mark()
    opposed = sb.command(
        "check",
        {"option": "atributo:Físico", "against": "Pirata"},
        guild=g,
        channel=scene,
        user="ana",
    ).expect_ok()
    (copy,) = [m for channel, m in sb.posted_since(mark) if channel == "gm"]
    opponent_dice = re.search(r"`(1o3d10[^`]*)` ([^\n]+)", copy.text)
    assert opponent_dice, copy.text
    npc_dice = opponent_dice[2].strip()
    assert npc_dice not in opposed.text

    # an XP award and a rest of the hidden NPC: the GM's alone
    granted = sb.command(
        "xp grant",
        {"amount": 5, "character": "Pirata", "reason": XP_REASON},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    assert granted.ephemeral and XP_REASON in granted.all_text, granted.all_text
    gm_saw.append(granted.all_text)
    rest = sb.command(
        "spell rest", {"character": "Pirata"}, guild=g, channel=scene, user="gm"
    ).expect_ok()
    assert rest.ephemeral and "Pirata" in rest.all_text, rest.all_text
    rest_line = next(line for line in rest.all_text.splitlines() if "→" in line)
    gm_saw.append(rest.all_text)

    # a visible roll request that asks the hidden NPC too
    asked = sb.command(
        "request check",
        {"who": "Ardelia, Pirata", "option": "atributo:Percepción"},
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    request = asked.message
    sb.click(request, _roll_button(sb, request, "Pirata"), user="gm").expect_ok()
    sb.click(request, _roll_button(sb, request, "Ardelia"), user="ana").expect_ok()
    results = press(sb, request, RESULTS, user="gm")
    npc_result = re.search(r"Pirata\*{0,2} — \*{0,2}(\d+)", results.text)
    assert results.ephemeral and npc_result, results.text
    gm_saw.append(results.text)
    npc_total = f"Pirata** — **{npc_result[1]}"

    # a roll request with a hidden difficulty
    hidden = sb.command(
        "request check",
        {
            "who": "Ardelia",
            "option": "atributo:Percepción",
            "difficulty": DIFFICULTY,
            "hidden": "outcome",
        },
        guild=g,
        channel=scene,
        user="gm",
    ).expect_ok()
    pressed = sb.click(hidden.message, _roll_button(sb, hidden.message, "Ardelia"), user="ana")
    ana_saw.append(pressed.all_text)

    # -- the outputs each reader reads -----------------------------------------------------
    for user, seen in (("ana", ana_saw), ("bruno", bruno_saw)):
        for command, options in (
            ("history", {}),
            ("xp log", {}),
            ("init show", {}),
            ("scene status", {}),
            ("catch-up", {"since": "01/01/2026"}),  # issue 25 §2
        ):
            reply = sb.command(command, options, guild=g, channel=scene, user=user)
            assert reply.ok, (command, reply.text)
            seen.append(reply.all_text)
        seen.append(_file(sb.command("privacy export", {}, guild=g, user=user).expect_ok()))
    gm_saw.append(sb.command("history", {}, guild=g, channel=scene, user="gm").all_text)
    # issue 25 §3: the players' version of the stats, posted in the channel by the GM
    sb.command("campaign stats", {"public": True}, guild=g, channel=scene, user="gm").expect_ok()
    closed = sb.command("scene close", {}, guild=g, channel=scene, user="gm").expect_ok()
    exported = sb.command("campaign export", {}, guild=g, channel="mesa", user="gm").expect_ok()
    files: dict[str, str] = {}
    for _name, payload in exported.attachments.items():
        files.update(_unzip(payload))
    players_half = "\n".join(text for name, text in files.items() if not name.startswith("gm/"))
    gm_half = "\n".join(text for name, text in files.items() if name.startswith("gm/"))
    channel = "\n".join(
        m.text for where in ("mesa", scene) for m in sb.channel_messages(g, where, everything=True)
    )
    channel += "\n" + closed.all_text
    gm_channel = "\n".join(m.text for m in sb.channel_messages(g, "gm", everything=True))
    ana, bruno = "\n".join(ana_saw), "\n".join(bruno_saw)
    gm = "\n".join([*gm_saw, gm_channel, gm_half])
    difficulty = re.compile(rf"(?<![\d.]){DIFFICULTY}(?![\d.])")

    # -- who may read each sentinel ---------------------------------------------------------
    readers = {"channel": channel, "players' chronicle": players_half, "ana": ana, "bruno": bruno}
    allowed = {
        GM_ONLY: {"bruno"},  # his own post: his /privacy export
        NOTES: {"ana"},  # her own notes: her /privacy export
        PRIVATE_ROLL: {"ana"},
        THREAD: {"ana"},  # the GM's post to her private thread: hers (/catch-up, export)
        XP_REASON: set(),
        init_dice: set(),
        npc_dice: set(),
        rest_line: set(),
        npc_total: set(),
    }
    leaks = [
        (sentinel, reader)
        for sentinel, who in allowed.items()
        for reader, text in readers.items()
        if reader not in who and sentinel in text
    ]
    leaks += [
        (DIFFICULTY, reader)
        for reader, text in readers.items()
        if difficulty.search(re.sub(r"<[@#]\d+>|\d{15,}", "", text))
    ]
    assert leaks == [], [_around(readers[reader], str(sentinel)) for sentinel, reader in leaks]
    # every sentinel is real: the GM reads each one
    missing = [s for s in [*allowed, str(DIFFICULTY)] if s not in gm]
    assert missing == []
    # and each player reads his own
    assert PRIVATE_ROLL in ana and NOTES in ana and GM_ONLY in bruno and THREAD in ana


def _around(text: str, sentinel: str) -> str:
    """Where a leaked sentinel was found (the failure names the output)."""
    at = text.find(sentinel)
    if at < 0:
        found = re.search(rf"(?<![\d.]){re.escape(sentinel)}(?![\d.])", text)
        at = found.start() if found else 0
    return text[max(0, at - 300) : at + 100]
