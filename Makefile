# RouteLog: the commands people run. `make demo` and `make test` install what is missing first.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BENCH_OUT ?= $(CURDIR)/.build/bench-summary.json
FUZZ_SECONDS ?= 60
# The tools' package (routelog, routelog-serve, routelog-mcp, the timeline, the demo), beside the
# library at the root, which it depends on by path.
TOOLS := Tools/RouteLogTools
TOOLS_SWIFT = $(SWIFT) build --package-path $(TOOLS)
TOOLS_BIN = $$($(TOOLS_SWIFT) --show-bin-path)
PREFIX ?= /usr/local
CONFIGURATION ?= release
# `make docs`: where the site goes and the path it is served under (https://HOST/RouteLog/...).
DOCS_OUT ?= $(CURDIR)/.build/docs
DOCS_BASE_PATH ?= RouteLog

.PHONY: setup build test test-apple-locks doc-examples docs api-check api-baseline test-tsan demo bench fuzz fixtures-check apple-check install clean

# Installs the system packages RouteLog needs: liblmdb-dev (the store), lmdb-utils (mdb_stat, used by
# tests), libsqlite3-dev (the benchmark baseline), pkg-config, python3 (the doc examples check), and
# for the browser tests of the timeline viewer chromium, chromium-driver and python3-selenium, and
# for the server's load test wrk, for the prune test faketime (a clock in the future), for the fleet
# export test python3-pip and DuckDB's Python package (into Debian's Python, which
# /usr/bin/python3 runs; Debian marks it externally managed, hence --break-system-packages), and for
# the MCP server's test the official MCP Python SDK and jsonschema, the same way.
# Only what is missing is installed.
setup:
	@missing=""; \
	for pkg in liblmdb-dev lmdb-utils pkg-config libsqlite3-dev python3 python3-pip chromium chromium-driver python3-selenium wrk faketime; do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi
	@/usr/bin/python3 -c "import duckdb" 2>/dev/null || { \
	  echo "installing: duckdb (pip)"; \
	  $(SUDO) /usr/bin/python3 -m pip install -q --break-system-packages duckdb 2>/dev/null || \
	    $(SUDO) /usr/bin/python3 -m pip install -q duckdb; \
	}
	@/usr/bin/python3 -c "import mcp, jsonschema" 2>/dev/null || { \
	  echo "installing: mcp, jsonschema (pip)"; \
	  $(SUDO) /usr/bin/python3 -m pip install -q --break-system-packages mcp jsonschema 2>/dev/null || \
	    $(SUDO) /usr/bin/python3 -m pip install -q mcp jsonschema; \
	}

build: setup
	$(SWIFT) build
	$(TOOLS_SWIFT)

# Builds the tools (CONFIGURATION, release by default) and copies routelog, routelog-serve and
# routelog-mcp into PREFIX/bin (routelog runs the other two from its own folder).
install: setup
	$(TOOLS_SWIFT) -c $(CONFIGURATION) --product routelog
	$(TOOLS_SWIFT) -c $(CONFIGURATION) --product routelog-serve
	$(TOOLS_SWIFT) -c $(CONFIGURATION) --product routelog-mcp
	@bin=$$($(TOOLS_SWIFT) -c $(CONFIGURATION) --show-bin-path); mkdir -p "$(PREFIX)/bin" && \
	  for t in routelog routelog-serve routelog-mcp; do install -m 755 "$$bin/$$t" "$(PREFIX)/bin/$$t" || exit 1; done && \
	  echo "installed routelog, routelog-serve and routelog-mcp in $(PREFIX)/bin"

