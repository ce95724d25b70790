# provbench - build, install, test.
#
#   make              build everything into build/
#   make test         install missing packages, build, run every test (CI)
#   make check        the fast loop: unit, host-backend integration, format
#   make runner-static  the static provbench-runner the harness uploads
#   make runner-windows provbench-runner.exe (mingw-w64), for Windows guests
#   make install PREFIX=/usr/local DESTDIR=
#   make guest        the qemu backend's guest image (kernel + initramfs)
#   make demo         the whole experiment on this machine, through qemu
#   make bench        the benchmarks of bench/ (slow; not part of test)
#   make format       apply .clang-format

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc
B       := build

PKGS     := jansson liburing blkid
VS_PKGS  := libcurl libxml-2.0 openssl
# lazily expanded: `make deps` must run before pkg-config can answer
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) $(VS_PKGS))
PKG_LIBS   = $(shell pkg-config --libs $(PKGS)) -lm
PKG_STATIC = $(shell pkg-config --static --libs $(PKGS)) -lm
VS_LIBS    = $(shell pkg-config --libs $(VS_PKGS)) $(PKG_LIBS)

# -Wformat-truncation flags every bounded snprintf into a path buffer;
# truncating there is the intended, safe outcome (the kernel turns it off
# too), so it stays off rather than littering the code with casts.
WARN     := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla \
	    -Wno-format-truncation
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	     $(PKG_CFLAGS) -MMD -MP

# Each folder compiles with only the include paths it may use: its own,
# and the public headers of the modules under it, linked into $(INC)
# (common.h, option.h, runner.h, vsphere.h, runjson.h, jlite.h,
# report.h). The harness's own folders (cli/, backends/*/) see harness/
# too. So "the harness uses the runner only through runner.h" is the
# compiler's to enforce. Tests and benchmarks look inside everything.
INC      := $(B)/include
PUBLIC_H := common/common.h common/option.h runner/runner.h \
	    vsphere/vsphere.h runjson/runjson.h runjson/jlite.h \
	    reports/report.h reports/stats.h reports/penalty.h \
	    reports/phrase.h
PUBLIC_LINKS := $(addprefix $(INC)/,$(notdir $(PUBLIC_H)))
I_common  := -Icommon
I_runner  := -Irunner -I$(INC)
I_vsphere := -Ivsphere -I$(INC)
I_runjson := -Irunjson -I$(INC)
I_reports := -Ireports -I$(INC)
I_harness := -Iharness -I$(INC)
I_harness/cli := -Iharness/cli -Iharness -I$(INC)
I_harness/backends/qemu := -Iharness/backends/qemu -Iharness -I$(INC)
I_harness/backends/host := -Iharness/backends/host -Iharness -I$(INC)
I_harness/backends/vsphere := -Iharness/backends/vsphere -Iharness -I$(INC)
I_harness/backends/null := -Iharness -I$(INC)
I_ALL := -Icommon -Irunner -Ivsphere -Irunjson -Ireports -Iharness \
	 -Iharness/cli -Iharness/backends/qemu -Iharness/backends/host \
	 -Iharness/backends/vsphere \
	 -Itests/unit
incs = $(or $(I_$(patsubst %/,%,$(dir $(1)))),$(I_ALL))
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=all
# The ASan tree's objects carry line tables only: a sanitizer's report
# names file and line all the same, and a clean tree compiles in 69
# CPU-s instead of 79. ASAN_DEBUG=-g for a debugger's variables.
ASAN_DEBUG ?= -g1

COMMON_SRC := common/error.c common/dynbuf.c common/size.c common/file.c \
	      common/mode.c common/child.c common/time.c \
	      common/words.c common/jsonw.c common/env.c common/option.c \
	      common/rng.c
RUNNER_LIB_SRC := runner/options.c runner/hist.c runner/perm.c runner/data.c \
		  runner/target.c runner/engine_psync.c runner/engine_uring.c \
		  runner/run.c runner/result.c runner/stop.c runner/wait.c \
		  runner/output.c runner/fs.c runner/command.c \
		  runner/region.c runner/identity.c runner/os_posix.c
