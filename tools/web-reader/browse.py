#!/usr/bin/env python3
"""Opens a ShareKit web link in a real headless Chromium, signs in on the
web reader's login page, and reports what the browser shows.

It drives Chromium through chromedriver (WebDriver over loopback HTTP,
Debian's `chromium` and `chromium-driver`): chromedriver is started on
port 0 and stopped by its process id; nothing but the Python standard
library is needed.

    browse.py --url URL --user NAME --password-stdin [--screenshots DIR] [--json]

Steps: open URL (a message's web_url: the server sends a browser without a
session to its login page), take a screenshot of the login page, sign in,
follow the server to the page the link names, take a screenshot of it.
The JSON report (--json, else a line per member) has:

- login_url, login_title: the login page;
- url, title: where the browser ended (the thread page, with the message's
  id as fragment);
- target: the message element the fragment names: its id, its text, and
  whether it is in the viewport and highlighted (:target);
- scripts: how many <script> elements the thread page holds (the reader
  sends none, and a message's text never becomes one);
- title_untouched: the page's title is still the reader's own (a message
  that smuggled a script in would have changed it);
- screenshots: the PNG files written.

Exit 0 when the browser got to the page, 1 when a step failed (the
message says which), 2 for a bad command line.
"""

import argparse
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# How long any one step (chromedriver's start, a page load, an element) may take.
STEP_SECONDS = 30


class Failure(Exception):
    """A step that did not work, with what a person needs to know."""


class ChromeDriver:
    """chromedriver on a free loopback port, with one headless Chromium session."""

    def __init__(self, profile):
        # A chromedriver that ends before it listens (seen once on a machine
        # at load 13) is started once more; what it printed is in the error.
        said = []
        for _ in range(2):
            self.start(said)
            if self.port is not None:
                break
            self.stop()
        if self.port is None:
            printed = " | ".join(line.strip() for line in said if line.strip())[-600:]
            raise Failure(f"chromedriver did not start (it printed: {printed or 'nothing'})")
        capabilities = {
            "capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": CHROMIUM,
                    "args": [
                        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                        "--window-size=1024,768", "--no-first-run", "--disable-extensions",
                        f"--user-data-dir={profile}",
                    ],
                },
                "timeouts": {"pageLoad": STEP_SECONDS * 1000, "implicit": 0},
            }},
        }
        try:
            self.session = self.call("POST", "/session", capabilities)["sessionId"]
        except Exception:
            self.stop()
            raise

    def start(self, said):
        """Starts chromedriver on a free port; self.port stays None when it ends first."""
        self.process = subprocess.Popen(
            [CHROMEDRIVER, "--port=0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = None
        deadline = time.monotonic() + STEP_SECONDS
        while self.port is None and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            said.append(line)
            found = re.search(r"started successfully on port (\d+)", line)
            if found:
                self.port = int(found.group(1))

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
            headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=STEP_SECONDS * 2) as answer:
                return json.loads(answer.read() or b"{}").get("value", {})
        except urllib.error.HTTPError as error:
            detail = json.loads(error.read() or b"{}").get("value", {})
            raise Failure(f"WebDriver {method} {path}: {detail.get('error')}: {detail.get('message', '')[:300]}")

    def session_call(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def open(self, url):
        self.session_call("POST", "/url", {"url": url})

    def script(self, source, *arguments):
        return self.session_call("POST", "/execute/sync", {"script": source, "args": list(arguments)})

    def element(self, css):
        deadline = time.monotonic() + STEP_SECONDS
        while True:
            try:
                found = self.session_call("POST", "/element", {"using": "css selector", "value": css})
                return next(iter(found.values()))
            except Failure:
                if time.monotonic() >= deadline:
                    raise Failure(f"no element {css} on {self.url()}")
                time.sleep(0.05)

    def type(self, css, text):
        self.session_call("POST", f"/element/{self.element(css)}/value", {"text": text})

    def click(self, css):
        self.session_call("POST", f"/element/{self.element(css)}/click", {})

    def url(self):
        return self.session_call("GET", "/url")

    def title(self):
        return self.session_call("GET", "/title")

    def screenshot(self, path):
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.session_call("GET", "/screenshot")))

    def wait_for(self, predicate, what):
        deadline = time.monotonic() + STEP_SECONDS
        while not predicate():
            if time.monotonic() >= deadline:
                raise Failure(f"timed out waiting for {what} (at {self.url()})")
            time.sleep(0.05)

    def stop(self):
        if getattr(self, "session", None):
            try:
                self.call("DELETE", f"/session/{self.session}")
            except Exception:
                pass
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def browse(url, user, password, screenshots):
    profile = tempfile.mkdtemp(prefix="sharekit-chromium-")
    driver = None
    try:
        driver = ChromeDriver(profile)
        report = {"screenshots": []}
        driver.open(url)
        driver.element("form input#username")
        report["login_url"] = driver.url()
        report["login_title"] = driver.title()
        if screenshots:
            path = os.path.join(screenshots, "web-reader-login.png")
            driver.screenshot(path)
            report["screenshots"].append(path)
        driver.type("#username", user)
        driver.type("#password", password)
        driver.click("#sign-in")
        driver.wait_for(lambda: "/web/login" not in driver.url(), "the page after the login")
        driver.element("main")
        report["url"] = driver.url()
        report["title"] = driver.title()
        fragment = report["url"].split("#", 1)[1] if "#" in report["url"] else None
        if fragment:
            report["target"] = driver.script(
                """
                const element = document.getElementById(arguments[0]);
                if (!element) return null;
                const box = element.getBoundingClientRect();
                return {id: element.id, text: element.querySelector('.text').textContent,
                        sender: element.querySelector('.sender').textContent,
                        in_view: box.top >= 0 && box.bottom <= window.innerHeight,
                        highlighted: element.matches(':target')};
                """, fragment)
        report["scripts"] = driver.script("return document.querySelectorAll('script').length;")
        report["title_untouched"] = report["title"].startswith("ShareKit: ")
        if screenshots:
            path = os.path.join(screenshots, "web-reader-thread.png")
            driver.screenshot(path)
            report["screenshots"].append(path)
            driver.open(url.split("/web/", 1)[0] + "/web/threads")
            driver.element("main h1")
            path = os.path.join(screenshots, "web-reader-threads.png")
            driver.screenshot(path)
            report["screenshots"].append(path)
        return report
    finally:
        if driver:
            driver.stop()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the web link to open (http or https)")
    parser.add_argument("--user", required=True, help="the username to sign in with")
    parser.add_argument("--password-stdin", action="store_true", required=True,
                        help="read the password from the first line of standard input")
    parser.add_argument("--screenshots", help="write PNG screenshots of each page into this directory")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    arguments = parser.parse_args()
    if not re.match(r"^https?://", arguments.url):
        parser.error("--url must be an http or https URL")
    password = sys.stdin.readline().rstrip("\n")
    try:
        report = browse(arguments.url, arguments.user, password, arguments.screenshots)
    except Failure as failure:
        print(f"browse: {failure}", file=sys.stderr)
        return 1
    if arguments.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for key, value in sorted(report.items()):
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
