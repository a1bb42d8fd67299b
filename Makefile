# gridlock: the two commands of the README are `make demo` and `make test`.
# Both install what is missing first (Debian packages), so they work on a fresh Debian 12
# with a Swift toolchain; on Debian 13 that is Debian's swiftlang, installed like the rest
# (`make demo` and `make check` there: tests/check-newcomer-trixie).
# While changing the code: `make check` (the Swift suites on the host's toolchain) and
# `make check-trixie` (the same, also with Debian 13's Swift 6.0.3 in a cached trixie root).
# The packages: `make deb` (this machine's release), `make deb DIST=trixie [ARCH=arm64]`
# (Debian 13, amd64 or arm64, in that root), `make dist` (all three; docs/building.md).

PREFIX ?= /usr/local
DESTDIR ?=
HOST_DIST := $(shell . /etc/os-release 2>/dev/null && echo $$VERSION_CODENAME)
# The Swift toolchain: SWIFT if given, else `swift` on PATH, else the one unpacked in
# /opt/swift. A Debian 13 machine without either gets Debian's own, swiftlang (6.0.3, its
# `swift` is /usr/bin/swift), installed with the build packages. Debian 12 has no package
# of it: `make` stops and says where to get one (docs/building.md).
ifeq ($(origin SWIFT),undefined)
SWIFT := $(or $(shell command -v swift),$(wildcard /opt/swift/usr/bin/swift))
ifeq ($(SWIFT)-$(HOST_DIST),-trixie)
SWIFT := /usr/bin/swift
TOOLCHAIN_PACKAGES := swiftlang
endif
SWIFT := $(or $(SWIFT),swift)
endif
# The toolchain's lld links the release binaries: relative relocations packed (DT_RELR,
# glibc 2.36), no symbols exported from the executables, libstdc++ linked statically (the
# linker script in tools/static-libstdc++/ stands in for libstdc++.so), and the functions
# start-up runs placed side by side (tools/link-order.txt, written by tools/link-order.py).
# Together that is 3.8 MiB less resident memory in gridlockd (docs/performance.md).
RELEASE_FLAGS := -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic \
	-Xlinker -L$(CURDIR)/tools/static-libstdc++ \
	-Xlinker --symbol-ordering-file=$(CURDIR)/tools/link-order.txt -Xlinker --no-warn-symbol-ordering

# What building needs (HarfBuzz, fribidi and fontconfig set the messages; libwayland the lock face's
# adapter, GridlockWayland, and wayland-scanner with the protocols' XML tools/wayland-protocols); what the tests add (evemu tools, systemd-analyze, and QEMU with
# busybox and kmod for the real-kernel suite; gcc and libc6-dev for its static uhid helper,
# python3-venv for hid-tools from PyPI in tests/vm/cache/).
# The names are Debian's; DIST says which release they are for (the host's by default): only
# the libstdc++ of the release's GCC differs (12 in bookworm, 14 in trixie).
DIST ?= $(HOST_DIST)
gcc-major.bookworm := 12
gcc-major.trixie := 14
build-packages = libevdev-dev libdrm-dev libcairo2-dev libharfbuzz-dev libfribidi-dev libfontconfig-dev libinih-dev libsodium-dev zlib1g-dev \
	libwayland-dev libwayland-bin wayland-protocols \
	libstdc++-$(or $(gcc-major.$(1)),$(error DIST=$(1): the build packages are named for bookworm and trixie; set DIST=bookworm or DIST=trixie))-dev \
	fonts-dejavu-core pkg-config
BUILD_PACKAGES = $(call build-packages,$(DIST)) $(TOOLCHAIN_PACKAGES)
# libelf was renamed in trixie (the 64-bit time_t transition).
libelf.trixie := libelf1t64
TEST_PACKAGES := evemu-tools faketime systemd qemu-system-x86 busybox-static cpio kmod xz-utils gcc libc6-dev python3-venv make \
	$(or $(libelf.$(HOST_DIST)),libelf1)
