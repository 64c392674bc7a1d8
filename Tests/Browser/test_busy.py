"""While an import runs, nothing waits on it: Undo, Delete and the other changes are disabled
with the reason shown, a choice of album is saved when it ends, and progress never covers an
error. The import here is held open by its own slow upload, so the test never races it."""

import json
import re
import socket

import pytest
from playwright.sync_api import expect

from album_page import album_count, current_cover, open_app, status_line
from test_albums import is_current_saved
from test_import import drop_file

CATALOG = "title,artist\n" + "".join(f"Held {number},Uploader\n" for number in range(200))


class HeldImport:
    """POST /api/import with half its body sent: the server holds the import slot until the rest."""

    def __init__(self, url: str, token: str, name: str = "held.csv"):
        host, port = re.match(r"http://([^:/]+):(\d+)/", url).groups()
        self.body = CATALOG.encode()
        self.socket = socket.create_connection((host, int(port)))
        head = (f"POST /api/import?name={name} HTTP/1.1\r\nHost: {host}:{port}\r\nX-AlbumStore-Token: {token}\r\n"
                f"Content-Type: text/csv\r\nContent-Length: {len(self.body)}\r\nConnection: close\r\n\r\n")
        self.socket.sendall(head.encode() + self.body[:10])

    def close(self) -> None:
        if self.socket.fileno() != -1:
            self.socket.sendall(self.body[10:])
            self.socket.close()

    def finish(self) -> dict:
        self.socket.sendall(self.body[10:])
        answer = b""
        while chunk := self.socket.recv(65536):
            answer += chunk
        self.socket.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert b" 200 " in head.split(b"\r\n")[0], answer[:300]
        return json.loads(body)


@pytest.fixture
def hold_import():
    """Starts held imports; any left open at the end is finished, so the server can stop."""
    held = []

    def start(url: str, token: str) -> HeldImport:
        held.append(HeldImport(url, token))
        return held[-1]

    yield start
    for upload in held:
        upload.close()


def test_undo_during_an_import_is_disabled_and_undoes_nothing(page, server, sample_library, hold_import):
    open_app(page, server.url)
    token = page.locator('meta[name="albumstore-token"]').get_attribute("content")
    sent = []
    page.on("request", lambda request: sent.append(request.url) if request.method != "GET" else None)

    held = hold_import(server.url, token)

    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_disabled()
    expect(page.get_by_role("button", name="Delete the current album")).to_be_disabled()
    expect(undo).to_have_attribute("aria-description", "Importing held.csv: wait until it ends")
    expect(page.locator("#toolbar-message")).to_contain_text("Importing held.csv")
    page.keyboard.press("Control+z")
    expect(page.locator("#toolbar-message")).to_contain_text("undo waits until it ends")
    # A choice of album made meanwhile waits for the import.
    page.keyboard.press("ArrowRight")
    expect(current_cover(page)).to_have_attribute("data-index", "1")
    assert sent == []
    # Sent anyway (another tab, a script), the server refuses it at once, in words.
    refused = page.evaluate("""async (token) => {
        const response = await fetch('/api/undo', { method: 'POST', headers: { 'X-AlbumStore-Token': token } });
        return [response.status, await response.json()];
    }""", token)
    assert refused[0] == 409 and refused[1]["busy"] == "Importing held.csv", refused

    with page.expect_response(is_current_saved):
        summary = held.finish()

    assert summary["inserted"] == 200
    assert sample_library.state()["current_album"]["index"] == 1
    expect(album_count(page)).to_have_text("230 albums")
    expect(undo).to_be_enabled()
    expect(page.locator("#toolbar-message")).to_be_hidden()
    # Undo now undoes the import, as its summary and the history say.
    undo.click()
    expect(album_count(page)).to_have_text("30 albums")
    expect(status_line(page)).to_contain_text("held.csv")


def test_progress_never_covers_an_error(page, server, sample_library):
    open_app(page, server.url)
    drop_file(page, "bad.csv", "title,artist,year\nSome Title,Someone,not-a-year\n")
    expect(status_line(page)).to_have_class("error")
    error = status_line(page).inner_text()

    big = "title,artist\n" + "".join(f"Big {number},Someone\n" for number in range(120_000))
    drop_file(page, "big.csv", big)

    expect(page.locator("#job-text")).to_contain_text("Importing…")
    assert status_line(page).inner_text() == error
    expect(album_count(page)).to_have_text("120,030 albums", timeout=120_000)
