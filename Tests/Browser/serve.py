"""`albumstore serve` as a subprocess: started on a free port, stopped with Ctrl-C (SIGINT)."""

import os
import queue
import re
import signal
import subprocess
import threading

from albumstore_cli import Library

URL = re.compile(r"http://127\.0\.0\.1:\d+/")


class Server:
    def __init__(self, library: Library, start_timeout: float = 30, arguments: tuple = ()):
        self.process = subprocess.Popen(
            [str(library.binary), "--db", str(library.path), "serve", "--port", "0", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=library.environment,
        )
        self.output: list[str] = []
        self.errors: list[str] = []
        lines: queue.Queue = queue.Queue()
        # Both pipes are drained for the server's whole life, so it never blocks on a full pipe.
        threading.Thread(target=self._drain, args=(self.process.stdout, self.output, lines), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.process.stderr, self.errors, None), daemon=True).start()
        self.url = self._wait_for_url(lines, start_timeout)

    @staticmethod
    def _drain(pipe, kept: list, lines):
        for line in pipe:
            kept.append(line)
            if lines is not None:
                lines.put(line)
        if lines is not None:
            lines.put(None)

    def _wait_for_url(self, lines: queue.Queue, timeout: float) -> str:
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                self.process.kill()
                raise AssertionError(f"albumstore serve printed no URL within {timeout} s")
            if line is None:
                self.process.wait()
                raise AssertionError(
                    f"albumstore serve exited {self.process.returncode} before printing its URL: "
                    + "".join(self.errors).strip()
                )
            found = URL.search(line)
            if found:
                return found.group(0)

    def stop(self, timeout: float = 10) -> int:
        """Ctrl-C, as a user would; returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                raise AssertionError(f"albumstore serve did not stop within {timeout} s of SIGINT")
        return self.process.returncode
