# openclaw — build, test, demo, install. `make help` lists the targets.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release
VERSION := $(shell sed -n 's/^.*static let current = "\(.*\)"/\1/p' Sources/ClawProtocol/ClawVersion.swift)
DEB_REVISION ?= 1
PACKAGES ?= packages
# The commit `openclaw version` reports ("-dirty" when tracked files differ); empty outside git.
COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && { git diff --quiet HEAD 2>/dev/null || c=$$c-dirty; } && echo $$c)
# Optimisation across the library's module boundaries, on the command line (not in the manifest, so that
# the library carries no unsafe flag); OPENCLAW_CROSS_MODULE_OPTIMIZATION=0 leaves it out, for Debian's
# swiftlang compilers, which crash on it.
CMO := $(if $(filter 0 no off false,$(OPENCLAW_CROSS_MODULE_OPTIMIZATION)),,-Xswiftc -cross-module-optimization)
# Concrete generic types' metadata through their accessors, not looked up by mangled name: a one-shot
# command otherwise demangles a name for each array type it first uses (0.2 M instructions of `history`,
# bench/README). On the command line for the same reason as CMO.
METADATA := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# Release builds: Swift runtime linked statically, no $$ORIGIN rpath (nothing ships beside the binary).
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath $(CMO) $(METADATA)
# `make release` (so `install`, `dist` and `bench`) links each executable as a static PIE with OpenSSL's
# and SQLite's archives (Package.swift, OPENCLAW_LINK): nothing to load or relocate at start.
STATIC_LIBS := $(CURDIR)/.build-static-libs
RELEASE_ENV = PKG_CONFIG_PATH=$(STATIC_LIBS) OPENCLAW_LINK=static OPENCLAW_COMMIT=$(COMMIT)
# The .deb's binary links the system's OpenSSL (its security updates must reach users) and SQLite's
# archive (start-up cost), in its own scratch.
DEB_SCRATCH := .build-deb
STATIC_SQLITE := $(CURDIR)/.build-static-sqlite

.PHONY: help deps build release test check check-layers check-consumable check-api docs examples demo bench install uninstall completions man clean fuzz deb dist deb-build package-test arm64 test-arm64 debsrc debsrc-check debian-build debian-test debian-clean

help:
	@echo "make deps      install what make test needs and this machine lacks (apt-get; sudo when not root)"
	@echo "make build     debug build of openclaw and openclaw-gateway-sim"
	@echo "make release   optimised build"
	@echo "make test      the contributor's loop: layers, debug build, every unit and end-to-end test (~6 min)"
	@echo "make check     the full gate CI runs: make test, then consumer, API, docs, snippets, examples, TSan, packages, real-world"
	@echo "make check-layers  the module layers of ARCHITECTURE.md hold, only ClawSystem imports the C library (run by make test)"
	@echo "make check-consumable  a package depending on a tagged clone with from: builds (run by make check)"
	@echo "make check-api  the library's public API against the last release in RELEASES; a break needs a breaking bump in CHANGELOG.md (run by make check)"
	@echo "make docs      the library's DocC documentation into .build/docs; a broken symbol link fails it (run by make check)"
	@echo "make examples  build Examples/ and run each example against the simulator (run by make check)"
	@echo "make snippets  compile every Swift block of README.md and the DocC articles (scripts/snippets.py)"
	@echo "make demo      start the bundled simulator, send a message, print the history"
	@echo "make bench     release build, then one-shot latency, watch throughput and peak RSS"
	@echo "make fuzz      build and run the libFuzzer targets for FUZZ_SECONDS (default 60) each"
	@echo "make install   install binary, man page and completions under \$$(DESTDIR)\$$(PREFIX)"
	@echo "make uninstall remove what make install installed"
	@echo "make deb       Debian package $(PACKAGES)/openclaw_$(VERSION)-$(DEB_REVISION)_ARCH.deb (dpkg-deb)"
	@echo "make dist      portable tarball $(PACKAGES)/openclaw-$(VERSION)-linux-ARCH.tar.gz (a static PIE: needs nothing from the system)"
	@echo "make package-test  build both, then check their contents, lintian, and run the binaries from them"
	@echo "make arm64     Linux arm64 .deb and static tarball in $(PACKAGES)/, cross-built with Debian's Swift (root)"
	@echo "make test-arm64  the end-to-end tests and package tests against the arm64 binaries, under QEMU (root)"
	@echo "make debsrc    Debian source package (.dsc, upstream tarball from git archive HEAD) in $(PACKAGES)/debsrc/"
	@echo "make debsrc-check  build it twice in a clean Debian 13 root with Debian's Swift, lintian, autopkgtest, compare (root)"
	@echo "make completions / make man  regenerate completions/ and man/ from the command table"

build:
	scripts/install-deps.sh build
	$(SWIFT) build

