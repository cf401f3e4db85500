#!/usr/bin/env python3
"""snippets.py: compile every ```swift block of README.md and of the library's DocC articles.

`make snippets` runs it. Each block becomes one Swift file of a generated package,
.build-snippets/pkg (gitignored), which depends on this repository by path and is built in its own
scratch directory (.build-snippets/scratch): a block that stops compiling fails the build, and the
compiler's messages name the Markdown file and line (`#sourceLocation`).

How a block is wrapped:

- by default, its statements go into the body of an `async throws` function of their own, and its
  `import` lines to the top of the file; `import ClawGatewayClient` is always there;
- a block with a `@Test` or `@Suite` at the start of a line is compiled at file scope, as written;
- a Package.swift (or a piece of one) is a manifest: it is evaluated by `swift package dump-package`
  in a directory of its own, which compiles it against PackageDescription.

An HTML comment right above the fence (DocC and GitHub show neither) gives a block what it needs:

    <!-- snippet: prelude
    let configuration = GatewayConfiguration(url: "ws://127.0.0.1:18789")
    -->

The comment's first line is `<!-- snippet:` and keywords: `file` (file scope), `manifest`, or
`skip because REASON` (for a block that is not Swift meant to compile; keep these rare). Its other
lines are context, placed before the block; a line `{{snippet}}` among them places the block there
instead (the context wraps it). `prelude` is only a word for the reader.

Usage: scripts/snippets.py [--generate-only] [--list]   (SWIFT= names the swift driver)
"""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build-snippets")
PKG = os.path.join(OUT, "pkg")
SCRATCH = os.environ.get("SNIPPETS_SCRATCH", os.path.join(OUT, "scratch"))
MANIFESTS = os.path.join(OUT, "manifests")
DOCC = "Sources/ClawGatewayClient/ClawGatewayClient.docc"

