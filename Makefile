# SPDX-License-Identifier: GPL-2.0
# The livelock lab.  The two commands:
#   make lab    install what is missing, build, run the sweep, plot
#   make test   the test suite (builds and boots every variant)

BUILD    := $(CURDIR)/build
TOOLS    := $(BUILD)/tools
INITRD   := $(BUILD)/initramfs.cpio
VARIANTS ?= $(shell awk '!/^[[:space:]]*(\#|$$)/ { print $$1 }' lab/kernel/variants)
RUN      ?= $(lastword $(sort $(wildcard results/2*)))
export DEBUG

.PHONY: all lab test deps tools kernels initramfs run plots bench soak tx softirq clean distclean

all: kernels initramfs

deps:
	@lab/deps

tools:
	@$(MAKE) -s -C lab/tools OUT=$(TOOLS)

kernels: deps
	@lab/kernel/build $(VARIANTS)

# The initramfs takes gen_init_cpio from the kernel tree (lab/guest/mkinitramfs
# builds vanilla, which extracts it, when there is none yet).
initramfs: tools
	@lab/guest/mkinitramfs $(TOOLS) $(INITRD)

run: initramfs
	@lab/run $(RUN_OPTS)

# The kernels a run of the default variants boots: the three 6.12 ones, and
# 6.1's pair with UPSTREAM=1 (or --upstream); setting variants (DEFENCES=all,
# v6.1+threaded) run on these.  Other variants in RUN_OPTS: make kernels
# VARIANTS=..., as lab/run's error says.  "make kernels" builds them all.
upstream = $(or $(filter 1,$(UPSTREAM)),$(findstring --upstream,$(1)))
RUN_KERNELS = vanilla ksoftirqd-fix threaded-napi $(if $(call upstream,$(RUN_OPTS)),v6.1 v6.1-revert)
SOFTIRQ_KERNELS = vanilla ksoftirqd-fix threaded-napi $(if $(call upstream,$(SOFTIRQ_OPTS)),v6.1 v6.1-revert)

# lab/run plots its run and writes its report itself; DEFENCES=all adds
# every setting variant of lab/exp/rx/defences (the defences of 6.12)
lab: deps initramfs
	@lab/kernel/build $(RUN_KERNELS)
	@lab/run $(RUN_OPTS)
	@echo "lab: the other side of the debate (what the fix costs the other softirq users, and a busy CPU): make softirq (lab/softirq --help; ~22 min on a 2-core TCG host)"

plots:
	@plots/plot $(RUN)

test: deps
	@tests/run

# The TX experiment (trylock ablation): lab/tx --help; the kernels of its
# variants come from "make kernels".
tx: initramfs
	@lab/tx $(TX_OPTS)

# The softirq experiment (the other side of the debate: what the fix costs
# the other softirq users, and a busy CPU): lab/softirq --help
softirq: deps initramfs
	@lab/kernel/build $(SOFTIRQ_KERNELS)
	@lab/softirq $(SOFTIRQ_OPTS)

bench: deps
	@lab/kernel/bench

# at the latest sweep's verdict rate (SOAK_RUN=results/<run> for another)
soak: kernels initramfs
	@lab/soak $(SOAK_OPTS)

clean:
	rm -rf $(TOOLS) $(INITRD)

# distclean also removes the kernel trees and kernels every clone shares
# ($LAB_KBUILD, lab/lib/lib.sh); ccache stays
distclean:
	rm -rf $(BUILD) "$$(bash -c '. lab/lib/lib.sh && echo "$$LAB_KBUILD"')"
