/* suppress.c — findings under `# noqa`, and the comments checked. */
#include "suppress.h"

#include <stdlib.h>
#include <string.h>

#include "fixes.h"
#include "noqa.h"
#include "rule.h"

/* What the `# noqa` of one line suppressed: every listed code's bit, and
 * bit 31 for a bare `# noqa`. */
typedef struct {
  uint32_t line;
  uint32_t used;
} Use;

typedef Array(Use) Uses;

#define USE_ALL (1u << 31)

static void suppress__note(Uses *uses, uint32_t line, uint32_t bits) {
  for (uint32_t i = 0; i < uses->size; i++) {
    if (uses->contents[i].line == line) {
      uses->contents[i].used |= bits;
      return;
    }
  }
  array_push(uses, ((Use){line, bits}));
}

static uint32_t suppress__used(const Uses *uses, uint32_t line) {
  for (uint32_t i = 0; i < uses->size; i++) {
    if (uses->contents[i].line == line) return uses->contents[i].used;
  }
  return 0;
}

/* Which parts of the line's directive cover `code`: USE_ALL, the bits of
 * the listed codes that do, or 0. */
static uint32_t suppress__covering(const char *text, const NoqaDirective *directive, const char *code) {
  if (directive->kind == NOQA_ALL) return USE_ALL;
  if (directive->kind == NOQA_MALFORMED) return 0;
  uint32_t bits = 0;
  for (uint32_t i = 0; directive->kind == NOQA_CODES && i < directive->code_count; i++) {
    if (noqa_code_covers(text, &directive->codes[i], code)) bits |= 1u << i;
  }
  return bits;
}

/* ---- Where a line's `# noqa` goes ------------------------------------------------------ */

/* The last row of the multi-line string holding the end of a line (at
 * byte `at`), or -1 when that end lies in no such string. */
static int64_t suppress__long_string_end(TSNode root, uint32_t at) {
  for (TSNode node = ts_node_descendant_for_byte_range(root, at, at); !ts_node_is_null(node); node = ts_node_parent(node)) {
    if (!node_is(node, K_STRING)) continue;
    TSPoint start = ts_node_start_point(node), end = ts_node_end_point(node);
    return start.row != end.row ? (int64_t)end.row : -1;
  }
  return -1;
}

/* Whether the line (its text without the newline) ends with a backslash
 * that joins it to the next: one outside a comment. */
static bool suppress__continued(TSNode root, const char *text, uint32_t length, uint32_t line_start) {
  while (length > 0 && (text[length - 1] == '\r' || text[length - 1] == ' ' || text[length - 1] == '\t')) length--;
  if (length == 0 || text[length - 1] != '\\') return false;
  TSNode node = ts_node_descendant_for_byte_range(root, line_start + length - 1, line_start + length);
  return !node_is(node, K_COMMENT);
}

/* The text of `line` where a comment may start: the whole line, or what
 * follows a multi-line string that ends on it (`"""  # noqa`); its
 * length in `length`; borrowed. */
static const char *suppress__code_text(const Source *source, TSNode root, uint32_t line, uint32_t *length) {
  const char *text = source_line_text(source, line, length);
  uint32_t line_start = (uint32_t)(text - source->bytes);
  for (TSNode node = ts_node_descendant_for_byte_range(root, line_start, line_start); !ts_node_is_null(node);
       node = ts_node_parent(node)) {
    if (!node_is(node, K_STRING)) continue;
    uint32_t end = ts_node_end_byte(node);
    if (ts_node_start_byte(node) >= line_start || end <= line_start || end > line_start + *length) break;
    *length -= end - line_start;
    return source->bytes + end;
  }
  return text;
}

/* The line whose `# noqa` covers a finding on `line`: `line` itself, or,
 * where Python allows no comment at its end (a backslash continues it, or
 * a string runs on), the last line of that stretch, as in ruff. */
