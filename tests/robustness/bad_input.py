#!/usr/bin/env python3
"""One bad-input case against the gpulint binary.

    bad_input.py GPULINT CASE        (bad_input.py --list prints the cases)

Each case writes its inputs into a fresh folder beside `good.py`, a training
script with one known finding, runs gpulint on them all and requires that:
gpulint exits 0, 1 or 2, and with 2 says on stderr which path failed and
why; it ends within LIMIT_S seconds; every input file is unchanged (content
hash and mode); and good.py is still linted (its finding is reported).

A malformed config file stops the run before anything is linted (a file
linted under the wrong settings would be worse than none): those cases
instead require exit 2, `gpulint: PATH:LINE: message` naming the config
(`PATH: message` for a whole-file problem such as its size), no output, and
every file unchanged.
Exit 0 when the case holds, 77 when it cannot run here (meson's skip), 1
otherwise.
"""
import hashlib
import os
import re
import stat
import subprocess
import sys
import tempfile
import time

LIMIT_S = float(os.environ.get("GPULINT_BAD_INPUT_LIMIT_S", "60"))
SKIP = 77

GOOD = (
    "import torch\n"
    "for x, y in loader:\n"
    "    loss = criterion(model(x), y)\n"
    "    loss.backward()\n"
    "    optimizer.step()\n"
)
GOOD_FINDING = "good.py:4:5: GPU001"

TRAIN_STEP = (
    "def train_{i}(model, loader, optimizer, criterion):\n"
    "    model.train()\n"
    "    for x, y in loader:\n"
    "        optimizer.zero_grad()\n"
    "        loss = criterion(model(x), y)\n"
    "        loss.backward()\n"
    "        optimizer.step()\n"
    "        torch.cuda.empty_cache()\n"
    "\n"
)


class Skip(Exception):
    pass


def write(folder, name, data, mode=None):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())
    if mode is not None:
        os.chmod(path, mode)
    return path


def nested_blocks(depth):
    """`if x:` nested `depth` deep, one space of indentation per level."""
    lines = [" " * level + "if x:" for level in range(depth)]
    lines.append(" " * depth + "pass")
    return "\n".join(lines) + "\n"


def large_script(size):
    """About `size` bytes of training code: many small training functions."""
    parts, total, i = ["import torch\n\n"], 0, 0
    while total < size:
        part = TRAIN_STEP.format(i=i)
        parts.append(part)
        total += len(part)
        i += 1
    return "".join(parts)


# ---- Cases: each writes its inputs into `folder` and returns
# (paths to pass, expected exit codes). -----------------------------------

def case_binary(folder):
    return [write(folder, "binary.py", bytes(range(256)) * 64)], {2}


def case_invalid_utf8(folder):
    return [write(folder, "latin1.py", b"name = '\xe9t\xe9'\nprint(name)\n")], {2}


def case_surrogate_utf8(folder):
    return [write(folder, "surrogate.py", b"x = '\xed\xa0\x80'\n")], {2}


def case_nul_bytes(folder):
    return [write(folder, "nul.py", b"x = 1\x00\ny = 2\n")], {2}


def case_empty(folder):
    return [write(folder, "empty.py", b"")], {1}


def case_only_newlines(folder):
    return [write(folder, "newlines.py", "\n\r\n\r" * 1000)], {1}


def case_bom_crlf_tabs(folder):
    text = "\ufeffimport torch\r\nfor x in loader:\r\n\tloss = model(x)\r\n\tloss.backward()\r\n"
    return [write(folder, "bom_crlf.py", text)], {1}


def case_deep_parens(folder):
    return [write(folder, "parens.py", "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")], {1}


def case_deep_brackets(folder):
    return [write(folder, "brackets.py", "x = " + "[" * 5000 + "]" * 5000 + "\n")], {1}


def case_deep_calls(folder):
    text = "import torch\nfor x in loader:\n    y = " + "model(" * 5000 + "x" + ")" * 5000 + "\n    items.append(y)\n"
    return [write(folder, "calls.py", text)], {1}


def case_deep_operators(folder):
    text = "import torch\nfor x in loader:\n    total = " + "loss + " * 5000 + "loss\n    y = " + "-" * 5000 + "x\n"
    return [write(folder, "operators.py", text)], {1}


