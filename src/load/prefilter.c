/* prefilter.c — trigger words, found in one pass over the bytes. */
#include "prefilter.h"

#include <pthread.h>
#include <string.h>

#include "facts.h"
#include "rule.h"

enum {
  TRIGGER_BACKWARD = 1u << 0,    /* an EV_BACKWARD call */
  TRIGGER_EMPTY_CACHE = 1u << 1, /* an EV_EMPTY_CACHE call */
  TRIGGER_TORCH = 1u << 2,       /* an import or use of torch: sets facts->uses_torch */
  TRIGGER_CLIP = 1u << 3,        /* a gradient clip of torch's */
  TRIGGER_MOVE = 1u << 4,        /* a device or dtype move: `to`, `cuda`, `half`, ... */
  TRIGGER_EVAL = 1u << 5,        /* a switch to evaluation mode */
  TRIGGER_SYNC = 1u << 6,        /* a host sync or a host-built tensor moved per step */
  TRIGGER_RETAIN = 1u << 7,      /* a backward that keeps its graph, a kept grad_fn */
  TRIGGER_LOAD = 1u << 8,        /* a checkpoint load */
  TRIGGER_CHECKPOINT = 1u << 9,  /* activation checkpointing */
};

/* What each rule needs in the text before it can report. */
static const struct {
  const char *code;
  uint16_t triggers;
} RULE_TRIGGERS[] = {
    {"GPU001", TRIGGER_BACKWARD}, /* needs a backward and a step */
    {"GPU002", TRIGGER_BACKWARD}, /* a clear between backward and step */
    {"GPU003", TRIGGER_TORCH | TRIGGER_BACKWARD | TRIGGER_MOVE}, /* a tensor needs uses_torch (`.to(` is no word) */
    {"GPU004", TRIGGER_BACKWARD}, /* a training loop; the switch may be in another file */
    {"GPU005", TRIGGER_CHECKPOINT}, /* an activation checkpoint */
    {"GPU101", TRIGGER_TORCH | TRIGGER_BACKWARD}, /* flow_carries is false without torch */
    {"GPU102", TRIGGER_TORCH | TRIGGER_BACKWARD}, /* forwards need facts_is_module */
    {"GPU103", TRIGGER_TORCH | TRIGGER_BACKWARD}, /* forwards need facts_is_module */
    {"GPU104", TRIGGER_RETAIN}, /* a backward that keeps its graph */
    {"GPU201", TRIGGER_EMPTY_CACHE},
    {"GPU301", TRIGGER_SYNC | TRIGGER_BACKWARD}, /* a wait in a training loop */
    {"GPU302", TRIGGER_SYNC}, /* a torch factory (the move is `.to(`/`.cuda(`) */
    {"GPU401", TRIGGER_CLIP}, /* a clip after a scaled backward */
    {"GPU501", TRIGGER_LOAD}, /* a torch.load */
};

#define MAX_WORDS 64
#define MAX_WORD_LENGTH 32

typedef struct {
  const char *text;
  uint32_t length;
  uint16_t trigger;
} Word;

static Word words[MAX_WORDS];
static uint32_t word_count;
static uint32_t lengths_by_first[128]; /* bit n: some word of length n starts with this byte */
static uint8_t heads[65536 / 8]; /* bit: some word starts with three bytes of this hash */
static pthread_once_t prefilter_once = PTHREAD_ONCE_INIT;

/* A 16-bit hash of the three bytes at `s`. */
static inline uint32_t prefilter__head(const unsigned char *s) {
  uint32_t three = s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16;
  return (three * 0x9E3779B1u) >> 16;
}

static void prefilter__add(const char *text, uint16_t trigger) {
  uint32_t length = (uint32_t)strlen(text);
  if (word_count == MAX_WORDS || length < 3 || length >= MAX_WORD_LENGTH) return;
  words[word_count++] = (Word){text, length, trigger};
  lengths_by_first[(unsigned char)text[0] & 127] |= 1u << length;
  uint32_t head = prefilter__head((const unsigned char *)text);
  heads[head >> 3] |= (uint8_t)(1u << (head & 7));
}

