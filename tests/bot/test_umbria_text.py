"""Umbría's post bodies as Discord Markdown, and rolls read from their visible text (pure)."""

from __future__ import annotations

import pytest

from bot.services.chronicle.umbria.markdown import html_to_markdown
from bot.services.chronicle.umbria.pages import read_rolls


@pytest.mark.parametrize(
    ("html", "markdown"),
    [
        ("<b>negrita</b> y <strong>fuerte</strong>", "**negrita** y **fuerte**"),
        ("<i>cursiva</i> <em>énfasis</em>", "*cursiva* *énfasis*"),
        ("<u>sub</u> <strike>tachado</strike> <s>s</s>", "__sub__ ~~tachado~~ ~~s~~"),
        ("<b> con espacios </b>fin", "**con espacios** fin"),
        ("<em><strong>las dos</strong></em>", "***las dos***"),
        ("caf&eacute; &amp; t&eacute; &lt;3", "café & té <3"),
        ("<blockquote><p>uno</p><p>dos</p></blockquote>", "> uno\n>\n> dos"),
        ("<p>a</p>\n\n<p>b</p>", "a\n\nb"),
        ("línea<br>otra<br/>y otra", "línea\notra\ny otra"),
        ("<ul><li>a</li><li>b<br>c</li></ul>", "- a\n- b\n  c"),
        ("<ol><li>a</li><li>b</li></ol>", "1. a\n2. b"),
        ("<h4>Título</h4>texto", "**Título**\n\ntexto"),
        ("2*3*4 y _x_ y `c` y ||s||", "2\\*3\\*4 y \\_x\\_ y \\`c\\` y \\|\\|s\\|\\|"),
        ("ver https://example.org/a_b_c ya", "ver https://example.org/a_b_c ya"),
        ('<a href="https://example.org/x">aquí</a>', "[aquí](https://example.org/x)"),
        ('<a href="https://example.org/x">https://example.org/x</a>', "https://example.org/x"),
        ('<a href="/partida/1/2">relativo</a>', "relativo"),
        ('<a href="javascript:alert(1)">js</a>', "js"),
        ("<script>alert(1)</script><style>p{}</style>nada", "nada"),
        ("<!-- comentario -->visible", "visible"),
        ("<pre>  a  b\n c</pre>", "```\n  a  b\n c\n```"),
        ("<code>x*y</code>", "`x*y`"),
        ("<hr>", "———"),
        ('<span style="color:red">rojo</span>', "rojo"),
    ],
)
def test_html_becomes_discord_markdown(html, markdown):
    assert html_to_markdown(html) == markdown


def test_a_table_is_text_in_a_code_block():
    html = "<table><tr><th>A</th><th>Bbb</th></tr><tr><td>1</td></tr><tr><td>22</td><td>3</td></tr></table>"
    assert html_to_markdown(html) == "```\nA  | Bbb\n---+----\n1\n22 | 3\n```"


def test_deep_nesting_is_read_as_text_not_recursed():
    html = "<span>" * 5000 + "hondo *x*" + "</span>" * 5000
    assert html_to_markdown(html) == "hondo \\*x\\*"


@pytest.mark.parametrize(
    ("text", "rolls"),
    [
        (
            "Tirada: 1d100(+31)\nMotivo: Acechar\nResultado: 74(+31)=105",
            [("1d100+31", "Acechar", (74,), 105)],
        ),
        (
            "Tirada: 1d100(+31) / Motivo: Acechar / Resultado: 74(+31)=105",
            [("1d100+31", "Acechar", (74,), 105)],
        ),
        (
            "Tirada: 2d10 / Motivo: Iniciativa / Resultados: 10, 5",
            [("2d10", "Iniciativa", (10, 5), 15)],
        ),
        ("Tirada:\n1d20\nResultado:\n7", [("1d20", None, (7,), 7)]),
        ("Tirada: 1d6(-1) Resultado: 1(-1)=0", [("1d6-1", None, (1,), 0)]),
        ("tirada: 3D6 motivo: daño resultados: 1; 2; 3", [("3d6", "daño", (1, 2, 3), 6)]),
        (
            "Tirada: 1d20 / Resultado: 3\nAldara\nTirada: 1d4 / Motivo: Daño / Resultado: 2",
            [("1d20", None, (3,), 3), ("1d4", "Daño", (2,), 2)],
        ),
        ("Sin tiradas aquí.", []),
    ],
)
def test_rolls_are_read_from_their_visible_text(text, rolls):
    found, problem = read_rolls(text)
    assert problem is None
    assert [(r.expression, r.reason, r.dice, r.total) for r in found] == rolls


@pytest.mark.parametrize(
    "text",
    [
        "Tirada: 1d20 / Resultado: 25",  # more than the die has
        "Tirada: 1d20 / Motivo: nada",  # no result
        "Tirada: 2d10 / Resultados: 10",  # one die of two
        "Tirada: 1d100(+31) / Resultado: 74(+31)=104",  # the total does not add up
        "Tirada: 1d100(+31) / Resultado: 74(+5)=79",  # another modifier than the roll's
        "Tirada: 1o3d10 / Resultado: 7",  # not Umbría's notation
        "Tirada: 1d20+5 / Resultado: 7",
    ],
)
def test_a_roll_that_cannot_be_read_is_reported(text):
    found, problem = read_rolls(text)
    assert found == [] and problem is not None and problem.startswith("Tirada:")
