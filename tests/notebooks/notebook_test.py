#!/usr/bin/env python3
"""Notebook tests run against the built gpulint binary.

    notebook_test.py fixture GPULINT NOTEBOOK   check a notebook's inline markers
    notebook_test.py cli GPULINT CASE           run one named command-line case

Fixture notebooks carry the markers of the rule fixtures inside their code
cells, on the line a finding must point at (the line counts within the cell):

    loss.backward()  # expect: GPU001     must be reported here
    total += loss    # gap: GPU101        known miss: fails once reported
    out = model(x)   # noisy: GPU103      known false alarm: fails once gone

The check is strict both ways. A marker naming a rule this build does not
have yet is listed as pending and not checked; it is checked as soon as the
rule exists.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "cases")
MALFORMED = os.path.join(HERE, "malformed")
MARKER = re.compile(r"#\s*(expect|gap|noisy):\s*((?:GPU\d{3}[,\s]*)+)")

# What each malformed notebook must make gpulint say (after "path: ").
MALFORMED_MESSAGES = {
    "cell_not_object.ipynb": "cell 2 is a string, expected an object",
    "cell_type_missing.ipynb": "cell 1 has no `cell_type`",
    "cells_missing.ipynb": "not a notebook: no `cells` key",
    "cells_not_array.ipynb": "`cells` is a number, expected an array",
    "empty.ipynb": "not a notebook: the file is empty",
    "nbformat3.ipynb": "nbformat 3 is not supported, only nbformat 4 "
                       "(`jupyter nbconvert --to notebook` upgrades it)",
    "not_json.ipynb": "invalid JSON at line 9, column 4",
    "not_utf8.ipynb": "is not valid UTF-8 (byte 85)",
    "source_number.ipynb": "cell 3: `source` is a number, expected a string or an array of strings",
    "source_part_null.ipynb": "cell 1: `source[1]` is null, expected a string",
    "top_level_array.ipynb": "not a notebook: the top level is an array, expected an object",
    "trailing_text.ipynb": "invalid JSON at line 2, column 1: unexpected text after the notebook",
}


def run(gpulint, *args):
    return subprocess.run([gpulint, *args], capture_output=True, text=True, timeout=120)


def lint_json(gpulint, *paths):
    result = run(gpulint, "--output-format", "json", *paths)
    findings = json.loads(result.stdout) if result.stdout.strip() else []
    return result, findings


def known_rules(gpulint):
    result = run(gpulint, "rules")
    return set(re.findall(r"^(GPU\d{3})\s", result.stdout, re.M))


def fail(message):
    print("FAIL:", message)
    sys.exit(1)


# ---- Fixture notebooks ------------------------------------------------------


def read_markers(path):
    """{(cell, line, code): kind} from the markers in the code cells."""
    with open(path, encoding="utf-8") as f:
        notebook = json.load(f)
    markers = {}
    for number, cell in enumerate(notebook["cells"], 1):
        if cell["cell_type"] != "code":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for line, text in enumerate(source.splitlines(), 1):
            for kind, codes in MARKER.findall(text):
                for code in re.findall(r"GPU\d{3}", codes):
                    markers[(number, line, code)] = kind
    return markers


def check_fixture(gpulint, path):
    markers = read_markers(path)
    rules = known_rules(gpulint)
    result, findings = lint_json(gpulint, path)
    if result.returncode not in (0, 1):
        fail(f"exit {result.returncode}: {result.stderr.strip()}")
    failures = []
    reported = set()
    for finding in findings:
        key = (finding.get("cell"), finding["line"], finding["code"])
        reported.add(key)
        where = f"cell {key[0]}:{key[1]}:{finding['column']}"
        kind = markers.get(key)
        if kind is None:
            failures.append(f"{where}: unexpected {key[2]}: {finding['message']}")
        elif kind == "gap":
            failures.append(f"{where}: {key[2]} is now reported: the known gap closed, change `# gap:` to `# expect:`")
    pending = []
    for (cell, line, code), kind in sorted(markers.items()):
        if code not in rules:
            pending.append(f"cell {cell}:{line}: {kind} {code}")
        elif kind == "expect" and (cell, line, code) not in reported:
            failures.append(f"cell {cell}:{line}: missing {code}")
        elif kind == "noisy" and (cell, line, code) not in reported:
            failures.append(f"cell {cell}:{line}: {code} is no longer reported: remove `# noisy:`")
    for line in pending:
        print(f"{os.path.basename(path)}: pending (rule not in this build): {line}")
    for line in failures:
        print(f"{os.path.basename(path)}: {line}")
    expected = sum(kind == "expect" for kind in markers.values())
    print(f"{os.path.basename(path)}: {expected} expected, {len(findings)} reported, "
          f"{len(pending)} pending, {len(failures)} mismatch{'es' if len(failures) != 1 else ''}")
    return 1 if failures else 0


# ---- Command-line cases -----------------------------------------------------


def case_text_output(gpulint):
    """Text findings read `path:cell N:line:col: CODE message`."""
    path = os.path.join(CASES, "finding_after_markdown.ipynb")
    result = run(gpulint, path)
    if result.returncode != 1:
        fail(f"exit {result.returncode}, expected 1")
    if not re.search(rf"^{re.escape(path)}:cell 3:3:5: GPU001 gradients are never cleared", result.stdout, re.M):
        fail(f"no `cell 3:3:5: GPU001` line in:\n{result.stdout}")


def case_json_output(gpulint):
    """JSON findings carry `cell`, with cell-relative lines; .py findings do not."""
    notebook = os.path.join(CASES, "magics.ipynb")
    script = os.path.join(HERE, "..", "..", "examples", "train_mnist.py")
    result, findings = lint_json(gpulint, notebook, script)
    if result.returncode != 1:
        fail(f"exit {result.returncode}, expected 1")
    ours = [(f["cell"], f["line"], f["column"], f["end_line"], f["end_column"], f["code"])
            for f in findings if f["path"] == notebook]
    if ours != [(3, 9, 5, 9, 20, "GPU001"), (4, 4, 5, 4, 20, "GPU001")]:
        fail(f"notebook findings: {ours}")
    if any("cell" in f for f in findings if f["path"] == script):
        fail("a .py finding has a `cell` key")


def case_other_kernel(gpulint):
    """An R notebook is skipped with a note, not an error."""
    path = os.path.join(CASES, "r_kernel.ipynb")
    result, findings = lint_json(gpulint, path)
    if result.returncode != 0 or findings:
        fail(f"exit {result.returncode}, findings {findings}")
    if f"gpulint: {path}: skipped: kernel language is R" not in result.stderr:
        fail(f"no note on stderr: {result.stderr!r}")


def case_malformed(gpulint):
    """Each broken notebook: exit 2 with `path: message`; the other files are still linted."""
    names = sorted(os.listdir(MALFORMED))
    if set(names) != set(MALFORMED_MESSAGES):
        fail(f"malformed/ and MALFORMED_MESSAGES differ: {sorted(set(names) ^ set(MALFORMED_MESSAGES))}")
    good = os.path.join(CASES, "finding_after_markdown.ipynb")
    for name in names:
        path = os.path.join(MALFORMED, name)
        result, findings = lint_json(gpulint, path, good)
        expected = f"gpulint: {path}: {MALFORMED_MESSAGES[name]}"
        if result.returncode != 2:
            fail(f"{name}: exit {result.returncode}, expected 2")
        if expected not in result.stderr.splitlines():
            fail(f"{name}: expected {expected!r} on stderr, got {result.stderr!r}")
        records = [(f["path"], f["line"], f["column"], f["message"]) for f in findings if f["code"] == "GPU903"]
        if [f["path"] for f in findings if f["code"] != "GPU903"] != [good]:
            fail(f"{name}: the good notebook was not linted: {findings}")
        if records != [(path, 1, 1, MALFORMED_MESSAGES[name])]:
            fail(f"{name}: expected its GPU903 record in the JSON, got {records}")
        print(f"{name}: {MALFORMED_MESSAGES[name]}")


def fingerprint(paths):
    return {p: (hashlib.sha256(open(p, "rb").read()).hexdigest(), os.stat(p).st_mtime_ns) for p in paths}


def case_unchanged(gpulint):
    """Linting never writes to a notebook."""
    paths = [os.path.join(CASES, n) for n in sorted(os.listdir(CASES))]
    paths += [os.path.join(MALFORMED, n) for n in sorted(os.listdir(MALFORMED))]
    before = fingerprint(paths)
    run(gpulint, *paths)
    run(gpulint, "--output-format", "json", *paths)
    if fingerprint(paths) != before:
        fail("a notebook changed while it was linted")


def case_directory(gpulint):
    """Directory walks lint notebooks beside scripts and skip .ipynb_checkpoints."""
    with tempfile.TemporaryDirectory() as root:
        shutil.copy(os.path.join(CASES, "finding_after_markdown.ipynb"), os.path.join(root, "train.ipynb"))
        os.mkdir(os.path.join(root, ".ipynb_checkpoints"))
        shutil.copy(os.path.join(CASES, "magics.ipynb"),
                    os.path.join(root, ".ipynb_checkpoints", "train-checkpoint.ipynb"))
        shutil.copy(os.path.join(HERE, "..", "..", "examples", "train_mnist.py"), os.path.join(root, "mnist.py"))
        result, findings = lint_json(gpulint, root)
        paths = sorted({os.path.basename(f["path"]) for f in findings})
        if result.returncode != 1 or paths != ["mnist.py", "train.ipynb"]:
            fail(f"exit {result.returncode}, linted {paths}")


def big_notebook(path, megabytes):
    """A training notebook of `megabytes`: each plotting cell has a base64 PNG
    and a long training log in its outputs. Returns the number of cells."""
    image = ("iVBORw0KGgo" + "A" * 65 + "\n") * 8000  # about 0.6 MB of base64 per image
    log = [f"step {i:06d} loss 0.{i % 997:06d} lr 0.001000 time 0.0123 s\n" for i in range(8000)]
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Training with plots\n"]}]
    setup = "import torch\nmodel = Net().cuda()\noptimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    cells.append({"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": setup})
    size = 0
    while size < megabytes * 1000 * 1000:
        outputs = [{"name": "stdout", "output_type": "stream", "text": log},
                   {"output_type": "display_data", "metadata": {},
                    "data": {"image/png": image, "text/plain": ["<Figure size 640x480 with 1 Axes>"]}}]
        source = ["train_one_epoch(model)\n", "plt.plot(history)\n", "plt.show()"]
        cells.append({"cell_type": "code", "execution_count": len(cells), "metadata": {}, "outputs": outputs,
                      "source": source})
        size += len(image) + sum(len(line) + 8 for line in log)
    loop = ["for x, y in loader:\n", "    loss = criterion(model(x), y)\n", "    loss.backward()\n",
            "    optimizer.step()\n"]
    cells.append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": loop})
    with open(path, "w") as f:
        json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, f, indent=1)
    return len(cells)


def case_large_outputs(gpulint):
    """A 50 MB notebook of images and logs in outputs lints quickly (limit in seconds: GPULINT_NOTEBOOK_LIMIT_S)."""
    limit = float(os.environ.get("GPULINT_NOTEBOOK_LIMIT_S", "2"))
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "plots.ipynb")
        last_cell = big_notebook(path, 50)
        size = os.path.getsize(path)
        start = time.perf_counter()
        result, findings = lint_json(gpulint, path)
        elapsed = time.perf_counter() - start
    print(f"{size / 1e6:.1f} MB notebook, {last_cell} cells: linted in {elapsed:.3f} s (limit {limit} s)")
    if result.returncode != 1 or [(f["cell"], f["line"], f["code"]) for f in findings] != [(last_cell, 3, "GPU001")]:
        fail(f"exit {result.returncode}, findings {findings}, stderr {result.stderr!r}")
    if elapsed > limit:
        fail(f"took {elapsed:.3f} s")


CLI_CASES = {name[len("case_"):]: f for name, f in globals().items() if name.startswith("case_")}


def main(argv):
    if len(argv) == 4 and argv[1] == "fixture":
        return check_fixture(argv[2], argv[3])
    if len(argv) == 4 and argv[1] == "cli" and argv[3] in CLI_CASES:
        CLI_CASES[argv[3]](argv[2])
        return 0
    if len(argv) == 2 and argv[1] == "list":
        print("\n".join(sorted(CLI_CASES)))
        return 0
    print("usage: notebook_test.py fixture GPULINT NOTEBOOK | cli GPULINT CASE | list", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
