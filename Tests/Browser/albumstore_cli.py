"""The real `albumstore` command line, run on one library file."""

import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def albumstore_binary() -> Path:
    """ALBUMSTORE_BIN, else the debug build of this checkout."""
    binary = Path(os.environ.get("ALBUMSTORE_BIN", REPO / ".build" / "debug" / "albumstore"))
    if not binary.is_file():
        raise FileNotFoundError(
            f"{binary}: no albumstore binary; run `swift build` or set ALBUMSTORE_BIN"
        )
    return binary


class Library:
    """A library file in a temporary folder, changed and read only through the CLI."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.path = folder / "library.sqlite"
        self.binary = albumstore_binary()
        # Nothing may reach the user's own library (~/.local/share/albumstore).
        self.environment = dict(os.environ, XDG_DATA_HOME=str(folder / "xdg-data"))

    def run(self, *arguments: str, timeout: float = 60) -> str:
        """Runs `albumstore --db LIB ARGUMENTS`; returns stdout, raises on a non-zero exit."""
        completed = subprocess.run(
            [str(self.binary), "--db", str(self.path), *arguments],
            capture_output=True, text=True, env=self.environment, timeout=timeout,
        )
        if completed.returncode != 0:
            raise AssertionError(
                f"albumstore {' '.join(arguments)} exited {completed.returncode}: {completed.stderr.strip()}"
            )
        return completed.stdout

    def import_file(self, path: Path, timeout: float = 60) -> None:
        self.run("import", str(path), timeout=timeout)

    def add(self, title: str, artist: str, *options: str) -> None:
        self.run("add", "--title", title, "--artist", artist, *options)

    def albums(self) -> list:
        return json.loads(self.run("list", "--format", "json"))

    def query(self, *terms: str) -> list:
        return json.loads(self.run("query", "--format", "json", "--", *terms))

    def state(self) -> dict:
        return json.loads(self.run("state", "--format", "json"))
