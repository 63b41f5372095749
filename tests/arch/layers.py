#!/usr/bin/env python3
"""Checks the #include "..." lines of src/ against src/LAYERS.

Usage: layers.py [SRC_DIR [LAYERS_FILE]]   (default: the src/ next to tests/)

Fails (exit 1), naming the file, the line and the include, when
  - a file includes a header of a folder its own folder may not use (an
    arrow that runs back up a layer, or sideways between folders of a layer);
  - a file includes another folder's private header (*_int.h);
  - a folder that holds sources is not in the table, or has no
    CMakeLists.txt (its library) or README.md (what it is, what it may use);
  - two headers of src/ share a name (a bare #include "x.h" must name one).
Headers in include/augur/ are public to every folder; system headers
(<...>) are not checked.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_layers(path):
    uses = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("#", 1)[0].split()
        if not line:
            continue
        folder, deps = line[0], line[1:]
        if folder in uses:
            sys.exit(f"{path}:{n}: {folder} listed twice")
        for d in deps:
            if d not in uses:
                sys.exit(f"{path}:{n}: {folder} uses {d}, which is not listed above it")
        uses[folder] = set(deps)
    # transitive: a folder may use what the folders it uses may use
    allowed = {}
    for folder, deps in uses.items():  # bottom-up, so deps are done
        a = set(deps)
        for d in deps:
            a |= allowed[d]
        allowed[folder] = a
    return allowed


def folder_of(rel, folders):
    """The deepest folder of the table that holds rel (a path under src/)."""
    best = None
    for f in folders:
        if rel.startswith(f + "/") and (best is None or len(f) > len(best)):
            best = f
    return best


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "src")
    layers = sys.argv[2] if len(sys.argv) > 2 else os.path.join(src, "LAYERS")
    src = os.path.normpath(src)
    allowed = read_layers(layers)
    errors = []

    files = []
    for d, _, names in os.walk(src):
        for name in names:
            if name.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(d, name), src))
    files.sort()
    headers = {}
    for rel in files:
        if rel.endswith(".h"):
            headers.setdefault(os.path.basename(rel), []).append(rel)
    for name, where in sorted(headers.items()):
        if len(where) > 1:
            errors.append(f"src/{where[0]}: header name {name} also in " +
                          ", ".join("src/" + w for w in where[1:]))

    seen = set()
    for rel in files:
        folder = folder_of(rel, allowed)
        top = os.path.dirname(rel)
        if folder is None:
            if top not in seen:
                errors.append(f"src/{top}/: folder not in {os.path.relpath(layers)}")
                seen.add(top)
            continue
        if folder not in seen:
            seen.add(folder)
            for need in ("CMakeLists.txt", "README.md"):
                if not os.path.exists(os.path.join(src, folder, need)):
                    errors.append(f"src/{folder}/: no {need}")
        for n, line in enumerate(open(os.path.join(src, rel), encoding="utf-8",
                                      errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            if inc.startswith("augur/"):
                continue  # include/augur: the public API
            # "x.h" next to the file, else "dir/x.h" under src/, else the
            # one header of src/ with that name (per-target include paths)
            local = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if local in files:
                target = local
            elif os.path.normpath(inc) in files:
                target = os.path.normpath(inc)
            elif os.path.basename(inc) in headers:
                target = headers[os.path.basename(inc)][0]
            else:
                continue  # not a header of src/ (e.g. a generated one)
            tf = folder_of(target, allowed)
            if tf is None or tf == folder:
                continue
            where = f"src/{rel}:{n}: #include \"{inc}\" (src/{target})"
            if tf not in allowed[folder]:
                errors.append(f"{where}: {folder} may not use {tf} (src/LAYERS)")
            elif os.path.basename(target).endswith("_int.h"):
                errors.append(f"{where}: private header of {tf}")
    for e in errors:
        print(e)
    if errors:
        print(f"layers: {len(errors)} error(s)")
        return 1
    print(f"layers: {len(files)} files of {len(allowed)} folders follow {os.path.relpath(layers)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
