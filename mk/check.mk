# mk/check.mk -- the error checker and the audit table (verify/).
#
# For every kernel <name> in KERNELS with the fixed-point interface (_eval,
# _expm_p63: FIXED_KERNELS, from each sidecar's "fixed_point" through
# kfolder; a kernel of form eft has only its Falcon adaptors and is checked
# by check-fpr alone):
#   build/check/<name>_ref.h  the function as MPFR code, from the generator
#   build/check/<name>.plan   the inputs to check, from the sidecar
#   build/check/check_<name>  verify/check.c compiled against the kernel
#   build/check/<name>.json   the measured errors
# and, for every kernel with Falcon adaptors (FPR_KERNELS, from each sidecar
# through kfolder):
#   build/check/check_fpr_<name>  verify/check_fpr.c compiled against <name>.h (its Falcon adaptors)
#   build/check/<name>.fpr.json   the adaptors' errors against the double inputs
# CHECK_THREADS sets the threads; CHECK_ARGS passes options to the checker
# (e.g. CHECK_ARGS="--random 1000000" for a quick run), CHECK_FPR_ARGS to
# the adaptors' checker (e.g. CHECK_FPR_ARGS="--uniform 1000000 --small 100000").
# `make audit` (and so `make`) fails when a measured error exceeds its bound.

CHECK_DIR      := $(BUILD)/check
CHECK_THREADS  ?= 2
CHECK_ARGS     ?=
CHECK_FPR_ARGS ?=
CHECK_CFLAGS   := -O2 -Wall -Wextra -std=gnu11
CHECK_LIBS     := -lmpfr -lgmp -lpthread -lm
FPR_KERNELS    := $(shell $(PY) -m kfolder adaptors generated $(KERNELS))
FIXED_KERNELS  := $(shell $(PY) -m kfolder fixed-point generated $(KERNELS))

.PHONY: check check-fpr audit check-bench

HELP_LINES += "  make check       -- measure every fixed-point kernel's _eval and _expm_p63 against MPFR (build/check/<name>.json)"
HELP_LINES += "  make check-fpr   -- measure every kernel's Falcon adaptors against the exact value of their double inputs (build/check/<name>.fpr.json)"
HELP_LINES += "  make audit       -- check and check-fpr, then collect every kernel's figures in build/audit.json and print the tables; fails on a bound exceeded"
HELP_LINES += "  make check-bench -- time the exhaustive 32-bit sweep and the 64-bit random check rate"

$(CHECK_DIR):
	mkdir -p $@

$(CHECK_DIR)/fastref.o: verify/fastref.c verify/fastref.h | $(CHECK_DIR)
	$(CC) $(CHECK_CFLAGS) -c $< -o $@

# $(1) = kernel name.  The kernel's files come from the generator's stamp
# rule (mk/core.mk), so a missing or stale kernel is rendered before it is
# checked (kfolder/ documents the folder's files: the header and
# provenance/<name>.json).
define KERNEL_FILE_RULES
generated/$(1)/$(1).h generated/$(1)/provenance/$(1).json: $(BUILD)/gen/$(1).stamp ;
endef
$(foreach k,$(KERNELS),$(eval $(call KERNEL_FILE_RULES,$(k))))

