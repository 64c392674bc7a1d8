"""The keyboard: arrows move the current album wherever focus is (but in a text field or the tab
list), and every mouse action has a keyboard way: import, set a cover, move an album."""

from playwright.sync_api import expect

from album_page import album_count, current_cover, detail, open_app, tab
from test_albums import SAMPLE, is_current_saved
from sample_covers import cover as cover_png


def test_arrows_move_the_current_album_after_clicking_delete_undo_or_a_tab(page, server, sample_library):
    open_app(page, server.url)
    expect(current_cover(page)).to_have_attribute("data-index", "0")

    page.get_by_role("button", name="Delete the current album").click()
    expect(album_count(page)).to_have_text("29 albums")
    page.keyboard.press("ArrowRight")
    expect(current_cover(page)).to_have_attribute("data-index", "1")

    page.get_by_role("button", name="Undo").click()
    expect(album_count(page)).to_have_text("30 albums")
    page.keyboard.press("End")
    expect(current_cover(page)).to_have_attribute("data-index", "29")
    page.keyboard.press("Home")
    expect(current_cover(page)).to_have_attribute("data-index", "0")

    tab(page, "Search").click()
    expect(page.locator("#search-input")).to_be_focused()
    tab(page, "Albums").click()
    with page.expect_response(is_current_saved):
        page.keyboard.press("ArrowRight")
    # The tab stays; the album moves.
    expect(tab(page, "Albums")).to_have_attribute("aria-selected", "true")
    expect(current_cover(page)).to_have_attribute("data-index", "1")
    expect(detail(page, "Album")).to_have_text(SAMPLE[1]["title"])
    assert sample_library.state()["current_album"]["index"] == 1


def test_in_the_tab_list_arrows_still_move_between_tabs(page, server):
    open_app(page, server.url)
    tab(page, "Albums").focus()

    page.keyboard.press("ArrowRight")

    expect(tab(page, "Search")).to_have_attribute("aria-selected", "true")
    expect(tab(page, "Search")).to_be_focused()


def test_a_keyboard_user_sets_a_cover_from_a_file(page, server, sample_library, tmp_path):
    open_app(page, server.url)
    image = tmp_path / "front.png"
    image.write_bytes(cover_png(0))

    button = page.get_by_role("button", name="Set cover…")
    expect(button).to_be_enabled()
    button.focus()
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(str(image))

    expect(current_cover(page).locator("img")).to_be_visible()
    sample_library.run("covers", "get", str(sample_library.albums()[0]["id"]), "-o", str(tmp_path / "out.png"))
    assert (tmp_path / "out.png").read_bytes() == image.read_bytes()


def test_a_keyboard_user_moves_the_current_album_to_a_place(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]

    field = page.get_by_label("Move to #")
    field.fill("5")
    field.press("Enter")

    expect(current_cover(page)).to_have_attribute("data-index", "5")
    expect(detail(page, "Album")).to_have_text(first["title"])
    assert sample_library.albums()[5]["id"] == first["id"]
    sample_library.run("undo")
    expect(current_cover(page)).to_have_attribute("data-index", "0")
