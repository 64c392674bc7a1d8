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


def wheel_over_covers(page: Page, covers: int) -> None:
    """Turns the mouse wheel over the scroller by `covers` covers' widths; waits until the cover
    that many places on stands where the first one in view stood."""
    first = int(page.locator("#scroller .album").evaluate_all(
        "nodes => nodes.filter((node) => node.getBoundingClientRect().left >= 0)"
        ".sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)[0].dataset.index"))
    left = cover(page, first).bounding_box()["x"]
    step = cover(page, first + 1).bounding_box()["x"] - left
    page.mouse.move(left + 20, cover(page, first).bounding_box()["y"] + 20)
    page.mouse.wheel(0, step * covers)
    page.wait_for_function(
        "([index, left]) => { const node = document.querySelector(`#scroller .album[data-index='${index}']`);"
        " return node !== null && Math.abs(node.getBoundingClientRect().left - left) < 1; }",
        arg=[first + covers, left],
    )
