"""Live: what another process changes shows on the page without a reload."""

from playwright.sync_api import expect

from album_page import album_count, cover, current_cover, detail, open_app, scroll_to_end


def test_an_album_added_by_another_process_appears_without_a_reload(page, server, sample_library):
    open_app(page, server.url)
    page.evaluate("window.loadedOnce = true")   # gone if the page reloads

    sample_library.add("Trans-Europe Express", "Kraftwerk", "--year", "1977")

    expect(album_count(page)).to_have_text("31 albums")
    scroll_to_end(page)
    expect(cover(page, 30).locator(".title")).to_have_text("Trans-Europe Express")
    assert page.evaluate("window.loadedOnce") is True


def test_the_current_album_chosen_by_another_process_is_shown(page, server, sample_library):
    open_app(page, server.url)
    wanted = sample_library.albums()[7]

    sample_library.run("state", "current", "--index", "7")

    expect(current_cover(page)).to_have_attribute("data-index", "7")
    expect(detail(page, "Album")).to_have_text(wanted["title"])


def test_an_edit_by_another_process_changes_the_details_shown(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    sample_library.run("edit", str(first["id"]), "--title", "Kind of Blue (Legacy Edition)")

    expect(detail(page, "Album")).to_have_text("Kind of Blue (Legacy Edition)")
    expect(cover(page, 0).locator(".title")).to_have_text("Kind of Blue (Legacy Edition)")
