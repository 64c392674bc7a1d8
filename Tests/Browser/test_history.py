"""History: the undo history, and snapshots of the session state taken, compared and restored."""

from playwright.sync_api import expect

from album_page import current_cover, cover, open_app, tab


def test_the_history_lists_the_commands_newest_first(page, server, sample_library):
    sample_library.add("Station to Station", "David Bowie")
    open_app(page, server.url)

    tab(page, "History").click()

    entries = page.locator("#history-list li")
    expect(entries).to_have_count(2)
    expect(entries.first).to_contain_text("Station to Station")
    expect(entries.nth(1)).to_contain_text("sample_albums.csv")


def test_a_snapshot_shows_what_changed_since_and_restores_it(page, server, sample_library):
    open_app(page, server.url)
    with page.expect_response(lambda response: response.request.method == "PUT"):
        cover(page, 2).click()
    tab(page, "History").click()

    page.get_by_role("textbox", name="Snapshot name").fill("before")
    page.get_by_role("button", name="Take a snapshot").click()
    expect(page.locator("#snapshot-list .name")).to_have_text(["before"])

    sample_library.run("state", "current", "--index", "9")
    page.get_by_role("button", name="What changed since snapshot before").click()
    expect(page.locator("#snapshot-diff-list li")).to_have_count(1)
    expect(page.locator("#snapshot-diff-list li")).to_contain_text("#2")
    expect(page.locator("#snapshot-diff-list li")).to_contain_text("#9")

    page.get_by_role("button", name="Restore snapshot before").click()
    expect(page.locator("#history-list li").first).to_contain_text("before")
    tab(page, "Albums").click()
    expect(current_cover(page)).to_have_attribute("data-index", "2")
    assert sample_library.state()["current_album"]["index"] == 2
