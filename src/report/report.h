/* report.h — printing results in every output format.
 *
 *   text (alias concise)  path:line:col: CODE message, then a summary
 *   full                  text plus the source line, a caret and the fix hint
 *   json, json-lines      one object per finding
 *   sarif                 SARIF 2.1.0 for GitHub code scanning
 *   github                GitHub Actions workflow-command annotations
 *   gitlab                GitLab Code Quality (Code Climate subset)
 *
 * A file that could not be linted (a load error) gets a record in every
 * format, GPU903 file-not-linted at its line 1 (in SARIF a tool execution
 * notification), besides its line on the error stream. Notes (a skipped
 * file) go to the error stream only. */
#ifndef GPULINT_REPORT_H
#define GPULINT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "gpulint.h"

typedef enum {
  FORMAT_TEXT,
  FORMAT_FULL,
  FORMAT_JSON,
  FORMAT_JSON_LINES,
  FORMAT_SARIF,
  FORMAT_GITHUB,
  FORMAT_GITLAB,
} OutputFormat;

#define REPORT_FORMAT_NAMES "text, full, json, json-lines, sarif, github, gitlab"

typedef struct {
  const GlFileResult *result; /* borrowed */
  char *const *lines;         /* each finding's line text, or NULL; borrowed */
  char *const *fix_diffs;     /* each finding's fix as diff hunks, or NULL; borrowed */
} ReportFile;

typedef struct {
  OutputFormat format;
  bool color;          /* ANSI colours in text and full */
  bool quiet;          /* findings only: no summary line */
  bool statistics;     /* a count per code instead of the findings */
  const char *cwd;     /* absolute; shown paths are relative to it */
  const char *base;    /* absolute; CI formats give paths relative to it */
  GlRuleSet rules;     /* the rules that ran (SARIF lists every one) */
  uint32_t fixed;      /* fixes applied in this run (the summary says so) */
  bool unsafe_fixes;   /* unsafe fixes are on: the summary counts them as fixable */
  bool no_rules;       /* no rule was selected: the summary says so, not "All checks passed!" */
} ReportOptions;

/* Parses a --output-format value; false if unknown. */
bool report_parse_format(const char *name, OutputFormat *format);

/* Options for `format` with everything else off, relative to the working
 * directory, with the default rules. */
ReportOptions report_options_default(OutputFormat format);

/* Prints the findings of `files` (borrowed) to `out`. */
void report_print(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count);

/* Prints load errors (and, unless `quiet`, notes such as skipped files) to
 * `errors` as `gpulint: path: message`. Returns the number of errors. */
size_t report_problems(FILE *errors, const ReportFile *files, size_t count, bool quiet);

/* Counts findings over all results. */
size_t report_finding_count(GlFileResult *const *results, size_t count);

/* The problems to `errors`, then the findings to `out` with default
 * options. */
void report_write(FILE *out, FILE *errors, OutputFormat format, GlFileResult *const *results, size_t count);

/* ---- Helpers shared by the formats (report.c, report_ci.c) ---- */

/* Sets `record` to the GPU903 record of a result that could not be linted
 * (line 1, column 1, the error as its message, borrowed from `result`);
 * false when the result has no error. */
bool report_error_record(const GlFileResult *result, GlFinding *record);

/* "; 2 files could not be linted" after a count, or "" when none failed. */
const char *report_failed_suffix(size_t failed, char *buffer, size_t size);

/* ---- Rule pages' addresses ----
 *
 * gpulint has no site of its own: a rule's page is `gpulint rule CODE`
 * (and SARIF's `help`). A project that publishes the pages gives their
 * address as a template, `https://example.org/rules/{code}` ({code}: the
 * rule's code, {name}: its name), in the `rule-url` setting, --rule-url,
 * or $GPULINT_RULE_URL; without one, no format shows a URL. */

/* Why `template` is not a usable template (a static sentence), or NULL. */
const char *report_rule_url_error(const char *template);

/* Uses `template` (copied; NULL: none set, $GPULINT_RULE_URL applies) for
 * the rest of the run. Set it before reporting, not while another thread
 * reports. False, with nothing changed, when the template is not usable. */
bool report_set_rule_url(const char *template);

/* The rule page's address: the template set, else $GPULINT_RULE_URL when
 * it is usable, filled in; NULL when there is none. The caller frees it. */
char *report_rule_url(const GlRuleInfo *rule);

/* The path of a result relative to options->base (a URI-safe string is
 * not implied); NULL when it lies outside. The caller frees it. */
char *report_relative_path(const ReportOptions *options, const char *path);

/* A fingerprint of a finding that ignores where its line is: a hash of the
 * rule, the line's text without whitespace, and how many earlier findings
 * of this file share both. `salt` separates uses. */
uint64_t report_fingerprint(const char *code, const char *path, const char *line, uint32_t occurrence, uint64_t salt);

/* The number of earlier findings in `file` (before `index`) with the same
 * rule and the same line text (ignoring whitespace). */
uint32_t report_occurrence(const ReportFile *file, uint32_t index);

/* GitHub workflow-command escaping: %, CR and LF, and with `property`
 * also ':' and ','. The caller frees the result. */
char *report_github_escape(const char *text, bool property);

void report_sarif(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count);
void report_github(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count);
void report_gitlab(FILE *out, const ReportOptions *options, const ReportFile *files, size_t count);

#endif
