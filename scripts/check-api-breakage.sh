#!/usr/bin/env bash
# check-api-breakage.sh: the library's public API against the last release recorded in RELEASES.
# `make check-api` (run by `make test`, after check-consumable).
#
# Runs the toolchain's `swift package diagnose-api-breaking-changes COMMIT --products ...` (it builds
# the baseline commit in a clone of this repository and the current tree, then compares each module's
# API with swift-api-digester), with COMMIT the last line of RELEASES. Each product is one module of its
# own name, and only those whose module exists at that commit are compared: a module new since the
# release has no API to break, and then nothing is built (today both: ClawGatewayTesting is new since
# 0.1.0, and 0.1.0's ClawGatewayClient product listed the layers, not a module of that name; the
# comparison starts once 0.2.0 is recorded in RELEASES). The rule (semver):
#   - no breaking change: passes;
#   - breaking changes: passes only when the package's version (ClawVersion.swift, which CHANGELOG.md's
#     top `## ` heading must name too) is a breaking bump from the release (a major bump; before 1.0.0, a minor one:
#     0.1.0 -> 0.2.0), and fails otherwise, naming what broke and what to do. The list is printed
#     either way.
# A baseline commit missing from the clone (a shallow clone) fails with one line. Everything is built
# in its own scratch, .build/breakage-baseline (CHECK_API_SCRATCH), not in .build: the baselines are
# kept there per commit and toolchain, so only the first run builds the release commit.
#
# Time on the 2-core build machine (swift 6.3.1): 30 to 32 s from an empty scratch (both trees built
# in debug; 0.1.0 against itself, and against the tree with the async module), 4 to 17 s again with
# the baseline kept (the current tree's incremental build, then the comparison).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
swift=${SWIFT:-swift}
scratch=${CHECK_API_SCRATCH:-$repo/.build/breakage-baseline}
products=(ClawGatewayClient ClawGatewayTesting)

die() { echo "check-api: $*" >&2; exit 1; }

# The last release: the last line of RELEASES that is neither blank nor a comment.
[ -f RELEASES ] || die "no RELEASES file at $repo"
line=$(grep -vE '^[[:space:]]*(#|$)' RELEASES | tail -n 1)
read -r release commit _ <<<"$line"
[[ ${release:-} =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || die "RELEASES: the last line ('$line') is not 'VERSION COMMIT'"
rel_major=${BASH_REMATCH[1]} rel_minor=${BASH_REMATCH[2]}
[[ ${commit:-} =~ ^[0-9a-f]{40}$ ]] || die "RELEASES: $release's commit ('${commit:-}') is not a full 40-hex commit"
git cat-file -e "$commit^{commit}" 2>/dev/null ||
    die "baseline commit $commit ($release, from RELEASES) is not in this clone (a shallow clone? git fetch --unshallow)"

# The products to compare: each of today's is one module of its own name, and the tool compares only
# modules the release has (it skips the others after building both trees), so a product is compared when
# the release's manifest declares it as a library and has a target of its name; otherwise nothing is built.
baseline_manifest=$(git show "$commit:Package.swift" 2>/dev/null) || die "no Package.swift at $release ($commit)"
compare=()
for product in "${products[@]}"; do
    if ! grep -qE "\.library\(name: *\"$product\"" <<<"$baseline_manifest"; then
        echo "check-api: $product is new since $release: nothing to compare"
    elif ! grep -qE "\.target\(name: *\"$product\"" <<<"$baseline_manifest"; then
        echo "check-api: $product's module is new since $release (the product then listed other modules): nothing to compare"
    else
        compare+=("$product")
    fi
done
[ "${#compare[@]}" -gt 0 ] || { echo "check-api: none of today's library modules existed at $release: nothing to compare"; exit 0; }

# The next version: the one version of the package (Sources/ClawProtocol/ClawVersion.swift, which
# `openclaw version`, the hello and the packages print). CHANGELOG.md's top section must be about it.
next=$(sed -n 's/^.*static let current = "\(.*\)"/\1/p' Sources/ClawProtocol/ClawVersion.swift)
heading=$(grep -m 1 -E '^## ' CHANGELOG.md 2>/dev/null)
[[ $(grep -oE '[0-9]+\.[0-9]+\.[0-9]+' <<<"$heading" | head -n 1) == "$next" ]] ||
    die "CHANGELOG.md's top section ('${heading:-no ## heading}') is not about $next, the version in Sources/ClawProtocol/ClawVersion.swift"
if [ "$rel_major" -eq 0 ]; then required=0.$((rel_minor + 1)).0; else required=$((rel_major + 1)).0.0; fi
breaking_bump() {
    [[ $next =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || return 1
    local major=$((10#${BASH_REMATCH[1]})) minor=$((10#${BASH_REMATCH[2]}))
    if [ "$rel_major" -eq 0 ]; then
        [ "$major" -gt 0 ] || [ "$minor" -gt "$rel_minor" ]
    else
        [ "$major" -gt "$rel_major" ]
    fi
}

# Baselines per commit and toolchain (the digester's JSON is the toolchain's).
toolchain=$("$swift" --version 2>/dev/null | head -n 1 | cksum | cut -d ' ' -f 1)
mkdir -p "$scratch"
log=$scratch/check-api.log
echo "check-api: ${compare[*]} against $release (${commit:0:12}); building both trees in $scratch (log: $log)"
"$swift" package --scratch-path "$scratch" diagnose-api-breaking-changes "$commit" \
    --products "${compare[@]}" --baseline-dir "$scratch/baselines-$toolchain" >"$log" 2>&1
status=$?

# The tool's verdict per module, and each break (`  💔 API breakage: ...`).
verdicts=$(grep -aE '^(No breaking changes detected in |[0-9]+ breaking changes? detected in |Skipping .* does not exist in the baseline)|💔' "$log")
breaks=$(grep -ac '💔' "$log")
if [ "$status" -ne 0 ] && [ "$breaks" -eq 0 ]; then
    echo "check-api: swift package diagnose-api-breaking-changes failed before any verdict (exit $status; log: $log):" >&2
    grep -aE '^([^ ]*: )?error: ' "$log" | sort -u | head -n 15 >&2
    exit 1
fi
[ -n "$verdicts" ] && printf '%s\n' "$verdicts"
if [ "$breaks" -eq 0 ]; then
    echo "check-api: no breaking change in ${compare[*]} since $release"
    exit 0
fi

broken=$(grep -aoE '^[0-9]+ breaking changes? detected in [A-Za-z0-9_]+' "$log" | sed -E 's/.* in //' | sort -u | paste -sd ',' | sed 's/,/, /g')
if breaking_bump; then
    echo "check-api: $breaks breaking change(s) since $release (in $broken), recorded: the version is $next, a breaking bump from $release; say what broke in CHANGELOG.md's top section"
    exit 0
fi
{
    echo "check-api: FAILED: $breaks breaking change(s) to the public API since $release (${commit:0:12}), in $broken (listed above),"
    echo "  and the version ($next, Sources/ClawProtocol/ClawVersion.swift) is not a breaking bump from $release."
    echo "  Either record the break: make the version $required (ClawVersion.swift and CHANGELOG.md's top heading,"
    echo "  '## [$required] - unreleased') and say what broke under its '### Changed' or '### Removed';"
    echo "  or keep the old API (restore each declaration listed above, deprecated beside its replacement)."
} >&2
exit 1
