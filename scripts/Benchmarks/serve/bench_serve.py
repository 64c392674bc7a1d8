"""scripts/bench-serve's measurements: the album browser over a large library, against a static
file server (nginx, else Python's http.server) serving the same bytes, in the same run.

Run by scripts/bench-serve, which builds the release binary and installs wrk, nginx and the
browser tests' Playwright first; its header says what is measured and the targets.
"""
import hashlib
import http.client
import json
import os
import random
import re
import selectors
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
from pathlib import Path

ALBUMS = int(os.environ.get("ALBUMS", "1000000"))
ROUNDS = int(os.environ.get("ROUNDS", "3"))
SECONDS = int(os.environ.get("SECONDS_PER_RUN", "10"))
SAMPLES = int(os.environ.get("SAMPLES", "50"))
COVERS = 200
GENRES = ["Rock", "Jazz", "Soul", "Electronic", "Folk", "Classical", "Hip-Hop", "Pop"]

# Targets (docs/serve.md): the first screen usable within 300 ms; scrolling to the end and a word
# search under 100 ms a request; a substring or sorted search under 300 ms, the whole request the
# page makes (its count of every match included); 50 connections with p99 under 50 ms for album
# pages and covers.
FIRST_SCREEN_MS = 300
REQUEST_MS = 100
SEARCH_MS = 300
P99_MS = 50
# Change events fanned out: FAN_OUT listeners on /api/events while FAN_OUT_CYCLES imports of
# FAN_OUT_ALBUMS albums (each undone) run from the CLI; `GET /` every 20 ms meanwhile, p99 under
# FAN_OUT_P99_MS.
FAN_OUT = int(os.environ.get("FAN_OUT", "200"))
FAN_OUT_ALBUMS = int(os.environ.get("FAN_OUT_ALBUMS", "50000"))
FAN_OUT_CYCLES = 4
FAN_OUT_P99_MS = 100