static uint32_t suppress__noqa_line(const Source *source, TSNode root, uint32_t line) {
  uint32_t last = source_line_of(source, source->length);
  for (uint32_t steps = 0; line < last && steps < last; steps++) {
    uint32_t length = 0;
    const char *text = suppress__code_text(source, root, line, &length);
    uint32_t line_start = (uint32_t)(text - source->bytes);
    int64_t string_end = suppress__long_string_end(root, line_start + length);
    if (string_end >= 0 && (uint32_t)string_end + 1 > line) line = (uint32_t)string_end + 1;
    else if (suppress__continued(root, text, length, line_start)) line++;
    else break;
  }
  return line;
}

/* Drops the suppressed findings, noting which directives did so. The file
 * is searched once per rule that has findings, not once per finding. */
static void suppress__drop(Findings *findings, const Source *source, TSNode root, Uses *uses) {
  int8_t file_skips[GL_MAX_RULES];
  memset(file_skips, -1, sizeof file_skips);
  uint32_t kept = 0;
  for (uint32_t i = 0; i < findings->size; i++) {
    GlFinding *finding = array_get(findings, i);
    const char *code = RULES[finding->rule]->info.code;
    if (file_skips[finding->rule] < 0) file_skips[finding->rule] = noqa_skips_file(source->bytes, source->length, code);
    uint32_t own = source_line_of(source, finding->start_byte), line = own, covering = 0;
    for (;;) { /* the finding's own line, then the line its comment has to go on */
      uint32_t length = 0;
      const char *text = suppress__code_text(source, root, line, &length);
      NoqaDirective directive;
      covering = noqa_parse(text, length, &directive) ? suppress__covering(text, &directive, code) : 0;
      if (covering || line != own || (line = suppress__noqa_line(source, root, own)) == own) break;
    }
    if (covering) suppress__note(uses, line, covering);
    if (covering || file_skips[finding->rule]) {
      finding_free(finding);
      continue;
    }
    findings->contents[kept++] = *finding;
  }
  findings->size = kept;
}

/* ---- The directives themselves ------------------------------------------------------ */

/* Whether a listed code names a rule (or is a prefix of one's code). */
static bool suppress__known(const char *text, const NoqaCode *listed) {
  for (uint32_t i = 0; listed->well_formed && i < RULE_COUNT; i++) {
    if (noqa_code_covers(text, listed, RULES[i]->info.code)) return true;
  }
  return false;
}

/* Whether a listed code covers a rule that ran: only those can be unused. */
static bool suppress__ran(const char *text, const NoqaCode *listed, const GlRuleSet *rules) {
  for (uint32_t i = 0; i < RULE_COUNT; i++) {
    if (rules->enabled[i] && noqa_code_covers(text, listed, RULES[i]->info.code)) return true;
  }
  return false;
}

static void suppress__malformed(Findings *findings, const Source *source, int rule, uint32_t at, const char *text,
                                const NoqaDirective *directive) {
  if (directive->kind == NOQA_MALFORMED) {
    findings_add(findings, source, (uint32_t)rule, GL_EFFECT_NONE, at, at,
                 gl_format("malformed `# noqa`: it suppresses nothing; write `# noqa: CODE[, CODE]`"));
    return;
  }
  for (uint32_t i = 0; i < directive->code_count; i++) {
    const NoqaCode *listed = &directive->codes[i];
    if (!listed->ours || suppress__known(text, listed)) continue; /* another tool's code is its business */
    findings_add(findings, source, (uint32_t)rule, GL_EFFECT_NONE, at, at,
                 gl_format("`# noqa` names `%.*s`, which is no rule code (see `gpulint rules`); it suppresses nothing",
                           (int)listed->length, text + listed->start));
  }
}

/* The directive without its unused codes, or the whole comment gone
 * (with the blanks before it) when nothing of it is used. */
