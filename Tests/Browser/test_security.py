"""Text from the library is shown as text: a title that looks like HTML runs nothing."""

import pytest
from playwright.sync_api import expect

from album_page import cover, detail, open_app, tab

HOSTILE_TITLES = ["<script>alert(1)</script>", "<img src=x onerror=alert(2)>"]


@pytest.fixture
def hostile_server(library, serve):
    for title in HOSTILE_TITLES:
        library.add(title, '"><svg onload=alert(3)>', "--genre", "<b>bold</b>")
    return serve(library)


def test_titles_that_look_like_html_are_shown_as_text_and_run_nothing(page, hostile_server, record):
    open_app(page, hostile_server.url)

    for index, title in enumerate(HOSTILE_TITLES):
        expect(cover(page, index).locator(".title")).to_have_text(title)
        expect(cover(page, index).locator(".artist")).to_have_text('"><svg onload=alert(3)>')
    expect(detail(page, "Album")).to_have_text(HOSTILE_TITLES[0])
    expect(detail(page, "Genre")).to_have_text("<b>bold</b>")

    tab(page, "Search").click()
    field = page.get_by_role("searchbox", name="Query")
    field.fill("artist:svg")
    field.press("Enter")
    expect(page.locator("#search-results .r-title")).to_have_text(HOSTILE_TITLES)

    tab(page, "History").click()
    expect(page.locator("#history-list li").first).to_contain_text(HOSTILE_TITLES[1])

    assert page.locator("script").count() == 1          # app.js alone
    assert page.locator("img[src='x'], svg[onload], b").count() == 0
    assert record.dialogs == []


def test_every_write_carries_the_pages_token(page, server):
    open_app(page, server.url)
    token = page.locator('meta[name="albumstore-token"]').get_attribute("content")
    assert token and token != "{{TOKEN}}"
    writes = []
    page.on("request", lambda request: writes.append(request) if request.method != "GET" else None)

    with page.expect_response(lambda response: response.request.method == "PUT"):
        cover(page, 1).click()

    assert writes and all(request.headers.get("x-albumstore-token") == token for request in writes)