# Fonts the script tests fall back to: Chinese (WenQuanYi Micro Hei, 5 MB), Thai (Loma, 0.4 MB)
# and Hindi (Lohit Devanagari, 0.2 MB); Arabic comes from DejaVu Sans.
SUITE_FONT_PACKAGES := fonts-wqy-microhei fonts-tlwg-loma-ttf fonts-lohit-deva
# What `make check` adds to the build packages: those fonts with fontconfig's cache
# (fc-cache), the zone files (tzdata) and Python for tests/check-test-names; a Debian 12
# installation has the last three, a minimal Debian 13 one may not.
CHECK_PACKAGES := $(SUITE_FONT_PACKAGES) fontconfig tzdata python3
TEST_PACKAGES += $(CHECK_PACKAGES)
# The headless compositor tier (tests/wayland) builds its host clients with this machine's
# libwayland-client and wayland-protocols' xdg-shell (wayland-scanner is in libwayland-bin).
TEST_PACKAGES += libwayland-dev libwayland-bin wayland-protocols
# The Debian 13 root of `make check-trixie` (tools/trixie-root, cached under
# /var/cache/gridlock-build/ by a hash of this list): Debian's Swift 6.0.3 (swiftlang), the
# build packages named for trixie, and what the Swift suites read besides the build: the
# fallback fonts with fontconfig's cache (fc-cache), and the zone files (tzdata, which a
# --variant=apt root lacks). The Swift suites start no evemu tool (only tests/e2e and
# tests/vm do), so evemu-tools is not in it.
# The same root builds and packages the Debian 13 binaries (`make release|deb DIST=trixie`,
# docs/building.md): Debian's packaging tools, the arm64 binutils that dh_strip and
# dpkg-shlibdeps use on arm64 binaries, and QEMU's user-mode emulator (qemu-user: static
# binaries, no binfmt registration) that runs an arm64 binary for help2man and the smoke test.
TRIXIE_ROOT_PACKAGES = swiftlang $(call build-packages,trixie) $(SUITE_FONT_PACKAGES) fontconfig tzdata \
	$(DEB_PACKAGES) binutils-aarch64-linux-gnu qemu-user
# The root of the headless compositor tier (tests/wayland, `make test-wayland-headless`;
# tools/trixie-root, cached under /var/cache/gridlock-build/ by a hash of this list, 340 MB):
# Debian 13's sway 1.10 with swaybg (sway's solid-colour background) and labwc 0.8, both on
# wlroots' headless backend, and weston and cage, which lack ext-session-lock-v1; wayland-info (wayland-utils), grim (screenshots, screencopy)
# and wlr-randr (labwc's output size). The virtual pointer (tests/wayland/drag) and the
# helpers built from C (tests/wayland/*.c) run on the host: nothing to compile in the root.
WAYLAND_ROOT_PACKAGES := sway swaybg labwc weston cage wayland-utils grim wlr-randr
# What the arm64 Swift SDK's sysroot holds (tools/arm64-sysroot, cached under
# /var/cache/gridlock-build/ by a hash of this list): libc, GCC 14's libgcc and libstdc++, the
# kernel headers and the -dev packages of the build packages, all for trixie.
ARM64_SYSROOT_PACKAGES = libc6-dev libgcc-14-dev linux-libc-dev $(filter %-dev,$(call build-packages,trixie))
# Its own scratch path: modules built by one compiler are never read by another.
TRIXIE_SCRATCH := .build/trixie-amd64
# The deployed scenarios (tests/vm/deployed): a Debian 12 image built with mmdebstrap, made
# into ext4 by mke2fs -d.
TEST_PACKAGES += mmdebstrap e2fsprogs
# The arm64 guest (tests/vm/suite --arch arm64): its QEMU, and Debian's cross compiler for
# its static helpers (with the cross binutils that strip its binaries).
TEST_PACKAGES += qemu-system-arm gcc-aarch64-linux-gnu
# tests/e2e counts a damage-only frame's instructions with callgrind (`gridlock bench
# --instructions callgrind`): CI's VM has no hardware counter.
TEST_PACKAGES += valgrind

# `make deb`: Debian's packaging tools. The version is debian/changelog's first line, the
# only place it is written.
# dpkg-checkbuilddeps always asks for build-essential, which a machine with only the Swift
# toolchain may lack.
DEB_PACKAGES := build-essential debhelper dpkg-dev lintian fakeroot help2man
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)

