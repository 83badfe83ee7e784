"""The offline sandbox: parsing what people type, and whole scripted sessions against a real bot."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from standin import repl
from standin.client import REPO
from standin.render import Clickable, render_reply
from standin.replies import Msg, Reply

ROLL = {
    "name": "roll",
    "name_localizations": {"es-ES": "tirar"},
    "options": [
        {
            "name": "expression",
            "type": 3,
            "required": True,
            "name_localizations": {"es-ES": "expresion"},
        },
        {"name": "reason", "type": 3, "name_localizations": {"es-ES": "motivo"}},
        {"name": "private", "type": 5},
        {"name": "difficulty", "type": 4},
    ],
}
CAMPAIGN = {
    "name": "campaign",
    "options": [
        {
            "name": "create",
            "type": 1,
            "options": [
                {"name": "name", "type": 3, "required": True},
                {
                    "name": "system",
                    "type": 3,
                    "choices": [
                        {"name": "Núcleo", "value": "nucleo"},
                        {"name": "S&W Completo", "value": "swc"},
                    ],
                },
            ],
        }
    ],
}


def parsed(line: str) -> tuple[str, dict]:
    path, raw = repl.parse_slash(line, [ROLL, CAMPAIGN])
    return path, {d["name"]: repl.convert(d, v) for d, v in raw}


def test_positional_value_then_named_options() -> None:
    assert parsed("/roll 1o3d10+5 reason:ataque por sorpresa difficulty:12") == (
        "roll",
        {"expression": "1o3d10+5", "reason": "ataque por sorpresa", "difficulty": 12},
    )


def test_localized_names_quotes_and_booleans() -> None:
    assert parsed('/tirar expresion:2d6 motivo:"daño: fuego" private:sí') == (
        "roll",
        {"expression": "2d6", "reason": "daño: fuego", "private": True},
    )


def test_subcommand_words_and_choice_names() -> None:
    assert parsed("/campaign create name:Mi partida system:Núcleo") == (
        "campaign create",
        {"name": "Mi partida", "system": "nucleo"},
    )


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("/nada", "unknown command /nada"),
        ("/campaign", "needs: create"),
        ("/roll 1d6 difficulty:doce", "is not a number"),
        ("/roll 1d6 private:quizá", "true/false"),
    ],
)
def test_parse_errors_explain_themselves(line: str, fragment: str) -> None:
    with pytest.raises(repl.ParseError, match=fragment):
        parsed(line)


def test_render_marks_ephemeral_and_numbers_components() -> None:
    msg = Msg(
        id=1,
        channel_id=2,
        content="Hola <@7>",
        embeds=[
            {
                "title": "Tirada",
                "description": "**Total: 5**",
                "fields": [{"name": "Motivo", "value": "ataque"}],
            }
        ],
        components=[
            {
                "type": 1,
                "components": [{"type": 2, "style": 1, "label": "Repetir", "custom_id": "arb:1:r"}],
            }
        ],
        ephemeral=True,
        attachments={},
        author="Árbitro",
        data={},
    )
    clickables: list[Clickable] = []
    text = render_reply(Reply(ok=True, message=msg), clickables=clickables, names={7: "ana"}.get)
    assert "(solo tú lo ves / only you)" in text
    assert "Hola @ana" in text and "│ Total: 5" in text and "│ ▸ Motivo: ataque" in text
    assert "[1] Repetir" in text and clickables[0].custom_id == "arb:1:r"


def test_render_links_and_timestamps() -> None:
    msg = Msg(
        1,
        2,
        "[ver](https://discord.com/channels/5/9/11) [web](https://example.org/x) <t:0:d>",
        [],
        [],
        False,
        {},
        "A",
        {},
    )
    text = render_reply(Reply(ok=True, message=msg), clickables=[], names={9: "gm"}.get)
    assert "ver → #gm" in text and "web <https://example.org/x>" in text and "<t:" not in text


def test_select_options_show_their_descriptions_as_discord_does() -> None:
    select = {
        "type": 3,
        "custom_id": "arb:1:w:clase",
        "placeholder": "Clase",
        "options": [
            {"label": "Clérigo", "value": "clerigo", "description": "Conjuros divinos; d6"},
            {"label": "Guerrero", "value": "guerrero", "description": "d8; cualquier arma"},
            {"label": "Ladrón", "value": "ladron"},
        ],
    }
    msg = Msg(1, 2, "", [], [{"type": 1, "components": [select]}], False, {}, "A", {})
    clickables: list[Clickable] = []
    text = render_reply(Reply(ok=True, message=msg), clickables=clickables)
    assert "  [1] ▾ Clase:\n" in text
    assert "      · Clérigo=clerigo — Conjuros divinos; d6" in text
    assert "      · Guerrero=guerrero — d8; cualquier arma" in text
    assert "      · Ladrón=ladron\n" in text + "\n"
    assert clickables[0].options == ("clerigo", "guerrero", "ladron")


def test_a_refilled_form_shows_what_was_typed() -> None:
    from standin.render import render_modal

    modal = {
        "title": "Atributos",
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": "fue", "label": "Fuerza"}]},
            {
                "type": 1,
                "components": [{"type": 4, "custom_id": "des", "label": "Destreza", "value": "12"}],
            },
        ],
    }
    lines = render_modal(modal, {"fue": "19"})
    assert "  fue: Fuerza (obligatorio/required) = «19»" in lines
    assert "  des: Destreza (obligatorio/required) = «12»" in lines  # the bot's pre-filled value


def test_a_file_option_finds_a_name_in_the_files_folder(tmp_path: Path) -> None:
    (tmp_path / "ficha.json").write_text("{}")
    option = {"name": "file", "type": 11}
    assert repl.convert(option, "ficha.json", tmp_path) == ("ficha.json", b"{}")
    assert repl.convert(option, str(tmp_path / "ficha.json")) == ("ficha.json", b"{}")
    with pytest.raises(repl.ParseError, match="no such file"):
        repl.convert(option, "otra.json", tmp_path)


def run_script(
    tmp_path: Path,
    capsys,
    lines: list[str],
    *,
    module: str,
    db: Path | None = None,
    extra: list[str] | None = None,
) -> tuple[int, str]:
    script = tmp_path / "escena.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = db or tmp_path / "sandbox.db"
    code = repl.main(["--script", str(script), "--db", str(db), "--module", module, *(extra or [])])
    return code, capsys.readouterr().out


@pytest.mark.e2e
def test_script_against_tiny_bot(tmp_path: Path, capsys) -> None:
    code, out = run_script(
        tmp_path,
        capsys,
        [
            "# ensayo",
            "/counter",
            ":click 1",
            ":as bruno",
            ":click 2",
            ":select 3 azul",
            "/note",
            ":modal text=apuntado",
            ":in escena",
            "/tools dice sum 2 b:3",
        ],
        module="tests.standin.tiny_bot",
    )
    assert code == 0, out
    assert "[ana @ #mesa] > :click 1\n── Árbitro\ncuenta: 1" in out
    assert (
        "solo para bruno  (solo tú lo ves / only you)" not in out
    )  # the mark is on the header line
    assert "── Árbitro  (solo tú lo ves / only you)\nsolo para bruno" in out
    assert "elegiste azul" in out and "nota: apuntado (-)" in out
    assert "[bruno @ #escena] > /tools dice sum 2 b:3\n── Árbitro\nsuma=5" in out


@pytest.mark.e2e
def test_files_forms_and_select_descriptions_in_a_script(tmp_path: Path, capsys) -> None:
    """Files the bot sends are saved and sent back by name; a refused form keeps its text."""
    files = tmp_path / "archivos"
    code, out = run_script(
        tmp_path,
        capsys,
        [
            "/counter",
            "/slow",
            ":files",
            "/upload file:tiny.py",
            "/note",
            ":modal text=" + "x" * 60 + " mood=contento",
            ":modal",
            ":modal text=corto",
        ],
        module="tests.standin.tiny_bot",
        extra=["--files", str(files)],
    )
    assert code == 1, out  # the over-long field was refused (and counted as a failure)
    assert "▾ Elige:\n      · rojo — el color rojo\n" in out
    saved = files / "tiny.py"
    assert f"💾 tiny.py → {saved}" in out and saved.read_bytes().startswith(b'"""A minimal')
    assert f"{files}: tiny.py" in out
    assert f"tiny.py: {saved.stat().st_size} bytes" in out  # sent back from the folder
    assert "length 60 outside [0, 50]" in out and "el formulario sigue abierto" in out
    assert "  text: Texto (obligatorio/required, máx./max 50) = «" + "x" * 60 + "»" in out
    assert "  mood: Ánimo (opcional/optional) = «contento»" in out
    assert "nota: corto (contento)" in out  # the mood typed before was kept


