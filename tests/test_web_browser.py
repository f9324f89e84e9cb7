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

from agents.web.players import PlayerSource  # noqa: E402
from agents.web.server import make_app  # noqa: E402
from agents.web.session import Session  # noqa: E402
from envs import GAMES, game_title
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
    "connect_four": {"columns": 4, "rows": 4},
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


def ready(browser, base: str, page: str) -> None:
    browser.get(f"{base}{page}")
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what=page)


def set_param(browser, name: str, value) -> None:
    """Type ``value`` into a parameter's box, as a person does (the page hears the input)."""
    script(
        browser,
        "const box = document.querySelector(`#params input[name='${arguments[0]}']`); box.value = arguments[1];"
        "box.dispatchEvent(new Event('input', {bubbles: true}))",
        name,
        str(value),
    )


def text(browser, element_id: str) -> str:
    return script(browser, "return document.getElementById(arguments[0]).textContent", element_id)


def test_a_game_opens_against_its_zoo_network_which_plays_its_turns(browser, base):
    ready(browser, base, "/play/hex")
    assert script(browser, "return [0, 1].map(s => document.getElementById('seat' + s).value)") == ["human", "zoo"]
    assert text(browser, "opponent") == "Opponent: the zoo network for Hex (size 11): 100.0% vs mcts:1600"
    click(browser, '.cell[data-cell="f6"]')
    assert message(browser) == ""
    stones = [cell for cell, owner in owners(browser) if owner]
    assert len(stones) == 2 and "f6" in stones  # the network answered
    # the reply is the zoo player's own: a session of the same seed and seats replies the same
    source_session = Session("hex", {"size": 11}, ["human", "zoo"], PlayerSource(), seed=0)
    source_session.play(source_session.game.parse_turn(source_session.state, "f6")[0])
    assert script(browser, "return [...document.querySelectorAll('#turns li')].map(li => li.textContent)") == (
        source_session.turns()
    )
    # its value and planned line are on the page without a click
    thinking = browser.find_element("css selector", "#thinking")
    assert thinking.get_attribute("data-seat") == "1"
    line = thinking.get_attribute("data-pv").split(" ")
    assert line[0] == source_session.turns()[1] and len(line) > 1
    assert source_session.view()["thinking"]["pv"] == line
    shown = text(browser, "thinking")
    assert "zoo (seat 1), at the start of its last turn (" in shown and "value for Horizontal: " in shown

    set_param(browser, "size", 5)  # a board its network does not play: the strongest player at hand
    button = browser.find_element("css selector", "#zoo-board")
    assert button.text == "zoo's board: size 11"
    click(browser, "#new")
    assert script(browser, "return document.getElementById('seat1').value") == "mcts:400"
    assert text(browser, "opponent") == (
        "Opponent: the zoo network for Hex plays only size 11, not this board: "
        "mcts:400 (plain MCTS, 400 random rollouts a move) plays instead"
    )
    browser.find_element("css selector", "#zoo-board").click()  # back to its board: the network again
    assert not browser.find_elements("css selector", "#zoo-board")
    click(browser, "#new")
    assert script(browser, "return document.getElementById('seat1').value") == "zoo"


def test_a_game_whose_network_plays_another_board_opens_on_that_board(browser, base):
    size = "return document.querySelector(`#params input[name='size']`).value"
    options = "return [...document.querySelectorAll('#specs option')].map(o => o.value)"
    ready(browser, base, "/play/progressive_amazons")  # trained on 10x10, not the text's 19x19
    assert script(browser, size) == "10" and "zoo" in script(browser, options)
    labels = "return [...document.querySelectorAll('#specs option')].map(o => o.label)"
    assert "zoo (size 10)" in script(browser, labels)  # the sizes its network was trained on
    assert script(browser, "return document.getElementById('seat1').value") == "zoo"
    assert len(owners(browser)) == 100 and not browser.find_elements("css selector", "#zoo-board")
    set_param(browser, "size", 19)
    browser.find_element("css selector", "#zoo-board").click()
    assert script(browser, size) == "10"

    ready(browser, base, "/play/four_way_walls")  # its network also differs in a rule: two walls a side
    walls = "return document.querySelector(`#params input[name='walls']`).value"
    assert (script(browser, size), script(browser, walls)) == ("5", "2")
    assert len(owners(browser)) == 25 + 16  # its squares and wall points
    set_param(browser, "walls", 10)
    assert browser.find_element("css selector", "#zoo-board").text == "zoo's board: walls 2"

    ready(browser, base, "/play/hop_chess")  # no network: no zoo seat offered, the strongest player instead
    assert "zoo" not in script(browser, options)
    assert text(browser, "opponent").startswith("Opponent: Hop Chess has no zoo network: mcts:100 (plain MCTS")


