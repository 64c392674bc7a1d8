"""The page after `albumstore serve` restarts: it takes the new server's token by itself, and
every action works again without a reload."""

import re

from playwright.sync_api import expect

from album_page import album_count, detail, open_app, status_line
from serve import Server


def test_after_a_server_restart_delete_and_choosing_an_album_work_without_a_reload(page, sample_library, serve):
    first = serve(sample_library)
    open_app(page, first.url)
    port = re.search(r":(\d+)/", first.url).group(1)

    assert first.stop() == 0
    expect(page.locator("body")).to_have_attribute("data-live", "closed")
    second = serve(sample_library, arguments=("--port", port))
    assert second.url == first.url
    expect(page.locator("body")).to_have_attribute("data-live", "open", timeout=20_000)
    expect(status_line(page)).to_contain_text("Connected to the server again")

    refused = []
    page.on("response", lambda response: refused.append(response.url) if response.status == 403 else None)
    page.keyboard.press("ArrowRight")
    expect(detail(page, "Album")).to_have_text(sample_library.albums()[1]["title"])
    with page.expect_response(lambda response: response.request.method == "DELETE") as deleted:
        page.locator("#delete").click()
    assert deleted.value.status == 200
    expect(album_count(page)).to_have_text("29 albums")
    assert len(sample_library.albums()) == 29
    assert sample_library.state()["current_album"]["index"] == 1
    assert refused == [], f"requests refused after the restart: {refused}"


def test_a_write_refused_for_an_old_token_is_sent_again_with_the_new_one(page, sample_library, serve):
    # The page missed the restart (no reconnect seen yet): its first write meets the new token.
    first = serve(sample_library)
    open_app(page, first.url)
    port = re.search(r":(\d+)/", first.url).group(1)
    # Kept from reconnecting, the page cannot learn the new token before it writes.
    page.route("**/api/events", lambda route: route.abort())
    assert first.stop() == 0
    second = serve(sample_library, arguments=("--port", port))

    answers = []
    page.on("response", lambda response: answers.append((response.request.method, response.status)) if "/api/albums/" in response.url else None)
    page.evaluate("() => document.querySelector('#delete').click()")

    expect(album_count(page)).to_have_text("29 albums", timeout=20_000)
    assert answers == [("DELETE", 403), ("DELETE", 200)]
    assert len(sample_library.albums()) == 29
