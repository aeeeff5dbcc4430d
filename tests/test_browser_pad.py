"""The score pad page (/pad) in Chromium on a 360x740 touch screen: whole games the engine
played (a partnership game of several deals, a Persian game) entered by tapping their cards,
the totals after every deal equal to the engine's, the taps of a four-player deal counted; a
half-entered deal kept across a reload; and, with the network cut, the page reloaded from its
service worker scoring an imported pad of every preset as the engine does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import DESKTOP, PHONE, Problems, Server, new_page, serious
from padkit import ace_place_unknown, pad_of_game
from rummy500.pad import pad_from_json
from rummy500.pad_score import score_pad
from rummy500.pad_tables import pad_tables
from rummy500.rules import PRESETS, make_rules
from rummy500.session.pad_sheets import pad_summary
from serverkit import Servers
from test_pad import played

TOUCH = {"has_touch": True, "is_mobile": True}


class Scorekeeper:
    """A person with the pad on a phone: taps, and counts them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.problems = Problems(page)

    def tap(self, selector: str) -> None:
        self.page.tap(selector)
        self.taps += 1

    def start(self, server: Server, preset: str, names: list[str]) -> None:
        page = self.page
        page.goto(server.url + "/pad")
        page.wait_for_selector("body[data-ready=yes]")
        self.tap("#new-pad")
        page.wait_for_selector("#name-0")
        page.select_option("#preset", preset)
        page.select_option("#count", str(len(names)))
        for seat, name in enumerate(names):
            page.fill(f"#name-{seat}", name)
        self.tap("#setup-form button[type=submit]")
        page.wait_for_selector("#deal-editor:not([hidden])")

    def target(self, selector: str) -> None:
        """Tap where the next cards go, unless they go there already."""
        if self.page.get_attribute(selector, "aria-pressed") != "true":
            self.tap(selector)

    def card(self, piece: str) -> None:
        """Tap one card of the grid (a wild joker: the joker, then the card it stands for)."""
        if piece.startswith("*="):
            self.tap("#card-joker")
            piece = piece[2:]
        self.tap("#card-joker" if piece == "*" else f"#card-{piece}")

    def enter_deal(self, deal: dict[str, Any], tables: dict[str, Any]) -> None:
        """Tap a deal written as the pad's file writes it: each seat's melds, then the
        lay-offs, then the hands; who went out only where the page's guess is wrong."""
        page = self.page
        page_meld: dict[int, int] = {}
        entered = 0
        for seat in range(len(deal["hands"])):
            mine = [(number, meld) for number, meld in enumerate(deal["melds"], 1)
                    if meld["seat"] == seat]
            if not mine:
                continue
            self.target(f"#target-meld-{seat}")
            last: list[str] = []
            for number, meld in mine:
                cards = meld["cards"].split()
                if last and could_grow(tables, [*last, cards[0]]):
                    self.tap("#new-meld")
                for piece in cards:
                    self.card(piece)
                entered += 1
                page_meld[number] = entered
                last = cards
        for layoff in deal["layoffs"]:
            seat, on = layoff["seat"], page_meld[layoff["on"]]
            self.target(f"#target-meld-{seat}")
            self.tap(f"#entered button[aria-label='Lay off on meld {on} for "
                     f"{self.name(seat)}']")
            for piece in layoff["cards"].split():
                self.card(piece)
        for seat, hand in enumerate(deal["hands"]):
            if hand:
                self.target(f"#target-hand-{seat}")
                for piece in hand.split():
                    self.card(piece)
        want = "" if deal["went_out"] is None else str(deal["went_out"])
        if page.input_value("#went-out") != want:
            self.tap("#went-out")
            page.select_option("#went-out", want)
        assert page.inner_text("#problems") == "", page.inner_text("#problems")
        self.tap("#deal-done")

    def name(self, seat: int) -> str:
        label: str = self.page.evaluate(
            "seat => document.querySelectorAll('.target-row')[seat].getAttribute('aria-label')",
            seat)
        return label

    def totals(self) -> list[int]:
        values: list[str] = self.page.eval_on_selector_all(
            "#totals li", "els => els.map(e => e.dataset.total)")
        return [int(value) for value in values]


