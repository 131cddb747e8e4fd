# mk/core.mk -- the backbone targets: deps, gen, test, vendor, kernel, clean, help.

DEBIAN_PACKAGES := build-essential python3 python3-mpmath python3-jinja2 \
                   libmpfr-dev libgmp-dev valgrind binutils gappa sollya \
                   gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
GEN_SOURCES     := $(wildcard gen/*.py gen/*/*.py templates/*.j2 templates/*/*.j2) runtime/fxp.h certify/gappa_script.py
GEN_STAMPS      := $(foreach k,$(KERNELS),$(BUILD)/gen/$(k).stamp)

HELP_LINES += "  make              -- deps, generate, build, check every shipped kernel; print the audit table"
HELP_LINES += "  make test         -- run every test (Python unittest and C); ends with 'N passed, M failed'"
HELP_LINES += "  make fuzz [FUZZ_SEED=s] [FUZZ_COUNT=n] -- random mutations of the shipped configs through the generator (tests/fuzz.py)"
HELP_LINES += "  make deps         -- install the Debian packages the other targets need (apt-get)"
HELP_LINES += "  make gen          -- regenerate every shipped kernel into generated/ from kernels/*.toml"
HELP_LINES += "  make kernel CONFIG=my.toml [OUT=dir] [THREADS=n] [QUICK=1] [CHECK_ARGS=...] -- render, build, check and audit your own config (results in build/user-check/<name>/)"
HELP_LINES += "  make vendor KERNEL=name DEST=dir [PROVENANCE=1] -- copy generated/<name>/<name>.h (and provenance/) to DEST/<name>/, proven to compile there alone"
HELP_LINES += "  make clean        -- remove build/"
HELP_LINES += "  make help         -- this list"

.PHONY: kernel vendor gen-stamps fuzz

# The audit runs in a sub-make started after deps: as a second prerequisite
# of all, `make -j2` on a fresh machine compiled against MPFR while apt-get
# was still installing it.
all: deps
	@$(MAKE) --no-print-directory audit

help:
	@printf '%s\n' "Targets:" $(HELP_LINES)

# Installs only what is missing, so a machine that has everything pays one
# dpkg query.  apt-get needs root (CI and the dev machines run as root).
deps:
	@missing=$$(for p in $(DEBIAN_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "deps: installing$$(echo ' '$$missing)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else echo "deps: all Debian packages present"; fi

# `make gen` always regenerates (the generator rewrites only files whose
# content changed); the stamps let `make` regenerate only stale kernels.
gen:
	$(PY) -m gen render $(addprefix kernels/,$(addsuffix .toml,$(KERNELS))) --out generated
	@mkdir -p $(BUILD)/gen && touch $(GEN_STAMPS)

$(BUILD)/gen/%.stamp: kernels/%.toml $(GEN_SOURCES)
	$(PY) -m gen render $< --out generated
	@mkdir -p $(@D) && touch $@

gen-stamps: $(GEN_STAMPS)

test: deps
	$(PY) -m tests.run_tests

# The config fuzzing of make test (tests/test_fuzz.py: 2000 mutations, seed
# 1), with another seed or count: make fuzz FUZZ_SEED=7 FUZZ_COUNT=20000.
FUZZ_SEED  ?= 1
FUZZ_COUNT ?= 2000
fuzz:
	$(PY) -m tests.fuzz --seed $(FUZZ_SEED) --count $(FUZZ_COUNT)

clean:
	rm -rf $(BUILD)

# A user's own config: render into OUT (default build/user), then check and
# audit that one kernel with the same checker as the shipped ones, in
# build/user-check/<name>/.  THREADS (default CHECK_THREADS) sets the
# checker's threads and the generator's processes (FXP_GEN_JOBS), QUICK=1
# asks for a quick check, CHECK_ARGS passes options to the checker.
OUT ?= $(BUILD)/user
THREADS ?= $(CHECK_THREADS)
kernel:
	@test -n "$(CONFIG)" || { echo "make kernel: set CONFIG=path/to/config.toml" >&2; exit 2; }
	FXP_GEN_JOBS=$(THREADS) $(PY) -m gen render "$(CONFIG)" --out "$(OUT)"
	$(PY) -m verify kernel "$(CONFIG)" --generated "$(OUT)" --build $(BUILD)/user-check \
		--threads $(THREADS) $(if $(QUICK),--quick) --check-args "$(CHECK_ARGS)"

vendor:
	@test -n "$(KERNEL)" -a -n "$(DEST)" || { echo "make vendor: set KERNEL=name DEST=dir" >&2; exit 2; }
	@test -d generated/$(KERNEL) || { echo "make vendor: no kernel generated/$(KERNEL)" >&2; exit 2; }
	$(PY) -m verify vendor generated/$(KERNEL) "$(DEST)" $(if $(PROVENANCE),--provenance)
