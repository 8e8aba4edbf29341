#!/usr/bin/python3
"""The browser build in a real browser: serves dist/ on 127.0.0.1, drives headless Chromium over the
DevTools protocol, and checks what a student would see. egui draws on a canvas, so the page writes
one JSON line to the console for each thing the test waits for (first frame, lesson shown, map
opened, `?test=grid-astar` result, `?test=long-job` frame times, `?test=barca-uct` game); the
search's length is checked against the map's MovingAI `.scen` file, not against the app, and must
come from a Web Worker. The server sends the build's .br/.gz copies as nginx's gzip_static does
(under /plain/ it sends the files as they are, under /broken/ it has no wasm); loads are timed at
10 Mbit/s.
Screenshots go to target/web-test/.

Needs Debian's chromium, python3-websocket and python3-pil (installed by .ci/run).
Usage: web/test.py [DIST_DIR [WORD...]]: with words, only the checks whose names hold one of them.
"""

import functools
import gzip
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import base64
import io
import urllib.request

import websocket
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH, HEIGHT = 1280, 720
# A small map served beside the page for `?map=URL` (8x5, a wall across the middle with a gap).
LINKED_MAP = "type octile\nheight 5\nwidth 8\nmap\n........\n........\n@@@@@@.@\n........\n........\n"
# A lecture served for `?lecture=URL`: a grid cell on the map beside it (read from the lecture's
# folder, as on the desktop), a polygon cell on a bundled map, a cell on a map not served, whose
# error must name the file and the HTTP status, and one on a bundled map's path, which is not
# served either: the built-in map is read instead, as the desktop falls back to it.
LINKED_LECTURE = """---
searchlab: 1
title: A linked lecture
---

# Four cells

```searchlab
version = 1
lab = "grid"
map = { path = "small.map" }
spec = "dijkstra"
start = [0, 0]
goal = [0, 4]
```

Prose between the cells.

```searchlab
version = 1
lab = "polygon"
map = { bundled = "pillars.json" }
```

```searchlab
version = 1
lab = "grid"
map = { path = "gone.map" }
```

```searchlab
version = 1
lab = "grid"
map = { path = "maps/maze64.map" }
```
"""
LINKED = {"/linked/small.map": LINKED_MAP, "/linked/talk.md": LINKED_LECTURE}
# Console messages that are not problems: wgpu finds no WebGPU adapter before it falls back to
# WebGL2; SwiftShader warns about slow reads; no favicon is served.
HARMLESS = [
    r"No available adapters",
    r"GPU stall due to ReadPixels",
    r"favicon\.ico",
    r"WebGL: .*(warning|performance)",
    r"Automatic fallback to software WebGL has been deprecated",
    r"status of 404 .*/linked/(gone|maps/maze64)\.map$",  # the linked lecture's maps not served, on purpose
]
# The throttled loads' link: 10 Mbit/s down and up, 20 ms each way.
TEN_MBIT = {"offline": False, "latency": 20, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}
UNTHROTTLED = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
# The loading bar's state: [value, max, the text above it], or null once the app has started.
LOADING = """(() => {
    const bar = document.getElementById("progress"), status = document.getElementById("status");
    return bar ? [bar.getAttribute("value") === null ? null : bar.value, bar.max, status.textContent,
                  document.getElementById("loading").className] : null;
})()"""
# The colours of an error's text (the dark and the light theme: src/app/theme.rs).
ERROR_COLOURS = [(235, 90, 70), (190, 30, 20)]
# Read before the app starts on the next load: the notebook restored as presenting.
PRESENTING = """const key = "lesson: Lecture notebook", saved = localStorage.getItem(key);
if (saved) localStorage.setItem(key, saved.replace('"presenting":false', '"presenting":true'));"""
# Collects the page's long tasks (main-thread tasks over 50 ms) as [start, duration] pairs.
LONG_TASKS = """window.longTasks = [];
new PerformanceObserver(list => list.getEntries().forEach(e => window.longTasks.push([e.startTime, e.duration])))
    .observe({type: "longtask", buffered: true});"""


