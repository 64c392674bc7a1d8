"""Covers: an image dropped on a cover, covers fetched from their URLs, albums moved by dragging."""

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import expect

from album_page import cover, detail, open_app
from sample_covers import cover as cover_png


def drop_image_on(page, index: int, png: bytes) -> None:
    transfer = page.evaluate_handle(
        """(bytes) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([new Uint8Array(bytes)], 'cover.png', { type: 'image/png' }));
            return transfer;
        }""",
        list(png),
    )
    target = f'#scroller .album[data-index="{index}"] .art'
    for event in ("dragenter", "dragover", "drop"):
        page.dispatch_event(target, event, {"dataTransfer": transfer})


def test_an_image_dropped_on_a_cover_becomes_that_albums_cover(page, server, sample_library):
    open_app(page, server.url)
    expect(cover(page, 1).locator(".initials")).to_be_visible()

    drop_image_on(page, 1, cover_png(3, size=64))

    image = cover(page, 1).locator("img")
    expect(image).to_be_visible()
    expect(image).to_have_js_property("naturalWidth", 64)
    expect(page.locator("#import-summary")).to_be_hidden()
    assert len(sample_library.albums()) == 30


def test_a_replaced_cover_shows_at_once(page, server):
    open_app(page, server.url)
    drop_image_on(page, 1, cover_png(3, size=64))
    expect(cover(page, 1).locator("img")).to_have_js_property("naturalWidth", 64)

    drop_image_on(page, 1, cover_png(4, size=40))

    expect(cover(page, 1).locator("img")).to_have_js_property("naturalWidth", 40)
    expect(page.locator("#details-art img")).to_have_count(0)       # album 0's details show


@pytest.fixture
def cover_site(tmp_path):
    """A web site on this machine serving the files of a folder (covers are fetched over HTTP)."""
    folder = tmp_path / "site"
    folder.mkdir()
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *arguments: None
    site = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{site.server_address[1]}/"
    site.shutdown()
    site.server_close()


def test_fetch_covers_downloads_the_missing_covers_from_their_urls(page, library, serve, cover_site):
    folder, address = cover_site
    (folder / "low.png").write_bytes(cover_png(5, size=48))
    library.add("Low", "David Bowie", "--cover-url", address + "low.png")
    library.add("Heroes", "David Bowie")
    server = serve(library)
    open_app(page, server.url)
    expect(cover(page, 0).locator(".initials")).to_be_visible()

    page.get_by_role("button", name="Fetch missing covers").click()

    expect(cover(page, 0).locator("img")).to_have_js_property("naturalWidth", 48)
    expect(cover(page, 1).locator(".initials")).to_be_visible()
    page.get_by_role("button", name="More").click()
    expect(detail(page, "Cover")).to_contain_text("48 × 48")
    expect(page.locator("#status")).to_contain_text("1 cover fetched")


def test_a_cover_dragged_onto_another_place_moves_the_album_there(page, server, sample_library):
    open_app(page, server.url)
    titles = [album["title"] for album in sample_library.albums()]
    target = cover(page, 3)
    box = target.bounding_box()

    cover(page, 0).drag_to(target, target_position={"x": box["width"] - 6, "y": 40})

    # After the fourth album: the first one is now the fourth.
    expect(cover(page, 3).locator(".title")).to_have_text(titles[0])
    expect(cover(page, 0).locator(".title")).to_have_text(titles[1])
    expect(detail(page, "Album")).to_have_text(titles[0])
    assert [album["title"] for album in sample_library.albums()][:4] == titles[1:4] + titles[:1]


def test_a_cover_seen_before_is_revalidated_by_its_etag_not_downloaded_again(page, sample_library, serve, tmp_path):
    image = tmp_path / "cover.png"
    image.write_bytes(cover_png(2, size=64))
    first = sample_library.albums()[0]["id"]
    sample_library.run("covers", "set", str(first), str(image))
    server = serve(sample_library)
    open_app(page, server.url)
    expect(cover(page, 0).locator("img")).to_have_js_property("naturalWidth", 64)
    expect(cover(page, 0).locator("img")).to_have_attribute("src", f"/api/covers/{first}")
    expect(cover(page, 0).locator("img")).to_have_attribute("loading", "lazy")

    with page.expect_response(lambda response: "/api/covers/" in response.url) as answer:
        page.reload()

    assert answer.value.status == 304
    expect(cover(page, 0).locator("img")).to_have_js_property("naturalWidth", 64)
