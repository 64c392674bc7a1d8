"""Import folder: a music folder on the server's machine is scanned as one undoable import, and
each album the scan writes shows live, with its cover, before the import commits."""

import subprocess
from pathlib import Path

from playwright.sync_api import expect

from album_page import album_count, open_app, status_line

ROOT = Path(__file__).resolve().parents[2]
ALBUMS = 30

# Each card the scan panel shows is recorded with the library's album count at that moment and,
# once its cover has loaded, the cover's size: the record survives the panel being emptied.
RECORD_CARDS = """() => {
    window.scanCards = [];
    new MutationObserver((mutations) => {
        for (const mutation of mutations) {
            for (const card of mutation.addedNodes) {
                const entry = { title: card.querySelector('.title').textContent,
                                countThen: document.getElementById('album-count').textContent, coverWidth: null };
                window.scanCards.push(entry);
                const image = card.querySelector('img');
                if (image) image.addEventListener('load', () => { entry.coverWidth = image.naturalWidth; });
            }
        }
    }).observe(document.getElementById('scan-albums'), { childList: true });
}"""


def make_tree(folder: Path) -> Path:
    tree = folder / "Music"
    subprocess.run([str(ROOT / "scripts/make-music-tree"), "bench", str(tree), "--albums", str(ALBUMS), "--tracks", "2"],
                   check=True, stdout=subprocess.DEVNULL)
    return tree


def import_folder(page, folder: Path) -> None:
    page.locator("#import-folder").click()
    expect(page.locator("#folder-path")).to_be_focused()
    page.locator("#folder-path").fill(str(folder))
    page.locator("#folder-form button[type=submit]").click()


def test_a_scanned_folder_shows_its_albums_and_covers_while_it_runs_then_joins_the_list(page, library, serve, tmp_path):
    library.run("init")
    tree = make_tree(tmp_path)
    server = serve(library)
    open_app(page, server.url)
    expect(album_count(page)).to_have_text("0 albums")
    page.evaluate(RECORD_CARDS)

    import_folder(page, tree)

    summary = page.locator("#import-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text(f"{ALBUMS} albums added")
    expect(album_count(page)).to_have_text(f"{ALBUMS} albums")
    page.wait_for_function(f"() => window.scanCards.filter((card) => card.coverWidth > 0).length === {ALBUMS}")
    cards = page.evaluate("window.scanCards")
    # Every album was shown as the scan wrote it, before the import committed, with its cover.
    assert len(cards) == ALBUMS
    assert {card["countThen"] for card in cards} == {"0 albums"}
    assert all(card["coverWidth"] > 0 for card in cards)
    assert sorted(card["title"] for card in cards) == sorted(album["title"] for album in library.albums())
    assert page.locator("#scan-panel").is_hidden()
    # One undoable command.
    library.run("undo")
    expect(album_count(page)).to_have_text("0 albums")


def test_a_folder_that_is_not_there_is_named_in_the_import_summary(page, sample_library, serve, tmp_path):
    server = serve(sample_library)
    open_app(page, server.url)

    import_folder(page, tmp_path / "no such folder")

    summary = page.locator("#import-summary")
    expect(summary).to_have_class("import-summary error")
    expect(summary).to_contain_text("no such folder")
    expect(status_line(page)).to_have_class("error")
    expect(page.locator("#scan-panel")).to_be_hidden()
    expect(album_count(page)).to_have_text("30 albums")