def long_tasks(page):
    """The long tasks the page has run so far (LONG_TASKS installed before it loaded)."""
    result = page.call("Runtime.evaluate", expression="JSON.stringify(window.longTasks || [])")
    return json.loads(result["result"]["value"])


class Page:
    """One Chromium tab over the DevTools protocol: console lines, errors, input, screenshots."""

    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, suppress_origin=True, timeout=5)
        self.next_id = 0
        self.console = []  # (level, text) in arrival order
        for method in ["Runtime.enable", "Log.enable", "Page.enable"]:
            self.call(method)
        self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=False)

    def _event(self, message):
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"])
            self.console.append((params["type"], text))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.console.append(("error", details.get("exception", {}).get("description", details.get("text", ""))))
        elif method == "Log.entryAdded":
            entry = params["entry"]
            self.console.append((entry["level"], entry["text"] + " " + entry.get("url", "")))

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._event(message)

    def pump(self, seconds):
        """Reads events for `seconds`."""
        end = time.time() + seconds
        while time.time() < end:
            self.ws.settimeout(max(0.01, end - time.time()))
            try:
                self._event(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                pass
        self.ws.settimeout(5)

    def wait_for(self, predicate, what, timeout=90):
        """The first JSON console line (from the start of this page load) that `predicate` accepts."""
        end = time.time() + timeout
        while True:
            for level, text in self.console:
                if level == "log" and text.startswith("{"):
                    try:
                        line = json.loads(text)
                    except json.JSONDecodeError:
                        continue
                    if predicate(line):
                        return line
            if time.time() > end:
                raise AssertionError(f"timed out waiting for {what}; console: {self.console[-10:]}")
            self.pump(0.2)

    def open(self, url):
        self.console.clear()
        self.call("Page.navigate", url=url)

    def evaluate(self, expression):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def tap(self, x, y):
        """A finger's tap (touch emulation on), as a phone sends it."""
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def set_size(self, width, height, phone):
        """The viewport's size; a phone's also takes touch input."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=phone)
        self.call("Emulation.setTouchEmulationEnabled", enabled=phone, maxTouchPoints=5 if phone else 1)

    def events(self, name):
        """The JSON console lines of `event` `name` since this page load, in order."""
        lines = [json.loads(text) for level, text in self.console if level == "log" and text.startswith("{")]
        return [line for line in lines if line.get("event") == name]

    def click(self, x, y):
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        for kind in ["mousePressed", "mouseReleased"]:
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def workers(self):
        """The page's Web Workers now (DevTools targets of type "worker")."""
        return [t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "worker"]

    def wait_counting_workers(self, predicate, what, timeout=120):
        """The console line `predicate` accepts (None after `timeout`), and the most workers listed meanwhile."""
        most, line = 0, None
        end = time.time() + timeout
        while line is None and time.time() < end:
            most = max(most, len(self.workers()))
            try:
                line = self.wait_for(predicate, what, 0)
            except AssertionError:
                self.pump(0.05)
        return line, most

    def screenshot(self, path):
        data = base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])
        with open(path, "wb") as file:
            file.write(data)
        return Image.open(io.BytesIO(data)).convert("RGB")

    def problems(self):
        """Console errors and warnings not known to be harmless (panics are errors)."""
        return [
            (level, text)
            for level, text in self.console
            if level in ("error", "warning", "assert")
            and not any(re.search(pattern, text) for pattern in HARMLESS)
        ]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(dist, encodings_sent):
    """dist/ on 127.0.0.1, plus the linked files (LINKED). A file's .br or .gz copy is sent when the
    browser takes that encoding, except under /plain/; /broken/ has no wasm. `encodings_sent` maps
    each path to the encoding sent."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?")[0]
            if path in LINKED:
                return self.send(LINKED[path].encode(), "text/plain")
            if path.startswith("/broken/") and path.endswith(".wasm"):
                return self.send_error(404, "File not found")
            for folder in ["/plain/", "/broken/"]:
                if path.startswith(folder):
                    encodings_sent[path] = "identity"
                    self.path = self.path[len(folder) - 1 :]
                    return super().do_GET()
            local = self.translate_path(path)
            local = os.path.join(local, "index.html") if os.path.isdir(local) else local
            accepted = [part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")]
            for encoding, suffix in [("br", ".br"), ("gzip", ".gz")]:
                if encoding in accepted and os.path.isfile(local + suffix):
                    encodings_sent[path] = encoding
                    with open(local + suffix, "rb") as file:
                        return self.send(file.read(), self.guess_type(local), encoding)
            encodings_sent[path] = "identity"
            super().do_GET()

        def send(self, body, content_type, encoding=None):
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if encoding:
                self.send_header("Content-Encoding", encoding)
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=dist))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def scen_optimal(path, start, goal):
    """The optimal length the MovingAI scenario file gives for this query."""
    with open(path) as file:
        for line in file.read().splitlines()[1:]:
            fields = line.split("\t")
            if [int(fields[4]), int(fields[5])] == start and [int(fields[6]), int(fields[7])] == goal:
                return float(fields[8])
    raise AssertionError(f"{path} has no scenario {start} -> {goal}")


def error_pixels(image, box):
    """How many pixels in `box` have an error's text colour (or nearly: text is anti-aliased)."""
    region = image.crop(box)
    close = lambda pixel: any(sum(abs(a - b) for a, b in zip(pixel, colour)) < 24 for colour in ERROR_COLOURS)
    return sum(count for count, pixel in region.getcolors(maxcolors=1 << 20) if close(pixel))


