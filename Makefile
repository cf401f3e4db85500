# openclaw — build, test, demo, install. `make help` lists the targets.
SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
DEBUG_BIN := .build/debug
RELEASE_BIN := .build/release

.PHONY: help build release test demo install uninstall clean

help:
	@echo "make build     debug build of openclaw and openclaw-gateway-sim"
	@echo "make release   optimised build"
	@echo "make test      build and run every test (unit and end-to-end)"
	@echo "make demo      start the bundled simulator, send a message, print the history"
	@echo "make install   install binary, man page and completions under \$$(DESTDIR)\$$(PREFIX)"

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

test:
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: build
	scripts/demo.sh

clean:
	rm -rf .build
