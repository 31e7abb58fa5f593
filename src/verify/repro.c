/* repro.c — parsing the `# verify:` headers and pairing the scripts. */
#include "repro.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text.h"

#define DIRECTIVE "# verify:"

/* ---- Metrics ------------------------------------------------------------ */

static const struct {
  const char *name;
  const char *unit;
  GlEffect effect;
} METRICS[METRIC_COUNT] = {
    [METRIC_NONE] = {"none", "", GL_EFFECT_NONE},
    [METRIC_ALLOC_SLOPE] = {"alloc-slope", "MB/step", GL_EFFECT_GPU_GROWTH},
    [METRIC_DEVICE_SLOPE] = {"device-slope", "MB/step", GL_EFFECT_GPU_GROWTH},
    [METRIC_GRAPH_NODES] = {"graph-nodes", "nodes/step", GL_EFFECT_HOST_GROWTH},
    [METRIC_RSS_SLOPE] = {"rss-slope", "KB/step", GL_EFFECT_HOST_GROWTH},
    [METRIC_PEAK] = {"peak", "MB", GL_EFFECT_PEAK},
    [METRIC_STEP_TIME] = {"step-time", "ms", GL_EFFECT_SLOWDOWN},
    [METRIC_GRAD_GROWTH] = {"grad-growth", "x", GL_EFFECT_WRONG_GRADIENTS},
    [METRIC_PARAM_CHANGE] = {"param-change", "/step", GL_EFFECT_WRONG_GRADIENTS},
    [METRIC_STATS_CHANGE] = {"stats-change", "/step", GL_EFFECT_WRONG_GRADIENTS},
    [METRIC_CRASH] = {"crash", "", GL_EFFECT_CRASH},
};

const char *metric_name(Metric metric) {
  return metric < METRIC_COUNT ? METRICS[metric].name : "none";
}

const char *metric_unit(Metric metric) {
  return metric < METRIC_COUNT ? METRICS[metric].unit : "";
}

Metric metric_from_name(const char *name) {
  for (int i = 1; i < METRIC_COUNT; i++) {
    if (strcmp(METRICS[i].name, name) == 0) return (Metric)i;
  }
  return METRIC_NONE;
}

bool metric_fits_effect(Metric metric, GlEffect effect) {
  return metric != METRIC_NONE && metric < METRIC_COUNT && METRICS[metric].effect == effect;
}

static GlEffect effect__from_name(const char *name) {
  for (int effect = GL_EFFECT_GPU_GROWTH; effect <= GL_EFFECT_SLOWDOWN; effect++) {
    if (strcmp(gl_effect_name((GlEffect)effect), name) == 0) return (GlEffect)effect;
  }
  return GL_EFFECT_NONE;
}

const char *subject_name(Subject subject) {
  return subject == SUBJECT_BAD ? "bad" : subject == SUBJECT_GOOD ? "good" : "ratio";
}

static const char *const COMPARES[] = {">=", ">", "<=", "<"};

const char *compare_name(Compare compare) { return COMPARES[compare]; }

bool compare_holds(Compare compare, double value, double threshold) {
  if (isnan(value)) return false;
  switch (compare) {
    case COMPARE_GE: return value >= threshold;
    case COMPARE_GT: return value > threshold;
    case COMPARE_LE: return value <= threshold;
    case COMPARE_LT: return value < threshold;
  }
  return false;
}

char *expectation_describe(const Expectation *self, Metric main_metric) {
  const char *unit = self->subject == SUBJECT_RATIO ? "x" : metric_unit(self->metric);
  return gl_format("%s%s%s %s %g%s%s", self->metric != main_metric ? metric_name(self->metric) : "",
                   self->metric != main_metric ? " " : "", subject_name(self->subject),
                   compare_name(self->compare), self->threshold,
                   *unit && *unit != '/' && strcmp(unit, "x") ? " " : "", unit);
}

/* ---- Header lines ------------------------------------------------------- */

typedef struct {
  const char *path;
  uint32_t line;
  char *error;
  uint32_t seen; /* one bit per KEY below */
} Parser;

typedef enum { KEY_RULE, KEY_CASE, KEY_ROLE, KEY_TITLE, KEY_EFFECT, KEY_METRIC, KEY_STEPS,
               KEY_STEADY, KEY_EXPECT, KEY_RAISES, KEY_COUNT } Key;

