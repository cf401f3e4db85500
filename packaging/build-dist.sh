#!/usr/bin/env bash
# build-dist.sh BINARY VERSION OUTDIR: OUTDIR/openclaw-VERSION-linux-ARCH.tar.gz, a portable
# tarball laid out as an install prefix (bin/, share/), so that
#   tar -xzf openclaw-…tar.gz -C ~/.local --strip-components=1
# installs it. Called by `make dist` with the binary linked against static OpenSSL.
set -euo pipefail
binary=$1 version=$2 outdir=$3
repo=$(cd "$(dirname "$0")/.." && pwd)
# Cross packaging (make arm64): DIST_ARCH names the binary's architecture, STRIP its strip.
name=openclaw-$version-linux-${DIST_ARCH:-$(uname -m)}
strip=${STRIP:-strip}
work=$repo/.build-pkg/dist
top=$work/$name
rm -rf "$work"
mkdir -p "$outdir"
install -d "$top/bin" "$top/share/man/man1" "$top/share/doc/openclaw" \
    "$top/share/bash-completion/completions" "$top/share/zsh/site-functions" "$top/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$top/bin/openclaw"
"$strip" --strip-unneeded --remove-section=.comment --remove-section=.note "$top/bin/openclaw"
install -m 0644 "$repo/man/openclaw.1" "$top/share/man/man1/openclaw.1"
install -m 0644 "$repo/completions/openclaw.bash" "$top/share/bash-completion/completions/openclaw"
install -m 0644 "$repo/completions/_openclaw" "$top/share/zsh/site-functions/_openclaw"
install -m 0644 "$repo/completions/openclaw.fish" "$top/share/fish/vendor_completions.d/openclaw.fish"
install -m 0644 "$repo/README.md" "$repo/LICENSE" "$top/share/doc/openclaw/"

# Reproducible: sorted names, root-owned, every mtime the commit's time.
mtime=$(git -C "$repo" log -1 --format=%ct 2>/dev/null || echo 0)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$work" -cf - "$name" \
    | gzip -9n > "$outdir/$name.tar.gz"
echo "$outdir/$name.tar.gz"