FENCE_OPEN = re.compile(r"^(\s*)```swift\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
IMPORT = re.compile(r"^\s*import\s+\w+\s*(//.*)?$")
FILE_SCOPE = re.compile(r"^(@Test|@Suite)\b")


class Block:
    def __init__(self, path, index, line, code, directive):
        self.path = path            # relative to ROOT
        self.index = index          # 1-based, per Markdown file
        self.line = line            # line number of the first code line
        self.code = code            # list of lines, fence indentation removed
        self.keywords, self.reason, self.context, self.context_line = directive

    @property
    def name(self):
        stem = re.sub(r"[^A-Za-z0-9]", "_", os.path.splitext(os.path.basename(self.path))[0])
        return f"{stem}_{self.index}"

    @property
    def where(self):
        return f"{self.path}:{self.line}"

    @property
    def kind(self):
        if "skip" in self.keywords:
            return "skip"
        if "manifest" in self.keywords:
            return "manifest"
        if "file" in self.keywords or any(FILE_SCOPE.match(l) for l in self.code):
            return "file"
        return "body"


def directive_above(path, lines, fence):
    """The `<!-- snippet: … -->` comment among the comments right above line `fence` (0-based)."""
    i = fence - 1
    while i >= 0 and lines[i].rstrip().endswith("-->"):
        end = i
        while i >= 0 and "<!--" not in lines[i]:
            i -= 1
        if i < 0:
            break
        comment = lines[i:end + 1]
        first = comment[0].strip()
        match = re.match(r"<!--\s*snippet:\s*(.*)$", first)
        if match:
            head = match.group(1)
            single_line = len(comment) == 1
            if single_line:
                head = head[:head.rfind("-->")]
            words = head.split()
            keywords = set()
            reason = ""
            for n, word in enumerate(words):
                if word == "skip":
                    keywords.add("skip")
                    reason = " ".join(words[n + 1:])
                    break
                keywords.add(word)
            unknown = keywords - {"skip", "file", "manifest", "prelude"}
            if unknown:
                sys.exit(f"snippets: {path}:{i + 1}: unknown keyword(s) {sorted(unknown)}")
            body = [] if single_line else [l.rstrip("\n") for l in comment[1:]]
            if body:
                last = body[-1]
                body[-1] = last[:last.rfind("-->")]
                if not body[-1].strip():
                    body.pop()
            return keywords, reason, body, i + 2
        i -= 1
    return set(), "", [], 0


def blocks_of(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        lines = f.read().split("\n")
    found = []
    i = 0
    while i < len(lines):
        opening = FENCE_OPEN.match(lines[i])
        if not opening:
            i += 1
            continue
        indent = len(opening.group(1))
        start = i + 1
        j = start
        while j < len(lines) and not FENCE_CLOSE.match(lines[j]):
            j += 1
        code = [l[indent:] if l[:indent].strip() == "" else l for l in lines[start:j]]
        directive = directive_above(path, lines, i)
        found.append(Block(path, len(found) + 1, start + 1, code, directive))
        i = j + 1
    for block in found:
        if "skip" in block.keywords and not block.reason.startswith("because "):
            sys.exit(f"snippets: {block.where}: a skip says why (`<!-- snippet: skip because … -->`)")
    return found


def sources():
    docc = sorted(os.path.join(DOCC, n) for n in os.listdir(os.path.join(ROOT, DOCC)) if n.endswith(".md"))
    return ["README.md"] + docc


def location(block, line):
    return f'#sourceLocation(file: "{os.path.join(ROOT, block.path)}", line: {line})'


def split_context(block):
    """(before, after) lines of context around the block, each list of (line number, text)."""
    before, after, target = [], [], None
    for n, text in enumerate(block.context):
        if text.strip() == "{{snippet}}":
            target = after
            continue
        (target if target is not None else before).append((block.context_line + n, text))
    return before, after


def emit(block, parts, lines_with_numbers, wrapped=False):
    """Lines, each run of them preceded by a #sourceLocation naming its Markdown line. A context that
    wraps the block (`{{snippet}}`) may put it inside an expression, where no #sourceLocation may stand:
    then one directive comes first, numbered so that the block's own lines are named exactly."""
    if wrapped:
        first_code = next(i for i, (number, _) in enumerate(lines_with_numbers) if number == block.line) \
            if block.code else 0
        parts.append(location(block, block.line - first_code))
        parts.extend(text for _, text in lines_with_numbers)
        return
    previous = None
    for number, text in lines_with_numbers:
        if previous is None or number != previous + 1:
            parts.append(location(block, number))
        parts.append(text)
        previous = number


def swift_file(block):
    before, after = split_context(block)
    code = list(enumerate(block.code, start=block.line))
    header = [f"// Generated by scripts/snippets.py from {block.where}; edit the Markdown, not this file."]
    if block.kind == "file":
        parts = header + ["import ClawGatewayClient"]
        emit(block, parts, before + code + after, wrapped=bool(after))
        parts.append("#sourceLocation()")
        return "\n".join(parts) + "\n"
    imports = sorted({text.split("//")[0].strip() for _, text in before + code + after if IMPORT.match(text)})
    body = [(n, "" if IMPORT.match(t) else t) for n, t in before + code + after]
    parts = header + sorted(set(["import ClawGatewayClient"] + imports))
    parts.append(f"func snippet_{block.name}() async throws {{")
    emit(block, parts, body, wrapped=bool(after))
    parts.append("#sourceLocation()")
    parts.append("}")
    return "\n".join(parts) + "\n"


def manifest_file(block):
    before, after = split_context(block)
    parts = []
    lines = before + list(enumerate(block.code, start=block.line)) + after
    # The tools-version line must come first, without a #sourceLocation above it.
    if lines and lines[0][1].startswith("// swift-tools-version"):
        parts.append(lines.pop(0)[1])
    else:
        parts.append("// swift-tools-version:6.0")
    emit(block, parts, lines, wrapped=bool(after))
    return "\n".join(parts) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


PACKAGE = """// swift-tools-version:6.0
// Generated by scripts/snippets.py: every ```swift block of README.md and of the DocC articles, one
// file each, compiled against the library of this checkout (by path).
import PackageDescription

let package = Package(
    name: "openclaw-snippets",
    dependencies: [.package(name: "openclaw", path: "{root}")],
    targets: [
        .target(name: "Snippets", dependencies: [
            .product(name: "ClawGatewayClient", package: "openclaw"),
            .product(name: "ClawGatewayTesting", package: "openclaw"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
"""


def generate(blocks):
    target = os.path.join(PKG, "Sources", "Snippets")
    os.makedirs(target, exist_ok=True)
    write_if_changed(os.path.join(PKG, "Package.swift"), PACKAGE.replace("{root}", os.path.relpath(ROOT, PKG)))
    wanted = set()
    manifests = []
    for block in blocks:
        if block.kind == "skip":
            continue
        if block.kind == "manifest":
            directory = os.path.join(MANIFESTS, block.name)
            write_if_changed(os.path.join(directory, "Package.swift"), manifest_file(block))
            manifests.append((block, directory))
            continue
        name = block.name + ".swift"
        wanted.add(name)
        write_if_changed(os.path.join(target, name), swift_file(block))
    for name in os.listdir(target):
        if name not in wanted:
            os.remove(os.path.join(target, name))
    return manifests


def main():
    args = sys.argv[1:]
    blocks = [b for path in sources() for b in blocks_of(path)]
    if "--list" in args:
        for b in blocks:
            print(f"{b.where}\t{b.kind}\t{b.reason}")
        return 0
    manifests = generate(blocks)
    counts = {k: sum(1 for b in blocks if b.kind == k) for k in ("body", "file", "manifest", "skip")}
    summary = (f"{len(blocks)} swift blocks in {len(sources())} files: {counts['body']} as function bodies, "
               f"{counts['file']} at file scope, {counts['manifest']} manifests, {counts['skip']} skipped")
    for b in blocks:
        if b.kind == "skip":
            print(f"snippets: skipped {b.where}: {b.reason}")
    if "--generate-only" in args:
        print(f"snippets: generated {PKG}: {summary}")
        return 0
    swift = os.environ.get("SWIFT", "swift")
    started = time.monotonic()
    failed = []
    for block, directory in manifests:
        result = subprocess.run([swift, "package", "--package-path", directory, "dump-package"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            failed.append(block.where)
    build = subprocess.run([swift, "build", "--package-path", PKG, "--scratch-path", SCRATCH, "--target", "Snippets"])
    if build.returncode != 0:
        failed.append("the Swift blocks above (swift build of .build-snippets/pkg)")
    elapsed = time.monotonic() - started
    if failed:
        print(f"snippets: FAILED ({elapsed:.0f} s): " + "; ".join(failed), file=sys.stderr)
        print("snippets: fix the Markdown (a block needing context declares it in `<!-- snippet: prelude … -->`)",
              file=sys.stderr)
        return 1
    print(f"snippets: all compile ({elapsed:.0f} s): {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
