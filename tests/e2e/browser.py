"""The web page's end-to-end tests: the real bot with its web page on, driven through the
local Discord, and the page opened in a real headless Chromium (Debian's `chromium`, which
`.ci/run` installs) through Playwright, which never downloads a browser of its own here."""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, async_playwright

from bot.settings import Settings
from tests.e2e.conftest import Env, running_env
from tests.e2e.test_operations_process import free_port

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DOCS = Path(__file__).resolve().parents[2] / "docs"
# TK_SCREENSHOTS=1 writes the page's screenshots into docs/ (the README shows them); otherwise
# they go to the test's own folder, so a test run leaves the checkout as it was.
WRITE_DOCS = os.environ.get("TK_SCREENSHOTS") == "1"
LINK = re.compile(r"<(http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]+)>")


@dataclass
class WebEnv(Env):
    """`Env` with the web page on: WEB_PORT a free port, PUBLIC_URL pointing at it."""

    port: int = field(default_factory=free_port)

    @property
    def settings(self) -> Settings:
        base = f"http://127.0.0.1:{self.port}"
        return dataclasses.replace(super().settings, web_port=self.port, public_url=base)


@pytest.fixture
async def web_env(tmp_path: Path) -> AsyncIterator[WebEnv]:
    async with running_env(f"sqlite:///{tmp_path / 'tablekeeper.db'}", make=WebEnv) as env:
        assert isinstance(env, WebEnv)
        yield env


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("The web page's tests need Chromium: apt-get install chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


# Run before any script of the page's own: what the browser reports that it refused or saw.
WATCH = """
window.__violations = [];
window.__dialogs = 0;
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI);
});
"""


async def watched(browser: Browser, width: int = 1280, height: int = 900) -> Page:
    """A new page that records CSP violations, script errors and dialogs (`troubles`)."""
    page = await browser.new_page(viewport={"width": width, "height": height})
    await page.add_init_script(WATCH)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    page.errors = errors  # type: ignore[attr-defined]  # read by `troubles`
    return page


async def troubles(page: Page) -> list[str]:
    """Every CSP violation, script error, console error and dialog the page has seen."""
    violations: list[str] = await page.evaluate("window.__violations")
    return [*violations, *page.errors]  # type: ignore[attr-defined]


def link_in(text: str) -> str:
    found = LINK.search(text)
    assert found is not None, text
    return found.group(1)


def screenshot_path(name: str, tmp_path: Path) -> Path:
    return (DOCS if WRITE_DOCS else tmp_path) / name
