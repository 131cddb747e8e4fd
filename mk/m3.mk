# Cortex-M3 and Cortex-M4 emulation (m3/, docs/m3.md): every kernel and the
# references built for the M3 (mps2-an385 in QEMU) or the M4 (mps2-an386),
# checked bit-identical with the host build, instruction counts per call
# (trace + SysTick under -icount), worst-case cycle model, binary scan,
# error distribution.  Outputs: build/m3/, build/m3.json, build/m4/,
# build/m4.json.

M3_OUT        := $(BUILD)/m3
M3_GENERATED  ?= generated
M3_KERNELS    ?= $(KERNELS)
M3_VECTORS    ?= tests/data/facct_vectors.tsv
# The quick run: facct_portable, one 64-bit and one 32-bit kernel, and the
# Cortex-M3 kernel falcon_m3 (its figures are checked by tests/test_m3.py).
M3_QUICK_KERNELS ?= $(filter facct paper_m3 falcon_m3,$(KERNELS))
M3_ARGS        = --gen-dir $(M3_GENERATED) --build $(M3_OUT) --vectors $(M3_VECTORS)

HELP_LINES += "  make m3              -- Cortex-M3 (QEMU): bit identity vs host, instructions/call, cycle model, binary scan: build/m3.json"
HELP_LINES += "  make m3-quick        -- the same on few vectors and kernels ($(M3_QUICK_KERNELS)): build/m3/quick.json"

# The steps to falcon_m3 (docs/m3.md): the first Cortex-M3 kernel
# falcon_m3_v1 (form direct), its variants (kernels/m3_variants/*.toml: the
# layouts and truncation budgets tried) and falcon_m3 (form mcu), rendered
# into build/m3_variants/gen and measured in one run next to
# facct_portable: build/m3_variants.json.
M3_VARIANT_CONFIGS := kernels/falcon_m3_v1.toml $(sort $(wildcard kernels/m3_variants/*.toml)) kernels/falcon_m3.toml
M3_VARIANTS    := $(basename $(notdir $(M3_VARIANT_CONFIGS)))
M3_VARIANT_DIR := $(BUILD)/m3_variants
HELP_LINES += "  make m3-variants     -- render falcon_m3_v1, kernels/m3_variants/*.toml and falcon_m3, measure them on the M3: build/m3_variants.json"

# The Cortex-M4 report: facct_m4 (the reference's M4 build, the baseline),
# facct_portable and every kernel.  The quick run: the baseline, facct and
# the two microcontroller kernels (falcon_m4's figures are checked by
# tests/test_m4.py).
M4_OUT        := $(BUILD)/m4
M4_KERNELS    ?= $(KERNELS)
M4_QUICK_KERNELS ?= $(filter facct falcon_m3 falcon_m4,$(KERNELS))
M4_ARGS        = --core m4 --gen-dir $(M3_GENERATED) --build $(M4_OUT) --vectors $(M3_VECTORS)
HELP_LINES += "  make m4              -- Cortex-M4 (QEMU mps2-an386): the same report, facct_m4 as the baseline: build/m4.json"
HELP_LINES += "  make m4-quick        -- the same on few vectors and kernels ($(M4_QUICK_KERNELS)): build/m4/quick.json"

.PHONY: m3 m3-quick m3-variants m4 m4-quick

m3:
	$(PY) -m m3.report $(M3_ARGS) --kernels "$(M3_KERNELS)" --out $(BUILD)/m3.json

m3-quick:
	$(PY) -m m3.report $(M3_ARGS) --quick --kernels "$(M3_QUICK_KERNELS)" --out $(M3_OUT)/quick.json

m3-variants:
	$(PY) -m gen render $(M3_VARIANT_CONFIGS) --out $(M3_VARIANT_DIR)/gen --quiet
	$(PY) -m m3.report --gen-dir $(M3_VARIANT_DIR)/gen --build $(M3_VARIANT_DIR) --vectors $(M3_VECTORS) \
	    --quick --kernels "$(M3_VARIANTS)" --out $(BUILD)/m3_variants.json

m4:
	$(PY) -m m3.report $(M4_ARGS) --kernels "$(M4_KERNELS)" --out $(BUILD)/m4.json

m4-quick:
	$(PY) -m m3.report $(M4_ARGS) --quick --kernels "$(M4_QUICK_KERNELS)" --out $(M4_OUT)/quick.json
