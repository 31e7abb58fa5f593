"""A small LSP client over pipes for the server's robustness tests.

`Server` starts `gpulint server` in its own process group, writes messages
(or any bytes) to its stdin and reads its stdout on a thread, so that every
wait has a timeout: a server that hangs makes the wait raise `Timeout`,
never the test block. The server's stderr goes to a file, shown when a case
fails.
"""
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
import time


class Timeout(Exception):
    pass


class ProtocolError(Exception):
    pass


def frame(body):
    """`body` (bytes, or an object sent as JSON) with its header."""
    if not isinstance(body, bytes):
        body = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Server:
    def __init__(self, gpulint, cwd, args=("server",), env=None):
        self.stderr = tempfile.TemporaryFile()
        self.process = subprocess.Popen([gpulint, *args], cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=self.stderr, start_new_session=True,
                                        env=env)
        self.messages = queue.Queue()   # parsed messages, then None at EOF
        self.seen = []                  # every message read so far
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # Reading -------------------------------------------------------------

    def _read(self):
        """Reads framed messages from stdout until EOF; a malformed frame from
        the server is put on the queue as a ProtocolError."""
        out = self.process.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    if line == b"\r\n":
                        break
                    if not line.endswith(b"\r\n") or b":" not in line:
                        raise ProtocolError(f"malformed header line from the server: {line!r}")
                    name, value = line[:-2].split(b":", 1)
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    raise ProtocolError("a message from the server without Content-Length")
                body = out.read(length)
                if len(body) < length:
                    raise ProtocolError("the server's stdout ended inside a message")
                self.messages.put(json.loads(body))
        except (ProtocolError, ValueError) as error:
            self.messages.put(ProtocolError(str(error)))
        finally:
            self.messages.put(None)

    def next_message(self, deadline):
        """The next message; None at EOF; Timeout past `deadline`."""
        try:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise Timeout("no message from the server in time") from None
        if isinstance(message, ProtocolError):
            raise message
        if message is None:
            self.messages.put(None)  # stays at EOF for later reads
        else:
            self.seen.append(message)
        return message

    def wait_for(self, predicate, what, timeout=10.0):
        """The first message for which `predicate` holds; messages before it
        stay in `seen`."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.next_message(deadline)
            if message is None:
                try:
                    status = self.process.wait(2)
                except subprocess.TimeoutExpired:
                    status = "none yet"
                ending = f"killed by signal {-status}" if isinstance(status, int) and status < 0 else f"exit status {status}"
                raise ProtocolError(f"the server closed stdout ({ending}) while the test waited for {what}")
            if predicate(message):
                return message

    def response(self, request_id, timeout=10.0):
        return self.wait_for(lambda m: "method" not in m and m.get("id") == request_id,
                             f"the response to request {request_id!r}", timeout)

    def diagnostics(self, uri, timeout=10.0, version=None):
        """The next publishDiagnostics for `uri` (for `version`, when given)."""
        def wanted(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                    and (version is None or m["params"].get("version") in (None, version)))
        return self.wait_for(wanted, f"diagnostics for {uri}", timeout)["params"]

    # Writing -------------------------------------------------------------

    def send_raw(self, data):
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message):
        self.send_raw(frame(message))

    def request(self, method, params=None):
        """Sends a request; returns its id."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def call(self, method, params=None, timeout=10.0):
        """Sends a request and returns its response."""
        return self.response(self.request(method, params), timeout)

    def notify(self, method, params=None):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, root):
        response = self.call("initialize", {"processId": os.getpid(), "rootUri": uri_of(root),
                                            "capabilities": {}, "workspaceFolders": None})
        if "result" not in response:
            raise ProtocolError(f"initialize failed: {response}")
        self.notify("initialized", {})
        return response["result"]

    def open(self, path, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri_of(path), "languageId": "python", "version": version, "text": text}})
        return uri_of(path)

    # Ending --------------------------------------------------------------

    def close_stdin(self):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass

    def wait_exit(self, timeout=10.0):
        """The exit status; Timeout when the server is still running."""
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Timeout(f"the server did not exit within {timeout} s") from None

    def stderr_text(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")

    def rss_kib(self):
        """The server's resident set (VmRSS) in KiB, from /proc."""
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise ProtocolError("no VmRSS in /proc status")

    def kill(self):
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()


def uri_of(path):
    return "file://" + os.path.abspath(path)
