"""Import: a catalog dropped anywhere on the page is imported, with its summary shown."""

from playwright.sync_api import expect

from album_page import album_count, open_app, scroll_to_end, cover, status_line

CATALOG = """title,artist,genre,year
Heroes,David Bowie,Rock,1977
Station to Station,David Bowie,Rock,1976
Marquee Moon,Television,Rock,1977
"""


def drop_file(page, name: str, content: str, mime: str = "text/csv", target: str = "main") -> None:
    """Drops a file on the page as a user dragging it from their file manager would."""
    transfer = page.evaluate_handle(
        """([name, content, mime]) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([content], name, { type: mime }));
            return transfer;
        }""",
        [name, content, mime],
    )
    for event in ("dragenter", "dragover", "drop"):
        page.dispatch_event(target, event, {"dataTransfer": transfer})


def test_a_dropped_catalog_is_imported_and_its_summary_shown(page, server, sample_library):
    open_app(page, server.url)

    drop_file(page, "more.csv", CATALOG)

    summary = page.locator("#import-summary")
    expect(summary).to_be_visible()
    expect(summary).to_contain_text("more.csv")
    expect(summary).to_contain_text("3")
    expect(album_count(page)).to_have_text("33 albums")
    scroll_to_end(page)
    expect(cover(page, 32).locator(".title")).to_have_text("Marquee Moon")
    assert [album["title"] for album in sample_library.albums()][-3:] == ["Heroes", "Station to Station", "Marquee Moon"]


def test_a_catalog_dropped_on_an_empty_library_fills_the_page(page, library, serve):
    library.run("init")
    server = serve(library)
    open_app(page, server.url)

    drop_file(page, "more.csv", CATALOG)

    expect(album_count(page)).to_have_text("3 albums")
    expect(page.locator("#empty-library")).to_be_hidden()
    expect(cover(page, 0).locator(".title")).to_have_text("Heroes")


def test_a_catalog_dropped_twice_adds_nothing_the_second_time(page, server, sample_library):
    open_app(page, server.url)
    drop_file(page, "more.csv", CATALOG)
    expect(album_count(page)).to_have_text("33 albums")
    page.locator("#import-summary-close").click()

    drop_file(page, "more.csv", CATALOG)

    expect(page.locator("#import-summary")).to_be_visible()
    expect(page.locator("#import-summary")).to_contain_text("more.csv")
    assert len(sample_library.albums()) == 33


def test_a_bad_catalog_is_refused_in_its_summary_with_line_and_field_and_imports_nothing(page, server, sample_library):
    open_app(page, server.url)

    drop_file(page, "bad.csv", "title,artist,year\nSome Title,Someone,not-a-year\n")

    summary = page.locator("#import-summary")
    expect(summary).to_have_class("import-summary error")
    # As `albumstore import` says it: file, line, field.
    expect(summary).to_contain_text('Could not import: bad.csv:2: year: "not-a-year" is not a year')
    expect(status_line(page)).to_have_class("error")
    expect(album_count(page)).to_have_text("30 albums")
    assert len(sample_library.albums()) == 30


def test_an_image_dropped_off_a_cover_is_not_read_as_a_catalog(page, server, sample_library):
    open_app(page, server.url)
    requests = []
    page.on("request", lambda request: requests.append(request.url) if "/api/import" in request.url else None)

    drop_file(page, "cover.png", "\x89PNG\r\n", mime="image/png")

    summary = page.locator("#import-summary")
    expect(summary).to_have_class("import-summary error")
    expect(summary).to_contain_text("cover.png is an image, not a catalog")
    assert requests == []
    assert len(sample_library.albums()) == 30


def test_a_keyboard_user_imports_with_the_file_picker(page, server, sample_library, tmp_path):
    open_app(page, server.url)
    catalog = tmp_path / "picked.csv"
    catalog.write_text(CATALOG)

    page.locator("#import-file").focus()
    with page.expect_file_chooser() as chooser:
        page.keyboard.press("Enter")
    chooser.value.set_files(str(catalog))

    expect(page.locator("#import-summary")).to_contain_text("Imported picked.csv")
    expect(album_count(page)).to_have_text("33 albums")
