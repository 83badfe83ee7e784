"""The Umbría reader on the hand-written fixtures (tests/fixtures/umbria/): pure, no database.

Each point of issue 27's «Done means» list has its test here: two pages of one scene sharing
a post, a plain post, notes, a director-only post, a single-die roll with a modifier, a
multi-die roll, HTML entities, an inline image, a table, the scene list, the characters'
page, and a malformed page that is reported, not guessed.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.services.chronicle.archive import ArchiveProblems
from bot.services.chronicle.umbria import reader
from bot.services.chronicle.umbria.reader import read_umbria
from bot.services.chronicle.umbria.records import UmbriaGame, UmbriaPost
from tests.umbria_fixture import FIXTURES, fixture_zip, zip_of


@pytest.fixture(scope="module")
def game() -> UmbriaGame:
    return read_umbria(fixture_zip())


def post(game: UmbriaGame, number: str) -> UmbriaPost:
    (found,) = [p for s in game.scenes for p in s.posts if p.message_id == number]
    return found


def keys(error: ArchiveProblems) -> list[str]:
    return [key for key, _ in error.problems]


def test_two_pages_of_one_scene_share_a_post_and_it_is_kept_once(game):
    muelle = game.scenes[0]
    assert [p.message_id for p in muelle.posts] == ["5001", "5002", "5003", "5004", "5005"]
    assert all(p.scene_key == "4242/101" for p in muelle.posts)


def test_a_plain_post_with_html_entities(game):
    narrator = post(game, "5001")
    assert narrator.speaker == "Narrador" and narrator.author_id == "9001"
    assert "nadie sabe cuándo zarpará el *Albatros*." in narrator.text
    assert narrator.text.endswith("¿Qué hacéis?")
    assert narrator.notes is None and narrator.rolls == () and not narrator.director_only
    assert "alert" not in narrator.text  # the page's script is not text


def test_a_post_with_notes(game):
    aldara = post(game, "5002")
    assert aldara.notes == "Uso **Acechar** con la bonificación de la capa."
    assert "Notas de juego" not in (aldara.notes or "") and "Acechar" not in aldara.text


def test_a_director_only_post(game):
    secret = post(game, "5004")
    assert secret.director_only and secret.speaker == "Aldara"
    assert [p.message_id for s in game.scenes for p in s.posts if p.director_only] == ["5004"]


def test_a_single_die_roll_with_a_modifier(game):
    (roll,) = post(game, "5002").rolls
    assert (roll.expression, roll.reason, roll.dice, roll.modifier, roll.total) == (
        "1d100+31",
        "Acechar",
        (74,),
        31,
        105,
    )
    assert roll.breakdown == "[74] +31 = 105"


def test_a_multi_die_roll(game):
    (roll,) = post(game, "5003").rolls
    assert (roll.expression, roll.reason, roll.dice, roll.total) == (
        "2d10",
        "Iniciativa",
        (10, 5),
        15,
    )


def test_an_inline_image_comes_from_the_zip(game):
    aldara = post(game, "5002")
    assert aldara.images == ("El muelle_files/mapa.png",)
    assert "🖼 Mapa del puerto" in aldara.text
    assert game.images["El muelle_files/mapa.png"].data.startswith(b"\x89PNG")
    assert "[las reglas](https://example.org/reglas)" in aldara.text
    assert "> Nadie cruza el muelle sin que yo lo vea." in aldara.text


def test_a_table_becomes_a_text_table(game):
    text = post(game, "5003").text
    assert (
        "```\nObjeto    | Cantidad\n----------+---------\nCuerda    | 2\nAntorchas | 6\n```" in text
    )


def test_the_scene_list_gives_order_titles_and_opening_texts(game):
    assert [(s.key, s.title) for s in game.scenes] == [
        ("4242/101", "El muelle"),
        ("4242/102", "La subida"),
        ("4242/103", "Epílogo"),
    ]
    muelle, subida, epilogo = game.scenes
    assert muelle.opening == "El grupo espera al *Albatros* en el muelle de Vell."
    assert subida.opening == "Los escalones de la torre están cubiertos de **sal**."  # its page
    assert epilogo.posts == () and epilogo.opening == "Lo que quedó de la torre."
    assert game.title == "La Torre de Sal"


def test_an_exportador_page_in_latin_1_with_the_title_in_a_span(game):
    first = post(game, "6001")
    assert first.scene_key == "4242/102"
    assert first.text == "La puerta de la torre está abierta.\nSubid con cuidado."
    assert first.avatar == "imagenes/orrel.png"  # Umbría's address, found by its file name


def test_dates_are_madrid_time_kept_in_utc(game):
    assert post(game, "5002").posted_at == datetime(2019, 3, 2, 20, 40, tzinfo=UTC)  # CET
    # 27/10/2019 02:30 happened twice in Madrid: read as the first (CEST, +2)
    assert post(game, "6002").posted_at == datetime(2019, 10, 27, 0, 30, tzinfo=UTC)


def test_the_characters_pages(game):
    aldara, brom, orrel = game.characters
    assert (aldara.name, aldara.npc, aldara.player_id, aldara.avatar) == (
        "Aldara",
        False,
        "9002",
        "imagenes/aldara.png",
    )
    assert aldara.description == "Exploradora de ojos grises y capa *verde*."
    assert aldara.history == "Creció en los muelles de Vell.\n\nNadie sabe de dónde sacó la capa."
    assert aldara.sheet == (
        "**Ficha**\nAcechar 31, Trepar 25, Espada corta 40.\n\n**Equipo**\n- Capa verde\n- Espada corta"
    )
    assert brom.avatar is None and game.missing_images == 1  # its image was not saved
    assert orrel.npc and orrel.player_id is None and orrel.sheet is None


def test_the_players_are_named_by_the_pages(game):
    assert [(p.umbria_id, p.name) for p in game.players] == [
        ("9001", "Dama Gris"),
        ("9002", "lluvia_de_marzo"),
        ("9003", "tejon"),
    ]
    assert game.counts() == {
        "scenes": 3,
        "posts": 7,
        "characters": 3,
        "rolls": 2,
        "players": 3,
        "director_only": 1,
    }


def test_a_malformed_page_is_reported_not_guessed():
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(fixture_zip("rota"))
    problems = dict(refused.value.problems[:2])
    assert problems["umbria.problem.post_incomplete"] == {
        "page": "escena_rota.html",
        "post": "msj7001",
        "parts": "fecha",
    }
    assert problems["umbria.problem.roll"]["post"] == "msj7002"  # 25 on a d20 is no roll


def test_a_malformed_page_among_good_ones_refuses_the_whole_zip():
    broken = (FIXTURES / "rota" / "escena_rota.html").read_bytes()
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(fixture_zip(extra={"rota.html": broken}))
    assert keys(refused.value) == ["umbria.problem.post_incomplete", "umbria.problem.roll"]


# -- trust: budgets before parsing, no path outside the zip, images only from it -------------


def test_not_a_zip_and_a_zip_without_pages():
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(b"no soy un zip")
    assert keys(refused.value) == ["chronicle.problem.not_zip"]
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(zip_of({"notas.txt": b"hola"}))
    assert keys(refused.value) == ["umbria.problem.no_pages"]


def test_no_member_may_point_outside_the_zip():
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(zip_of({"../fuera.html": b"<h3 id='escena'>x</h3>", "/etc/a.html": b""}))
    assert keys(refused.value) == ["chronicle.problem.bad_path", "chronicle.problem.bad_path"]


def test_a_zip_bomb_stops_at_the_page_budget():
    bomb = b"<p>" + b"a" * (reader.MAX_PAGE_BYTES + 10) + b"</p>"
    payload = zip_of({"bomba.html": bomb})
    assert len(payload) < 50_000  # small compressed, huge once read
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(payload)
    assert keys(refused.value) == ["umbria.problem.member_too_big"]


def test_too_many_pages_are_refused_before_reading_any(monkeypatch):
    monkeypatch.setattr(reader, "MAX_PAGES", 3)
    with pytest.raises(ArchiveProblems) as refused:
        read_umbria(fixture_zip())
    assert keys(refused.value) == ["umbria.problem.too_many_pages"]


def test_images_come_only_from_the_zip():
    page = (
        "<h3 id='escena'>Una</h3><div class='wrapMensaje'><div class='mensaje' id='msj1'>"
        "<img class='fotoAvatar' src='http://example.org/cara.png'>"
        "<div class='fecha'>01/01/2020, 10:00</div><div class='pj'>Ana</div>"
        "<div class='texto'><img src='../../secreto.png' alt='x'></div></div></div>"
    )
    game = read_umbria(zip_of({"a/una.html": page.encode(), "otra/cosa.png": b"\x89PNG"}))
    (only,) = game.scenes[0].posts
    assert only.avatar is None and only.images == () and game.missing_images == 2
    assert game.images == {}