# What `make release` and `make deb` build for (docs/building.md): DIST (above) and ARCH,
# the host's by default, built with the host's toolchain. DIST=trixie builds inside the trixie
# root with Debian 13's own Swift 6.0.3: natively for ARCH=amd64, and for ARCH=arm64 against
# the Swift SDK of tools/arm64-sysroot (an arm64 trixie sysroot with swiftlang:arm64's runtime
# of the same version), so a compiler and a runtime of different versions are never mixed.
# Each target has its own scratch path; only the host's own is .build.
HOST_ARCH := $(shell dpkg --print-architecture)
ARCH ?= $(HOST_ARCH)
# SwiftPM's folder of a cross build is named by the target's triple; a native build's by the
# host's (trixie's SwiftPM calls it x86_64-pc-linux-gnu), with a `release` link to it.
triple.arm64 := aarch64-unknown-linux-gnu
# Inside the trixie root (its stamp is there) the repository is the host's: never its .build.
IN_BUILD_ROOT := $(wildcard /etc/gridlock-build-root)
ifeq ($(DIST)-$(ARCH)$(IN_BUILD_ROOT),$(HOST_DIST)-$(HOST_ARCH))
SCRATCH := .build
BIN := .build/release
else
SCRATCH := .build/$(DIST)-$(ARCH)
BIN := $(SCRATCH)/$(if $(filter $(HOST_ARCH),$(ARCH)),,$(or $(triple.$(ARCH)),$(error ARCH=$(ARCH): builds are for amd64 and arm64))/)release
endif
ifeq ($(DIST),$(HOST_DIST))
IN_ROOT :=
NEEDS_ROOT :=
else ifeq ($(DIST),trixie)
NEEDS_ROOT := yes
# (debhelper is told that the build runs arm64 binaries, under QEMU: TARGET_RUN below.)
IN_ROOT = tools/trixie-root $(if $(CROSS),--bind $(ARM64_SDK)) run env DIST=$(DIST) ARCH=$(ARCH) \
	$(if $(CROSS),ARM64_SDK=$(ARM64_SDK) DEB_BUILD_OPTIONS=crossbuildcanrunhostbinaries)
else
$(if $(filter release deb,$(MAKECMDGOALS)),$(error DIST=$(DIST): this machine is $(HOST_DIST); it builds for it and for trixie (DIST=trixie)))
endif
ifneq ($(ARCH),$(HOST_ARCH))
CROSS := $(if $(filter trixie-amd64-arm64,$(DIST)-$(HOST_ARCH)-$(ARCH)),yes,$(if $(filter release deb,$(MAKECMDGOALS)),$(error ARCH=$(ARCH) DIST=$(DIST): cross-compiling is from amd64 to arm64 for trixie only (DIST=trixie ARCH=arm64))))
endif
# The arm64 SDK's folder: made (once) and found by tools/arm64-sysroot, asked only when needed.
ARM64_SDK ?= $(eval ARM64_SDK := $(or $(shell tools/arm64-sysroot path),$(error tools/arm64-sysroot failed (above))))$(ARM64_SDK)
SYSROOT = $(ARM64_SDK)/trixie-arm64.artifactbundle/sdk/sysroot
# pkg-config reads the arm64 .pc files and prefixes their paths with the sysroot. SwiftPM's
# own reader of .pc files ignores PKG_CONFIG_LIBDIR and would find the root's amd64 ones: it
# is given the same folders, first, as PKG_CONFIG_PATH.
SYSROOT_PC_PATH = $(SYSROOT)/usr/lib/aarch64-linux-gnu/pkgconfig:$(SYSROOT)/usr/share/pkgconfig
CROSS_ENV = env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) PKG_CONFIG_LIBDIR=$(SYSROOT_PC_PATH) PKG_CONFIG_PATH=$(SYSROOT_PC_PATH)
TARGET_SWIFT = $(if $(IN_ROOT),swift,$(SWIFT))
SWIFT_TARGET_BUILD = $(IN_ROOT) $(if $(CROSS),$(CROSS_ENV)) $(TARGET_SWIFT) build --scratch-path $(SCRATCH) \
	$(if $(CROSS),--swift-sdks-path $(ARM64_SDK) --swift-sdk trixie-arm64)
