#!/usr/bin/env python3
"""Command-line tests for gpulint: one case per behaviour, each run as its own
meson test. Every case works in a fresh temporary directory, runs the real
binary and checks its exit status and its parsed output.

Usage: cli_test.py --gpulint BINARY --source REPO CASE
       cli_test.py --list
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77  # meson's exit status for a skipped test

BAD = """import torch


def train(model, loader, optimizer):
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
"""
BAD_LINE, BAD_COLUMN, BAD_END_COLUMN = 7, 9, 24

GOOD = """import torch


def train(model, loader, optimizer):
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
"""

CLEARED_TOO_LATE = """import torch


def train(model, loader, optimizer):
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
"""

SYNTAX_ERROR = "def broken(:\n    pass\n"

TEXT_LINE = re.compile(r"^(?P<path>.+?):(?:cell (?P<cell>\d+):)?(?P<line>\d+):(?P<column>\d+): (?P<code>[A-Z]+\d+) (?P<message>.+)$")
ANNOTATION = re.compile(r"^::(?P<level>error|warning|notice) (?P<properties>[^:]*(?:%3A[^:]*)*)::(?P<message>.*)$")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def equal(actual, expected, what):
    if actual != expected:
        raise Failure("%s: expected %r, got %r" % (what, expected, actual))


class Run:
    def __init__(self, args, status, out, err):
        self.args, self.status, self.out, self.err = args, status, out, err

    def expect(self, status):
        if self.status != status:
            raise Failure("gpulint %s: exit %d, expected %d\n--- stdout\n%s--- stderr\n%s"
                          % (" ".join(self.args), self.status, status, self.out, self.err))
        return self

    def json(self):
        try:
            return json.loads(self.out)
        except ValueError as error:
            raise Failure("not JSON (%s):\n%s" % (error, self.out))

    def findings(self):
        """(path, line, column, code) of each text finding line."""
        found = []
        for line in self.out.splitlines():
            match = TEXT_LINE.match(line)
            if match:
                found.append((match["path"], int(match["line"]), int(match["column"]), match["code"]))
        return found

    def codes(self):
        return sorted({code for _, _, _, code in self.findings()})


class Case:
    def __init__(self, gpulint, source, root):
        self.gpulint, self.source, self.root = gpulint, source, root
        self.env = {key: value for key, value in os.environ.items()
                    if key not in ("GITHUB_WORKSPACE", "CI_PROJECT_DIR", "NO_COLOR", "FORCE_COLOR",
                                   "GPULINT_CACHE_DIR")}
        # The result cache stays off except in the cases that test it
        # (Case.use_cache), and never reaches the user's own cache folder.
        self.env["GPULINT_NO_CACHE"] = "1"
        self.env["XDG_CACHE_HOME"] = os.path.join(root, ".user-cache")

    def path(self, relative):
        return os.path.join(self.root, relative)

    def write(self, relative, text, mode="w"):
        path = self.path(relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, mode) as f:
            f.write(text)
        return path

    def run(self, *args, stdin=None, cwd=None, env=None):
        environment = dict(self.env, **(env or {}))
        process = subprocess.run([self.gpulint, *args], cwd=cwd or self.root, input=stdin, capture_output=True,
                                 env=environment, timeout=60)
        return Run(list(args), process.returncode, process.stdout.decode("utf-8", "replace"),
                   process.stderr.decode("utf-8", "replace"))

    def rules(self):
        return self.run("rules", "--output-format", "json").expect(0).json()

    def use_cache(self):
        """From here on, runs read and write the result cache."""
        del self.env["GPULINT_NO_CACHE"]


CASES = {}


def case(function):
    CASES[function.__name__] = function
    return function


# ---- Text output -------------------------------------------------------------------

# The summary's hint for BAD's one finding, whose fix (clearing after the
# step) changes training: it is applied only with --unsafe-fixes.
UNSAFE_HINT = "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)."


@case
def text_reports_findings_and_summary(t):
    t.write("bad.py", BAD)
    run = t.run().expect(1)
    equal(run.findings(), [("bad.py", BAD_LINE, BAD_COLUMN, "GPU001")], "findings")
    equal(run.out.splitlines()[-2:], ["Found 1 finding (1 file).", UNSAFE_HINT], "summary")


@case
def text_clean_run_passes(t):
    t.write("good.py", GOOD)
    run = t.run("check").expect(0)
    equal(run.out, "All checks passed!\n", "output")


@case
def text_full_shows_source_caret_and_hint(t):
    t.write("bad.py", BAD)
    run = t.run("--output-format", "full").expect(1)
    lines = run.out.splitlines()
    source = BAD.splitlines()[BAD_LINE - 1]
    hint = next(rule["fix_hint"] for rule in t.rules() if rule["code"] == "GPU001")
    index = next(i for i, line in enumerate(lines) if TEXT_LINE.match(line))
    code_line = next(line for line in lines[index:] if line.endswith(source))
    caret_line = lines[lines.index(code_line) + 1]
    gutter = code_line.index("|") + 2
    equal(code_line[gutter:], source, "source line")
    carets = caret_line[gutter:]
    equal(carets.index("^") + 1, BAD_COLUMN, "caret column")
    equal(carets.count("^"), BAD_END_COLUMN - BAD_COLUMN, "caret width")
    equal(labelled(lines, "help"), hint, "the fix hint, wrapped")
    detail = t.run("--output-format", "json").json()[0]["detail"]
    check("H200" in detail and len(detail) > 140, "the detail names where it was measured: %r" % detail)
    equal(labelled(lines, "why"), detail, "the finding's detail under its snippet")
    why = next(i for i, line in enumerate(lines) if "= why: " in line)
    block = lines[why:next(i for i, line in enumerate(lines) if "= help: " in line)]
    check(len(block) > 1 and all(len(line) <= 88 for line in block), "the detail is not wrapped:\n" + run.out)
    equal(lines[-2:], ["Found 1 finding (1 file).", UNSAFE_HINT], "summary")


def labelled(lines, label):
    """The text of a `= label: ...` block of `full` output, its wrapped
    continuation lines joined."""
    start = next((i for i, line in enumerate(lines) if line.strip().startswith("= %s: " % label)), None)
    check(start is not None, "no `= %s:` line:\n%s" % (label, "\n".join(lines)))
    first = lines[start]
    indent = first.index("= %s: " % label) + len("= %s: " % label)
    parts = [first[indent:]]
    for line in lines[start + 1:]:
        if not line.startswith(" " * indent) or not line[indent:indent + 1].strip():
            break
        parts.append(line[indent:])
    return " ".join(parts)


@case
def text_full_caret_follows_tabs(t):
    t.write("tabs.py", BAD.replace("        ", "\t\t"))
    run = t.run("--format=full").expect(1)
    lines = run.out.splitlines()
    code_line = next(line for line in lines if line.endswith("\t\tloss.backward()"))
    caret_line = lines[lines.index(code_line) + 1]
    gutter = code_line.index("|") + 2
    equal(caret_line[gutter:], "\t\t" + "^" * len("loss.backward()"), "caret under a tab-indented line")


@case
def color_only_when_asked_or_on_a_terminal(t):
    t.write("bad.py", BAD)
    plain = t.run().expect(1)
    check(not ANSI.search(plain.out), "colour without a terminal")
    coloured = t.run("--color", "always").expect(1)
    check(ANSI.search(coloured.out), "no colour with --color always")
    equal(ANSI.sub("", coloured.out), plain.out, "text without the colour codes")
    check(not ANSI.search(t.run("--color=never", "--format", "full").out), "colour with --color never")
    check(not ANSI.search(t.run(env={"NO_COLOR": "1"}).out), "colour with NO_COLOR")
    t.run("--color", "sometimes").expect(2)


@case
def color_auto_on_a_terminal(t):
    try:
        import pty
    except ImportError:
        return SKIP
    t.write("bad.py", BAD)
    try:
        primary, secondary = pty.openpty()
    except OSError:
        print("skipped: no pseudo-terminal available")
        return SKIP
    process = subprocess.Popen([t.gpulint, "bad.py"], cwd=t.root, stdout=secondary, stderr=secondary, env=t.env)
    os.close(secondary)
    output = b""
    while True:
        try:
            chunk = os.read(primary, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    process.wait(timeout=60)
    os.close(primary)
    check(ANSI.search(output.decode("utf-8", "replace")), "no colour on a terminal")


# ---- Machine formats ---------------------------------------------------------------

FINDING_KEYS = {"path", "line", "column", "end_line", "end_column", "code", "name", "message", "detail", "severity",
                "effect"}  # and `url` when a rule URL is configured


@case
def json_has_every_field(t):
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    findings = t.run("--output-format", "json").expect(1).json()
    equal(len(findings), 2, "finding count")
    for finding in findings:
        check(FINDING_KEYS <= set(finding), "missing keys: %s" % (FINDING_KEYS - set(finding)))
        check("cell" not in finding, "cell in a .py finding")
    first = findings[0]
    equal((first["path"], first["line"], first["column"], first["end_line"], first["end_column"]),
          ("bad.py", BAD_LINE, BAD_COLUMN, BAD_LINE, BAD_END_COLUMN), "position")
    equal((first["code"], first["name"], first["severity"], first["effect"]),
          ("GPU001", "missing-zero-grad", "error", "wrong-gradients"), "rule fields")
    check("url" not in first, "a url without a configured rule URL")
    equal(findings[1]["code"], "GPU002", "second finding")
    equal(t.run("--format", "json", "--exit-zero").json(), findings, "json is stable")


@case
def json_lines_one_object_per_line(t):
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    run = t.run("--output-format", "json-lines").expect(1)
    objects = [json.loads(line) for line in run.out.splitlines()]
    equal([o["code"] for o in objects], ["GPU001", "GPU002"], "codes")
    equal(objects, t.run("--format", "json").json(), "same objects as json")


@case
def json_clean_run_is_an_empty_array(t):
    t.write("good.py", GOOD)
    equal(t.run("--format", "json").expect(0).json(), [], "findings")


def sarif_run(t, *args, env=None):
    document = t.run("--output-format", "sarif", *args, env=env).json()
    equal(document["version"], "2.1.0", "version")
    check("sarif-2.1.0" in document["$schema"], "$schema")
    equal(len(document["runs"]), 1, "runs")
    return document["runs"][0]


@case
def sarif_has_the_fields_github_needs(t):
    t.write("src/bad.py", BAD)
    run = sarif_run(t)
    driver = run["tool"]["driver"]
    equal(driver["name"], "gpulint", "driver name")
    check(re.match(r"^\d+\.\d+\.\d+", driver["version"]), "driver version")
    check("informationUri" not in driver, "no informationUri: the project names no address")
    default_codes = [rule["code"] for rule in t.rules() if rule["default_enabled"]]
    equal([rule["id"] for rule in driver["rules"]], default_codes, "every enabled rule is listed")
    for rule in driver["rules"]:
        for key in ("id", "name"):
            check(rule[key], "rule %s" % key)
        for key in ("shortDescription", "fullDescription", "help"):
            check(rule[key]["text"], "rule %s.text" % key)
        check(rule["defaultConfiguration"]["level"] in ("error", "warning", "note"), "level")
    result, = run["results"]
    equal(result["ruleId"], "GPU001", "ruleId")
    equal(driver["rules"][result["ruleIndex"]]["id"], "GPU001", "ruleIndex")
    equal(result["level"], "error", "level")
    check(result["message"]["text"], "message")
    location = result["locations"][0]["physicalLocation"]
    equal(location["artifactLocation"], {"uri": "src/bad.py", "uriBaseId": "%SRCROOT%"}, "artifactLocation")
    equal(location["region"], {"startLine": BAD_LINE, "startColumn": BAD_COLUMN, "endLine": BAD_LINE,
                               "endColumn": BAD_END_COLUMN}, "region")
    check(result["partialFingerprints"]["primaryLocationLineHash"], "fingerprint")
    check(run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file:///"), "originalUriBaseIds")
    equal(run["invocations"][0]["executionSuccessful"], True, "executionSuccessful")


@case
def sarif_lists_every_selected_rule(t):
    t.write("good.py", GOOD)
    run = sarif_run(t, "--select", "ALL")
    equal([rule["id"] for rule in run["tool"]["driver"]["rules"]], [rule["code"] for rule in t.rules()],
          "all rules")
    equal(run["results"], [], "results")
    run = sarif_run(t, "--select", "GPU002")
    equal([rule["id"] for rule in run["tool"]["driver"]["rules"]], ["GPU002"], "one rule")


@case
def sarif_fingerprints_survive_line_shifts(t):
    t.write("bad.py", BAD)
    before = sarif_run(t)["results"][0]
    t.write("bad.py", "# a comment\n\n\n" + BAD)
    after = sarif_run(t)["results"][0]
    region = lambda result: result["locations"][0]["physicalLocation"]["region"]["startLine"]
    equal(region(after), region(before) + 3, "the finding moved")
    equal(after["partialFingerprints"], before["partialFingerprints"], "fingerprint")


@case
def sarif_paths_relative_to_the_workspace(t):
    t.write("repo/pkg/my file.py", BAD)
    run = t.run("--output-format", "sarif", "pkg", cwd=t.path("repo"), env={"GITHUB_WORKSPACE": t.root}).json()
    location = run["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    equal(location, {"uri": "repo/pkg/my%20file.py", "uriBaseId": "%SRCROOT%"}, "artifactLocation")


@case
def sarif_reports_files_it_could_not_lint(t):
    t.write("bad.py", BAD)
    t.write("binary.py", "x = 1\x00\n")
    run = t.run("--output-format", "sarif")
    run.expect(2)
    invocation = run.json()["runs"][0]["invocations"][0]
    equal(invocation["executionSuccessful"], False, "executionSuccessful")
    check("binary.py" in invocation["toolExecutionNotifications"][0]["message"]["text"], "notification")


def github_escape(text, property=False):
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def github_unescape(text):
    for escaped, plain in (("%3A", ":"), ("%2C", ","), ("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        text = text.replace(escaped, plain)
    return text


@case
def github_annotations(t):
    name = "odd,na:me%.py"
    t.write(name, BAD)
    run = t.run("--output-format", "github").expect(1)
    line, = run.out.splitlines()
    match = ANNOTATION.match(line)
    check(match, "not an annotation: " + line)
    equal(match["level"], "error", "level")
    properties = dict(item.split("=", 1) for item in match["properties"].split(","))
    equal(properties["file"], github_escape(name, property=True), "file is escaped")
    equal(github_unescape(properties["file"]), name, "file")
    equal((properties["line"], properties["col"], properties["endLine"], properties["endColumn"]),
          (str(BAD_LINE), str(BAD_COLUMN), str(BAD_LINE), str(BAD_END_COLUMN)), "position")
    equal(properties["title"], "gpulint (GPU001)", "title")
    message = github_unescape(match["message"])
    check(message.startswith("%s:%d:%d: GPU001 " % (name, BAD_LINE, BAD_COLUMN)), "message: " + message)
    check("\n" not in match["message"] and "%," not in match["message"], "raw message")


@case
def github_paths_relative_to_the_workspace(t):
    t.write("repo/sub/bad.py", BAD)
    run = t.run("--format", "github", cwd=t.path("repo/sub"), env={"GITHUB_WORKSPACE": t.path("repo")})
    properties = dict(item.split("=", 1) for item in ANNOTATION.match(run.out.strip())["properties"].split(","))
    equal(properties["file"], "sub/bad.py", "file")


@case
def gitlab_code_quality(t):
    t.write("src/bad.py", BAD)
    t.write("src/two.py", CLEARED_TOO_LATE)
    issues = t.run("--output-format", "gitlab").expect(1).json()
    equal(len(issues), 2, "issues")
    for issue in issues:
        for key in ("description", "check_name", "fingerprint", "severity", "location"):
            check(key in issue, "missing " + key)
        check(issue["severity"] in ("info", "minor", "major", "critical", "blocker"), "severity")
        check(issue["description"].startswith(issue["check_name"]), "description names the code")
    equal(issues[0]["location"], {"path": "src/bad.py", "lines": {"begin": BAD_LINE, "end": BAD_LINE}}, "location")
    equal(len({issue["fingerprint"] for issue in issues}), 2, "unique fingerprints")
    project = t.run("--format", "gitlab", cwd=t.path("src"), env={"CI_PROJECT_DIR": t.root}).json()
    equal(project[0]["location"]["path"], "src/bad.py", "path relative to CI_PROJECT_DIR")
    equal([i["fingerprint"] for i in project], [i["fingerprint"] for i in issues], "stable fingerprints")


@case
def output_file(t):
    t.write("bad.py", BAD)
    run = t.run("--output-format", "json", "-o", "report.json").expect(1)
    equal(run.out, "", "stdout")
    with open(t.path("report.json")) as f:
        equal(json.load(f)[0]["code"], "GPU001", "file contents")
    t.run("--output-file=report.txt").expect(1)
    with open(t.path("report.txt")) as f:
        check(f.read().endswith("Found 1 finding (1 file).\n" + UNSAFE_HINT + "\n"), "text report")
    t.run("-o", "missing-dir/report.txt").expect(2)


@case
def unknown_output_format(t):
    t.write("bad.py", BAD)
    run = t.run("--output-format", "xml").expect(2)
    check("unknown output format" in run.err, run.err)


# ---- Selection -----------------------------------------------------------------------

def write_three(t):
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    t.write("syntax.py", SYNTAX_ERROR)


@case
def select_codes_and_prefixes(t):
    write_three(t)
    equal(t.run().codes(), ["GPU001", "GPU002", "GPU900"], "defaults")
    equal(t.run("--select", "GPU0").codes(), ["GPU001", "GPU002"], "prefix")
    equal(t.run("--select", "gpu001,GPU900").codes(), ["GPU001", "GPU900"], "codes")
    equal(t.run("--select", "GPU001", "--select", "GPU002").codes(), ["GPU001", "GPU002"], "repeated")
    equal(t.run("--select", "ALL").codes(), ["GPU001", "GPU002", "GPU900"], "ALL")


@case
def ignore_and_extend_select(t):
    write_three(t)
    equal(t.run("--ignore", "GPU9").codes(), ["GPU001", "GPU002"], "ignore a prefix")
    equal(t.run("--select", "GPU001", "--extend-select", "GPU900").codes(), ["GPU001", "GPU900"], "extend")
    equal(t.run("--ignore", "ALL", "--extend-select", "GPU002").codes(), ["GPU002"], "ignore ALL, add one back")


@case
def more_specific_selector_wins(t):
    write_three(t)
    equal(t.run("--select", "GPU001", "--ignore", "GPU0").codes(), ["GPU001"], "specific select beats prefix ignore")
    equal(t.run("--select", "GPU0", "--ignore", "GPU001").codes(), ["GPU002"], "specific ignore beats prefix select")
    equal(t.run("--select", "GPU0", "--ignore", "GPU0").codes(), [], "ignore wins a tie")


@case
def unknown_selector_is_a_usage_error(t):
    write_three(t)
    run = t.run("--select", "GPU0,NOPE1").expect(2)
    check("NOPE1" in run.err, run.err)
    t.run("--ignore", "GPU77777").expect(2)


@case
def exit_zero(t):
    t.write("bad.py", BAD)
    run = t.run("--exit-zero").expect(0)
    equal(len(run.findings()), 1, "findings still printed")
    t.run("-e").expect(0)
    t.run("--exit-zero", "missing.py", "bad.py").expect(2)


@case
def statistics(t):
    t.write("a.py", BAD)
    t.write("b.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    run = t.run("--statistics").expect(1)
    rows = [line.split("\t") for line in run.out.splitlines()[:-1]]
    equal([(int(count), code, name) for count, code, name in rows],
          [(2, "GPU001", "missing-zero-grad"), (1, "GPU002", "zero-grad-between-backward-and-step")], "rows")
    equal(run.out.splitlines()[-1], "Found 3 findings.", "total")
    equal(t.run("--statistics", "--format", "json").json(),
          [{"code": "GPU001", "name": "missing-zero-grad", "count": 2},
           {"code": "GPU002", "name": "zero-grad-between-backward-and-step", "count": 1}], "json")


@case
def quiet_prints_findings_only(t):
    t.write("bad.py", BAD)
    run = t.run("-q").expect(1)
    equal(len(run.out.splitlines()), 1, "one line")
    equal(len(run.findings()), 1, "the finding")
    t.write("bad.py", GOOD)
    equal(t.run("--quiet").expect(0).out, "", "clean and quiet")


@case
def show_files(t):
    t.write("b.py", BAD)
    t.write("a/x.py", GOOD)
    t.write("a/nb.ipynb", "{}")
    t.write("notes.txt", "")
    t.write("venv/lib.py", BAD)
    run = t.run("--show-files").expect(0)
    equal(run.out.splitlines(), ["a/nb.ipynb", "a/x.py", "b.py"], "files")


# ---- Suppression ---------------------------------------------------------------------

@case
def noqa_on_the_reported_line(t):
    line = BAD.splitlines()[BAD_LINE - 1]
    for comment, suppressed in (("# noqa: GPU001", True), ("# NOQA:GPU001", True), ("# noqa", True),
                                ("# noqa: GPU002, GPU001", True), ("# noqa: GPU002 GPU001", True),
                                ("# noqa: GPU0", True), ("# noqa: GPU002", False), ("# noqa:GPU1", False),
                                ("# noqa: GPU001 kept on purpose", True), ("# noqa: GPU002 see GPU001", False),
                                ("# noqa: GPU002 G", False), ("# type: ignore # noqa: GPU001", True),
                                ("# noqa  why not", True), ("# noqa: why not", True), ("# noqa:", True),
                                ("# noqa F401", True), ("# noqa: F401", False)):
        t.write("bad.py", BAD.replace(line, line + "  " + comment))
        codes = t.run().codes()
        equal(codes, [] if suppressed else ["GPU001"], comment)
    # A typo is reported (GPU902) and suppresses nothing, where it used to hide the line's findings.
    for comment in ("# noqa GPU001", "# noqa: GPU0O1", "# noqa: gpu01x, F401"):
        t.write("bad.py", BAD.replace(line, line + "  " + comment))
        equal(t.run().codes(), ["GPU001", "GPU902"], comment)
    t.write("bad.py", BAD.replace(line, line + "  # noqa: GPU0O1, GPU001"))
    equal(t.run().codes(), ["GPU902"], "a valid code beside a typo still suppresses")


@case
def noqa_for_the_whole_file(t):
    t.write("bad.py", "# gpulint: noqa\n" + BAD)
    t.write("two.py", CLEARED_TOO_LATE + "# gpulint: noqa: GPU002\n")
    t.write("three.py", BAD + "# gpulint: noqa: GPU002\n")
    run = t.run()
    equal(run.findings(), [("three.py", BAD_LINE, BAD_COLUMN, "GPU001")], "findings")


# ---- Fixes ---------------------------------------------------------------------------------

FIXES = "tests/fixes"


def fix_pairs(t):
    """(input, expected after --fix, expected after --fix --unsafe-fixes) under tests/fixes."""
    folder = os.path.join(t.source, FIXES)
    for name in sorted(os.listdir(folder)):
        stem, dot, extension = name.partition(".")
        if extension not in ("py", "ipynb"):
            continue
        read = lambda suffix: open(os.path.join(folder, "%s.%s.%s" % (stem, suffix, extension)), "rb").read() \
            if os.path.exists(os.path.join(folder, "%s.%s.%s" % (stem, suffix, extension))) else None
        original = open(os.path.join(folder, name), "rb").read()
        safe = read("fixed")
        check(safe is not None, "%s has no .fixed twin" % name)
        yield name, original, safe, read("unsafe") or safe


@case
def fix_applies_each_rules_fixes(t):
    t.write("pyproject.toml", "[project]\nname = \"fixes\"\n")
    for name, original, safe, unsafe in fix_pairs(t):
        for flags, expected in ((["--fix"], safe), (["--fix", "--unsafe-fixes"], unsafe)):
            t.write(name, original, "wb")
            t.run(*flags, "--exit-zero", name).expect(0)
            equal(open(t.path(name), "rb").read().decode(), expected.decode(), "%s with %s" % (name, " ".join(flags)))
            t.run(*flags, "--exit-zero", name).expect(0)
            equal(open(t.path(name), "rb").read().decode(), expected.decode(), "%s fixed twice" % name)
        os.remove(t.path(name))


@case
def fix_keeps_line_endings_mode_and_encoding(t):
    text = "# -*- coding: utf-8 -*-\nimport torch\n\nfor x in loader:  # caf\u00e9\n    opt.step()\n    torch.cuda.empty_cache()\n"
    path = t.write("crlf.py", text.replace("\n", "\r\n").encode("utf-8"), "wb")
    os.chmod(path, 0o751)
    t.run("--fix", "crlf.py").expect(0)
    fixed = open(path, "rb").read()
    equal(fixed, text.replace("    torch.cuda.empty_cache()\n", "").replace("\n", "\r\n").encode("utf-8"), "CRLF file")
    equal(os.stat(path).st_mode & 0o7777, 0o751, "mode")
    equal(sorted(os.listdir(t.root)), ["crlf.py"], "files left beside it")
    check(not [name for name in os.listdir("/") if name.startswith(".gpulint-fix-")], "a temporary file left in /")
    # A path with folders: the temporary file is made in the file's own folder.
    t.write("sub/dir.py", text)
    t.run("--fix", "sub/dir.py").expect(0)
    equal(sorted(os.listdir(t.path("sub"))), ["dir.py"], "files left beside sub/dir.py")
    # No trailing newline: the rest of the file is kept as it was.
    t.write("tail.py", "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n    x = 1")
    t.run("--fix", "tail.py").expect(0)
    equal(open(t.path("tail.py")).read(), "import torch\nfor x in loader:\n    opt.step()\n    x = 1", "no final newline")


@case
def fix_through_a_link_and_not_a_read_only_file(t):
    source = "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n"
    fixed = "import torch\nfor x in loader:\n    opt.step()\n"
    t.write("real/target.py", source)
    os.symlink("real/target.py", t.path("link.py"))
    t.run("--fix", "link.py").expect(0)
    check(os.path.islink(t.path("link.py")), "the link was replaced by a file")
    equal(open(t.path("real/target.py")).read(), fixed, "the link's target, fixed")
    equal(sorted(os.listdir(t.path("real"))), ["target.py"], "files left beside the target")
    # A read-only file is refused, not replaced (even when root could write it).
    path = t.write("locked.py", source)
    os.chmod(path, 0o444)
    run = t.run("--fix", "locked.py").expect(2)
    check("locked.py: read-only (mode 0444): not written" in run.err, run.err)
    equal(open(path).read(), source, "the read-only file")
    equal(os.stat(path).st_mode & 0o7777, 0o444, "its mode")
    t.run("--add-noqa", "locked.py").expect(2)
    equal(open(path).read(), source, "the read-only file after --add-noqa")


@case
def fixable_unfixable_and_extend_ignore(t):
    source = "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n"
    t.write("a.py", source)
    run = t.run("--unfixable", "GPU201", "--fix", "a.py").expect(1)
    equal(open(t.path("a.py")).read(), source, "--unfixable GPU201: not fixed")
    check("fixable" not in run.out, "an unfixable finding is not counted as fixable:\n" + run.out)
    equal(t.run("--unfixable", "GPU2", "--format", "json", "a.py").json()[0].get("fix"), None, "JSON fix")
    t.run("--fixable", "GPU0", "--diff", "a.py").expect(0)
    t.run("--fixable", "GPU0", "--extend-fixable", "GPU201", "--diff", "a.py").expect(1)
    equal(t.run("--extend-ignore", "GPU201", "a.py").expect(0).findings(), [], "--extend-ignore")
    t.write("pyproject.toml", "[tool.gpulint]\nunfixable = [\"GPU2\"]\n")
    t.run("--fix", "a.py").expect(1)
    equal(open(t.path("a.py")).read(), source, "unfixable in the config")
    t.run("--fixable", "ALL", "--fix", "a.py").expect(0)  # the flag's layer starts afresh
    t.write("pyproject.toml", "[tool.gpulint]\nextend-ignore = [\"GPU201\"]\nfixable = [\"GPU0\"]\n")
    t.write("a.py", source)
    t.run("a.py").expect(0)


@case
def docs_name_the_rules_without_a_fix(t):
    """docs/cli.md lists the rules without a fix; the list follows the rule
    pages (`Fix: none`), and no page of docs/ claims that every other rule
    has one."""
    without = sorted(rule["code"] for rule in t.rules()
                     if "Fix: none" in t.run("rule", rule["code"]).expect(0).out.split("\n\n")[1])
    cli = " ".join(open(os.path.join(t.source, "docs/cli.md")).read().split())
    match = re.search(r"Rules without a fix: ((?:GPU\d+,? (?:and )?)+)\(", cli)
    check(match, "docs/cli.md lists the rules without a fix")
    equal(re.findall(r"GPU\d+", match[1]), without, "the rules without a fix in docs/cli.md")
    for name in os.listdir(os.path.join(t.source, "docs")):
        text = " ".join(open(os.path.join(t.source, "docs", name)).read().split())
        for claim in re.finditer(r"[Ee]very rule but ([^.:]*?) has a fix", text):
            equal(re.findall(r"GPU\d+", claim[1]), without, "docs/%s: %s" % (name, claim[0]))


@case
def fix_diff_changes_nothing(t):
    source = "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n"
    t.write("a.py", source)
    run = t.run("--diff", "a.py").expect(1)
    equal(run.out, "--- a/a.py\n+++ b/a.py\n@@ -1,4 +1,3 @@\n import torch\n for x in loader:\n"
                   "     opt.step()\n-    torch.cuda.empty_cache()\n", "diff")
    equal(open(t.path("a.py")).read(), source, "file after --diff")
    t.write("clean.py", "x = 1\n")
    equal(t.run("--diff", "clean.py").expect(0).out, "", "nothing to fix")
    # Unsafe fixes show only when asked for.
    t.write("b.py", BAD)
    t.run("--diff", "b.py").expect(0)
    check("zero_grad" in t.run("--diff", "--unsafe-fixes", "b.py").expect(1).out, "unsafe fix in the diff")


@case
def fix_only_standard_input_and_show_fixes(t):
    source = "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n"
    fixed = "import torch\nfor x in loader:\n    opt.step()\n"
    run = t.run("--fix", "--stdin-filename", "a.py", "-", stdin=source.encode())
    equal(run.out, fixed, "standard input, fixed")
    t.write("a.py", source)
    t.write("b.py", BAD)
    run = t.run("--fix-only", "--show-fixes", ".").expect(0)
    equal(open(t.path("a.py")).read(), fixed, "--fix-only")
    check("1 × GPU201 (empty-cache-in-loop)" in run.err, "--show-fixes: " + run.err)
    equal(run.out, "", "--fix-only reports nothing left")
    t.write("a.py", source)
    run = t.run("--fix", ".").expect(1)
    check("Found 2 findings (1 fixed, 1 remaining)." in run.out, run.out)
    t.write("pyproject.toml", "[tool.gpulint]\nfix = true\nunsafe-fixes = true\n")
    t.run(".").expect(0)
    check("zero_grad" in open(t.path("b.py")).read(), "`fix` and `unsafe-fixes` in the config")


@case
def fix_in_json_and_sarif(t):
    t.write("a.py", "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()\n")
    finding = t.run("--format", "json", "a.py").expect(1).json()[0]
    equal(finding["fix"], {"applicability": "safe", "message": "Remove the `empty_cache()` call",
                           "edits": [{"content": "", "location": {"line": 4, "column": 1},
                                      "end_location": {"line": 5, "column": 1}}]}, "json fix")
    result = t.run("--format", "sarif", "a.py").expect(1).json()["runs"][0]["results"][0]
    replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0]
    equal(replacement["deletedRegion"], {"startLine": 4, "startColumn": 1, "endLine": 5, "endColumn": 1}, "sarif")
    check("= fix (safe): Remove the `empty_cache()` call" in t.run("--format", "full", "a.py").out, "full")


@case
def fixes_keep_their_guarantees(t):
    """Every fixture of the repository, fixed with --unsafe-fixes: nothing
    parses worse, no fix is left to apply, no new finding appears, and a
    second run changes nothing."""
    for folder in ("tests/rules", "tests/realistic", "tests/projects"):
        shutil.copytree(os.path.join(t.source, folder), t.path(folder))
    t.write("pyproject.toml", "[project]\nname = \"all\"\n")
    def state():
        found = t.run("--format", "json", "--exit-zero", "--extend-select", "GPU902", "tests").expect(0).json()
        files = {}
        for folder, _, names in os.walk(t.path("tests")):
            for name in names:
                files[os.path.join(folder, name)] = open(os.path.join(folder, name), "rb").read()
        return found, files
    before, _ = state()
    t.run("--fix", "--unsafe-fixes", "--exit-zero", "-q", "tests").expect(0)
    after, files = state()
    check(any(f.get("fix") for f in before), "no fixture has a fix")
    equal([f for f in after if f.get("fix")], [], "fixes left to apply")
    count = lambda found: collections.Counter((f["path"], f["code"]) for f in found)
    grown = {k: v for k, v in count(after).items() if v > count(before).get(k, 0)}
    equal(grown, {}, "findings that appeared")
    t.run("--fix", "--unsafe-fixes", "--exit-zero", "-q", "tests").expect(0)
    _, again = state()
    equal([p for p in files if files[p] != again[p]], [], "files a second --fix changed")


@case
def add_noqa_suppresses_every_finding(t):
    t.write("a.py", "import torch\nfor x in loader:\n    opt.step()\n    torch.cuda.empty_cache()  # noqa: GPU101\n")
    t.write("b.py", BAD)
    run = t.run("--add-noqa", ".").expect(0)
    check("Added 2 `# noqa` comments." in run.err, run.err)
    check("# noqa: GPU101, GPU201" in open(t.path("a.py")).read(), "merged into the existing comment")
    t.run(".").expect(0)
    check("Added 0" in t.run("--add-noqa", ".").expect(0).err, "a second run adds nothing")
    t.run("--extend-select", "GPU901", ".").expect(1)
    t.run("--extend-select", "GPU901", "--fix", ".").expect(0)
    equal(open(t.path("a.py")).read().splitlines()[-1], "    torch.cuda.empty_cache()  # noqa: GPU201",
          "the unused code removed")


KEPT_ACROSS_LINES = """import torch


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
        history.append(loss \\
            )
        history.append(loss); print(\"\"\"a
b\"\"\")
"""


@case
def add_noqa_where_python_allows_a_comment(t):
    """A line continued with a backslash, or ending inside a string, takes
    no comment: the `# noqa` goes on the last line of that stretch, and it
    suppresses the finding there."""
    t.write("a.py", KEPT_ACROSS_LINES)
    equal([line for _, line, _, _ in t.run("a.py").expect(1).findings()], [11, 13], "findings")
    t.run("--add-noqa", "a.py").expect(0)
    fixed = open(t.path("a.py")).read()
    check("            )  # noqa: GPU101\n" in fixed and 'b""")  # noqa: GPU101\n' in fixed, fixed)
    check("\\  #" not in fixed, "a comment after a backslash:\n" + fixed)
    compile(fixed, "a.py", "exec")
    t.run("--extend-select", "GPU901", "a.py").expect(0)
    check("Added 0" in t.run("--add-noqa", "a.py").expect(0).err, "a second run adds nothing")