def png(seed: int, size: int = 128) -> bytes:
    """A size×size RGB PNG of noise (about 49 KB: noise does not compress)."""
    rng = random.Random(seed)
    rows = b"".join(b"\x00" + rng.randbytes(size * 3) for _ in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def run(binary: str, database: Path, *arguments: str) -> str:
    result = subprocess.run([binary, "--db", str(database), *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench-serve: albumstore {' '.join(arguments)} failed: {result.stderr.strip()}")
    return result.stdout


def make_library(binary: str, cache: Path) -> tuple[Path, Path]:
    """The library (ALBUMS albums, COVERS of them with a cover) and the folder of those covers,
    made once and kept in the cache."""
    # Named after this file and the schema: a change to either makes a new one.
    here = Path(__file__).resolve()
    digest = hashlib.sha256(here.read_bytes())
    for migration in sorted((here.parents[3] / "Migrations").glob("*.sql")):
        digest.update(migration.read_bytes())
    name = f"serve-{ALBUMS}-{digest.hexdigest()[:12]}"
    database = cache / f"{name}.sqlite"
    covers = cache / f"{name}-covers"
    if database.exists() and covers.exists():
        return database, covers
    print(f"Making a library of {ALBUMS:,} albums (kept in {cache})...", file=sys.stderr)
    for stale in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        stale.unlink(missing_ok=True)
    shutil.rmtree(covers, ignore_errors=True)
    covers.mkdir(parents=True)
    catalog = cache / "serve-catalog.csv"
    with catalog.open("w", encoding="utf-8") as file:
        file.write("title,artist,genre,year\n")
        for number in range(1, ALBUMS + 1):
            file.write(f"Album {number},Artist {number % 5000},{GENRES[number % len(GENRES)]},{1950 + number % 70}\n")
    run(binary, database, "import", str(catalog))
    catalog.unlink()
    for number in range(COVERS):
        album_id = 1 + number * (ALBUMS // COVERS)
        path = covers / f"{album_id}.png"
        path.write_bytes(png(number))
        run(binary, database, "covers", "set", str(album_id), str(path))
    return database, covers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`albumstore serve` on a copy of the library."""

    def __init__(self, binary: str, database: Path):
        self.process = subprocess.Popen([binary, "--db", str(database), "serve", "--port", "0"],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            sys.exit(f"bench-serve: albumstore serve printed {line!r}")
        self.port = int(match.group(1))
        self.url = match.group(0)
        page = http.client.HTTPConnection("127.0.0.1", self.port)
        page.request("GET", "/")
        self.token = re.search(r'name="albumstore-token" content="([0-9a-f]+)"', page.getresponse().read().decode()).group(1)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        if self.process.wait(timeout=10) != 0:
            sys.exit("bench-serve: albumstore serve did not exit 0 on Ctrl-C")


class StaticServer:
    """The reference: nginx (else Python's http.server) serving `folder` on loopback."""

    def __init__(self, folder: Path, scratch: Path):
        self.port = free_port()
        nginx = shutil.which("nginx")
        if nginx:
            self.name = "nginx"
            config = scratch / "nginx.conf"
            config.write_text(f"""
worker_processes 2; daemon off; pid {scratch}/nginx.pid; error_log stderr error;
events {{ worker_connections 1024; }}
http {{
    access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
    types {{ image/png png; application/json json; text/html html; }}
    client_body_temp_path {scratch}; proxy_temp_path {scratch}; fastcgi_temp_path {scratch};
    uwsgi_temp_path {scratch}; scgi_temp_path {scratch};
    server {{ listen 127.0.0.1:{self.port}; root {folder}; etag on; }}
}}
""")
            self.process = subprocess.Popen([nginx, "-c", str(config), "-p", str(scratch)])
        else:
            self.name = "python http.server"
            self.process = subprocess.Popen([sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
                                             "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.02)
        sys.exit(f"bench-serve: {self.name} did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


# What encodeURIComponent leaves as it is, besides letters, digits and `-_.`.
URI_COMPONENT_SAFE = "!~*'()"


def search(query: str, offset: int = 0, sort: str | None = None) -> str:
    """The request the page's search sends (app.js, runSearch): the query as encodeURIComponent
    writes it, an offset and 100 results; the answer holds the count of every match too."""
    path = f"/api/query?q={urllib.parse.quote(query, safe=URI_COMPONENT_SAFE)}&offset={offset}&limit=100"
    return path + (f"&sort={sort}" if sort else "")


def matches(port: int, path: str) -> int:
    """The count of every match a search of the page (`search`) answers with."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", path)
    response = connection.getresponse()
    if response.status != 200:
        sys.exit(f"bench-serve: GET {path} answered {response.status}")
    total = json.loads(response.read())["total"]
    connection.close()
    return total


def timed_requests(port: int, paths: list[str], method: str = "GET", headers: dict | None = None,
                   body: bytes | None = None) -> list[float]:
    """Milliseconds for each request of `paths`, one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for path in paths:
        start = time.perf_counter()
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.read()
        times.append((time.perf_counter() - start) * 1000)
        if response.status >= 400:
            sys.exit(f"bench-serve: {method} {path} answered {response.status}")
    connection.close()
    return times


def wrk(port: int, paths: list[str], scratch: Path) -> float:
    """p99 latency in milliseconds of wrk's 50 connections (2 threads) cycling through `paths`."""
    script = scratch / "paths.lua"
    script.write_text("paths = {" + ",".join(json.dumps(path) for path in paths) + "}\n"
                      "local i = 0\n"
                      "request = function() i = i % #paths + 1; return wrk.format(nil, paths[i]) end\n")
    output = subprocess.run(["wrk", "-t2", "-c50", f"-d{SECONDS}s", "--latency", "-s", str(script),
                             f"http://127.0.0.1:{port}"], capture_output=True, text=True, check=True).stdout
    if re.search(r"Non-2xx or 3xx responses: (\d+)", output):
        sys.exit(f"bench-serve: wrk saw errors:\n{output}")
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)\s*$", output, re.M).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


READY = ("() => document.body && document.body.dataset.state === 'ready'"
         " && document.querySelector('#scroller .album') !== null ? performance.now() : false")

# The reference for the first screen: a page that is ready as soon as it is parsed.
STATIC_PAGE = '<!doctype html><link rel="icon" href="data:,"><body data-state="ready"><div id="scroller"><div class="album">.</div></div></body>'


def first_screens(urls: list[str], rounds: int) -> list[list[float]]:
    """Milliseconds from navigation to the page ready (covers or placeholders and the details
    shown) for each of `urls`, `rounds` times, alternating: one headless Chromium, warmed up,
    and a fresh browser context each time (nothing cached)."""
    from playwright.sync_api import sync_playwright
    times: list[list[float]] = [[] for _ in urls]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"))
        for _ in range(rounds + 1):
            for which, url in enumerate(urls):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                page = context.new_page()
                page.goto(url, wait_until="commit")
                times[which].append(page.wait_for_function(READY, polling="raf", timeout=30000).json_value())
                context.close()
        browser.close()
    return [values[1:] for values in times]  # the first round warms the browser up


def fan_out(binary: str, library: Path, port: int, scratch: Path) -> tuple[list[float], int]:
    """`GET /` latencies (ms) while FAN_OUT listeners hear FAN_OUT_CYCLES imports of FAN_OUT_ALBUMS
    albums and their undos; and the bytes each listener received."""
    catalog = scratch / "fan-out.csv"
    with open(catalog, "w") as file:
        file.write("title,artist,year\n")
        for n in range(FAN_OUT_ALBUMS):
            file.write(f"Fan-out album {n},Fan-out artist {n % 997},{1950 + n % 70}\n")
    listeners = selectors.DefaultSelector()
    received = {}
    for _ in range(FAN_OUT):
        listener = socket.create_connection(("127.0.0.1", port))
        listener.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        listener.setblocking(False)
        listeners.register(listener, selectors.EVENT_READ)
        received[listener] = 0
    done = threading.Event()

    def drain():
        while not done.is_set():
            for key, _ in listeners.select(timeout=0.1):
                try:
                    received[key.fileobj] += len(key.fileobj.recv(1 << 16))
                except BlockingIOError:
                    pass

    latencies = []

    def probe():
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while not done.is_set():
            start = time.perf_counter()
            connection.request("GET", "/")
            connection.getresponse().read()
            latencies.append((time.perf_counter() - start) * 1000)
            time.sleep(0.02)
        connection.close()

    threads = [threading.Thread(target=drain), threading.Thread(target=probe)]
    for thread in threads:
        thread.start()
    try:
        for _ in range(FAN_OUT_CYCLES):
            run(binary, library, "import", str(catalog))
            run(binary, library, "undo")
    finally:
        done.set()
        for thread in threads:
            thread.join()
        for listener in received:
            listener.close()
    return latencies, statistics.median(received.values())


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"


def main() -> int:
    binary, cache = sys.argv[1], Path(sys.argv[2])
    cache.mkdir(parents=True, exist_ok=True)
    database, covers = make_library(binary, cache)
    cover_ids = sorted(int(path.stem) for path in covers.glob("*.png"))
    scratch = Path(tempfile.mkdtemp(prefix="albumstore-bench-serve-"))
    try:
        library = scratch / "library.sqlite"
        shutil.copyfile(database, library)
        static = scratch / "static"
        shutil.copytree(covers, static / "covers")
        server = Server(binary, library)
        # The reference serves the same bytes: the covers, and the album page wrk asks for.
        middle = f"/api/albums?offset={ALBUMS // 2}&limit=50"
        page = http.client.HTTPConnection("127.0.0.1", server.port)
        page.request("GET", middle)
        (static / "page.json").write_bytes(page.getresponse().read())
        reference = StaticServer(static, scratch)
        print(f"bench-serve: {ALBUMS:,} albums, {len(cover_ids)} covers of about 49 KB, reference {reference.name}, "
              f"{ROUNDS} rounds", file=sys.stderr)

        rng = random.Random(1)
        rows = []
        missed = []

        def check(name: str, values: list[float], target: float) -> None:
            met = statistics.median(values) < target
            if not met:
                missed.append(name)
            rows.append((name, summary(values), f"< {target:g} ms", "met" if met else "MISSED"))

        (static / "ready.html").write_text(STATIC_PAGE)
        first, floor = first_screens([server.url, f"http://127.0.0.1:{reference.port}/ready.html"], ROUNDS * 3)
        check("first screen (navigation to ready, ms)", first, FIRST_SCREEN_MS)
        rows[-1] = rows[-1][:2] + (f"< {FIRST_SCREEN_MS} ms; a static page {summary(floor)}",) + rows[-1][3:]

        token = {"X-AlbumStore-Token": server.token, "Content-Type": "application/json"}
        requests = {
            "first page of 100": (["/api/albums?offset=0&limit=100"] * SAMPLES, REQUEST_MS),
            "last page of 100 (scrolled to the end)": ([f"/api/albums?offset={ALBUMS - 100}&limit=100"] * SAMPLES, REQUEST_MS),
            "a page of 100 anywhere": ([f"/api/albums?offset={rng.randrange(ALBUMS - 100)}&limit=100" for _ in range(SAMPLES)],
                                       REQUEST_MS),
        }
        # The searches as the page sends them: the first 100 results and the count of every match.
        for name, path, target in [
            ("search a word (`1234`)", search("1234"), REQUEST_MS),
            ("search a word (`1234`), its second 100", search("1234", offset=100), REQUEST_MS),
            ("search `genre:jazz year:1970..1979`", search("genre:jazz year:1970..1979"), SEARCH_MS),
            ("search `title:moon`", search("title:moon"), SEARCH_MS),
            ("search `genre:jazz`, sorted by year", search("genre:jazz", sort="year"), SEARCH_MS),
        ]:
            requests[f"{name}: {matches(server.port, path):,} matches, 100 and the count"] = ([path] * SAMPLES, target)
        requests["the current album"] = (["/api/state/current"] * SAMPLES, REQUEST_MS)
        for name, (paths, target) in requests.items():
            per_round = [statistics.median(timed_requests(server.port, paths)) for _ in range(ROUNDS)]
            check(f"{name} (median ms)", per_round, target)
        saves = [statistics.median(timed_requests(server.port, ["/api/state/current"] * SAMPLES, "PUT", token,
                                                  json.dumps({"index": ALBUMS - 1}).encode())) for _ in range(ROUNDS)]
        check("save the current album (median ms)", saves, REQUEST_MS)
        static_cover = [statistics.median(timed_requests(reference.port, [f"/covers/{cover_ids[0]}.png"] * SAMPLES))
                        for _ in range(ROUNDS)]
        served_cover = [statistics.median(timed_requests(server.port, [f"/api/covers/{cover_ids[0]}"] * SAMPLES))
                        for _ in range(ROUNDS)]
        rows.append(("one cover, one connection (median ms)", summary(served_cover),
                     f"{reference.name} {summary(static_cover)}",
                     f"{statistics.median(served_cover) / statistics.median(static_cover):.1f}x"))

        for name, ours, theirs in [
            ("album pages (50 a page), 50 connections: p99 ms", [middle], ["/page.json"]),
            ("covers, 50 connections: p99 ms", [f"/api/covers/{i}" for i in cover_ids], [f"/covers/{i}.png" for i in cover_ids]),
        ]:
            served, static_p99 = [], []
            for _ in range(ROUNDS):
                served.append(wrk(server.port, ours, scratch))
                static_p99.append(wrk(reference.port, theirs, scratch))
            met = statistics.median(served) < P99_MS
            if not met:
                missed.append(name)
            rows.append((name, summary(served), f"< {P99_MS} ms; {reference.name} {summary(static_p99)}",
                         ("met" if met else "MISSED") + f", {statistics.median(served) / statistics.median(static_p99):.1f}x"))
        latencies, per_listener = fan_out(binary, library, server.port, scratch)
        p99 = statistics.quantiles(latencies, n=100)[98]
        if p99 >= FAN_OUT_P99_MS:
            missed.append("fan-out")
        rows.append((f"`GET /` while {FAN_OUT} listeners hear {FAN_OUT_CYCLES} imports of {FAN_OUT_ALBUMS:,} albums and "
                     f"their undos: p99 ms ({len(latencies)} requests)", f"{p99:.1f} (max {max(latencies):.1f})",
                     f"< {FAN_OUT_P99_MS} ms; {per_listener / 1024:.1f} KB to each listener",
                     "met" if p99 < FAN_OUT_P99_MS else "MISSED"))
        server.stop()
        reference.stop()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print("| what | albumstore serve: median (min–max) | target / reference | result |")
    print("|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    if missed:
        print(f"bench-serve: missed: {', '.join(missed)}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
