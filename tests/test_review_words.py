"""Words of refusals and of the rules (issue 9, items 14 and 19): a text that names no card
says which word is not a card, a lay-off that fits no meld names the meld, and the rule that
ends an idle deal is told by ``rummy500 rules`` and the rules screen."""

from __future__ import annotations

import pytest

from helpers import deal_from_hands
from rummy500 import Game, make_rules
from rummy500.cli import main
from rummy500.session.words import rules_summary


def test_a_meld_of_words_that_are_no_cards_names_the_first_of_them() -> None:
    game = Game(seed=1)
    assert (game.why_illegal("meld 7x 8y") or "").startswith("'7x' is not a card")
    assert game.why_illegal("meld 7h 8h") == "'meld' names the three or more cards of the meld"


def test_a_lay_off_that_fits_no_meld_names_the_meld() -> None:
    game = deal_from_hands(make_rules("classic"),
                           ["7h 7d 7s 2c 4d 9c 3h 8d Jh Qc Ad 7c 5h", "..."], up="Kd")
    game.play("draw")
    game.play("meld 7h 7d 7s")
    assert game.why_illegal("layoff 2c m1") == "2♣ does not fit m1 (7♦ 7♥ 7♠)"


def test_rummy500_rules_tells_the_idle_deal_rule(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["rules"], ["rules", "wild"]):
        assert main(argv) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "so that no deal goes on for ever" in out
        assert "10 turns a player in a row with no card drawn from the stock" in out


def test_the_rules_screen_tells_the_idle_deal_rule() -> None:
    topics = dict(rules_summary(make_rules("classic"), 3))
    assert "after 30 turns (10 a player) in a row with no card drawn from the stock" in (
        topics["End of a deal"])


def test_the_readme_links_only_to_files_of_the_repository() -> None:
    """Issue 9, item 19: the README must not send a reader of a clone to ../shared/; the
    rules and the notation are docs/rules.md and docs/notation.md."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for page in (root / "README.md", root / "docs" / "rules.md", root / "docs" / "notation.md"):
        text = page.read_text(encoding="utf-8")
        links = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
        assert "../" not in text, page
        for link in links:
            assert (page.parent / link).resolve().is_relative_to(root), (page, link)
            assert (page.parent / link).exists(), (page, link)
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "(docs/rules.md)" in readme and "(docs/notation.md)" in readme