@pytest.mark.e2e
def test_suggestions_posts_and_threads_survive_a_restart(tmp_path: Path, capsys) -> None:
    db = tmp_path / "sandbox.db"
    code, out = run_script(
        tmp_path,
        capsys,
        [
            ":ac /spell name:bola",
            ":in foro",
            ":post Escena 1",
            "/ping",
            ":in mesa",
            ":thread aparte",
        ],
        module="tests.standin.tiny_bot",
        db=db,
    )
    assert code == 0, out
    assert "Sugerencias / suggestions: Bola de fuego | Bola de nieve" in out
    assert "[ana @ #Escena 1] > /ping\n── Árbitro\npong" in out
    assert out.rstrip().endswith("[ana @ #mesa] > :thread aparte")
    lines = [":in Escena 1", "/ping", ":in aparte", "/ping"]
    code, out = run_script(tmp_path, capsys, lines, module="tests.standin.tiny_bot", db=db)
    assert code == 0, out
    assert "[ana @ #Escena 1] > /ping\n── Árbitro\npong" in out
    assert "[ana @ #aparte] > /ping\n── Árbitro\npong" in out


@pytest.mark.e2e
def test_a_failed_line_makes_the_exit_code_non_zero(tmp_path: Path, capsys) -> None:
    code, out = run_script(
        tmp_path, capsys, ["/ping", "/tools dice sum 500"], module="tests.standin.tiny_bot"
    )
    assert code == 1
    assert "pong es-ES" in out and "outside [0, 100]" in out