def test_the_zoo_board_button_accepts_each_size_a_network_was_trained_on(browser, tmp_path, monkeypatch):
    from test_web_server import hex_of_sizes

    hex_of_sizes([7, 11], tmp_path, monkeypatch)
    size = "return document.querySelector(`#params input[name='size']`).value"
    labels = "return [...document.querySelectorAll('#specs option')].map(o => o.label)"
    with served(make_app()) as address:
        ready(browser, address, "/play/hex")  # the default size 11 is among its sizes
        assert script(browser, size) == "11" and "zoo (size 7, 11)" in script(browser, labels)
        set_param(browser, "size", 7)
        assert not browser.find_elements("css selector", "#zoo-board")
        click(browser, "#new")
        assert script(browser, "return document.getElementById('seat1').value") == "zoo"
        assert text(browser, "opponent") == "Opponent: the zoo network for Hex (sizes 7 and 11): 100.0% vs mcts:1600"
        set_param(browser, "size", 9)
        button = browser.find_element("css selector", "#zoo-board")
        assert button.text == "zoo's board: size 11"
        button.click()
        assert script(browser, size) == "11" and not browser.find_elements("css selector", "#zoo-board")


def test_the_games_are_listed_by_name_with_a_picture_and_their_networks_strength(browser, base):
    ready(browser, base, "/")
    games = script(
        browser,
        "return [...document.querySelectorAll('#games li')].map(li => [li.dataset.game, "
        "li.querySelector('.title').textContent, li.querySelector('.strength').textContent, "
        "li.querySelectorAll('svg.preview .cell').length])",
    )
    assert [(name, title) for name, title, _, _ in games] == [(name, game_title(name)) for name in GAMES]
    entries = {name: (strength, cells) for name, _, strength, cells in games}
    assert entries["biqala"][0] == "zoo network: 93.5% vs mcts:1600"
    assert entries["progressive_amazons"] == ("zoo network (size 10): 92.0% vs mcts:1600", 100)  # the board it opens on
    assert entries["hexxagon_1344"] == ("zoo network (sizes 5 and 9): 100.0% vs mcts:400", 217)  # the text's board
    assert entries["hop_chess"] == ("no zoo network: mcts:100 plays", 64)
    assert all(cells > 0 for _, cells in entries.values())
    assert browser.title == "neuzero: the games"
    browser.find_element("css selector", 'li[data-game="hop_chess"] a').click()
    wait(lambda: script(browser, "return document.body.dataset.ready") == "true", what="Hop Chess's page")
    assert browser.title == "Hop Chess: neuzero" and browser.find_element("css selector", "h1").text == "Hop Chess"


def test_hop_chess_draws_chess_figures_and_hoppers(browser, base):
    ready(browser, base, "/play/hop_chess")
    figures = script(
        browser,
        "return Object.fromEntries([...document.querySelectorAll('.cell')].filter(g => g.dataset.piece).map("
        "g => [g.dataset.cell, [g.dataset.owner, g.dataset.piece, g.querySelector('text.figure').textContent]]))",
    )
    assert figures["e1"] == ["white", "king", "\u265a"] and figures["d8"] == ["black", "queen", "\u265b"]
    assert figures["g1"][1:] == ["knight", "\u265e"] and figures["a7"][1] == "pawn"
    fills = script(
        browser,
        "return ['e1', 'e8'].map(c => document.querySelector(`.cell[data-cell='${c}'] text.figure`).getAttribute('fill'))",
    )
    assert fills[0] != fills[1]  # white and black apart
    open_game(browser, base, "hop_chess", {}, seats=("random", "random"))  # the hoppers come on in the opening
    for _ in range(4):
        click(browser, "#step")
    game, state = replay_record(_record(browser))
    squares = [square for square in state.pos.hoppers if square >= 0 and not state.pos.board[square]]
    assert squares  # both hoppers are placed in the opening; one may stand under a piece
    names = {cell.id: cell.name for cell in game.board_view(state).cells}
    drawn = script(
        browser,
        "return [...document.querySelectorAll('.cell[data-piece=\"hopper\"]')].map(g => [g.dataset.cell, "
        "g.dataset.owner, g.querySelectorAll('circle.hopper').length])",
    )
    colours = ("white", "black")
    assert sorted(drawn) == sorted([names[q], colours[state.pos.hoppers.index(q)], 2] for q in squares)


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
