"""Every rule id the project documents is cited by a test, or documented as having no behaviour.

The rule ids are read from the project's own rules pages, ``docs/rules/<game>.md`` (never from
the reference material outside the repository): every ``G-``, ``SW-``, ``DG-`` or ``RB-`` id of
the form ``<prefix>-<section>.<number>`` in a game's page, with the page's own prefix. A test
cites an id by writing it (``RB-6.18`` in a name, docstring, comment or message; not as a part
of a longer id) or by a test-name form (``test_rb_6_18_...``, ``test_G_3_3_...``: the prefix in
any case, the numbers joined by ``_``). An id without behaviour to test (a component list, a
variant that is the base game) is listed instead in its page's section "Rules with no
behaviour to test" as a line ``- **<id>** no behaviour: <why>``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
TESTS = ROOT / "tests"
#: each rules page and the prefix of its rule ids
PAGES = {"garda3.md": "G", "scratch_wars.md": "SW", "dirt_and_glory.md": "DG",
         "rust_brawl.md": "RB", "leduc_holdem.md": "LH"}
NO_BEHAVIOUR = "## Rules with no behaviour to test"


def documented_ids(page: str) -> list[str]:
    """The rule ids of ``docs/rules/<page>`` (its own prefix), in first-seen order."""
    prefix = PAGES[page]
    text = (RULES / page).read_text(encoding="utf-8")
    found = re.findall(rf"(?<![A-Za-z]){prefix}-\d+\.\d+(?![\d])", text)
    return list(dict.fromkeys(found))


def no_behaviour_ids(page: str) -> dict[str, str]:
    """Id -> reason of the page's "Rules with no behaviour to test" section."""
    text = (RULES / page).read_text(encoding="utf-8")
    if NO_BEHAVIOUR not in text:
        return {}
    section = text.split(NO_BEHAVIOUR, 1)[1].split("\n## ", 1)[0]
    return {m.group(1): m.group(2).strip() for m in
            re.finditer(r"^- \*\*([A-Z]+-\d+\.\d+)\*\* no behaviour: (.+)$", section, re.M)}


def _tests_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("*.py"))
                     if p.name != Path(__file__).name)


def cited(rule_id: str, text: str) -> bool:
    """Whether ``text`` cites ``rule_id`` as written or in the test-name form."""
    prefix, number = rule_id.split("-")
    section, item = number.split(".")
    written = rf"(?<![A-Za-z]){re.escape(rule_id)}(?![\d])"
    named = rf"(?<![A-Za-z0-9]){prefix}_{section}_{item}(?![\d])"
    return bool(re.search(written, text) or re.search(named, text, re.I))


def test_the_rules_pages_document_rule_ids():
    counts = {page: len(documented_ids(page)) for page in PAGES}
    assert all(n >= 15 for n in counts.values()), counts
    # the ids of the issue that found them uncited, among others
    for rule_id in ("G-1.2", "G-3.3", "G-7.5", "SW-1.2", "SW-6.1", "DG-1.1", "DG-1.3", "RB-1.3",
                    "RB-3.4", "RB-6.18"):
        page = next(p for p, pre in PAGES.items() if rule_id.startswith(pre + "-"))
        assert rule_id in documented_ids(page), rule_id


def test_the_citation_form_is_exact():
    assert cited("RB-6.1", "RB-6.1: damage") and not cited("RB-6.1", "RB-6.13 only")
    assert not cited("G-1.2", "DG-1.2 territories") and cited("G-1.2", "def test_G_1_2_x")
    assert cited("RB-6.18", "def test_rb_6_18_immunity") and not cited("RB-6.1", "test_rb_6_18")


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_documented_rule_id_is_cited_by_a_test_or_has_no_behaviour(page):
    text = _tests_text()
    skipped = no_behaviour_ids(page)
    ids = documented_ids(page)
    assert set(skipped) <= set(ids), f"docs/rules/{page}: no-behaviour ids it does not document"
    for rule_id, why in skipped.items():
        assert len(why) >= 20, f"docs/rules/{page}: {rule_id} needs a reason"
    missing = [i for i in ids if i not in skipped and not cited(i, text)]
    assert not missing, (f"docs/rules/{page}: rule ids no test cites (cite them in a test, or "
                         f"list them under {NO_BEHAVIOUR!r} with the reason): {missing}")