RUNNER_SRC := $(RUNNER_LIB_SRC) runner/main.c
# the Windows runner (make runner-windows): the same core, the platform
# parts of runner/win/; no JSON or other library, only the system's DLLs
WIN_SRC    := $(filter-out common/child.c,$(COMMON_SRC)) runner/options.c \
	      runner/hist.c runner/perm.c runner/data.c runner/region.c \
	      runner/identity.c runner/run.c runner/result.c runner/stop.c \
	      runner/wait.c runner/output.c runner/main.c runner/win/os.c \
	      runner/win/target.c runner/win/engine_sync.c \
	      runner/win/engine_iocp.c runner/win/fs.c runner/win/command.c
WIN_CC     ?= x86_64-w64-mingw32-gcc
VS_SRC     := vsphere/config.c vsphere/transport.c vsphere/watch.c vsphere/soap.c \
	      vsphere/session.c vsphere/inventory.c vsphere/task.c \
	      vsphere/disk.c vsphere/lun.c vsphere/vm.c vsphere/guest.c \
	      vsphere/lab.c vsphere/pbm.c vsphere/perf.c
RUNJSON_SRC := runjson/jlite.c runjson/runjson.c
REPORT_SRC := $(RUNJSON_SRC) reports/stats.c reports/penalty.c \
	      reports/read.c reports/passes.c reports/fleet.c \
	      reports/group.c reports/cross.c reports/headroom.c \
	      reports/compare.c \
	      reports/analysis.c reports/verdict.c reports/findings.c \
	      reports/changes.c reports/tails.c \
	      reports/places.c reports/words.c reports/answer.c \
	      reports/sayings.c reports/phrase.c reports/lines.c \
	      reports/gate.c reports/columns.c reports/csv.c reports/text.c \
	      reports/json.c reports/report.c reports/html.c reports/trend.c \
	      reports/export.c reports/chart.c reports/draw.c reports/look.c
QEMU_BE_SRC := harness/backends/qemu/backend.c harness/backends/qemu/disks.c \
	       harness/backends/qemu/guest.c harness/backends/qemu/accel.c \
	       harness/backends/qemu/options.c harness/backends/qemu/cmd.c \
	       harness/backends/qemu/qmp.c
HOST_BE_SRC := harness/backends/host/backend.c harness/backends/host/disks.c \
	       harness/backends/host/options.c
NULL_BE_SRC := harness/backends/null/null.c
VSPHERE_BE_SRC := harness/backends/vsphere/backend.c \
	       harness/backends/vsphere/guest.c \
	       harness/backends/vsphere/settings.c \
	       harness/backends/vsphere/storage.c \
	       harness/backends/vsphere/options.c \
	       harness/backends/vsphere/counters.c \
	       harness/backends/vsphere/reclaim.c
CLI_SRC    := harness/cli/opt.c harness/cli/table.c harness/cli/cmd_run.c \
	      harness/cli/cmd_check.c \
	      harness/cli/cmd_cleanup.c harness/cli/cmd_report.c \
	      harness/cli/cmd_trend.c harness/cli/cmd_export.c \
	      harness/cli/cmd_vsphere.c harness/cli/profile_help.c \
	      harness/cli/env_help.c
HARNESS_LIB_SRC := $(REPORT_SRC) $(CLI_SRC) harness/profile.c \
	       harness/profile_keys.c harness/journal.c harness/backends.c \
	       harness/paths.c harness/local.c \
	       $(QEMU_BE_SRC) $(HOST_BE_SRC) $(VSPHERE_BE_SRC) $(NULL_BE_SRC) \
	       harness/run.c \
	       harness/say.c harness/signals.c harness/stall.c \
	       harness/lock.c harness/results.c harness/item.c \
	       harness/waves.c harness/adaptive.c harness/check.c \
	       harness/check_out.c \
	       harness/cost.c harness/plan.c harness/plan_out.c \
	       harness/targets.c harness/cleanup.c
HARNESS_SRC := harness/cli/main.c $(HARNESS_LIB_SRC)
UNIT_SRC   := tests/unit/main.c tests/unit/suites.c tests/unit/test_common.c \
	      tests/unit/test_hist.c tests/unit/test_perm.c \
	      tests/unit/test_opts.c tests/unit/test_data.c \
	      tests/unit/test_target.c tests/unit/test_output.c \
	      tests/unit/test_vsphere.c tests/unit/test_profile.c \
	      tests/unit/test_report.c tests/unit/test_findings.c \
	      tests/unit/test_jlite.c \
	      tests/unit/test_child.c tests/unit/test_cli.c \
	      tests/unit/test_identity.c tests/unit/test_stall.c \
	      tests/unit/test_seq.c