# ---- Configuration -----------------------------------------------------------------------

@case
def config_nearest_pyproject(t):
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU001\"]\n")
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    t.write("sub/pyproject.toml", "[tool.gpulint]\nselect = [\"GPU002\"]\n")
    t.write("sub/bad.py", BAD)
    t.write("sub/two.py", CLEARED_TOO_LATE)
    t.write("other/pyproject.toml", "[project]\nname = \"no gpulint table\"\n")
    t.write("other/two.py", CLEARED_TOO_LATE)
    run = t.run().expect(1)
    equal(sorted((path, code) for path, _, _, code in run.findings()),
          [("bad.py", "GPU001"), ("sub/two.py", "GPU002")], "each file uses its nearest config")
    equal(t.run("sub").findings()[0][3], "GPU002", "config found above the named path")
    equal(t.run("two.py", cwd=t.path("sub")).codes(), ["GPU002"], "searched upward from the file")


@case
def config_precedence_in_one_directory(t):
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU001\", \"GPU002\"]\n")
    equal(t.run().codes(), ["GPU001", "GPU002"], "pyproject.toml")
    t.write("gpulint.toml", "select = [\"GPU002\"]\n")
    equal(t.run().codes(), ["GPU002"], "gpulint.toml beats pyproject.toml")
    t.write(".gpulint.toml", "select = [\"GPU001\"]\n")
    equal(t.run().codes(), ["GPU001"], ".gpulint.toml beats gpulint.toml")


