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
    check("codeDescription" not in diagnostic, "no rule URL is configured: %s" % diagnostic.get("codeDescription"))
    client.finish()


@case
def rule_url_from_the_project_config(t):
    t.write("pyproject.toml", "[project]\nname = \"demo\"\n\n[tool.gpulint]\n"
            "rule-url = \"https://docs.example.org/gpulint/{code}-{name}\"\n")
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    diagnostic = client.diagnostics(uri)["diagnostics"][0]
    equal(diagnostic.get("codeDescription"), {"href": "https://docs.example.org/gpulint/GPU001-missing-zero-grad"},
          "the rule page from the project's rule-url")
    client.finish()


# A memory rule (GPU103) and a correctness rule (GPU001) in one file.
EVAL_AND_TRAIN = """import torch
import torch.nn as nn


def check_eval(loader):
    model = nn.Linear(4, 2).cuda()
    model.eval()
    for x in loader:
        print(model(x))


def check_train(loader):
    model = nn.Linear(4, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x in loader:
        model(x).sum().backward()
        optimizer.step()
"""


@case
def files_named_like_tests_as_the_command_line_decides(t):
    # A script named like a test gets every rule unless its code shows a
    # test; a file under tests/ runs only the correctness rules.
    client = t.client()
    texts = {"main_test.py": EVAL_AND_TRAIN, "test_unit.py": EVAL_AND_TRAIN + "\n\nimport pytest\n",
             "tests/helpers.py": EVAL_AND_TRAIN}
    expected = {"main_test.py": ["GPU001", "GPU103"], "test_unit.py": ["GPU001"], "tests/helpers.py": ["GPU001"]}
    got = {}
    for path, text in texts.items():
        uri = client.open(t.write(path, text), text)
        got[path] = sorted(d["code"] for d in client.diagnostics(uri)["diagnostics"])
    equal(got, expected, "the rules of each file")
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


def actions_at(client, uri, range_, only=None):
    context = {"diagnostics": []}
    if only is not None:
        context["only"] = only
    return client.call("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": range_, "context": context})


@case
def code_actions_fix_and_noqa(t):
    client = t.client()
    uri = client.open(t.write("train.py", EMPTY_CACHE), EMPTY_CACHE)
    equal(summary(client.diagnostics(uri)["diagnostics"]), [("GPU201", span(9, 8, 32))], "diagnostics")
    actions = actions_at(client, uri, span(9, 10, 10))
    equal([(a["title"], a["kind"], a.get("isPreferred", False)) for a in actions],
          [("Remove the `empty_cache()` call (GPU201)", "quickfix", True),
           ("Suppress GPU201 with `# noqa: GPU201`", "quickfix", False),
           ("Fix all gpulint findings", "source.fixAll.gpulint", False)], "actions")
    equal([d["code"] for d in actions[0]["diagnostics"]], ["GPU201"], "the fix's diagnostic")
    fixed = apply_edits(EMPTY_CACHE, workspace_edits(actions[0]["edit"], uri))
    equal(fixed, EMPTY_CACHE.replace("        torch.cuda.empty_cache()\n", ""), "text after the fix")
    suppressed = apply_edits(EMPTY_CACHE, workspace_edits(actions[1]["edit"], uri))
    equal(suppressed, EMPTY_CACHE.replace("empty_cache()\n", "empty_cache()  # noqa: GPU201\n"), "text after noqa")
    # A line that has a `# noqa` for another tool gets the code added to it.
    other = EMPTY_CACHE.replace("empty_cache()\n", "empty_cache()  # noqa: E501\n")
    client.change(uri, 2, [{"text": other}])
    client.diagnostics(uri)
    noqa = [a for a in actions_at(client, uri, span(9, 10, 10)) if a["title"].startswith("Suppress")]
    equal(apply_edits(other, workspace_edits(noqa[0]["edit"], uri)),
          EMPTY_CACHE.replace("empty_cache()\n", "empty_cache()  # noqa: E501, GPU201\n"), "noqa list extended")
    # Applying the fix as the client would clears the finding.
    client.change(uri, 3, [{"text": fixed}])
    equal(client.diagnostics(uri)["diagnostics"], [], "after applying the fix")
    equal(actions_at(client, uri, span(0, 0, 9)), [], "no actions on a clean file")
    client.finish()