IT_SRC     := tests/unit/suites.c tests/integration/main.c \
	      tests/integration/test_runner.c tests/integration/vcsim.c \
	      tests/integration/test_vsphere.c \
	      tests/integration/test_harness.c tests/integration/test_host.c \
	      tests/integration/test_labs.c tests/integration/test_sched.c \
	      tests/integration/test_report.c tests/integration/lab.c \
	      tests/integration/inproc.c \
	      tests/integration/test_qemu.c tests/integration/test_install.c

FUZZ_TARGETS := soap profile runjson args
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
# clang: libFuzzer with ASan + UBSan; gcc-only warning names are not errors
FUZZ_CFLAGS  = $(ALL_CFLAGS) -Wno-unknown-warning-option -O1 \
	       -fsanitize=fuzzer-no-link,address,undefined \
	       -fno-omit-frame-pointer -fno-sanitize-recover=all

obj = $(patsubst %.c,$(1)/%.o,$(2))

LIB_OBJ   = $(call obj,$(B),$(COMMON_SRC) $(RUNNER_LIB_SRC))
ASAN_LIB  = $(call obj,$(B)/asan,$(COMMON_SRC) $(RUNNER_LIB_SRC))
VS_OBJ    = $(call obj,$(B),$(VS_SRC) $(HARNESS_LIB_SRC))
ASAN_VS   = $(call obj,$(B)/asan,$(VS_SRC) $(HARNESS_LIB_SRC))