release:
	scripts/install-deps.sh release
	packaging/static-libs.sh $(STATIC_LIBS) openssl sqlite3
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE_FLAGS)

# What the build and the tests need, installed when missing (scripts/install-deps.sh: the one list).
deps:
	scripts/install-deps.sh test

# The contributor's loop: the layers check, the debug build and the package's tests (unit and
# end-to-end against the simulator). Every step runs; a summary ends the output (scripts/test.sh).
test:
	SWIFT="$(SWIFT)" MAKE="$(MAKE)" scripts/test.sh test

# The full gate (.ci/run): make test's steps, then the consumer on a tag, the public API, the docs and
# every Swift snippet, the examples, ThreadSanitizer, the optimised suites, the packages and the
# real-world suites; each build with its own flags once.
check:
	SWIFT="$(SWIFT)" MAKE="$(MAKE)" scripts/test.sh check

# The module layout of ARCHITECTURE.md: Package.swift's dependencies point down, and only
# ClawSystem imports the C library, the CLI and the simulator included (scripts/check-layers.py);
# then the checker's self-test: a tree with a Glibc import outside ClawSystem must fail it.
check-layers:
	python3 scripts/check-layers.py
	python3 scripts/check-layers-test.py

# Another package can depend on the library by version: no unsafe flag in a library target
# (scripts/check-consumable.sh builds a consumer against a tagged clone of HEAD).
check-consumable:
	scripts/install-deps.sh build
	SWIFT="$(SWIFT)" scripts/check-consumable.sh

# The library's public API against the last release recorded in RELEASES (git tags do not travel with
# a submission): a break passes only when CHANGELOG.md's top section names a breaking semver bump
# (scripts/check-api-breakage.sh, swift package diagnose-api-breaking-changes, own scratch under .build).
check-api:
	scripts/install-deps.sh build
	SWIFT="$(SWIFT)" scripts/check-api-breakage.sh

# The library's documentation: the DocC catalog (Sources/ClawGatewayClient/ClawGatewayClient.docc) and the
# public symbols of the debug build, extracted without a build of their own, converted by the toolchain's
# docc into .build/docs; a warning (a broken symbol link, an unknown topic) fails it.
TOOLCHAIN_BIN = $(dir $(realpath $(shell command -v $(SWIFT))))
SYMBOL_GRAPHS := .build/symbol-graphs
docs:
	scripts/install-deps.sh build
	@test -x $(TOOLCHAIN_BIN)docc || { echo "make docs: no docc beside $(SWIFT) ($(TOOLCHAIN_BIN)); swift.org's toolchains have it" >&2; exit 1; }
	$(SWIFT) build --target ClawGatewayClient
	rm -rf $(SYMBOL_GRAPHS) .build/docs && mkdir -p $(SYMBOL_GRAPHS)
	bin=$$($(SWIFT) build --show-bin-path) && $(TOOLCHAIN_BIN)swift-symbolgraph-extract -module-name ClawGatewayClient \
		-target $$(basename $$(dirname $$bin)) -I $$bin/Modules -I Sources/CClawOpenSSL -I Sources/CClawSQLite \
		-minimum-access-level public -output-dir $(SYMBOL_GRAPHS)
	$(TOOLCHAIN_BIN)docc convert Sources/ClawGatewayClient/ClawGatewayClient.docc --additional-symbol-graph-dir $(SYMBOL_GRAPHS) \
		--fallback-display-name ClawGatewayClient --fallback-bundle-identifier org.openclaw.ClawGatewayClient \
		--output-path .build/docs --warnings-as-errors

# The Examples package (its own build in Examples/.build, the library by path) and README.md's quick
# start, which it holds a copy of: built, then each run against the simulator (Examples/run-against-simulator.sh).
examples:
	scripts/install-deps.sh build
	$(SWIFT) build --product openclaw-gateway-sim
	$(SWIFT) build --package-path Examples
	Examples/run-against-simulator.sh

# The .deb (its own build, with the system's OpenSSL) and the tarball (the static release build),
# checked by packaging/package-test.sh: contents, lintian, and the binaries run from each.
package-test: deb dist
	scripts/install-deps.sh test
	packaging/package-test.sh $(PACKAGES) $(VERSION) $(DEB_REVISION) "$(COMMIT)"

demo:
	scripts/install-deps.sh build
	$(SWIFT) build
	scripts/demo.sh

# Release build, then the figures of bench/README.md (see bench/bench.py).
bench: release deb-build
	scripts/install-deps.sh bench
	python3 bench/bench.py