static const char *const KEYS[KEY_COUNT] = {"rule", "case", "role", "title", "effect", "metric",
                                             "steps", "steady", "expect", "raises"};

static bool parser__fail(Parser *self, const char *message, const char *detail) {
  if (!self->error) {
    self->error = gl_format("%s:%u: %s%s%s", self->path, self->line, message, detail ? ": " : "",
                            detail ? detail : "");
  }
  return false;
}

/* A count: digits only, 1..1000000. */
static bool parser__count(Parser *self, const char *value, uint32_t *out, bool zero_ok) {
  char *end;
  errno = 0;
  unsigned long n = strtoul(value, &end, 10);
  if (!isdigit((unsigned char)*value) || *end || errno || n > 1000000 || (!zero_ok && n == 0)) {
    return parser__fail(self, "expected a step count", value);
  }
  *out = (uint32_t)n;
  return true;
}

/* expect -> [METRIC] SUBJECT OP NUMBER */
static bool parser__expect(Parser *self, Script *script, const char *value) {
  char words[4][64];
  int count = sscanf(value, "%63s %63s %63s %63s", words[0], words[1], words[2], words[3]);
  Expectation expectation = {script->metric, SUBJECT_BAD, COMPARE_GE, 0};
  int at = 0;
  if (count == 4) {
    expectation.metric = metric_from_name(words[0]);
    if (expectation.metric == METRIC_NONE || expectation.metric == METRIC_CRASH) {
      return parser__fail(self, "unknown metric in expect", words[0]);
    }
    at = 1;
  } else if (count != 3) {
    return parser__fail(self, "expected `expect [METRIC] bad|good|ratio OP NUMBER`", value);
  }
  const char *subject = words[at], *op = words[at + 1], *number = words[at + 2];
  if (strcmp(subject, "bad") == 0) expectation.subject = SUBJECT_BAD;
  else if (strcmp(subject, "good") == 0) expectation.subject = SUBJECT_GOOD;
  else if (strcmp(subject, "ratio") == 0) expectation.subject = SUBJECT_RATIO;
  else return parser__fail(self, "expect needs bad, good or ratio", subject);
  int compare = -1;
  for (int i = 0; i < 4; i++) if (strcmp(op, COMPARES[i]) == 0) compare = i;
  if (compare < 0) return parser__fail(self, "expect needs >=, >, <= or <", op);
  expectation.compare = (Compare)compare;
  char *end;
  expectation.threshold = strtod(number, &end);
  if (*end || end == number || !isfinite(expectation.threshold)) {
    return parser__fail(self, "expect needs a number", number);
  }
  array_push(&script->expectations, expectation);
  return true;
}

/* Applies `KEY VALUE`; the value is trimmed and non-empty. */
static bool parser__apply(Parser *self, Script *script, Key key, const char *value) {
  switch (key) {
    case KEY_RULE: script->rule = gl_strdup(value); return true;
    case KEY_CASE: script->name = gl_strdup(value); return true;
    case KEY_TITLE: script->title = gl_strdup(value); return true;
    case KEY_RAISES: script->raises = gl_strdup(value); return true;
    case KEY_STEPS: return parser__count(self, value, &script->steps, false);
    case KEY_STEADY: return parser__count(self, value, &script->steady, true);
    case KEY_EXPECT: return parser__expect(self, script, value);
    case KEY_ROLE:
      if (strcmp(value, "bad") == 0) script->role = ROLE_BAD;
      else if (strcmp(value, "good") == 0) script->role = ROLE_GOOD;
      else return parser__fail(self, "role must be bad or good", value);
      return true;
    case KEY_EFFECT:
      script->effect = effect__from_name(value);
      return script->effect != GL_EFFECT_NONE || parser__fail(self, "unknown effect", value);
    case KEY_METRIC:
      script->metric = metric_from_name(value);
      return script->metric != METRIC_NONE || parser__fail(self, "unknown metric", value);
    case KEY_COUNT: break;
  }
  return false;
}