# What no fuzz target links (each target's linker map, 2026-12-04): the
# commands, a run's orchestration, the runner's I/O loop, the report
# commands; not compiled for fuzzing (37 of 105 objects, 16 CPU-s of a
# clean build). A target that comes to need one fails to link: take that
# one off the list.
FUZZ_UNLINKED := common/env.c common/jsonw.c $(wildcard harness/cli/*.c) \
	harness/adaptive.c harness/check.c harness/cleanup.c harness/cost.c \
	harness/item.c \
	harness/lock.c harness/plan_out.c harness/results.c harness/run.c \
	harness/signals.c harness/targets.c harness/waves.c \
	reports/gate.c reports/export.c reports/report.c reports/trend.c \
	runner/command.c runner/data.c runner/fs.c runner/hist.c \
	runner/output.c runner/perm.c runner/result.c runner/run.c \
	runner/wait.c
FUZZ_LIB = $(call obj,$(B)/fuzz,$(filter-out $(FUZZ_UNLINKED), \
	     $(COMMON_SRC) $(RUNNER_LIB_SRC) $(VS_SRC) $(HARNESS_LIB_SRC)))
FUZZ_BINS = $(addprefix $(B)/fuzz/fuzz-,$(FUZZ_TARGETS))

PROVBENCH     := $(B)/provbench
VCSIM         := $(B)/vcsim
RUNNER        := $(B)/provbench-runner
RUNNER_STATIC := $(B)/provbench-runner-static
RUNNER_WIN    := $(B)/win/provbench-runner.exe
# the unit suites of the shared core, built for Windows, run under Wine
# (defined before the rules that name them: prerequisites expand at once)
UNIT_WIN      := $(B)/win/unit-tests.exe
UNIT_WIN_SRC  := $(filter-out runner/main.c,$(WIN_SRC)) \
		 tests/unit/win/main.c tests/unit/win/suites.c \
		 tests/unit/test_common.c tests/unit/test_hist.c \
		 tests/unit/test_perm.c tests/unit/test_opts.c \
		 tests/unit/test_data.c tests/unit/test_identity.c
# the Wine prefix the Windows tests share, made once (rule below)
WINE_PREFIX   := $(B)/wine-prefix.made
UNIT          := $(B)/unit-tests
UNIT_ASAN     := $(B)/asan/unit-tests
IT            := $(B)/integration-tests
IT_ASAN       := $(B)/asan/integration-tests

GUEST         := $(B)/guest/initrd.gz

.SECONDARY:

.PHONY: all deps test test-tier test-all check check-tier test-repeat \
	tier-verdict \
	format-check runner-static guest vcsim wine-prefix \
	runner-windows unit-windows \
	install uninstall demo deps-demo bench format clean fuzz fuzz-smoke asan-tree \
	refdev \
	profile-doc \
	coverage \
	test-valgrind

all: $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) $(UNIT) $(IT) $(B)/provbench.1

# the man page's SYNOPSIS from the commands' own usage lines
$(B)/provbench.1: dist/provbench.1.in scripts/man.sh $(PROVBENCH)
	scripts/man.sh $(PROVBENCH) dist/provbench.1.in > $@.tmp && mv $@.tmp $@

deps:
	@B=$(B) scripts/deps.sh

# only what the demo needs: no browser, clang, Go, valgrind or pyVmomi
deps-demo:
	@B=$(B) scripts/deps.sh --demo

# `make test` is what CI and README run: deps first, then a fresh make so
# that pkg-config sees what deps installed; then the whole suite. A tier
# never fails its own recipe: it leaves its exit code and its failed
# cases in build/, and the target that asked for it fails with them as
# make's last words, the failed cases the log's last lines.
TIER_VERDICT = $(if $(filter 0,$(file <$(B)/test-rc)),,$(error \
	$(or $(file <$(B)/test-failures.txt),the tier failed: see above)))

test: test-tier
	@$(TIER_VERDICT)

# the verdict alone, on what a tier left in $(B) (its own test)
tier-verdict:
	@$(TIER_VERDICT)

# SLOW=taskset|quota, LOAD=N: make test, check or test-repeat (its build
# too) on half this machine's CPU, or with a CPU-bound job beside it
# (tests/slow.sh): what a slower or busier machine sees
SLOWED = $(if $(SLOW)$(LOAD),SLOW='$(SLOW)' LOAD='$(LOAD)' tests/slow.sh)

test-tier: deps
	@rm -f $(B)/test-rc
	@$(SLOWED) $(MAKE) -j$$(nproc) --no-print-directory test-all

# What most jobs need; what a few need (the simulator, the Windows builds
# and Wine's prefix, the fuzz targets: a third of the build's time on a
# clean clone) their lanes make in the tier (the needs in run-all.sh's
# table), while the first jobs run.
TIER_PREREQ := $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) $(GUEST) asan-tree \
	       $(UNIT_ASAN) $(IT_ASAN)

test-all: $(TIER_PREREQ)
	@tests/run-all.sh $(B) || true

# The fast loop, on a built tree in under a minute: the unit tests, the
# runner, report and host integration suites (the harness's own logic on
# the host backend), the format check.
check: check-tier
	@$(TIER_VERDICT)

check-tier: $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) $(UNIT) $(IT)
	@$(SLOWED) tests/run-all.sh --check $(B) || true

# A job of make test's tier (SUITE: integration-harness, valgrind-host,
# ...; all of them by default), N times on a built tree, CASES a glob over
# case names: every failure kept with its first assertion and its case's
# log in build/test-repeat/, and how often each case failed, at the end
# (tests/repeat.sh). Flaky cases show here; with SLOW= and LOAD= (above)
# the ones that wait on a speed.
N     ?= 10
SUITE ?=
CASES ?=
test-repeat: $(TIER_PREREQ)
	@N=$(N) SUITE=$(SUITE) CASES='$(CASES)' $(SLOWED) tests/repeat.sh $(B)

# Every C file as .clang-format says (comments are never reflowed).
format-check:
	@clang-format --dry-run --Werror $$(git ls-files '*.c' '*.h') || \
		{ echo "provbench: format: run make format" >&2; exit 1; }

runner-static: $(RUNNER_STATIC)

# -static: libgcc and the C runtime's extras linked in; the .exe needs
# KERNEL32 and msvcrt, which every Windows has (x86_64-w64-mingw32-objdump
# -p lists them)
runner-windows: $(RUNNER_WIN)

vcsim: $(VCSIM)

wine-prefix: $(WINE_PREFIX)

unit-windows: $(UNIT_WIN)

# One Wine prefix for every test that runs Windows code, made before any
# of them (wineboot, ~12 s): tests that started at once on no prefix
# raced to make it. Nothing where there is no Wine (they skip).
$(WINE_PREFIX):
	@if command -v wine >/dev/null; then \
		export WINEPREFIX=$(abspath $(B)/wine-prefix) WINEDEBUG=-all; \
		wineboot -i >/dev/null 2>&1 && wineserver -w; fi
	@touch $@

# One object per source for both .exe files (the core is compiled once);
# only the tests see the unit suites' headers and Wine's CUnit stand-in.
WIN_CFLAGS := -std=gnu11 $(WARN) -O2 -D_GNU_SOURCE \
	      -D__USE_MINGW_ANSI_STDIO=1 -D_WIN32_WINNT=0x0602 -MMD -MP \
	      -Icommon -Irunner

$(B)/win/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) \
		$(if $(filter tests/%,$<),-Itests/unit/win -Itests/unit) \
		-c -o $@ $<

$(UNIT_WIN): $(call obj,$(B)/win/obj,$(UNIT_WIN_SRC))
	$(WIN_CC) -static -o $@ $^ -lm

$(RUNNER_WIN): $(call obj,$(B)/win/obj,$(WIN_SRC))
	$(WIN_CC) -static -o $@ $^ -lm

guest: $(GUEST)

# The kernel .deb is fetched once into $(B)/guest/debs and kept.
$(GUEST): $(RUNNER_STATIC) guest/init scripts/guest-image.sh
	@scripts/guest-image.sh $(B)/guest $(RUNNER_STATIC)

$(INC)/%.h:
	@mkdir -p $(INC)
	@ln -sfn $(CURDIR)/$(filter %/$*.h,$(PUBLIC_H)) $@

$(B)/%.o: %.c | $(PUBLIC_LINKS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call incs,$<) -c -o $@ $<

$(B)/fuzz/%.o: %.c | $(PUBLIC_LINKS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(call incs,$<) -Itests/fuzz -c -o $@ $<

$(B)/fuzz/fuzz-%: $(B)/fuzz/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(VS_LIBS) -lm

# The integration suites with provbench and the runner inside valgrind
# memcheck (slow; the qemu suite's own valgrind case covers that backend).
test-valgrind: $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) $(IT) $(VCSIM) $(GUEST)
	@for s in runner vsphere harness host report; do \
		PROVBENCH_IT_VALGRIND=1 $(IT) $(B) $$s || exit 1; done

# libFuzzer targets; `make fuzz-smoke` runs each FUZZ_SECONDS (see CONTRIBUTING)
fuzz: $(FUZZ_BINS)

fuzz-smoke: $(FUZZ_BINS)
	@tests/fuzz/smoke.sh $(B) $(FUZZ_SECONDS)

# --version names the commit; main.o is rebuilt when HEAD moves
PB_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
$(B)/harness/cli/main.o $(B)/asan/harness/cli/main.o: \
	ALL_CFLAGS += -DPB_COMMIT='"$(PB_COMMIT)"'
$(B)/harness/cli/main.o $(B)/asan/harness/cli/main.o: \
	$(wildcard .git/HEAD .git/refs/heads/main)

$(B)/asan/%.o: %.c | $(PUBLIC_LINKS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ASAN_DEBUG) $(call incs,$<) $(SAN_FLAGS) \
		-c -o $@ $<

$(PROVBENCH): $(LIB_OBJ) $(VS_OBJ) $(B)/harness/cli/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(VS_LIBS) -lm

# The vCenter simulator fixture: govmomi from Debian, built offline.
$(VCSIM): $(wildcard tests/vcsim/*.go)
	@mkdir -p $(B)/gocache
	cd tests/vcsim && GOPATH=/usr/share/gocode GO111MODULE=off \
		GOCACHE=$(CURDIR)/$(B)/gocache GOFLAGS= \
		go build -o $(CURDIR)/$@ .

# The reference device (bench/refdev): a FUSE file system whose first
# write to each 1 MiB block zeroes it first, and counts that time.
refdev: $(B)/zerofs

$(B)/zerofs: tests/refdev/zerofs.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $$(pkg-config --cflags fuse3) -o $@ $< \
		$$(pkg-config --libs fuse3)

$(RUNNER): $(LIB_OBJ) $(B)/runner/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(PKG_LIBS)

# Fully static, for any Linux guest: no libc or library at run time.
$(RUNNER_STATIC): $(LIB_OBJ) $(B)/runner/main.o
	$(CC) $(CFLAGS) -static -o $@ $^ $(PKG_STATIC)

$(UNIT): $(LIB_OBJ) $(VS_OBJ) $(call obj,$(B),$(UNIT_SRC))
	$(CC) $(CFLAGS) -o $@ $^ $(VS_LIBS) -lcunit -lm

$(UNIT_ASAN): $(ASAN_LIB) $(ASAN_VS) $(call obj,$(B)/asan,$(UNIT_SRC))
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(VS_LIBS) -lcunit -lm

# The integration suite runs a second time against these: provbench and
# the runner built with ASan + UBSan, beside links to what needs no
# sanitizer (the static runner the guests run, the simulator, the image).
$(B)/asan/provbench: $(ASAN_LIB) $(ASAN_VS) $(B)/asan/harness/cli/main.o \
		     $(B)/asan/tests/sanitizer_options.o
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(VS_LIBS) -lm

$(B)/asan/provbench-runner: $(ASAN_LIB) $(B)/asan/runner/main.o \
			    $(B)/asan/tests/sanitizer_options.o
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(PKG_LIBS)

asan-tree: $(B)/asan/provbench $(B)/asan/provbench-runner
	@for f in provbench-runner-static vcsim guest; do \
		ln -sfn ../$$f $(B)/asan/$$f; done

$(IT): $(LIB_OBJ) $(VS_OBJ) $(call obj,$(B),$(IT_SRC))
	$(CC) $(CFLAGS) -o $@ $^ $(VS_LIBS) -lcunit -lm

# the integration runner itself with ASan + UBSan: the cases that run the
# harness in-process (the host suite's faults) are checked too
$(IT_ASAN): $(ASAN_LIB) $(ASAN_VS) $(call obj,$(B)/asan,$(IT_SRC)) \
	    $(B)/asan/tests/sanitizer_options.o
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(VS_LIBS) -lcunit -lm

# Installed: the binaries, what the harness ships to guests (found from the
# binary, ../lib/provbench, so any PREFIX works without rebuilding), the
# example profiles, the systemd units (ExecStart names this PREFIX), the
# sysusers entry for their user, the man page, bash completion, LICENSE.
LIBDIR_PB := $(PREFIX)/lib/provbench
SHARE_PB  := $(PREFIX)/share/provbench
UNITDIR   ?= $(PREFIX)/lib/systemd/system
install: $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) $(GUEST) $(B)/provbench.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR_PB)/guest \
		$(DESTDIR)$(SHARE_PB)/profiles $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d \
		$(DESTDIR)$(PREFIX)/lib/tmpfiles.d \
		$(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/doc/provbench
	install -m 0644 $(B)/guest/vmlinuz $(B)/guest/initrd.gz \
		$(B)/guest/manifest.json $(DESTDIR)$(LIBDIR_PB)/guest/
	install -m 0755 $(PROVBENCH) $(DESTDIR)$(PREFIX)/bin/provbench
	install -m 0755 $(RUNNER) $(DESTDIR)$(PREFIX)/bin/provbench-runner
	install -m 0755 $(RUNNER_STATIC) \
		$(DESTDIR)$(LIBDIR_PB)/provbench-runner-static
	@# the Windows runner when it was built (make runner-windows)
	if [ -f $(RUNNER_WIN) ]; then \
		install -D -m 0644 $(RUNNER_WIN) \
			$(DESTDIR)$(LIBDIR_PB)/win/provbench-runner.exe; fi
	install -m 0644 profiles/*.json $(DESTDIR)$(SHARE_PB)/profiles/
	sed 's|@BINDIR@|$(PREFIX)/bin|g' dist/systemd/provbench@.service \
		> $(DESTDIR)$(UNITDIR)/provbench@.service
	install -m 0644 dist/systemd/provbench@.timer $(DESTDIR)$(UNITDIR)/
	install -m 0644 dist/systemd/provbench.sysusers \
		$(DESTDIR)$(PREFIX)/lib/sysusers.d/provbench.conf
	install -m 0644 dist/systemd/provbench.tmpfiles \
		$(DESTDIR)$(PREFIX)/lib/tmpfiles.d/provbench.conf
	install -m 0644 $(B)/provbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 dist/provbench.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/provbench
	install -m 0644 LICENSE README.md CONTRIBUTING.md \
		$(DESTDIR)$(PREFIX)/share/doc/provbench/
	install -d $(DESTDIR)$(PREFIX)/share/doc/provbench/docs
	install -m 0644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/provbench/docs/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/provbench \
	      $(DESTDIR)$(PREFIX)/bin/provbench-runner \
	      $(DESTDIR)$(UNITDIR)/provbench@.service \
	      $(DESTDIR)$(UNITDIR)/provbench@.timer \
	      $(DESTDIR)$(PREFIX)/lib/sysusers.d/provbench.conf \
	      $(DESTDIR)$(PREFIX)/lib/tmpfiles.d/provbench.conf \
	      $(DESTDIR)$(PREFIX)/share/man/man1/provbench.1 \
	      $(DESTDIR)$(PREFIX)/share/bash-completion/completions/provbench
	rm -rf $(DESTDIR)$(LIBDIR_PB) $(DESTDIR)$(SHARE_PB) \
	       $(DESTDIR)$(PREFIX)/share/doc/provbench

demo: deps-demo
	@$(MAKE) --no-print-directory $(PROVBENCH) $(GUEST)
	@scripts/demo.sh $(B)

bench: deps
	@$(MAKE) --no-print-directory $(PROVBENCH) $(RUNNER) $(RUNNER_STATIC) \
		$(B)/soap-cycles $(VCSIM) $(GUEST)
	@bench/runner-vs-fio $(RUNNER)
	@bench/soap-vs-pyvmomi $(B)
	@bench/harness-overhead $(B)
	@bench/fleet $(B)
	@bench/report-scale $(B)
	@bench/qemu-boot $(B)
	@$(MAKE) --no-print-directory $(B)/zerofs
	@bench/refdev $(B)

$(B)/soap-cycles: $(LIB_OBJ) $(VS_OBJ) $(B)/bench/soap_cycles.o
	$(CC) $(CFLAGS) -o $@ $^ $(VS_LIBS) -lm

# Line coverage (gcov) of the product code under the unit and integration
# suites, built apart in $(B)/cov (scripts/coverage.sh; not part of test).
COV_FLAGS := --coverage -O0
COV_LIB   = $(call obj,$(B)/cov,$(COMMON_SRC) $(RUNNER_LIB_SRC))
COV_VS    = $(call obj,$(B)/cov,$(VS_SRC) $(HARNESS_LIB_SRC))

$(B)/cov/%.o: %.c | $(PUBLIC_LINKS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(call incs,$<) $(COV_FLAGS) -c -o $@ $<

$(B)/cov/provbench: $(COV_LIB) $(COV_VS) $(B)/cov/harness/cli/main.o
	$(CC) $(CFLAGS) --coverage -o $@ $^ $(VS_LIBS) -lm

$(B)/cov/provbench-runner: $(COV_LIB) $(B)/cov/runner/main.o
	$(CC) $(CFLAGS) --coverage -o $@ $^ $(PKG_LIBS)

$(B)/cov/unit-tests: $(COV_LIB) $(COV_VS) $(call obj,$(B)/cov,$(UNIT_SRC))
	$(CC) $(CFLAGS) --coverage -o $@ $^ $(VS_LIBS) -lcunit -lm

$(B)/cov/integration-tests: $(COV_LIB) $(COV_VS) $(call obj,$(B)/cov,$(IT_SRC))
	$(CC) $(CFLAGS) --coverage -o $@ $^ $(VS_LIBS) -lcunit -lm

coverage: $(B)/cov/provbench $(B)/cov/provbench-runner $(B)/cov/unit-tests \
	  $(B)/cov/integration-tests $(RUNNER_STATIC) $(VCSIM) $(GUEST) \
	  $(RUNNER_WIN)
	@for f in provbench-runner-static vcsim guest win wine-prefix; do \
		ln -sfn ../$$f $(B)/cov/$$f; done
	@scripts/coverage.sh $(B)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

# docs/profile.md is the profile tables said as Markdown; a test fails
# when it no longer is (install:profile_help_one_source)
profile-doc: $(PROVBENCH)
	$(PROVBENCH) help profile --format markdown > docs/profile.md

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
