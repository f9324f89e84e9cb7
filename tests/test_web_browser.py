"""The browser board in headless Chromium (Selenium): every game played to its end by clicks
against ``random``, its downloaded record replayed in the engine to the same result and on the
page with the slider; an illegal click shows the engine's message; the analysis overlay's
visit shares sum to one."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from agents.web.headless import MISSING, chromium, served

pytest.importorskip("starlette", reason="the web extra is not installed: pip install -e '.[web]'")

from agents.web.server import make_app  # noqa: E402
from envs.core import IllegalActionError
from envs.records import read_record, replay_record

pytestmark = [pytest.mark.browser, pytest.mark.skipif(bool(MISSING), reason=MISSING)]

# every game at a size where a game takes a few dozen clicks
SIZES = {
    "odoku": {},
    "nex": {"size": 4},
    "neumoku": {"size": 6},
    "neuversi": {"size": 4},
    "adneuversi": {"size": 4},
    "neuy": {"size": 4},
    "hex": {"size": 4},
    "gomoku": {"size": 6},
    "reversi": {"size": 4},
    "y": {"size": 4},
    "sudoku_moyo": {"givens": 40},
    "amazons": {"size": 5},
    "progressive_amazons": {"size": 5},
    "hexxagon": {"size": 3},
    "hexxagon_1344": {"size": 3},
    "send_it": {"size": 5},
    "biqala": {"outer_seeds": 1, "inner_seeds": 1},
    "push_go": {"size": 4},
    "hop_chess": {"max_turns": 4},
    "four_way_walls": {"size": 4, "walls": 2, "max_turns": 10},
    "biversi": {"size": 6},
    "blockdance": {"size": 6, "max_turns": 6},
}


def test_every_registered_game_is_played_here():
    from envs import GAMES

    assert set(SIZES) == set(GAMES), f"no browser size for {sorted(set(GAMES) - set(SIZES))}"


@pytest.fixture(scope="module")
def base():
    with served(make_app()) as address:
        yield address


@pytest.fixture(scope="module")
def downloads(tmp_path_factory):
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads):
    driver = chromium(str(downloads))
    yield driver
    driver.quit()


def wait(condition, timeout: float = 30.0, what: str = "the page"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def script(browser, code: str, *args):
    return browser.execute_script(code, *args)


def views(browser) -> int:
    return int(script(browser, "return Number(document.body.dataset.views || 0)"))


def open_game(browser, base: str, name: str, params: dict, seats=("human", "random")) -> None:
    browser.get(f"{base}/play/{name}")
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what=f"{name}'s page")
    for key, value in params.items():
        script(
            browser,
            "document.querySelector(`#params input[name='${arguments[0]}']`).value = arguments[1]",
            key,
            str(value),
        )
    script(browser, "document.getElementById('seat0').value = arguments[0]", seats[0])
    script(browser, "document.getElementById('seat1').value = arguments[0]", seats[1])
    click(browser, "#new")


def click(browser, selector: str) -> None:
    """Click ``selector`` and wait for the board to be drawn again."""
    before = views(browser)
    browser.find_element("css selector", selector).click()
    wait(lambda: views(browser) > before, what=f"the board after clicking {selector}")


def message(browser) -> str:
    return script(browser, "return document.getElementById('message').textContent")


def owners(browser) -> list[tuple[str, str]]:
    return script(browser, "return [...document.querySelectorAll('.cell')].map(g => [g.dataset.cell, g.dataset.owner])")


def play_by_clicks(browser, rng: np.random.Generator, limit: int = 400) -> int:
    """Click legal cells (a legal choice in the picker) and buttons until the game is over."""
    for clicks in range(limit):
        if script(browser, "return document.getElementById('status').dataset.over") == "true":
            return clicks
        targets = script(
            browser,
            "return [...document.querySelectorAll('.cell[data-legal=\"true\"]')].map(g => '.cell[data-id=\"' + "
            "g.dataset.id + '\"]').concat([...document.querySelectorAll('#turn-buttons button.legal')].map("
            "b => '#turn-buttons button[data-action=\"' + b.dataset.action + '\"]'))",
        )
        assert targets, f"no legal cell or button to click; the message is {message(browser)!r}"
        target = targets[int(rng.integers(len(targets)))]
        before = views(browser)
        browser.find_element("css selector", target).click()
        if script(browser, "return !document.getElementById('picker').hidden"):
            choices = browser.find_elements("css selector", "#picker button.legal")
            choices[int(rng.integers(len(choices)))].click()
        wait(lambda: views(browser) > before, what=f"the board after clicking {target}")
        assert message(browser) == ""
    raise AssertionError(f"the game did not end in {limit} clicks")


@pytest.mark.parametrize("name", sorted(SIZES))
def test_every_game_plays_to_the_end_by_clicks_and_its_record_replays(browser, base, downloads, name):
    open_game(browser, base, name, SIZES[name])
    clicks = play_by_clicks(browser, np.random.default_rng(sorted(SIZES).index(name)))
    assert clicks > 0
    result = script(browser, "return document.getElementById('status').dataset.result")
    final = owners(browser)

    for old in downloads.glob("*"):
        old.unlink()
    browser.find_element("css selector", "#download").click()
    record = wait(lambda: next((p for p in downloads.glob("*.txt")), None), what="the downloaded record")
    text = wait(lambda: Path(record).read_text() or None, what="the record's text")
    game, state = replay_record(text)
    assert game.info.name == name and game.is_terminal(state)
    assert game.result_text(state) == result
    assert read_record(text).params["game"] == name

    # the record on the slider: the start, then the final position again
    script(browser, "document.getElementById('record-text').value = arguments[0]", text)
    click(browser, "#open-record")
    status = script(browser, "return document.getElementById('replay-status').textContent")
    assert status.endswith(result) and owners(browser) == final
    turns = len(read_record(text).turns)
    before = views(browser)
    script(browser, "const s = document.getElementById('slider'); s.value = 0; s.dispatchEvent(new Event('input'))")
    wait(lambda: views(browser) > before, what="the start of the replay")
    start = game.board_view(game.initial_state())
    assert owners(browser) == [[cell.name, cell.owner] for cell in start.cells]
    for turn in range(1, turns + 1):
        click(browser, "#forward")
        assert script(browser, "return Number(document.getElementById('replay-status').dataset.turn)") == turn
    assert owners(browser) == final


def test_the_zoo_takes_a_seat_on_the_board_its_network_plays(browser, base):
    browser.get(f"{base}/play/nex")
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what="nex's page")
    options = "return [...document.querySelectorAll('#specs option')].map(o => o.value)"
    assert "zoo" in script(browser, options)
    assert not browser.find_elements("css selector", "#zoo-board")  # its network plays the default board

    browser.get(f"{base}/play/hexxagon_1344")
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what="the page")
    assert "zoo" in script(browser, options)
    labels = "return [...document.querySelectorAll('#specs option')].map(o => o.label)"
    assert "zoo (size 5)" in script(browser, labels)  # the sizes its network was trained on
    size = "return document.querySelector(`#params input[name='size']`).value"
    assert script(browser, size) == "9"
    button = browser.find_element("css selector", "#zoo-board")
    assert button.text == "zoo's board: size 5"
    button.click()
    assert script(browser, size) == "5"
    script(browser, "document.getElementById('seat1').value = 'zoo'")
    click(browser, "#new")
    assert message(browser) == "" and len(owners(browser)) == 61

    browser.get(f"{base}/play/four_way_walls")  # its network also differs in a rule: two walls a side
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what="the page")
    button = browser.find_element("css selector", "#zoo-board")
    assert button.text == "zoo's board: size 5, walls 2"
    button.click()
    walls = "return document.querySelector(`#params input[name='walls']`).value"
    assert (script(browser, size), script(browser, walls)) == ("5", "2")
    script(browser, "document.getElementById('seat1').value = 'zoo'")
    click(browser, "#new")
    assert message(browser) == "" and len(owners(browser)) == 25 + 16  # its squares and wall points

    browser.get(f"{base}/play/hop_chess")  # no network: no zoo seat offered
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what="the page")
    assert "zoo" not in script(browser, options)


def test_an_illegal_click_shows_the_engines_message(browser, base):
    open_game(browser, base, "hex", {"size": 4})
    click(browser, '.cell[data-cell="b2"]')  # Vertical's stone; random answers
    before = views(browser)
    browser.find_element("css selector", '.cell[data-cell="b2"]').click()
    wait(lambda: message(browser), what="the engine's message")
    assert views(browser) == before  # nothing was played
    game, state = replay_record(_record(browser))
    with pytest.raises(IllegalActionError) as refused:
        game.apply(state, 5)  # b2
    assert message(browser) == str(refused.value) == "b2: cell b2 is occupied"


def _record(browser) -> str:
    link = browser.find_element("css selector", "#download").get_attribute("href")
    return script(
        browser,
        "const r = new XMLHttpRequest(); r.open('GET', arguments[0], false); r.send(); return r.responseText",
        link,
    )


def test_the_analysis_overlay_shows_visit_shares_that_sum_to_one(browser, base):
    open_game(browser, base, "nex", {"size": 5})
    script(browser, "document.getElementById('analyst').value = 'mcts:60'")
    browser.find_element("css selector", "#analyse").click()
    rows = wait(lambda: browser.find_elements("css selector", "#analysis-moves tr[data-share]"), what="the analysis")
    shares = [float(row.get_attribute("data-share")) for row in rows]
    assert sum(shares) == pytest.approx(1.0) and max(shares) > 0
    heat = [
        float(share)
        for share in script(
            browser, "return [...document.querySelectorAll('.cell[data-share]')].map(g => g.dataset.share)"
        )
    ]
    assert sum(heat) == pytest.approx(1.0, abs=1e-5)  # Nex's actions are all on cells (no pie rule here)
    assert len(browser.find_elements("css selector", "#overlay .heat")) == len(heat)
    summary = script(browser, "return document.getElementById('analysis-summary').textContent")
    assert "search, 59 visits" in summary and "principal variation:" in summary and "value for Vertical" in summary