static void prefilter__init(void) {
  prefilter__add("backward", TRIGGER_BACKWARD);
  prefilter__add("manual_backward", TRIGGER_BACKWARD);
  prefilter__add("empty_cache", TRIGGER_EMPTY_CACHE);
  prefilter__add("retain_graph", TRIGGER_RETAIN);
  prefilter__add("load", TRIGGER_LOAD);
  prefilter__add("checkpoint", TRIGGER_CHECKPOINT);
  prefilter__add("checkpoint_sequential", TRIGGER_CHECKPOINT);
  prefilter__add("clip_grad_norm_", TRIGGER_CLIP);
  prefilter__add("clip_grad_norm", TRIGGER_CLIP);
  prefilter__add("clip_grad_value_", TRIGGER_CLIP);
  prefilter__add("clip_grads_with_norm_", TRIGGER_CLIP);
  static const char *const SYNC_WORDS[] = {"zeros", "ones", "full", "empty", "eye", "arange", "linspace",
                                           "logspace", "rand", "randn", "randint", "randperm", "Tensor",
                                           "FloatTensor", "item", "cpu", "tolist", "numpy", "synchronize", NULL};
  for (const char *const *word = SYNC_WORDS; *word; word++) prefilter__add(*word, TRIGGER_SYNC);
  uint32_t count = 0;
  const char *const *modules = facts_torch_modules(&count);
  for (uint32_t i = 0; i < count; i++) prefilter__add(modules[i], TRIGGER_TORCH);
}

/* The triggers of the rules in `rules` that need the facts; sets *parse
 * when an enabled rule is reported by the engine from the tree alone. */
static uint32_t prefilter__wanted(const GlRuleSet *rules, bool *parse) {
  uint32_t wanted = 0;
  for (uint32_t i = 0; i < RULE_COUNT; i++) {
    if (!rules->enabled[i]) continue;
    if (!RULES[i]->check) {
      *parse = true;
      continue;
    }
    uint32_t triggers = UINT32_MAX; /* a rule not in the table always runs */
    for (size_t j = 0; j < sizeof RULE_TRIGGERS / sizeof RULE_TRIGGERS[0]; j++) {
      if (strcmp(RULE_TRIGGERS[j].code, RULES[i]->info.code) == 0) triggers = RULE_TRIGGERS[j].triggers;
    }
    wanted |= triggers;
  }
  return wanted;
}

/* [A-Za-z0-9_]: 1 for letters and '_', 2 for digits. */
static const uint8_t WORD_CHAR[256] = {
    ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2, ['7'] = 2, ['8'] = 2, ['9'] = 2,
    ['_'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1,
    ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1,
    ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1,
    ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
};

/* The trigger bits of the word `text`, 0 when it is none. */
static uint32_t prefilter__match(const char *text, uint32_t length) {
  if (length >= MAX_WORD_LENGTH || !(lengths_by_first[(unsigned char)text[0] & 127] & (1u << length))) return 0;
  for (uint32_t i = 0; i < word_count; i++) {
    if (words[i].length == length && memcmp(words[i].text, text, length) == 0) return words[i].trigger;
  }
  return 0;
}

/* Whether a word may start at `at`, inside the identifier-like run of
 * [A-Za-z0-9_] that holds it: at the run's start, or anywhere in a run that
 * starts with a digit (`1torch`: the parser may split a number from a
 * name) and is at most 64 bytes long. */
static bool prefilter__starts_word(const unsigned char *s, uint32_t at, uint32_t length) {
  if (at == 0 || !WORD_CHAR[s[at - 1]]) return true;
  uint32_t start = at, end = at;
  while (start > 0 && WORD_CHAR[s[start - 1]] && at - start < 64) start--;
  if (WORD_CHAR[s[start]] != 2 || (start > 0 && WORD_CHAR[s[start - 1]])) return false;
  while (end < length && WORD_CHAR[s[end]] && end - start <= 64) end++;
  return end - start <= 64;
}

/* The trigger bits of the words found as whole runs (or suffixes of
 * digit-led runs, see above) of [A-Za-z0-9_]: a Python identifier made of
 * ASCII is always one such run. Only where the hash of three bytes is that
 * of a trigger word's first three is the position looked at closely, so
 * the scan is one table look-up per byte. */
static uint32_t prefilter__find(const char *bytes, uint32_t length, uint32_t wanted) {
  const unsigned char *s = (const unsigned char *)bytes;
  uint32_t found = 0;
  for (uint32_t i = 0; i + 2 < length && !(found & wanted); i++) {
    uint32_t head = prefilter__head(s + i);
    if (!(heads[head >> 3] & (1u << (head & 7)))) continue;
    if (!prefilter__starts_word(s, i, length)) continue;
    uint32_t end = i + 3;
    while (end < length && WORD_CHAR[s[end]] && end - i < MAX_WORD_LENGTH) end++;
    found |= prefilter__match(bytes + i, end - i);
  }
  return found;
}

PrefilterVerdict prefilter_scan(const char *bytes, uint32_t length, const GlRuleSet *rules) {
  pthread_once(&prefilter_once, prefilter__init);
  bool parse = false;
  uint32_t wanted = prefilter__wanted(rules, &parse);
  if (wanted == UINT32_MAX || (wanted && (prefilter__find(bytes, length, wanted) & wanted))) return PREFILTER_RUN;
  return parse ? PREFILTER_PARSE_ONLY : PREFILTER_SKIP;
}
