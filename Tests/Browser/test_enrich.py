"""Enrichment from the Search tab: the albums of a search looked up on a MusicBrainz stand-in, each
proposal reviewed, only the accepted ones applied, as one command Undo takes back."""

import pytest
from playwright.sync_api import expect

from album_page import open_app, status_line, tab
from musicbrainz_stand_in import Release, StandIn

LOW = Release("9e0fe8c8-6e0a-4a7e-9b9e-111111111111", "Low", "David Bowie", first_release_date="1977-01-14",
              genres=[("art rock", 7)])


@pytest.fixture
def stand_in():
    stand_in = StandIn([LOW])
    yield stand_in
    stand_in.stop()


def test_proposals_are_reviewed_and_only_the_accepted_are_applied_as_one_undoable_command(page, library, serve, stand_in):
    library.add("Low", "David Bowie", "--genre", "Krautrock")
    library.add("Lower", "Nobody")
    server = serve(library, arguments=("--musicbrainz-url", stand_in.url, "--coverart-url", stand_in.url))
    open_app(page, server.url)
    tab(page, "Search").click()
    page.fill("#search-input", "low*")
    page.press("#search-input", "Enter")
    expect(page.locator("#search-summary")).to_have_text("2 albums match.")

    page.click("#enrich-lookup")

    review = page.locator("#enrich-review")
    expect(review).to_be_visible()
    rows = page.locator("#enrich-proposals tr")
    expect(rows).to_have_count(3)   # year, MusicBrainz id, cover: the genre the user set is kept
    expect(rows.nth(0)).to_contain_text("year")
    expect(rows.nth(0)).to_contain_text("1977")
    expect(rows.nth(2)).to_contain_text("cover")
    expect(page.locator("#enrich-skipped")).to_contain_text("Lower — Nobody: not found")
    assert library.albums()[0].get("year") is None           # nothing changes before the review

    rows.nth(2).locator("input[type=checkbox]").uncheck()   # skip the cover
    page.click("#enrich-apply")

    expect(status_line(page)).to_contain_text("Filled 2 fields of 1 album. Undo takes it back.")
    expect(review).to_be_hidden()
    low = library.albums()[0]
    assert (low["year"], low["genre"], low["external_id"]) == (1977, "Krautrock", LOW.id)
    assert "albums with a cover: 0" in library.run("covers", "stats")

    page.click("#undo")
    expect(status_line(page)).to_contain_text("Undid: enrich “Low” by David Bowie from MusicBrainz")
    low = library.albums()[0]
    assert (low.get("year"), low.get("external_id")) == (None, None)
