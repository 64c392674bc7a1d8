"""Editing in place: a field of the current album changed where it is shown, as `albumstore
edit` changes it, in one undoable step; a bad value is refused beside the field."""

from playwright.sync_api import expect

from album_page import current_cover, detail, open_app, status_line


def test_a_field_edited_in_place_is_saved_and_undone(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    page.get_by_role("button", name=f"Edit genre: {first['genre']}").click()
    field = page.get_by_role("textbox", name="Genre")
    field.fill("  Modal Jazz ")
    field.press("Enter")

    expect(detail(page, "Genre")).to_have_text("Modal Jazz")
    expect(page.get_by_role("button", name="Edit genre: Modal Jazz")).to_be_focused()
    expect(status_line(page)).to_contain_text(f"Changed the genre of “{first['title']}”")
    assert sample_library.albums()[0]["genre"] == "Modal Jazz"

    page.get_by_role("button", name="Undo").click()
    expect(detail(page, "Genre")).to_have_text(first["genre"])
    assert sample_library.albums()[0]["genre"] == first["genre"]


def test_a_title_edited_in_place_shows_in_the_scroller(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    page.get_by_role("button", name=f"Edit album: {first['title']}").click()
    page.get_by_role("textbox", name="Album").fill("Kind of Blue (Legacy Edition)")
    page.keyboard.press("Enter")

    expect(current_cover(page).locator(".title")).to_have_text("Kind of Blue (Legacy Edition)")


def test_escape_puts_the_value_back_and_changes_nothing(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]
    writes = []
    page.on("request", lambda request: writes.append(request.url) if request.method == "PATCH" else None)

    page.get_by_role("button", name=f"Edit artist: {first['artist']}").click()
    page.get_by_role("textbox", name="Artist").fill("Someone Else")
    page.keyboard.press("Escape")

    expect(detail(page, "Artist")).to_have_text(first["artist"])
    assert writes == []
    assert sample_library.albums()[0]["artist"] == first["artist"]


def test_a_bad_year_is_refused_beside_the_field_which_stays_open(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    page.get_by_role("button", name=f"Edit year: {first['year']}").click()
    field = page.get_by_role("textbox", name="Year").or_(page.get_by_role("spinbutton", name="Year"))
    field.fill("99999")
    field.press("Enter")

    message = page.locator("#details-message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("Could not change the year")
    expect(message).to_contain_text("year")
    expect(field).to_be_focused()
    assert sample_library.albums()[0]["year"] == first["year"]