# How the build machine runs a target binary (help2man, the package's check): an arm64 one
# under QEMU's user-mode emulator with the sysroot's libraries, no binfmt registration.
TARGET_RUN = $(if $(CROSS),qemu-aarch64 -L $(SYSROOT))
# The trixie builds are told apart from the Debian 12 one of the same source by their
# version, 0.1.0+deb13 (higher, so a machine upgraded to Debian 13 takes its own build).
deb-suffix.trixie := +deb13
# Where the systemd unit and the udev rules go: /lib in Debian 12; /usr/lib in Debian 13,
# whose packages ship nothing under the merged-/usr aliases (lintian: aliased-location).
system-lib.bookworm := /lib
SYSTEM_LIB := $(or $(system-lib.$(DIST)),/usr/lib)
DEB_VERSION := $(VERSION)$(deb-suffix.$(DIST))
DEB_ARCH = $(ARCH)
DEB_BASE = dist/gridlock_$(DEB_VERSION)_$(DEB_ARCH)

.PHONY: print-test-share all deps test-deps install-packages build release demo check check-trixie print-trixie-root-packages test test-vm test-arm64 test-wayland-headless test-wayland-face test-wayland-guest install clean deb dist test-deployed test-deployed-trixie
.PHONY: fuzz fuzz-build fuzz-smoke test-sanitizers test-asan test-tsan

all: release

# Installs only what is missing, so a second run costs nothing. Without a toolchain to be
# installed it checks first, so that nothing is installed for a build that cannot run.
deps:
	$(if $(TOOLCHAIN_PACKAGES),,@$(check-swift))
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BUILD_PACKAGES)"
	$(if $(TOOLCHAIN_PACKAGES),@$(check-swift))

check-swift = command -v $(SWIFT) >/dev/null || { \
	echo "make: no Swift toolchain: $(SWIFT) was not found (SWIFT=, PATH and /opt/swift/usr/bin were tried)."; \
	$(if $(filter trixie,$(HOST_DIST)),echo "  Debian 13 has its own: leave SWIFT unset and make installs swiftlang.";, \
	echo "  Debian $(HOST_DIST) has no package of Swift: unpack swift.org's toolchain for Debian 12"; \
	echo "  (https://www.swift.org/install/linux/) so that /opt/swift/usr/bin/swift exists, or"; \
	echo "  run make SWIFT=/path/to/usr/bin/swift (docs/building.md).";) exit 1; } >&2

test-deps: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(TEST_PACKAGES)"

install-packages:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:$$missing"; \
		if [ "$$(id -u)" -ne 0 ]; then SUDO=sudo; fi; \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

build: deps
	$(SWIFT) build

# In the trixie root, the root has the build packages: nothing is installed on the host.
# An SDK given by hand (ARM64_SDK=DIR) is checked against the root's compiler first.
VERIFY_SDK = $(if $(and $(CROSS),$(NEEDS_ROOT)),tools/arm64-sysroot verify $(ARM64_SDK))
release: $(if $(NEEDS_ROOT),,deps)
	$(VERIFY_SDK)
	$(SWIFT_TARGET_BUILD) $(RELEASE_FLAGS)

# The main job without hardware: the daemon's loop on a recorded gesture, frames into ./demo-out/.
demo: release
	$(BIN)/gridlock demo --out demo-out

# The quick loop while changing code (a few minutes): the libc boundary, the tests' names
# and the Swift suites, nothing else. Not a substitute for `make test`.
check: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(CHECK_PACKAGES)"
	tests/check-boundary
	tests/check-test-names
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The Swift suites with the oldest compiler the code must build with: Debian 13's Swift 6.0.3,
# inside a trixie root made once (tools/trixie-root, about 3 minutes, then cached), scratch
# path $(TRIXIE_SCRATCH); then with the host's toolchain, as `make check` does. Prints how
# many tests each ran and fails unless the numbers are the same, so no test is left out under
# either (docs/testing.md, "Two compilers"). Part of `make test`, right after the host's suites.
check-trixie: deps
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SUITE_FONT_PACKAGES)"
	tests/check-trixie --packages '$(TRIXIE_ROOT_PACKAGES)' --scratch-path $(TRIXIE_SCRATCH) --host-swift '$(SWIFT)'