def could_grow(tables: dict[str, Any], pieces: list[str]) -> bool:
    """Whether one meld of the tables holds all of ``pieces`` (the page would add the next
    card to the meld before: the scorekeeper taps New meld)."""
    faces = [piece.removeprefix("*=") for piece in pieces]
    return any(all(key.split().count(face) >= faces.count(face) for face in faces)
               for key in tables["melds"])


def engine_totals(pad: dict[str, Any]) -> list[list[int]]:
    read = pad_from_json(pad)
    return [deal["totals_after"] for deal in pad_summary(read, score_pad(read))["deals"]]


def whole_game(preset: str, seed: int) -> dict[str, Any]:
    for tries in range(seed, seed + 20):
        game = played(preset, {}, 4, tries)
        if game.finished and not ace_place_unknown(game):
            return pad_of_game(game, ["Ann", "Bob", "Cy", "Di"])
    raise AssertionError("no finished game")  # pragma: no cover


def play_in(keeper: Scorekeeper, pad: dict[str, Any]) -> None:
    tables = pad_tables(make_rules(pad["rules"]["preset"], **pad["rules"]["options"]), 4)
    expected = engine_totals(pad)
    for index, deal in enumerate(pad["deals"]):
        keeper.enter_deal(deal, tables)
        keeper.page.wait_for_function(
            "n => document.querySelectorAll('#deals li').length === n", arg=index + 1)
        assert keeper.totals() == expected[index], f"after deal {index + 1}"


def test_a_partnership_game_entered_by_taps_on_a_phone(web_server: Server,
                                                        browser: Any) -> None:
    context, page = new_page(browser, PHONE, **TOUCH)
    keeper = Scorekeeper(page)
    pad = whole_game("partnership", 21)  # a game of three deals, the fewest of the seeds
    assert len(pad["deals"]) >= 3
    keeper.start(web_server, "partnership", ["Ann", "Bob", "Cy", "Di"])
    play_in(keeper, pad)
    assert not page.is_hidden("#game-end")
    read = pad_from_json(pad)
    game = score_pad(read)
    winner = ["Ann & Cy", "Bob & Di"][game.winner] if game.winner is not None else "a draw"
    assert winner in page.inner_text("#winner")
    assert serious(page) == []
    # Any past deal opens in one tap, and a change is logged and followed by the totals.
    keeper.tap("#deals li:first-child button")
    page.wait_for_selector("#deal-heading:text('changing')")
    assert keeper.problems.real() == []
    context.close()


def test_a_persian_game_entered_by_taps_on_a_phone(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, PHONE, **TOUCH)
    keeper = Scorekeeper(page)
    pad = whole_game("persian", 3)
    keeper.start(web_server, "persian", ["Ann", "Bob", "Cy", "Di"])
    play_in(keeper, pad)
    assert not page.is_hidden("#game-end")
    assert serious(page) == []
    assert keeper.problems.real() == []
    context.close()


FOUR_PLAYER_DEAL: dict[str, Any] = {
    "dealer": 0, "went_out": 2,
    "melds": [{"seat": 0, "cards": "7h 7d 7s"}, {"seat": 0, "cards": "2c 3c 4c"},
              {"seat": 1, "cards": "9h 9d 9c"}, {"seat": 1, "cards": "Ts Js Qs"},
              {"seat": 2, "cards": "3h 4h 5h"}, {"seat": 2, "cards": "Jd Jh Jc"},
              {"seat": 3, "cards": "Qh Qd Qc"}, {"seat": 3, "cards": "6c 7c 8c"}],
    "layoffs": [], "hands": ["Kd", "5d 6s", "", "2d 3s"], "points": [None] * 4}