@case
def code_action_unsafe_fix_is_not_preferred(t):
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    client.diagnostics(uri)
    actions = actions_at(client, uri, BAD_RANGE, only=["quickfix"])
    equal(len(actions), 2, "a fix and a noqa action")
    fix = actions[0]
    check("unsafe" in fix["title"] and "GPU001" in fix["title"], "the title says unsafe: " + fix["title"])
    check("isPreferred" not in fix, "an unsafe fix is not preferred")
    fixed = apply_edits(BAD, workspace_edits(fix["edit"], uri))
    check("optimizer.zero_grad(" in fixed, "the fix clears gradients:\n" + fixed)
    client.change(uri, 2, [{"text": fixed}])
    equal(client.diagnostics(uri)["diagnostics"], [], "after the unsafe fix")
    # Outside any finding: nothing.
    equal(actions_at(client, uri, span(0, 0, 3), only=["quickfix"]), [], "actions away from the finding")
    client.finish()


@case
def fix_all_with_versioned_document_changes(t):
    client = t.client({"workspace": {"workspaceEdit": {"documentChanges": True}}})
    text = EMPTY_CACHE + "\n\ndef again(model, loader, optimizer):\n    for x in loader:\n        optimizer.zero_grad()\n" \
        "        model(x).sum().backward()\n        optimizer.step()\n        torch.cuda.empty_cache()\n"
    uri = client.open(t.write("train.py", text), text, version=7)
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU201", "GPU201"], "two findings")
    actions = actions_at(client, uri, span(0, 0, 0), only=["source.fixAll"])
    equal([a["kind"] for a in actions], ["source.fixAll.gpulint"], "only the fix-all action")
    change = actions[0]["edit"]["documentChanges"]
    equal([c["textDocument"] for c in change], [{"uri": uri, "version": 7}], "versioned document")
    fixed = apply_edits(text, change[0]["edits"])
    equal(fixed, text.replace("        torch.cuda.empty_cache()\n", ""), "both calls removed")
    equal(actions_at(client, uri, span(0, 0, 0), only=["source.organizeImports"]), [], "another kind asked for")
    client.finish()


@case
def hover_shows_rule_page(t):
    client = t.client()
    uri = client.open(t.write("train.py", BAD), BAD)
    client.diagnostics(uri)
    hover = client.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(6, 12)})
    equal(hover["contents"]["kind"], "markdown", "markup kind")
    detail, page = hover["contents"]["value"].split("\n\n---\n\n", 1)
    check(detail.startswith("**GPU001** backward() adds to the gradients"), "the finding's detail first: " + detail[:80])
    check(page.startswith("# missing-zero-grad (GPU001)"), "then the rule page: " + page[:80])
    check("## What it does" in page, "the page's sections")
    equal(hover["range"], BAD_RANGE, "hover range")
    equal(client.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(3, 2)}), None,
          "hover away from a finding")
    client.finish()


UTF_LINE = '        note = "\U0001F600\u00e9"; loss.backward()'


@case
def utf16_positions_after_non_ascii(t):
    text = BAD.replace("        loss.backward()", UTF_LINE)
    client = t.client()
    uri = client.open(t.write("train.py", text), text)
    # 8 spaces, `note = "` (8), an emoji (2 UTF-16 units), e-acute (1), `"; ` (3): 22.
    equal(summary(client.diagnostics(uri)["diagnostics"]), [("GPU001", span(6, 22, 37))], "UTF-16 range")
    # An edit placed by UTF-16 units right after the emoji.
    client.change(uri, 2, [{"range": span(6, 18, 18), "text": "x"}])
    published = client.diagnostics(uri)
    equal(summary(published["diagnostics"]), [("GPU001", span(6, 23, 38))], "range after the edit")
    hover = client.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": position(6, 23)})
    check(hover and "GPU001" in hover["contents"]["value"], "hover at the finding's UTF-16 start")
    client.finish()
    utf8 = t.client({"general": {"positionEncodings": ["utf-8", "utf-16"]}})
    uri = utf8.open(t.path("train.py"), text)
    # In UTF-8 bytes: 8 + 8 + 4 + 2 + 3 = 25.
    equal(summary(utf8.diagnostics(uri)["diagnostics"]), [("GPU001", span(6, 25, 40))], "UTF-8 range")
    utf8.finish()