# What tools/trixie-root puts into the root, for the script itself.
print-trixie-root-packages:
	@echo $(TRIXIE_ROOT_PACKAGES)

print-arm64-sysroot-packages:
	@echo $(ARM64_SYSROOT_PACKAGES)

# Every test that runs on this machine: the libc boundary, the Swift suites, real Wayland
# compositors headless (sway, labwc), the suites under ASan, the end-to-end checks of the
# shipped binaries and the same binaries on a real kernel under QEMU, every commit; then one
# platform tier with its companion, the commit's share (SHARE, below). Each step is timed
# (tests/step) and the run ends by saying where its time went.
test: test-deps
	@tests/step --begin
	@$(MAKE) --no-print-directory print-test-share
	@tests/step check-boundary tests/check-boundary
	@tests/step check-test-names tests/check-test-names
	@tests/step "host build (debug, tests)" $(SWIFT) build --build-tests
	@tests/step "host suites" $(SWIFT) test --skip-build
	@tests/step test-wayland-headless $(MAKE) --no-print-directory test-wayland-headless
	@tests/step test-asan $(MAKE) --no-print-directory test-asan
	@tests/step "release build" $(MAKE) --no-print-directory release
	@tests/step test-wayland-face $(MAKE) --no-print-directory test-wayland-face
	@tests/step tests/e2e/run tests/e2e/run
	@tests/step "tests/vm/suite (amd64)" $(MAKE) --no-print-directory test-vm
	@$(foreach share,$(RUN_SHARES),$(foreach target,$(share.$(share).target),tests/step "share $(share): $(target)" $(MAKE) --no-print-directory $(target) &&)) true
	@tests/step --summary

# The platform tiers, one per commit. Each costs 10-20 minutes from an empty cache (a root,
# a package, an image, a kernel) and all of them together would take `make test` past its
# hour from a clean machine, so a run takes one, chosen from the commit, never the date: the
# last hex digit of HEAD (without git: 0). A rerun of a commit runs the same tests on any day,
# and over commits each tier takes its turn. The lighter tiers carry the TSan suites and the
# fuzz smoke (each a build of its own, 4 minutes), which every commit would not fit either;
# the heaviest, Debian 13 deployed and arm64 (21-23 minutes from nothing), carry nothing.
# SHARE=all runs every one; SHARE="trixie arm64" those two.
SHARES := bookworm trixie session compiler arm64
share.bookworm.target := test-deployed test-tsan fuzz-smoke
share.bookworm.says := the deployed scenarios on Debian 12 amd64 (make test-deployed), the TSan suites (make test-tsan) and the fuzz smoke (make fuzz-smoke)
share.trixie.target := test-deployed-trixie
share.trixie.says := the deployed scenarios on Debian 13 amd64 (make test-deployed-trixie)
share.session.target := test-wayland-guest fuzz-smoke
share.session.says := the Wayland face in a Debian 13 labwc and sway session (make test-wayland-guest) and the fuzz smoke (make fuzz-smoke)
share.compiler.target := check-trixie test-tsan
share.compiler.says := the Swift suites under Debian 13's Swift 6.0.3 (make check-trixie) and the TSan suites (make test-tsan)
share.arm64.target := test-arm64
share.arm64.says := the arm64 build, its demo and the real-kernel core on arm64 (make test-arm64)
SHARE_DIGIT := $(or $(shell git -C $(CURDIR) rev-parse HEAD 2>/dev/null | cut -c40),0)
share-of-digit = $(or $(if $(filter 0 1 2 3,$1),bookworm),$(if $(filter 4 5 6,$1),trixie),$(if $(filter 7 8 9,$1),session),$(if $(filter a b c,$1),compiler),$(if $(filter d e f,$1),arm64),bookworm)
SHARE ?= $(call share-of-digit,$(SHARE_DIGIT))
RUN_SHARES = $(if $(filter all,$(SHARE)),$(SHARES),$(SHARE))
LEFT_SHARES = $(filter-out $(RUN_SHARES),$(SHARES))
$(foreach share,$(SHARE),$(if $(filter all $(SHARES),$(share)),,$(error SHARE=$(share): say one or more of $(SHARES), or all)))

