# puckd: `make run` and `make test` set up what is missing and do the job (see README.md).
SWIFT        ?= swift
# Debian packages: build (C libraries; valgrind and binutils to profile the symbol order), tests (gpsd to test the gpsd source, python3 for the scorer,
# xz to unpack fixtures, debian-archive-keyring for fetching the other libgpiod API, the aarch64 cross
# compiler for scripts/check-aarch64, cc for the static binary's NSS test, xmllint to validate the track
# log's GPX against the GPX 1.1 schema, mosquitto + mosquitto-clients and nginx-light for the uplink's
# tests against a real broker and web server, openssl to make the TLS tests' CA and certificates) and
# benchmarks (gpsd-clients for gpsdecode, pip for pynmea2, time for RSS, binutils for the RSS breakdown,
# mosquitto and mosquitto-clients for the fleet area's broker, consumer and peer).
BUILD_PKGS   := libserialport-dev libgpiod-dev libcrypt-dev libssl-dev pkg-config valgrind binutils
TEST_PKGS    := $(BUILD_PKGS) python3 xz-utils gpsd gpsd-clients python3-gps debian-archive-keyring gcc libc6-dev libxml2-utils \
                gcc-aarch64-linux-gnu libc6-dev-arm64-cross mosquitto mosquitto-clients nginx-light chrony systemd openssl tmux
BENCH_PKGS   := $(BUILD_PKGS) python3 xz-utils gpsd gpsd-clients python3-pip python3-venv time valgrind binutils mosquitto mosquitto-clients
# The Debian package (make deb, and make test, which installs it): debhelper and dpkg-dev build it,
# lintian checks it (man-db for its manual page checks), systemd's systemd-analyze verifies the unit.
DEB_PKGS     := debhelper dpkg-dev lintian man-db systemd
# The device binary: one static executable (Swift runtime, libserialport.a, libgpiod.a, libssl.a and libcrypto.a linked in),
# so the board needs no Swift toolchain. Linked by lld with the functions puckd runs placed together
# (.build/puckd.order, a callgrind profile the build makes itself when the sources changed:
# scripts/link-order --if-stale): peak RSS counts every 64 KB block of the binary the kernel maps
# around a page fault (docs/power.md §3.2). Own scratch directory, so switching between it and the
# test builds does not rebuild everything.
ORDER        := $(CURDIR)/.build/puckd.order
DEVICE_LINK  := -c release -Xswiftc -static-executable -Xswiftc -use-ld=lld \
                -Xlinker --symbol-ordering-file=$(ORDER) -Xlinker --no-warn-symbol-ordering
DEVICE_FLAGS := $(DEVICE_LINK) --scratch-path .build/device
PUCKD        := .build/device/release/puckd
# libgpiod of the other API (v2 on Debian 12, v1 on Debian 13), fetched as Debian packages into
# .build/libgpiod-other by scripts/libgpiod-other (nothing installed); builds against it use their own
# scratch paths, find it through PKG_CONFIG_PATH and link its libgpiod.a (no run-time path needed).
OTHER_GPIOD  := $(CURDIR)/.build/libgpiod-other
OTHER_ENV    := PKG_CONFIG_PATH=$(OTHER_GPIOD)/pkgconfig
PUCKD_OTHER  := .build/device-other/release/puckd
# What the tests of each build must find: the libgpiod version it links, and its static device binary.
SYSTEM_TEST_ENV = PUCKD_EXPECT_LIBGPIOD=$$(pkg-config --modversion libgpiod) PUCKD_DEVICE_BINARY=$(CURDIR)/$(PUCKD)
OTHER_TEST_ENV  = $(OTHER_ENV) PUCKD_EXPECT_LIBGPIOD=$$($(OTHER_ENV) pkg-config --modversion libgpiod) \
                  PUCKD_DEVICE_BINARY=$(CURDIR)/$(PUCKD_OTHER)

.PHONY: all deps-build deps-test deps-bench deps-deb build build-other libgpiod-other run test test-other bench hil \
        clean install uninstall goldens order deb test-deb

all: build

