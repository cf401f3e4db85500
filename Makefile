# openclaw — build, test, demo, install. `make help` lists the targets.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

.PHONY: help build release test demo bench install uninstall completions man clean fuzz

help:
	@echo "make build     debug build of openclaw and openclaw-gateway-sim"
	@echo "make release   optimised build"
	@echo "make test      build and run every test (unit and end-to-end)"
	@echo "make demo      start the bundled simulator, send a message, print the history"
	@echo "make bench     release build, then one-shot latency, watch throughput and peak RSS"
	@echo "make fuzz      build and run the libFuzzer targets for FUZZ_SECONDS (default 60) each"
	@echo "make install   install binary, man page and completions under \$$(DESTDIR)\$$(PREFIX)"
	@echo "make uninstall remove what make install installed"
	@echo "make completions / make man  regenerate completions/ and man/ from the command table"

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release --static-swift-stdlib

# Every test in a debug build, then the wire and JSON tests again optimised: the optimiser once
# turned a correct mask-key load into garbage that only a release build showed.
test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) test -c release --scratch-path .build-release-tests --filter 'WebSocket|Transport|TLS|JSON|ByteSearch'

demo: build
	scripts/demo.sh

# Release build, then the figures of the README's Benchmarks section (see bench/bench.py).
bench: release
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

install: release
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

# libFuzzer harnesses (fuzz/README.md): build into fuzz/bin, run each target for FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/fuzz.sh all

clean:
	rm -rf .build
