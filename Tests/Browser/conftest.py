"""Fixtures: a library in a temporary folder, `albumstore serve` on it, and Debian's chromium."""

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from albumstore_cli import Library
from serve import Server

SAMPLE_CATALOG = Path(__file__).parent / "sample_albums.csv"

# Generous: CI runs these beside a build on two cores; a wait only lasts this long when it fails.
expect.set_options(timeout=10_000)


def pytest_configure(config):
    config.addinivalue_line("markers", "million: browses a library of a million albums (slow; -m 'not million' skips it)")


@pytest.fixture(scope="session")
def browser():
    # Debian's chromium: Playwright's own browser download cannot work here.
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("chromium is not on PATH: scripts/test-browser installs it")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable)
        yield browser
        browser.close()


@pytest.fixture
def library(tmp_path) -> Library:
    """An empty library in the test's own temporary folder."""
    return Library(tmp_path)


@pytest.fixture
def sample_library(library) -> Library:
    """The 30 albums of sample_albums.csv, imported by the CLI."""
    library.import_file(SAMPLE_CATALOG)
    return library


@pytest.fixture
def serve():
    """Starts `albumstore serve` on a library; at the end, Ctrl-C must stop it with exit 0."""
    servers = []

    def start(library: Library, arguments: tuple = ()) -> Server:
        server = Server(library, arguments=arguments)
        servers.append(server)
        return server

    yield start
    for server in servers:
        status = server.stop()
        assert status == 0, f"albumstore serve exited {status} on SIGINT: {''.join(server.errors).strip()}"


@pytest.fixture
def server(sample_library, serve) -> Server:
    return serve(sample_library)


@dataclass
class PageRecord:
    """What a page did that a test may need to see: dialogs opened, script errors."""
    dialogs: list = field(default_factory=list)
    errors: list = field(default_factory=list)


@pytest.fixture
def record() -> PageRecord:
    return PageRecord()


@pytest.fixture
def page(browser, record):
    """A fresh 1280x800 page; a script error or CSP violation in it fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()

    def on_dialog(dialog):
        record.dialogs.append(dialog.message)
        dialog.dismiss()

    def on_console(message):
        # An API error answer is logged by the browser itself; the page shows those in its status line.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            record.errors.append(message.text)

    page.on("dialog", on_dialog)
    # Turns on the interception of file choosers now: turned on by expect_file_chooser itself,
    # it may come after the click that opens one.
    page.on("filechooser", lambda chooser: None)
    page.on("pageerror", lambda error: record.errors.append(str(error)))
    page.on("console", on_console)
    yield page
    context.close()
    assert record.errors == [], f"the page logged errors: {record.errors}"