def not_blank(image):
    """More than one colour over a real share of the canvas: something was drawn."""
    colours = image.getcolors(maxcolors=1 << 20) or []
    top = max(count for count, _ in colours) if colours else image.width * image.height
    return len(colours) > 16 and top < 0.97 * image.width * image.height


def main():
    dist = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "dist"))
    out = os.path.join(ROOT, "target", "web-test")
    os.makedirs(out, exist_ok=True)
    encodings_sent = {}
    server = serve(dist, encodings_sent)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    profile = tempfile.mkdtemp(prefix="searchlab-chromium-")
    port = free_port()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or "chromium"
    # No back/forward cache: a page navigated away from would stay alive with its workers, and the
    # worker count is of the page shown.
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--enable-unsafe-swiftshader", "--no-first-run",
         "--disable-features=BackForwardCache",
         f"--remote-debugging-port={port}", f"--user-data-dir={profile}", f"--window-size={WIDTH},{HEIGHT}",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    results = []

    only = sys.argv[2:]

    def check(name, test):
        if only and not any(word in name for word in only):
            return
        started = time.time()
        try:
            test()
            results.append((name, None))
            print(f"ok    {name} ({time.time() - started:.1f} s)", flush=True)
        except Exception as error:  # one failing check must not hide the others
            results.append((name, error))
            print(f"FAIL  {name}: {error}", flush=True)

    try:
        targets = None
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as reply:
                    targets = json.load(reply)
                break
            except OSError:
                time.sleep(0.1)
        page_target = next(t for t in targets if t["type"] == "page")
        page = Page(page_target["webSocketDebuggerUrl"])
        figures = {}

        def first_load():
            page.open(base)
            frame = page.wait_for(lambda line: line.get("event") == "first-frame", "the first frame")
            figures["first frame (ms after navigation)"] = frame["ms"]
            lesson = page.wait_for(lambda line: line.get("event") == "lesson", "the lesson shown")
            assert lesson["title"] == "Grid search", lesson
            page.pump(2)
            image = page.screenshot(os.path.join(out, "start.png"))
            assert not_blank(image), "the canvas is blank"
            assert not page.problems(), page.problems()

        def click_switches_lessons():
            # The lessons are the left panel's first buttons, "Polygon maps" the second: click down
            # the panel until a lesson other than the current one opens, which must be that one.
            opened = None
            for y in range(20, 300, 6):
                page.click(40, y)
                page.pump(0.3)
                lessons = [json.loads(text) for level, text in page.console if level == "log" and '"event":"lesson"' in text]
                if lessons[-1]["title"] != "Grid search":
                    opened = lessons[-1]["title"]
                    break
            assert opened == "Polygon maps", f"the first lesson a click opened was {opened}"
            page.pump(1)
            page.screenshot(os.path.join(out, "polygon-maps.png"))
            assert not page.problems(), page.problems()

        def settings_persist():
            # eframe saves on its auto-save interval, at the next frame after it: move the mouse then.
            page.pump(6)
            page.call("Input.dispatchMouseEvent", type="mouseMoved", x=600, y=400)
            page.pump(1)
            page.open(base)
            lesson = page.wait_for(lambda line: line.get("event") == "lesson", "the lesson shown")
            assert lesson["title"] == "Polygon maps", f"reopened on {lesson['title']}"

        def grid_search_is_optimal():
            page.open(base + "?test=grid-astar")
            result = page.wait_for(lambda line: line.get("test") == "grid-astar", "the grid A* result", 120)
            optimal = scen_optimal(os.path.join(ROOT, "maps", result["map"] + ".scen"), result["start"], result["goal"])
            assert result["cost"] is not None, "no path found"
            assert abs(result["cost"] - optimal) < 1e-6, f"A* found {result['cost']}, the .scen says {optimal}"
            assert result["ran_in"] == "worker", f"the search ran in the {result['ran_in']}, not a Web Worker"
            # The browser's clock ticks by 0.1 ms: a faster search is timed over repeats, never "0.00 ms".
            assert result["search_us"] > 0 and re.fullmatch(r"(< )?\d+(\.\d+)? ms", result["search_time"]), result
            assert re.search(r"[1-9]", result["search_time"]), f"the search's time reads {result['search_time']}"
            figures["grid A* time shown (its mean over repeats when under 20 clock ticks)"] = result["search_time"]
            figures["grid A* expanded"] = result["expanded"]
            figures["grid A* job in the worker (ms, start to answer)"] = result["ms"]
            page.pump(1)
            page.screenshot(os.path.join(out, "grid-astar.png"))
            assert not page.problems(), page.problems()

        def linked_map_opens():
            page.open(base + "?map=/linked/small.map")
            opened = page.wait_for(lambda line: line.get("event") == "map", "the linked map")
            assert (opened["name"], opened["width"], opened["height"]) == ("small.map", 8, 5), opened
            page.pump(1)
            page.screenshot(os.path.join(out, "linked-map.png"))
            assert not page.problems(), page.problems()

        def linked_lecture_opens():
            page.open(base + "?lecture=/linked/talk.md")
            opened = page.wait_for(lambda line: line.get("event") == "lecture", "the linked lecture")
            assert (opened["name"], opened["cells"]) == ("talk.md", 4), opened
            # small.map was fetched from beside the lecture, maze64.map is built in; gone.map's error says why not.
            gone = "talk.md:28: gone.map: cannot read: HTTP 404 File not found (fetching " + base + "linked/gone.map)"
            assert opened["problems"] == [gone], opened["problems"]
            page.wait_for(lambda line: line.get("event") == "lesson" and line["title"] == "Lecture notebook", "the notebook")
            page.pump(2)
            page.screenshot(os.path.join(out, "linked-lecture.png"))
            assert not page.problems(), page.problems()

        def reopened_without_the_link(lesson, name):
            # The link's visit saves (eframe saves on its interval, at the next frame: move the
            # mouse then); a visit without it restores the same lesson, its file read again.
            page.pump(6)
            page.call("Input.dispatchMouseEvent", type="mouseMoved", x=700, y=500)
            page.pump(1)
            page.open(base)
            page.wait_for(lambda line: line.get("event") == "lesson" and line["title"] == lesson, lesson)
            page.pump(2)
            shown = page.screenshot(os.path.join(out, f"{name}-plain-visit.png"))
            assert not page.problems(), page.problems()
            return shown

        def linked_map_then_plain_visit():
            shown = reopened_without_the_link("Grid search", "linked-map")
            # Without the kept files the saved map reads as missing: the error shows in red (this
            # checks the count itself), as it did before they were kept.
            red = error_pixels(shown, (0, 0, WIDTH, HEIGHT))
            page.evaluate('localStorage.removeItem("web: linked files")')
            page.open(base)
            page.wait_for(lambda line: line.get("event") == "lesson", "the lesson")
            page.pump(2)
            missing = error_pixels(page.screenshot(os.path.join(out, "linked-map-forgotten.png")), (0, 0, WIDTH, HEIGHT))
            figures["error-coloured pixels: map kept / forgotten"] = f"{red} / {missing}"
            assert red < 20 <= missing, f"{red} error-coloured pixels with the map kept, {missing} without it"

        def linked_lecture_then_plain_visit():
            shown = reopened_without_the_link("Lecture notebook", "linked-lecture")
            # The notebook's message line, under its toolbar (the cells, below, show gone.map's error).
            red = error_pixels(shown, (0, 0, WIDTH, 120))
            assert red < 20, f"{red} error-coloured pixels under the notebook's toolbar: see linked-lecture-plain-visit.png"

        def full_screen_when_presenting():
            # The notebook reopens presenting the lecture; clicks along its top row ("< Previous",
            # "Next >", "Full screen") until the page is in full screen: each click is a user gesture.
            script = page.call("Page.addScriptToEvaluateOnNewDocument", source=PRESENTING)["identifier"]
            page.open(base)
            page.wait_for(lambda line: line.get("event") == "lesson" and line["title"] == "Lecture notebook", "the notebook")
            page.call("Page.removeScriptToEvaluateOnNewDocument", identifier=script)
            page.pump(2)
            page.screenshot(os.path.join(out, "presenting.png"))
            clicked = None
            for x in range(20, 600, 8):
                page.click(x, 14)
                page.pump(0.25)
                if page.evaluate("document.fullscreenElement !== null"):
                    clicked = x
                    break
            assert clicked is not None, "no click along the presenting row entered full screen"
            page.wait_for(lambda line: line.get("event") == "full-screen" and line["on"], "the full-screen event")
            page.pump(1)
            page.screenshot(os.path.join(out, "full-screen.png"))
            page.click(clicked, 14)  # and unticked, it leaves
            page.pump(1)
            assert not page.evaluate("document.fullscreenElement !== null"), "unticking left the page in full screen"
            assert not page.problems(), page.problems()

        def throttled_load(folder, name):
            # At 10 Mbit/s, with no cache: the loading bar must count up to the wasm's size.
            page.call("Network.enable")
            page.call("Network.setCacheDisabled", cacheDisabled=True)
            page.call("Network.emulateNetworkConditions", **TEN_MBIT)
            try:
                page.open(base + folder)
                states, shot, end = [], False, time.time() + 120
                while not any('"event":"first-frame"' in text for _, text in page.console) and time.time() < end:
                    state = page.evaluate(LOADING)
                    if state and (not states or states[-1] != state):
                        states.append(state)
                    if state and state[0] and 0 < state[0] < state[1] and not shot:
                        shot = page.screenshot(os.path.join(out, f"loading-{name}.png"))
                    page.pump(0.1)
                frame = page.wait_for(lambda line: line.get("event") == "first-frame", "the first frame", 0)
            finally:
                page.call("Network.emulateNetworkConditions", **UNTHROTTLED)
                page.call("Network.setCacheDisabled", cacheDisabled=False)
            sent = encodings_sent.get(f"/{folder}searchlab_web_bg.wasm", "?")
            figures[f"first frame at 10 Mbit/s, wasm sent {sent} (ms after navigation)"] = frame["ms"]
            # Polled every 0.1 s: the last count seen is near the size, then the bar waits for the compiler.
            size = states[-1][1]
            counts = [value for value, *_ in states if value is not None]
            assert len(set(counts)) >= 3, f"the bar showed {len(set(counts))} different counts: {states}"
            assert counts == sorted(counts) and 0.8 * size < counts[-1] <= size, f"it did not count up to the size: {states}"
            # Then "Starting" while the browser compiles, which a quick compile ends between two polls.
            last = states[-1]
            assert ("Starting" in last[2] and last[0] is None) or last[0] == counts[-1], f"the last state shown: {last}"
            figures[f"loading bar at 10 Mbit/s, wasm sent {sent}: states seen"] = len(states)
            assert not page.problems(), page.problems()

        def failed_load_says_so():
            page.open(base + "broken/")
            end = time.time() + 30
            while "failed" not in ((page.evaluate(LOADING) or [""] * 4)[3]) and time.time() < end:
                page.pump(0.2)
            state = page.evaluate(LOADING)
            page.screenshot(os.path.join(out, "load-failed.png"))
            assert state and state[3] == "failed", f"no failure shown: {state}"
            assert "could not start" in state[2] and "HTTP 404" in state[2], state[2]

        def long_job_leaves_the_page_drawing():
            # The computer's Barca move, deepening for up to 30 s: in the page it would freeze it.
            page.open(base + "?test=long-job")
            result, workers_seen = page.wait_counting_workers(lambda line: line.get("test") == "long-job", "the long job")
            assert result is not None, f"the long job never reported; console: {page.console[-10:]}"
            page.pump(0.5)
            page.screenshot(os.path.join(out, "long-job.png"))
            assert result["ran_in"] == "worker", result
            assert result["nodes"] > 0 and result["reports"] >= 2, f"no progress came from the worker: {result}"
            assert result["stopped_early"] and result["legal"], f"stopped, it answers a legal best move so far: {result}"
            # Work in the page would allow no frame between its first report and its end. (Frames
            # themselves are slow here: SwiftShader draws the app in software.)
            assert result["frames"] >= 3, f"only {result['frames']} frames while the job ran: {result}"
            assert workers_seen >= 1, "the page started no Web Worker"
            figures["long job: frames while it ran"] = f"{result['frames']} in {result['watched_ms']} ms, {result['reports']} showing new progress"
            figures["long job: frame interval mean / max (ms)"] = f"{result['mean_gap_ms']} / {result['max_gap_ms']}"
            figures["long job: first progress report after (ms)"] = result["first_report_ms"]
            figures["long job: Stop to best-so-far answer (ms)"] = result["stop_to_answer_ms"]
            figures["long job: answer when stopped"] = f"{result['move']} (depth {result['best_depth']} done, {result['nodes']} nodes)"
            assert not page.problems(), page.problems()

        def stopped_jobs_leave_no_workers_behind():
            # On from the long job: the page starts and stops more jobs one after the other, as a
            # student pressing Stop and starting again. Each job takes the spare worker and starts
            # the next spare; Stop terminates the job's worker, which DevTools lists until its
            # thread has ended (seconds on a busy machine). Once they have, only the spare is left.
            done, most = page.wait_counting_workers(lambda line: line.get("test") == "restarts", "the restarts")
            assert done is not None, f"the jobs never all answered; console: {page.console[-10:]}"
            answered = time.time()
            left = len(page.workers())
            while left > 1 and time.time() < answered + 30:
                page.pump(0.2)
                left = len(page.workers())
            figures[f"workers: most listed at once while {done['jobs']} jobs started and stopped"] = most
            figures["workers: seconds until only the spare is listed"] = f"{time.time() - answered:.1f}"
            assert left == 1, f"{left} workers still listed 30 s after the jobs ended, only the spare should be"
            assert not page.problems(), page.problems()

        def barca_uct_keeps_its_tree_in_the_worker():
            # The Barca page's computer, UCT at Hard, plays itself, then a move stopped early, then
            # one more. Its engine stays in its Web Worker between moves: when it crossed, the tree
            # was 43 MB to the worker and 55 MB back by the 8th move, costing the page 80-130 ms
            # each way. Now a position and weights go out and a move and a line come back: a few
            # hundred bytes, so 64 KB is far above them and far below even an empty engine (its
            # alpha-beta table alone is 256 KB). 50 ms of the page's time for such a message only
            # allows for a busy machine; frame intervals are not bounded, as software rendering
            # on shared cores makes them 300-450 ms here.
            page.call("Page.addScriptToEvaluateOnNewDocument", source=LONG_TASKS)
            page.open(base + "?test=barca-uct")
            result, most = page.wait_counting_workers(lambda line: line.get("test") == "barca-uct", "the Barca UCT game", 180)
            assert result is not None, f"the game never reported; console: {page.console[-10:]}"
            searches, played = result["searches"], result["moves"] - 2
            # Each move searches on below the move just played, with its visits (computer vs computer).
            tried = [int(re.search(r"tried (\d+) times", line).group(1)) for line in searches[:played]]
            for move in range(1, played):
                kept = re.search(r"\+ (\d+) kept from the last move", searches[move])
                assert kept and int(kept.group(1)) == tried[move - 1], f"move {move + 1} kept no tree: {searches}"
            assert searches[played].startswith("stopped") and result["stopped_legal"], f"Stop answers a legal best move: {result}"
            assert "kept" not in searches[-1], f"after Stop ended its worker, the player starts afresh: {searches[-1]}"
            sizes = (result["largest_sent"], result["largest_received"])
            assert max(sizes) < 64 * 1024, f"the largest messages to and from the workers were {sizes} bytes"
            page_ms = max(result["start_ms"] + [result["longest_receive_ms"]])
            assert page_ms < 50, f"the page spent {page_ms} ms on a job's message: {result}"
            longest = max((duration for start, duration in long_tasks(page) if result["from_ms"] <= start <= result["to_ms"]), default=0)
            figures[f"barca UCT hard, {played} moves: largest message to / from the worker (bytes)"] = f"{sizes[0]} / {sizes[1]}"
            figures["barca UCT hard: page's longest time starting a move / taking a message in (ms)"] = f"{max(result['start_ms'])} / {result['longest_receive_ms']}"
            figures["barca UCT hard: frame interval median / max, longest main-thread task (ms)"] = f"{result['median_gap_ms']} / {result['max_gap_ms']}, {longest:.0f}"
            figures["barca UCT hard: visits kept into the last full move"] = re.search(r"\+ (\d+) kept", searches[played - 1]).group(1)
            # The game's player is gone, its worker ended: only the spare is left.
            ended = time.time()
            while len(page.workers()) > 1 and time.time() < ended + 30:
                page.pump(0.2)
            figures["barca UCT hard: most workers listed during the game"] = most
            assert len(page.workers()) == 1, f"{len(page.workers())} workers listed 30 s after the game, only the spare should be"
            assert not page.problems(), page.problems()

        def phone_lab_by_taps():
            # A phone: 412x915, touch. The lessons are a menu in the top bar's left corner: tap it,
            # then down its list until Polygon maps opens, then open it again and tap Grid search.
            page.set_size(412, 915, True)
            try:
                page.open(base + "?test=steps")
                page.wait_for(lambda line: line.get("event") == "first-frame", "the first frame")
                page.pump(2)
                page.screenshot(os.path.join(out, "phone-start.png"))
                for wanted in ["Polygon maps", "Grid search"]:
                    for y in range(34, 200, 6):
                        page.tap(40, 14)
                        page.pump(0.3)
                        page.tap(40, y)
                        page.pump(0.3)
                        lessons = page.events("lesson")
                        if lessons[-1]["title"] == wanted:
                            break
                    assert lessons[-1]["title"] == wanted, f"no tap in the lesson menu opened {wanted}: {lessons}"
                    page.screenshot(os.path.join(out, f"phone-{wanted.split()[0].lower()}.png"))
                # The grid lab searches its map as it opens and shows the end; "Step >" is in the
                # replay bar's row under the top bar: tap along it until a tap steps one on.
                page.wait_for(lambda line: line.get("event") == "step" and line["lesson"] == "Grid search", "the grid lab's step")
                page.pump(1)
                page.tap(20, 14)  # away from the menu
                found = None
                for y in range(60, 400, 8):
                    before = page.events("step")[-1]["step"]
                    page.tap(255, y)
                    page.pump(0.3)
                    after = page.events("step")[-1]["step"]
                    if before.isdigit() and after == str(int(before) + 1):
                        found = y
                        break
                assert found is not None, f"no tap stepped the search on: {page.events('step')[-5:]}"
                page.tap(255, found)
                page.pump(0.5)
                steps = [line["step"] for line in page.events("step")]
                assert steps[-1] == str(int(steps[-2]) + 1), f"a second tap on Step > did not step: {steps[-5:]}"
                page.screenshot(os.path.join(out, "phone-grid-stepped.png"))
                figures["phone: grid lab stepped by taps (steps)"] = " -> ".join(steps[-3:])
                assert not page.problems(), page.problems()
            finally:
                page.set_size(WIDTH, HEIGHT, False)

        def replay_frame_times():
            # The grid lab replays Dijkstra on random512 at top speed; the page times its frames.
            page.open(base + "?test=replay-random512")
            result = page.wait_for(lambda line: line.get("test") == "replay-random512", "the frame times", 240)
            assert result["frames"] >= 100 and result["events"] > 0, result
            idle, interval, single = result["idle_interval_ms"], result["interval_ms"], result["pass_ms"]
            assert 0 < single["mean"] <= interval["mean"], result
            figures["replay random512, frame interval playing (ms, mean / p95)"] = f"{interval['mean']} / {interval['p95']}"
            figures["replay random512, frame interval still (ms, mean / p95)"] = f"{idle['mean']} / {idle['p95']}"
            figures["replay random512, egui pass playing (ms, mean / p95)"] = f"{single['mean']} / {single['p95']}"
            page.screenshot(os.path.join(out, "replay-random512.png"))
            assert not page.problems(), page.problems()

        check("first load: a frame, no errors, not blank", first_load)
        check("a click switches lessons", click_switches_lessons)
        check("settings persist in local storage", settings_persist)
        check("?test=grid-astar finds the .scen optimal length", grid_search_is_optimal)
        check("a long job runs in a Web Worker: the page keeps drawing, Stop ends the worker with the best so far", long_job_leaves_the_page_drawing)
        check("stopped jobs leave no workers behind: only the spare", stopped_jobs_leave_no_workers_behind)
        check("?map=URL opens the map", linked_map_opens)
        check("after ?map=URL a plain visit reopens the map without an error", linked_map_then_plain_visit)
        check("?lecture=URL opens the lecture, its cells' maps fetched from beside it", linked_lecture_opens)
        check("after ?lecture=URL a plain visit reopens the lecture without an error", linked_lecture_then_plain_visit)
        check("presenting, ticking Full screen puts the page in full screen", full_screen_when_presenting)
        check("?test=barca-uct keeps the UCT tree in its Web Worker: only moves cross, Stop starts afresh", barca_uct_keeps_its_tree_in_the_worker)
        check("on a phone (412x915, touch) the lessons are a menu and a lab steps by taps", phone_lab_by_taps)
        check("?test=replay-random512 times the replay's frames", replay_frame_times)
        check("at 10 Mbit/s the bar counts the wasm's bytes, sent compressed", lambda: throttled_load("", "compressed"))
        check("at 10 Mbit/s the bar counts the wasm's bytes, sent as it is", lambda: throttled_load("plain/", "plain"))
        check("a wasm that fails to load says so", failed_load_says_so)
        for name in ["searchlab_web_bg.wasm", "searchlab_web.js", "worker.js", "index.html"]:
            with open(os.path.join(dist, name), "rb") as file:
                data = file.read()
            sizes = [len(data), len(gzip.compress(data, 9))]
            if os.path.exists(os.path.join(dist, name + ".br")):
                sizes.append(os.path.getsize(os.path.join(dist, name + ".br")))
            figures[f"bundle: {name} (raw / gzip -9 / brotli bytes)"] = " / ".join(map(str, sizes))
        for name, value in figures.items():
            print(f"figure: {name}: {value}")
    finally:
        browser.terminate()
        browser.wait(timeout=10)
        server.shutdown()
        shutil.rmtree(profile, ignore_errors=True)
    failed = sum(1 for _, error in results if error)
    print(f"web: {len(results) - failed} passed, {failed} failed")
    return 1 if failed or (len(results) < 17 and not only) else 0


if __name__ == "__main__":
    sys.exit(main())