static void suppress__unused_fix(GlFinding *finding, const Source *source, uint32_t line_start, const char *text,
                                 uint32_t length, const NoqaDirective *directive, uint32_t unused) {
  GlFix *fix = fix_new(finding, GL_FIX_SAFE, "Remove the unused `# noqa`");
  uint32_t kept = 0;
  for (uint32_t i = 0; i < directive->code_count; i++) kept += !(unused & (1u << i));
  if (directive->kind == NOQA_CODES && kept > 0) {
    Array(char) list = array_new();
    for (uint32_t i = 0; i < directive->code_count; i++) {
      if (unused & (1u << i)) continue;
      if (list.size) array_push(&list, ','), array_push(&list, ' ');
      for (uint32_t k = 0; k < directive->codes[i].length; k++) array_push(&list, text[directive->codes[i].start + k]);
    }
    array_push(&list, '\0');
    uint32_t from = directive->codes[0].start, to = directive->end;
    fix_replace(fix, source, line_start + from, line_start + to, list.contents);
    array_delete(&list);
  } else {
    uint32_t from = directive->comment_start, to = directive->end;
    bool rest = false;
    for (uint32_t i = to; i < length && !rest; i++) rest = text[i] != ' ' && text[i] != '\t' && text[i] != '\r';
    if (rest) { /* `# noqa: X see #12`: keep the comment's words */
      from = directive->comment_start + 1;
      while (from < to && (text[from] == ' ' || text[from] == '\t')) from++;
      while (to < length && (text[to] == ' ' || text[to] == '\t')) to++;
    } else {
      while (from > 0 && (text[from - 1] == ' ' || text[from - 1] == '\t')) from--;
    }
    fix_replace(fix, source, line_start + from, line_start + to, "");
  }
  fix_finish(finding);
}

static void suppress__unused(Findings *findings, const Source *source, int rule, uint32_t line, const char *text,
                             uint32_t length, const NoqaDirective *directive, uint32_t used, const GlRuleSet *rules) {
  uint32_t line_start = (uint32_t)(text - source->bytes), at = line_start + directive->comment_start;
  uint32_t unused = 0;
  for (uint32_t i = 0; directive->kind == NOQA_CODES && i < directive->code_count; i++) {
    const NoqaCode *listed = &directive->codes[i];
    if (!(used & (1u << i)) && suppress__known(text, listed) && suppress__ran(text, listed, rules)) unused |= 1u << i;
  }
  bool bare_unused = directive->kind == NOQA_ALL && !used;
  if (!bare_unused && !unused) return;
  char *message = bare_unused ? gl_strdup("unused `# noqa`: nothing on this line is reported")
                              : gl_format("unused `# noqa`: no finding of the listed code%s on this line",
                                          __builtin_popcount(unused) == 1 ? "" : "s");
  (void)line;
  GlFinding *finding = findings_add(findings, source, (uint32_t)rule, GL_EFFECT_NONE, at, line_start + directive->end,
                                    message);
  suppress__unused_fix(finding, source, line_start, text, length, directive, unused);
}

/* Whether byte `at` lies in a comment of the parse (not in a string). */
static bool suppress__in_comment(TSNode root, uint32_t at) {
  TSNode node = ts_node_descendant_for_byte_range(root, at, at + 1);
  return node_is(node, K_COMMENT);
}

/* Reads every `# noqa` of the file once. */
static void suppress__check_directives(Findings *findings, const Source *source, TSNode root, const GlRuleSet *rules,
                                       const Uses *uses) {
  int malformed = gl_rule_index("GPU902"), unused = gl_rule_index("GPU901");
  bool check_malformed = malformed >= 0 && rules->enabled[malformed];
  bool check_unused = unused >= 0 && rules->enabled[unused];
  if (!check_malformed && !check_unused) return;
  const char *end = source->bytes + source->length;
  for (const char *hash = memchr(source->bytes, '#', source->length); hash;) {
    uint32_t line = source_line_of(source, (uint32_t)(hash - source->bytes)), length = 0;
    const char *text = suppress__code_text(source, root, line, &length);
    NoqaDirective directive;
    if (noqa_parse(text, length, &directive) &&
        suppress__in_comment(root, (uint32_t)(text - source->bytes) + directive.comment_start)) {
      uint32_t at = (uint32_t)(text - source->bytes) + directive.comment_start;
      if (check_malformed) suppress__malformed(findings, source, malformed, at, text, &directive);
      if (check_unused) {
        suppress__unused(findings, source, unused, line, text, length, &directive, suppress__used(uses, line), rules);
      }
    }
    const char *next_line = memchr(hash, '\n', (size_t)(end - hash));
    hash = next_line ? memchr(next_line, '#', (size_t)(end - next_line)) : NULL;
  }
}

