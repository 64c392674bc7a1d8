"""Stats: every label and count inside its chart at any width, every genre up to 25, a bar is a
link to its search, and while fresh numbers load the last ones stay with a sign of loading."""

import csv

import pytest
from playwright.sync_api import expect

from album_page import open_app, tab

GENRES = ["Rock", "Jazz", "Soul", "Electronic", "Folk", "Classical", "Hip-Hop", "Pop", "Blues", "Reggae",
          "Contemporary Classical Chamber Music", "Country", "Metal", "Punk", "Ambient", "Acid Jazz"]


@pytest.fixture
def genre_library(library, tmp_path):
    catalog = tmp_path / "genres.csv"
    with catalog.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["title", "artist", "genre", "year"])
        for number in range(400):
            writer.writerow([f"Record {number}", f"Band {number % 30}", GENRES[number % len(GENRES)], 1900 + (number * 5) % 126])
    library.import_file(catalog)
    return library


def inside_their_charts(page) -> list:
    """The labels and counts that stick out of their chart or overlap each other."""
    return page.evaluate("""() => {
        const problems = [];
        for (const chart of document.querySelectorAll('.chart')) {
            const box = chart.getBoundingClientRect();
            for (const row of chart.querySelectorAll('.bar-row')) {
                const label = row.querySelector('.bar-label'), value = row.querySelector('.bar-value');
                for (const part of [label, value]) {
                    const r = part.getBoundingClientRect();
                    if (r.left < box.left || r.right > box.right || part.scrollWidth > part.clientWidth + 1) problems.push(part.textContent);
                }
                if (label.getBoundingClientRect().right > row.querySelector('.bar-track').getBoundingClientRect().left) problems.push(label.textContent);
            }
        }
        return problems;
    }""")


@pytest.mark.parametrize("width", [1400, 390])
def test_every_label_and_count_fits_inside_its_chart(page, genre_library, serve, width):
    server = serve(genre_library)
    page.set_viewport_size({"width": width, "height": 900})
    open_app(page, server.url)

    tab(page, "Stats").click()

    expect(page.locator("#chart-genres .bar-row")).to_have_count(len(GENRES))
    expect(page.locator("#chart-decades .bar-row")).to_have_count(13)
    assert inside_their_charts(page) == []


def test_a_bar_is_the_link_to_its_search(page, genre_library, serve):
    server = serve(genre_library)
    open_app(page, server.url)
    tab(page, "Stats").click()

    bar = page.get_by_role("link", name="Jazz 25", exact=True)
    expect(bar).to_have_attribute("href", "?tab=search&q=genre%3A%3DJazz")
    bar.click()

    expect(tab(page, "Search")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("searchbox", name="Query")).to_have_value("genre:=Jazz")
    expect(page.locator("#search-summary")).to_have_text("25 albums match.")
    page.go_back()
    expect(tab(page, "Stats")).to_have_attribute("aria-selected", "true")


def test_while_the_numbers_load_the_last_ones_stay_marked_as_loading(page, genre_library, serve):
    server = serve(genre_library)
    open_app(page, server.url)
    tab(page, "Stats").click()
    expect(page.locator("#chart-genres .bar-row")).to_have_count(len(GENRES))
    held = []
    page.route("**/api/stats*", lambda route: held.append(route))

    genre_library.add("One More", "Someone", "--genre", "Rock")

    expect(page.locator("#charts")).to_have_attribute("aria-busy", "true")
    expect(page.locator("#chart-genres .bar-row")).to_have_count(len(GENRES))
    expect(page.locator("#stats-summary")).to_contain_text("400 albums")
    assert len(held) >= 1
    for route in held:
        route.continue_()
    page.unroute("**/api/stats*")
    expect(page.locator("#stats-summary")).to_contain_text("401 albums")
    expect(page.locator("#charts")).not_to_have_attribute("aria-busy", "true")