def watched(client, changes):
    client.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri_of(p), "type": kind} for p, kind in changes]})


@case
def config_change_republishes(t):
    client = t.client({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}})
    registration = client.wait(lambda m: m.get("method") == "client/registerCapability", "the watcher registration")
    client.send({"id": registration["id"], "result": None})
    registered = registration["params"]["registrations"][0]
    equal(registered["method"], "workspace/didChangeWatchedFiles", "registered method")
    globs = [w["globPattern"] for w in registered["registerOptions"]["watchers"]]
    check("**/pyproject.toml" in globs and "**/*.py" in globs, "watched globs: %s" % globs)
    text = BAD + EMPTY_CACHE.replace("def train", "def train_again")
    uri = client.open(t.write("train.py", text), text)
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU001", "GPU201"], "default rules")
    pyproject = t.write("pyproject.toml", "[project]\nname = \"demo\"\n\n[tool.gpulint]\nignore = [\"GPU001\"]\n")
    watched(client, [(pyproject, 2)])
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU201"], "after ignore = GPU001")
    # The config file saved from the editor counts too.
    text_config = "[project]\nname = \"demo\"\n\n[tool.gpulint]\nselect = [\"GPU0\"]\n"
    t.write("pyproject.toml", text_config)
    config_uri = client.open(pyproject, text_config, language="toml")
    client.notify("textDocument/didSave", {"textDocument": {"uri": config_uri}})
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU001"], "after select = GPU0")
    client.no_diagnostics(config_uri, 0.2)
    # A broken config: logged, and the default rules apply.
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"NOPE1\"]\n")
    watched(client, [(pyproject, 2)])
    log = client.wait(lambda m: m.get("method") == "window/logMessage", "a log message for the config error")
    equal(log["params"]["type"], 1, "an error")
    check("pyproject.toml" in log["params"]["message"], "the message names the file: " + log["params"]["message"])
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU001", "GPU201"], "defaults while broken")
    client.finish()


