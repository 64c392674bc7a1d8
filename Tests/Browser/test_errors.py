"""Errors where they happened, in words: beside the control, never an HTTP method and path."""

from playwright.sync_api import expect

from album_page import album_count, open_app, status_line, tab
from sample_covers import cover as cover_png


def test_a_double_click_on_delete_deletes_one_album_and_says_nothing_of_http(page, server, sample_library):
    open_app(page, server.url)
    deletes = []
    page.on("request", lambda request: deletes.append(request.url) if request.method == "DELETE" else None)

    page.get_by_role("button", name="Delete the current album").dblclick()

    expect(album_count(page)).to_have_text("29 albums")
    expect(status_line(page)).to_contain_text("Deleted")
    assert len(sample_library.albums()) == 29
    assert "/api/" not in page.locator("body").inner_text()
    assert len(deletes) <= 2   # the second, if sent at all, found nothing and said so in words


def test_an_album_deleted_elsewhere_is_said_in_words_beside_the_toolbar(page, server, sample_library):
    open_app(page, server.url)
    first = sample_library.albums()[0]
    page.route("**/api/events", lambda route: route.abort())   # the page does not hear of it
    sample_library.run("rm", str(first["id"]))

    page.get_by_role("button", name="Delete the current album").click()

    message = page.locator("#toolbar-message")
    expect(message).to_have_text(f"“{first['title']}” was deleted already (elsewhere).")
    assert "DELETE" not in page.locator("body").inner_text()


def test_history_names_albums_by_title(page, server, sample_library, tmp_path):
    open_app(page, server.url)
    first, second = sample_library.albums()[:2]
    image = tmp_path / "front.png"
    image.write_bytes(cover_png(1))
    sample_library.run("covers", "set", str(second["id"]), str(image))
    page.get_by_role("button", name="Delete the current album").click()
    expect(album_count(page)).to_have_text("29 albums")

    tab(page, "History").click()

    entries = page.locator("#history-list li .description")
    expect(entries.nth(0)).to_contain_text(f"“{first['title']}”")
    expect(entries.nth(1)).to_contain_text(f"set the cover of “{second['title']}” by {second['artist']}")


def test_snapshots_are_in_reach_on_a_phone_with_a_long_history(page, server, sample_library):
    page.set_viewport_size({"width": 390, "height": 844})
    for album in sample_library.albums()[:20]:
        sample_library.run("edit", str(album["id"]), "--genre", "Edited")
    open_app(page, server.url)

    tab(page, "History").click()

    expect(page.locator("#history-list li")).to_have_count(8)
    expect(page.get_by_role("button", name="Show all 21 entries")).to_be_visible()
    snapshots = page.get_by_role("heading", name="Snapshots")
    assert snapshots.bounding_box()["y"] < 2 * 844
