#!/usr/bin/env python3
"""`gpulint server` under bad input: one case per kind of abuse.

    server_robust.py GPULINT CASE        (server_robust.py --list prints the cases)

Each case starts the real server over pipes in a fresh project folder
(pyproject.toml and train.py, a training loop with known findings), sends
what the case is about, and requires the answer the Language Server
Protocol and JSON-RPC ask for: an error response with the right code, a
notice, or silence, and then that the server still serves (a later request
is answered, a later document is linted). Every wait has a timeout: a hang
is a failure, and so is an exit by a signal or an exit the case did not ask
for.

Exit 0 when the case holds, 1 otherwise.
"""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import ProtocolError, Server, Timeout, frame, uri_of  # noqa: E402

# JSON-RPC and LSP error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
SERVER_NOT_INITIALIZED, REQUEST_FAILED = -32002, -32803

TRAIN = """import torch


def train(model, loader, optimizer, criterion):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss)
    print(len(losses))
"""
KEPT_LINE = 10          # 0-based line of `losses.append(loss)`: GPU101
KEPT = "        losses.append(loss)"
KEPT_FIXED = "        losses.append(loss.item())"


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def codes(publish):
    return sorted((d["code"], d["range"]["start"]["line"]) for d in publish["diagnostics"])


# Shared steps ---------------------------------------------------------------

def open_train(server, folder, name="train.py", text=TRAIN):
    """Opens a training script (version 1); requires its one GPU101
    finding."""
    uri = server.open(os.path.join(folder, name), text, version=1)
    publish = server.diagnostics(uri, version=1)
    check(codes(publish) == [("GPU101", KEPT_LINE)], f"{name}: expected GPU101 on line {KEPT_LINE + 1}, got {codes(publish)}")
    return uri


def still_serves(server, folder):
    """A request is answered and a newly opened document is linted."""
    response = server.call("textDocument/hover", {"textDocument": {"uri": uri_of(os.path.join(folder, "train.py"))},
                                                  "position": {"line": 0, "character": 0}})
    check("id" in response and ("result" in response or "error" in response), f"a malformed response: {response}")
    open_train(server, folder, f"alive_{server.next_id}.py")


def error_code(response):
    return (response.get("error") or {}).get("code")


def expect_error(response, code, what):
    check(error_code(response) == code, f"{what}: expected error {code}, got {response}")
    check(isinstance(response["error"].get("message"), str) and response["error"]["message"],
          f"{what}: an error without a message: {response}")


def unsolicited_errors(server):
    """Responses nobody asked for (id null) seen so far."""
    return [m for m in server.seen if "method" not in m and m.get("id") is None]


# Framing --------------------------------------------------------------------

def case_bad_content_length(server, folder):
    """A header block whose Content-Length is not a number is dropped; the
    next message is read."""
    server.initialize(folder)
    server.send_raw(b"Content-Length: twelve\r\n\r\n")
    still_serves(server, folder)


def case_negative_content_length(server, folder):
    server.initialize(folder)
    server.send_raw(b"Content-Length: -5\r\n\r\n")
    still_serves(server, folder)


def case_missing_header(server, folder):
    """A body with no header before it (JSON, then a blank line) is dropped
    as a header block without Content-Length; the next message is read."""
    server.initialize(folder)
    server.send_raw(b'{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}\r\n\r\n')
    still_serves(server, folder)
    check(not any(m.get("id") == 99 for m in server.seen), "a body without a header was answered")


def case_long_header_line(server, folder):
    """A header line of 1 MB (over the reader's limit) is dropped."""
    server.initialize(folder)
    server.send_raw(b"X-Padding: " + b"a" * (1 << 20) + b"\r\n\r\n")
    still_serves(server, folder)