METER_CONVERTS = """class AverageMeter:
    def __init__(self):
        self.sum = 0.0

    def update(self, val, n=1):
        self.sum += float(val) * n
"""
METER_KEEPS = METER_CONVERTS.replace("float(val)", "val").replace("0.0", "0")
TRAINER = """import torch

from utils.meters import AverageMeter


def train_epoch(model, loader, criterion, optimizer):
    losses = AverageMeter()
    for images, target in loader:
        loss = criterion(model(images), target)
        losses.update(loss, images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""
KEPT = span(9, 8, 43)


@case
def helper_change_relints_importer(t):
    client = t.client()
    meters = t.write("utils/meters.py", METER_CONVERTS)
    uri = client.open(t.write("train.py", TRAINER), TRAINER)
    equal(client.diagnostics(uri)["diagnostics"], [], "the meter converts: clean")
    # The helper changes on disk: the importer is linted again.
    t.write("utils/meters.py", METER_KEEPS)
    watched(client, [(meters, 2)])
    published = client.diagnostics(uri)["diagnostics"]
    equal(summary(published), [("GPU101", KEPT)], "the meter keeps the loss")
    related = published[0]["relatedInformation"][0]["location"]
    equal(related["uri"], uri_of(meters), "related location: the helper")
    # Opened and edited in the editor (not saved): the importer sees the editor's text.
    meters_uri = client.open(meters, METER_KEEPS)
    equal(summary(client.diagnostics(uri)["diagnostics"]), [("GPU101", KEPT)], "after opening the helper")
    client.change(meters_uri, 2, [{"text": METER_CONVERTS}])
    equal(client.diagnostics(uri)["diagnostics"], [], "the helper's unsaved text converts")
    # Closed without saving: the file on disk counts again.
    client.notify("textDocument/didClose", {"textDocument": {"uri": meters_uri}})
    equal(summary(client.diagnostics(uri)["diagnostics"]), [("GPU101", KEPT)], "after closing the helper")
    client.finish()


NOTEBOOK_CELLS = [
    (2, "import torch\nmodel = torch.nn.Linear(4, 1)\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"),
    (1, "# Training"),
    (2, "for x in loader:\n    loss = model(x).sum()\n    loss.backward()\n    optimizer.step()\n"),
]


@case
def notebook_cells_get_their_diagnostics(t):
    client = t.client()
    notebook = uri_of(t.path("train.ipynb"))
    cells = ["vscode-notebook-cell:%s#cell%d" % (t.path("train.ipynb"), i) for i in range(len(NOTEBOOK_CELLS))]
    client.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": notebook, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": kind, "document": cells[i]} for i, (kind, _) in enumerate(NOTEBOOK_CELLS)]},
        "cellTextDocuments": [{"uri": cells[i], "languageId": "python", "version": 1, "text": text}
                              for i, (kind, text) in enumerate(NOTEBOOK_CELLS) if kind == 2]})
    equal(client.diagnostics(cells[0])["diagnostics"], [], "the first cell")
    equal(summary(client.diagnostics(cells[2])["diagnostics"]), [("GPU001", span(2, 4, 19))], "the loop's cell")
    # Insert zero_grad in the third cell.
    client.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": notebook, "version": 2},
        "change": {"cells": {"textContent": [{"document": {"uri": cells[2], "version": 2},
                                              "changes": [{"range": span(1, 4, 4), "text": "optimizer.zero_grad()\n    "}]}]}}})
    published = client.diagnostics(cells[2])
    equal(published["diagnostics"], [], "after clearing the gradients")
    # A new cell that empties the cache in a loop, inserted before the loop.
    new_cell = "vscode-notebook-cell:%s#cell9" % t.path("train.ipynb")
    text = "for x in loader:\n    torch.cuda.empty_cache()\n"
    client.notify("notebookDocument/didChange", {
        "notebookDocument": {"uri": notebook, "version": 3},
        "change": {"cells": {"structure": {"array": {"start": 2, "deleteCount": 0, "cells": [{"kind": 2, "document": new_cell}]},
                                           "didOpen": [{"uri": new_cell, "languageId": "python", "version": 1, "text": text}]}}}})
    equal(summary(client.diagnostics(new_cell)["diagnostics"]), [("GPU201", span(1, 4, 28))], "the new cell")
    actions = actions_at(client, new_cell, span(1, 6, 6), only=["quickfix"])
    equal([a["title"] for a in actions], ["Remove the `empty_cache()` call (GPU201)", "Suppress GPU201 with `# noqa: GPU201`"],
          "actions in a cell")
    equal(apply_edits(text, workspace_edits(actions[0]["edit"], new_cell)), "for x in loader:\n    pass\n",
          "the cell after the fix (the loop keeps a body)")
    equal(apply_edits(text, workspace_edits(actions[1]["edit"], new_cell)),
          text.replace("cache()", "cache()  # noqa: GPU201"), "the cell after noqa")
    check(list(actions[0]["edit"]["changes"]) == [new_cell], "the fix edits the cell only")
    client.notify("notebookDocument/didClose", {"notebookDocument": {"uri": notebook},
                                                "cellTextDocuments": [{"uri": u} for u in cells + [new_cell]]})
    equal(client.diagnostics(new_cell)["diagnostics"], [], "cleared on close")
    client.finish()


@case
def huge_document_gets_one_notice(t):
    client = t.client()
    text = BAD + "x = 1\n" * (5 * 1024 * 1024 // 6)
    uri = client.open(t.path("big.py"), text)
    published = client.diagnostics(uri)["diagnostics"]
    equal(len(published), 1, "one notice")
    equal(published[0]["severity"], 3, "an information")
    check("too large" in published[0]["message"], published[0]["message"])
    client.change(uri, 2, [{"text": BAD}])
    equal([d["code"] for d in client.diagnostics(uri)["diagnostics"]], ["GPU001"], "linted once small again")
    client.finish()


@case
def debounce_waits_for_quiet(t):
    client = t.client(options={"debounceMs": 300})
    uri = client.open(t.write("train.py", BAD), BAD)
    client.diagnostics(uri)
    started = time.monotonic()
    client.change(uri, 2, [{"range": span(0, 12, 12), "text": "  # a"}])
    equal(client.diagnostics(uri)["version"], 2, "version")
    check(time.monotonic() - started >= 0.25, "published before the debounce delay")
    client.finish()


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
