"""A headless Chromium driven by Selenium, for the browser tests and the screenshots in docs/.

It uses the system's Chromium and chromedriver (Debian: ``apt-get install
chromium chromium-driver``); nothing is downloaded. The flags keep it from
reaching for the network, which it would otherwise wait for.

>>> with chromium() as driver:            # doctest: +SKIP
...     driver.get("http://127.0.0.1:8000/")
"""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars"]
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver",)


def on_path(names: Iterable[str]) -> str | None:
    """The path of the first of the programs `names` found on PATH (None if none is)."""
    return next((path for path in map(shutil.which, names) if path), None)


def missing() -> str | None:
    """Why a browser cannot be driven here (None if it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'naipes[e2e]')"
    if on_path(BROWSERS) is None:
        return "no Chromium on PATH (apt-get install chromium)"
    if on_path(DRIVERS) is None:
        return "no chromedriver on PATH (apt-get install chromium-driver)"
    return None


@contextmanager
def chromium(width: int = 1400, height: int = 900, flags: Iterable[str] = ()) -> Iterator[Any]:
    """A Selenium driver of a fresh headless Chromium (its own profile, removed afterwards), with more `flags`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    browser, driver_path = on_path(BROWSERS), on_path(DRIVERS)
    if browser is None or driver_path is None:
        raise RuntimeError(missing())
    profile = tempfile.mkdtemp(prefix="naipes-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in [*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}", *flags]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