def case_deep_attributes(folder):
    return [write(folder, "attributes.py", "import torch\nx = model" + ".layer" * 5000 + "(x)\n")], {1}


def case_deep_if_blocks(folder):
    return [write(folder, "blocks.py", nested_blocks(5000))], {1}


def case_deep_functions(folder):
    lines = ["import torch"] + [" " * level + f"def f{level}(loss):" for level in range(2000)]
    lines.append(" " * 2000 + "loss.backward()")
    return [write(folder, "functions.py", "\n".join(lines) + "\n")], {1}


def case_unclosed(folder):
    return [write(folder, "unclosed.py", "x = (" * 5000 + "\n" + "'''" + "a" * 10000)], {1}


def case_syntax_errors(folder):
    text = "def f(:\n    pass\nclass\nfor in:\n  x = = 1\nimport torch\nloss.backward(\n"
    return [write(folder, "broken.py", text)], {1}


def case_long_line(folder):
    return [write(folder, "long_line.py", "x = '" + "a" * (1 << 20) + "'\n")], {1}


def case_large_20mb(folder):
    """A training script followed by a generated 20 MB table, the usual way
    a Python file gets this large."""
    rows = "".join(f"    ({i}, {i * 0.5}, 'label_{i % 97}', [{i % 7}, {i % 11}, {i % 13}]),\n" for i in range(400000))
    text = GOOD.replace("loader", "table_loader") + "TABLE = [\n" + rows + "]\n"
    return [write(folder, "large.py", text)], {1}


def case_large_training_code(folder):
    """2 MB of training functions (about 9,000 loops): the rules' cost must
    grow about linearly with the file."""
    return [write(folder, "large_training.py", large_script(2 * 1000 * 1000))], {1}


def case_many_functions_same_name(folder):
    text = "import torch\n" + "".join(TRAIN_STEP.format(i=0) for _ in range(3000))
    return [write(folder, "same_name.py", text)], {1}


def case_many_overriding_methods(folder):
    """Hundreds of classes whose methods of one name call each other
    (`step` -> `helper` -> `self.step`), each drawing noise: a rule that
    follows the callers of a method through every override must answer
    each function once, not once per path."""
    body = (
        "class Model{i}(Base):\n"
        "    def step(self, x):\n"
        "        t = torch.rand(x.shape[0]).type_as(x)\n"
        "        for k in range(3):\n"
        "            x = x + k\n"
        "        return self.helper(x, t)\n"
        "\n"
        "    def helper(self, x, t):\n"
        "        return self.step(x) + t\n"
        "\n"
        "    def run(self, x):\n"
        "        return self.step(x)\n"
        "\n"
    )
    text = "import torch\n\n" + "".join(body.format(i=i) for i in range(400))
    return [write(folder, "overrides.py", text)], {1}


def case_symlink_loop(folder):
    loops = os.path.join(folder, "loops")
    os.mkdir(loops)
    os.symlink(".", os.path.join(loops, "self"))
    os.symlink("a.py", os.path.join(loops, "b.py"))
    os.symlink("b.py", os.path.join(loops, "a.py"))
    os.symlink(loops, os.path.join(loops, "back"))
    return [loops, os.path.join(loops, "a.py")], {2}


def case_dangling_symlink(folder):
    link = os.path.join(folder, "gone.py")
    os.symlink(os.path.join(folder, "missing.py"), link)
    return [link], {2}


def case_unreadable(folder):
    if os.geteuid() == 0:
        raise Skip("running as root, which can read a chmod 000 file")
    locked = write(folder, "locked.py", GOOD, mode=0)
    return [locked], {2}


def case_missing_path(folder):
    return [os.path.join(folder, "no_such_file.py"), os.path.join(folder, "no_such_dir")], {2}


def case_directory_named_py(folder):
    os.mkdir(os.path.join(folder, "package.py"))
    return [os.path.join(folder, "package.py")], {1}


def case_fifo(folder):
    fifo = os.path.join(folder, "pipe.py")
    os.mkfifo(fifo)
    return [fifo], {2}


def case_odd_file_names(folder):
    paths = [write(folder, "space name.py", GOOD), write(folder, "-dash.py", "x = 1\n"),
             write(folder, "ünïcode.py", "x = 1\n")]
    raw = os.path.join(folder.encode(), b"bad\xffname.py")
    with open(raw, "wb") as file:
        file.write(b"x = 1\n")
    return [folder] + paths, {1}


