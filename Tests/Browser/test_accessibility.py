"""axe-core (the accessibility checker browsers' developer tools use) finds nothing on any tab,
at a desktop width and on a phone; the scroller's options say where they stand in the list."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from album_page import cover, open_app, tab
from test_search import search

AXE = Axe()


def violations(page) -> list:
    results = AXE.run(page)
    return [f"{violation['id']}: {violation['help']} ({len(violation['nodes'])}: "
            f"{violation['nodes'][0]['target']})" for violation in results.response["violations"]]


@pytest.mark.parametrize("width", [1280, 390])
def test_no_tab_has_an_accessibility_violation(page, server, sample_library, width):
    page.set_viewport_size({"width": width, "height": 844})
    open_app(page, server.url)
    expect(page.locator("#details-main button.editable").first).to_be_visible()
    found = {"albums": violations(page)}

    search(page, "genre:jazz")
    expect(page.locator("#search-results li").first).to_be_visible()
    found["search"] = violations(page)

    tab(page, "Stats").click()
    expect(page.locator("#chart-genres .bar-row").first).to_be_visible()
    found["stats"] = violations(page)

    sample_library.run("state", "snapshot", "before")
    tab(page, "History").click()
    expect(page.locator("#snapshot-list li").first).to_be_visible()
    found["history"] = violations(page)

    assert found == {"albums": [], "search": [], "stats": [], "history": []}


def test_each_cover_says_its_place_in_the_whole_list(page, server):
    open_app(page, server.url)

    expect(cover(page, 4)).to_have_attribute("aria-posinset", "5")
    expect(cover(page, 4)).to_have_attribute("aria-setsize", "30")


def test_reduced_motion_turns_the_transitions_off(browser, server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    open_app(page, server.url)

    duration = cover(page, 0).locator(".art").evaluate("art => getComputedStyle(art).transitionDuration")

    assert duration in ("0s", "0s, 0s")
    context.close()
