"""GM roll requests, approval of new characters and /sheet transfer (issue 12 §2b, §3),
through the real bot: what each member sees, who may press, once only, after a close, after
a restart."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlmodel import select

from bot.db.engine import create_engine, session_factory
from bot.db.models import RollLog
from bot.i18n import t
from bot.services.table.requests import MAX_TARGETS
from tests.e2e.helpers import import_sheet, new_campaign, press, says, sheet_file, start_arbitro
from tests.examples import ARDELIA, ardelia, swc_cleric

pytestmark = pytest.mark.e2e

ROLL = "arb:1:req-roll:"
RESULTS = "arb:1:req-results:"
CLOSE = "arb:1:req-close:"
APPROVE = "arb:1:approve-yes:"
REJECT = "arb:1:approve-no:"
OPTION = "habilidad:Pilotar"
OUTCOMES = [t(f"check.outcome.{o}", "es") for o in ("success", "failure", "critical", "fumble")]


def _table(sb, name):
    """#mesa bound to a nucleo campaign with a GM channel; Ardelia (ana) and Brisa (bruno)."""
    g = new_campaign(sb, name, "nucleo")
    sb.command(
        "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
    ).expect_ok()
    import_sheet(sb, g, ARDELIA, user="ana")
    import_sheet(sb, g, ardelia(name="Brisa"), user="bruno")
    return g