def test_a_four_player_deal_in_about_thirty_taps_kept_across_a_reload(
        web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, PHONE, **TOUCH)
    keeper = Scorekeeper(page)
    keeper.start(web_server, "partnership", ["Ann", "Bob", "Cy", "Di"])
    tables = pad_tables(PRESETS["partnership"], 4)
    keeper.taps = 0
    keeper.enter_deal(FOUR_PLAYER_DEAL, tables)
    taps = keeper.taps
    cards = sum(len(m["cards"].split()) for m in FOUR_PLAYER_DEAL["melds"]) + 5
    print(f"a four-player deal of two melds each and {5} cards left: {taps} taps "
          f"({cards} of them cards)")
    assert taps <= 36
    pad = {"format": "rummy500-pad", "version": 1,
           "rules": {"preset": "partnership", "options": {}},
           "players": ["Ann", "Bob", "Cy", "Di"], "deals": [FOUR_PLAYER_DEAL]}
    assert keeper.totals() == engine_totals(pad)[0]
    # Half a deal entered, then the page reloaded: nothing is lost.
    keeper.tap("#card-Ah")
    keeper.tap("#card-2h")
    page.reload()
    page.wait_for_selector("#deal-editor:not([hidden])")
    assert "A♥" in page.inner_text("#entered") and "2♥" in page.inner_text("#entered")
    assert keeper.totals() == engine_totals(pad)[0]
    # The next card goes on where the last one went: the meld is whole, nothing is wrong.
    keeper.tap("#card-3h")
    assert page.locator("#entered .meld-entry").count() == 1
    assert page.inner_text("#problems") == ""
    # A mistake is caught while entering, with the reason in words.
    keeper.tap("#card-Ah")
    assert "Ah is already used (meld 1 by Ann), and the pack holds it once" in page.inner_text(
        "#message")
    keeper.tap("#undo")
    assert "3♥" not in page.inner_text("#entered") and "2♥" in page.inner_text("#entered")
    assert serious(page) == []
    context.close()


def test_offline_the_page_scores_every_preset_as_the_engine(
        servers: Servers, browser: Any, tmp_path: Path) -> None:
    server = servers.start(f"sqlite:///{tmp_path / 'tables.db'}")  # its own, to be stopped
    context, page = new_page(browser, PHONE, **TOUCH)
    page.goto(server.base + "/pad")
    page.wait_for_selector("body[data-ready=yes]")
    page.wait_for_selector("body[data-warm=yes]", timeout=60_000)
    server.stop()
    page.reload()
    page.wait_for_selector("body[data-ready=yes]")
    checked = 0
    for preset, rules in PRESETS.items():
        players = 4 if rules.partnership else 3
        for seed in range(2):
            game = played(preset, {}, players, seed)
            if ace_place_unknown(game):  # pragma: no cover - very rare
                continue
            names = ["Ann", "Bob", "Cy", "Di"][:players]
            pad = pad_of_game(game, names)
            path = tmp_path / f"{preset}-{seed}.json"
            path.write_text(json.dumps(pad))
            page.click("#home-link")
            page.set_input_files("#import-file", str(path))
            page.wait_for_selector("#game:not([hidden])")
            expected = engine_totals(pad)
            shown = page.eval_on_selector_all("#totals li", "els => els.map(e => +e.dataset.total)")
            assert shown == (expected[-1] if expected else [0] * len(shown)), (preset, seed)
            checked += 1
    assert checked >= 10
    context.close()


