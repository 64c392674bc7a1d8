"""Tabs reordered by dragging: the order is saved (only when it changed) and restored on load."""

import json

from playwright.sync_api import expect

from album_page import open_app, tab, tab_names

DEFAULT_ORDER = ["Albums", "Search", "Stats", "History"]


def drag_tab(page, name: str, onto: str, side: str) -> None:
    """Drags the tab `name` onto the left or right half of the tab `onto`."""
    target = tab(page, onto)
    box = target.bounding_box()
    x = 4 if side == "left" else box["width"] - 4
    tab(page, name).drag_to(target, target_position={"x": x, "y": box["height"] / 2})


def tab_order_saves(page) -> list:
    """The bodies of the PUT /api/state/tabs requests the page sends from now on."""
    saves = []

    def on_request(request):
        if request.method == "PUT" and request.url.endswith("/api/state/tabs"):
            saves.append(json.loads(request.post_data))

    page.on("request", on_request)
    return saves


def is_tab_order_saved(response) -> bool:
    return response.request.method == "PUT" and response.url.endswith("/api/state/tabs")


def test_a_reordered_tab_bar_is_the_same_after_a_reload(page, server, sample_library):
    open_app(page, server.url)
    expect(tab_names(page)).to_have_text(DEFAULT_ORDER)

    with page.expect_response(is_tab_order_saved):
        drag_tab(page, "History", onto="Albums", side="left")
    expect(tab_names(page)).to_have_text(["History", "Albums", "Search", "Stats"])

    page.reload()
    open_app(page, server.url)

    expect(tab_names(page)).to_have_text(["History", "Albums", "Search", "Stats"])
    assert sample_library.state()["tab_order"] == ["history", "albums", "search", "stats"]


def test_a_tab_dropped_back_in_its_place_saves_nothing(page, server):
    open_app(page, server.url)
    saves = tab_order_saves(page)

    drag_tab(page, "Search", onto="Albums", side="right")     # where it already is
    drag_tab(page, "Stats", onto="Stats", side="left")         # onto itself
    # A real change, which must be the first thing saved.
    with page.expect_response(is_tab_order_saved):
        drag_tab(page, "Stats", onto="Albums", side="left")

    expect(tab_names(page)).to_have_text(["Stats", "Albums", "Search", "History"])
    assert saves == [{"tabs": ["stats", "albums", "search", "history"]}]


def test_a_tab_moves_with_shift_and_an_arrow_key(page, server, sample_library):
    open_app(page, server.url)
    tab(page, "Search").focus()

    with page.expect_response(is_tab_order_saved):
        page.keyboard.press("Shift+ArrowRight")

    expect(tab_names(page)).to_have_text(["Albums", "Stats", "Search", "History"])
    assert sample_library.state()["tab_order"] == ["albums", "stats", "search", "history"]
