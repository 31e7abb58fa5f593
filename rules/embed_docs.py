#!/usr/bin/env python3
"""Embeds every rules/gpuNNN_*.md into a C table: rule_docs_for("GPU101").

Usage: embed_docs.py OUTPUT.c DOC.md...
"""
import os
import sys


def c_bytes(text):
    """The page as a NUL-terminated char array initializer: C11 compilers
    need only accept string literals of 4,095 characters, and pages are
    longer."""
    data = text.encode("utf-8") + b"\0"
    rows = [",".join("'\\x%02x'" % byte for byte in data[i:i + 16]) for i in range(0, len(data), 16)]
    return "{\n    " + ",\n    ".join(rows) + "}"


def main():
    output, docs = sys.argv[1], sorted(sys.argv[2:])
    with open(output, "w", encoding="utf-8") as f:
        f.write("/* Generated from the rules Markdown pages by embed_docs.py; do not edit. */\n")
        f.write('#include <string.h>\n#include <strings.h>\n#include "rule.h"\n\n')
        codes = []
        for path in docs:
            code = os.path.basename(path).split("_", 1)[0].upper()
            codes.append(code)
            with open(path, encoding="utf-8") as doc:
                f.write("static const char DOCS_%s[] = %s;\n\n" % (code, c_bytes(doc.read())))
        f.write("static const struct { const char *code; const char *docs; } DOCS[] = {\n")
        for code in codes:
            f.write('  {"%s", DOCS_%s},\n' % (code, code))
        f.write("};\n\n")
        f.write("const char *rule_docs_for(const char *code) {\n")
        f.write("  for (size_t i = 0; i < sizeof DOCS / sizeof DOCS[0]; i++) {\n")
        f.write("    if (strcasecmp(DOCS[i].code, code) == 0) return DOCS[i].docs;\n")
        f.write("  }\n  return NULL;\n}\n")


if __name__ == "__main__":
    main()
