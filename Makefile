# puckd: `make run` and `make test` set up what is missing and do the job (see README.md).
SWIFT        ?= swift
# Debian packages: build (C libraries), tests (gpsd to test the gpsd source, python3 for the scorer,
# xz to unpack fixtures) and benchmarks (gpsd-clients for gpsdecode, pip for pynmea2, time for RSS).
BUILD_PKGS   := libserialport-dev libgpiod-dev pkg-config
TEST_PKGS    := $(BUILD_PKGS) python3 xz-utils gpsd
BENCH_PKGS   := $(TEST_PKGS) gpsd-clients python3-pip python3-venv time valgrind
# The device binary: Swift runtime linked statically, so the board needs no Swift toolchain.
RELEASE_FLAGS := -c release --static-swift-stdlib
PUCKD        := .build/release/puckd

.PHONY: all deps-build deps-test deps-bench build run test test-debug test-release bench hil clean

all: build

deps-build: ; @./scripts/apt-ensure $(BUILD_PKGS)
deps-test:  ; @./scripts/apt-ensure $(TEST_PKGS)
deps-bench: ; @./scripts/apt-ensure $(BENCH_PKGS)

build: deps-build
	$(SWIFT) build $(RELEASE_FLAGS) --product puckd

# The main job on the embedded default: the whole device on the simulated board (the drive compiled
# into the binary replayed over a pty, IMU and GPIO twins), with a live status line; type `press`,
# `press long`, `leds` or `help`, Ctrl-C stops it.
run: build
	$(PUCKD) run --board sim

# All tests, in debug and in release (allocation proofs must hold in both builds).
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing
	$(SWIFT) test --skip-build -c release

bench: deps-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product puckd
	$(SWIFT) build -c release --product puckd-bench
	./scripts/bench

# Hardware-in-the-loop: each Tests/HIL/scenarios/*.sh in its own QEMU VM against the kernel's real
# GPIO, I2C and UART drivers; installs its Debian packages; fails on any failure (Tests/HIL/README.md).
hil:
	Tests/HIL/run-scenarios.sh

clean:
	rm -rf .build