def test_a_past_deal_changed_and_logged_undo_files_keyboard_and_play_again(
        web_server: Server, browser: Any, tmp_path: Path) -> None:
    context, page = new_page(browser, DESKTOP, color_scheme="dark", accept_downloads=True)
    problems = Problems(page)
    game = played("classic", {}, 2, 5)
    pad = pad_of_game(game, ["Ann", "Bob"])
    pad["deals"] = pad["deals"][:2]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(pad))
    page.goto(web_server.url + "/pad")
    page.wait_for_selector("body[data-ready=yes]")
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector("#game:not([hidden])")

    def shown() -> list[int]:
        totals: list[int] = page.eval_on_selector_all(
            "#totals li", "els => els.map(e => +e.dataset.total)")
        return totals

    assert shown() == engine_totals(pad)[-1]
    # Deal 1 opened in one click: a card of a hand taken back, saved, logged.
    seat = next(s for s, hand in enumerate(pad["deals"][0]["hands"]) if hand)
    first = pad["deals"][0]["hands"][seat].split()[0]
    page.click("#deals li:first-child button")
    page.wait_for_selector("#deal-heading:text('changing')")
    page.click(f"#entered li:nth-child({seat + 1}) .hand-entry button >> nth=0")
    page.click("#deal-done")
    changed = json.loads(json.dumps(pad))
    changed["deals"][0]["hands"][seat] = " ".join(
        pad["deals"][0]["hands"][seat].split()[1:])
    assert shown() == engine_totals(changed)[-1] != engine_totals(pad)[-1], first
    assert "deal 1 changed" in page.inner_text("#log")
    # Undo puts it back.
    page.click("#undo")
    assert shown() == engine_totals(pad)[-1]
    # The file saved is the pad, which the engine scores the same.
    with page.expect_download() as saved:
        page.click("#export-file")
    again = json.loads(Path(saved.value.path()).read_text())
    assert engine_totals(again) == engine_totals(pad)
    with page.expect_download() as csv:
        page.click("#export-csv")
    rows = Path(csv.value.path()).read_text().splitlines()
    assert rows[0].startswith("deal,Ann score,Bob score") and len(rows) == 3
    assert rows[-1].endswith(",".join(str(t) for t in engine_totals(pad)[-1]))
    # The keyboard: a card chosen with Enter, the focus kept, Tab to the next card.
    page.focus("#card-Ah")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "card-Ah"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "card-2h"
    assert "A♥" in page.inner_text("#entered")
    assert serious(page) == []
    # A finished game: its winner and Play again with the same players.
    persian = whole_game("persian", 2)
    path = tmp_path / "persian.json"
    path.write_text(json.dumps(persian))
    page.click("#home-link")
    assert page.locator("#past-pads li").count() == 1
    page.set_input_files("#import-file", str(path))
    page.wait_for_selector("#game-end:not([hidden])")
    assert "won the game" in page.inner_text("#winner") or "draw" in page.inner_text("#winner")
    assert shown() == engine_totals(persian)[-1]
    page.click("#play-again")
    page.wait_for_function("() => document.querySelectorAll('#deals li').length === 0")
    assert shown() == [0, 0]
    assert "Deal 1: Bob deals" in page.inner_text("#deal-heading")
    page.click("#home-link")
    assert page.locator("#past-pads li").count() == 3
    assert serious(page) == []
    assert problems.real() == []
    context.close()