# $(1) = kernel name, for kernels with the fixed-point interface.  The ref
# header and the JSON are written to a temporary file first so that a
# failed run leaves no stale target.
define CHECK_KERNEL_RULES
$(CHECK_DIR)/$(1)_ref.h: kernels/$(1).toml $(wildcard gen/*.py) | $(CHECK_DIR)
	$(PY) -m gen mpfr-ref $$< > $$@.tmp && mv $$@.tmp $$@

$(CHECK_DIR)/$(1).plan: generated/$(1)/provenance/$(1).json verify/plan.py kfolder/__init__.py | $(CHECK_DIR)
	$(PY) -m verify.plan generated/$(1) -o $$@

$(CHECK_DIR)/check_$(1): verify/check.c verify/check_common.h verify/fastref.h toolkit/c/test_util.h $(CHECK_DIR)/fastref.o \
		generated/$(1)/$(1).h $(CHECK_DIR)/$(1)_ref.h
	$(CC) $(CHECK_CFLAGS) $$(shell $(PY) -m kfolder cflags generated/$(1)) -Iverify -Itoolkit/c -Igenerated/$(1) -I$(CHECK_DIR) \
		-DKNAME=$(1) -DKUNAME=$(shell echo $(1) | tr a-z A-Z) \
		-DKHEADER='"$(1).h"' -DREF_HEADER='"$(1)_ref.h"' \
		$$< $(CHECK_DIR)/fastref.o -o $$@ $(CHECK_LIBS)

$(CHECK_DIR)/$(1).json: $(CHECK_DIR)/check_$(1) $(CHECK_DIR)/$(1).plan
	$$< --plan $(CHECK_DIR)/$(1).plan --threads $(CHECK_THREADS) $(CHECK_ARGS) --out $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach k,$(FIXED_KERNELS),$(eval $(call CHECK_KERNEL_RULES,$(k))))

# $(1) = kernel name, for kernels with Falcon adaptors.
define CHECK_FPR_RULES
$(CHECK_DIR)/check_fpr_$(1): verify/check_fpr.c verify/check_common.h verify/fastref.h toolkit/c/test_util.h \
		$(CHECK_DIR)/fastref.o generated/$(1)/$(1).h
	$(CC) $(CHECK_CFLAGS) $$(shell $(PY) -m kfolder cflags generated/$(1)) -Iverify -Itoolkit/c -Igenerated/$(1) \
		-DKNAME=$(1) -DKUNAME=$(shell echo $(1) | tr a-z A-Z) -DKHEADER='"$(1).h"' \
		$$< $(CHECK_DIR)/fastref.o -o $$@ $(CHECK_LIBS)

$(CHECK_DIR)/$(1).fpr.json: $(CHECK_DIR)/check_fpr_$(1)
	$$< --threads $(CHECK_THREADS) $(CHECK_FPR_ARGS) --out $$@.tmp
	mv $$@.tmp $$@
endef
$(foreach k,$(FPR_KERNELS),$(eval $(call CHECK_FPR_RULES,$(k))))

check: $(foreach k,$(FIXED_KERNELS),$(CHECK_DIR)/$(k).json)

check-fpr: $(foreach k,$(FPR_KERNELS),$(CHECK_DIR)/$(k).fpr.json)

audit: check check-fpr
	$(PY) -m verify.audit --generated generated --check-dir $(CHECK_DIR) \
		--ct $(BUILD)/ct.json --berexp $(BUILD)/berexp.json \
		--out $(BUILD)/audit.json $(KERNELS)

check-bench: $(foreach k,$(FIXED_KERNELS),$(CHECK_DIR)/check_$(k) $(CHECK_DIR)/$(k).plan)
	$(PY) -m verify.checker_speed --check-dir $(CHECK_DIR) --threads $(CHECK_THREADS) $(FIXED_KERNELS)

# The guard-bit sweep (docs/error-model.md, "Guard bits"): the configs of
# kernels/sweep/ rendered, checked with full coverage (QUICK=1: about 10^6
# inputs each) and tabulated: the quantized polynomial's proven error, the
# measured error of _eval and what the evaluation adds.
HELP_LINES += "  make guard-sweep -- how much evaluation adds to the approximation over the sweep configs (kernels/sweep/): build/guard_sweep.json"
.PHONY: guard-sweep
guard-sweep:
	$(PY) -m verify.guard_sweep --configs kernels/sweep --build $(BUILD)/guard_sweep \
		--out $(BUILD)/guard_sweep.json --threads $(CHECK_THREADS) $(if $(QUICK),--quick)
