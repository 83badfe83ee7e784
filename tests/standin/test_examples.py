"""The shipped sandbox sessions (``standin/examples/*.txt``) replayed against the real bot
with seeded dice, and read as a careful Spanish referee would (issue 13, «Done means»).

Each script runs in a bot process of its own (``repl.main``) with the seed its header names
(``ARBITRO_TEST_DICE_SEED=N``, 7 if none), so every die is the same on every run (and,
seeded, without the per-member cooldowns: how many of a script's commands fall in one
ten-second window is the machine's speed, standin/launch.py ``lift_cooldowns``). The output
(a) must not show an internal id, a raw ``{placeholder}``, a Python repr, an English catalogue
message or a word cut by ``…``, and (b) must match the transcript committed next to the
script once what is not deterministic (dates, snowflakes, the temporary folder) is
normalised. ``ARBITRO_REGEN_TRANSCRIPTS=1`` rewrites the transcripts instead (read the diff:
it is what a Spanish-speaking table would read).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.i18n import catalogue
from rules.names import names
from rules.text import fold
from standin import repl
from standin.client import REPO
from standin.timestamps import discord_time

pytestmark = pytest.mark.e2e

EXAMPLES = REPO / "standin" / "examples"
SCRIPTS = sorted(p for p in EXAMPLES.glob("*.txt") if not p.name.endswith(".transcript.txt"))
SEED = re.compile(r"ARBITRO_TEST_DICE_SEED=(\d+)")


def transcript_of(script: Path) -> Path:
    return script.with_name(script.stem + ".transcript.txt")


def seed_of(script: Path) -> str:
    found = SEED.search(script.read_text(encoding="utf-8"))
    return found[1] if found else "7"


def normalise(text: str, tmp: Path) -> str:
    """What changes from run to run: the temporary folder, dates and times, snowflakes."""
    text = text.replace(str(tmp), "<tmp>")
    text = re.sub(r"\b\d{2}/\d{2}/\d{4} \d{2}:\d{2}( [A-Z]{3,5})?", "<fecha>", text)
    text = re.sub(r"\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?", "<fecha>", text)
    text = re.sub(r"\b\d{2}/\d{2}/\d{4}\b", "<fecha>", text)  # a day (an absence's)
    text = re.sub(r"\(\d+ bytes\)", "(<n> bytes)", text)  # a file's size moves with its dates
    # Discord timestamps, as the reader's client shows them (standin/timestamps.py)
    text = re.sub(r"\b\d{1,2} de [a-záéíóú]+ de \d{4}( \d{1,2}:\d{2})?", "<fecha>", text)
    text = re.sub(r"\b[A-Z][a-z]+ \d{1,2}, \d{4}( \d{1,2}:\d{2} [AP]M)?", "<fecha>", text)
    return re.sub(r"\b\d{17,20}\b", "<id>", text)


# -- what the bot wrote, without the REPL's own chrome ------------------------------------
_PROMPT = re.compile(r"^\[\w+ @ #[^\]]+\] > ")
_SELECT_VALUE = re.compile(r"=[^\s|]+")


def bot_text(out: str) -> str:
    """The lines the bot wrote: the typed commands, the select menus' values (the REPL shows
    ``Clérigo=clerigo`` so one can type the value) and the form fields' ids are the REPL's."""
    kept: list[str] = []
    in_form = False
    for line in out.splitlines():
        if _PROMPT.match(line):
            in_form = False
            continue
        if line.startswith("📝 "):
            in_form = True
            kept.append(line.split("  — ")[0])
            continue
        if in_form and line.startswith("  ") and ": " in line:
            kept.append(line.split(": ", 1)[1])
            continue
        if "▾" in line or line.lstrip().startswith("· "):
            line = _SELECT_VALUE.sub("", line)
        kept.append(line)
    return "\n".join(kept)


def _leaky_ids() -> set[str]:
    """Ids a reader must never see: every snake_case id of the names tables, and every id
    that differs from its Spanish name only by accents (clerigo/Clérigo, caotico/caótico)."""
    found: set[str] = set()

    def walk(node: object) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str):
                    yield key, value
                else:
                    yield from walk(value)

    for key, name in walk(names("es")):
        if not re.fullmatch(r"[a-z0-9_]+", key) or key.casefold() == name.casefold():
            continue
        if "_" in key or fold(name) == key:
            found.add(key)
    return found


def _english_messages() -> set[str]:
    """Catalogue messages whose English differs from the Spanish: their longest literal
    piece (between placeholders), if it is long enough to be unmistakably English."""
    messages = catalogue().messages
    pieces: set[str] = set()
    for key, english in messages["en"].items():
        if messages["es"].get(key) == english:
            continue
        piece = max(re.split(r"\{[^}]*\}|[*`\n]", english), key=len).strip()
        if len(piece) >= 24 and " " in piece:
            pieces.add(piece)
    return pieces


def problems(text: str) -> list[str]:
    """Everything a careful Spanish-speaking referee would mark in ``text``."""
    found: list[str] = []
    prose = re.sub(r"`[^`\n]*`", "", text)  # a `code span` is what the reader types: a setting's id
    for word in sorted(_leaky_ids()):
        if re.search(rf"(?<![\w/]){re.escape(word)}(?![\w/])", prose):
            found.append(f"id «{word}»")
    for match in re.finditer(r"\{[a-z_]+\}", text):
        found.append(f"placeholder {match[0]}")
    for match in re.finditer(r"\['|\bNone\b|\bTrue\b|\bFalse\b", text):
        found.append(f"Python repr {match[0]!r}")
    for piece in _english_messages():
        if piece in text:
            found.append(f"English «{piece}»")
    # a word cut by «…»: the word before it is not a word the bot or the table ever writes
    whole = set(re.findall(r"\w+\b(?!…)", text))
    known = whole | set(re.findall(r"\w+", " ".join(catalogue().messages["es"].values())))
    for match in re.finditer(r"(\w+)…", text):
        if match[1] not in known:
            found.append(f"cut «{match[0]}»")
    return found


def test_the_checks_find_what_they_look_for() -> None:
    """The reader is not blind: each kind of fault in a sample is named."""
    sample = "\n".join(
        [
            "Clase: clerigo",
            "Regla: pnj_mueren_a_0",
            "Hola {name}",
            "Armas: ['Distancia', 'Voladora']",
            "Estado: None",
            "Check the summary and press",
            "Elige entre: Fuerza, Destreza, habilidade…",
        ]
    )
    found = " | ".join(problems(sample))
    for expected in (
        "id «clerigo»",
        "placeholder {name}",
        'Python repr "[\'"',
        "Python repr 'None'",
        "cut «habilidade…»",
    ):
        assert expected in found, (expected, found)
    assert not problems("Clase: Clérigo · Alineamiento: caótico · Cota de Mithril… y Mithril")


def test_the_repl_chrome_is_not_the_bots_text() -> None:
    out = "\n".join(
        [
            "[ana @ #mesa] > :select 1 clerigo",
            "  [1] ▾ Elige…: Legal=legal | Caótico=caotico",
            "      · Clérigo=clerigo — DG d6",
            "📝 Ficha de Kára  — :modal campo=valor … / field=value …",
            "  nivel_6: Nivel 6 (1) (obligatorio/required, máx./max 600)",
        ]
    )
    assert not problems(bot_text(out)), bot_text(out)


#: Every timestamp of a transcript reads as this moment (Monday 7 December 2026, 17:23 in
#: Madrid), «hace unos segundos» when relative: what each run sets is the moment, not the words.
FIXED_MOMENT = 1796660585


def _fixed_clock(locale: str, zone: object = None) -> Callable[[int, str | None], str]:
    madrid = ZoneInfo("Europe/Madrid")
    return lambda _unix, style: discord_time(FIXED_MOMENT, style, locale, madrid, FIXED_MOMENT)


@pytest.mark.parametrize("script", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_example_session_reads_well_and_matches_its_transcript(
    script: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ARBITRO_TEST_DICE_SEED", seed_of(script))
    # Timestamps read as Discord shows them, at one fixed moment: their words' length (the
    # month's name) would otherwise move where a transcript's long lines wrap.
    monkeypatch.setattr(repl, "reader_clock", _fixed_clock)
    code = repl.main(
        [
            "--script",
            str(script),
            "--db",
            str(tmp_path / "sandbox.db"),
            "--files",
            str(tmp_path / "files"),
            "--timeout",
            # the export's zip is built in the worker: longer than a roll on a loaded machine
            os.environ.get("ARBITRO_E2E_TIMEOUT", "30"),
            "--deadline",
            os.environ.get("ARBITRO_E2E_DEADLINE", "3"),
        ]
    )
    out = normalise(capsys.readouterr().out, tmp_path)
    assert code == 0, out
    faults = problems(bot_text(out))
    assert not faults, "\n".join(faults)
    transcript = transcript_of(script)
    if os.environ.get("ARBITRO_REGEN_TRANSCRIPTS") == "1":
        transcript.write_text(out, encoding="utf-8")
        return
    assert transcript.exists(), f"no {transcript.name}: run with ARBITRO_REGEN_TRANSCRIPTS=1"
    expected = transcript.read_text(encoding="utf-8")
    if out != expected:
        import difflib

        diff = "\n".join(
            difflib.unified_diff(
                expected.splitlines(), out.splitlines(), "committed", "this run", lineterm=""
            )
        )
        pytest.fail(
            f"{script.name} no longer prints {transcript.name} (ARBITRO_REGEN_TRANSCRIPTS=1 "
            f"rewrites it; read the diff first):\n{diff[:6000]}"
        )
