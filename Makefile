# SPDX-License-Identifier: GPL-2.0-only
#
# The rdma_rw series: apply this sparse tree to a Linux 6.12+ base, build
# and test it, and write it out as a patch series.  See README.md.

# Build trees live outside the clone, where the next clone (CI's) finds
# them warm, as it finds ccache; build/ in the clone links to them.  The
# path is resolved once, because kbuild and ccache record absolute paths:
# a tree reached by another spelling of its path would build again.
BUILD	?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/rdma-rw-series
override BUILD := $(shell mkdir -p '$(BUILD)' && cd '$(BUILD)' && pwd -P)
ifeq ($(BUILD),)
$(error cannot create the build directory)
endif
LINUX	:= $(BUILD)/linux
OBJ_UM	:= $(BUILD)/obj-um
OBJ_X86	:= $(BUILD)/obj-x86
SERIES	:= $(BUILD)/series

# Every compiler call of every kernel build goes through ccache.
CCACHE_DIR ?= $(HOME)/.cache/ccache
# Paths under $(BUILD) are hashed relative to the object tree, so that a
# clone elsewhere (CI's) and the other source trees of the same layout
# (the base rw.c's, tools/series/base-rw.sh, and the base verbs.c's,
# base-irdma.sh) hit what one build cached.
CCACHE_BASEDIR ?= $(BUILD)
CCACHE_NOHASHDIR ?= 1
export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR
# Debian's python3 first: the checks use its packages (ply, git).
export PATH := /usr/lib/ccache:/usr/bin:$(PATH)
export BUILD LINUX OBJ_UM OBJ_X86 SERIES

.PHONY: all setup base apply config kunitconfig build check kunit kunit-x86 \
	e2e soak bench mutate coverage series fixes irdma-fixes irdma-stable \
	clean

# The first command: the suites as a kernel CI runs them, each
# directory's .kunitconfig alone in kunit.py's own small kernel, so that a
# cold machine has results after one such build rather than after the
# debug kernels make check builds (make build).
all: kunitconfig

setup: apply config

base:
	@tools/series/deps.sh
	@if [ ! -e build ] || [ -L build ]; then ln -sfn '$(BUILD)' build; fi
	@tools/series/base.sh $(LINUX)

apply: base
	@tools/series/apply.py $(CURDIR) $(LINUX)

# Branch series of $(LINUX), as edited there, back into this repository
# (tools/series/EDITING.md).
.PHONY: export
export:
	@tools/series/export.py $(CURDIR) $(LINUX)

config: apply
	@tools/series/build.sh config
	@tools/series/build.sh x86-config

kunitconfig: apply
	@tools/series/build.sh kunitconfig
# The series' own kernels (KASAN, lockdep, KCSAN, dma-debug), the UML
# suites first, and the in-tree users of the API built with W=1.
build: setup
	@tools/series/build.sh kunit
	@tools/series/build.sh x86-kunit
	@tools/series/build.sh users

# CHECKS picks stages of check.sh (make check CHECKS="kunit lint").
check: setup
	@tools/series/deps.sh e2e
	@CHECKS='$(CHECKS)' tools/series/check.sh

# The fast loop: the suites SUITES names (a kunit.py glob, default all) on
# the UML kernel, or on the x86_64 one: make kunit SUITES=ib_core_rw,
# make kunit-x86 SUITES='irdma_verbs_*'.
SUITES ?= *
kunit: config
	@tools/series/build.sh suites '$(SUITES)'

kunit-x86: config
	@tools/series/build.sh x86-suites '$(SUITES)'

# NVMe over RDMA through rw.c over siw and rxe, in a UML guest booted from
# the kernel the KUnit run uses.
e2e: setup
	@tools/series/deps.sh e2e
	@tools/series/build.sh kernel
	@tools/series/e2e.sh

# The e2e guests ROUNDS times over, for what fails by chance:
# make soak E2E_USERS=svcrdma RUNS="rxe rxe+force_mr" ROUNDS=100
ROUNDS ?= 10
soak: setup
	@tools/series/deps.sh e2e
	@tools/series/build.sh kernel
	@tools/series/soak.sh $(ROUNDS) $(RUNS)

# This series' rw.c against the base tree's own, side by side: two UML
# kernels without KASAN, the KUnit benchmark in each, then the rdma
# selftest booted with each in turn (tools/series/bench.sh).
bench: setup
	@tools/series/deps.sh e2e
	@tools/series/bench.sh build
	@tools/series/bench.sh run
	@tools/series/bench.sh e2e

mutate: setup
	@tools/series/mutate.sh $(MUTATE)

# rw.c's line and branch coverage by the R/W suites (UML, gcov), as make
# check's coverage stage measures it.
coverage: setup
	@tools/series/coverage.sh

series: apply
	@tools/series/format.sh $(SERIES)

# The upstream bugs rw.c fixes, as minimal patches on the pristine base
# for rdma-rc and stable (tools/series/fixes/).
fixes: base
	@tools/series/fixes.sh branch
	@tools/series/fixes.sh format $(BUILD)/fixes

# The upstream bugs of irdma's verbs.c, the same way
# (tools/series/irdma-fixes/).
irdma-fixes: base
	@tools/series/fixes.sh irdma branch
	@tools/series/fixes.sh irdma format $(BUILD)/irdma-fixes

# Mainline's irdma fixes backported to 6.12.y, for stable
# (tools/series/irdma-stable/).
irdma-stable: base
	@tools/series/fixes.sh irdma-stable branch
	@tools/series/fixes.sh irdma-stable format $(BUILD)/irdma-stable

clean:
	rm -rf $(BUILD)