said = $(subst ; ,; ,$(subst $(space);,;,$(strip $(foreach share,$1,$(share.$(share).says);))))
space := $(subst ,, )
# What `make test` runs on this commit (said first, so a run cut short says it too) and what
# it leaves, to which target.
print-test-share:
	@echo "make test runs, every commit: the libc boundary and test names, the host suites, headless compositors, the suites under ASan, the release build, the Wayland face, tests/e2e/run, the real-kernel suite (amd64)"
	@echo "make test runs, this commit's share (HEAD ends '$(SHARE_DIGIT)', SHARE=$(SHARE)): $(call said,$(RUN_SHARES))"
	@echo "make test leaves to other commits' shares: $(or $(call said,$(LEFT_SHARES)),none)"
	@echo "make test leaves to their own targets: the Debian 13 arm64 deployed scenarios (make test-deployed-trixie ARCH=arm64), fuzzing beyond its smoke (make fuzz), and under ASan: $(ASAN_SKIP) (run without it in the host suites)"

# The headless compositor tier (docs/testing.md, "Real compositors, headless"): Debian 13's
# sway and labwc on wlroots' headless backend in a cached trixie root (WAYLAND_ROOT_PACKAGES,
# made once in about a minute), their globals, a host client on their socket, grim's
# screenshot and a virtual pointer's drag (tests/wayland/check-globals). About 5 s warm.
test-wayland-headless: test-deps
	WAYLAND_ROOT_PACKAGES='$(WAYLAND_ROOT_PACKAGES)' tests/wayland/check-globals

# The lock face against those compositors (tests/wayland/face): this machine's release
# gridlockd as verifier and gridlock-lock as face, a fullscreen window locked, wrong and right
# strokes by the virtual pointer, --now, kill -9, a second locker, relock-after=, a refused peer and five wrong
# checks straight to the socket; then weston and cage, which lack ext-session-lock-v1: exit 69.
# About 15 s a compositor.
test-wayland-face: test-deps release
	WAYLAND_ROOT_PACKAGES='$(WAYLAND_ROOT_PACKAGES)' tests/wayland/face

# Real-kernel tests: Debian's kernel under QEMU, a DRM display (bochs, virtio-gpu) and a uinput
# touchscreen; the kernel and the initramfs are cached in tests/vm/cache/ (see docs/testing.md).
test-vm: test-deps release
	tests/vm/suite

# The Wayland face in a real Debian 13 session under QEMU (tests/vm/session): the package
# installed with apt, labwc and sway from Debian 13 started by a console autologin, a uinput
# touchscreen through libinput, checked by screendumps. About 5 minutes with the Debian 13
# package built; in `make test` as the share "session".
test-wayland-guest: test-deps
	$(MAKE) --no-print-directory deb DIST=trixie ARCH=amd64
	tests/vm/session

# The arm64 tier (docs/testing.md, "The arm64 guest"): the Debian 13 arm64 build,
# cross-compiled in the trixie root; its `gridlock demo` under QEMU's user-mode emulator,
# byte for byte the Debian 13 amd64 build's (tests/check-arm64); then the core of the
# real-kernel suite on Debian 13's arm64 kernel in qemu-system-aarch64.
test-arm64: test-deps
	$(MAKE) --no-print-directory release DIST=trixie ARCH=arm64
	tests/check-arm64
	tests/vm/suite --arch arm64

# The package as deployed: `make deb`, then apt, systemd and udev in a Debian 12 image under
# QEMU (tests/vm/deployed; the image is cached in tests/vm/cache/image/).
test-deployed: test-deps deb
	tests/vm/deployed

