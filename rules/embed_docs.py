#!/usr/bin/env python3
"""Embeds every rules/gpuNNN_*.md into a C table: rule_docs_for("GPU101").

Usage: embed_docs.py OUTPUT.c DOC.md...
"""
import os
import sys


def c_string(text):
    out = []
    for line in text.splitlines(keepends=True):
        escaped = line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        out.append('    "%s"' % escaped)
    return "\n".join(out) if out else '    ""'


def main():
    output, docs = sys.argv[1], sorted(sys.argv[2:])
    with open(output, "w", encoding="utf-8") as f:
        f.write("/* Generated from the rules Markdown pages by embed_docs.py; do not edit. */\n")
        f.write('#include <string.h>\n#include <strings.h>\n#include "rule.h"\n\n')
        f.write("static const struct { const char *code; const char *docs; } DOCS[] = {\n")
        for path in docs:
            code = os.path.basename(path).split("_", 1)[0].upper()
            with open(path, encoding="utf-8") as doc:
                f.write('  {"%s",\n%s},\n' % (code, c_string(doc.read())))
        f.write("};\n\n")
        f.write("const char *rule_docs_for(const char *code) {\n")
        f.write("  for (size_t i = 0; i < sizeof DOCS / sizeof DOCS[0]; i++) {\n")
        f.write("    if (strcasecmp(DOCS[i].code, code) == 0) return DOCS[i].docs;\n")
        f.write("  }\n  return NULL;\n}\n")


if __name__ == "__main__":
    main()
