/* rule.h — what a rule is, and what it may use.
 *
 * A rule is a static Rule in rules/: its public metadata and a check
 * function that reads the file's facts and reports findings. The registry
 * (rules/registry.c) lists every rule; adding one touches rules/ only. */
#ifndef GPULINT_RULE_H
#define GPULINT_RULE_H

#include <tree_sitter/api.h>

#include "facts.h"
#include "fixes.h"
#include "flow.h"
#include "gpulint.h"
#include "links.h"
#include "source.h"

typedef struct RuleContext RuleContext;

typedef struct {
  GlRuleInfo info;
  /* Reads ctx->facts and calls rule_report for each finding. NULL for rules
   * the engine reports itself (GPU900). */
  void (*check)(RuleContext *ctx);
} Rule;

struct RuleContext {
  const Source *source;
  const Facts *facts;
  Flow *flow; /* which values carry an autograd graph */
  Links *links; /* the project's other files (the facts were settled with links_elsewhere of them); may be NULL */
  bool pedantic; /* report findings whose only evidence is a name, or whose
                    harm the code does not show (Basis.pedantic) */
  TSNode root;
  const Rule *rule;
  uint32_t rule_index;
  void *findings; /* the engine's list; rules only go through rule_report */
};

/* Reports a finding of ctx->rule at `node` with a printf-style message.
 * Returns it, for a fix (fixes.h) attached before the next report; NULL
 * when it is not reported (a name-only or pedantic basis without
 * --pedantic).
 *
 * The message is one line of about 100 characters (at most
 * RULE_MESSAGE_MAX): what is wrong and what to do, with the names and
 * lines that are its evidence (rule_shown keeps them short). How the
 * pitfall works and what it measured, on which device, go to the
 * finding's detail (Basis.detail). */
GlFinding *rule_report(RuleContext *ctx, TSNode node, GlEffect effect, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#define RULE_MESSAGE_MAX 140

/* What a finding rests on, and its detail. */
typedef struct {
  bool name_only;       /* only a name says so (a callee called `model`, a
                           helper called `compute_loss`): reported only
                           with --pedantic */
  const Linked *linked; /* a fact from another file of the project: the
                           finding names it as its related location */
  bool warning;         /* a milder variant: severity warning whatever the
                           rule's */
  const char *detail;   /* the finding's detail (copied), or NULL: the
                           mechanism and the measured numbers of this
                           variant, with the device they were measured on */
  bool pedantic;        /* the pattern is there but the code does not show
                           the fact that makes it harmful (the rule's page
                           says which fact): reported only with --pedantic */
} Basis;

/* rule_report with a basis. */
GlFinding *rule_report_on(RuleContext *ctx, TSNode node, GlEffect effect, Basis basis, const char *format, ...)
    __attribute__((format(printf, 5, 6)));

/* Where a node is, for messages that point elsewhere: "line 12", or in
 * notebooks "cell 3, line 4". Writes into `buffer` and returns it. */
typedef struct {
  char text[40];
} Where;
const char *rule_where(const RuleContext *ctx, TSNode node, Where *buffer);

/* A name or an expression as a message shows it: on one line (runs of
 * blanks and line breaks as one space), cut to `max` bytes (at most
 * RULE_SHOWN_MAX) with "..." at a character boundary. Writes into
 * `buffer` and returns it. */
#define RULE_SHOWN_MAX 36
typedef struct {
  char text[RULE_SHOWN_MAX + 1];
} Shown;
const char *rule_shown(const char *text, size_t length, size_t max, Shown *buffer);

/* The registry, sorted by code. */
extern const Rule *const RULES[];
extern const uint32_t RULE_COUNT;

/* The embedded docs of `code`, or NULL (rules/docs.c, generated). */
const char *rule_docs_for(const char *code);

#endif