@case
def config_flag_and_isolated(t):
    t.write("bad.py", BAD)
    t.write("two.py", CLEARED_TOO_LATE)
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU001\"]\n")
    t.write("elsewhere/strict.toml", "select = [\"GPU002\"]\n")
    equal(t.run("--config", "elsewhere/strict.toml").codes(), ["GPU002"], "--config")
    equal(t.run("--isolated").codes(), ["GPU001", "GPU002"], "--isolated")
    run = t.run("--config", "nope.toml").expect(2)
    check("nope.toml" in run.err, run.err)


@case
def flags_override_the_config(t):
    write_three(t)
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU002\"]\nignore = [\"GPU001\"]\noutput-format = \"json\"\n")
    equal([f["code"] for f in t.run().json()], ["GPU002"], "the config's format and selection")
    equal(t.run("--select", "GPU001", "--format", "text").codes(), ["GPU001"], "a flag's select starts afresh")
    equal(t.run("--extend-select", "GPU900", "--format", "text").codes(), ["GPU002", "GPU900"], "extend-select adds")


@case
def config_per_file_ignores(t):
    t.write("pyproject.toml", "[tool.gpulint.per-file-ignores]\n\"tests/*\" = [\"GPU001\"]\n\"legacy_*.py\" = [\"GPU0\"]\n")
    t.write("tests/deep/bad.py", BAD)
    t.write("legacy_train.py", BAD)
    t.write("pkg/legacy_two.py", CLEARED_TOO_LATE)
    t.write("bad.py", BAD)
    equal(t.run().findings(), [("bad.py", BAD_LINE, BAD_COLUMN, "GPU001")], "findings")
    run = t.run("--isolated", "--extend-per-file-ignores", "tests/*:GPU001")
    equal(sorted(path for path, _, _, _ in run.findings()),
          ["bad.py", "legacy_train.py", "pkg/legacy_two.py"], "the flag")
    run = t.run("--isolated", "--extend-per-file-ignores", "bad.py:GPU0")
    equal(sorted(path for path, _, _, _ in run.findings()), ["legacy_train.py", "pkg/legacy_two.py"],
          "a name matches at any depth")


@case
def config_excludes(t):
    t.write("bad.py", BAD)
    t.write("legacy/old.py", BAD)
    t.write("gen/model_pb2.py", BAD)
    t.write("scratch/try.py", BAD)
    t.write("venv/lib.py", BAD)
    t.write("pyproject.toml", "[tool.gpulint]\nextend-exclude = [\"legacy\", \"*_pb2.py\"]\n")
    equal(t.run("--show-files").out.splitlines(), ["bad.py", "scratch/try.py"], "extend-exclude keeps defaults")
    t.write("pyproject.toml", "[tool.gpulint]\nexclude = [\"scratch/*\"]\n")
    equal(t.run("--show-files").out.splitlines(), ["bad.py", "gen/model_pb2.py", "legacy/old.py", "venv/lib.py"],
          "exclude replaces the defaults")


@case
def config_respect_gitignore_and_output_format(t):
    t.write(".gitignore", "ignored.py\n")
    t.write("ignored.py", BAD)
    t.write("bad.py", BAD)
    t.write("gpulint.toml", "respect-gitignore = false\noutput-format = \"json\"\n")
    equal(sorted(f["path"] for f in t.run().json()), ["bad.py", "ignored.py"], "gitignore off, json")
    equal(t.run("--respect-gitignore", "--format", "text").findings()[0][0], "bad.py", "flags override")


@case
def config_errors_name_the_file_and_line(t):
    t.write("bad.py", BAD)
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU001\"]\nline-length = 100\n")
    run = t.run().expect(2)
    check(re.search(r"pyproject\.toml:3: unknown key `line-length`", run.err), run.err)
    equal(run.out, "", "nothing is linted")
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU001\"\n\n")
    run = t.run().expect(2)
    check(re.search(r"pyproject\.toml:4: invalid TOML", run.err), run.err)
    t.write("pyproject.toml", "[tool.gpulint]\nselect = \"GPU001\"\n")
    check(re.search(r"pyproject\.toml:2: `select` must be an array", t.run().expect(2).err), "type error")
    t.write("pyproject.toml", "[tool.gpulint]\nignore = [\"GPU001\", \"BOGUS1\"]\n")
    check(re.search(r"pyproject\.toml:2: unknown rule selector `BOGUS1`", t.run().expect(2).err), "selector")
    t.write("pyproject.toml", "[tool.gpulint]\n")
    t.write("sub/.gpulint.toml", "respect-gitignore = \"no\"\n")
    t.write("sub/x.py", GOOD)
    check(re.search(r"sub/\.gpulint\.toml:1: `respect-gitignore` must be true or false", t.run().expect(2).err),
          "error in a nested config")


# ---- Discovery ---------------------------------------------------------------------------

@case
def default_excludes(t):
    t.write("bad.py", BAD)
    for directory in (".git", ".hg", ".venv", "venv", "env", "__pycache__", "build", "dist", "node_modules", ".tox",
                      ".mypy_cache", "pkg/site-packages"):
        t.write(directory + "/skipped.py", BAD)
    equal(t.run("--show-files").out.splitlines(), ["bad.py"], "files")
    equal(len(t.run("build/skipped.py").expect(1).findings()), 1, "an explicit path is linted")
    equal(t.run("--force-exclude", "build/skipped.py").expect(0).out, "All checks passed!\n", "--force-exclude")
    equal(t.run("--force-exclude", "build/skipped.py", "bad.py").findings()[0][0], "bad.py", "others still linted")
    t.write("build/train.py", BAD)
    equal(len(t.run("--force-exclude", ".", cwd=t.path("build")).findings()), 2,
          "the working directory itself is never excluded")


@case
def exclude_flags(t):
    t.write("bad.py", BAD)
    t.write("experiments/try.py", BAD)
    t.write("venv/lib.py", BAD)
    equal(t.run("--show-files", "--extend-exclude", "experiments").out.splitlines(), ["bad.py"], "extend")
    equal(t.run("--show-files", "--exclude", "experiments,*.md").out.splitlines(), ["bad.py", "venv/lib.py"],
          "--exclude replaces the defaults")
    equal(t.run("--show-files", "--extend-exclude", "{experiments,other}/*.py").out.splitlines(), ["bad.py"],
          "alternatives")
    t.run("--exclude", "[oops").expect(2)


@case
def gitignore_patterns(t):
    t.write(".git/HEAD", "ref: refs/heads/main\n")
    t.write(".gitignore", "# outputs\n*_gen.py\n/top_only.py\nscratch/\ndata/**/cache.py\n!keep_gen.py\n")
    for name in ("a_gen.py", "keep_gen.py", "top_only.py", "sub/top_only.py", "scratch/x.py", "sub/scratch/y.py",
                 "data/a/b/cache.py", "data/cache.py", "data/other.py", "ok.py"):
        t.write(name, GOOD)
    t.write("nested/.gitignore", "local.py\n!a_gen.py\n")
    t.write("nested/local.py", GOOD)
    t.write("nested/a_gen.py", GOOD)
    t.write("nested/b_gen.py", GOOD)
    shown = t.run("--show-files").out.splitlines()
    equal(shown, ["data/other.py", "keep_gen.py", "nested/a_gen.py", "ok.py", "sub/top_only.py"], "files")
    everything = t.run("--show-files", "--no-respect-gitignore").out.splitlines()
    equal(len(everything), 13, "--no-respect-gitignore")


@case
def gitignore_above_the_named_directory(t):
    t.write(".git/HEAD", "ref: refs/heads/main\n")
    t.write(".gitignore", "generated/\n")
    t.write(".git/info/exclude", "private.py\n")
    t.write("src/generated/x.py", BAD)
    t.write("src/private.py", BAD)
    t.write("src/train.py", GOOD)
    equal(t.run("--show-files", "src").out.splitlines(), ["src/train.py"], "files")
    equal(t.run("--show-files", ".", cwd=t.path("src")).out.splitlines(), ["train.py"], "from inside")


@case
def symlink_loops_are_safe(t):
    t.write("pkg/bad.py", BAD)
    os.symlink("..", t.path("pkg/parent"))
    os.symlink(".", t.path("pkg/self"))
    os.symlink("pkg/bad.py", t.path("linked.py"))
    os.symlink("nowhere.py", t.path("dangling.py"))
    run = t.run("--show-files").expect(0)
    equal(run.out.splitlines(), ["linked.py", "pkg/bad.py"], "files")
    equal(len(t.run(".", "pkg", "pkg/bad.py").findings()), 2, "each file once")


@case
def deterministic_order(t):
    names = ["z.py", "a.py", "m/b.py", "m/a.py", "B.py", "_x.py", "m/sub/c.py"]
    for name in names:
        t.write(name, BAD)
    paths = [path for path, _, _, _ in t.run().findings()]
    equal(paths, sorted(paths), "sorted")
    equal(set(paths), set(names), "all files")
    equal(t.run("m", "z.py", "a.py").findings(), t.run("a.py", "m", "z.py").findings(), "argument order")


@case
def missing_path_still_lints_the_rest(t):
    t.write("bad.py", BAD)
    run = t.run("missing.py", "bad.py", "nothere/").expect(2)
    check("missing.py: no such file or directory" in run.err, run.err)
    check("nothere/: no such file or directory" in run.err, run.err)
    equal(run.findings(), [("bad.py", BAD_LINE, BAD_COLUMN, "GPU001"), ("missing.py", 1, 1, "GPU903"),
                           ("nothere/", 1, 1, "GPU903")], "findings, and a record of each missing path")