/* line -> "# verify:" KEY VALUE */
static bool parser__line(Parser *self, Script *script, const char *line) {
  const char *p = line + strlen(DIRECTIVE);
  while (*p == ' ') p++;
  const char *key_end = p;
  while (*key_end && *key_end != ' ') key_end++;
  const char *value = key_end;
  while (*value == ' ') value++;
  size_t value_length = strlen(value);
  while (value_length && isspace((unsigned char)value[value_length - 1])) value_length--;
  for (int key = 0; key < KEY_COUNT; key++) {
    if (strlen(KEYS[key]) != (size_t)(key_end - p) || strncmp(KEYS[key], p, (size_t)(key_end - p))) continue;
    if (key != KEY_EXPECT && (self->seen & (1u << key))) return parser__fail(self, "repeated key", KEYS[key]);
    if (value_length == 0) return parser__fail(self, "missing value for", KEYS[key]);
    if (key == KEY_EXPECT && !(self->seen & (1u << KEY_METRIC))) {
      return parser__fail(self, "`expect` must come after `metric`", NULL);
    }
    self->seen |= 1u << key;
    char *trimmed = gl_strndup(value, value_length);
    bool ok = parser__apply(self, script, (Key)key, trimmed);
    free(trimmed);
    return ok;
  }
  char *name = gl_strndup(p, (size_t)(key_end - p));
  parser__fail(self, "unknown key", name);
  free(name);
  return false;
}

/* ---- Whole headers ------------------------------------------------------ */

#define BIT(key) (1u << (key))
#define BOTH_KEYS (BIT(KEY_RULE) | BIT(KEY_CASE) | BIT(KEY_ROLE) | BIT(KEY_TITLE))
#define BAD_KEYS (BIT(KEY_EFFECT) | BIT(KEY_METRIC) | BIT(KEY_STEPS))
#define BAD_ONLY (BAD_KEYS | BIT(KEY_STEADY) | BIT(KEY_EXPECT) | BIT(KEY_RAISES))

/* The rules a header must follow once all its lines are read. */
static bool parser__check(Parser *self, Script *script) {
  for (int key = 0; key < KEY_COUNT; key++) {
    bool needed = (BOTH_KEYS & BIT(key)) || (script->role == ROLE_BAD && (BAD_KEYS & BIT(key)));
    if (needed && !(self->seen & BIT(key))) return parser__fail(self, "header lacks", KEYS[key]);
  }
  if (script->role == ROLE_GOOD && (self->seen & BAD_ONLY)) {
    return parser__fail(self, "only the bad script declares effect, metric, steps, steady, expect, raises", NULL);
  }
  if (script->role == ROLE_GOOD) return true;
  if (!metric_fits_effect(script->metric, script->effect)) {
    return parser__fail(self, "the metric does not measure the effect", metric_name(script->metric));
  }
  if ((script->metric == METRIC_CRASH) != (script->raises != NULL)) {
    return parser__fail(self, "`raises` goes with metric crash, and only with it", NULL);
  }
  if (script->metric != METRIC_CRASH && script->expectations.size == 0) {
    return parser__fail(self, "header lacks", "expect");
  }
  if (script->steady >= script->steps) return parser__fail(self, "steady must be below steps", NULL);
  return true;
}

/* Walks the header: optional shebang, then `# verify:` lines; a directive
 * anywhere after the header is an error. */
static bool script__read(Script *self, Parser *parser, const char *text) {
  bool in_header = true;
  for (const char *line = text; *line; parser->line++) {
    const char *end = strchr(line, '\n');
    size_t length = end ? (size_t)(end - line) : strlen(line);
    char *copy = gl_strndup(line, length);
    bool directive = strncmp(copy, DIRECTIVE, strlen(DIRECTIVE)) == 0;
    bool ok = true;
    if (directive && in_header) ok = parser__line(parser, self, copy);
    else if (directive) ok = parser__fail(parser, "`# verify:` after the header", NULL);
    else if (!(parser->line == 1 && strncmp(copy, "#!", 2) == 0)) in_header = false;
    free(copy);
    if (!ok) return false;
    line += length + (end ? 1 : 0);
  }
  return true;
}

