/* parsed.h — a source parsed and walked, for unit tests of facts and flow. */
#ifndef GPULINT_TESTS_PARSED_H
#define GPULINT_TESTS_PARSED_H

#include <string.h>

#include "facts.h"
#include "flow.h"
#include "settle.h"

typedef struct {
  Source *source;
  TSParser *parser;
  TSTree *tree;
  Facts *facts;
  Flow *flow;
} Parsed;

static inline Parsed parse(const char *text) {
  syntax_init();
  Parsed parsed = {0};
  parsed.source = source_new("t.py", text, strlen(text));
  parsed.parser = ts_parser_new();
  ts_parser_set_language(parsed.parser, tree_sitter_python());
  parsed.tree = ts_parser_parse_string(parsed.parser, NULL, text, (uint32_t)strlen(text));
  parsed.facts = facts_new(parsed.source, ts_tree_root_node(parsed.tree), NULL);
  parsed.flow = flow_new(parsed.facts);
  return parsed;
}

static inline void parsed_delete(Parsed *parsed) {
  flow_delete(parsed->flow);
  facts_delete(parsed->facts);
  ts_tree_delete(parsed->tree);
  ts_parser_delete(parsed->parser);
  source_delete(parsed->source);
}

#endif