def case_huge_length_then_eof(server, folder):
    """A header that announces 1 TB, a few bytes, then the end of input: the
    server neither waits for the rest nor allocates it; it exits."""
    server.initialize(folder)
    rss = server.rss_kib()
    server.send_raw(b"Content-Length: 1099511627776\r\n\r\n{\"jsonrpc\":")
    time.sleep(0.5)
    check(server.rss_kib() < rss + 64 * 1024, f"RSS grew from {rss} KiB to {server.rss_kib()} KiB on a header alone")
    server.close_stdin()
    status = server.wait_exit(10)
    check(status == 1, f"exit status {status} at the end of input without shutdown (1 expected)")


def case_oversized_body(server, folder):
    """A body over the reader's 64 MB limit is read through and dropped
    (answered with an error when it is a request); the next message is
    read."""
    server.initialize(folder)
    body = b'{"jsonrpc": "2.0", "id": 77, "method": "gpulint/x", "params": "' + b"a" * (65 << 20) + b'"}'
    server.send_raw(frame(body))
    still_serves(server, folder)


# JSON-RPC -------------------------------------------------------------------

def case_invalid_json(server, folder):
    """A body that is not JSON: a parse error (-32700, id null), and the
    server goes on."""
    server.initialize(folder)
    server.send_raw(frame(b'{"jsonrpc": "2.0", "id": 5, "method": '))
    response = server.wait_for(lambda m: "method" not in m, "the parse error")
    check(response.get("id", "absent") is None, f"a parse error's id must be null: {response}")
    expect_error(response, PARSE_ERROR, "invalid JSON")
    still_serves(server, folder)


def case_invalid_utf8_json(server, folder):
    """A body with bytes that are not UTF-8 inside a string: answered (a
    parse error, or read as text), never a crash; the server goes on."""
    server.initialize(folder)
    path = os.path.join(folder, "latin1.py")
    server.send_raw(frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": '
                          b'{"uri": "' + uri_of(path).encode() + b'", "languageId": "python", "version": 1, '
                          b'"text": "x = \'caf\xe9\xff\xfe\'\\n"}}}'))
    # A lone surrogate escape: JSON's grammar allows it, Unicode does not.
    server.send_raw(frame(b'{"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": {"textDocument": '
                          b'{"uri": "file:///x\\udc80.py"}, "position": {"line": 0, "character": 0}}}'))
    still_serves(server, folder)


def case_not_a_request(server, folder):
    """Valid JSON that is not a request or notification: Invalid Request
    (-32600), with the request's id when it has one."""
    server.initialize(folder)
    server.send({"jsonrpc": "2.0", "id": 41, "method": 17})
    expect_error(server.response(41), INVALID_REQUEST, "a method that is not a string")
    server.send_raw(frame(b"42"))
    response = server.wait_for(lambda m: "method" not in m and m.get("id") is None, "an error for a bare number")
    expect_error(response, INVALID_REQUEST, "a bare number")
    server.send_raw(frame(b"[]"))
    response = server.wait_for(lambda m: "method" not in m and m.get("id") is None, "an error for an array")
    expect_error(response, INVALID_REQUEST, "an empty array")
    still_serves(server, folder)


def case_unknown_method(server, folder):
    """An unknown request: Method Not Found (-32601) with its id; an unknown
    notification (also a `$/` one): no answer at all."""
    server.initialize(folder)
    expect_error(server.call("gpulint/noSuchMethod", {}), METHOD_NOT_FOUND, "an unknown request")
    expect_error(server.call("$/noSuchRequest", {}), METHOD_NOT_FOUND, "an unknown $/ request")
    server.notify("gpulint/noSuchNotification", {"x": 1})
    server.notify("$/noSuchNotification", {})
    server.notify("$/cancelRequest", {"id": 12345})
    still_serves(server, folder)
    check(not unsolicited_errors(server), f"a notification was answered: {unsolicited_errors(server)}")


def case_before_initialize(server, folder):
    """A request before initialize: Server Not Initialized (-32002); a
    notification before it is dropped."""
    server.open(os.path.join(folder, "train.py"), TRAIN)
    expect_error(server.call("textDocument/hover", {"textDocument": {"uri": uri_of(os.path.join(folder, "train.py"))},
                                                    "position": {"line": 0, "character": 0}}),
                 SERVER_NOT_INITIALIZED, "hover before initialize")
    server.initialize(folder)
    still_serves(server, folder)
    check(not any(m.get("method") == "textDocument/publishDiagnostics"
                  and m["params"]["uri"].endswith("/train.py") for m in server.seen),
          "a document opened before initialize was linted")


