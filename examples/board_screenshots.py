"""Screenshots of every game's browser board at a mid-game position, for docs/play.md.

    python examples/board_screenshots.py [--out docs/images] [--games nex,odoku]

Serves the board (``agents.web``, extra ``web``) on a free local port, saves the game list
as ``board_games.png``, opens each game in headless Chromium (Debian's ``chromium`` and
``chromium-driver``) on the board its page opens with, lets ``random`` play both seats for a
number of turns from seed 0, and saves the board with its notes as ``board_GAME.png`` (a
small palette PNG); Nex 5x5 is saved once more with the analysis overlay
(``board_analysis.png``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from PIL import Image

from agents.web.headless import MISSING, chromium, served
from agents.web.server import make_app
from envs import GAMES

TURNS = {  # random turns before the picture, about half of a game at the default size
    "odoku": 12,
    "nex": 25,
    "neumoku": 40,
    "neuversi": 20,
    "adneuversi": 20,
    "neuy": 25,
    "hex": 45,
    "gomoku": 60,
    "reversi": 30,
    "y": 35,
    "sudoku_moyo": 20,
    "amazons": 30,
    "progressive_amazons": 10,
    "hexxagon": 20,
    "hexxagon_1344": 8,
    "send_it": 20,
    "biqala": 20,
    "push_go": 30,
    "hop_chess": 20,
    "four_way_walls": 20,
    "biversi": 16,
    "blockdance": 60,
}


def wait(condition, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the page did not answer")
        time.sleep(0.05)


def views(driver) -> int:
    return int(driver.execute_script("return Number(document.body.dataset.views || 0)"))


def open_game(driver, base: str, name: str, seats: tuple[str, str], params: dict | None = None) -> None:
    driver.get(f"{base}/play/{name}")
    wait(lambda: driver.execute_script("return document.body.dataset.ready") == "true")
    for key, value in (params or {}).items():
        driver.execute_script(f"document.querySelector(\"#params input[name='{key}']\").value = '{value}'")
    for seat, spec in enumerate(seats):
        driver.execute_script(f"document.getElementById('seat{seat}').value = '{spec}'")
    press(driver, "#new")


def press(driver, selector: str) -> None:
    before = views(driver)
    driver.find_element("css selector", selector).click()
    wait(lambda: views(driver) > before)


def save(element, path: Path) -> None:
    """A screenshot of ``element`` as a small PNG (a palette of 96 colours)."""
    element.screenshot(str(path))
    Image.open(path).convert("RGB").quantize(colors=96).save(path, optimize=True)


def main(argv: list[str] | None = None) -> list[Path]:
    """Save the screenshots; the paths written."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/images", help="folder for the PNG files (default docs/images)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games (default: all)")
    args = parser.parse_args(argv)
    if MISSING:
        parser.error(MISSING)
    out, written = Path(args.out), []
    out.mkdir(parents=True, exist_ok=True)
    with served(make_app()) as base:
        driver = chromium(str(out))
        try:
            driver.set_window_size(1400, 1500)  # the whole list in the window
            driver.get(f"{base}/")
            wait(lambda: driver.execute_script("return document.body.dataset.ready") == "true")
            path = out / "board_games.png"
            save(driver.find_element("css selector", "#games"), path)
            written.append(path)
            print(path)
            driver.set_window_size(1400, 1100)
            for name in args.games.split(","):
                if name not in GAMES:
                    parser.error(f"unknown game {name!r}; the games are {', '.join(GAMES)}")
                open_game(driver, base, name, ("random", "random"))
                for _ in range(TURNS[name]):
                    if driver.execute_script("return document.getElementById('status').dataset.over") == "true":
                        break
                    press(driver, "#step")
                path = out / f"board_{name}.png"
                save(driver.find_element("css selector", "#left"), path)
                written.append(path)
                print(path)
            open_game(driver, base, "nex", ("human", "random"), {"size": 5})
            for cell in ("c3", "b4"):  # a drop: the stone on c3, the neutral on b4; random answers
                press(driver, f'.cell[data-cell="{cell}"]')
            driver.execute_script("document.getElementById('analyst').value = 'mcts:400'")
            driver.find_element("css selector", "#analyse").click()
            wait(lambda: driver.find_elements("css selector", "#analysis-moves tr[data-share]"))
            path = out / "board_analysis.png"
            save(driver.find_element("css selector", "#layout"), path)
            written.append(path)
            print(path)
        finally:
            driver.quit()
    return written


if __name__ == "__main__":
    main()
