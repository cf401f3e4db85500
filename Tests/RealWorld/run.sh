#!/usr/bin/env bash
# run.sh [SUITE...]: the real-world suites (Tests/RealWorld/*.sh but this one and lib.sh), or those
# named, one after another; each prints ok / not ok lines. Exits 1 when any check failed.
# OPENCLAW and SIMULATOR name the binaries under test (default: the debug build).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
    for file in "$here"/*.sh; do
        case ${file##*/} in run.sh | lib.sh | make-pki.sh) ;; *) suites+=("$(basename "$file" .sh)") ;; esac
    done
fi
status=0
for suite in "${suites[@]}"; do
    echo "# $suite"
    bash "$here/$suite.sh" || status=1
done
exit $status
