"""Debian's Chromium, headless, driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages
ended by a NUL byte, read on its fd 3 and written on its fd 4), for the hall pages' end-to-end test."""
from __future__ import annotations

import base64
import itertools
import json
import os
import select
import subprocess
import time
from pathlib import Path

TOOLS = {"chromium": "chromium"}
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--mute-audio",
         "--window-size=1280,800", "--remote-debugging-pipe"]


class Chromium:
    """A headless Chromium with its profile in `folder`, its messages in folder/chromium.log."""

    def __init__(self, folder: Path) -> None:
        to_it, self._to = os.pipe()
        self._from, from_it = os.pipe()

        def its_pipes() -> None:   # in the child: the protocol's fds 3 and 4 (to_it, made first, is 3 or above)
            for fd, number in ((to_it, 3), (from_it, 4)):
                os.dup2(fd, number)
                os.set_inheritable(number, True)

        with open(folder / "chromium.log", "w") as log:
            self.process = subprocess.Popen(
                ["chromium", *FLAGS, f"--user-data-dir={folder / 'profile'}", "about:blank"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=False, preexec_fn=its_pipes)
        os.close(to_it)
        os.close(from_it)
        self._ids = itertools.count(1)
        self._read = b""

    def open(self, url: str) -> str:
        """Open `url` in a new tab: the session to `evaluate` in."""
        target = self.call("Target.createTarget", url=url)["targetId"]
        return self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def evaluate(self, session: str, expression: str):
        """The value of the JavaScript `expression` in the tab of `session` (AssertionError when it throws)."""
        answer = self.call("Runtime.evaluate", session, expression=expression, returnByValue=True)
        assert "exceptionDetails" not in answer, f"{expression}: {answer['exceptionDetails']}"
        return answer["result"].get("value")

    def screenshot(self, session: str, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", session)["data"]))

    def call(self, method: str, session: str | None = None, timeout: float = 20, **params) -> dict:
        """Send one command and return its result (the protocol's events on the way are skipped)."""
        number = next(self._ids)
        message = {"id": number, "method": method, "params": params} | ({"sessionId": session} if session else {})
        os.write(self._to, json.dumps(message).encode() + b"\0")
        end = time.monotonic() + timeout
        while True:
            while b"\0" not in self._read:
                left = end - time.monotonic()
                assert left > 0 and select.select([self._from], [], [], left)[0], f"Chromium: no answer to {method}"
                chunk = os.read(self._from, 1 << 16)
                assert chunk, "Chromium ended: see chromium.log"
                self._read += chunk
            text, self._read = self._read.split(b"\0", 1)
            answer = json.loads(text)
            if answer.get("id") == number:
                assert "error" not in answer, f"{method}: {answer['error']}"
                return answer["result"]

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self._to)
        os.close(self._from)