deps-build: ; @./scripts/apt-ensure $(BUILD_PKGS)
deps-test:  ; @./scripts/apt-ensure $(TEST_PKGS)
deps-bench: ; @./scripts/apt-ensure $(BENCH_PKGS)
deps-deb:   ; @./scripts/apt-ensure $(DEB_PKGS)

build: deps-build
	./scripts/link-order --if-stale
	$(SWIFT) build $(DEVICE_FLAGS) --product puckd

libgpiod-other: deps-build
	@./scripts/apt-ensure debian-archive-keyring
	./scripts/libgpiod-other $(OTHER_GPIOD)

# The device binary against the other libgpiod API (make hil runs the puckd scenario on both).
build-other: libgpiod-other
	./scripts/link-order --if-stale
	$(OTHER_ENV) $(SWIFT) build $(DEVICE_LINK) --scratch-path .build/device-other --product puckd

# The main job on the embedded default: the whole device on the simulated board (the drive compiled
# into the binary replayed over a pty, IMU and GPIO twins) with its console on this terminal, showing
# the live status at once (watch status 2); Ctrl-C gives the prompt (help lists the commands), quit or
# Ctrl-D exits. Not on a terminal (`make run < /dev/null`, a pipe): commands are read line by line and
# the end of input stops it after the start-up report (on standard error) and the last reply.
run: build
	$(PUCKD) run --board sim --set 'console.start_command=watch status 2'

# All tests, in debug and in release (allocation proofs must hold in both builds), against this
# machine's libgpiod (Debian 12: 1.6.3, API v1); then test-other: every test that links the GPIO code
# (HardwareTests, ControlsTests, SimulationTests, PuckdTests, CommandsTests) in a debug build against
# the other API (Debian 12: 2.2.1, API v2); the device binary of each build is tested too
# (static-binary tests); then the C targets for aarch64.
test: deps-test build
	$(SWIFT) build --build-tests
	$(SYSTEM_TEST_ENV) $(SWIFT) test --skip-build
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing
	$(SYSTEM_TEST_ENV) $(SWIFT) test --skip-build -c release
	@$(MAKE) --no-print-directory test-other
	./scripts/check-aarch64 $(OTHER_GPIOD)
	@$(MAKE) --no-print-directory test-deb
	@echo "make test: passed with libgpiod $$(pkg-config --modversion libgpiod) (every test, debug and release)" \
	    "and libgpiod $$($(OTHER_ENV) pkg-config --modversion libgpiod) (the GPIO tests, debug)," \
	    "both device binaries; C targets for aarch64; the Debian package (see test-deb's last line)"

test-other: build-other
	$(OTHER_ENV) $(SWIFT) build --build-tests --scratch-path .build/gpiod-other
	$(OTHER_TEST_ENV) $(SWIFT) test --skip-build --scratch-path .build/gpiod-other --filter '^(HardwareTests|ControlsTests|SimulationTests|PuckdTests|CommandsTests)\.'

# Regenerates .build/puckd.order, the device binary's symbol order, even when it is fresh (make build
# does it only when the sources changed), then relinks the device binary with it (docs/power.md §3.2).
order: deps-build
	./scripts/link-order
	$(SWIFT) build $(DEVICE_FLAGS) --product puckd

