#!/usr/bin/env bash
# install-test.sh DEB: in the cross-build root (arm64 is a foreign architecture there), installs the
# arm64 .deb with apt, which pulls its arm64 dependencies, runs the installed binary (through QEMU), and
# removes it again. Prints ok / not ok lines like packaging/package-test.sh.
set -uo pipefail
deb=$1
if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "./$deb" >/tmp/install-test.log 2>&1; then
    echo "ok - $deb installs with apt (arm64 dependencies from Debian's archive)"
else
    echo "not ok - $deb installs with apt"; sed 's/^/    /' /tmp/install-test.log; exit 1
fi
status=0
if out=$(env -i /usr/bin/openclaw --version 2>&1) && [[ $out == "openclaw "* ]] && file -b /usr/bin/openclaw | grep -q 'ARM aarch64'; then
    echo "ok - the installed /usr/bin/openclaw (ARM aarch64) runs: ${out%%$'\n'*}"
else
    echo "not ok - the installed /usr/bin/openclaw runs"; echo "    $out"; status=1
fi
dpkg -r openclaw >/dev/null 2>&1 && echo "ok - removed again" || { echo "not ok - dpkg -r openclaw"; status=1; }
exit $status
