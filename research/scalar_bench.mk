# The rules that time a research prototype's scalar rows in the project's own
# bench harness (research/fp_batch/scalar_bench.py's protocol), shared by the
# prototypes' Makefiles.  The including Makefile sets OUT (binaries), PROTO
# (its folder name under research/) and PROTO_DEPS (the headers the registry
# includes); results go to SCALAR_TXT and the JSON beside it.
ROOT = $(abspath ../..)
SCALAR_RUNS ?= 7
SCALAR_ROUNDS ?= 1000
SCALAR_TXT ?= results/scalar_bench.txt
SCALAR_CFLAGS = -O2 -Wall -Wextra -ffp-contract=off -march=x86-64-v3
SCALAR_BIN = $(abspath $(OUT))/scalar_bench_main
SCALAR_PY = research/$(PROTO)/scalar_bench.py

.PHONY: scalar-bench $(OUT)/scalar_registry.c
$(OUT)/scalar_registry.c: | $(OUT)
	cd $(ROOT) && PYTHONPATH=. python3 $(SCALAR_PY) registry generated $(abspath $@)
$(SCALAR_BIN): $(OUT)/scalar_registry.c $(ROOT)/bench/harness.c $(ROOT)/bench/loops.h $(ROOT)/bench/refs.h $(PROTO_DEPS)
	$(CC) $(SCALAR_CFLAGS) -I$(ROOT)/bench -I$(ROOT)/runtime -I$(ROOT)/toolkit/c -I$(ROOT)/generated -I. \
	    $(ROOT)/bench/harness.c $(OUT)/scalar_registry.c -o $@
scalar-bench: $(SCALAR_BIN)
	cd $(ROOT) && PYTHONPATH=. python3 $(SCALAR_PY) measure $(SCALAR_BIN) $(SCALAR_RUNS) $(SCALAR_ROUNDS) \
	    "$(CC)" "$(SCALAR_CFLAGS)" $(abspath $(SCALAR_TXT)) $(abspath $(SCALAR_TXT:.txt=.json))
