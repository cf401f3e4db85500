#!/usr/bin/env python3
"""Holds the module layout to ARCHITECTURE.md (run by `make test`; exit 1 with one line per violation).

ARCHITECTURE.md's table between the `layers:begin` and `layers:end` markers is the rule: each Swift
module, its layer number, and the modules it may use. This script checks that
  - Package.swift (through `swift package dump-package`) gives every target exactly those dependencies,
    and lists no Swift target the table does not;
  - every dependency sits on a lower layer than its user (nothing reaches upward or sideways);
  - every `import` in a target's sources names a module from its row;
  - only ClawSystem imports the C library (Glibc, Musl, Darwin, …), whatever the table says: a port to
    another libc or to macOS changes one module. Test targets may import anything.
`--root DIR` checks another tree and `--package-dump FILE` reads `swift package dump-package`'s output from
FILE instead of running it (the checker's self-test, scripts/check-layers-test.py, uses both).
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
# Modules every Swift file may import: the standard library's own.
STANDARD = {"Swift", "_Concurrency", "_StringProcessing", "Synchronization"}
# The C library's Swift modules, on every platform Swift runs on: only SYSTEM_MODULE may import one.
C_LIBRARY = {"Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "ucrt", "WinSDK"}
SYSTEM_MODULE = "ClawSystem"
# The toolchain's own modules a row may list: no target of ours, so not in Package.swift.
TOOLCHAIN = C_LIBRARY | {"Foundation", "FoundationEssentials", "Dispatch"}
# C targets sit below every Swift layer.
C_LAYER = -1


def read_table(root):
    text = (root / "ARCHITECTURE.md").read_text()
    match = re.search(r"<!-- layers:begin -->(.*?)<!-- layers:end -->", text, re.S)
    if not match:
        sys.exit("check-layers: ARCHITECTURE.md has no <!-- layers:begin --> … <!-- layers:end --> table")
    rows = {}
    for line in match.group(1).splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].lstrip("-").isdigit():
            continue
        layer, module, uses = cells
        rows[module] = (int(layer), {u.strip().strip("`") for u in uses.split(",") if u.strip() and u.strip() != "—"})
    return rows


def dump_package(root):
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=root, capture_output=True, text=True)
    if dump.returncode != 0:
        sys.exit("check-layers: swift package dump-package failed: " + dump.stderr.strip().splitlines()[-1])
    return dump.stdout


def package_targets(dump):
    targets = {}
    for target in json.loads(dump)["targets"]:
        deps = set()
        for dep in target.get("dependencies", []):
            for kind in ("byName", "target", "product"):
                if kind in dep:
                    deps.add(dep[kind][0])
        targets[target["name"]] = (target["type"], deps, target.get("path"))
    return targets


def imports(root, directory):
    found = {}
    for path in sorted(directory.rglob("*.swift")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = re.match(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)", line)
            if m:
                found.setdefault(m.group(1), []).append(f"{path.relative_to(root)}:{number}")
    return found


def main():
    parser = argparse.ArgumentParser(description="Holds the module layout to ARCHITECTURE.md.")
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="the package to check (default: this checkout)")
    parser.add_argument("--package-dump", type=pathlib.Path, help="swift package dump-package's output, already made")
    arguments = parser.parse_args()
    root = arguments.root.resolve()
    rows = read_table(root)
    targets = package_targets(arguments.package_dump.read_text() if arguments.package_dump else dump_package(root))
    problems = []
    for name, (_, allowed) in sorted(rows.items()):
        if name != SYSTEM_MODULE and allowed & C_LIBRARY:
            problems.append(f"{name}: ARCHITECTURE.md's table lets it use {', '.join(sorted(allowed & C_LIBRARY))}; "
                            f"only {SYSTEM_MODULE} may use the C library")
    for name, (kind, deps, path) in sorted(targets.items()):
        sources = root / (path or f"Sources/{name}")
        if kind in ("system", "test") or not any(sources.rglob("*.swift")):
            continue  # C targets sit below every layer; tests may use anything
        if name not in rows:
            problems.append(f"{name}: a Swift target of Package.swift that ARCHITECTURE.md's layer table does not list")
            continue
        layer, allowed = rows[name]
        declared = allowed - TOOLCHAIN
        if deps != declared:
            problems.append(f"{name}: Package.swift depends on {sorted(deps)}, ARCHITECTURE.md says {sorted(declared)}")
        for dep in sorted(deps):
            dep_layer = rows[dep][0] if dep in rows else C_LAYER
            if dep_layer >= layer:
                problems.append(f"{name} (layer {layer}) depends on {dep} (layer {dep_layer}): dependencies must point down")
        for module, places in sorted(imports(root, sources).items()):
            if module in C_LIBRARY and name != SYSTEM_MODULE:
                problems.append(f"{places[0]}: {name} imports {module}; only {SYSTEM_MODULE} may import the C library "
                                f"(add what it needs to {SYSTEM_MODULE})")
            elif module not in STANDARD and module not in allowed:
                problems.append(f"{places[0]}: {name} imports {module}, which ARCHITECTURE.md does not let it use")
    for name in sorted(set(rows) - set(targets)):
        problems.append(f"{name}: in ARCHITECTURE.md's layer table but not a target of Package.swift")
    for problem in problems:
        print("check-layers: " + problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-layers: {len(rows)} modules, dependencies point down, imports as ARCHITECTURE.md allows, "
          f"only {SYSTEM_MODULE} imports the C library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