# First a check that the Linux build resolved no Apple-only package (agisboye/CLMDB, LMDB's sources for
# Apple platforms, behind the BundledLMDB trait, which is off on Linux; a stale Package.resolved that
# pins it would make even a trait-off build fetch it). Then the public API check (api-check, below:
# its self-test, then the built modules against Tools/API), the doc examples, the DocC build (docs,
# below: fails on any warning), the Swift tests, the store's and the multi-process tests again with
# LMDB's Apple lock mode (test-apple-locks, below),
# the timeline viewer's browser tests (headless Chromium driven by
# Selenium, with Debian's Python: /usr/bin/python3 sees python3-selenium; screenshots go to
# .build/browser/), the server under forged requests, signals, idle connections and load (wrk), the
# store commands it reads from (import, compact) on a full disk and killed midway, the
# fleet queries of the store guide's FleetExport article run by DuckDB over an export of generated sessions,
# the MCP server driven over stdio by the official Python MCP client, the three front ends
# (CLI --json, the server's API, the MCP tools) compared field by field with hostile MCP arguments,
# the long commands' progress on a pseudo-terminal and through a pipe, a crashed run reproduced
# (its fixture checked and its generated test type-checked),
# then the fuzz smoke run: the fuzzers' package (Tools/Fuzz) built in debug, each harness for 1 s from
# its seed corpus (and its regression inputs), so a harness that stops building or crashes fails.
# `swift build --build-tests` also builds the test programs (Tests/Programs: routelog-crash-app,
# routelog-lmdb-crashtest) beside the tests, where the Swift and the Python tests start them; the
# Python tests share Tests/Support/routelog_testkit.py.
test: setup
	$(SWIFT) build --build-tests
	$(TOOLS_SWIFT) --build-tests
	@found=""; for dir in . $(TOOLS); do \
	  c=$$(ls -d $$dir/.build/checkouts/* 2>/dev/null | grep -i '/clmdb$$' | head -1); [ -n "$$c" ] && found="$$found $$c"; \
	  grep -qis clmdb $$dir/Package.resolved && found="$$found $$dir/Package.resolved"; \
	done; \
	if [ -n "$$found" ]; then \
	  echo "make test: the Linux build resolved agisboye/CLMDB, LMDB for Apple platforms only ($${found# }): remove those Package.resolved files and checkouts, and keep the BundledLMDB trait off on Linux" >&2; \
	  exit 1; \
	fi
	Tools/AppResolve/check.sh
	Tools/API/check.sh --self-test
	Tools/API/check.sh
	Tools/DocExamples/check.sh
	$(build_docs)
	/usr/bin/python3 Tools/Layout/check.py
	/usr/bin/python3 Tools/Layout/check.py --self-test
	$(SWIFT) test --skip-build
	$(SWIFT) test --skip-build --package-path $(TOOLS)
	Tools/AppleLocks/run.sh
	APPLE_LOCKS_PACKAGE=$(TOOLS) Tools/AppleLocks/run.sh
	/usr/bin/python3 $(TOOLS)/Tests/Browser/timeline_browser_test.py "$(TOOLS_BIN)" "$(CURDIR)/.build/browser"
	/usr/bin/python3 $(TOOLS)/Tests/Serve/serve_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Serve/store_commands_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Browser/lanes_browser_test.py "$(TOOLS_BIN)" "$(CURDIR)/.build/browser"
	/usr/bin/python3 $(TOOLS)/Tests/Fleet/fleet_duckdb_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/MCP/mcp_client_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Parity/front_ends_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Progress/progress_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Repro/repro_test.py "$(TOOLS_BIN)"
	/usr/bin/python3 $(TOOLS)/Tests/Install/install_test.py
	FUZZ_CONFIG=debug Tools/Fuzz/run.sh 1

# libFuzzer on every parser, FUZZ_SECONDS per harness: the package Tools/Fuzz, whose harnesses use the
# library's and the tools' real modules, built in release with -sanitize=fuzzer,address. The fuzzer
# and address sanitizer runtimes ship with the Swift toolchain; nothing else is needed.
fuzz: setup
	Tools/Fuzz/run.sh $(FUZZ_SECONDS)

# The public API of the app-facing modules (RouteLogCore, RouteLogLMDB, RouteLog, RouteLogTesting,
# RouteLogSwiftUI; SPI and `package` declarations left out) against the committed baseline,
# Tools/API/<Module>.json, with swift-api-digester: fails with one line per breaking change (a
# declaration removed or renamed, a changed signature, a new protocol requirement...); additions
# pass. First its self-test: a probe module compiled three ways must fail on a break and pass an
# addition. A few seconds once built; part of `make test`. See Tools/API/check.sh.
api-check: setup
	$(SWIFT) build
	Tools/API/check.sh --self-test
	Tools/API/check.sh

# Rewrites Tools/API/ from the built modules. Commit it with the change to the API; a breaking change
# also needs its entry in CHANGELOG.md.
api-baseline: setup
	$(SWIFT) build
	Tools/API/check.sh --update

# Compiles every ```swift block of README.md, the DocC articles and the tools' manual against the built modules.
doc-examples: build
	Tools/DocExamples/check.sh

# The DocC documentation of the app-facing modules (RouteLogCore, RouteLogLMDB, RouteLog,
# RouteLogTesting, RouteLogSwiftUI; on Linux RouteLogSwiftUI has its articles but no symbols, which
# need SwiftUI), built by the Swift-DocC plugin as one combined site for static hosting under
# DOCS_BASE_PATH, into DOCS_OUT (.build/docs). Its symbols are the public API: SPI and internal
# declarations are not in it, so a link to one (``LMDBEventLog/verify(session:reducer:)``) fails like
# a renamed one; a link to another module starts with a slash (``/RouteLogCore/EventLog``). Fails on
# any warning (an unresolved symbol or article link, an undocumented parameter beside documented
# ones...), listing each on one line with its file and line, for all the modules at once (docc's
# --warnings-as-errors would stop the combined build at the first module that has one).
# ROUTELOG_DOCS=1 adds the plugin to Package.swift for this run only, so an app never resolves it;
# the run shares .build with `swift build`, which rebuilds nothing after it. Part of `make test`
# (20-40 s on 2 cores once the modules are built). To read it: `mkdir -p /tmp/site && ln -sfn
# $PWD/.build/docs /tmp/site/RouteLog && python3 -m http.server -d /tmp/site`, then open
# http://localhost:8000/RouteLog/documentation/.
docs: setup
	$(build_docs)

define build_docs
	@log=$$(mktemp); \
	ROUTELOG_DOCS=1 $(SWIFT) package --allow-writing-to-directory "$(DOCS_OUT)" generate-documentation \
	  --target RouteLogCore --target RouteLogLMDB --target RouteLog --target RouteLogTesting --target RouteLogSwiftUI \
	  --enable-experimental-combined-documentation --disable-indexing --transform-for-static-hosting \
	  --hosting-base-path "$(DOCS_BASE_PATH)" --output-path "$(DOCS_OUT)" --ide-console-output >"$$log" 2>&1; rc=$$?; \
	found=$$(grep -E '(^|: )(warning|error): ' "$$log" | LC_ALL=C sort -u); \
	if [ $$rc -ne 0 ] || [ -n "$$found" ]; then \
	  if [ -n "$$found" ]; then sed 's/^/docs: /' <<<"$$found" >&2; else tail -20 "$$log" | sed 's/^/    /' >&2; fi; \
	  echo "make docs: the DocC build failed (exit $$rc; $$(grep -c . <<<"$$found") warnings or errors)" >&2; rm -f "$$log"; exit 1; \
	fi; \
	rm -f "$$log"; echo "docs: RouteLogCore, RouteLogLMDB, RouteLog, RouteLogTesting and RouteLogSwiftUI built without a warning into $(DOCS_OUT)"
endef

# Checks RouteLog for arm64-apple-ios17.0 against the iOS SDK at IOS_SDK (an iPhoneOS17.x.sdk folder):
# the LMDB that ships (LMDB 0.9.24's mdb.c and midl.c, from Debian's lmdb source package via
# Tools/LMDB/source.sh, compiled for iOS: they must import POSIX semaphores and no System V semaphore
# call, semget/semop/semctl, which the iOS sandbox kills; a self-test shows the check flags a System V
# build); then type-checks the library products' targets and what they depend on for iOS, read from
# the manifest (swift package dump-package and describe: RouteLogCore, RouteLog, RouteLogSwiftUI and
# RouteLogLMDB with the BundledLMDB trait; each compiled to an arm64 object in the same run), and
# every README/DocC Swift block marked swiftui or apple; then
# the required-reason APIs: each one those objects and LMDB's import (llvm-nm -u: stat, fstat,
# statvfs, mach_absolute_time, ...) or their sources name (creationDate, systemUptime, UserDefaults,
# ...) must be declared, with one of Apple's reasons, in the PrivacyInfo.xcprivacy of the module that
# links it (LMDB's: RouteLogLMDB's), which must pass plutil -lint and be a resource of its target; a
# self-test shows the check flags a manifest missing a category. Fails if any part does.
# Not part of `make test`: it needs an SDK, which a Linux machine does not have.
apple-check: setup
	IOS_SDK="$(IOS_SDK)" python3 Tools/AppleCheck/check.py

# LMDB locking as on Apple platforms (POSIX named semaphores, no robust mutexes), on Linux: builds
# .build/apple-locks/liblmdb.so.0 from LMDB 0.9.24's source (Debian's lmdb source package, fetched
# into .build by Tools/LMDB/source.sh, never committed) with -DMDB_USE_POSIX_SEM (and mdb_stat/mdb_dump
# against it, first on PATH), checks its symbols, and runs the built tests tagged appleLocks (the
# store's tests, the lifecycle tests and the multi-process CLI tests) against it (LD_LIBRARY_PATH; ldd
# and the running processes are checked to load it) under a 900 s timeout: a hang is reported with
# the processes still running, then killed. POSIX semaphores left in /dev/shm by killed processes
# are counted and removed.
# Part of `make test` (30-45 s on 2 cores once the tests are built); see Tools/AppleLocks/run.sh.
test-apple-locks: setup
	$(SWIFT) build --build-tests
	$(TOOLS_SWIFT) --build-tests
	Tools/AppleLocks/run.sh
	APPLE_LOCKS_PACKAGE=$(TOOLS) Tools/AppleLocks/run.sh

test-tsan: setup
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan

fixtures-check: build
	$$($(TOOLS_SWIFT) --show-bin-path)/routelog fixtures check Fixtures

demo: setup
	$(TOOLS_SWIFT) --product routelog-demo
	$(TOOLS_SWIFT) --product routelog
	@bin=$$($(TOOLS_SWIFT) --show-bin-path); PATH="$$bin:$$PATH" "$$bin/routelog-demo" && \
	  echo "The session's timeline, one HTML file to open in a browser:" && \
	  "$$bin/routelog" report latest -o "$(CURDIR)/.build/demo-report.html"

bench: setup
	cd Tools/Benchmarks && BENCH_OUT="$(BENCH_OUT)" ./run.sh

clean:
	rm -rf .build .build-tsan $(TOOLS)/.build Tools/Benchmarks/.build Tools/Fuzz/.build
