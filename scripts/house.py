#!/usr/bin/env python3
"""The house rules of the code, measured: functions over 100 lines, files over
1,000 lines (tests excluded: `tests.rs`, `tests/` folders, `#[cfg(test)]`
modules), and import circles between files, in src/ and crates/.

Usage: scripts/house.py [--check]   (--check: exit 1 when a rule is broken)
"""
import os
import re
import sys
from collections import defaultdict

ROOTS = ["src", "crates"]
MAX_FN, MAX_FILE = 100, 1000


def rust_files():
    for root in ROOTS:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in ("target", "tests")]
            for name in filenames:
                if name.endswith(".rs") and name != "tests.rs":
                    yield os.path.join(dirpath, name)


def strip(line):
    """The line without comments and string contents (roughly)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])'", "''", line)
    return line.split("//")[0]


def code_lines(path):
    """Lines before the file's `#[cfg(test)] mod tests`."""
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        if line.startswith("#[cfg(test)]") and i + 1 < len(lines) and lines[i + 1].startswith("mod tests"):
            return lines[:i]
    return lines


FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def long_functions(path, lines):
    found = []
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            text = strip(lines[j])
            if not started and ";" in text and "{" not in text:
                break  # a declaration without a body
            depth += text.count("{") - text.count("}")
            started = started or "{" in text
            if started and depth <= 0:
                break
            j += 1
        length = j - i + 1
        if started and length > MAX_FN:
            found.append((length, f"{path}:{i + 1} {m.group(6)}"))
        i += 1
    return found


def module_of(path):
    """The module path of a file, as `crate::a::b`."""
    parts = path.split(os.sep)
    if parts[0] == "crates":
        crate, rest = parts[1].replace("-", "_"), parts[3:]
    else:
        crate, rest = "perft", parts[1:]
    rest[-1] = rest[-1][:-3]
    if rest[-1] in ("mod", "lib", "main"):
        rest = rest[:-1]
    return crate, rest


def expand(tree):
    """`a::{b, c::{d, e}}` as `a::b`, `a::c::d`, `a::c::e`."""
    start = tree.find("{")
    if start < 0:
        return [tree.split(" as ")[0].rstrip(":")]
    prefix, depth, parts, current = tree[:start], 0, [], ""
    for ch in tree[start + 1 : tree.rfind("}")]:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += (ch == "{") - (ch == "}")
        current += ch
    parts.append(current)
    return [used for part in parts if part for used in expand(prefix + part)]


def circles(files):
    """Pairs and cycles of files that import each other (`use crate::...`,
    `use super::...`)."""
    modules = {}
    for path in files:
        crate, rest = module_of(path)
        modules[(crate, tuple(rest))] = path
    edges = defaultdict(set)
    for path in files:
        crate, rest = module_of(path)
        here = rest
        text = "\n".join(strip(line) for line in code_lines(path))
        paths = [used for m in re.finditer(r"\buse\s+([^;]*);", text) for used in expand(re.sub(r"\s+", "", m.group(1)))]
        # Paths written out in the code, without a `use`.
        paths += re.findall(r"(?<![\w:])((?:crate|super)(?:::\w+)+)", re.sub(r"\buse\s+[^;]*;", "", text))
        for used in paths:
            segs = used.split("::")
            if segs[0] == "crate":
                base, segs = [], segs[1:]
            elif segs[0] in ("self", "super"):
                base = list(here)
                if segs[0] == "self":
                    segs = segs[1:]
                while segs and segs[0] == "super":
                    base, segs = base[:-1], segs[1:]
            else:
                continue
            target = base + segs
            # The longest prefix that is a file of ours.
            while target and (crate, tuple(target)) not in modules:
                target = target[:-1]
            dest = modules.get((crate, tuple(target)))
            if dest and dest != path:
                edges[path].add(dest)
    # Cycles: strongly connected components of more than one file.
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in list(files):
        if v not in index:
            visit(v)
    return out


def main():
    files = sorted(rust_files())
    broken = False
    fns = []
    for path in files:
        lines = code_lines(path)
        if len(lines) > MAX_FILE:
            print(f"file over {MAX_FILE} lines: {path} ({len(lines)})")
            broken = True
        fns += long_functions(path, lines)
    for length, where in sorted(fns, reverse=True):
        print(f"function over {MAX_FN} lines: {where} ({length})")
        broken = True
    for component in circles(files):
        print("import circle: " + " <-> ".join(component))
        broken = True
    if not broken:
        print(f"house rules kept: no function over {MAX_FN} lines, no file over {MAX_FILE}, no import circle")
    sys.exit(1 if broken and "--check" in sys.argv else 0)


main()
