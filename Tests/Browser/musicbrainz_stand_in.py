"""MusicBrainz's web service and the Cover Art Archive on 127.0.0.1, in a thread: the JSON shapes of
musicbrainz.org/doc/MusicBrainz_API (a release lookup with artist credits, release group and
genres; a release search with scores), covers redirected with 307 as the archive does. Each
MusicBrainz request is logged with its time. Used by the browser tests and scripts/bench-enrich."""

import http.server
import json
import threading
import time
import urllib.parse


def png(width: int = 500, height: int = 500, padding: int = 30000) -> bytes:
    """A PNG frame around filler bytes: signature, IHDR, IDAT, IEND (the library checks the frame)."""
    return (b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR" + width.to_bytes(4, "big") + height.to_bytes(4, "big")
            + b"\x08\x02\x00\x00\x00\x00\x00\x00\x00" + padding.to_bytes(4, "big") + b"IDAT" + b"\x00" * padding
            + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00IEND\xaeB`\x82")


class Release:
    def __init__(self, id, title, artist, first_release_date=None, date=None, genres=(), front=True):
        self.id, self.title, self.artist = id, title, artist
        self.first_release_date, self.date, self.genres, self.front = first_release_date, date, list(genres), front

    def json(self, score=None):
        body = {"id": self.id, "title": self.title, "date": self.date or "", "status": "Official",
                "artist-credit": [{"name": self.artist, "joinphrase": "", "artist": {"id": "artist", "name": self.artist}}],
                "release-group": {"id": "group-" + self.id, "primary-type": "Album",
                                  "first-release-date": self.first_release_date or ""},
                "genres": [{"name": name, "count": count} for name, count in self.genres],
                "cover-art-archive": {"front": self.front, "count": 1 if self.front else 0}}
        if score is not None:
            body["score"] = score
        return body


class StandIn:
    """Serves `releases` until `stop()`; `url` is the base URL of both services."""

    def __init__(self, releases, cover: bytes = None):
        self.releases = {release.id: release for release in releases}
        self.by_title = {}
        for release in releases:
            self.by_title.setdefault(release.title.lower(), []).append(release)
        self.cover = cover or png()
        self.log = []   # (monotonic time, "lookup" or "search", release id or title)
        self.lock = threading.Lock()
        stand_in = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                stand_in.answer(self)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    @staticmethod
    def send(handler, status, body=b"", kind="application/json", headers=()):
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(body)

    def answer(self, handler):
        now = time.monotonic()
        url = urllib.parse.urlsplit(handler.path)
        parts = url.path.strip("/").split("/")
        if parts[:3] == ["ws", "2", "release"] and len(parts) == 4:
            with self.lock:
                self.log.append((now, "lookup", parts[3]))
            release = self.releases.get(parts[3])
            if release is None:
                return self.send(handler, 404, b'{"error": "Not Found"}')
            return self.send(handler, 200, json.dumps(release.json()).encode())
        if parts[:3] == ["ws", "2", "release"]:
            query = urllib.parse.parse_qs(url.query).get("query", [""])[0]
            title, artist = self.phrase(query, "release:"), self.phrase(query, "artist:")
            with self.lock:
                self.log.append((now, "search", title))
            found = [release.json(score=100 if release.artist.lower() == artist.lower() else 70)
                     for release in self.by_title.get(title.lower(), [])]
            return self.send(handler, 200, json.dumps({"count": len(found), "offset": 0, "releases": found}).encode())
        if len(parts) == 3 and parts[0] == "release" and parts[2] == "front-500":
            release = self.releases.get(parts[1])
            if release is None or not release.front:
                return self.send(handler, 404, b"")
            return self.send(handler, 307, headers=[("Location", f"/images/{release.id}-500.png")])
        if parts[0] == "images":
            return self.send(handler, 200, self.cover, "image/png")
        return self.send(handler, 404, b"")

    @staticmethod
    def phrase(query: str, field: str) -> str:
        """The quoted phrase after `field` in a Lucene query, unescaped."""
        start = query.find(field + '"')
        if start < 0:
            return ""
        text, escaped = [], False
        for character in query[start + len(field) + 1:]:
            if escaped:
                text.append(character)
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                break
            else:
                text.append(character)
        return "".join(text)
