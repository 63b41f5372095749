#!/usr/bin/env python3
"""Prints, one a line and sorted, the names the public headers mark AUGUR_API:
what libaugur.so must export, exactly (tests/install/libaugur.sh).

Usage: api_names.py INCLUDE_AUGUR_DIR

A declaration is `AUGUR_API ... NAME(` (a function) or `AUGUR_API ... NAME;`
/ `NAME[` (an object), possibly over several lines; comments and
preprocessor lines are dropped first (api.h's `#define AUGUR_API`)."""
import glob
import os
import re
import sys

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
DECL = re.compile(r"\bAUGUR_API\b[^;{]*?\b([A-Za-z_]\w*)\s*[(\[;]")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: api_names.py INCLUDE_AUGUR_DIR")
    headers = sorted(glob.glob(os.path.join(sys.argv[1], "*.h")))
    if not headers:
        sys.exit(f"api_names.py: no headers in {sys.argv[1]}")
    names = set()
    for h in headers:
        with open(h, encoding="utf-8") as f:
            text = DIRECTIVE.sub("", COMMENT.sub(" ", f.read()))
        names.update(m.group(1) for m in DECL.finditer(text))
    for n in sorted(names):
        print(n)


if __name__ == "__main__":
    main()
