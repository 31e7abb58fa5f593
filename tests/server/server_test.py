#!/usr/bin/env python3
"""Protocol tests for `gpulint server`: one case per behaviour, each run as
its own meson test. Every case starts the real binary in a fresh temporary
project, speaks LSP to it over pipes (Content-Length framing, JSON-RPC)
and checks the exact messages it answers with.

Usage: server_test.py --gpulint BINARY CASE
       server_test.py --list
"""
import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from urllib.parse import quote

TIMEOUT = 20  # seconds any one message may take

BAD = """import torch


def train(model, loader, optimizer):
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
"""
# GPU001 points at `loss.backward()`: line 7 (0-based 6), columns 8 to 23.
BAD_RANGE = {"start": {"line": 6, "character": 8}, "end": {"line": 6, "character": 23}}

EMPTY_CACHE = """import torch


def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        torch.cuda.empty_cache()
"""


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def equal(actual, expected, what):
    if actual != expected:
        raise Failure("%s:\n  expected %s\n  got      %s" % (what, json.dumps(expected), json.dumps(actual)))


def uri_of(path):
    return "file://" + quote(path)


# ---- The client ----------------------------------------------------------------------------------

class Client:
    """`gpulint server` on pipes; a thread reads its output so that every
    wait has a timeout."""

    def __init__(self, gpulint, cwd, args=()):
        self.process = subprocess.Popen([gpulint, "server", *args], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.inbox = queue.Queue()
        self.held = []  # messages read while waiting for others
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            self.inbox.put(json.loads(stream.read(length)))

    def send(self, message):
        message = dict(message, jsonrpc="2.0")
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def send_together(self, messages):
        """Writes `messages` with one write (under PIPE_BUF bytes, so that
        the server finds them all waiting)."""
        data = b""
        for message in messages:
            body = json.dumps(dict(message, jsonrpc="2.0")).encode()
            data += b"Content-Length: %d\r\n\r\n" % len(body) + body
        check(len(data) <= 4096, "a burst larger than PIPE_BUF: %d bytes" % len(data))
        os.write(self.process.stdin.fileno(), data)

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, accept, what, timeout=TIMEOUT):
        """The first message (held ones first) for which `accept` is true."""
        for index, message in enumerate(self.held):
            if accept(message):
                return self.held.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                message = self.inbox.get(timeout=max(left, 0.01))
            except queue.Empty:
                raise Failure("timed out waiting for %s; held: %s" % (what, json.dumps(self.held)[:2000]))
            if message is None:
                raise Failure("the server ended while waiting for %s" % what)
            if accept(message):
                return message
            self.held.append(message)

    def call(self, method, params):
        """A request's result; an error response fails the case."""
        request_id = self.request(method, params)
        response = self.wait(lambda m: m.get("id") == request_id and "method" not in m, "the response to " + method)
        check("error" not in response, "%s failed: %s" % (method, response.get("error")))
        return response["result"]

    def diagnostics(self, uri):
        """The next publishDiagnostics for `uri`."""
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
                            "diagnostics for " + uri)
        return message["params"]

    def no_diagnostics(self, uri, seconds=0.5):
        """Fails when diagnostics for `uri` arrive within `seconds`."""
        try:
            self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri,
                      "diagnostics", seconds)
        except Failure:
            return
        raise Failure("unexpected diagnostics for " + uri)

    def initialize(self, root, capabilities=None, options=None):
        params = {"processId": None, "rootUri": uri_of(root), "capabilities": capabilities or {}}
        if options is not None:
            params["initializationOptions"] = options
        result = self.call("initialize", params)
        self.notify("initialized", {})
        return result

    def open(self, path, text, version=1, language="python"):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri_of(path), "languageId": language,
                                                              "version": version, "text": text}})
        return uri_of(path)

    def change(self, uri, version, changes):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def finish(self):
        """shutdown and exit; the server must end with status 0."""
        self.call("shutdown", None)
        self.notify("exit", None)
        try:
            status = self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure("the server did not exit after shutdown and exit")
        equal(status, 0, "exit status after shutdown")

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# ---- Edits as a client applies them ------------------------------------------------------------