def case_notebook_not_json(folder):
    return [write(folder, "broken.ipynb", b'{"cells": [{"cell_type": "code", "source": ["x = 1\n"')], {2}


def case_notebook_wrong_types(folder):
    text = '{"cells": [{"cell_type": "code", "source": 42}, 7], "nbformat": 4, "metadata": []}'
    return [write(folder, "types.ipynb", text)], {2}


def case_notebook_binary(folder):
    return [write(folder, "binary.ipynb", bytes(range(256)) * 16)], {2}


def case_notebook_deep_json(folder):
    return [write(folder, "deep.ipynb", "[" * 100000 + "]" * 100000)], {2}


def case_notebook_escaped_nul(folder):
    text = '{"cells": [{"cell_type": "code", "source": ["import torch\\u0000\\n"]}], "nbformat": 4}'
    return [write(folder, "nul.ipynb", text)], {1, 2}


# ---- Config files: these return a third item, Config(NAME, ARGS), naming
# the config file whose error must be reported and extra arguments. ----------

class Config:
    def __init__(self, name, args=(), whole_file=False):
        self.name, self.args, self.whole_file = name, list(args), whole_file


def tool_table(body):
    return "[project]\nname = \"train\"\n\n[tool.gpulint]\n" + body


def case_config_bad_toml(folder):
    write(folder, "pyproject.toml", tool_table('select = ["GPU001"\nignore = ["GPU201"]\n'))
    return [], {2}, Config("pyproject.toml")


def case_config_wrong_types(folder):
    write(folder, "pyproject.toml", tool_table('select = "GPU001"\nrespect-gitignore = "yes"\n'))
    return [], {2}, Config("pyproject.toml")


def case_config_wrong_types_in_lists(folder):
    write(folder, ".gpulint.toml", 'exclude = ["legacy", 7]\nper-file-ignores = ["tests/*"]\n')
    return [], {2}, Config(".gpulint.toml")


def case_config_unknown_keys(folder):
    write(folder, "pyproject.toml", tool_table('line-length = 100\n[tool.gpulint.lint]\nselect = ["GPU1"]\n'))
    return [], {2}, Config("pyproject.toml")


def case_config_unknown_selector_and_bad_glob(folder):
    write(folder, "gpulint.toml", 'select = ["GPU001", "E501"]\n')
    write(folder, "sub/gpulint.toml", 'exclude = ["[unclosed"]\n')
    return [], {2}, Config("gpulint.toml")


def case_config_huge_file(folder):
    """A 20 MB pyproject.toml (a generated table under another tool)."""
    rows = "".join(f'key_{i} = "{"x" * 40}"\n' for i in range(400000))
    write(folder, "pyproject.toml", tool_table('select = ["GPU0"]\n') + "[tool.generated]\n" + rows)
    return [], {2}, Config("pyproject.toml", whole_file=True)


def case_config_large_valid(folder):
    """Just under the 1 MiB limit, valid: read within the time limit and
    applied."""
    rows = "".join(f'key_{i} = ["{i}", {{ a = {i} }}]\n' for i in range(30000))
    text = tool_table('select = ["GPU0"]\n') + "[tool.generated]\n" + rows
    write(folder, "pyproject.toml", text[: (1 << 20) - 4096].rsplit("\n", 1)[0] + "\n")
    return [], {1}


def case_config_binary(folder):
    write(folder, ".gpulint.toml", bytes(range(256)) * 64)
    return [], {2}, Config(".gpulint.toml")


def case_config_invalid_utf8_and_nul(folder):
    write(folder, "pyproject.toml", tool_table('select = ["GPU001"]\n').encode() + b'ignore = ["\xff\x00"]\n')
    return [], {2}, Config("pyproject.toml")


def case_config_deep_arrays(folder):
    write(folder, "pyproject.toml", tool_table("") + "[tool.other]\nx = " + "[" * 100000 + "]" * 100000 + "\n")
    return [], {2}, Config("pyproject.toml")


def case_config_deep_inline_tables(folder):
    write(folder, "pyproject.toml", tool_table("") + "[tool.other]\nx = " + "{a = " * 50000 + "1" + "}" * 50000 + "\n")
    return [], {2}, Config("pyproject.toml")


