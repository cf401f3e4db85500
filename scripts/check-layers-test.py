#!/usr/bin/env python3
"""The self-test of scripts/check-layers.py (run by `make check-layers`, so by `make test`).

Copies this checkout's ARCHITECTURE.md and Sources/ into a temporary tree, breaks one rule at a time
and checks that the checker fails, naming the file; the unbroken tree passes. One line per check,
`ok - …` or `not ok - …`; exit 1 when any failed. Package.swift is dumped once (it is not changed).
"""
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHECKER = ROOT / "scripts" / "check-layers.py"


def run_checker(tree, dump):
    return subprocess.run([sys.executable, str(CHECKER), "--root", str(tree), "--package-dump", str(dump)],
                          capture_output=True, text=True)


def fresh_tree(parent, name):
    tree = parent / name
    tree.mkdir()
    shutil.copy(ROOT / "ARCHITECTURE.md", tree / "ARCHITECTURE.md")
    shutil.copytree(ROOT / "Sources", tree / "Sources")
    return tree


def add_file(tree, relative, text):
    path = tree / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def grant_in_table(tree, module, extra):
    """Adds `extra` to what ARCHITECTURE.md's layer table lets `module` use."""
    path = tree / "ARCHITECTURE.md"
    text = path.read_text()
    start = text.index("<!-- layers:begin -->")
    row = f"| `{module}` | "
    at = text.index(row, start) + len(row)
    path.write_text(text[:at] + extra + ", " + text[at:])


# (description, expect failure, the words the failure must contain, how to break the tree)
CASES = [
    ("this checkout's tree passes", False, None, lambda tree: None),
    ("an import of Glibc in the openclaw target fails, naming the file", True,
     "Sources/openclaw/IO/LayerProbe.swift:1: openclaw imports Glibc; only ClawSystem may import the C library",
     lambda tree: add_file(tree, "Sources/openclaw/IO/LayerProbe.swift", "import Glibc\n")),
    ("an attributed import of Darwin in a library layer fails", True,
     "Sources/ClawJSON/LayerProbe.swift:2: ClawJSON imports Darwin; only ClawSystem may import the C library",
     lambda tree: add_file(tree, "Sources/ClawJSON/LayerProbe.swift", "// probe\n@preconcurrency import Darwin\n")),
    ("a scoped import of Musl in the simulator fails", True,
     "Sources/openclaw-gateway-sim/LayerProbe.swift:1: openclaw-gateway-sim imports Musl; only ClawSystem may import the C library",
     lambda tree: add_file(tree, "Sources/openclaw-gateway-sim/LayerProbe.swift", "import func Musl.write\n")),
    ("granting Glibc in ARCHITECTURE.md's table does not let the CLI import it", True,
     "openclaw: ARCHITECTURE.md's table lets it use Glibc; only ClawSystem may use the C library",
     lambda tree: (grant_in_table(tree, "openclaw", "Glibc"),
                   add_file(tree, "Sources/openclaw/IO/LayerProbe.swift", "import Glibc\n"))),
    ("an import of Glibc in ClawSystem passes", False, None,
     lambda tree: add_file(tree, "Sources/ClawSystem/LayerProbe.swift", "import Glibc\n")),
    ("a module the row does not list still fails (Foundation in the CLI)", True,
     "Sources/openclaw/IO/LayerProbe.swift:1: openclaw imports Foundation, which ARCHITECTURE.md does not let it use",
     lambda tree: add_file(tree, "Sources/openclaw/IO/LayerProbe.swift", "import Foundation\n")),
]


def main():
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True)
    if dump.returncode != 0:
        print("not ok - swift package dump-package failed: " + dump.stderr.strip())
        return 1
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check-layers-test-") as scratch:
        scratch = pathlib.Path(scratch)
        dump_file = scratch / "package.json"
        dump_file.write_text(dump.stdout)
        for number, (description, should_fail, words, breakage) in enumerate(CASES, 1):
            tree = fresh_tree(scratch, f"tree{number}")
            breakage(tree)
            result = run_checker(tree, dump_file)
            output = result.stdout + result.stderr
            if should_fail:
                passed = result.returncode == 1 and words in output
            else:
                passed = result.returncode == 0
            print(f"{'ok' if passed else 'not ok'} - check-layers: {description}")
            if not passed:
                failures += 1
                print(f"#   exit {result.returncode}; output:\n" + "".join(f"#   {line}\n" for line in output.splitlines()), end="")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