void suppress_findings(Findings *findings, const Source *source, TSNode root, const GlRuleSet *rules) {
  Uses uses = array_new();
  suppress__drop(findings, source, root, &uses);
  suppress__check_directives(findings, source, root, rules, &uses);
  array_delete(&uses);
}

/* ---- Adding `# noqa` ------------------------------------------------------------------ */

/* The edit that makes the line's `# noqa` cover `codes` (a comma list):
 * appended to its list, or a new comment at the line's end; NULL when the
 * line is covered already or cannot take a comment. */
static GlEdit *suppress__noqa_edit(const Source *source, TSNode root, uint32_t line, const char *codes) {
  uint32_t length = 0;
  const char *text = suppress__code_text(source, root, line, &length);
  while (length > 0 && (text[length - 1] == '\r' || text[length - 1] == ' ' || text[length - 1] == '\t')) length--;
  uint32_t start = (uint32_t)(text - source->bytes);
  NoqaDirective directive;
  bool existing = noqa_parse(text, length, &directive);
  if (existing && directive.kind == NOQA_ALL) return NULL;
  if (!existing && suppress__long_string_end(root, start + length) >= 0) return NULL;
  GlEdit *edit = gl_calloc(1, sizeof(GlEdit));
  if (existing && directive.kind == NOQA_CODES) {
    edit->start_byte = edit->end_byte = start + directive.end;
    edit->content = gl_format(", %s", codes);
  } else if (existing) { /* malformed: it becomes a valid one, with the codes it meant */
    Array(char) list = array_new();
    for (uint32_t i = 0; i < directive.code_count; i++) {
      const NoqaCode *listed = &directive.codes[i];
      if (!listed->well_formed || text_mentions((Text){codes, (uint32_t)strlen(codes)}, (Text){text + listed->start, listed->length})) continue;
      for (uint32_t k = 0; k < listed->length; k++) array_push(&list, text[listed->start + k]);
      array_push(&list, ','), array_push(&list, ' ');
    }
    array_push(&list, '\0');
    edit->start_byte = start + directive.comment_start;
    edit->end_byte = start + directive.end;
    edit->content = gl_format("# noqa: %s%s", list.contents, codes);
    array_delete(&list);
  } else {
    edit->start_byte = edit->end_byte = start + length;
    edit->content = gl_format("  # noqa: %s", codes);
  }
  return edit;
}

uint32_t suppress_noqa_edits(const Source *source, TSNode root, const GlFileResult *result, GlEdit ***edits) {
  uint32_t count = 0;
  *edits = gl_calloc(result->finding_count + 1, sizeof(GlEdit *));
  for (uint32_t i = 0; i < result->finding_count;) {
    uint32_t line = suppress__noqa_line(source, root, source_line_of(source, result->findings[i].start_byte));
    Array(char) codes = array_new();
    uint32_t j = i;
    for (; j < result->finding_count &&
           suppress__noqa_line(source, root, source_line_of(source, result->findings[j].start_byte)) == line; j++) {
      const char *code = RULES[result->findings[j].rule]->info.code;
      /* a syntax error is fixed, not suppressed; a finding about a `# noqa` cannot be suppressed by one */
      if (strcmp(code, "GPU900") == 0 || strcmp(code, "GPU901") == 0 || strcmp(code, "GPU902") == 0) continue;
      Text list = {codes.contents, codes.size};
      if (codes.size && text_mentions(list, (Text){code, (uint32_t)strlen(code)})) continue;
      if (codes.size) array_push(&codes, ','), array_push(&codes, ' ');
      for (const char *c = code; *c; c++) array_push(&codes, *c);
    }
    bool any = codes.size > 0;
    array_push(&codes, '\0');
    GlEdit *edit = any ? suppress__noqa_edit(source, root, line, codes.contents) : NULL;
    if (edit) (*edits)[count++] = edit;
    array_delete(&codes);
    i = j;
  }
  return count;
}