def offset_of(text, position, encoding="utf-16"):
    lines = text.split("\n")
    line = position["line"]
    before = sum(len(l) + 1 for l in lines[:line])
    units = 0
    column = 0
    current = lines[line] if line < len(lines) else ""
    while column < len(current) and units < position["character"]:
        char = current[column]
        units += len(char.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(char.encode("utf-8"))
        column += 1
    return before + column


def apply_edits(text, edits, encoding="utf-16"):
    """`text` with LSP TextEdits applied (from the last to the first)."""
    spans = [(offset_of(text, e["range"]["start"], encoding), offset_of(text, e["range"]["end"], encoding), e["newText"])
             for e in edits]
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def workspace_edits(edit, uri):
    """The TextEdits for `uri` of a WorkspaceEdit (`changes` or `documentChanges`)."""
    if "changes" in edit:
        return edit["changes"].get(uri, [])
    edits = []
    for change in edit.get("documentChanges", []):
        if change["textDocument"]["uri"] == uri:
            edits += change["edits"]
    return edits


def summary(diagnostics):
    """(code, range) of each diagnostic."""
    return [(d.get("code"), d["range"]) for d in diagnostics]


def position(line, character):
    return {"line": line, "character": character}


def span(line, start, end):
    return {"start": position(line, start), "end": position(line, end)}


# ---- Cases ------------------------------------------------------------------------------------------

CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


class Case:
    def __init__(self, gpulint, root):
        self.gpulint, self.root = gpulint, root
        self.write("pyproject.toml", "[project]\nname = \"demo\"\n")
        self.clients = []

    def path(self, relative):
        return os.path.join(self.root, relative)

    def write(self, relative, text):
        path = self.path(relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        return path

    def client(self, capabilities=None, options=None, args=()):
        client = Client(self.gpulint, self.root, args)
        self.clients.append(client)
        client.initialize(self.root, capabilities, options)
        return client

    def close(self):
        for client in self.clients:
            client.kill()


@case
def initialize_advertises_capabilities(t):
    client = Client(t.gpulint, t.root)
    t.clients.append(client)
    result = client.initialize(t.root)
    capabilities = result["capabilities"]
    equal(capabilities["positionEncoding"], "utf-16", "default position encoding")
    equal(capabilities["textDocumentSync"], {"openClose": True, "change": 2, "save": {"includeText": False}},
          "textDocumentSync")
    equal(capabilities["codeActionProvider"]["codeActionKinds"], ["quickfix", "source.fixAll.gpulint"], "action kinds")
    equal(capabilities["hoverProvider"], True, "hoverProvider")
    selector = capabilities["notebookDocumentSync"]["notebookSelector"]
    equal(selector, [{"notebook": {"pattern": "**/*.ipynb"}, "cells": [{"language": "python"}]}], "notebook selector")
    equal(result["serverInfo"]["name"], "gpulint", "server name")
    utf8 = Client(t.gpulint, t.root)
    t.clients.append(utf8)
    offered = utf8.initialize(t.root, {"general": {"positionEncodings": ["utf-32", "utf-8", "utf-16"]}})
    equal(offered["capabilities"]["positionEncoding"], "utf-8", "encoding when utf-8 is offered")
    client.finish()
    utf8.finish()


@case
def open_publishes_exact_diagnostics(t):
    client = t.client()
    path = t.write("train.py", BAD)
    uri = client.open(path, BAD, version=3)
    published = client.diagnostics(uri)
    equal(published["version"], 3, "version")
    equal(len(published["diagnostics"]), 1, "one diagnostic")
    diagnostic = published["diagnostics"][0]
    equal(diagnostic["code"], "GPU001", "code")
    equal(diagnostic["range"], BAD_RANGE, "range")
    equal(diagnostic["severity"], 1, "severity (error)")
    equal(diagnostic["source"], "gpulint", "source")
    check("zero_grad" in diagnostic["message"], "the message names zero_grad: " + diagnostic["message"])
    check(diagnostic["codeDescription"]["href"].endswith("missing-zero-grad"), "href: %s" % diagnostic["codeDescription"])
    client.finish()


@case
def incremental_edit_that_fixes_publishes_empty(t):
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU001"], "before the edit")
    # Insert `optimizer.zero_grad()` as the loop's first statement, in two
    # edits of one didChange and a third in another: the text the server
    # keeps must follow each.
    client.change(uri, 2, [{"range": span(5, 8, 8), "text": "optimizer."},
                           {"range": span(5, 18, 18), "text": "zero_grad()\n        "}])
    published = client.diagnostics(uri)
    equal(published["version"], 2, "version after the edit")
    equal(published["diagnostics"], [], "diagnostics after the fix")
    # Undo it: the finding comes back where it was.
    client.change(uri, 3, [{"range": {"start": position(5, 8), "end": position(6, 8)}, "text": ""}])
    published = client.diagnostics(uri)
    equal(summary(published["diagnostics"]), [("GPU001", BAD_RANGE)], "after undoing the fix")
    client.finish()


@case
def full_text_change_and_close(t):
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    equal(len(client.diagnostics(uri)["diagnostics"]), 1, "before")
    client.change(uri, 2, [{"text": EMPTY_CACHE}])
    published = client.diagnostics(uri)
    equal(summary(published["diagnostics"]), [("GPU201", span(9, 8, 32))], "after replacing the whole text")
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    equal(client.diagnostics(uri)["diagnostics"], [], "diagnostics cleared on close")
    client.finish()


@case
def burst_of_changes_is_linted_once(t):
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    client.diagnostics(uri)
    # Keystrokes written at once: the server reads them all before it
    # lints, and publishes for the last version only.
    comment = "# typed fast"
    client.send_together([{"method": "textDocument/didChange",
                           "params": {"textDocument": {"uri": uri, "version": 2 + i},
                                      "contentChanges": [{"range": span(0, 12 + i, 12 + i), "text": char}]}}
                          for i, char in enumerate(comment)])
    published = client.diagnostics(uri)
    equal(published["version"], 1 + len(comment), "the first publish after the burst is for the last version")
    equal(summary(published["diagnostics"]), [("GPU001", BAD_RANGE)], "diagnostics")
    client.no_diagnostics(uri)
    client.finish()


@case
def exit_without_shutdown_is_status_1(t):
    client = t.client()
    client.notify("exit", None)
    equal(client.process.wait(timeout=TIMEOUT), 1, "exit status without shutdown")
    other = t.client()
    other.process.stdin.close()
    equal(other.process.wait(timeout=TIMEOUT), 1, "exit status at the end of input without shutdown")


# ---- Driver ------------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpulint")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("case", nargs="?")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES:
        print("unknown case %r" % args.case, file=sys.stderr)
        return 2
    root = os.path.realpath(tempfile.mkdtemp(prefix="gpulint-server-"))
    t = Case(os.path.abspath(args.gpulint), root)
    try:
        CASES[args.case](t)
        return 0
    except Failure as failure:
        print("FAIL %s: %s" % (args.case, failure), file=sys.stderr)
        for client in t.clients:
            client.kill()
            print("--- server stderr\n" + client.process.stderr.read().decode(errors="replace"), file=sys.stderr)
        return 1
    finally:
        t.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