def test_a_wild_joker_typed_cards_a_number_and_a_house_rule(web_server: Server,
                                                           browser: Any) -> None:
    context, page = new_page(browser, PHONE, **TOUCH)
    keeper = Scorekeeper(page)
    page.goto(web_server.url + "/pad")
    page.wait_for_selector("body[data-ready=yes]")
    assert serious(page) == []
    keeper.tap("#new-pad")
    page.wait_for_selector("#name-0")
    page.select_option("#preset", "wild")
    page.select_option("#count", "3")
    for seat, name in enumerate(["Ann", "Bob", "Cy"]):
        page.fill(f"#name-{seat}", name)
    page.select_option("#first-dealer", "2")
    keeper.tap(".house-rules summary")
    page.fill("#option-target_score", "300")
    assert serious(page) == []
    keeper.tap("#setup-form button[type=submit]")
    page.wait_for_selector("#deal-editor:not([hidden])")
    assert "to 300" in page.inner_text("#pad-rules")
    assert "Deal 1: Cy deals" in page.inner_text("#deal-heading")
    # Ann: 5h, a joker as 6h, 7h; the joker asks what it stands for.
    keeper.card("5h")
    keeper.tap("#card-joker")
    assert "stands for" in page.inner_text("#target-words")
    keeper.tap("#card-6h")
    keeper.card("7h")
    assert "🃏6♥" in page.inner_text("#entered")
    # Bob's cards typed, a wrong word refused in words.
    keeper.tap("#target-meld-1")
    page.fill("#type-cards", "Qs Qd Zz")
    page.click("#type-form button")
    assert '"Zz" is not a card' in page.inner_text("#message")
    page.fill("#type-cards", "Qs Qd Qc")
    page.click("#type-form button")
    keeper.tap("#target-hand-1")
    keeper.card("*")  # a wild joker left in hand stands for nothing: no question
    assert "🃏" in page.inner_text("#entered li:nth-child(2) .hand-entry")
    keeper.tap(".points-box summary")
    page.fill("#points input[data-seat='2']", "-12")
    page.dispatch_event("#points input[data-seat='2']", "change")
    page.select_option("#went-out", "0")
    deal = {"dealer": 2, "went_out": 0,
            "melds": [{"seat": 0, "cards": "5h *=6h 7h"}, {"seat": 1, "cards": "Qs Qd Qc"}],
            "layoffs": [], "hands": ["", "*", ""], "points": [None, None, -12]}
    pad = {"format": "rummy500-pad", "version": 1,
           "rules": {"preset": "wild", "options": {"target_score": 300}},
           "players": ["Ann", "Bob", "Cy"], "deals": [deal]}
    assert page.inner_text("#problems") == ""
    keeper.tap("#deal-done")
    page.wait_for_function("() => document.querySelectorAll('#deals li').length === 1")
    assert keeper.totals() == engine_totals(pad)[0]
    assert serious(page) == []
    # The names are remembered for the next pad.
    page.click("#home-link")
    keeper.tap("#new-pad")
    page.wait_for_selector("#name-0")
    assert [page.input_value(f"#name-{seat}") for seat in range(2)] == ["Ann", "Bob"]
    assert keeper.problems.real() == []
    context.close()


def test_a_second_browser_follows_a_shared_pad_live(web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, PHONE, **TOUCH)
    keeper = Scorekeeper(page)
    keeper.start(web_server, "partnership", ["Ann", "Bob", "Cy", "Di"])
    keeper.tap("#share")
    page.wait_for_selector("#share-box:not([hidden]) svg.qr path")
    link = page.get_attribute("#share-link", "href")
    assert link is not None and "/pad#follow=" in link
    follower_context, follower = new_page(browser, PHONE, **TOUCH)
    follower.goto(link)
    follower.wait_for_selector("#follow:not([hidden]) #follow-totals li")
    assert follower.is_hidden("#deal-editor") and follower.locator("#grid button").count() == 0
    tables = pad_tables(PRESETS["partnership"], 4)
    keeper.enter_deal(FOUR_PLAYER_DEAL, tables)
    pad = {"format": "rummy500-pad", "version": 1,
           "rules": {"preset": "partnership", "options": {}},
           "players": ["Ann", "Bob", "Cy", "Di"], "deals": [FOUR_PLAYER_DEAL]}
    totals = engine_totals(pad)[0]
    follower.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('#follow-totals li')]"
        ".map(e => +e.dataset.total)) === want", arg=json.dumps(totals, separators=(",", ":")))
    assert "Deal 1: Ann & Cy" in follower.inner_text("#follow-deals")
    assert serious(follower) == []
    assert serious(page) == []
    follower_context.close()
    context.close()
