"""The Albums tab: the cover scroller, the current album and its details, Delete and Undo."""

import csv

from playwright.sync_api import expect

from album_page import album_count, cover, current_cover, detail, open_app, scroll_to_end, tab, wheel_over_covers
from conftest import SAMPLE_CATALOG

SAMPLE = list(csv.DictReader(SAMPLE_CATALOG.open(encoding="utf-8")))


def is_current_saved(response) -> bool:
    return response.url.endswith("/api/state/current") and response.request.method == "PUT" and response.ok


def test_the_page_shows_the_covers_and_the_current_albums_details(page, server):
    open_app(page, server.url)

    expect(album_count(page)).to_have_text("30 albums")
    expect(cover(page, 0).locator(".title")).to_have_text(SAMPLE[0]["title"])
    expect(cover(page, 0).locator(".artist")).to_have_text(SAMPLE[0]["artist"])
    expect(current_cover(page)).to_have_attribute("data-index", "0")
    expect(detail(page, "Artist")).to_have_text(SAMPLE[0]["artist"])
    expect(detail(page, "Album")).to_have_text(SAMPLE[0]["title"])
    expect(detail(page, "Genre")).to_have_text(SAMPLE[0]["genre"])
    expect(detail(page, "Year")).to_have_text(SAMPLE[0]["year"])


def test_an_empty_library_says_how_to_fill_it(page, library, serve):
    library.run("init")
    server = serve(library)

    open_app(page, server.url)

    expect(album_count(page)).to_have_text("0 albums")
    expect(page.locator("#empty-library")).to_be_visible()
    expect(page.get_by_role("button", name="Delete the current album")).to_be_disabled()
    expect(page.locator("#scroller .album")).to_have_count(0)


def test_more_shows_every_field(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    expect(detail(page, "ID")).to_be_hidden()
    page.get_by_role("button", name="More").click()

    expect(detail(page, "ID")).to_have_text(str(first["id"]))
    expect(detail(page, "Cover")).to_have_text("none")


def test_only_the_covers_in_view_are_in_the_page(page, server):
    open_app(page, server.url)
    expect(cover(page, 0)).to_be_visible()

    drawn = page.locator("#scroller .album").count()

    assert drawn < 30, f"{drawn} covers drawn for 30 albums: the scroller should draw only those in view"


def test_scrolling_to_the_end_shows_the_last_album(page, server):
    open_app(page, server.url)

    scroll_to_end(page)

    expect(cover(page, 29).locator(".title")).to_have_text(SAMPLE[29]["title"])
    expect(cover(page, 29)).to_be_in_viewport()
    expect(cover(page, 0)).to_have_count(0)


def test_the_mouse_wheel_scrolls_the_covers_sideways(page, server):
    open_app(page, server.url)

    wheel_over_covers(page, 3)

    expect(cover(page, 3)).to_be_in_viewport()


def test_the_scroller_keeps_its_place_while_another_tab_is_open(page, server, sample_library):
    open_app(page, server.url)
    scroll_to_end(page)
    expect(cover(page, 29)).to_be_in_viewport()

    tab(page, "Search").click()
    sample_library.add("Heroes", "David Bowie")        # the list grows meanwhile
    expect(album_count(page)).to_have_text("31 albums")
    tab(page, "Albums").click()

    expect(cover(page, 29)).to_be_in_viewport()
    expect(cover(page, 0)).to_have_count(0)


def test_an_album_made_current_while_another_tab_is_open_is_in_view_back_in_albums(page, server, sample_library):
    open_app(page, server.url)
    scroll_to_end(page)
    tab(page, "Stats").click()

    sample_library.run("state", "current", "--index", "2")
    expect(page.locator("#stats-summary")).to_contain_text("30 albums")
    tab(page, "Albums").click()

    expect(current_cover(page)).to_have_attribute("data-index", "2")
    expect(current_cover(page)).to_be_in_viewport()


def test_the_chosen_album_is_current_after_a_reload_and_for_the_cli(page, server, sample_library):
    open_app(page, server.url)
    with page.expect_response(is_current_saved):
        cover(page, 3).click()
    with page.expect_response(is_current_saved):
        page.keyboard.press("ArrowRight")
    expect(detail(page, "Album")).to_have_text(SAMPLE[4]["title"])

    page.reload()
    open_app(page, server.url)

    expect(current_cover(page)).to_have_attribute("data-index", "4")
    expect(detail(page, "Album")).to_have_text(SAMPLE[4]["title"])
    saved = sample_library.state()["current_album"]
    assert saved["index"] == 4
    assert saved["album_id"] == sample_library.albums()[4]["id"]


def test_home_and_end_keys_reach_the_first_and_the_last_album(page, server):
    open_app(page, server.url)

    page.keyboard.press("End")
    expect(current_cover(page)).to_have_attribute("data-index", "29")
    expect(detail(page, "Album")).to_have_text(SAMPLE[29]["title"])

    page.keyboard.press("Home")
    expect(current_cover(page)).to_have_attribute("data-index", "0")
    expect(detail(page, "Album")).to_have_text(SAMPLE[0]["title"])


def test_delete_removes_the_current_album_and_undo_puts_it_back_in_its_place(page, server, sample_library):
    open_app(page, server.url)
    with page.expect_response(is_current_saved):
        cover(page, 2).click()
    expect(detail(page, "Album")).to_have_text(SAMPLE[2]["title"])

    page.get_by_role("button", name="Delete the current album").click()

    expect(album_count(page)).to_have_text("29 albums")
    expect(cover(page, 2).locator(".title")).to_have_text(SAMPLE[3]["title"])
    assert SAMPLE[2]["title"] not in [album["title"] for album in sample_library.albums()]

    page.get_by_role("button", name="Undo").click()

    expect(album_count(page)).to_have_text("30 albums")
    expect(cover(page, 2).locator(".title")).to_have_text(SAMPLE[2]["title"])
    assert [album["title"] for album in sample_library.albums()] == [row["title"] for row in SAMPLE]


def test_ctrl_z_undoes_and_ctrl_shift_z_redoes(page, server, sample_library):
    open_app(page, server.url)
    page.get_by_role("button", name="Delete the current album").click()
    expect(album_count(page)).to_have_text("29 albums")
    expect(page.get_by_role("button", name="Redo")).to_be_disabled()

    page.keyboard.press("Control+z")
    expect(album_count(page)).to_have_text("30 albums")
    expect(page.get_by_role("button", name="Redo")).to_be_enabled()

    page.keyboard.press("Control+Shift+z")
    expect(album_count(page)).to_have_text("29 albums")
    expect(cover(page, 0).locator(".title")).to_have_text(SAMPLE[1]["title"])
    assert len(sample_library.albums()) == 29