# The same scenarios in a Debian 13 image, ARCH=amd64 (the default) or ARCH=arm64 (under TCG,
# slower: docs/testing.md gives the cost of each).
test-deployed-trixie: test-deps
	$(MAKE) --no-print-directory deb DIST=trixie ARCH=$(ARCH)
	tests/vm/deployed --dist trixie --arch $(ARCH)

# Fuzzing and sanitizers (docs/reliability.md), with the toolchain's own libFuzzer and
# sanitizer runtimes and its lld (gold fails to link the fuzzer build).
FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 4
FUZZ_BUILD_FLAGS := -c release --package-path Fuzz --scratch-path .build/fuzz \
	-Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
# The tests that run threads: verification and reloads off the loop, action reaping, the loops and signals.
TSAN_TESTS := DaemonLoopTests|ConfigReloaderTests|ActionSupervisorTests|ActionRunnerTests|SpawnedProcessTests|EventLoopTests|SignalFDTests|EventFDTests
# Not under ASan: the crash-safety test kills its writer within 30 ms of starting it, before an
# ASan-instrumented writer has saved anything, and the enumeration of all 389,112 patterns takes
# 200 s instead of 20 (pure arithmetic, which the fuzz targets and the other tests cover).
ASAN_SKIP := AttemptStoreCrashTests|everyThreeByThreePatternIsTrackedExactly

fuzz-build: deps
	$(SWIFT) build $(FUZZ_BUILD_FLAGS)

# Every fuzz target for FUZZ_SECONDS; what breaks one is saved in Tests/Fixtures/fuzz-regressions/.
fuzz: fuzz-build
	Fuzz/run $(FUZZ_SECONDS)

fuzz-smoke: fuzz-build
	Fuzz/run --fresh $(FUZZ_SMOKE_SECONDS)

# The short form that `make test` runs.
test-sanitizers: test-asan test-tsan fuzz-smoke

test-asan: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan --skip '$(ASAN_SKIP)'

test-tsan: test-deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_TESTS)'