# Completion scripts and the man page are generated from the command table and committed;
# a test fails when these copies differ from what the binary prints.
completions: build
	$(DEBUG_BIN)/openclaw completion bash > completions/openclaw.bash.tmp && mv completions/openclaw.bash.tmp completions/openclaw.bash
	$(DEBUG_BIN)/openclaw completion zsh > completions/_openclaw.tmp && mv completions/_openclaw.tmp completions/_openclaw
	$(DEBUG_BIN)/openclaw completion fish > completions/openclaw.fish.tmp && mv completions/openclaw.fish.tmp completions/openclaw.fish

man: build
	$(DEBUG_BIN)/openclaw __man > man/openclaw.1.tmp && mv man/openclaw.1.tmp man/openclaw.1

INSTALLED := $(DESTDIR)$(PREFIX)/bin/openclaw \
	$(DESTDIR)$(PREFIX)/share/man/man1/openclaw.1 \
	$(DESTDIR)$(PREFIX)/share/bash-completion/completions/openclaw \
	$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_openclaw \
	$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/openclaw.fish

# Never over the official OpenClaw CLI (npm links it as $(PREFIX)/bin/openclaw): only a binary
# that is this client (it holds our help text) is replaced.
install: release
	@target=$(DESTDIR)$(PREFIX)/bin/openclaw; \
	if [ -e "$$target" ] || [ -L "$$target" ]; then \
		if [ -L "$$target" ] || ! grep -q 'a scriptable client for the OpenClaw Gateway' "$$target"; then \
			echo "make install: $$target is another program (the official OpenClaw CLI?), left alone;" \
				"install elsewhere, e.g. make install PREFIX=$$HOME/.local, and put that bin first on PATH" >&2; \
			exit 1; \
		fi; \
	fi
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions \
		$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(RELEASE_BIN)/openclaw $(DESTDIR)$(PREFIX)/bin/openclaw
	install -m 0644 man/openclaw.1 $(DESTDIR)$(PREFIX)/share/man/man1/openclaw.1
	install -m 0644 completions/openclaw.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/openclaw
	install -m 0644 completions/_openclaw $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_openclaw
	install -m 0644 completions/openclaw.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/openclaw.fish

uninstall:
	rm -f $(INSTALLED)

# Debian package: binary (the system's OpenSSL and glibc, linked dynamically), man page, completions,
# copyright, changelog. The simulator is not packaged (packaging/README.md).
deb: deb-build
	packaging/build-deb.sh $(DEB_SCRATCH)/release/openclaw $(VERSION)-$(DEB_REVISION) $(PACKAGES)

deb-build:
	scripts/install-deps.sh release
	packaging/static-libs.sh $(STATIC_SQLITE) sqlite3
	PKG_CONFIG_PATH=$(STATIC_SQLITE) OPENCLAW_COMMIT=$(COMMIT) $(SWIFT) build $(RELEASE_FLAGS) --product openclaw --scratch-path $(DEB_SCRATCH)

# Portable tarball: the release build, a static PIE that needs nothing from the system.
dist: release
	packaging/build-dist.sh $(RELEASE_BIN)/openclaw $(VERSION) $(PACKAGES)

# libFuzzer harnesses (fuzz/README.md): build into fuzz/bin, run each target for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	scripts/install-deps.sh build
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/fuzz.sh all

clean:
	@if grep -q " $(CURDIR)/$(ARM64)/" /proc/mounts; then echo "make clean: something is still mounted in $(ARM64)" >&2; exit 1; fi
	rm -rf $(ARM64) .build Examples/.build .build-deb .build-static-libs .build-static-sqlite Tests/Optimised/.build Tests/ThreadSanitizer/.build .build-pkg $(PACKAGES)

# Linux arm64 (aarch64): cross-built at native speed with Debian's Swift (trixie) against the arm64
# libraries of a cached Debian root (packaging/arm64/; packaging/README.md, Platforms). Needs root (debootstrap, chroot,
# binfmt_misc); every mount is undone on every path.
ARM64 := .build-arm64
ARM64_PRODUCTS := $(CURDIR)/$(ARM64)/static/aarch64-unknown-linux-gnu/release
# The end-to-end suites (the tests that drive the real binaries) to run under emulation; all by default.
ARM64_TESTS ?= openclawTests
arm64:
	packaging/arm64/root.sh $(ARM64)/root
	packaging/arm64/binfmt.sh $(ARM64)/root/usr/bin/qemu-aarch64
	OPENCLAW_COMMIT=$(COMMIT) SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || echo 0) \
		packaging/arm64/in-root.sh $(ARM64)/root packaging/arm64/cross-build.sh $(VERSION) $(VERSION)-$(DEB_REVISION) $(PACKAGES)

