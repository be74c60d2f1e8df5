# PI-Desktop. Two commands set everything up on a fresh Debian/Ubuntu machine:
#   make run    build and start the app
#   make test   everything CI checks
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c

VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
BIN        := build/bin/pi-desktop
# The process-tree runner (cmd/pi-desktop-runner), found next to $(BIN).
RUNNER     := build/bin/pi-desktop-runner
GO_TAGS    := desktop,production,webkit2_41
COMMIT     := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
BUILD_DATE := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    := -s -w -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(BUILD_DATE)
APT_BUILD  := libgtk-3-dev libwebkit2gtk-4.1-dev pkg-config
APT_TEST   := $(APT_BUILD) xvfb xauth x11-utils xdotool imagemagick ripgrep
NPM_STAMP  := frontend/node_modules/.package-lock.json
MCP_STAMP  := testdata/mcp-servers/node_modules/.package-lock.json

.PHONY: run build frontend test test-frontend test-go vet-cross test-windows bindings-check smoke deps-build deps-test deps-mcp-servers bindings clean test-keychain \
	bench deps-bench package package-windows package-check test-e2e deps-e2e test-viz-escape

run: deps-build build
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
		exec $(BIN); \
	else \
		echo "No display found: starting PI-Desktop under a virtual X server (xvfb-run)."; \
		exec xvfb-run -a -s "-screen 0 1440x900x24" $(BIN); \
	fi

deps-build:
	@scripts/ensure-apt.sh $(APT_BUILD) $(if $(DISPLAY)$(WAYLAND_DISPLAY),,xvfb xauth)

deps-test:
	@scripts/ensure-apt.sh $(APT_TEST)

$(NPM_STAMP): frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# The third-party MCP servers the Go tests run (internal/mcpservers), pinned
# in testdata/mcp-servers; reinstalled only when their lock file changes.
$(MCP_STAMP): testdata/mcp-servers/package-lock.json
	cd testdata/mcp-servers && npm ci --no-audit --no-fund
	@touch $@

deps-mcp-servers: $(MCP_STAMP)

frontend: $(NPM_STAMP)
	cd frontend && npm run build

build: frontend
	go build -tags $(GO_TAGS) -ldflags "$(LDFLAGS)" -o $(BIN) .
	CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o $(RUNNER) ./cmd/pi-desktop-runner

test: deps-test test-frontend test-go vet-cross test-windows bindings-check smoke test-viz-escape test-e2e
	@echo "make test: all checks passed"

test-frontend: $(NPM_STAMP)
	cd frontend && npm run typecheck
	cd frontend && npm run lint
	cd frontend && npm test

test-go: deps-mcp-servers
	@bad=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$bad" ]; then echo "gofmt needed on:"; echo "$$bad"; exit 1; fi
	go vet $$(go list ./... | grep -v /node_modules/)
	# hostcore alone runs ~10 min on an idle 2-core machine: past go test's default limit.
	go test -race -count=1 -timeout 30m $$(go list ./... | grep -v /node_modules/)
	go test -race -count=1 -tags webkit2_41 -run 'TestAssetServer' ./desktop/

# Platform code for all three OSes must always compile, and everything but
# the desktop shell must build without cgo.
vet-cross:
	GOOS=windows GOARCH=amd64 go vet ./backend/... ./platform/...
	GOOS=darwin GOARCH=arm64 go vet ./backend/... ./platform/...
	CGO_ENABLED=0 go build ./backend/... ./platform/... ./migrations/...

# The Windows process-tree and shell-catalog code, run for real under Wine.
test-windows:
	@scripts/ensure-apt.sh --with-recommends wine64 wine
	scripts/wine-test.sh

# Provider keys against a real OS keychain (on Linux a private gnome-keyring
# Secret Service). Not part of `test`: see scripts/test-keychain.sh.
test-keychain:
	scripts/test-keychain.sh

bindings:
	@tmp=$$(mktemp -d); go build -tags bindings -o $$tmp/bindings . && $$tmp/bindings >/dev/null; rm -rf $$tmp

bindings-check: bindings
	@if [ -n "$$(git status --porcelain -- frontend/wailsjs)" ]; then \
		git status --porcelain -- frontend/wailsjs; git diff -- frontend/wailsjs | head -50; \
		echo "frontend/wailsjs is stale: run 'make bindings' and commit the result"; exit 1; fi

smoke: build
	scripts/smoke.sh $(BIN) build/ci/screenshot.png

# A visualization fragment in the real window tries to call the app's bound
# methods through WebKit's message handlers; fails if any call got through
# (README "Visualizations and the sandbox"). About 15 s.
test-viz-escape: build
	@scripts/ensure-apt.sh xvfb xauth x11-utils xdotool imagemagick
	scripts/viz-escape-probe.sh $(BIN) build/ci/viz-escape-probe.png

# End-to-end flows (frontend/e2e): the dev build of the app under Xvfb, its Wails dev
# server driven by Debian's Chromium through Playwright, a scripted fake model. Screenshots
# of every flow land in frontend/e2e/screenshots/ (git-ignored).
deps-e2e:
	@scripts/ensure-apt.sh $(APT_BUILD) xvfb xauth chromium

test-e2e: deps-e2e deps-mcp-servers frontend
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	go build -tags dev,webkit2_41 -o "$$tmp/pi-desktop-dev" . && \
	cd frontend && PI_E2E_BINARY="$$tmp/pi-desktop-dev" npx playwright test -c e2e

# Benchmarks side by side with rg and fd; writes BENCHMARKS.md. Not part of
# `make test`. BENCH_FLAGS passes options to the driver (go run ./bench -h).
BENCH_FLAGS ?=
deps-bench:
	@scripts/ensure-apt.sh $(APT_BUILD) xvfb xauth x11-utils imagemagick ripgrep fd-find chromium

bench: deps-bench deps-mcp-servers build
	go run ./bench -app $(BIN) $(BENCH_FLAGS)

# The Linux app built with the Wails CLI v2.9.2 (cached in
# ~/.cache/pi-desktop-build), as a tarball under build/dist.
package: deps-build frontend
	scripts/package.sh $(VERSION)

# Windows cross-build and NSIS installer, under build/dist.
package-windows: frontend
	@scripts/ensure-apt.sh nsis
	scripts/package-windows.sh $(VERSION)

# Both packages built and checked as a user receives them (CI runs this
# after `make test`): tarball contents, stamped version, install script,
# Windows executable under Wine, NSIS installer.
package-check: deps-build frontend
	@scripts/ensure-apt.sh nsis desktop-file-utils lintian rpm
	@scripts/ensure-apt.sh --with-recommends wine64 wine
	scripts/package-check.sh $(VERSION)

clean:
	rm -rf build/bin build/ci build/dist frontend/node_modules testdata/mcp-servers/node_modules
	find frontend/dist -mindepth 1 ! -name .gitkeep -delete
