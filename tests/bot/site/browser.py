"""A real headless Chromium (Debian's package) driven by Playwright, for the campaign site's tests.

CI installs /usr/bin/chromium (.ci/run); where it is absent the browser tests are skipped, saying why. Playwright's
own browsers are never downloaded: the system's is launched by its path, with no network of its own."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at "
                                    "/usr/bin/chromium (apt-get install chromium; .ci/run installs it)")


def launch() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_page(browser: Any, url: str, *, width: int = 1200, height: int = 900, dark: bool = False) -> Any:
    """The page at ``url`` once its verification has finished (body[data-verified]), with its errors collected in
    ``page.errors``."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.goto(url)
    page.wait_for_selector("body[data-verified]", timeout=60_000)
    return page
