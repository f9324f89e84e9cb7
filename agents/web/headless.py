"""The board without a person: the app served by uvicorn in a thread on a free port of
127.0.0.1, and headless Chromium driven by Selenium (Debian's ``chromium`` and
``chromium-driver``), for the browser tests and ``examples/board_screenshots.py``."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
MISSING = (
    ""
    if CHROMIUM and CHROMEDRIVER
    else "headless Chromium is missing: apt-get install -y chromium chromium-driver (Debian's packages)"
)


@contextlib.contextmanager
def served(app):
    """``app`` served on http://127.0.0.1:PORT/ while the block runs; yields the base address."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def chromium(download_dir: str):
    """Headless Chromium that saves downloads into ``download_dir``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1100"):
        options.add_argument(argument)
    options.add_experimental_option(
        "prefs", {"download.default_directory": download_dir, "download.prompt_for_download": False}
    )
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