def case_initialize_twice(server, folder):
    server.initialize(folder)
    expect_error(server.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}}),
                 INVALID_REQUEST, "a second initialize")
    still_serves(server, folder)


def case_bad_initialization_options(server, folder):
    """initializationOptions of the wrong shape or out of range (debounceMs
    negative, a string, past 10,000 ms; options that are not an object) are
    ignored: initialize succeeds and edits are linted at once."""
    response = server.call("initialize", {"processId": None, "rootUri": uri_of(folder), "capabilities": {},
                                          "initializationOptions": {"debounceMs": 1e12, "unknown": [1]}})
    check("result" in response, f"initialize with odd options: {response}")
    server.notify("initialized", {})
    uri = open_train(server, folder)
    start = time.monotonic()
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": KEPT_LINE, "character": 0}, "end": {"line": KEPT_LINE, "character": len(KEPT)}},
         "text": KEPT_FIXED}]})
    publish = server.diagnostics(uri, version=2)
    check(publish["diagnostics"] == [], f"the fixed text: {codes(publish)}")
    check(time.monotonic() - start < 5, "an out-of-range debounceMs was taken")
    for options in ({"debounceMs": -5}, {"debounceMs": "200"}, "not an object", [1, 2]):
        other = Server(server.process.args[0], folder)
        try:
            reply = other.call("initialize", {"processId": None, "rootUri": uri_of(folder), "capabilities": {},
                                              "initializationOptions": options})
            check("result" in reply, f"initialize with {options!r}: {reply}")
            other.notify("initialized", {})
            open_train(other, folder)
            end_cleanly(other)
        finally:
            other.kill()


def case_bad_arguments(server, folder):
    """`gpulint server` with a malformed or unknown argument: exit status 2
    and a message naming the option on stderr, before reading any input."""
    server.initialize(folder)
    for args in (["--debounce", "x"], ["--debounce", "-1"], ["--debounce", "20000"], ["--debounce"], ["--frobnicate"]):
        result = subprocess.run([server.process.args[0], "server", *args], input=b"", capture_output=True, timeout=10)
        check(result.returncode == 2, f"gpulint server {' '.join(args)}: exit status {result.returncode}")
        check(args[0].encode() in result.stderr and result.stdout == b"",
              f"gpulint server {' '.join(args)}: stderr {result.stderr!r}, stdout {result.stdout!r}")
    for args in (["--stdio"], ["--debounce", "0", "--stdio"]):
        result = subprocess.run([server.process.args[0], "server", *args], input=b"", capture_output=True, timeout=10)
        check(result.returncode == 1 and result.stderr == b"",
              f"gpulint server {' '.join(args)} at the end of input: {result.returncode} {result.stderr!r}")


# Documents ------------------------------------------------------------------

def hover_and_actions(server, uri):
    hover = server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": KEPT_LINE, "character": 9}})
    actions = server.call("textDocument/codeAction", {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": KEPT_LINE, "character": 0}, "end": {"line": KEPT_LINE, "character": 5}},
        "context": {"diagnostics": []}})
    return hover, actions


def case_closed_document(server, folder):
    """Hover and code actions for a closed document, and for one never
    opened: an error (Invalid Params, -32602, or Request Failed, -32803),
    not a crash and not a stale answer."""
    server.initialize(folder)
    uri = open_train(server, folder)
    hover, actions = hover_and_actions(server, uri)
    check(hover.get("result") and actions.get("result"), f"no hover or actions while open: {hover} {actions}")
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    cleared = server.diagnostics(uri)
    check(cleared["diagnostics"] == [], f"closing did not clear the diagnostics: {cleared}")
    for target in (uri, uri_of(os.path.join(folder, "never_opened.py"))):
        hover, actions = hover_and_actions(server, target)
        for response, what in ((hover, "hover"), (actions, "codeAction")):
            check(error_code(response) in (INVALID_PARAMS, REQUEST_FAILED),
                  f"{what} on {target}: expected error {INVALID_PARAMS} or {REQUEST_FAILED}, got {response}")
    still_serves(server, folder)