# The test bundle is built natively and pointed at the arm64 binaries (binfmt_misc runs them through QEMU);
# tests that cannot hold under emulation skip themselves by name (OPENCLAW_TEST_EMULATION). Then the
# package tests of the arm64 .deb and tarball, and the .deb installed with apt, in the cross-build root.
test-arm64: arm64
	scripts/install-deps.sh test
	$(SWIFT) build --build-tests
	OPENCLAW_TEST_PRODUCTS=$(ARM64_PRODUCTS) OPENCLAW_TEST_EMULATION=qemu $(SWIFT) test --skip-build --filter '$(ARM64_TESTS)'
	# qemu-aarch64 now and then breaks a static PIE's brk heap (glibc's sysmalloc assertion, about one
	# wss:// run in ten, never natively); never with top_pad=0, as the Swift tests' emulated children.
	OPENCLAW=$(ARM64_PRODUCTS)/openclaw SIMULATOR=$(ARM64_PRODUCTS)/openclaw-gateway-sim TLS_KINDS='rsa p384' \
		CLIENT_GLIBC_TUNABLES=glibc.malloc.top_pad=0 Tests/RealWorld/run.sh tls-chain
	packaging/arm64/in-root.sh $(ARM64)/root \
		DEB_ARCH=arm64 DIST_ARCH=aarch64 OBJDUMP=aarch64-linux-gnu-objdump SIMULATOR=/src/$(ARM64)/static/aarch64-unknown-linux-gnu/release/openclaw-gateway-sim \
		packaging/package-test.sh $(PACKAGES) $(VERSION) $(DEB_REVISION) "$(COMMIT)"
	packaging/arm64/in-root.sh $(ARM64)/root packaging/arm64/install-test.sh $(PACKAGES)/openclaw_$(VERSION)-$(DEB_REVISION)_arm64.deb

# ---- snippets (issue 47, item 3) -------------------------------------------------------------------
# Every ```swift block of README.md and of the DocC articles, compiled: scripts/snippets.py writes one
# file per block into a generated package (.build-snippets/pkg, the library by path), wrapped in a
# function (or at file scope, or as a Package.swift), with the context an HTML comment above the block
# declares, and builds it in its own scratch (.build-snippets/scratch; SNIPPETS_SCRATCH= moves it).
# A block that does not compile fails it, the compiler naming the Markdown file and line.
.PHONY: snippets
snippets:
	scripts/install-deps.sh build
	SWIFT="$(SWIFT)" python3 scripts/snippets.py
# ---- end of snippets --------------------------------------------------------------------------------

# ---- Debian source package (issue 48; packaging/README.md, "The Debian source package") ----------------
# debian/ builds the same .deb as `make deb` with Debian's own Swift (swiftlang) and debhelper.
# debian/rules calls debian-build, debian-test and debian-clean: deb-build's build without the set-up
# (there the Build-Depends are the set-up), never resolving packages (no network), DEBIAN_SWIFT_FLAGS
# from debian/rules (jobs, the linker, Debian's build flags). `make debsrc` makes the source package from HEAD;
# `make debsrc-check` (root) builds it twice in a clean Debian 13 root, lintian, autopkgtest.
DEBSRC := .build-debsrc
DEBSRC_OUT := $(PACKAGES)/debsrc
DEBIAN_SWIFT_FLAGS ?=
DEBIAN_SWIFT_BUILD = PKG_CONFIG_PATH=$(STATIC_SQLITE) OPENCLAW_COMMIT=$(COMMIT) $(SWIFT) build $(RELEASE_FLAGS) \
	--disable-automatic-resolution --scratch-path $(DEB_SCRATCH) $(DEBIAN_SWIFT_FLAGS)
debian-build:
	packaging/static-libs.sh $(STATIC_SQLITE) sqlite3
	$(DEBIAN_SWIFT_BUILD) --product openclaw

# The simulator in the same scratch (the library's modules are built already), then the binary against
# it over loopback (debian/tests/cli-against-simulator) and the real-world TLS chain suite (Debian's
# OpenSSL verifying RSA and ECDSA chains). The Swift test suites need a newer Swift Testing than
# Debian 13's 6.0.3 (packaging/README.md), so they are not run here.
debian-test:
	$(DEBIAN_SWIFT_BUILD) --product openclaw-gateway-sim
	OPENCLAW=$(DEB_SCRATCH)/release/openclaw SIMULATOR=$(DEB_SCRATCH)/release/openclaw-gateway-sim debian/tests/cli-against-simulator
	OPENCLAW=$(DEB_SCRATCH)/release/openclaw SIMULATOR=$(DEB_SCRATCH)/release/openclaw-gateway-sim Tests/RealWorld/run.sh tls-chain

debian-clean:
	rm -rf $(DEB_SCRATCH) $(STATIC_SQLITE)

debsrc:
	packaging/debsrc/source.sh $(VERSION) $(DEBSRC_OUT)

debsrc-check: debsrc
	packaging/debsrc/check.sh $(DEBSRC) $(DEBSRC_OUT)
# ---- end of the Debian source package ---------------------------------------------------------------------