install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin
	install -m 0755 $(BIN)/gridlock $(DESTDIR)$(PREFIX)/bin/gridlock
	install -m 0755 $(BIN)/gridlock-lock $(DESTDIR)$(PREFIX)/bin/gridlock-lock
	install -m 0755 $(BIN)/gridlock-panel $(DESTDIR)$(PREFIX)/bin/gridlock-panel
	install -m 0755 $(BIN)/gridlockd $(DESTDIR)$(PREFIX)/sbin/gridlockd
	# What gridlockd runs in its place for a configuration that draws (found as ../libexec/gridlock/).
	install -D -m 0755 $(BIN)/gridlockd-single $(DESTDIR)$(PREFIX)/libexec/gridlock/gridlockd-single
	install -d -m 0755 $(DESTDIR)/etc/gridlock/gridlock.conf.d
	install -d $(DESTDIR)$(PREFIX)/share/doc/gridlock
	install -m 0644 examples/gridlock.conf $(DESTDIR)$(PREFIX)/share/doc/gridlock/gridlock.conf.example
	install -m 0644 examples/face.conf $(DESTDIR)$(PREFIX)/share/doc/gridlock/face.conf.example
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/doc/gridlock/
	install -d $(DESTDIR)$(PREFIX)/share/gridlock/demo
	install -m 0644 examples/demo/gridlock.conf examples/demo/*.evemu $(DESTDIR)$(PREFIX)/share/gridlock/demo/
	install -D -m 0755 examples/gridlock-gpio-pulse $(DESTDIR)$(PREFIX)/libexec/gridlock/gridlock-gpio-pulse
	install -d $(DESTDIR)$(SYSTEM_LIB)/systemd/system $(DESTDIR)$(SYSTEM_LIB)/udev/rules.d
	sed 's|/usr/local/sbin/gridlockd|$(PREFIX)/sbin/gridlockd|; s|/usr/local/share/doc|$(PREFIX)/share/doc|' \
		systemd/gridlockd.service > $(DESTDIR)$(SYSTEM_LIB)/systemd/system/gridlockd.service
	chmod 0644 $(DESTDIR)$(SYSTEM_LIB)/systemd/system/gridlockd.service
	sed 's|/usr/local/bin/gridlock-panel|$(PREFIX)/bin/gridlock-panel|; s|/usr/local/share/doc|$(PREFIX)/share/doc|' \
		systemd/gridlock-panel.service > $(DESTDIR)$(SYSTEM_LIB)/systemd/system/gridlock-panel.service
	chmod 0644 $(DESTDIR)$(SYSTEM_LIB)/systemd/system/gridlock-panel.service
	install -D -m 0644 systemd/sysusers.d/gridlock.conf $(DESTDIR)$(SYSTEM_LIB)/sysusers.d/gridlock.conf
	install -D -m 0644 systemd/gridlockd.service.d/console.conf \
		$(DESTDIR)$(SYSTEM_LIB)/systemd/system/gridlockd.service.d/console.conf
	install -m 0644 udev/70-gridlock.rules $(DESTDIR)$(SYSTEM_LIB)/udev/rules.d/70-gridlock.rules
	install -d $(DESTDIR)$(SYSTEM_LIB)/systemd/user
	sed 's|/usr/local/bin/gridlock-lock|$(PREFIX)/bin/gridlock-lock|g; s|/usr/local/share/doc|$(PREFIX)/share/doc|' \
		systemd/gridlock-lock.service > $(DESTDIR)$(SYSTEM_LIB)/systemd/user/gridlock-lock.service
	chmod 0644 $(DESTDIR)$(SYSTEM_LIB)/systemd/user/gridlock-lock.service

# The package: dist/gridlock_VERSION_ARCH.deb (debian/, debhelper), checked by lintian, which
# fails the build on any error or warning; its informational tags are explained in
# debian/gridlock.lintian-overrides.
# DIST=trixie: built and checked in the trixie root, whose lintian is Debian 13's; for arm64
# with `-a arm64` (dpkg-shlibdeps reads the SDK's dpkg database, debian/rules) and without
# the build-dependency check, since the SDK's sysroot holds the arm64 -dev packages.
deb: $(if $(NEEDS_ROOT),,deps)
	$(if $(NEEDS_ROOT),,@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)")
	$(VERIFY_SDK)
	mkdir -p dist
	rm -f $(DEB_BASE).deb $(DEB_BASE).changes $(DEB_BASE).buildinfo
	$(IN_ROOT) dpkg-buildpackage -b -us -uc $(if $(CROSS),-a$(ARCH) -d) --buildinfo-option=-udist --changes-option=-udist \
		--buildinfo-file=$(DEB_BASE).buildinfo --changes-file=$(DEB_BASE).changes \
		|| { rm -f $(DEB_BASE).deb $(DEB_BASE).changes $(DEB_BASE).buildinfo; exit 1; }
	@# A package lintian refuses is not left in dist/ to be installed by mistake.
	$(IN_ROOT) lintian --fail-on error,warning --display-info $(DEB_BASE).changes \
		|| { rm -f $(DEB_BASE).deb $(DEB_BASE).changes $(DEB_BASE).buildinfo; \
		     echo "make deb: lintian refused $(DEB_BASE).deb (above); it was removed" >&2; exit 1; }

# The three packages: Debian 12 amd64 (the host's toolchain), Debian 13 amd64 and arm64
# (trixie's), and their checksums.
DIST_DEBS = gridlock_$(VERSION)_amd64.deb gridlock_$(VERSION)+deb13_amd64.deb gridlock_$(VERSION)+deb13_arm64.deb
dist:
	$(MAKE) --no-print-directory deb DIST=bookworm ARCH=amd64
	$(MAKE) --no-print-directory deb DIST=trixie ARCH=amd64
	$(MAKE) --no-print-directory deb DIST=trixie ARCH=arm64
	cd dist && sha256sum $(DIST_DEBS) > SHA256SUMS
	cat dist/SHA256SUMS

# One of the variables above, for debian/rules and the scripts (`make -s print-var-BIN`).
print-var-%:
	@echo $($*)

clean:
	rm -rf .build demo-out
	rm -rf dist debian/gridlock debian/.debhelper debian/man debian/files debian/*.substvars debian/*.debhelper.log debian/debhelper-build-stamp
