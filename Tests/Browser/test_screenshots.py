"""The README's pictures: docs/images/albums.png, search.png and stats.png (1280x800).

Taken only with ALBUMSTORE_SCREENSHOTS=1, from the sample library with covers drawn here.
"""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from album_page import cover, open_app, tab
from sample_covers import write_sample_covers

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"

pytestmark = pytest.mark.skipif(os.environ.get("ALBUMSTORE_SCREENSHOTS") != "1",
                                reason="set ALBUMSTORE_SCREENSHOTS=1 to write docs/images")


@pytest.fixture
def showcase(sample_library, serve, tmp_path):
    albums = sample_library.albums()
    images = write_sample_covers(tmp_path / "covers", len(albums))
    # Most albums get a cover; every fourth keeps its placeholder, as in a real library.
    for index, (album, image) in enumerate(zip(albums, images)):
        if index % 4 != 1:
            sample_library.run("covers", "set", str(album["id"]), str(image))
    sample_library.run("state", "current", "--index", "4")
    return serve(sample_library)


def test_screenshots(page, showcase):
    IMAGES.mkdir(parents=True, exist_ok=True)
    open_app(page, showcase.url)
    expect(cover(page, 3).locator("img")).to_be_visible()
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(IMAGES / "albums.png"))

    tab(page, "Search").click()
    field = page.get_by_role("searchbox", name="Query")
    field.fill("year:1970..1989")
    field.press("Enter")
    expect(page.locator("#search-results li").first).to_be_visible()
    page.screenshot(path=str(IMAGES / "search.png"))

    tab(page, "Stats").click()
    expect(page.locator("#chart-artists .bar-row").first).to_be_visible()
    page.screenshot(path=str(IMAGES / "stats.png"))
