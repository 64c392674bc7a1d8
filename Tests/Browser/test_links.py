"""Links: the tab, the search (query and sort) and the current album are in the address, so
reload, Back and bookmarks work; results show the genre, sort, and load more as they scroll."""

import csv
import json
from urllib.parse import urlencode

from playwright.sync_api import expect

from album_page import cover, current_cover, detail, open_app, tab
from test_albums import is_current_saved
from test_search import search


def titles(albums: list) -> list:
    return [album["title"] for album in albums]


def test_a_search_url_reloaded_shows_the_same_search(page, server, sample_library):
    open_app(page, server.url)
    search(page, "genre:jazz")
    expected = sample_library.query("genre:jazz")
    expect(page.locator("#search-results .r-title")).to_have_text(titles(expected))
    first = sample_library.albums()[0]
    expect(page).to_have_url(f"{server.url}?{urlencode({'tab': 'search', 'q': 'genre:jazz', 'album': first['id']})}")

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready")

    expect(tab(page, "Search")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("searchbox", name="Query")).to_have_value("genre:jazz")
    expect(page.locator("#search-results .r-title")).to_have_text(titles(expected))
    # Each result shows its genre.
    expect(page.locator("#search-results .r-genre")).to_have_text([album["genre"] for album in expected])


def test_back_returns_to_the_tab_and_search_before(page, server, sample_library):
    open_app(page, server.url)
    search(page, "radiohead")
    expect(page.locator("#search-results li")).to_have_count(len(sample_library.query("radiohead")))

    tab(page, "Stats").click()
    expect(page).to_have_url(f"{server.url}?tab=stats&q=radiohead&album={sample_library.albums()[0]['id']}")
    page.go_back()

    expect(tab(page, "Search")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("searchbox", name="Query")).to_have_value("radiohead")
    expect(page.locator("#panel-search")).to_be_visible()


def test_a_bookmarked_album_opens_as_the_current_album(page, server, sample_library):
    wanted = sample_library.albums()[7]

    open_app(page, f"{server.url}?album={wanted['id']}")

    expect(current_cover(page)).to_have_attribute("data-index", "7")
    expect(detail(page, "Album")).to_have_text(wanted["title"])
    assert sample_library.state()["current_album"]["index"] == 7


def test_a_reload_keeps_the_current_album_while_the_address_lags_behind(page, server, sample_library):
    albums = sample_library.albums()
    open_app(page, server.url)
    with page.expect_response(is_current_saved):
        cover(page, 4).click()
    expect(page).to_have_url(f"{server.url}?album={albums[4]['id']}")
    # The address follows the current album only once it rests (300 ms): until then it names the
    # album before, as here.
    page.evaluate("id => history.replaceState(null, '', `?album=${id}`)", albums[3]["id"])

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready")

    expect(current_cover(page)).to_have_attribute("data-index", "4")
    expect(page).to_have_url(f"{server.url}?album={albums[4]['id']}")
    assert sample_library.state()["current_album"]["index"] == 4


def test_results_sort_by_the_order_chosen_and_keep_it_in_the_url(page, server, sample_library):
    open_app(page, server.url)
    search(page, "genre:rock")

    page.get_by_label("Sort by").select_option("year:desc")

    newest_first = json.loads(sample_library.run("query", "--sort", "year:desc", "--format", "json", "--", "genre:rock"))
    expect(page.locator("#search-results .r-title")).to_have_text(titles(newest_first))
    page.reload()
    expect(page.get_by_label("Sort by")).to_have_value("year:desc")
    expect(page.locator("#search-results .r-title")).to_have_text(titles(newest_first))


def test_results_load_more_as_the_list_scrolls(page, library, serve, tmp_path):
    catalog = tmp_path / "many.csv"
    with catalog.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["title", "artist", "genre", "year"])
        for number in range(250):
            writer.writerow([f"Record {number:03}", "Someone", "Jazz", 1950 + number % 50])
    library.import_file(catalog)
    server = serve(library)
    open_app(page, server.url)

    search(page, "genre:jazz")
    expect(page.locator("#search-results li")).to_have_count(100)
    page.locator("#search-results li").last.scroll_into_view_if_needed()
    expect(page.locator("#search-results li")).to_have_count(200)
    page.locator("#search-results li").last.scroll_into_view_if_needed()

    expect(page.locator("#search-results li")).to_have_count(250)
    expect(page.locator("#search-more")).to_be_hidden()
    expect(page.locator("#search-summary")).to_have_text("250 albums match.")
