# puckd: `make run` and `make test` set up what is missing and do the job (see README.md).
SWIFT        ?= swift
# Debian packages: build (C libraries), tests (gpsd to test the gpsd source, python3 for the scorer,
# xz to unpack fixtures) and benchmarks (gpsd-clients for gpsdecode, pip for pynmea2, time for RSS).
BUILD_PKGS   := libserialport-dev libgpiod-dev pkg-config
TEST_PKGS    := $(BUILD_PKGS) python3 xz-utils gpsd
BENCH_PKGS   := $(TEST_PKGS) gpsd-clients python3-pip python3-venv time valgrind
# The device binary: one static executable (Swift runtime, libserialport.a and libgpiod.a linked in),
# so the board needs no Swift toolchain and peak RSS stays small. It has its own scratch directory so
# switching between it and the test builds does not rebuild everything.
DEVICE_FLAGS := -c release -Xswiftc -static-executable --scratch-path .build/device
PUCKD        := .build/device/release/puckd

.PHONY: all deps-build deps-test deps-bench build run test bench hil clean install uninstall

all: build

deps-build: ; @./scripts/apt-ensure $(BUILD_PKGS)
deps-test:  ; @./scripts/apt-ensure $(TEST_PKGS)
deps-bench: ; @./scripts/apt-ensure $(BENCH_PKGS)

build: deps-build
	$(SWIFT) build $(DEVICE_FLAGS) --product puckd

# The main job on the embedded default: the whole device on the simulated board (the drive compiled
# into the binary replayed over a pty, IMU and GPIO twins) with its console on this terminal, showing
# the live status at once (watch status 2); Ctrl-C gives the prompt (help lists the commands), quit or
# Ctrl-D exits. Not on a terminal (`make run < /dev/null`, a pipe): commands are read line by line and
# the end of input stops it after the start-up report (on standard error) and the last reply.
run: build
	$(PUCKD) run --board sim --set 'console.start_command=watch status 2'

# All tests, in debug and in release (allocation proofs must hold in both builds).
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(SWIFT) build --build-tests -c release -Xswiftc -enable-testing
	$(SWIFT) test --skip-build -c release

bench: deps-bench
	$(SWIFT) build $(DEVICE_FLAGS) --product puckd
	$(SWIFT) build -c release --product puckd-bench
	./scripts/bench

# Hardware-in-the-loop: each Tests/HIL/scenarios/*.sh in its own QEMU VM against the kernel's real
# GPIO, I2C and UART drivers; installs its Debian packages; fails on any failure (Tests/HIL/README.md).
hil:
	Tests/HIL/run-scenarios.sh

# Installs puckd as a systemd service for a board profile (board/*.conf); see board/README.md.
#   make install BOARD=pi4-berrygps-imu-v4      make uninstall
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
install: build
	@[ -n "$(BOARD)" ] || { echo "make install BOARD=NAME (boards: $$(ls board/*.conf | sed 's|board/||; s|\.conf||' | tr '\n' ' '))"; exit 64; }
	$(SUDO) board/install.sh $(BOARD)

uninstall:
	$(SUDO) board/install.sh --uninstall

clean:
	rm -rf .build