@pytest.mark.e2e
@pytest.mark.skipif(
    not (REPO / "bot" / "__main__.py").exists(), reason="bot/__main__.py not written yet"
)
def test_real_bot_rolls_and_keeps_its_database_between_runs(tmp_path: Path, capsys) -> None:
    db = tmp_path / "sandbox.db"
    first_code, first = run_script(
        tmp_path, capsys, ["/roll 1d20+3 reason:ataque"], module="bot.__main__", db=db
    )
    assert first_code == 0, first
    assert "1d20" in first and "ataque" in first
    second_code, second = run_script(tmp_path, capsys, ["/roll 1d6"], module="bot.__main__", db=db)
    assert second_code == 0, second
    assert db.exists() and first != second
    # the roll log (footer "Registro n.º {id}") counts on from the first run: same file
    assert "n.º 1" in first and "n.º 2" in second


@pytest.mark.e2e
def test_export_edit_import_inside_the_sandbox(tmp_path: Path, capsys) -> None:
    """The real bot's sheet export lands in the files folder; edited there, it goes back by name."""
    import json

    from tests.examples import ARDELIA

    db, files = tmp_path / "sandbox.db", tmp_path / "archivos"
    files.mkdir()
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    (files / "mia.json").write_text(json.dumps(document), encoding="utf-8")
    code, out = run_script(
        tmp_path,
        capsys,
        [
            ":as gm",
            '/campaign create name:"La nave" system:nucleo',
            ":as ana",
            "/ficha importar archivo:mia.json",
            "/ficha exportar",
        ],
        module="bot.__main__",
        db=db,
        extra=["--files", str(files)],
    )
    assert code == 0, out
    saved = [line.split(" → ")[1] for line in out.splitlines() if "💾" in line]
    assert len(saved) == 1 and Path(saved[0]).parent == files, out
    exported = json.loads(Path(saved[0]).read_text(encoding="utf-8"))
    exported["sheet"]["equipo"]["otros"] = ["Linterna de plasma"]
    Path(saved[0]).write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    code, out = run_script(
        tmp_path,
        capsys,
        [
            f"/ficha importar archivo:{Path(saved[0]).name} sustituir:sí",
            "/ficha ver",
        ],
        module="bot.__main__",
        db=db,
        extra=["--files", str(files)],
    )
    assert code == 0, out
    assert "Linterna de plasma" in out