@case
def unreadable_files_still_lint_the_rest(t):
    t.write("bad.py", BAD)
    t.write("binary.py", b"\x7fELF\x00\x01", mode="wb")
    t.write("latin1.py", "name = 'caf\xe9'\n".encode("latin-1"), mode="wb")
    run = t.run().expect(2)
    check(re.search(r"binary\.py: .*NUL", run.err), run.err)
    check(re.search(r"latin1\.py: .*UTF-8", run.err), run.err)
    equal(run.findings(), [("bad.py", BAD_LINE, BAD_COLUMN, "GPU001"), ("binary.py", 1, 1, "GPU903"),
                           ("latin1.py", 1, 1, "GPU903")], "findings, and a record of each unreadable file")
    check("could not be linted" in run.out, run.out)
    os.mkfifo(t.path("pipe.py"))
    run = t.run("pipe.py", "bad.py").expect(2)
    check("pipe.py: is not a regular file" in run.err, run.err)
    if os.geteuid() != 0:
        os.chmod(t.path("bad.py"), 0)
        check("bad.py: cannot read" in t.run("bad.py").expect(2).err, "permission")
        t.write("closed/x.py", BAD)
        os.chmod(t.path("closed"), 0)
        check("closed: cannot read the directory" in t.run("closed").expect(2).err, "directory permission")
        os.chmod(t.path("closed"), 0o755)


@case
def stdin(t):
    run = t.run("-", stdin=BAD.encode()).expect(1)
    equal(run.findings(), [("-", BAD_LINE, BAD_COLUMN, "GPU001")], "stdin")
    run = t.run("--stdin-filename", "src/train.py", stdin=BAD.encode()).expect(1)
    equal(run.findings()[0][0], "src/train.py", "named")
    t.run("-", stdin=GOOD.encode()).expect(0)
    t.write("other.py", BAD)
    run = t.run("--stdin-filename", "x.py", "other.py", stdin=GOOD.encode()).expect(0)
    check("ignoring other.py" in run.err, run.err)
    t.run("-", stdin=b"x = '\xff'\n").expect(2)


@case
def stdin_filename_selects_settings(t):
    t.write("pyproject.toml", "[tool.gpulint.per-file-ignores]\n\"tests/*\" = [\"GPU001\"]\n")
    t.run("--stdin-filename", "tests/test_train.py", stdin=BAD.encode()).expect(0)
    t.run("--stdin-filename", "train.py", stdin=BAD.encode()).expect(1)
    t.write("pyproject.toml", "[tool.gpulint]\nextend-exclude = [\"gen\"]\n")
    run = t.run("--stdin-filename", "gen/x.py", "--force-exclude", "-", stdin=BAD.encode()).expect(0)
    equal(run.out, "All checks passed!\n", "an excluded name lints nothing")


@case
def stdin_filename_decides_notebooks(t):
    notebook = notebook_text([BAD])
    run = t.run("--stdin-filename", "nb.ipynb", "--format", "json", stdin=notebook.encode())
    findings = run.json()
    if not any("cell" in f for f in findings):
        print("skipped: this build does not read notebooks yet")
        return SKIP
    equal([(f["code"], f.get("cell")) for f in findings], [("GPU001", 2)], "notebook findings (cells counted with the markdown one)")


def notebook_text(cells):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"language_info": {"name": "python"}},
                       "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Title\n"]}] +
                                [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                                  "source": source.splitlines(keepends=True)} for source in cells]})


@case
def notebooks_in_every_format(t):
    t.write("nb.ipynb", notebook_text(["import torch\n", BAD]))
    findings = t.run("--format", "json", "nb.ipynb").json()
    if not any("cell" in f for f in findings):
        print("skipped: this build does not read notebooks yet")
        return SKIP
    finding, = findings
    equal((finding["cell"], finding["line"], finding["column"]), (3, BAD_LINE, BAD_COLUMN), "cell position")
    text = t.run("nb.ipynb").out.splitlines()[0]
    check(text.startswith("nb.ipynb:cell 3:%d:%d: GPU001 " % (BAD_LINE, BAD_COLUMN)), text)
    full = t.run("--format", "full", "nb.ipynb").out
    check(BAD.splitlines()[BAD_LINE - 1] in full, "snippet from the cell:\n" + full)
    sarif = t.run("--format", "sarif", "nb.ipynb").json()["runs"][0]["results"][0]
    equal(sarif["properties"]["cell"], 3, "sarif cell")
    check(sarif["message"]["text"].startswith("cell 3, line %d" % BAD_LINE), "sarif message")


@case
def jobs_give_identical_output(t):
    for i in range(60):
        t.write("pkg%d/train_%02d.py" % (i % 7, i), [BAD, GOOD, CLEARED_TOO_LATE][i % 3])
    t.write("pkg0/broken.py", SYNTAX_ERROR)
    for format in ("text", "json", "sarif"):
        serial = t.run("-j", "1", "--format", format)
        for jobs in (["-j4"], ["--jobs", "16"], []):
            parallel = t.run(*jobs, "--format", format)
            equal(parallel.status, serial.status, "status with %s" % jobs)
            equal(parallel.out, serial.out, "%s output with %s" % (format, jobs))
    t.run("-j", "many").expect(2)


# ---- The result cache ---------------------------------------------------------------------

CACHE = ".gpulint_cache"
FORMATS = ("text", "full", "json", "json-lines", "sarif", "github", "gitlab")
POISON = "read from the cache"


def write_tree(t, count=24):
    """Files of every kind: findings, clean, syntax errors, a notebook, a
    file that cannot be decoded (exit 2) and an empty one."""
    for i in range(count):
        t.write("pkg%d/train_%02d.py" % (i % 5, i), [BAD, GOOD, CLEARED_TOO_LATE, SYNTAX_ERROR][i % 4])
    t.write("nb/experiment.ipynb", notebook_text(["import torch\n", BAD]))
    t.write("latin1.py", b"name = '\xe9t\xe9'\n", mode="wb")
    t.write("empty.py", "")


def cache_entries(folder):
    """Every entry file under a cache folder (fan-out folders of two hex
    digits)."""
    return sorted(os.path.join(directory, name) for directory, _, names in os.walk(folder)
                  if len(os.path.basename(directory)) == 2 for name in names if not name.endswith(".tmp"))


def poison(folder):
    """Rewrites the message of every cached finding, so that a run that
    reuses an entry shows it."""
    count = 0
    for entry in cache_entries(folder):
        with open(entry) as f:
            data = json.load(f)
        for finding in data["findings"]:
            finding[-3 if isinstance(finding[-1], dict) else -2] = POISON  # the message, before the detail (and a fix)
            count += 1
        with open(entry, "w") as f:
            json.dump(data, f)
    check(count > 0, "no cached findings to rewrite")


def same_run(actual, expected, what):
    equal((actual.status, actual.out, actual.err), (expected.status, expected.out, expected.err), what)


@case
def cache_second_run_is_identical_in_every_format(t):
    write_tree(t)
    t.use_cache()
    for format in FORMATS:
        args = ("--format", format)
        reference = t.run("--no-cache", *args).expect(2)
        shutil.rmtree(t.path(CACHE), ignore_errors=True)
        cold = t.run(*args)
        check(len(cache_entries(t.path(CACHE))) >= 5, "%s: the first run wrote no entries" % format)
        warm = t.run(*args)
        same_run(cold, reference, "%s, first run" % format)
        same_run(warm, reference, "%s, second run" % format)
    for args in (["--statistics"], ["-q"], ["--show-files"], ["-j", "1"], ["--format", "full", "-j", "3"]):
        same_run(t.run(*args), t.run("--no-cache", *args), " ".join(args))


@case
def cache_is_read_on_the_second_run(t):
    write_tree(t, count=8)
    t.use_cache()
    t.run().expect(2)
    poison(t.path(CACHE))
    check(POISON in t.run().out, "the second run did not read the cache")
    check(POISON not in t.run("--no-cache").out, "--no-cache read the cache")


@case
def cache_misses_after_a_change(t):
    t.write("a.py", BAD)
    t.write("b.py", BAD)
    t.write("tests/test_c.py", BAD)
    t.use_cache()
    fresh_message = t.run("--no-cache", "--format", "json").expect(1).json()[0]["message"]
    messages = lambda: {f["path"]: f["message"] for f in t.run("--format", "json").json()}
    t.run().expect(1)
    poison(t.path(CACHE))
    equal(set(messages().values()), {POISON}, "a second run reads every entry")
    # The file's bytes: only the changed file is linted again.
    t.write("a.py", BAD + "# changed\n")
    found = messages()
    equal((found["a.py"], found["b.py"]), (fresh_message, POISON), "after changing a.py")
    t.write("a.py", GOOD)
    check("a.py" not in messages(), "a fixed file kept its cached finding")
    # The selected rules, from the command line and from a config file.
    equal(t.run("--select", "GPU001,GPU201", "--format", "json").json()[0]["message"], fresh_message,
          "another selection on the command line")
    t.write("pyproject.toml", "[tool.gpulint]\nignore = [\"GPU201\"]\n")
    found = messages()
    # A test file runs only the correctness rules: ignoring GPU201 leaves
    # its rules, and so its entry, as they were.
    equal(found.pop("tests/test_c.py"), POISON, "a test file, whose rules did not change")
    equal(set(found.values()), {fresh_message}, "another selection in the config")
    # Per-file ignores change the rules of the files they name only.
    poison(t.path(CACHE))
    t.write("pyproject.toml", "[tool.gpulint]\nignore = [\"GPU201\"]\n"
            "[tool.gpulint.per-file-ignores]\n\"tests/*\" = [\"GPU001\"]\n")
    found = messages()
    check("tests/test_c.py" not in found, "the per-file ignore was not applied: %r" % found)
    equal(found, {"b.py": POISON}, "the file whose rules did not change")
    # The same bytes named as a script and as a notebook.
    notebook = notebook_text([BAD])
    t.write("nb/x.py", notebook)
    t.write("nb/x.ipynb", notebook)
    t.run("nb/x.py")
    same_run(t.run("nb/x.ipynb"), t.run("--no-cache", "nb/x.ipynb"), "a notebook with a script's bytes")