def case_change_unknown_document(server, folder):
    """didChange and didClose for a document never opened: dropped (a log
    message at most), nothing published for it."""
    server.initialize(folder)
    uri = uri_of(os.path.join(folder, "ghost.py"))
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": TRAIN}]})
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    still_serves(server, folder)
    check(not any(m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                  for m in server.seen), "diagnostics published for a document never opened")


def case_out_of_range_edit(server, folder):
    """An edit whose range lies past the end of the text (or ends before it
    starts) does not corrupt the document: the server either clamps it as
    the protocol's positions allow, or drops it; the next full change is
    linted exactly."""
    server.initialize(folder)
    uri = open_train(server, folder)
    for version, rng in enumerate([
            {"start": {"line": 500, "character": 0}, "end": {"line": 900, "character": 4}},
            {"start": {"line": 3, "character": 9999}, "end": {"line": 3, "character": 99999}},
            {"start": {"line": 5, "character": 0}, "end": {"line": 2, "character": 0}},
            {"start": {"line": -1, "character": -4}, "end": {"line": 0, "character": 0}}], start=2):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"range": rng, "text": "junk"}]})
    still_serves(server, folder)
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 10},
                                             "contentChanges": [{"text": TRAIN.replace(KEPT, KEPT_FIXED)}]})
    publish = server.diagnostics(uri, version=10)
    check(publish["diagnostics"] == [], f"the fixed text still has findings: {codes(publish)}")


def only_notice(publish, words, what):
    """The publish holds one notice (severity 3 Information, no code) whose
    message has every one of `words`."""
    diagnostics = publish["diagnostics"]
    check(len(diagnostics) == 1, f"{what}: expected one notice, got {diagnostics}")
    notice = diagnostics[0]
    check(notice["severity"] == 3 and "code" not in notice, f"{what}: not a notice: {notice}")
    check(all(word in notice["message"] for word in words), f"{what}: the notice lacks {words}: {notice}")


def case_huge_document(server, folder):
    """A 50 MB document: the server keeps it but does not lint it, says so
    (one notice on the document naming the size and the limit), and answers
    the next request within a bounded time."""
    server.initialize(folder)
    text = TRAIN + ("x = 1  # padding to make the file large\n" * (50 * 1024 * 1024 // 40))
    start = time.monotonic()
    uri = server.open(os.path.join(folder, "huge.py"), text)
    only_notice(server.diagnostics(uri, timeout=30), ["too large", str(len(text.encode()))], "a 50 MB document")
    still_serves(server, folder)
    elapsed = time.monotonic() - start
    check(elapsed < 30, f"the server took {elapsed:.1f} s over a 50 MB document")
    # Cut back to a small text by an edit: linted again.
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"text": TRAIN}]})
    publish = server.diagnostics(uri, version=2)
    check(codes(publish) == [("GPU101", KEPT_LINE)], f"the document cut back to TRAIN: {codes(publish)}")


def case_document_grows_past_limit(server, folder):
    """Edits that grow a document past the 64 MB the server follows: it
    drops the text and says to reopen it (no crash, no unbounded memory);
    a reopen brings it back."""
    server.initialize(folder)
    uri = open_train(server, folder)
    chunk = "# " + "y" * (40 << 20) + "\n"
    for version in (2, 3):
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": chunk}]})
    only_notice(server.diagnostics(uri, version=3, timeout=30), ["reopen"], "a document past 64 MB")
    check(server.rss_kib() < 512 * 1024, f"the server holds {server.rss_kib()} KiB after dropping the text")
    hover, actions = hover_and_actions(server, uri)
    check("error" in hover or hover.get("result") is None, f"hover on a dropped text: {hover}")
    check("error" in actions or actions.get("result") == [], f"code actions on a dropped text: {actions}")
    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    open_train(server, folder)