def _ask(sb, g, **options):
    r = sb.command(
        "request check",
        {"who": "todos", "option": OPTION, **options},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert r.ok and not r.ephemeral, r.text
    return r


def _roll_button(sb, message, name):
    """The custom id of ``name``'s Roll button on the request message as it stands now."""
    for button in sb.message(message.id).buttons:
        if button.get("custom_id", "").startswith(ROLL) and button.get("label") == name:
            return button["custom_id"]
    raise AssertionError(f"no roll button for {name}: {sb.message(message.id).buttons}")


def _private(reply):
    """A press's own answer: acknowledged at once, then one private follow-up (issue 26)."""
    assert reply.callback_type == 6, reply.callback_type
    (answer,) = [m for m in reply.followups if m.ephemeral]
    return answer


def _number(reply):
    found = re.search(r"Solicitud n\.º (\d+)", reply.all_text)
    return found[1] if found else "?"


def test_a_hidden_request_answered_by_two_players(discord_env):
    sb = discord_env
    g = _table(sb, "Petición oculta")
    asked = _ask(sb, g, difficulty=15, hidden="outcome")
    request = asked.message
    assert "Dificultad oculta" in asked.text and "Dificultad 15" not in asked.text
    assert {b["label"] for b in request.buttons} >= {"Ardelia", "Brisa"}
    # a press by the wrong member is refused and changes nothing
    wrong = sb.click(request, _roll_button(sb, request, "Ardelia"), user="bruno")
    refusal = _private(wrong)
    assert refusal.text == t("request.error.not_yours", "es", name="Ardelia"), wrong.all_text
    # each player rolls their own character and sees only success or failure
    seen = {}
    for user, name in (("ana", "Ardelia"), ("bruno", "Brisa")):
        r = sb.click(request, _roll_button(sb, request, name), user=user)
        assert r.ok, r.all_text
        (private,) = [m for m in r.followups if m.ephemeral]
        assert any(
            private.text == t("request.your_outcome", "es", name=name, outcome=o) for o in OUTCOMES
        ), private.text
        seen[name] = private.text
    public = sb.message(request.id)
    assert "Dificultad 15" not in public.text and "15" not in re.sub(r"<[@#]\d+>", "", public.text)
    assert not [b for b in public.buttons if b["custom_id"].startswith(ROLL)]  # all rolled
    # the GM channel has each roll with its numbers, and the news that everyone answered
    gm = sb.channel_messages(g, "gm")
    copies = [m for m in gm if "Tirada pedida" in m.content]
    assert len(copies) == 2 and all("Total" in str(m.embeds) for m in copies)
    done = [m for m in gm if m.content.startswith("✅")]
    assert len(done) == 1 and "Dificultad: 15" in done[0].text
    # the GM's results button shows the numbers to the GM only
    results = press(sb, request, RESULTS, user="gm")
    assert results.ephemeral and "Dificultad: 15" in results.text
    refused = press(sb, request, RESULTS, user="ana")
    assert refused.ephemeral and says(refused, "campaign.error.not_referee")
    # a player's /history keeps the numbers out
    history = sb.command("history", {}, guild=g, channel="mesa", user="ana")
    assert "**?**" in history.text


def test_a_double_press_and_a_late_press_are_refused(discord_env):
    sb = discord_env
    g = _table(sb, "Petición cerrada")
    asked = _ask(sb, g)
    request = asked.message
    ardelia_button = _roll_button(sb, request, "Ardelia")
    brisa_button = _roll_button(sb, request, "Brisa")
    first = sb.click(request, ardelia_button, user="ana")
    assert first.ok and "Ardelia" in first.all_text
    # visible request: the public message shows Ardelia's total; her button is gone
    assert re.search(r"Ardelia\*\* — \*\*\d+\*\*", sb.message(request.id).text)
    closed = sb.command("request close", {}, guild=g, channel="mesa", user="gm")
    assert says(
        closed, "request.closed", id=re.search(r"n\.º (\d+)", closed.text)[1], rolled=1, count=2
    )
    late = sb.click(request, brisa_button, user="bruno")
    # refused privately; the message is redrawn closed, without its roll buttons
    assert says(late, "request.error.closed"), late.all_text
    assert all(m.ephemeral for m in late.followups) and late.followups
    assert not [b for b in sb.message(request.id).buttons if b["custom_id"].startswith(ROLL)]
    again = sb.command("request close", {}, guild=g, channel="mesa", user="gm")
    assert says(again, "request.error.none_open")
    # a second request: Brisa's button pressed four times at once rolls once
    from concurrent.futures import ThreadPoolExecutor

    second = _ask(sb, g, who="Brisa").message
    button = _roll_button(sb, second, "Brisa")
    with ThreadPoolExecutor(max_workers=4) as pool:
        clicks = list(pool.map(lambda _: sb.click(second, button, user="bruno"), range(4)))
    again_text = t("request.error.already_rolled", "es", name="Brisa")
    rolled = [c for c in clicks if c.ok and _private(c).text != again_text]
    assert len(rolled) == 1, [c.all_text or c.error for c in clicks]
    assert "Brisa" in _private(rolled[0]).text
    assert all(_private(c).text == again_text for c in clicks if c is not rolled[0])
    assert says(rolled[0], "request.footer_complete", id=_number(rolled[0]))
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert history.text.count("Brisa (bruno)") == 1, history.text
    player = sb.command(
        "request check", {"who": "todos", "option": OPTION}, guild=g, channel="mesa", user="ana"
    )
    assert player.ephemeral and says(player, "campaign.error.not_referee")


def test_request_buttons_work_after_a_restart(bot_database_url, tmp_path):
    sb = start_arbitro(bot_database_url, tmp_path)
    env = {"DATABASE_URL": bot_database_url}
    try:
        g = _table(sb, "Reinicio")
        request = _ask(sb, g, hidden="nothing").message
        sb.click(request, _roll_button(sb, request, "Ardelia"), user="ana").expect_ok()
        sb.stop_bot()
        sb.start_bot("bot.__main__", env=env, log_path=tmp_path / "bot2.log")
        after = sb.click(request, _roll_button(sb, request, "Brisa"), user="bruno")
        assert after.ok and says(after, "request.your_nothing", name="Brisa"), after.all_text
        assert "ha tirado" in sb.message(request.id).text
        # Ardelia's roll (before the restart) counted: no second roll for her
        assert not [b for b in sb.message(request.id).buttons if b["custom_id"].startswith(ROLL)]
        assert len([m for m in sb.channel_messages(g, "gm") if m.content.startswith("✅")]) == 1
    finally:
        sb.close()


def test_new_characters_wait_for_the_gms_approval(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Aprobación", "nucleo")
    sb.command(
        "campaign settings",
        {"setting": "aprobar_personajes", "value": "sí"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    imported = sb.command(
        "sheet import", {"file": sheet_file(ARDELIA)}, guild=g, channel="mesa", user="ana"
    )
    assert imported.ok and says(imported, "approval.pending", name="Ardelia"), imported.all_text
    card = next(m for m in imported.messages if m.buttons)
    blocked = sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="ana")
    assert blocked.ephemeral  # no active character yet
    named = sb.command(
        "check", {"option": OPTION, "character": "Ardelia"}, guild=g, channel="mesa", user="ana"
    )
    assert named.ephemeral and says(named, "approval.error.awaiting", name="Ardelia")
    use = sb.command("sheet use", {"character": "Ardelia"}, guild=g, channel="mesa", user="ana")
    assert use.ephemeral and says(use, "approval.error.awaiting", name="Ardelia")
    stranger = press(sb, card, APPROVE, user="ana")
    assert stranger.ephemeral and says(stranger, "campaign.error.not_referee")
    rejected = press(sb, card, REJECT, user="gm")
    assert rejected.ok and "rechazado" in rejected.all_text
    approved = press(sb, card, APPROVE, user="gm")
    assert approved.ok and "ya puede jugar" in approved.all_text, approved.all_text
    assert not sb.message(card.id).buttons
    rolled = sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="ana")
    assert rolled.ok and not rolled.ephemeral, rolled.text
    # without the message: /sheet approve (GM only)
    import_sheet(sb, g, ardelia(name="Brisa"), user="bruno")
    player = sb.command(
        "sheet approve", {"character": "Brisa"}, guild=g, channel="mesa", user="bruno"
    )
    assert player.ephemeral and says(player, "campaign.error.not_referee")
    by_name = sb.command(
        "sheet approve", {"character": "Brisa"}, guild=g, channel="mesa", user="gm"
    )
    assert by_name.ok and "ya puede jugar" in by_name.text, by_name.text
    sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="bruno").expect_ok()


def test_a_players_import_of_referee_fields_waits_for_the_gm(discord_env):
    """Issue 23 §5: an S&W player importing her own character was refused («Solo el máster
    puede fijar estos campos…»): the GM had to import it, transfer it, and she `/sheet use` it.
    Now it waits for the GM's approval naming those fields, and once approved she plays it."""
    sb = discord_env
    g = new_campaign(sb, "Importa tu ficha", "swc")
    imported = sb.command(
        "sheet import", {"file": sheet_file(swc_cleric())}, guild=g, channel="mesa", user="ana"
    )
    assert imported.ok and says(imported, "approval.pending", name="Aldara"), imported.all_text
    assert "cosa del máster (" in imported.all_text and "Clase" in imported.all_text, (
        imported.all_text
    )
    card = next(m for m in imported.messages if m.buttons)
    approved = press(sb, card, APPROVE, user="gm")
    assert approved.ok and "es su personaje activo" in approved.all_text, approved.all_text
    sb.command("save", {}, guild=g, channel="mesa", user="ana").expect_ok()


def test_the_gm_transfers_a_character(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Traspaso", "nucleo")
    import_sheet(sb, g, ARDELIA, user="ana")
    sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="ana").expect_ok()
    refused = sb.command(
        "sheet transfer",
        {"character": "Ardelia", "member": g.member("bruno")},
        guild=g,
        channel="mesa",
        user="ana",
    )
    assert refused.ephemeral and says(refused, "campaign.error.not_referee")
    moved = sb.command(
        "sheet transfer",
        {"character": "Ardelia", "member": g.member("bruno")},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert moved.ok and not moved.ephemeral and "Ardelia" in moved.text, moved.text
    assert "activo" in moved.text  # it was ana's active character
    # Bruno had none here: it is his active one, no `/sheet use` needed (issue 23 §5)
    bruno = g.member("bruno").id
    assert says(moved, "approval.transferred_active", owner=bruno), moved.text
    gone = sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="ana")
    assert gone.ephemeral
    sb.command("check", {"option": OPTION}, guild=g, channel="mesa", user="bruno").expect_ok()
    history = sb.command("history", {}, guild=g, channel="mesa", user="gm")
    assert "Ardelia (ana)" in history.text and "Ardelia (bruno)" in history.text


def test_mentions_and_presses_at_once_leave_every_roll_on_the_message(discord_env):
    from concurrent.futures import ThreadPoolExecutor

    sb = discord_env
    g = _table(sb, "Menciones")
    who = f"<@{g.member('ana').id}> <@{g.member('bruno').id}>"
    request = _ask(sb, g, who=who).message
    assert "Ardelia" in request.text and "Brisa" in request.text
    buttons = {name: _roll_button(sb, request, name) for name in ("Ardelia", "Brisa")}
    with ThreadPoolExecutor(max_workers=2) as pool:
        clicks = list(
            pool.map(
                lambda pair: sb.click(request, buttons[pair[1]], user=pair[0]),
                (("ana", "Ardelia"), ("bruno", "Brisa")),
            )
        )
    assert all(c.ok for c in clicks), [c.all_text for c in clicks]
    final = sb.message(request.id).text
    assert "pendiente" not in final and final.count("** — **") == 2, final
    # the GM channel is told once that everyone rolled
    assert len([m for m in sb.channel_messages(g, "gm") if m.content.startswith("✅")]) == 1


def test_mentions_typed_in_a_text_option_reach_the_bot_as_discord_sends_them(discord_env):
    """Issue 23 §6: the README's `quien:@ana @bruno` failed in the sandbox, which sent the
    text as typed; Discord's client sends the members picked from its pop-up as <@id>."""
    sb = discord_env
    g = _table(sb, "Menciones escritas")
    request = _ask(sb, g, who="@ana @Bruno").message
    assert "Ardelia" in request.text and "Brisa" in request.text, request.text
    nobody = sb.command(
        "request check",
        {"who": "@nadie", "option": OPTION},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert nobody.ephemeral, nobody.text  # a name nobody has stays text, and is refused


def test_an_unconscious_character_is_listed_and_the_others_roll(discord_env):
    """Issue 23 §5: `quien:todos` failed for everyone because Brisa was unconscious, saying
    «elige una opción que su ficha tenga»."""
    sb = discord_env
    g = _table(sb, "Inconsciente")
    sb.command(
        "sheet set",
        {"character": "Brisa", "field": "heridas", "value": "25"},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    request = _ask(sb, g).message
    assert "**Brisa** — no puede tirar:" in request.text and "inconsciente" in request.text, (
        request.text
    )
    names = [b.get("label") for b in request.buttons if b["custom_id"].startswith(ROLL)]
    assert names == ["Ardelia"], names
    rolled = sb.click(request, _roll_button(sb, request, "Ardelia"), user="ana")
    assert rolled.ok, rolled.all_text
    assert "todos han tirado" in sb.message(request.id).text.lower(), sb.message(request.id).text


def test_a_requested_save_carries_its_threat(discord_env):
    sb = discord_env
    g = new_campaign(sb, "Salvación pedida", "swc")
    import_sheet(sb, g, swc_cleric(), user="gm")  # the GM's import, handed to Ana: hers now
    sb.command(
        "sheet transfer",
        {"character": "Aldara", "member": g.member("ana")},
        guild=g,
        channel="mesa",
        user="gm",
    ).expect_ok()
    asked = sb.command(
        "request check",
        {"who": "todos", "option": "salvacion", "circumstances": "amenaza:veneno"},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert asked.ok and "Circunstancias: amenaza:veneno" in asked.text, asked.text
    rolled = sb.click(asked.message, _roll_button(sb, asked.message, "Aldara"), user="ana")
    assert rolled.ok and "veneno" in rolled.all_text.lower(), rolled.all_text
    refused = sb.command(
        "request check",
        {"who": "todos", "option": "salvacion", "difficulty": 12},
        guild=g,
        channel="mesa",
        user="gm",
    )
    assert refused.ephemeral and says(
        refused, "swc.problem.difficulty_not_allowed", option="salvacion"
    ), refused.text


def _checks_stored(url: str) -> list[RollLog]:
    """Every check in the bot's audit log, read from its database."""

    async def read() -> list[RollLog]:
        engine = create_engine(url)
        try:
            async with session_factory(engine)() as session:
                return list(
                    (await session.exec(select(RollLog).where(RollLog.kind == "check"))).all()
                )
        finally:
            await engine.dispose()

    return asyncio.run(read())


def test_five_full_requests_pressed_all_at_once(bot_database_url, tmp_path):
    """Issue 26: five requests of MAX_TARGETS characters, all 100 buttons pressed in the same
    instant.  Every press is acknowledged and answered privately with its roll, every roll is
    stored exactly once, and each request message ends showing every result (correctness,
    not timing: the timing is benchmarks/command_load_bench.py's)."""
    sb = start_arbitro(bot_database_url, tmp_path)
    try:
        g = new_campaign(sb, "Mesa llena", "nucleo")
        sb.command(
            "campaign settings", {"gm_channel": g.channel("gm")}, guild=g, channel="mesa", user="gm"
        ).expect_ok()
        players = [g.add_member(f"jugador{n:03d}").name for n in range(5 * MAX_TARGETS)]
        names = {player: f"Pj {n:03d}" for n, player in enumerate(players)}
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda p: import_sheet(sb, g, ardelia(name=names[p]), user=p), players))
        presses = []
        for k in range(5):
            group = players[k * MAX_TARGETS : (k + 1) * MAX_TARGETS]
            who = " ".join(f"<@{g.member(p).id}>" for p in group)
            message = _ask(sb, g, who=who).message
            presses += [(message, _roll_button(sb, message, names[p]), p) for p in group]
        replies = sb.click_together(presses)
        for reply, (_message, _button, player) in zip(replies, presses, strict=True):
            assert reply.ok, reply.error
            answer = _private(reply)  # acknowledged at once, then its own answer
            assert names[player] in answer.text and "Total" in answer.text, answer.text
        stored = _checks_stored(bot_database_url)
        assert sorted(r.character_name for r in stored) == sorted(names.values())
        totals = {r.character_name: r.total for r in stored}
        for message in {id(m): m for m, _b, _p in presses}.values():
            final = sb.message(message.id)
            assert "pendiente" not in final.text, final.text
            assert says_text(final.text, "request.footer_complete", id=_number_in(final.text))
            assert not [b for b in final.buttons if b["custom_id"].startswith(ROLL)]
            shown = dict(re.findall(r"\*\*(Pj \d{3})\*\* — \*\*(-?\d+)\*\*", final.text))
            assert len(shown) == MAX_TARGETS, final.text
            assert all(int(total) == totals[name] for name, total in shown.items())
        told = [m for m in sb.channel_messages(g, "gm") if m.content.startswith("✅")]
        assert len(told) == 5  # each request's GM told once
    finally:
        sb.close()


def says_text(text: str, key: str, **params) -> bool:
    return t(key, "es", **params) in text


def _number_in(text: str) -> str:
    found = re.search(r"Solicitud n\.º (\d+)", text)
    return found[1] if found else "?"
