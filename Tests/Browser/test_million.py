"""A million albums: the page starts, scrolls to the end and searches as it does with thirty."""

import pytest
from playwright.sync_api import expect

from album_page import album_count, cover, current_cover, detail, open_app, scroll_to_end, tab, wheel_over_covers
from albumstore_cli import Library
from test_stats import inside_their_charts

pytestmark = pytest.mark.million

MILLION = 1_000_000
GENRES = ["Rock", "Jazz", "Soul", "Electronic", "Folk", "Classical", "Hip-Hop", "Pop", "Blues", "Reggae",
          "Contemporary Classical", "Country", "Heavy Metal", "Punk", "Ambient"]


@pytest.fixture(scope="session")
def million_library(tmp_path_factory) -> Library:
    """One library of a million albums for the whole session, imported by the CLI."""
    folder = tmp_path_factory.mktemp("million")
    catalog = folder / "million.csv"
    with catalog.open("w", encoding="utf-8") as file:
        file.write("title,artist,genre,year\n")
        for number in range(1, MILLION + 1):
            file.write(f"Album {number},Artist {number % 5000},{GENRES[number % len(GENRES)]},{1900 + number % 126}\n")
    library = Library(folder)
    library.import_file(catalog, timeout=600)
    catalog.unlink()
    return library


@pytest.fixture
def million_server(million_library, serve):
    million_library.run("state", "current", "--index", "0")
    return serve(million_library)


def test_the_first_screen_shows_covers_and_details(page, million_server):
    open_app(page, million_server.url)

    expect(album_count(page)).to_have_text("1,000,000 albums")
    expect(page.locator("#scroller .album .initials").first).to_be_visible()
    expect(current_cover(page).locator(".title")).to_have_text("Album 1")
    expect(detail(page, "Album")).to_have_text("Album 1")
    assert page.locator("#scroller .album").count() < 40


def test_the_end_key_reaches_the_last_album(page, million_server, million_library):
    open_app(page, million_server.url)
    page.locator("#scroller").focus()

    page.keyboard.press("End")

    expect(current_cover(page)).to_have_attribute("data-index", str(MILLION - 1))
    expect(current_cover(page).locator(".title")).to_have_text(f"Album {MILLION}")
    expect(current_cover(page)).to_be_in_viewport()
    expect(detail(page, "Album")).to_have_text(f"Album {MILLION}")
    assert page.locator("#scroller .album").count() < 40
    page.keyboard.press("ArrowLeft")
    expect(detail(page, "Album")).to_have_text(f"Album {MILLION - 1}")


def test_the_wheel_moves_the_covers_as_far_as_with_thirty_albums(page, million_server):
    open_app(page, million_server.url)

    wheel_over_covers(page, 3)                 # near the start
    page.locator("#scroller").evaluate("scroller => { scroller.scrollLeft = scroller.scrollWidth * 0.6; }")
    first_drawn = "Math.min(...Array.from(document.querySelectorAll('#scroller .album'), (node) => Number(node.dataset.index)))"
    page.wait_for_function(f"() => {first_drawn} > 1000")
    expect(page.locator("#scroller .album.loading")).to_have_count(0)
    shown = page.evaluate(first_drawn)
    assert abs(shown - 0.6 * MILLION) < 1000, f"the scroll bar at 60% shows album {shown}"
    wheel_over_covers(page, 3)                 # in the middle
    wheel_over_covers(page, 900)               # across a page of the track (851 covers)
    wheel_over_covers(page, -2)
    scroll_to_end(page)
    expect(cover(page, MILLION - 1).locator(".title")).to_have_text(f"Album {MILLION}")
    assert page.locator("#scroller .album").count() < 40


def test_search_finds_one_album_among_a_million(page, million_server):
    open_app(page, million_server.url)
    tab(page, "Search").click()
    field = page.get_by_role("searchbox", name="Query")

    field.fill("999999")
    field.press("Enter")

    expect(page.locator("#search-results .r-title")).to_have_text(["Album 999999"])
    page.locator("#search-results button").click()
    expect(detail(page, "Album")).to_have_text("Album 999999")
    expect(current_cover(page)).to_have_attribute("data-index", "999998")


def test_stats_of_a_million_show_every_genre_with_labels_inside_their_charts(page, million_server):
    for width in (1400, 390):
        page.set_viewport_size({"width": width, "height": 900})
        open_app(page, million_server.url)
        tab(page, "Stats").click()
        expect(page.locator("#stats-summary")).to_contain_text("1,000,000 albums", timeout=30_000)

        expect(page.locator("#chart-genres .bar-row")).to_have_count(len(GENRES))
        expect(page.locator("#chart-decades .bar-row")).to_have_count(13)
        assert inside_their_charts(page) == [], f"at {width} px"
