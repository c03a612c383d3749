"""A tiny headless-Chromium driver for the viewer tests: the Chrome DevTools Protocol
over ``--remote-debugging-pipe`` (file descriptors 3 and 4, NUL-terminated JSON), with
the standard library only: no selenium, no chromedriver, no network port.

    with Browser() as b:
        b.open("file:///.../viewer.html")
        b.click("a.open")
        b.type("#search", "hello")
        b.eval("document.body.dataset.shown")
        b.screenshot(path)
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def dump_dom(url: str, *, timeout: float = 60) -> str:
    """The DOM after load (scripts run), via ``--dump-dom``."""
    with tempfile.TemporaryDirectory() as profile:
        out = subprocess.run([chromium_path(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                             capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"chromium --dump-dom failed ({out.returncode}): {out.stderr[-2000:]}")
    return out.stdout


class Browser:
    def __init__(self, *, width: int = 1400, height: int = 1000, timeout: float = 30.0):
        self.timeout = timeout
        self._profile = tempfile.mkdtemp(prefix="viewer-test-chromium-")
        r, self._to_chrome = os.pipe()
        self._from_chrome, w = os.pipe()
        # move the child's ends above 9 so that "3<&R 4>&W" cannot overwrite a source fd
        to_chrome_r, from_chrome_w = fcntl.fcntl(r, fcntl.F_DUPFD, 10), fcntl.fcntl(w, fcntl.F_DUPFD, 10)
        os.close(r)
        os.close(w)
        # bash (dash takes one-digit fds only) maps our pipe ends onto Chromium's fds 3
        # (commands) and 4 (replies)
        cmd = [shutil.which("bash") or "bash", "-c", f'exec "$0" "$@" 3<&{to_chrome_r} 4>&{from_chrome_w}', chromium_path(), *FLAGS,
               f"--user-data-dir={self._profile}", "--remote-debugging-pipe", f"--window-size={width},{height}",
               "about:blank"]
        self._proc = subprocess.Popen(cmd, pass_fds=(to_chrome_r, from_chrome_w), stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None

    # -- protocol
    def send(self, method: str, params: dict | None = None, *, session: bool = True) -> dict:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        return self._reply(self._id)

    def _reply(self, want: int) -> dict:
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                m = json.loads(raw)
                if m.get("id") == want:
                    if "error" in m:
                        raise RuntimeError(f"CDP error: {m['error']}")
                    return m.get("result", {})
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no CDP reply to message {want} in {self.timeout} s")
            ready, _, _ = select.select([self._from_chrome], [], [], left)
            if ready:
                chunk = os.read(self._from_chrome, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the debugging pipe")
                self._buf += chunk

    # -- page helpers
    def open(self, url: str, ready: str = "document.querySelector('#list') !== null") -> str:
        """Open ``url`` in a new tab, make it the current page and wait for ``ready``
        (default: the viewer's list); its session id (for :meth:`use`)."""
        return self.new_page(url, ready)

    def new_page(self, url: str, ready: str = "true", *, own_context: bool = False) -> str:
        """Like :meth:`open`; ``own_context``: in a browser context of its own (its own
        cookies and storage, as a second person's browser)."""
        params: dict[str, Any] = {"url": "about:blank"}
        if own_context:
            params["browserContextId"] = self.send("Target.createBrowserContext", session=False)["browserContextId"]
        target = self.send("Target.createTarget", params, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Page.navigate", {"url": url})
        self.wait_for(f"document.readyState === 'complete' && ({ready})")
        return self.session

    def use(self, session: str) -> None:
        """Make the page of ``session`` (from :meth:`open`) the current one."""
        self.session = session

    def reload(self, ready: str = "true") -> None:
        """Reload the current page and wait for the new document's ``ready``."""
        self.eval("window.__before_reload = true")
        self.send("Page.reload", {"ignoreCache": True})
        self.wait_for(f"!window.__before_reload && document.readyState === 'complete' && ({ready})")

    def eval(self, expression: str) -> Any:
        res = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in res:
            raise RuntimeError(f"page script error: {res['exceptionDetails']}")
        return res["result"].get("value")

    def wait_for(self, expression: str, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (timeout or self.timeout)
        # false while the expression throws (a document still loading has no body yet)
        # or the page has no context to run it in (between two documents)
        check = f"(function(){{try{{return !!({expression});}}catch(e){{return false;}}}})()"
        while True:
            try:
                if self.eval(check):
                    return
            except RuntimeError as e:
                if "CDP error" not in str(e):
                    raise
            if time.monotonic() > deadline:
                try:
                    page = self.eval("location.href + ' ' + (document.body ? document.body.innerText : '')")[:1500]
                except (RuntimeError, TimeoutError):
                    page = "(unreadable)"
                raise TimeoutError(f"page never satisfied: {expression}; the page: {page}")
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real mouse click (press and release) at the centre of the element."""
        box = self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                        "if(!e)return null;e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
                        "return [r.left+r.width/2,r.top+r.height/2];})()")
        if box is None:
            raise LookupError(f"no element matches {selector!r}")
        x, y = box
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                                   "clickCount": 0 if kind == "mouseMoved" else 1})

    def type(self, selector: str, text: str) -> None:
        """Focus the element and type ``text`` into it as keyboard input (one ``input`` event)."""
        if not self.eval(f"(function(){{var e=document.querySelector({json.dumps(selector)});"
                         "if(!e)return false;e.focus();return document.activeElement===e;})()"):
            raise LookupError(f"no focusable element matches {selector!r}")
        self.send("Input.insertText", {"text": text})

    def screenshot(self, path: str | Path) -> Path:
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        p = Path(path)
        p.write_bytes(base64.b64decode(data))
        return p

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait(timeout=10)
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
