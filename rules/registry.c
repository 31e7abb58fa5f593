/* registry.c — every rule, sorted by code. Adding a rule adds a line here. */
#include "rule.h"

extern const Rule GPU001_MISSING_ZERO_GRAD;
extern const Rule GPU002_ZERO_GRAD_BETWEEN_BACKWARD_AND_STEP;
extern const Rule GPU101_TENSOR_KEPT_WITH_GRAPH;
extern const Rule GPU102_HIDDEN_STATE_NOT_DETACHED;
extern const Rule GPU103_EVAL_WITHOUT_NO_GRAD;
extern const Rule GPU201_EMPTY_CACHE_IN_LOOP;
extern const Rule GPU900_SYNTAX_ERROR;
extern const Rule GPU901_UNUSED_NOQA;
extern const Rule GPU902_INVALID_NOQA;
extern const Rule GPU903_FILE_NOT_LINTED;

const Rule *const RULES[] = {
    &GPU001_MISSING_ZERO_GRAD,
    &GPU002_ZERO_GRAD_BETWEEN_BACKWARD_AND_STEP,
    &GPU101_TENSOR_KEPT_WITH_GRAPH,
    &GPU102_HIDDEN_STATE_NOT_DETACHED,
    &GPU103_EVAL_WITHOUT_NO_GRAD,
    &GPU201_EMPTY_CACHE_IN_LOOP,
    &GPU900_SYNTAX_ERROR,
    &GPU901_UNUSED_NOQA,
    &GPU902_INVALID_NOQA,
    &GPU903_FILE_NOT_LINTED,
};

const uint32_t RULE_COUNT = sizeof RULES / sizeof RULES[0];
