"""One custom-id scheme (cogs/ui/custom_ids.py): forms and items keyed by text keep the ids
already sitting in Discord, and no other code writes an ``arb:1:`` id by hand.
(The buttons keyed by integers: tests/bot/test_keyed_buttons.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cogs.help import MENU_ID, PAGE_ID
from cogs.post import EDIT_ID, POST_ID
from cogs.scenes import FORM_ID as SCENE_FORM
from cogs.ui.custom_ids import CustomId
from cogs.ui.views import CANCEL_ID, CONFIRM_ID
from cogs.ui.wizard import CHOOSE_ID
from cogs.ui.wizard import FORM_ID as WIZARD_FORM

REPO = Path(__file__).resolve().parents[2]

# literal ids as the code built them before the scheme, and what each must read
OLD_IDS: list[tuple[CustomId, str, dict[str, str]]] = [
    (POST_ID, "arb:1:post:55:p:0:0", {"who": "55", "mode": "p", "to": "0", "chan": "0"}),
    (POST_ID, "arb:1:post:n:g:7:9", {"who": "n", "mode": "g", "to": "7", "chan": "9"}),
    (POST_ID, "arb:1:post:a:n:0:12", {"who": "a", "mode": "n", "to": "0", "chan": "12"}),
    (EDIT_ID, "arb:1:postedit:41:3", {"post": "41", "version": "3"}),
    (WIZARD_FORM, "arb:1:wizform:3:4", {"draft": "3", "version": "4"}),
    (CHOOSE_ID, "arb:1:wiz:choose:3:4:raza", {"draft": "3", "version": "4", "step": "raza"}),
    (MENU_ID, "arb:1:help:menu:2", {"number": "2"}),
    (PAGE_ID, "arb:1:help:page:1:sheet show", {"page": "1", "topic": "sheet show"}),
    (SCENE_FORM, "arb:1:scene:open:0123456789abcdef", {"token": "0123456789abcdef"}),
]


@pytest.mark.parametrize(("scheme", "custom_id", "fields"), OLD_IDS)
def test_an_id_already_sent_reads_back_and_is_built_the_same(scheme, custom_id, fields):
    assert scheme.parse(custom_id) == {"action": "", **fields}
    assert scheme.build(*fields.values()) == custom_id
    others = [other for other, _, _ in OLD_IDS if other is not scheme]
    assert all(other.parse(custom_id) is None for other in others), "one reader per id"


def test_a_post_form_with_several_recipients_reads_back():
    """/post's form since private threads take several members (issue 24 §2): action ``2``,
    the recipients and the channel in base 36."""
    custom_id = "arb:1:post2:55:p:1a.zz:3f"
    fields = {"who": "55", "mode": "p", "to": "1a.zz", "chan": "3f"}
    assert POST_ID.parse(custom_id) == {"action": "2", **fields}
    assert POST_ID.build(*fields.values(), action="2") == custom_id


def test_what_cannot_be_read_back_is_never_built():
    with pytest.raises(ValueError):
        POST_ID.build("x", "p", 0, 0)
    with pytest.raises(ValueError):
        EDIT_ID.build(41)
    assert EDIT_ID.parse("arb:1:postedit:41:3:9") is None
    assert (CONFIRM_ID, CANCEL_ID) == ("arb:1:confirm", "arb:1:cancel")


def test_no_custom_id_is_written_by_hand():
    """Every ``arb:1:`` string in code comes from a CustomId (docstrings may show the layout)."""
    found = []
    for path in [*(REPO / "cogs").rglob("*.py"), *(REPO / "bot").rglob("*.py")]:
        if path.name == "custom_ids.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        }
        found += [
            f"{path.relative_to(REPO)}:{node.lineno}"
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and "arb:1:" in node.value
            and id(node) not in docstrings
        ]
    assert found == []
