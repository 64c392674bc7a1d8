"""The album browser as the tests see it: where things are on the page."""

from playwright.sync_api import Page, expect


def open_app(page: Page, url: str) -> Page:
    """Loads the page and waits until it has shown the library and listens for changes."""
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    expect(page.locator("body")).to_have_attribute("data-live", "open")
    return page


def cover(page: Page, index: int):
    """The scroller's item for the album at this place in the list (drawn only when in view)."""
    return page.locator(f'#scroller .album[data-index="{index}"]')


def current_cover(page: Page):
    return page.locator("#scroller .album.current")


def detail(page: Page, label: str):
    """The value cell of a row of the details table ("Artist", "Album", "Genre", "Year", ...)."""
    return page.locator("#details tr").filter(has=page.locator(f'th:text-is("{label}")')).locator("td")


def album_count(page: Page):
    return page.locator("#album-count")


def tab(page: Page, name: str):
    return page.get_by_role("tab", name=name, exact=True)


def tab_names(page: Page):
    return page.get_by_role("tab")


def status_line(page: Page):
    return page.locator("#status")


def scroll_to_end(page: Page) -> None:
    page.locator("#scroller").evaluate("scroller => { scroller.scrollLeft = scroller.scrollWidth; }")