def case_config_deep_tables(folder):
    """Table headers and dotted keys 100,000 levels deep are valid TOML: read
    without exhausting the stack, and not a config error."""
    text = tool_table('select = ["GPU0"]\n') + "[" + ".".join(["a"] * 100000) + "]\nx = 1\n"
    text += "[[" + ".".join(["b"] * 100000) + "]]\n" + "c" + ".c" * 100000 + " = 1\n"
    write(folder, "pyproject.toml", text)
    return [], {1}


def case_config_nested_folder(folder):
    write(folder, "pkg/.gpulint.toml", 'respect-gitignore = "no"\n')
    write(folder, "pkg/train.py", GOOD)
    return [os.path.join(folder, "pkg")], {2}, Config(os.path.join("pkg", ".gpulint.toml"))


def case_config_flag_malformed(folder):
    path = write(folder, "ci.toml", "select = [\n")
    return [], {2}, Config("ci.toml", args=["--config", path])


def case_config_flag_not_a_file(folder):
    os.mkdir(os.path.join(folder, "configs"))
    return [], {2}, Config("configs", args=["--config", os.path.join(folder, "configs")], whole_file=True)


CASES = {name[len("case_"):]: function for name, function in sorted(globals().items()) if name.startswith("case_")}


# ---- Checking -------------------------------------------------------------------

def snapshot(folder):
    """Content hash and mode of every regular file under `folder`."""
    state = {}
    for directory, _, files in os.walk(folder.encode()):
        for name in files:
            path = os.path.join(directory, name)
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode):
                state[path] = ("not a file", info.st_mode)
                continue
            try:
                with open(path, "rb") as file:
                    state[path] = (hashlib.sha256(file.read()).hexdigest(), info.st_mode)
            except OSError:
                state[path] = ("unreadable", info.st_mode, info.st_size, info.st_mtime_ns)
    return state


def run_case(gpulint, name):
    with tempfile.TemporaryDirectory(prefix="gpulint-bad-input-") as folder:
        good = write(folder, "good.py", GOOD)
        try:
            paths, expected, *config = CASES[name](folder)
        except Skip as reason:
            print(f"SKIP {name}: {reason}")
            return SKIP
        config = config[0] if config else Config(None)
        before = snapshot(folder)
        start = time.monotonic()
        try:
            process = subprocess.run([os.path.abspath(gpulint), *config.args, "--", *paths, good], capture_output=True,
                                     timeout=LIMIT_S, stdin=subprocess.DEVNULL, cwd=folder)
        except subprocess.TimeoutExpired:
            print(f"FAIL {name}: gpulint ran past {LIMIT_S:.0f} s")
            return 1
        elapsed = time.monotonic() - start
        out = process.stdout.decode(errors="replace")
        err = process.stderr.decode(errors="replace")
        problems = []
        if process.returncode not in (0, 1, 2):
            problems.append(f"exit status {process.returncode} (a signal or crash?)")
        elif process.returncode not in expected:
            problems.append(f"exit status {process.returncode}, expected {sorted(expected)}")
        if process.returncode == 2 and not any(line.startswith("gpulint: ") and ": " in line[9:]
                                               for line in err.splitlines()):
            problems.append("exit status 2 without a `gpulint: PATH: reason` message")
        if "runtime error" in err or "Sanitizer" in err:
            problems.append("a sanitizer reported an error")
        if config.name:
            where = re.escape(config.name) + ("" if config.whole_file else r":\d+")
            if not re.search(r"^gpulint: (\S*/)?" + where + r": \S", err, re.MULTILINE):
                problems.append(f"no `gpulint: {config.name}{'' if config.whole_file else ':LINE'}: message` on stderr")
            if out:
                problems.append("a file was linted despite the config error")
        elif GOOD_FINDING not in out:
            problems.append("good.py was not linted (its GPU001 is missing)")
        after = snapshot(folder)
        if after != before:
            changed = sorted(set(before.items()) ^ set(after.items()))
            problems.append(f"input files changed: {changed[:3]}")
        print(f"{name}: exit {process.returncode} in {elapsed:.2f} s")
        if err.strip():
            print("stderr:", err.strip()[:2000])
        if problems:
            print(f"FAIL {name}: " + "; ".join(problems))
            print("stdout:", out[:2000])
            return 1
        return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--list":
        print("\n".join(CASES))
        return 0
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    return run_case(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    sys.exit(main())