@case
def cache_ignores_damaged_entries(t):
    write_tree(t, count=12)
    t.use_cache()
    reference = t.run("--no-cache", "--format", "json")
    t.run()
    entries = cache_entries(t.path(CACHE))
    damage = [b"", b"{", b"\x00\xff garbage", b'{"key": "0", "findings": []}', b"[1, 2, 3]"]
    for i, entry in enumerate(entries):
        with open(entry, "r+b") as f:
            data = f.read()
            f.seek(0)
            f.truncate()
            f.write(data[:len(data) // 2] if i % 6 == 5 else damage[i % 6])
    os.remove(entries[0])
    os.mkfifo(entries[0])  # must not block the reader
    same_run(t.run("--format", "json"), reference, "damaged entries")
    same_run(t.run("--format", "json"), reference, "entries written again")
    for entry in entries:
        with open(entry) as f:
            json.load(f)


@case
def cache_off_writes_nothing(t):
    write_tree(t, count=4)
    t.use_cache()
    t.run("--no-cache").expect(2)
    t.run(env={"GPULINT_NO_CACHE": "1"}).expect(2)
    t.run("-", stdin=BAD.encode()).expect(1)
    t.run("--stdin-filename", "x.py", stdin=BAD.encode()).expect(1)
    check(not os.path.exists(t.path(CACHE)), "a cache folder was made")
    check(not os.path.exists(t.env["XDG_CACHE_HOME"]), "a user cache folder was made")
    t.run().expect(2)
    check(os.path.isdir(t.path(CACHE)), "the cache is on by default")


@case
def cache_location(t):
    t.use_cache()
    # The root of a git work tree, from a folder inside it.
    t.write("repo/src/train.py", BAD)
    os.makedirs(t.path("repo/.git"))
    t.run(".", cwd=t.path("repo/src")).expect(1)
    check(cache_entries(t.path("repo/" + CACHE)), "not at the git root")
    # The folder of the config file that applies, nearer than the git root.
    t.write("repo/sub/pyproject.toml", "[tool.gpulint]\nignore = [\"GPU201\"]\n")
    t.write("repo/sub/deep/train.py", BAD)
    t.run(".", cwd=t.path("repo/sub/deep")).expect(1)
    check(cache_entries(t.path("repo/sub/" + CACHE)), "not beside the config file")
    # The folder of --config.
    t.write("configs/gpulint.toml", "ignore = [\"GPU201\"]\n")
    t.run("--config", t.path("configs/gpulint.toml"), ".", cwd=t.path("repo/src")).expect(1)
    check(cache_entries(t.path("configs/" + CACHE)), "not beside --config")
    # --cache-dir, then the variable.
    t.run("--cache-dir", "../../elsewhere", ".", cwd=t.path("repo/src")).expect(1)
    check(cache_entries(t.path("elsewhere")), "--cache-dir not used")
    t.run(".", cwd=t.path("repo/src"), env={"GPULINT_CACHE_DIR": t.path("from-env")}).expect(1)
    check(cache_entries(t.path("from-env")), "GPULINT_CACHE_DIR not used")
    # The project's folder cannot be made: the user's cache instead.
    t.write("blocked/train.py", BAD)
    t.write("blocked/.git", "gitdir: nowhere\n")
    t.write("blocked/" + CACHE, "a file where the folder would go\n")
    t.run(".", cwd=t.path("blocked")).expect(1)
    check(cache_entries(os.path.join(t.env["XDG_CACHE_HOME"], "gpulint")), "no fallback to XDG_CACHE_HOME")


@case
def cache_unusable_still_lints(t):
    write_tree(t, count=6)
    t.use_cache()
    reference = t.run("--no-cache", "--format", "json")
    t.write("not-a-folder", "x\n")
    for folder in ("not-a-folder", "not-a-folder/below", "/proc/gpulint-cache"):
        same_run(t.run("--cache-dir", folder, "--format", "json"), reference, "cache in %s" % folder)
    if os.geteuid() != 0:
        os.makedirs(t.path("read-only"))
        os.chmod(t.path("read-only"), 0o555)
        same_run(t.run("--cache-dir", "read-only", "--format", "json"), reference, "read-only cache")
        same_run(t.run("--cache-dir", "read-only/sub", "--format", "json"), reference, "under a read-only folder")
    t.run("--cache-dir", "", ".").expect(2)


@case
def cache_concurrent_runs(t):
    for i in range(150):
        t.write("p%d/train_%03d.py" % (i % 6, i), [BAD, GOOD, CLEARED_TOO_LATE, SYNTAX_ERROR][i % 4] + "# %d\n" % i)
    for i in range(20):  # files with the same bytes share entries
        t.write("copies/copy_%02d.py" % i, BAD)
    t.use_cache()
    reference = t.run("--no-cache", "--format", "json")
    environment = {key: value for key, value in t.env.items()}
    for round_ in ("empty cache", "warm cache", "damaged cache"):
        if round_ == "damaged cache":
            for entry in cache_entries(t.path(CACHE))[::3]:
                with open(entry, "w") as f:
                    f.write("{")
        processes = [subprocess.Popen([t.gpulint, "--format", "json", "-j", str(1 + i % 2)], cwd=t.root,
                                      env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                     for i in range(4)]
        for process in processes:
            out, err = process.communicate(timeout=60)
            equal((process.returncode, out.decode(), err.decode()), (reference.status, reference.out, reference.err),
                  "a concurrent run with an %s" % round_)
    leftovers = [name for _, _, names in os.walk(t.path(CACHE)) for name in names if name.endswith(".tmp")]
    equal(leftovers, [], "temporary files left behind")


# ---- Rule catalogue --------------------------------------------------------------------------

METER_KEEPS = """class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n
"""

METER_CONVERTS = METER_KEEPS.replace("self.sum += val * n", "self.sum += float(val) * n")

TRAIN_WITH_METER = """import torch
import torch.nn as nn

from utils.meters import AverageMeter


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        return self.fc(x)


def train(loader):
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = AverageMeter()
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        losses.update(loss, x.size(0))
    return losses.sum / losses.count
"""


def write_meter_project(t, meter=METER_KEEPS):
    t.write("proj/pyproject.toml", "[project]\nname = \"proj\"\n")
    t.write("proj/utils/__init__.py", "")
    t.write("proj/utils/meters.py", meter)
    return t.write("proj/train.py", TRAIN_WITH_METER)


@case
def facts_cross_files_with_related_locations(t):
    write_meter_project(t)
    found = t.run("--format", "json", "proj").expect(1).json()
    equal([(f["path"], f["line"], f["code"]) for f in found], [("proj/train.py", 25, "GPU101")], "findings")
    check("by `AverageMeter.update`" in found[0]["message"], "the message names the helper: %s" % found[0]["message"])
    full = t.run("--format", "full", "proj").expect(1).out.splitlines()
    equal(labelled(full, "related"), "proj/utils/meters.py:5", "`full` shows the related location")
    equal(found[0]["related"], {"path": "proj/utils/meters.py", "line": 5}, "the related location")
    equal(found[0]["severity"], "warning", "the host-growth variant's severity")
    sarif = sarif_run(t, "proj")["results"][0]
    related = sarif["relatedLocations"][0]["physicalLocation"]
    equal((related["artifactLocation"]["uri"], related["region"]["startLine"]), ("proj/utils/meters.py", 5),
          "SARIF related location")
    equal(sarif["level"], "warning", "SARIF level")
    # The same file linted alone (as pre-commit passes it) still sees the meter.
    same_run(t.run("proj/train.py", "-j", "1"), t.run("proj/train.py", "-j", "4"), "-j 1 and -j 4")
    equal([f["line"] for f in t.run("--format", "json", "proj/train.py").json()], [25], "one file alone")
    # A meter of the same name that converts keeps nothing: no finding.
    t.write("proj/utils/meters.py", METER_CONVERTS)
    t.run("proj").expect(0)


@case
def cache_misses_after_a_dependency_changes(t):
    write_meter_project(t)
    t.use_cache()
    cold = t.run("proj/train.py").expect(1)
    same_run(t.run("proj/train.py"), cold, "a warm run")
    t.write("proj/utils/meters.py", METER_CONVERTS)
    t.run("proj/train.py").expect(0)
    t.write("proj/utils/meters.py", METER_KEEPS)
    same_run(t.run("proj/train.py"), cold, "the dependency changed back")


@case
def cache_misses_after_a_file_two_imports_away_changes(t):
    """GPU501 learns that ckpt.py runs once per GPU from launch.py, which
    imports trainer.py, which imports ckpt.py: the cached result depends
    on both files of that chain."""
    t.write("proj/.git/HEAD", "ref: refs/heads/main\n")
    launch = "import torch.distributed as dist\nimport trainer\n\ndist.init_process_group('nccl')\ntrainer.run(None)\n"
    t.write("proj/launch.py", launch)
    t.write("proj/trainer.py", "import ckpt\n\n\ndef run(optimizer):\n    return ckpt.resume('last.pt', optimizer)\n")
    resume = "def resume(path, optimizer):\n    state = torch.load(path)\n    optimizer.load_state_dict(state['optimizer'])\n"
    t.write("proj/ckpt.py", "import torch\n\n\n" + resume)
    t.use_cache()
    cold = t.run("--format", "json", "proj/ckpt.py").expect(1)
    equal([(f["line"], f["code"]) for f in cold.json()], [(5, "GPU501")], "the load of a per-rank file")
    same_run(t.run("--format", "json", "proj/ckpt.py"), cold, "a warm run")
    t.write("proj/launch.py", launch.replace("dist.init_process_group('nccl')", "print('one process')"))
    t.run("proj/ckpt.py").expect(0)


MIXING = """import torch


def mix(x, alpha=0.4):
    order = torch.randperm(x.size(0)).to(x.device)
    return alpha * x + (1 - alpha) * x[order]
"""

MIX_CALLER = """import torch
import torch.nn.functional as F

from augment.mixing import mix


def train(model, optimizer, loader):
    for x, y in loader:
        loss = F.cross_entropy(model(mix(x.cuda())), y.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


@case
def folder_without_root_marker_is_one_project(t):
    """A repository without .git, pyproject.toml or setup.py, linted as a
    directory: its files form one project, so the training script in its
    top folder tells the helper in a subfolder that it runs every step.
    A file named alone keeps its own folder as its project."""
    t.write("repo/augment/__init__.py", "")
    t.write("repo/augment/mixing.py", MIXING)
    t.write("repo/train.py", MIX_CALLER)
    found = t.run("--no-cache", "--format", "json", "repo").expect(1).json()
    equal([(f["path"].replace(os.sep, "/").split("repo/")[-1], f["line"], f["code"]) for f in found],
          [("augment/mixing.py", 5, "GPU302")], "the helper's draw, called per step from another folder")
    t.run("--no-cache", "repo/augment/mixing.py").expect(0)


ENGINE = """import torch


def evaluate(model, loader):
    outputs = []
    for x, _ in loader:
        outputs.append(model(x).argmax(1))
    return outputs
"""

CALLER = """import torch
import torch.nn as nn

from engine import evaluate

model = nn.Linear(8, 2)
for epoch in range(3):
    model.eval()
    predictions = evaluate(model, [(torch.randn(4, 8), None)])
"""


@case
def index_follows_changed_callers(t):
    t.write("proj/pyproject.toml", "[project]\nname = \"proj\"\n")
    t.write("proj/engine.py", ENGINE)
    t.write("proj/train.py", CALLER)
    t.use_cache()
    found = t.run("--format", "json", "proj/engine.py").expect(1).json()
    equal([(f["line"], f["code"]) for f in found], [(7, "GPU103")], "a module passed by the caller elsewhere")
    check(any(name.startswith("index-") for name in os.listdir(t.path(".gpulint_cache"))), "no identifier index kept")
    same_run(t.run("proj/engine.py"), t.run("--no-cache", "proj/engine.py"), "the warm run")
    # The caller now runs it under no_grad: linting engine.py alone sees the change.
    t.write("proj/train.py", CALLER.replace("    predictions = evaluate", "    with torch.no_grad():\n        predictions = evaluate"))
    t.run("proj/engine.py").expect(0)
    t.run("--no-index", "proj/engine.py").expect(0)


@case
def index_kept_between_runs_survives_damage(t):
    write_meter_project(t)
    t.use_cache()
    expected = t.run("--no-cache", "proj/train.py").expect(1)
    t.run("proj").expect(1)  # the whole project: every summary is kept in the index
    index = [name for name in os.listdir(t.path(".gpulint_cache")) if name.startswith("index-")]
    equal(len(index), 1, "one index for the project")
    index = t.path(".gpulint_cache/" + index[0])
    kept = open(index, "rb").read()
    # The file alone, changed: the meter's summary comes from the index.
    t.write("proj/train.py", open(t.path("proj/train.py")).read() + "\n# changed\n")
    same_run(t.run("proj/train.py"), expected, "summaries read back from the index")
    equal(open(index, "rb").read() == kept, True, "the index is not rewritten for one changed file")
    # The meter changes: its kept summary is not used.
    t.write("proj/utils/meters.py", METER_CONVERTS)
    t.run("proj/train.py").expect(0)
    t.write("proj/utils/meters.py", METER_KEEPS)
    # A damaged index (cut short, or overwritten) is read up to the damage or ignored.
    for damaged in (kept[: len(kept) // 2], kept[:40], b"\xff" * len(kept), kept[:-3] + b"\x00\x00\x00"):
        with open(index, "wb") as stream:
            stream.write(damaged)
        t.write("proj/train.py", open(t.path("proj/train.py")).read() + "#\n")
        same_run(t.run("proj/train.py"), expected, "a damaged index")


def age_folders(t, top, seconds):
    """Sets the time of `top` and every folder below it to `seconds` ago."""
    moment = time.time() - seconds
    for folder, _, _ in os.walk(t.path(top)):
        os.utime(folder, (moment, moment))


@case
def listing_kept_between_runs_follows_added_changed_and_removed_files(t):
    write_meter_project(t)
    os.remove(t.path("proj/utils/meters.py"))  # the meter comes later
    age_folders(t, "proj", 100)  # older than the listing: the next runs take the kept listing
    t.use_cache()
    t.run("proj").expect(0)
    listing = [name for name in os.listdir(t.path(".gpulint_cache")) if name.startswith("listing-")]
    equal(len(listing), 1, "one listing for the project")
    listing = t.path(".gpulint_cache/" + listing[0])

    def changed_train():  # as pre-commit passes a changed file: the result cache misses
        t.write("proj/train.py", "\n# changed\n", mode="a")

    def kept_run(expected_status, what):
        before = os.stat(listing).st_mtime_ns
        changed_train()
        same_run(t.run("proj/train.py").expect(expected_status), t.run("--no-cache", "proj/train.py"), what)
        equal(os.stat(listing).st_mtime_ns, before, "the kept listing is taken, not made again: " + what)

    kept_run(0, "nothing changed")
    # A file added in a listed folder moves the folder's time: listed again.
    t.write("proj/utils/meters.py", METER_KEEPS)
    age_folders(t, "proj", 50)
    changed_train()
    same_run(t.run("proj/train.py").expect(1), t.run("--no-cache", "proj/train.py"), "a file added")
    same_run(t.run("-j", "2", "proj/train.py"), t.run("--no-cache", "proj/train.py"), "-j 2")
    # A file changed in place moves no folder's time: its own time says it changed.
    t.write("proj/utils/meters.py", METER_CONVERTS)
    kept_run(0, "a file changed in place")
    t.write("proj/utils/meters.py", METER_KEEPS)
    kept_run(1, "a file changed back in place")
    # A file removed moves the folder's time too.
    os.remove(t.path("proj/utils/meters.py"))
    age_folders(t, "proj", 20)
    changed_train()
    same_run(t.run("proj/train.py").expect(0), t.run("--no-cache", "proj/train.py"), "a file removed")
    # The same without aging: a folder changed within the clock's grain of the listing is listed again.
    t.write("proj/utils/meters.py", METER_KEEPS)
    changed_train()
    same_run(t.run("proj/train.py").expect(1), t.run("--no-cache", "proj/train.py"), "a file added just now")


NAME_ONLY = """import torch


def evaluate(model, loader):
    outputs = []
    for x, _ in loader:
        outputs.append(model(x))
    return outputs
"""


@case
def pedantic_reports_findings_resting_on_names(t):
    t.write("evaluate.py", NAME_ONLY)
    t.run("evaluate.py").expect(0)
    codes = [f["code"] for f in t.run("--pedantic", "--format", "json", "evaluate.py").expect(1).json()]
    equal(sorted(codes), ["GPU101", "GPU103"], "--pedantic")
    t.write("pyproject.toml", "[tool.gpulint]\npedantic = true\n")
    t.run("evaluate.py").expect(1)
    t.run("--no-pedantic", "evaluate.py").expect(0)


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


def codes_by_path(run):
    found = collections.defaultdict(list)
    for finding in run.json():
        found[finding["path"]].append(finding["code"])
    return {path: sorted(codes) for path, codes in found.items()}


@case
def test_files_run_only_correctness_rules(t):
    for path in ["train.py", "benchmarks/fp8/run.py", "tests/unit/test_loop.py", "tests/helpers.py",
                 "conftest.py"]:
        t.write(path, EVAL_AND_TRAIN)
    for path in ["pkg/test/loop.py", "loop_test.py", "test_unit.py", "test_case.py", "test_class.py"]:
        t.write(path, EVAL_AND_TRAIN + TEST_SIGNS.get(path, "\n\ndef test_runs():\n    check_train([])\n"))
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found.pop("train.py"), ["GPU001", "GPU103"], "a training script")
    equal(found.pop("benchmarks/fp8/run.py"), ["GPU001", "GPU103"], "a benchmark script")
    for path, codes in found.items():
        equal(codes, ["GPU001"], path)
    found = codes_by_path(t.run("--format", "json", "--no-cache", "--test-rules", "all", ".").expect(1))
    for path, codes in found.items():
        equal(codes, ["GPU001", "GPU103"], path + " with --test-rules all")
    t.run("--test-rules", "some", ".").expect(2)


# What shows that a file named like a test is one, appended to EVAL_AND_TRAIN.
TEST_SIGNS = {
    "test_unit.py": "\n\nimport unittest.mock\n",
    "test_case.py": "\n\nfrom unittest import TestCase\n",
    "test_class.py": "\n\nclass TestLoops:\n    def test_train(self):\n        check_train([])\n",
}


@case
def files_named_like_tests_that_are_scripts_run_every_rule(t):
    # An evaluation script named like a test (`main_test.py`, `test/...`)
    # defines no test and imports no test framework: every rule runs there.
    # A class named Test* with no test_* method (a dataset) is no test, nor
    # a test_* name that is not at module level.
    scripts = {"main_test.py": EVAL_AND_TRAIN,
               "test_model.py": EVAL_AND_TRAIN + "\n\nclass TestDataset:\n    def __len__(self):\n        return 0\n",
               "pkg/test/evaluate.py": EVAL_AND_TRAIN + "\n\ndef main():\n    def test_one():\n        pass\n",
               "test_strings.py": EVAL_AND_TRAIN + '\n\nNOTE = """\nimport pytest\ndef test_x(): pass\n"""\n'}
    for path, text in scripts.items():
        t.write(path, text)
    t.write("tests/evaluate.py", EVAL_AND_TRAIN)  # a test suite's folder: its helpers show no test of their own
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    for path in scripts:
        equal(found.pop(path), ["GPU001", "GPU103"], path)
    equal(found, {"tests/evaluate.py": ["GPU001"]}, "a file under tests/")
    # The same text from standard input, named like a test, is decided the same way.
    run = t.run("--format", "json", "--no-cache", "--stdin-filename", "main_test.py", stdin=EVAL_AND_TRAIN.encode()).expect(1)
    equal(sorted(f["code"] for f in run.json()), ["GPU001", "GPU103"], "standard input named main_test.py")
    text = EVAL_AND_TRAIN + "\n\nimport pytest\n"
    run = t.run("--format", "json", "--no-cache", "--stdin-filename", "main_test.py", stdin=text.encode()).expect(1)
    equal(sorted(f["code"] for f in run.json()), ["GPU001"], "standard input that imports pytest")
    shown = {}
    for path in ("main_test.py", "tests/evaluate.py", "train.py"):
        t.write(path, EVAL_AND_TRAIN)
        out = t.run("--show-settings", path).expect(0).out
        shown[path] = [line.split("#")[0].strip() for line in out.splitlines() if line.startswith("test-file ")]
    equal(shown, {"main_test.py": ['test-file = "if its code shows a test"'], "tests/evaluate.py": ["test-file = true"],
                  "train.py": ["test-file = false"]}, "--show-settings")
    os.remove(t.path("train.py"))
    # A glob of the user's own is taken at its word.
    t.write("pyproject.toml", "[tool.gpulint]\nextend-test-files = [\"main_test.py\"]\n")
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found["main_test.py"], ["GPU001"], "main_test.py in extend-test-files")
    equal(found["test_model.py"], ["GPU001", "GPU103"], "test_model.py, by its code")
    t.write("pyproject.toml", "[tool.gpulint]\ntest-files = [\"test_*.py\"]\n")
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found["test_model.py"], ["GPU001"], "test_model.py in test-files")
    equal(found["tests/evaluate.py"], ["GPU001", "GPU103"], "tests/ when test-files replaces the defaults")
    # The result cache keeps the two decisions apart.
    os.remove(t.path("pyproject.toml"))
    t.use_cache()
    t.write("a/main_test.py", EVAL_AND_TRAIN)
    t.write("b/main_test.py", text)
    for attempt in ("cold", "warm"):
        found = codes_by_path(t.run("--format", "json", ".").expect(1))
        equal(found["a/main_test.py"], ["GPU001", "GPU103"], "a script named like a test, cache " + attempt)
        equal(found["b/main_test.py"], ["GPU001"], "a test module, cache " + attempt)


@case
def test_files_from_config(t):
    t.write("qa/loop.py", EVAL_AND_TRAIN)
    t.write("tests/loop.py", EVAL_AND_TRAIN)
    t.write("pyproject.toml", "[tool.gpulint]\nextend-test-files = [\"qa/*\"]\n")
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found, {"qa/loop.py": ["GPU001"], "tests/loop.py": ["GPU001"]}, "extend-test-files")
    t.write("pyproject.toml", "[tool.gpulint]\ntest-files = [\"qa/*\"]\n")
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found, {"qa/loop.py": ["GPU001"], "tests/loop.py": ["GPU001", "GPU103"]}, "test-files")
    t.write("pyproject.toml", "[tool.gpulint]\ntest-rules = \"all\"\n")
    found = codes_by_path(t.run("--format", "json", "--no-cache", ".").expect(1))
    equal(found["tests/loop.py"], ["GPU001", "GPU103"], "test-rules = all")
    t.write("pyproject.toml", "[tool.gpulint]\ntest-rules = \"most\"\n")
    t.run(".").expect(2)


@case
def rules_table(t):
    run = t.run("rules").expect(0)
    header, *rows = run.out.splitlines()
    equal(header.split(), ["code", "name", "default", "effect"], "header")
    catalogue = t.rules()
    equal([row.split()[0] for row in rows], [rule["code"] for rule in catalogue], "codes")
    for rule in catalogue:
        for key in ("code", "name", "summary", "fix_hint", "severity", "effect", "default_enabled"):
            check(key in rule, "rules json lacks " + key)
        check("url" not in rule, "a url without a configured rule URL")
    check(any(rule["code"] == "GPU001" and rule["default_enabled"] for rule in catalogue), "GPU001")
    t.run("rules", "--output-format", "sarif").expect(2)


@case
def rule_docs(t):
    run = t.run("rule", "GPU001").expect(0)
    check("GPU001" in run.out and "missing-zero-grad" in run.out, run.out)
    check(t.run("rule", "gpu001").out == run.out, "codes are case-insensitive")
    document = t.run("rule", "GPU001", "--output-format", "json").expect(0).json()
    equal((document["code"], document["name"]), ("GPU001", "missing-zero-grad"), "json")
    equal(document["docs"], run.out, "docs")
    every = t.run("rule", "--all", "--format", "json").expect(0).json()
    equal([rule["code"] for rule in every], [rule["code"] for rule in t.rules()], "--all")
    t.run("rule", "GPU999").expect(2)
    t.run("rule").expect(2)


@case
def help_version_and_usage_errors(t):
    check("usage: gpulint" in t.run("--help").expect(0).out, "help")
    check("--select" in t.run("check", "-h").expect(0).out, "check help")
    check(re.match(r"^gpulint \d+\.\d+\.\d+ \((unknown|[0-9a-f]{7,40}(-dirty)?)\)\n$", t.run("--version").expect(0).out),
          "version and commit")
    check("unknown option `--frobnicate`" in t.run("--frobnicate").expect(2).err, "unknown option")
    check("needs a value" in t.run("--select").expect(2).err, "missing value")
    check("takes no value" in t.run("--quiet=yes").expect(2).err, "unexpected value")


# ---- pre-commit ---------------------------------------------------------------------------------

def git(*args, cwd):
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(f"git {' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}\n")
        done.check_returncode()


@case
def pre_commit_hook(t):
    if not shutil.which("pre-commit") or not shutil.which("git"):
        print("skipped: pre-commit or git is not installed (Debian: apt-get install pre-commit git)")
        return SKIP
    # A global configuration of ours, not the machine's. CI may check out the
    # source as another user: it trusts that checkout (git drops `-c` options
    # for the upload-pack of a local clone, so they cannot say it).
    test_config = t.path("test.gitconfig")
    with open(test_config, "w") as config:
        config.write("[safe]\n\tdirectory = *\n")
    identity = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": test_config,
                "GIT_CONFIG_NOSYSTEM": "1"}
    os.environ.update(identity)
    t.env.update(identity)
    # A clone of this repository whose last commit holds the working tree's hook manifest.
    hooks = t.path("gpulint-clone")
    try:
        git("clone", "--quiet", "--no-hardlinks", t.source, hooks, cwd=t.root)
    except subprocess.CalledProcessError:  # not a git checkout: a repository with the manifest alone
        shutil.rmtree(hooks, ignore_errors=True)
        os.makedirs(hooks)
        git("init", "--quiet", cwd=hooks)
    shutil.copy(os.path.join(t.source, ".pre-commit-hooks.yaml"), hooks)
    git("add", ".pre-commit-hooks.yaml", cwd=hooks)
    git("commit", "--quiet", "--allow-empty", "-m", "hook manifest under test", cwd=hooks)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, check=True, capture_output=True,
                         text=True).stdout.strip()
    project = t.path("project")
    os.makedirs(project)
    git("init", "--quiet", cwd=project)
    t.write("project/.pre-commit-config.yaml",
            "repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: gpulint-system\n" % (hooks, rev))
    t.write("project/train.py", BAD)
    env = dict(t.env, PRE_COMMIT_HOME=t.path("pre-commit-home"),
               PATH=os.path.dirname(os.path.abspath(t.gpulint)) + os.pathsep + t.env.get("PATH", ""))
    run = lambda *args: subprocess.run(list(args), cwd=project, env=env, capture_output=True, text=True, timeout=300)
    installed = run("pre-commit", "install")
    check(installed.returncode == 0, "pre-commit install failed:\n" + installed.stdout + installed.stderr)
    git("add", ".pre-commit-config.yaml", "train.py", cwd=project)
    blocked = run("git", "commit", "-m", "train without zero_grad")
    check(blocked.returncode != 0, "the commit was not blocked:\n" + blocked.stdout + blocked.stderr)
    check("GPU001" in blocked.stdout + blocked.stderr, "no GPU001 in the hook output:\n" + blocked.stdout)
    check(run("git", "rev-parse", "--verify", "HEAD").returncode != 0, "a commit was made")
    t.write("project/train.py", GOOD)
    git("add", "train.py", cwd=project)
    passed = run("git", "commit", "-m", "clear gradients")
    check(passed.returncode == 0, "the fixed file was blocked:\n" + passed.stdout + passed.stderr)
    check("Passed" in passed.stdout + passed.stderr, "the hook did not run:\n" + passed.stdout + passed.stderr)
    # Hooks receive files one by one; excluded paths stay excluded (--force-exclude).
    t.write("project/build/gen.py", BAD)
    git("add", "-f", "build/gen.py", cwd=project)
    check(run("git", "commit", "-m", "generated").returncode == 0, "an excluded file was linted")


# ---- Mistyped commands and options, empty selections -------------------------------------------

def usage_error(run, message):
    """The run exited 2 and its stderr's first line is `gpulint: MESSAGE`."""
    run.expect(2)
    equal(run.err.splitlines()[0] if run.err else "", "gpulint: " + message, "usage error")
    equal(run.out, "", "stdout of a usage error")


@case
def mistyped_command_gets_a_suggestion(t):
    t.write("bad.py", BAD)
    for word, meant in [("chek", "check"), ("rulse", "rules"), ("rul", "rule"), ("verfy", "verify"),
                        ("sever", "server"), ("verison", "version"), ("hlep", "help")]:
        usage_error(t.run(word, "."), "unknown command `%s`; did you mean `%s`?" % (word, meant))
    # A path with a slash or a dot: a missing path, as before.
    for word in ["./chek", "chek.py", "sub/chek", "data.v2"]:
        run = t.run(word).expect(2)
        check("unknown command" not in run.err and "%s: no such file or directory" % word in run.err, run.err)
    # A bare word that is no command and no path is an unknown command, not a missing file;
    # ruff's commands say what gpulint has instead.
    usage_error(t.run("banana", "."), "unknown command `banana`, and no file or folder has that name (commands: "
                "check, rule, rules, verify, server, clean; `gpulint -- banana` lints a path of that name)")
    usage_error(t.run("format", "."), "unknown command `format`: gpulint lints and does not format code "
                "(use a formatter, e.g. `ruff format`)")
    check("--show-settings" in t.run("config").expect(2).err, "`config` points at --show-settings")
    run = t.run("--", "banana").expect(2)
    check("banana: no such file or directory" in run.err, "after --, a word is a path: " + run.err)
    # A real file or directory named like a command is linted.
    t.write("chek", BAD)
    equal(t.run("chek").expect(1).findings(), [("chek", BAD_LINE, BAD_COLUMN, "GPU001")], "a file named chek")
    t.write("verfy/train.py", BAD)
    equal(t.run("verfy").expect(1).findings(), [("verfy/train.py", BAD_LINE, BAD_COLUMN, "GPU001")],
          "a folder named verfy")


@case
def show_settings_says_where_each_came_from(t):
    t.write("pyproject.toml", "[tool.gpulint]\nselect = [\"GPU1\"]\nunfixable = [\"GPU103\"]\npedantic = true\n"
            "[tool.gpulint.per-file-ignores]\n\"legacy_*.py\" = [\"GPU102\"]\n")
    t.write("legacy_train.py", BAD)
    run = t.run("--show-settings", "--extend-select", "GPU201", "--fix", "legacy_train.py").expect(0)
    lines = {line.split(" = ")[0]: line for line in run.out.splitlines() if " = " in line}
    check(run.out.startswith("Settings for legacy_train.py\nConfig file: %s ([tool.gpulint])\n"
                             % t.path("pyproject.toml")), run.out)
    check(lines["rules"].startswith('rules = ["GPU101", "GPU103", "GPU104", "GPU201"]'), lines["rules"])
    check(lines["selected"].startswith('selected = ["GPU101", "GPU102", "GPU103", "GPU104", "GPU201"]')
          and lines["selected"].endswith("# pyproject.toml, command line"), lines["selected"])
    check('"GPU103"' not in lines["fixable"] and lines["fixable"].endswith("# defaults, pyproject.toml"),
          lines["fixable"])
    check(lines["pedantic"].startswith("pedantic = true") and lines["pedantic"].endswith("# pyproject.toml"),
          lines["pedantic"])
    check(lines["fix"].startswith("fix = true") and lines["fix"].endswith("# command line"), lines["fix"])
    check(lines["unsafe-fixes"].endswith("# default"), lines["unsafe-fixes"])
    check('"legacy_*.py" = ["GPU102"]' in lines["per-file-ignores"], lines["per-file-ignores"])
    equal(open(t.path("legacy_train.py")).read(), BAD, "--show-settings fixes nothing")
    run = t.run("--show-settings", "--isolated").expect(0)
    check("Config file: none (--isolated)" in run.out, run.out)


@case
def help_lists_every_command(t):
    text = t.run("--help").expect(0).out
    for usage in ("gpulint verify --run [OPTIONS] -- COMMAND ...", "gpulint server", "gpulint clean [PATH ...]",
                  "gpulint rules", "gpulint check --watch"):
        check(usage in text, "`gpulint --help` lists %s:\n%s" % (usage, text))
    verify = t.run("verify", "--help").expect(0).out
    check("gpulint verify --run [OPTIONS] -- COMMAND ..." in verify and "gpulint verify --run --help" in verify,
          "`gpulint verify --help` mentions --run:\n" + verify)
    check(t.run("clean", "--help").expect(0).out.startswith("usage: gpulint clean"), "clean --help")


@case
def clean_removes_the_cache(t):
    t.use_cache()
    os.mkdir(t.path(".git"))
    t.write("bad.py", BAD)
    t.write("sub/inner/.gpulint_cache/ab/cd", "{}")
    t.write("sub/keep.py", GOOD)
    t.run("bad.py").expect(1)
    check(os.path.isdir(t.path(".gpulint_cache")), "the run made a cache")
    run = t.run("clean", cwd=t.path("sub")).expect(0)  # from a folder below the project's root
    check(not os.path.exists(t.path(".gpulint_cache")) and not os.path.exists(t.path("sub/inner/.gpulint_cache")),
          "caches left: " + run.err)
    check("Removed the cache at %s" % t.path(".gpulint_cache") in run.err, run.err)
    equal(sorted(os.listdir(t.path("sub"))), ["inner", "keep.py"], "what else was in sub")
    check("No cache to remove." in t.run("clean").expect(0).err, "a second clean")
    # --cache-dir: removed only when gpulint made it.
    t.run("--cache-dir", "elsewhere", "bad.py").expect(1)
    t.run("clean", "--cache-dir", "elsewhere").expect(0)
    check(not os.path.exists(t.path("elsewhere")), "--cache-dir's folder")
    t.write("mine/notes.txt", "keep me")
    run = t.run("clean", "--cache-dir", "mine").expect(2)
    check("no CACHEDIR.TAG" in run.err and os.path.exists(t.path("mine/notes.txt")), run.err)
    usage_error(t.run("clean", "--cach-dir", "x"), "clean: unknown option `--cach-dir`; did you mean `--cache-dir`?")


@case
def mistyped_options_get_a_suggestion(t):
    t.write("bad.py", BAD)
    usage_error(t.run("--selct", "GPU1", "."), "unknown option `--selct`; did you mean `--select`?")
    usage_error(t.run("check", "--selct=GPU1"), "unknown option `--selct`; did you mean `--select`?")
    usage_error(t.run("--ignroe", "GPU1"), "unknown option `--ignroe`; did you mean `--ignore`?")
    usage_error(t.run("--output-fromat", "json"), "unknown option `--output-fromat`; did you mean `--output-format`?")
    usage_error(t.run("--extend-sel", "GPU2"), "unknown option `--extend-sel`; did you mean `--extend-select`?")
    usage_error(t.run("--frobnicate"), "unknown option `--frobnicate`")
    usage_error(t.run("rules", "--formt", "json"), "unknown option `--formt`; did you mean `--format`?")
    usage_error(t.run("rule", "GPU001", "--output-formt=json"),
                "unknown option `--output-formt=json`; did you mean `--output-format`?")
    usage_error(t.run("rule", "--al"), "unknown option `--al`; did you mean `--all`?")
    run = t.run("verify", "--jsn", "out.json", "bad.py").expect(2)
    equal(run.err.splitlines()[0], "gpulint: verify: unknown option `--jsn`; did you mean `--json`?", "verify")
    run = t.run("verify", "--replya=traces").expect(2)
    equal(run.err.splitlines()[0], "gpulint: verify: unknown option `--replya`; did you mean `--replay`?", "verify")
    check(not os.path.exists(t.path("out.json")), "a usage error wrote the output")


NO_RULES_WARNING = "gpulint: warning: no rules selected"


@case
def no_rules_selected_is_not_a_pass(t):
    t.write("bad.py", BAD)
    run = t.run("--select", "ALL", "--ignore", "ALL").expect(0)
    equal(run.out, "No rules selected: nothing was checked.\n", "summary")
    check(run.err.startswith(NO_RULES_WARNING), "no warning:\n" + run.err)
    check("All checks passed" not in run.out + run.err, "claims a pass")
    quiet = t.run("--select", "ALL", "--ignore", "ALL", "-q").expect(0)
    equal(quiet.out, "", "quiet output")
    check(quiet.err.startswith(NO_RULES_WARNING), "the warning is not quiet")
    statistics = t.run("--select", "GPU0", "--ignore", "GPU0", "--output-format", "json").expect(0)
    equal(statistics.json(), [], "json")
    check(statistics.err.startswith(NO_RULES_WARNING), "json: no warning")
    # The same from a config file, and from one under a folder linted alone.
    t.write("pyproject.toml", "[tool.gpulint]\nselect = []\n")
    run = t.run().expect(0)
    equal(run.out, "No rules selected: nothing was checked.\n", "config summary")
    check(run.err.startswith(NO_RULES_WARNING), "config: no warning")
    # A flag that selects rules again, and a clean run with rules: the usual pass, no warning.
    run = t.run("--extend-select", "GPU001").expect(1)
    check(NO_RULES_WARNING not in run.err, run.err)
    os.remove(t.path("pyproject.toml"))
    t.write("bad.py", GOOD)
    run = t.run().expect(0)
    equal((run.out, run.err), ("All checks passed!\n", ""), "a clean run")
    # Per-file ignores turn rules off on purpose: no warning when every file is ignored that way.
    run = t.run("--extend-per-file-ignores", "*.py:ALL").expect(0)
    equal((run.out, run.err), ("All checks passed!\n", ""), "per-file ignores")


# ---- verify: what it says when nothing can be measured -------------------------------------------

# GPU101 in a validation loop (measured by a reproduction), GPU001 in training.
VERIFY_TRAIN = """import torch


def validate(model, loader, criterion):
    model.eval()
    total = 0
    for x, y in loader:
        loss = criterion(model(x), y)
        total += loss
    return total


def train(model, loader, optimizer):
    for x, y in loader:
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
"""


@case
def verify_without_a_gpu_prints_the_findings_first(t):
    t.write("train.py", VERIFY_TRAIN)
    expected = t.run("check", "train.py").expect(1).findings()
    check(len(expected) >= 2, "the script should have findings:\n%r" % expected)
    for env, why in [({"GPULINT_VERIFY_NO_GPU": "1"}, "no GPU: hidden by GPULINT_VERIFY_NO_GPU"),
                     ({"GPULINT_NVML_LIBRARY": "/nonexistent/libnvidia-ml.so.1"},
                      "no NVML: cannot load /nonexistent/libnvidia-ml.so.1")]:
        run = t.run("verify", "train.py", env=env).expect(2)
        equal(run.findings(), expected, "verify's findings")
        equal(len(run.out.splitlines()), len(expected), "stdout holds the findings only")
        message = "gpulint: verify: %d findings, none measured: %s" % (len(expected), why)
        check(run.err.startswith(message), "stderr lacks %r:\n%s" % (message, run.err))
    # Without paths there are no findings to print: the reason alone.
    run = t.run("verify", env={"GPULINT_VERIFY_NO_GPU": "1"}).expect(2)
    equal((run.out, run.err), ("", "gpulint: verify: no GPU: hidden by GPULINT_VERIFY_NO_GPU\n"), "no paths")
    # A path that cannot be read is its own error, before anything else.
    run = t.run("verify", "missing.py", env={"GPULINT_VERIFY_NO_GPU": "1"}).expect(2)
    equal(run.err, "gpulint: verify: missing.py: No such file or directory\n", "missing path")


@case
def verify_checks_its_paths_before_running(t):
    t.write("train.py", VERIFY_TRAIN)
    os.makedirs(t.path("empty"))
    t.write("notes.txt", "not a folder\n")
    hidden = {"GPULINT_VERIFY_NO_GPU": "1"}
    cases = [
        (["--replay", "MISSING"], "--replay MISSING: No such file or directory"),
        (["--replay", "notes.txt"], "--replay notes.txt: not a folder of saved traces"),
        (["--replay", "empty"], "--replay empty: no saved traces there (no environment.json); "
                                "save them with --save-traces DIR"),
        (["--plot", "nowhere/memory.svg"], "--plot nowhere/memory.svg: the folder nowhere does not exist"),
        (["--json", "empty"], "--json empty: it is a folder, not a file"),
        (["--json", "notes.txt/out.json"], "--json notes.txt/out.json: notes.txt is not a folder"),
        (["--save-traces", "notes.txt"], "--save-traces notes.txt: it is a file, not a folder"),
        (["--save-traces", "nowhere/traces"], "--save-traces nowhere/traces: the folder nowhere does not exist"),
    ]
    for args, message in cases:
        run = t.run("verify", *args, "train.py", env=hidden).expect(2)
        equal(run.out, "", "%s: stdout (nothing is linted or run)" % " ".join(args))
        equal(run.err.splitlines()[0], "gpulint: verify: " + message, " ".join(args))
    check(not os.path.exists(t.path("nowhere")), "a folder was made")


@case
def verify_replay_leaves_out_cases_without_traces(t):
    traces = os.path.join(t.source, "tests", "verify", "traces")
    os.makedirs(t.path("part"))
    for name in ["environment.json", "gpu101_validation_loop_bad.jsonl", "gpu101_validation_loop_good.jsonl"]:
        shutil.copy(os.path.join(traces, name), t.path("part"))
    run = t.run("verify", "--replay", "part", "--rule", "GPU101").expect(0)
    check("1 case(s): 1 confirmed" in run.out, run.out)
    equal(run.err, "gpulint: verify: GPU101 forward-hook: no saved trace in part; left out\n"
          "gpulint: verify: GPU101 grad-fn: no saved trace in part; left out\n"
          "gpulint: verify: GPU101 training-loop: no saved trace in part; left out\n", "left out")
    run = t.run("verify", "--replay", "part", "--rule", "GPU201").expect(2)
    equal(run.err.splitlines()[-2], "gpulint: verify: --replay: no saved traces of the chosen cases in: part",
          "nothing left")


# ---- Messages: one short line; the mechanism and the measurements in the detail ---------------------

MESSAGE_LIMIT = 110  # a finding's message, in characters; about 100 is the aim
FIXTURE_TREES = ("tests/rules", "tests/projects", "tests/realistic", "tests/fixes", "tests/notebooks/cases")
VALIDATION_LOOP = """import torch


def validate(model, loader):
    model.eval()
    total = 0
    for x, y in loader:
        loss = model(x).sum()
        total += loss
    return total
"""
TRAINING_LOOP_KEEPS = """import torch


def train(model, loader, optimizer):
    losses = []
    for x, y in loader:
        optimizer.zero_grad()
        loss = model(x).sum()
        losses.append(loss)
        loss.backward()
        optimizer.step()
    return losses
"""


@case
def messages_are_short_in_every_fixture(t):
    trees = [os.path.join(t.source, tree) for tree in FIXTURE_TREES]
    t.write("meta/broken.py", SYNTAX_ERROR)  # and the meta rules' messages
    t.write("meta/noqa.py", "x = 1  # noqa GPU101\ny = 2  # noqa: GPU101\nz = 3  # noqa: GPU77\n")
    findings = t.run("--pedantic", "--extend-select", "GPU901", "--output-format", "json", "meta", *trees).json()
    check(len(findings) > 200, "the fixtures gave %d findings" % len(findings))
    codes = {f["code"] for f in findings}
    check({"GPU001", "GPU002", "GPU101", "GPU102", "GPU103", "GPU201", "GPU900", "GPU901", "GPU902"} <= codes,
          "codes: %s" % codes)
    too_long = ["%d %s:%s: %s" % (len(f["message"]), f["path"], f["line"], f["message"])
                for f in findings if len(f["message"]) > MESSAGE_LIMIT]
    check(not too_long, "messages over %d characters:\n%s" % (MESSAGE_LIMIT, "\n".join(too_long)))
    lengths = sorted(len(f["message"]) for f in findings)
    check(lengths[len(lengths) // 2] <= 95, "the median message has %d characters" % lengths[len(lengths) // 2])
    # Text output: the message after `path:line:col: CODE ` is as short, and `full` still explains each finding.
    text = t.run("--pedantic", "--extend-select", "GPU901", "--output-format", "text", "meta", *trees).out
    long_lines = [line for line in text.splitlines() if TEXT_LINE.match(line)
                  and len(TEXT_LINE.match(line)["message"]) > MESSAGE_LIMIT]
    check(not long_lines, "text messages over %d characters:\n%s" % (MESSAGE_LIMIT, "\n".join(long_lines[:10])))
    full = t.run("--pedantic", "--output-format", "full", *trees).out
    explained = len(re.findall(r"\n += why: ", full))
    rule_findings = len([f for f in findings if f["code"] < "GPU900" and f["path"] != "meta"])
    check(explained >= rule_findings > 200, "full explains %d of %d findings" % (explained, rule_findings))
    measured = [f["message"] for f in findings if re.search(r"H[12]00|measured|\d+(\.\d+)? ?(MB|KB|ms|%)", f["message"])]
    check(not measured, "measurements belong in the detail, not the message:\n%s" % "\n".join(measured[:5]))
    for finding in findings:
        check("\n" not in finding["message"], "a message of two lines: %r" % finding["message"])
        if finding["code"] < "GPU900":
            check(finding["detail"] and re.search(r"\b[HA]100|H200", finding["detail"]),
                  "%s at %s:%s: the detail names the device it was measured on: %r"
                  % (finding["code"], finding["path"], finding["line"], finding["detail"]))
        else:
            equal(finding["detail"], None, "%s: a meta rule's detail" % finding["code"])
    where = [f for f in findings if f["code"] in ("GPU001", "GPU002")]
    check(where and all(re.search(r"\((cell \d+, )?line \d+\)", f["message"]) for f in where),
          "GPU001 and GPU002 messages keep their line references")


@case
def messages_tell_the_variants_apart(t):
    t.write("validate.py", VALIDATION_LOOP)
    t.write("train.py", TRAINING_LOOP_KEEPS)
    found = {f["path"]: f for f in t.run("--format", "json").expect(1).json() if f["code"] == "GPU101"}
    validation, training = found["validate.py"], found["train.py"]
    check("`loss`" in validation["message"] and "GPU memory grows" in validation["message"], validation["message"])
    check("`loss`" in training["message"] and "host memory grows" in training["message"], training["message"])
    equal((validation["effect"], training["effect"]), ("gpu-growth", "host-growth"), "effects")
    check("48.0 MB per iteration" in validation["detail"], validation["detail"])
    check("38 KB" in training["detail"] and "0.0 MB per iteration" in training["detail"], training["detail"])
    text = t.run().expect(1).out
    check("host memory grows" in text and "GPU memory grows" in text and "H200" not in text,
          "text shows the short messages only:\n" + text)


@case
def detail_in_every_format(t):
    t.write("bad.py", BAD)
    finding = t.run("--format", "json").expect(1).json()[0]
    message, detail = finding["message"], finding["detail"]
    check(detail and detail != message and "H200" in detail, "JSON detail: %r" % detail)
    equal(json.loads(t.run("--format", "json-lines").expect(1).out.splitlines()[0])["detail"], detail, "json-lines")
    result = sarif_run(t)["results"][0]
    equal(result["message"]["text"], message, "SARIF message text")
    equal(result["message"]["markdown"], message + "\n\n" + detail, "SARIF message markdown")
    issue = t.run("--format", "gitlab").expect(1).json()[0]
    equal(issue["description"], "GPU001: " + message, "GitLab description")
    equal(issue["content"], {"body": detail}, "GitLab content body")
    annotation = t.run("--format", "github").expect(1).out.splitlines()[0]
    check(annotation.endswith("GPU001 " + message.replace("%", "%25")), "GitHub annotation: " + annotation)
    check(detail not in t.run().out, "the text format shows no detail")


# ---- Files that could not be linted: a GPU903 record in every format ---------------------------------

MISSING_ERR = "gpulint: nonexist.py: no such file or directory\n"


@case
def unreadable_file_never_passes(t):
    run = t.run("nonexist.py").expect(2)
    equal((run.out, run.err), ("nonexist.py:1:1: GPU903 no such file or directory\n"
                               "No findings; 1 file could not be linted.\n", MISSING_ERR), "a missing file alone")
    t.write("good.py", GOOD)
    run = t.run("good.py", "nonexist.py").expect(2)
    check("All checks passed" not in run.out, run.out)
    equal(run.out.splitlines()[-1], "No findings; 1 file could not be linted.", "with a clean file")
    t.write("bad.py", BAD)
    t.write("latin1.py", "name = 'caf\xe9'\n".encode("latin-1"), mode="wb")
    run = t.run("good.py", "nonexist.py", "bad.py", "latin1.py").expect(2)
    equal(run.findings(), [("bad.py", BAD_LINE, BAD_COLUMN, "GPU001"), ("latin1.py", 1, 1, "GPU903"),
                           ("nonexist.py", 1, 1, "GPU903")], "records in path order among the findings")
    equal(run.out.splitlines()[-2], "Found 1 finding (1 file); 2 files could not be linted.", "summary")
    equal(t.run("--exit-zero", "nonexist.py").status, 2, "--exit-zero still fails")
    equal(t.run("-q", "nonexist.py").out, "nonexist.py:1:1: GPU903 no such file or directory\n", "--quiet")
    # Always on: neither the selection nor a noqa removes it.
    for args in (["--ignore", "GPU903"], ["--select", "GPU101"], ["--ignore", "ALL"]):
        check("GPU903" in t.run(*args, "nonexist.py").expect(2).out, " ".join(args))
    full = t.run("--format", "full", "nonexist.py").expect(2).out
    check(full.startswith("nonexist.py:1:1: GPU903 no such file or directory\n") and "= help: " in full, full)


@case
def unreadable_file_record_in_every_format(t):
    t.write("bad.py", BAD)
    rule = next(r for r in t.rules() if r["code"] == "GPU903")
    equal((rule["name"], rule["default_enabled"], rule["severity"]), ("file-not-linted", True, "error"), "the rule")
    check("## What it does" in t.run("rule", "GPU903").expect(0).out, "its page")
    run = t.run("--format", "json", "bad.py", "nonexist.py").expect(2)
    equal(run.err, MISSING_ERR, "stderr keeps its line")
    record = run.json()[1]
    expected = {"path": "nonexist.py", "line": 1, "column": 1, "end_line": 1, "end_column": 1, "code": "GPU903",
                "name": "file-not-linted", "message": "no such file or directory", "detail": None,
                "severity": "error", "effect": "none", "fix": None}
    equal({k: record[k] for k in expected}, expected, "the JSON record")
    lines = [json.loads(line) for line in t.run("--format", "json-lines", "nonexist.py").expect(2).out.splitlines()]
    equal([(o["path"], o["code"]) for o in lines], [("nonexist.py", "GPU903")], "json-lines")
    equal(t.run("--format", "github", "nonexist.py").expect(2).out,
          "::error file=nonexist.py,line=1,col=1,endLine=1,endColumn=1,title=gpulint (GPU903)::"
          "nonexist.py:1:1: GPU903 no such file or directory\n", "GitHub annotation")
    issue = t.run("--format", "gitlab", "nonexist.py").expect(2).json()
    equal([(i["check_name"], i["description"], i["severity"], i["location"]) for i in issue],
          [("GPU903", "GPU903: no such file or directory", "major", {"path": "nonexist.py", "lines": {"begin": 1, "end": 1}})],
          "GitLab issue")
    check(len(issue[0]["fingerprint"]) == 32, "GitLab fingerprint")
    sarif = sarif_run(t, "bad.py", "nonexist.py")
    equal(len(sarif["results"]), 1, "SARIF results are the findings")
    invocation = sarif["invocations"][0]
    equal(invocation["executionSuccessful"], False, "executionSuccessful")
    notification = invocation["toolExecutionNotifications"][0]
    equal(notification["message"]["text"], "nonexist.py: no such file or directory", "notification text")
    equal(notification["associatedRule"]["id"], "GPU903", "associated rule")
    rules = sarif["tool"]["driver"]["rules"]
    equal(rules[notification["associatedRule"]["index"]]["id"], "GPU903", "its index in driver.rules")
    region = notification["locations"][0]["physicalLocation"]
    equal((region["artifactLocation"]["uri"], region["region"]["startLine"]), ("nonexist.py", 1), "its location")
    equal(t.run("--statistics", "nonexist.py", "bad.py").expect(2).out,
          "1\tGPU001\tmissing-zero-grad\n1\tGPU903\tfile-not-linted\nFound 1 finding; 1 file could not be linted.\n",
          "--statistics")


@case
def unreadable_file_in_the_other_modes(t):
    t.write("bad.py", BAD)
    run = t.run("--show-files", "bad.py", "nonexist.py").expect(2)
    equal((run.out, run.err), ("bad.py\n", MISSING_ERR), "--show-files")
    t.write("latin1.py", "name = 'caf\xe9'\n".encode("latin-1"), mode="wb")
    for args in (["--diff"], ["--add-noqa"], ["--fix"], ["--fix-only"]):
        run = t.run(*args, "latin1.py", "nonexist.py").expect(2)
        check(MISSING_ERR in run.err and "latin1.py: is not valid UTF-8" in run.err, "%s: %s" % (args, run.err))
    # A notebook in another language is skipped with a note, not a record.
    t.write("r.ipynb", json.dumps({"cells": [], "metadata": {"kernelspec": {"language": "R"}}, "nbformat": 4,
                                   "nbformat_minor": 5}))
    run = t.run("r.ipynb").expect(0)
    equal(run.out, "All checks passed!\n", "a skipped notebook")
    check("skipped" in run.err, run.err)


# ---- Rule URLs: none unless the project publishes its pages ------------------------------------------

def urls_everywhere(t, *args, env=None):
    """The rule URLs of every format: JSON's, SARIF's helpUri, the `= docs:`
    of full, `gpulint rules`'s."""
    found = t.run("--format", "json", *args, env=env).json()[0].get("url")
    rule = sarif_run(t, *args, env=env)["tool"]["driver"]["rules"][0]
    full = t.run("--format", "full", *args, env=env).out.splitlines()
    catalogue = t.run("rules", "--output-format", "json", env=env).json()[0].get("url")
    return found, rule.get("helpUri"), labelled(full, "docs"), catalogue


@case
def rule_urls_only_when_configured(t):
    t.write("bad.py", BAD)
    env = {"GPULINT_RULE_URL": ""}
    equal(urls_everywhere(t, env=env), (None, None, "gpulint rule GPU001", None), "no URL by default")
    run = sarif_run(t, env=env)
    check("informationUri" not in run["tool"]["driver"], "informationUri")
    page = t.run("rule", "GPU001").expect(0).out
    rule = run["tool"]["driver"]["rules"][0]
    equal((rule["help"]["text"], rule["help"]["markdown"]), (page, page), "SARIF help is the rule's page")
    template = "https://docs.example.org/gpulint/{code}/{name}.html"
    url = "https://docs.example.org/gpulint/GPU001/missing-zero-grad.html"
    equal(urls_everywhere(t, "--rule-url", template, env=env)[:3], (url, url, url), "--rule-url")
    equal(urls_everywhere(t, env={"GPULINT_RULE_URL": template}), (url, url, url, url), "$GPULINT_RULE_URL")
    t.write("pyproject.toml", "[tool.gpulint]\nrule-url = \"https://example.org/r/{code}\"\n")
    equal(urls_everywhere(t, env={"GPULINT_RULE_URL": template})[:3], ("https://example.org/r/GPU001",) * 3,
          "the config's, over the variable")
    equal(urls_everywhere(t, "--rule-url", template)[:3], (url,) * 3, "the flag's, over the config")


@case
def rule_url_errors(t):
    t.write("bad.py", BAD)
    for value, why in [("ftp://x/{code}", "a rule URL starts with https:// or http://"),
                       ("https://x/{id}", "a rule URL's placeholders are {code} and {name}"),
                       ("https://x/a b", "a rule URL has no blanks or control characters"),
                       ("https://x/}", "a rule URL has `}` only to close {code} or {name}")]:
        usage_error(t.run("--rule-url", value, "bad.py"), "--rule-url `%s`: %s" % (value, why))
        run = t.run("bad.py", env={"GPULINT_RULE_URL": value}).expect(2)
        equal(run.out, "", "%s: nothing is linted" % value)
        check(run.err.startswith("gpulint: GPULINT_RULE_URL `%s`: a rule URL" % value), run.err)
    t.write("pyproject.toml", "[tool.gpulint]\nrule-url = \"https://x/{nam}\"\n")
    run = t.run("bad.py").expect(2)
    check("pyproject.toml:2: `rule-url`: a rule URL's placeholders are {code} and {name}" in run.err, run.err)


# ---- The README says what the binary does --------------------------------------------------------

def readme(t):
    with open(os.path.join(t.source, "README.md"), encoding="utf-8") as f:
        return f.read()


def fenced_blocks(text):
    """The contents of the README's fenced blocks, in order."""
    return re.findall(r"^```[^\n]*\n(.*?)^```$", text, re.S | re.M)


def normalised(text):
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


@case
def readme_examples_are_what_gpulint_prints(t):
    examples = [block for block in fenced_blocks(readme(t)) if block.startswith("$ gpulint ")]
    check(len(examples) >= 2, "the README has %d `$ gpulint ...` examples" % len(examples))
    for block in examples:
        command, _, shown = block.partition("\n")
        args = command[len("$ gpulint "):].split()
        run = t.run(*args, cwd=t.source)
        equal(normalised(run.out), normalised(shown), "README's `%s`" % command)
    check(any("examples/train_mnist.py" in block for block in examples), "the Quick start example is checked")


def readme_flags(text):
    """The flags of the README's flag table: each backticked `-x`/`--flag`
    of a row's first cell."""
    table = text[text.index("| flag | what it does |"):]
    table = table[:table.index("\n\n")]
    flags = set()
    for row in table.splitlines()[2:]:
        first = row.split(" | ")[0]
        for token in re.findall(r"`([^`]+)`", first):
            flags.update(re.findall(r"^(--?[a-z][a-z0-9-]*)", token))
    return flags


@case
def readme_flag_table_matches_help(t):
    text = readme(t)
    table = readme_flags(text)
    rows = text[text.index("| flag | what it does |"):].split("\n\n")[0].splitlines()[2:]
    firsts = [row.split(" | ")[0] for row in rows]
    equal(len(firsts), len(set(firsts)), "no row twice")
    helped = set()
    for line in t.run("--help").expect(0).out.splitlines():
        if re.match(r"^  -", line):
            helped.update(re.findall(r"(?:^|, )(--?[a-z][a-z0-9-]*)", line.strip().split("  ")[0]))
    check(len(helped) > 30, "flags in --help: %s" % sorted(helped))
    equal(sorted(table - helped), [], "README flags that --help lacks")
    equal(sorted(helped - table), [], "--help flags that the README's table lacks")


@case
def readme_verify_table_is_the_replay(t):
    text = readme(t)
    block = next(b for b in fenced_blocks(text) if b.startswith("RULE    CASE"))
    run = t.run("verify", "--replay", os.path.join(t.source, "tests", "verify", "traces")).expect(0)
    lines = run.out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("RULE    CASE"))
    end = lines.index("", start)
    equal(normalised(block), normalised("\n".join(lines[start:end])), "README's verify table")


@case
def readme_rule_table_is_the_catalogue(t):
    text = readme(t)
    rows = re.findall(r"^\| (GPU\d{3}) \| ([a-z-]+) \|", text, re.M)
    equal(rows, [(rule["code"], rule["name"]) for rule in t.rules()], "README's rule table")


# ---- check --watch ----------------------------------------------------------------------------------

WATCH_HEADER = re.compile(r"^---- gpulint --watch: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d ----$")
WATCH_READY = "Watching for file changes."


class Watcher:
    """`gpulint check --watch ARGS` with its output read on threads; every
    wait has a timeout."""

    def __init__(self, t, *args):
        import queue
        import threading
        self.lines, self.errors = queue.Queue(), []
        self.process = subprocess.Popen([t.gpulint, "check", "--watch", *args], cwd=t.root, env=t.env,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        threading.Thread(target=self._read, args=(self.process.stdout, self.lines.put), daemon=True).start()
        threading.Thread(target=self._read, args=(self.process.stderr, self.errors.append), daemon=True).start()

    @staticmethod
    def _read(stream, put):
        for line in iter(stream.readline, b""):
            put(line.decode("utf-8", "replace").rstrip("\n"))

    def next_run(self, timeout=20):
        """The lines of the next run, from its header to WATCH_READY."""
        import queue
        run = []
        while True:
            try:
                line = self.lines.get(timeout=timeout)
            except queue.Empty:
                raise Failure("no run within %ss; so far %r; stderr %r" % (timeout, run, self.errors))
            run.append(line)
            if line == WATCH_READY:
                check(WATCH_HEADER.match(run[0]), "a run without its header: %r" % run)
                check(not any("\x1b[" in line for line in run), "escape codes without a terminal: %r" % run)
                return run[1:-1]

    def no_run(self, seconds=0.8):
        """Nothing is linted again for `seconds`."""
        import queue
        try:
            line = self.lines.get(timeout=seconds)
            raise Failure("an unexpected run: %r" % line)
        except queue.Empty:
            pass

    def alive(self, what):
        check(self.process.poll() is None, "--watch exited (%s) after %s: %r" % (self.process.returncode, what,
                                                                                self.errors))

    def stop(self, sig):
        import signal
        self.process.send_signal(getattr(signal, sig))
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure("--watch did not end on %s" % sig)


def watch_findings(lines):
    return [(m["path"], int(m["line"]), m["code"]) for m in map(TEXT_LINE.match, lines) if m]


@case
def watch_lints_again_on_every_change(t):
    t.use_cache()  # its folder is written in the tree and must not cause runs
    t.write("good.py", GOOD)
    watcher = Watcher(t, ".")
    try:
        equal(watcher.next_run(), ["All checks passed!"], "first run")
        watcher.no_run()
        t.write("bad.py", BAD)
        run = watcher.next_run()
        equal(watch_findings(run), [("bad.py", BAD_LINE, "GPU001")], "after writing bad.py")
        # An editor's save: a copy written, renamed over the file, its mode set: one run.
        t.write("bad.py.swp", GOOD)
        os.rename(t.path("bad.py.swp"), t.path("bad.py"))
        os.chmod(t.path("bad.py"), 0o644)
        equal(watcher.next_run(), ["All checks passed!"], "after fixing bad.py")
        watcher.no_run()
        t.write("bad.py", SYNTAX_ERROR)
        equal([code for _, _, code in watch_findings(watcher.next_run())], ["GPU900"], "a syntax error")
        watcher.alive("a syntax error")
        os.remove(t.path("bad.py"))
        equal(watcher.next_run(), ["All checks passed!"], "after deleting bad.py")
        watcher.alive("a deleted file")
        # A new folder is watched from the run that walks it.
        os.makedirs(t.path("pkg"))
        watcher.next_run()
        t.write("pkg/train.py", BAD)
        equal(watch_findings(watcher.next_run()), [("pkg/train.py", BAD_LINE, "GPU001")], "a file in a new folder")
        # Excluded folders and files that are not linted cause no run.
        os.makedirs(t.path("build"))
        watcher.next_run()
        t.write("build/gen.py", BAD)
        t.write("notes.txt", "nothing to lint\n")
        watcher.no_run()
        check(os.path.isdir(t.path(".gpulint_cache")), "the cache was not used")
        equal(watcher.stop("SIGTERM"), 0, "exit status after SIGTERM")
    finally:
        if watcher.process.poll() is None:
            watcher.process.kill()


@case
def watch_named_files_and_paths_that_go_away(t):
    t.write("proj/train.py", GOOD)
    t.write("proj/other.py", GOOD)
    watcher = Watcher(t, "proj/train.py")
    try:
        equal(watcher.next_run(), ["All checks passed!"], "first run")
        t.write("proj/other.py", BAD)
        watcher.no_run()  # only the named file counts
        t.write("proj/train.py", BAD)
        equal(watch_findings(watcher.next_run()), [("proj/train.py", BAD_LINE, "GPU001")], "the named file")
        equal(watcher.stop("SIGINT"), 0, "exit status after SIGINT")
    finally:
        if watcher.process.poll() is None:
            watcher.process.kill()
    watcher = Watcher(t, "proj")
    try:
        check(len(watch_findings(watcher.next_run())) == 2, "first run of proj")
        shutil.rmtree(t.path("proj"))
        equal(watcher.process.wait(timeout=20), 2, "exit status when every path is gone")
        check(any("every watched path is gone" in line for line in watcher.errors), watcher.errors)
    finally:
        if watcher.process.poll() is None:
            watcher.process.kill()


@case
def watch_usage_errors(t):
    t.write("bad.py", BAD)
    for args, message in [(["--diff"], "`--watch` cannot be combined with `--diff`"),
                          (["--add-noqa"], "`--watch` cannot be combined with `--add-noqa`"),
                          (["--show-files"], "`--watch` cannot be combined with `--show-files`"),
                          (["-"], "`--watch` lints files, not standard input"),
                          (["--stdin-filename", "x.py"], "`--watch` lints files, not standard input")]:
        usage_error(t.run("check", "--watch", *args, stdin=b""), message)
    usage_error(t.run("--wacth"), "unknown option `--wacth`; did you mean `--watch`?")
    run = t.run("check", "--watch", "missing").expect(2)
    equal(run.err.splitlines()[-1], "gpulint: --watch: every watched path is gone; stopping", "a missing path")


# ---- Driver ----------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpulint")
    parser.add_argument("--source")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("case", nargs="?")
    args = parser.parse_args()
    if args.list:
        print("\n".join(CASES))
        return 0
    if args.case not in CASES:
        print("unknown case %r" % args.case, file=sys.stderr)
        return 2
    root = tempfile.mkdtemp(prefix="gpulint-cli-")
    try:
        result = CASES[args.case](Case(os.path.abspath(args.gpulint), os.path.abspath(args.source),
                                       os.path.realpath(root)))
        return result or 0
    except Failure as failure:
        print("FAIL %s: %s" % (args.case, failure), file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