def case_binary_document(server, folder):
    """A document of NUL bytes, control characters, a noncharacter and
    random bytes read as Latin-1: linted (a syntax error at most), never a
    crash; the server goes on."""
    server.initialize(folder)
    junk = "\x00\x01\x02\ufffe" + "".join(chr(b) for b in os.urandom(4096)) + "\x00"
    uri = server.open(os.path.join(folder, "binary.py"), junk)
    publish = server.diagnostics(uri)
    check(all(d["code"].startswith("GPU9") for d in publish["diagnostics"]),
          f"unexpected findings in binary junk: {codes(publish)}")
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 3}}, "text": "\x00\x7f"}]})
    still_serves(server, folder)


def case_memory_flat(server, folder):
    """RSS stays flat over thousands of incremental edits, each linted.

    The edit toggles line 11 between `losses.append(loss)` (a GPU101
    finding) and `losses.append(loss.item())` (none), so every version has
    other diagnostics and the test waits for each one: every edit is parsed
    incrementally, linted and published. The text stays the same size, so
    a server that frees what it replaces stays at its warm-up size. The
    bound, +10 MB over 5,000 edits, is 2 KB per edit: a leak of one parse
    tree, one findings list or one message per edit is larger than that;
    allocator noise (glibc keeps freed chunks in its arenas) is well under
    it.
    """
    server.initialize(folder)
    uri = open_train(server, folder)
    version = 1

    def edit():
        nonlocal version
        version += 1
        fixed = version % 2 == 0
        old, new = (KEPT, KEPT_FIXED) if fixed else (KEPT_FIXED, KEPT)
        server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": KEPT_LINE, "character": 0}, "end": {"line": KEPT_LINE, "character": len(old)}},
             "text": new}]})
        publish = server.diagnostics(uri, version=version)
        expected = [] if fixed else [("GPU101", KEPT_LINE)]
        check(codes(publish) == expected, f"version {version}: {codes(publish)}, expected {expected}")
        server.seen.clear()

    for _ in range(500):
        edit()
    warm = server.rss_kib()
    for _ in range(5000):
        edit()
    after = server.rss_kib()
    print(f"VmRSS after 500 edits {warm} KiB, after 5,000 more {after} KiB ({after - warm:+d} KiB)")
    check(after - warm <= 10 * 1024, f"RSS grew by {after - warm} KiB over 5,000 edits (bound 10240 KiB)")


# Notebooks ------------------------------------------------------------------

NOTEBOOK_CODE = ("import torch\nfor x, y in loader:\n    loss = model(x)\n"
                 "    loss.backward()\n    opt.step()\n")


def open_notebook(server, folder, name="nb.ipynb", cells=2):
    """Opens a notebook of `cells` code cells, the last one with a GPU001
    finding; returns the notebook's URI and the cells' URIs."""
    uri = uri_of(os.path.join(folder, name))
    cell_uris = [f"{uri}#cell{i}" for i in range(cells)]
    texts = ["import torch\n"] * (cells - 1) + [NOTEBOOK_CODE]
    server.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": uri, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": 2, "document": cell} for cell in cell_uris]},
        "cellTextDocuments": [{"uri": cell, "languageId": "python", "version": 1, "text": text}
                              for cell, text in zip(cell_uris, texts)]})
    publish = server.diagnostics(cell_uris[-1])
    check(codes(publish) == [("GPU001", 3)], f"{name}: expected GPU001 in the last cell, got {codes(publish)}")
    return uri, cell_uris