bool script_parse(Script *self, const char *path, const char *text, char **error) {
  *self = (Script){0};
  self->path = gl_strdup(path);
  Parser parser = {path, 1, NULL, 0};
  bool ok = script__read(self, &parser, text);
  if (ok) {
    parser.line = 1;
    ok = parser__check(&parser, self);
  }
  if (!ok) {
    *error = parser.error;
    script_delete(self);
  }
  return ok;
}

void script_delete(Script *self) {
  free(self->path);
  free(self->rule);
  free(self->name);
  free(self->title);
  free(self->raises);
  array_delete(&self->expectations);
  *self = (Script){0};
}

/* ---- Pairs -------------------------------------------------------------- */

static int repro__compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the `*_bad.py` files in `dir`; caller frees. */
typedef Array(char *) NameList;

/* Whether `dir/STEM_good.py` has its `STEM_bad.py`. */
static bool repro__has_bad(const char *dir, const char *good_name, char **error) {
  char *bad = gl_format("%s/%.*s_bad.py", dir, (int)(strlen(good_name) - 8), good_name);
  bool found = access(bad, R_OK) == 0;
  if (!found) *error = gl_format("%s/%s: no %s beside it", dir, good_name, bad);
  free(bad);
  return found;
}

static bool repro__bad_names(const char *dir, NameList *names, char **error) {
  DIR *handle = opendir(dir);
  if (!handle) {
    *error = gl_format("cannot read the reproductions in %s: %s", dir, strerror(errno));
    return false;
  }
  bool ok = true;
  for (struct dirent *entry; ok && (entry = readdir(handle));) {
    size_t length = strlen(entry->d_name);
    if (length > 7 && strcmp(entry->d_name + length - 7, "_bad.py") == 0) {
      array_push(names, gl_strdup(entry->d_name));
    } else if (length > 8 && strcmp(entry->d_name + length - 8, "_good.py") == 0) {
      ok = repro__has_bad(dir, entry->d_name, error);
    }
  }
  closedir(handle);
  if (!ok) return false;
  if (names->size) qsort(names->contents, names->size, sizeof(char *), repro__compare_names);
  return true;
}

static bool repro__load_script(Script *script, const char *path, Role role, char **error) {
  char *text = text_read_file(path, error);
  if (!text) return false;
  bool ok = script_parse(script, path, text, error);
  free(text);
  if (ok && script->role != role) {
    *error = gl_format("%s: role must be %s", path, role == ROLE_BAD ? "bad" : "good");
    script_delete(script);
    return false;
  }
  return ok;
}

/* Loads `dir/STEM_bad.py` and `dir/STEM_good.py` and checks they agree. */
static bool repro__load(Repro *self, const char *dir, const char *bad_name, char **error) {
  char *bad_path = gl_format("%s/%s", dir, bad_name);
  char *good_path = gl_format("%s/%.*s_good.py", dir, (int)(strlen(bad_name) - 7), bad_name);
  bool ok = repro__load_script(&self->bad, bad_path, ROLE_BAD, error);
  if (ok && !repro__load_script(&self->good, good_path, ROLE_GOOD, error)) {
    script_delete(&self->bad);
    ok = false;
  }
  if (ok && (strcmp(self->bad.rule, self->good.rule) || strcmp(self->bad.name, self->good.name))) {
    *error = gl_format("%s: rule and case must match %s", good_path, bad_path);
    script_delete(&self->bad);
    script_delete(&self->good);
    ok = false;
  }
  free(bad_path);
  free(good_path);
  return ok;
}

bool repro_list_load(ReproList *self, const char *dir, char **error) {
  NameList names = array_new();
  bool ok = repro__bad_names(dir, &names, error);
  for (uint32_t i = 0; ok && i < names.size; i++) {
    Repro repro;
    ok = repro__load(&repro, dir, names.contents[i], error);
    if (ok) array_push(self, repro);
  }
  for (uint32_t i = 0; i < names.size; i++) free(names.contents[i]);
  array_delete(&names);
  if (ok && self->size == 0) {
    *error = gl_format("no reproductions (*_bad.py) in %s", dir);
    ok = false;
  }
  if (!ok) repro_list_delete(self);
  return ok;
}

void repro_list_delete(ReproList *self) {
  for (uint32_t i = 0; i < self->size; i++) {
    script_delete(&self->contents[i].bad);
    script_delete(&self->contents[i].good);
  }
  array_delete(self);
}