# Regenerates the expected outputs of the golden tracking scenarios (Tests/Fixtures/tracking/README.md):
# each NAME.scenario run by `puckd scenario` at 10 Hz into NAME.expected.jsonl. Review with git diff.
goldens: deps-build
	$(SWIFT) build --product puckd
	@bin="$$($(SWIFT) build --show-bin-path)/puckd"; n=0; \
	for f in Tests/Fixtures/tracking/*.scenario; do \
	  "$$bin" scenario "$$f" --hz 10 > "$${f%.scenario}.expected.jsonl" || exit 1; n=$$((n + 1)); \
	done; echo "$$n golden scenarios written; review: git diff --stat Tests/Fixtures/tracking"

# Every area of scripts/bench, or the ones named: `make bench AREA=fleet`, `make bench AREA="nmea server"`.
bench: deps-bench build
	$(SWIFT) build -c release --product puckd-bench
	./scripts/bench $(AREA)

# Hardware-in-the-loop: builds both device binaries (the guest runs them from the host's root,
# read-only), then each Tests/HIL/scenarios/*.sh in its own QEMU VM against the kernel's real GPIO,
# I2C and UART drivers, and the puckd scenario a second time on the other libgpiod API's binary;
# installs its Debian packages; prints "N passed, N failed" and fails on any failure (Tests/HIL/README.md).
hil: build build-other
	HIL_LIBGPIOD=$$(pkg-config --modversion libgpiod) HIL_PUCKD_OTHER=$(PUCKD_OTHER) \
	    HIL_LIBGPIOD_OTHER=$$($(OTHER_ENV) pkg-config --modversion libgpiod) Tests/HIL/run-scenarios.sh

# The Debian package puckd_VERSION_ARCH.deb of the device binary (debian/, scripts/make-deb: debhelper
# via dpkg-buildpackage in .build/deb, then lintian), copied into this directory for
# `sudo apt install ./puckd_VERSION_ARCH.deb`. test-deb installs, upgrades, removes and purges it on
# this machine (as root or through password-less sudo; it says when it skips and why).
DEB_DIR      := .build/deb
DEB_FILE      = $(DEB_DIR)/puckd_$$(dpkg-parsechangelog -l debian/changelog -S Version)_$$(dpkg --print-architecture).deb
deb: build deps-deb
	./scripts/make-deb $(PUCKD) $(DEB_DIR)
	cp $(DEB_FILE) .

test-deb: deb
	./scripts/test-deb $(DEB_FILE)

# Installs puckd as a systemd service for a board profile (board/*.conf); see board/README.md.
#   make install BOARD=pi4-berrygps-imu-v4      make uninstall
# Run it as yourself: it builds with your Swift toolchain, then installs with sudo (sudo's secure_path
# has no Swift). Under `sudo make install` it installs the binary you built before and builds nothing.
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
install: $(if $(SUDO_USER),,build)
	@[ -n "$(BOARD)" ] || { echo "make install BOARD=NAME (boards: $$(ls board/*.conf | sed 's|board/||; s|\.conf||' | tr '\n' ' '))"; exit 64; }
	@[ -x "$(PUCKD)" ] || { echo "make install: $(PUCKD) is missing: run 'make build' as yourself (not with sudo), then 'make install BOARD=$(BOARD)'"; exit 1; }
	@[ -z "$(SUDO_USER)" ] || [ -z "$$(find Sources Package.swift -newer $(PUCKD) -print -quit)" ] || \
	    echo "make install: note: sources changed after $(PUCKD) was built; installing it anyway (run 'make build' as yourself to update)"
	$(SUDO) board/install.sh $(BOARD)

uninstall:
	$(SUDO) board/install.sh --uninstall

clean:
	rm -rf .build

# --- Reliability: fuzzing, sanitizers, soak. Kept in their own block. ---------------
# make fuzz: every libFuzzer target of Fuzz/Targets/ (one file each; swiftc -sanitize=fuzzer,address)
# on its seed corpus in Tests/Fixtures/fuzz/, FUZZ_SECONDS each (default 60) or FUZZ_RUNS executions.
FUZZ_SECONDS ?= 60
.PHONY: fuzz test-asan test-tsan soak
fuzz: deps-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) ./scripts/fuzz

# The whole suite under AddressSanitizer / ThreadSanitizer (debug builds; the malloc counter counts
# through the sanitizer's allocator hooks, so the allocation proofs run too). Own scratch paths.
test-asan: deps-test
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan

test-tsan: deps-test
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan

# make soak: a 24-hour-equivalent replay (864 000 epochs at 10 Hz, every fix must come out) and a timed
# run of the device sampling RSS, descriptors and counters (SOAK_SECONDS, default 600).
SOAK_SECONDS ?= 600
soak: deps-test build
	SOAK_SECONDS=$(SOAK_SECONDS) ./scripts/soak $(PUCKD)