def case_notebook_cell_left_open(server, folder):
    """A structure change that removes a cell without closing its text
    document (a client out of step), then the notebook closed: the cell's
    document outlives its notebook. Edits, code actions and hover on it are
    answered (the document is plain text now, or gone), never a crash, a
    hang or runaway memory."""
    server.initialize(folder)
    uri, cells = open_notebook(server, folder)
    server.notify("notebookDocument/didChange", {"notebookDocument": {"uri": uri, "version": 2},
                  "change": {"cells": {"structure": {"array": {"start": 1, "deleteCount": 1, "cells": []}}}}})
    server.notify("notebookDocument/didClose", {"notebookDocument": {"uri": uri}, "cellTextDocuments": []})
    server.notify("textDocument/didChange", {"textDocument": {"uri": cells[1], "version": 3},
                                             "contentChanges": [{"text": NOTEBOOK_CODE + "x = 1\n"}]})
    actions = server.call("textDocument/codeAction", {
        "textDocument": {"uri": cells[1]}, "context": {"diagnostics": []},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 6, "character": 0}}})
    check("result" in actions or "error" in actions, f"code actions on the left-over cell: {actions}")
    hover = server.call("textDocument/hover", {"textDocument": {"uri": cells[1]}, "position": {"line": 3, "character": 6}})
    check("result" in hover or "error" in hover, f"hover on the left-over cell: {hover}")
    server.notify("textDocument/didClose", {"textDocument": {"uri": cells[1]}})
    still_serves(server, folder)
    check(server.rss_kib() < 256 * 1024, f"the server holds {server.rss_kib()} KiB")


def case_notebook_malformed(server, folder):
    """Notebook messages of the wrong shape: cells that are not a list, a
    structure change past the end, negative counts, kinds that are strings,
    a cell URI shared by two notebooks, a change for a notebook not open;
    then both notebooks are closed. The server goes on, and a notebook
    opened afterwards is linted."""
    server.initialize(folder)
    uri, cells = open_notebook(server, folder, "a.ipynb")
    server.notify("notebookDocument/didOpen", {"notebookDocument": {"uri": uri_of(os.path.join(folder, "b.ipynb")),
                  "notebookType": "jupyter-notebook", "version": 1, "cells": {"not": "a list"}}})
    other = uri_of(os.path.join(folder, "c.ipynb"))
    server.notify("notebookDocument/didOpen", {
        "notebookDocument": {"uri": other, "notebookType": "jupyter-notebook", "version": 1,
                             "cells": [{"kind": "code", "document": cells[1]}, {"kind": 2, "document": 17}]},
        "cellTextDocuments": [{"uri": cells[1], "languageId": "python", "version": 1, "text": NOTEBOOK_CODE}]})
    for array in ({"start": 5, "deleteCount": 1}, {"start": 0, "deleteCount": -1}, {"start": -1, "deleteCount": 1},
                  {"start": 1e300, "deleteCount": 1e300}, {"start": 0, "deleteCount": 0, "cells": "x"}):
        server.notify("notebookDocument/didChange", {"notebookDocument": {"uri": uri, "version": 2},
                      "change": {"cells": {"structure": {"array": array}, "data": [{"document": cells[0], "kind": "x"}],
                                           "textContent": [{"document": {"uri": cells[0]}, "changes": "nope"}]}}})
    server.notify("notebookDocument/didChange", {"notebookDocument": {"uri": "file:///nowhere.ipynb", "version": 2},
                                                 "change": {}})
    still_serves(server, folder)
    for closing in (uri, other, uri_of(os.path.join(folder, "b.ipynb"))):
        server.notify("notebookDocument/didClose", {"notebookDocument": {"uri": closing}})
    for cell in cells:
        server.call("textDocument/hover", {"textDocument": {"uri": cell}, "position": {"line": 3, "character": 6}})
    open_notebook(server, folder, "d.ipynb")


def case_too_many_documents(server, folder):
    """More documents than the server keeps open (4,096): the rest are
    refused with a log message, and the server goes on."""
    server.initialize(folder)
    for i in range(4200):
        server.open(os.path.join(folder, f"many_{i}.py"), "x = 1\n")
    server.wait_for(lambda m: m.get("method") == "window/logMessage" and "open documents" in m["params"]["message"],
                    "the log message that refuses documents past the limit", timeout=60)
    response = server.call("textDocument/hover", {"textDocument": {"uri": uri_of(os.path.join(folder, "many_0.py"))},
                                                  "position": {"line": 0, "character": 0}}, timeout=60)
    check("result" in response, f"hover on an open document: {response}")