@pytest.mark.e2e
@pytest.mark.skipif(
    not (REPO / "bot" / "__main__.py").exists(), reason="bot/__main__.py not written yet"
)
def test_the_shipped_example_scene_runs(tmp_path: Path, capsys) -> None:
    example = Path(repl.__file__).parent / "examples" / "primera-sesion.txt"
    code = repl.main(["--script", str(example), "--db", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "La Marca del Este" in out and "(solo tú lo ves / only you)" in out


class Terminal:
    """The sandbox on a pseudo-terminal, driven as a person types, read as a person sees it."""

    def __init__(self, python_args: list[str]) -> None:
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child becomes the sandbox, on the terminal; never returns
            try:
                os.chdir(REPO)
                # As from a login shell: a runner that started us in the background (CI, `cmd &`)
                # leaves SIGINT ignored, and an ignored Ctrl-C never reaches the prompt.
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                os.execv(sys.executable, [sys.executable, *python_args])
            finally:
                os._exit(127)
        self.seen = b""
        self.read_up_to = 0  # what earlier expectations consumed: each waits for output after it

    def expect(self, text: str, timeout: float = 30) -> None:
        """Wait until ``text`` is printed after everything awaited so far."""
        end = time.monotonic() + timeout
        while (found := self.seen.find(text.encode(), self.read_up_to)) < 0:
            assert time.monotonic() < end, (text, self.seen.decode(errors="replace"))
            if select.select([self.fd], [], [], 0.1)[0]:
                self.seen += os.read(self.fd, 4096)
        self.read_up_to = found + len(text.encode())

    def type_line(self, text: str, end: bytes = b"\n") -> None:
        """Type ``text``, wait for readline to echo it, then press ``end`` (Enter, Ctrl-C…).

        Keys sent before readline has taken the terminal (raw mode) reach it in another
        order or are flushed by the line discipline; its echo proves it is reading.
        """
        os.write(self.fd, text.encode())
        self.expect(text)
        os.write(self.fd, end)

    def exit_code(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        return os.waitstatus_to_exitcode(status)

    def close(self) -> None:
        if self.pid:
            os.kill(self.pid, signal.SIGTERM)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def _sandbox_args(tmp_path: Path) -> list[str]:
    return ["--module", "tests.standin.tiny_bot", "--db", str(tmp_path / "s.db")]


@pytest.mark.e2e
@pytest.mark.skipif(sys.platform != "linux", reason="needs a pseudo-terminal")
def test_interactive_prompt_over_a_terminal(tmp_path: Path) -> None:
    """A person at a terminal: prompt, reply, Ctrl-C drops the line, :quit leaves cleanly."""
    term = Terminal(["-m", "bot", "sandbox", *_sandbox_args(tmp_path)])
    try:
        term.expect("[ana @ #mesa] > ")
        term.type_line("/ping")
        term.expect("pong es-ES Mesa de pruebas")
        term.expect("[ana @ #mesa] > ")
        # typed, then Ctrl-C at once (as the echo arrives): a fresh prompt, nothing sent
        term.type_line("/tools dice", b"\x03")
        dropped_at = term.read_up_to
        term.expect("[ana @ #mesa] > ")
        assert "Árbitro" not in term.seen[dropped_at : term.read_up_to].decode(errors="replace")
        term.type_line(":as gm")
        term.expect("[gm @ #mesa] > ")
        term.type_line(":quit")
        assert term.exit_code() == 0
    finally:
        term.close()


# A readline startup hook that trips Ctrl-C once, as the signal does, after readline has begun
# the prompt and before it waits for a key.  Only C callables: a Python hook would run the
# KeyboardInterrupt inside the hook, where readline swallows it.
_CTRL_C_BEFORE_THE_WAIT = """\
import _thread, functools, operator, readline, sys
once = map(operator.call, [_thread.interrupt_main])
readline.set_startup_hook(functools.partial(next, once, None))
from standin.repl import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.e2e
@pytest.mark.skipif(sys.platform != "linux", reason="needs a pseudo-terminal")
def test_ctrl_c_while_readline_is_busy_is_answered_and_eats_no_line(tmp_path: Path) -> None:
    """Ctrl-C that lands while readline is still busy (echoing the last key) is answered.

    CPython's ``input()`` looks at signals only when readline's wait for a key is interrupted
    (python/cpython#112585): such a Ctrl-C stayed pending, the prompt ignored it, and the
    next Enter threw away the line typed after it.  It made the terminal test above flaky on a
    loaded machine, where the test's Ctrl-C follows the echo at once.  Here the hook makes that
    instant certain, so without the prompt's tick no fresh prompt ever comes.
    """
    term = Terminal(["-c", _CTRL_C_BEFORE_THE_WAIT, *_sandbox_args(tmp_path)])
    try:
        term.expect("[ana @ #mesa] > ")
        term.expect("[ana @ #mesa] > ")  # nothing typed: the interrupted prompt gives way
        term.type_line("/ping")  # and the next line is sent, not thrown away
        term.expect("pong es-ES Mesa de pruebas")
        term.expect("[ana @ #mesa] > ")
        term.type_line(":quit")
        assert term.exit_code() == 0
    finally:
        term.close()


@pytest.mark.e2e
def test_upload_attaches_a_file_to_the_next_commands_file_option(tmp_path: Path, capsys) -> None:
    """``:upload PATH`` (issue 13 §5): the next command with a free file option gets it."""
    files = tmp_path / "archivos"
    files.mkdir()
    (files / "nota.txt").write_text("hola", encoding="utf-8")
    code, out = run_script(
        tmp_path,
        capsys,
        [":upload nota.txt", "/ping", "/upload", ":upload no-existe.txt"],
        module="tests.standin.tiny_bot",
        extra=["--files", str(files)],
    )
    assert code == 1, out  # the missing file is refused and counted
    assert "📎 nota.txt: se adjunta al próximo comando" in out
    assert "pong" in out  # a command without a file option leaves it waiting
    assert "nota.txt: 4 bytes" in out  # and /upload received it
    assert "no such file no-existe.txt" in out


@pytest.mark.e2e
def test_typing_a_line_writes_a_message_posted_as_the_character(tmp_path: Path, capsys) -> None:
    """A line without / or : is a message (the sandbox reads messages): in a scene of a
    campaign with typing on, the bot posts it as the character and deletes the original."""
    import json

    from tests.examples import ARDELIA

    files = tmp_path / "archivos"
    files.mkdir()
    document = {"format": "arbitro.sheet", "version": 1, "system": "nucleo", "sheet": ARDELIA}
    (files / "ardelia.json").write_text(json.dumps(document), encoding="utf-8")
    code, out = run_script(
        tmp_path,
        capsys,
        [
            ":as gm",
            '/campaign create name:"La nave" system:nucleo',
            "/campaign settings setting:escribir_como_personaje value:sí",
            ":thread Hangar",
            ":as ana",
            "/ficha importar archivo:ardelia.json",
            "Ardelia: ¡Despegamos!",
            "((vuelvo en cinco))",
        ],
        module="bot.__main__",
        db=tmp_path / "sandbox.db",
        extra=["--files", str(files)],
    )
    assert code == 0, out
    assert "✎ ana (publicado como personaje / posted as the character)" in out, out
    assert "→ #Hangar · Ardelia\n¡Despegamos!" in out, out
    assert out.rstrip().endswith("✎ ana"), out  # out of character: left as written
