"""A real first game (issue 32, feature 3): the guided first deal at /learn, reached from the
lobby and from the table's Rules, played through to the deal's sheet with each step's cards
marked on the table (on a desktop each of the learner's moves made with the table's own
controls, on a phone with Next), Back and Leave; and the hint's cards marked at a real
table."""

from __future__ import annotations

from typing import Any

from browserkit import DESKTOP, PHONE, Seat, Server, create_in_lobby, new_page, serious

MARKED = """() => [...document.querySelectorAll('.lesson-mark')].map((el) => el.closest('#stock')
    ? 'stock' : `${el.closest('#hand, #pile, #melds')?.id}:${el.dataset.card}`)"""




def where(state: dict[str, Any], card: str) -> str:
    """Where ``card`` lies in a step's state: the hand, the pile or the melds."""
    if card in state["hand"]:
        return "hand"
    if card in state["pile"]:
        return "pile"
    assert any(card in meld["cards"] for meld in state["melds"]), card
    return "melds"


def test_the_first_game_played_through_to_the_sheet(web_server: Server, browser: Any) -> None:
    steps = web_server.get("/api/learn")["steps"]
    for size in (DESKTOP, PHONE):
        touch = size == PHONE
        context, page = new_page(browser, size, is_mobile=touch, has_touch=touch)
        seat = Seat(page, tap=touch)
        page.goto(web_server.url + "/")
        seat.press("#learn-link")
        page.wait_for_url("**/learn")
        for index, step in enumerate(steps):
            page.wait_for_selector(f"#lesson[data-step='{index}']")
            assert page.inner_text("#lesson-heading") == step["title"]
            state = step["state"]
            # The table is the step's: the hand, the pile and the melds as the server sent them.
            assert sorted(seat.hand()) == sorted(state["hand"])
            assert seat.pile() == state["pile"]
            expected = sorted("stock" if mark == "stock" else f"{where(state, mark)}:{mark}"
                              for mark in step["marks"])
            assert sorted(page.evaluate(MARKED)) == expected, step["title"]
            for line in step["said"]:
                assert line in page.inner_text("#lesson"), line
            if step["title"] == "A set":
                # Cards may be selected and sorted meanwhile: the marks stay on the cards.
                seat.press("#hand button.card[data-card='7c']")
                page.wait_for_selector("#hand button.card[data-card='7c'][aria-pressed='true']")
                seat.press("#sort-button")
                assert sorted(page.evaluate(MARKED)) == expected
                seat.press("#hand button.card[data-card='7c']")
            if index in (0, 7, len(steps) - 1):
                assert serious(page) == [], (size, step["title"])
                page.screenshot(path=f"/tmp/first-game-{size['width']}-{index}.png")
            if index < len(steps) - 1:
                words = page.inner_text("#lesson-next")
                mine = [made["move"] for made in steps[index + 1]["moves"] if made["seat"] == 0]
                assert words.startswith("Next") and (not mine or ":" in words), words
                # The table offers the lesson's move alone, none while Sam plays; another
                # move made with its controls is said not to be the lesson's.
                assert seat.legal() == mine
                if step["title"] == "Discard to end your turn" and size == DESKTOP:
                    seat.select(["2c"])
                    seat.press("#actions button[data-action='discard']")
                    page.wait_for_selector("#message .refusal")
                    assert "discard Q♠" in seat.message(), seat.message()
                    assert page.get_attribute("#lesson", "data-step") == str(index)
                    seat.clear()
                if mine and size == DESKTOP:
                    seat.play(mine[0])  # made with the table's own controls
                else:
                    seat.press("#lesson-next")
        # The last step: the deal's sheet, each line as the engine counted it.
        sheet = steps[-1]["state"]["deals"][0]
        shown = page.inner_text(".lesson-sheet")
        for line in sheet["lines"]:
            assert line["text"] in shown
        assert "+104" in shown and "−73" in shown and "-73" not in shown
        assert page.is_hidden("#lesson-next") and page.is_visible("#lesson-done")
        assert page.get_attribute("#lesson-leave", "href") == "/"
        # Back goes a step back, the table as it was then.
        seat.press("#lesson-back")
        page.wait_for_selector(f"#lesson[data-step='{len(steps) - 2}']")
        assert sorted(seat.hand()) == ["2c", "2d", "2s"]
        assert seat.problems.real() == []
        context.close()


def test_the_table_offers_the_first_game_and_the_hint_marks_its_cards(
        web_server: Server, browser: Any) -> None:
    context, page = new_page(browser, DESKTOP)
    seat = Seat(page)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=11)
    page.wait_for_selector("#game:not([hidden])")
    page.click("#rules-button")
    assert page.get_attribute("#rules-dialog .learn-offer a", "href") == "/learn"
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelector('#status.yours')", timeout=60_000)
    if "draw" in seat.legal():
        seat.play("draw")
    for _turn in range(2):  # a hint in the play phase means cards of the hand
        page.wait_for_function("() => document.querySelector('#status.yours')", timeout=60_000)
        page.click("#actions button[data-action='hint']")
        page.wait_for_selector("#message .hint[data-move]")
        move = page.get_attribute("#message .hint", "data-move") or ""
        words = move.split()
        cards = [w.split("/")[0] for w in words[1:] if not w.startswith("m")]
        marked = page.eval_on_selector_all(".hint-mark", """els => els.map(
            e => e.dataset.card || (e.closest('#stock') ? 'stock' : e.className))""")
        if words[0] == "draw":
            assert marked == ["stock"], marked
        else:
            for card in cards:
                assert card in marked, (move, marked)
            if words[0] == "layoff":
                assert len(marked) == 2, marked  # the card, and the meld
        assert "the hint means this" in (page.get_attribute(".hint-mark", "aria-label") or "")
        seq = seat.seq()
        page.click("#message .hint button")  # Play it: the marks go with the hint
        seat.wait_change(seq)
        assert page.query_selector(".hint-mark") is None
        if words[0] == "discard":
            break
    assert seat.problems.real() == []
    context.close()