# Lifecycle ------------------------------------------------------------------

def case_exit_without_shutdown(server, folder):
    server.initialize(folder)
    open_train(server, folder)
    server.notify("exit")
    status = server.wait_exit(10)
    check(status == 1, f"exit without shutdown: status {status}, expected 1")


def case_shutdown_then_exit(server, folder):
    server.initialize(folder)
    open_train(server, folder)
    response = server.call("shutdown")
    check("result" in response and response["result"] is None, f"shutdown's result must be null: {response}")
    server.notify("exit")
    status = server.wait_exit(10)
    check(status == 0, f"shutdown then exit: status {status}, expected 0")


def case_eof_on_stdin(server, folder):
    """The end of input without shutdown or exit: the server ends (status
    1, as for an exit without shutdown) instead of waiting forever."""
    server.initialize(folder)
    open_train(server, folder)
    server.close_stdin()
    status = server.wait_exit(10)
    check(status == 1, f"end of input: status {status}, expected 1")


def case_eof_after_shutdown(server, folder):
    server.initialize(folder)
    server.call("shutdown")
    server.close_stdin()
    status = server.wait_exit(10)
    check(status == 0, f"end of input after shutdown: status {status}, expected 0")


def case_requests_after_shutdown(server, folder):
    """After shutdown every request but exit gets Invalid Request (-32600);
    notifications other than exit are dropped; exit then ends with 0."""
    server.initialize(folder)
    uri = open_train(server, folder)
    server.call("shutdown")
    hover, actions = hover_and_actions(server, uri)
    expect_error(hover, INVALID_REQUEST, "hover after shutdown")
    expect_error(actions, INVALID_REQUEST, "codeAction after shutdown")
    expect_error(server.call("shutdown"), INVALID_REQUEST, "a second shutdown")
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "x"}]})
    server.notify("exit")
    status = server.wait_exit(10)
    check(status == 0, f"exit after shutdown: status {status}, expected 0")


def end_cleanly(server):
    """Shutdown and exit after the case: status 0 (a sanitizer build exits
    otherwise when it found a leak or an error on the way out)."""
    response = server.call("shutdown", timeout=30)
    check("result" in response, f"shutdown after the case: {response}")
    server.notify("exit")
    status = server.wait_exit(30)
    check(status == 0, f"exit status {status} after shutdown and exit at the end of the case")


CASES = {name[len("case_"):]: function for name, function in globals().items() if name.startswith("case_")}


def main():
    if sys.argv[1:] == ["--list"]:
        print("\n".join(CASES))
        return 0
    gpulint, case = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="gpulint-server-") as folder:
        with open(os.path.join(folder, "pyproject.toml"), "w") as file:
            file.write("[project]\nname = \"demo\"\n\n[tool.gpulint]\n")
        with open(os.path.join(folder, "train.py"), "w") as file:
            file.write(TRAIN)
        args = ["server", "--debounce", "0"] if case == "memory_flat" else ["server"]
        env = dict(os.environ)
        if case == "memory_flat" and "ASAN_OPTIONS" in env:
            # AddressSanitizer keeps freed memory aside (256 MB) to catch
            # use after free: that is not growth of the server's own.
            env["ASAN_OPTIONS"] += ":quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
        server = Server(gpulint, folder, args, env)
        try:
            CASES[case](server, folder)
            status = server.process.poll()
            check(status is None or status >= 0, f"the server was killed by signal {-status if status else ''}")
            if status is None:
                end_cleanly(server)
        except (Failure, Timeout, ProtocolError) as failure:
            status = server.process.poll()
            print(f"FAIL {case}: {failure}")
            if status is not None and status < 0:
                print(f"the server was killed by signal {-status}")
            print("server stderr:\n" + server.stderr_text()[-4000:])
            return 1
        finally:
            server.kill()
    print(f"ok {case}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
