# x86-64 side-by-side benchmark of the references and every 64-bit kernel
# (bench/, docs/bench.md).  Outputs go to build/bench/, build/bench.json and
# build/bench.svg.

BENCH_OUT       := $(BUILD)/bench
# The kernels benchmarked: every shipped one, and the candidates of
# BENCH_COMPARE (kernels/candidates/<name>.toml, rendered under
# build/bench/compare) beside them, both seen through build/bench/kernels.
BENCH_COMPARE   ?= falcon_x86_head falcon_x86_v1 falcon_x86_fast_head
BENCH_GENERATED ?= $(BENCH_OUT)/kernels
BENCH_KERNELS   ?= $(KERNELS) $(BENCH_COMPARE)
# x86-64-v3 for every variant, references included (both kinds of machine
# this project runs on have it, and Falcon's AVX2 builds use it): the FMA
# kernels need it, and one set of flags keeps the comparison fair.  No FMA
# contraction: the double references must round every product, as the
# public code that made the test vectors did.
BENCH_CFLAGS    := $(CFLAGS) -ffp-contract=off -march=x86-64-v3
BENCH_RUNS      ?= 31
BENCH_ROUNDS    ?= 2000
BENCH_BIN       := $(BENCH_OUT)/bench_main
BENCH_CHECK     := $(BENCH_OUT)/check_refs
BENCH_INCLUDES  := -Ibench -Iruntime -Itoolkit/c -I$(BENCH_GENERATED)
BENCH_HEADERS   := bench/loops.h bench/refs.h bench/timing.h toolkit/c/test_util.h runtime/facct_ref.h runtime/facct_ref.c \
                   $(wildcard $(BENCH_GENERATED)/*/*.h)

HELP_LINES += "  make bench           -- time references and 64-bit kernels (chain/batch cycles, callgrind instructions): build/bench.json, build/bench.svg"
HELP_LINES += "  make bench-baseline  -- rewrite bench/instructions_baseline.json (instructions per call, checked by make test)"

HELP_LINES += "  make clamp-cost      -- instructions per call of the kernels whose index is clamped, with and without the clamp (build/clamp.json)"

.PHONY: bench bench-baseline bench-registry bench-kernels clamp-cost


# build/bench/kernels: a link to every shipped kernel folder and to each
# rendered comparison candidate, so that one folder holds them all.
bench-kernels: gen-stamps
	@mkdir -p $(BENCH_OUT)/kernels
	@$(if $(BENCH_COMPARE),$(PY) -m gen render $(addprefix kernels/candidates/,$(addsuffix .toml,$(BENCH_COMPARE))) --out $(BENCH_OUT)/compare --quiet)
	@for k in $(KERNELS); do ln -sfn $(abspath generated)/$$k $(BENCH_OUT)/kernels/$$k; done
	@for k in $(BENCH_COMPARE); do ln -sfn $(abspath $(BENCH_OUT)/compare)/$$k $(BENCH_OUT)/kernels/$$k; done

# Always rerun: the kernel list may change; the script rewrites the file
# only when its content changes, so nothing is rebuilt needlessly.
bench-registry: $(if $(filter $(BENCH_OUT)/kernels,$(BENCH_GENERATED)),bench-kernels)
	@$(PY) -m bench.gen_registry $(BENCH_GENERATED) $(BENCH_OUT)/registry.c $(BENCH_KERNELS)

$(BENCH_OUT)/registry.c: bench-registry ;

$(BENCH_BIN): bench/harness.c $(BENCH_OUT)/registry.c $(BENCH_HEADERS)
	$(CC) $(BENCH_CFLAGS) $(BENCH_INCLUDES) bench/harness.c $(BENCH_OUT)/registry.c -o $@

$(BENCH_CHECK): bench/check_refs.c runtime/facct_ref.c $(BENCH_HEADERS)
	@mkdir -p $(BENCH_OUT)
	$(CC) $(BENCH_CFLAGS) $(BENCH_INCLUDES) bench/check_refs.c runtime/facct_ref.c -o $@

bench: $(BENCH_BIN)
	$(PY) -m bench.run --bin $(BENCH_BIN) --runs $(BENCH_RUNS) --rounds $(BENCH_ROUNDS) \
	    --cc "$(CC)" --cflags="$(BENCH_CFLAGS)" --generated $(BENCH_GENERATED) \
	    --json $(BUILD)/bench.json --svg $(BUILD)/bench.svg

bench-baseline: $(BENCH_BIN)
	$(PY) -m bench.baseline write $(BENCH_BIN) bench/instructions_baseline.json

# Candidate flagships (kernels/candidates/*.toml) timed next to falcon_x86
# and the references in one run: how the README's "segmented variants
# measured slower" is reproduced.  Outputs under build/candidates/.
CANDIDATES     := $(sort $(basename $(notdir $(wildcard kernels/candidates/*.toml))))
CANDIDATE_DIR  := $(BUILD)/candidates
HELP_LINES += "  make bench-candidates -- render kernels/candidates/*.toml and time them next to falcon_x86 (build/candidates/)"
.PHONY: bench-candidates
bench-candidates: gen-stamps
	$(PY) -m gen render $(wildcard kernels/candidates/*.toml) --out $(CANDIDATE_DIR)/gen --quiet
	rm -rf $(CANDIDATE_DIR)/gen/falcon_x86 && cp -r generated/falcon_x86 $(CANDIDATE_DIR)/gen/
	$(PY) -m bench.gen_registry $(CANDIDATE_DIR)/gen $(CANDIDATE_DIR)/registry.c falcon_x86 $(CANDIDATES)
	$(CC) $(BENCH_CFLAGS) -Ibench -Iruntime -Itoolkit/c -I$(CANDIDATE_DIR)/gen bench/harness.c $(CANDIDATE_DIR)/registry.c -o $(CANDIDATE_DIR)/bench_main
	$(PY) -m bench.run --bin $(CANDIDATE_DIR)/bench_main --runs 5 --rounds 400 \
	    --cc "$(CC)" --cflags="$(BENCH_CFLAGS)" --generated $(CANDIDATE_DIR)/gen \
	    --json $(CANDIDATE_DIR)/bench.json --svg $(CANDIDATE_DIR)/bench.svg

# The cost of the branch-free index clamp of direct-table kernels (docs/abi.md).
clamp-cost: gen-stamps
	$(PY) -m bench.clamp --generated generated --out $(BUILD)/clamp.json

# The sampler-level benchmark (docs/bench.md, "Sampler-level benchmark"):
# Falcon's SamplerZ loop around facct_int128, facct_avx2, the two previous
# flagships (candidates falcon_x86_v1 and falcon_x86_head, rendered by
# bench-kernels), the shipped falcon_x86, falcon_x86_fast and
# falcon_x86_simd (scalar), and its speculative forms (4 or 8
# candidates per round through falcon_x86_simd, bench/sampler_spec.h), in
# one run, with the bench's flags.
SAMPLER_BIN     := $(BENCH_OUT)/sampler_main
SAMPLER_RUNS    ?= 31
SAMPLER_ROUNDS  ?= 1000
SAMPLER_HEADERS := bench/sampler.h bench/sampler_spec.h bench/refs.h bench/timing.h toolkit/c/test_util.h runtime/facct_ref.h \
                   runtime/facct_ref.c $(wildcard generated/falcon_x86/*.h generated/falcon_x86_fast/*.h generated/falcon_x86_simd/*.h \
                   $(BENCH_OUT)/compare/falcon_x86_v1/*.h $(BENCH_OUT)/compare/falcon_x86_head/*.h)

HELP_LINES += "  make bench-sampler   -- cycles and instructions per accepted sample of a Falcon SamplerZ loop around each kernel, sequential and speculative (batch kernel): build/bench_sampler.json"

.PHONY: bench-sampler
# bench-kernels renders the candidates and links the kernel folders; it is
# order-only so that its always-run recipe does not force a relink.
$(SAMPLER_BIN): bench/sampler_main.c $(SAMPLER_HEADERS) | bench-kernels
	$(CC) $(BENCH_CFLAGS) -Ibench -Iruntime -Itoolkit/c -I$(BENCH_OUT)/kernels bench/sampler_main.c -lm -o $@

bench-sampler: $(SAMPLER_BIN)
	$(PY) -m bench.sampler_run --bin $(SAMPLER_BIN) --runs $(SAMPLER_RUNS) --rounds $(SAMPLER_ROUNDS) \
	    --cc "$(CC)" --cflags="$(BENCH_CFLAGS)" --json $(BUILD)/bench_sampler.json
