"""Search: the query language of `albumstore query`, with the same results, and its errors."""

from playwright.sync_api import expect

from album_page import current_cover, detail, open_app, tab


def search(page, query: str) -> None:
    tab(page, "Search").click()
    field = page.get_by_role("searchbox", name="Query")
    field.fill(query)
    field.press("Enter")


def test_results_are_those_of_albumstore_query(page, server, sample_library):
    open_app(page, server.url)

    search(page, "year:1970..1979")

    expected = sample_library.query("year:1970..1979")
    assert len(expected) > 1
    expect(page.locator("#search-results .r-title")).to_have_text([album["title"] for album in expected])
    expect(page.locator("#search-results .r-artist")).to_have_text([album["artist"] for album in expected])


def test_full_text_search_ignores_case_and_accents(page, server, sample_library):
    open_app(page, server.url)

    search(page, "BJORK")

    expected = sample_library.query("BJORK")
    expect(page.locator("#search-results .r-title")).to_have_text([album["title"] for album in expected])
    expect(page.locator("#search-results .r-artist")).to_have_text(["Björk"])


def test_a_chosen_result_becomes_the_current_album_in_the_albums_tab(page, server, sample_library):
    open_app(page, server.url)
    search(page, "radiohead")
    wanted = sample_library.query("radiohead")[-1]

    page.locator("#search-results li").filter(has_text=wanted["title"]).click()

    expect(tab(page, "Albums")).to_have_attribute("aria-selected", "true")
    expect(detail(page, "Album")).to_have_text(wanted["title"])
    expect(current_cover(page).locator(".title")).to_have_text(wanted["title"])
    index = [album["id"] for album in sample_library.albums()].index(wanted["id"])
    expect(current_cover(page)).to_have_attribute("data-index", str(index))
    expect(current_cover(page)).to_be_in_viewport()


def test_a_bad_query_shows_its_error_under_the_field_at_the_place_it_names(page, server):
    open_app(page, server.url)

    search(page, "year:1970..1979 artst:bowie")

    error = page.locator("#search-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("artst")
    expect(error.locator("mark")).to_have_text("artst")
    expect(page.get_by_role("searchbox", name="Query")).to_have_attribute("aria-invalid", "true")

    search(page, "year:1970..1979 artist:bowie")

    expect(error).to_be_hidden()
    expect(page.locator("#search-results .r-title")).to_have_text(["Hunky Dory", "Low"])


def test_the_error_mark_counts_characters_as_people_see_them(page, server):
    open_app(page, server.url)

    search(page, "🇫🇷 e\u0301te\u0301 artst:x")

    expect(page.locator("#search-error mark")).to_have_text("artst")
