# Research prototypes (research/): hand-written designs measured ahead of a
# generator form, not shipped kernels.  research/fp_batch/README.md says
# what each figure is; make test runs their quick checks.

HELP_LINES += "  make research-fp-batch -- the faithful binary64 batch prototype (research/fp_batch): accuracy vs MPFR, controls, gcc/clang identity, memcheck taint, error budget, 5 timing runs, into research/fp_batch/results/"

.PHONY: research-fp-batch
research-fp-batch:
	OUT=$(abspath $(BUILD))/research/fp_batch research/fp_batch/run.sh

HELP_LINES += "  make research-fold-fast -- the folded fast x86-64 prototype (research/fold_fast): accuracy vs MPFR, controls, gcc/clang identity, project-harness timing, into research/fold_fast/results/"
.PHONY: research-fold-fast
research-fold-fast:
	OUT=$(abspath $(BUILD))/research/fold_fast research/fold_fast/run.sh

HELP_LINES += "  make research-m3-small -- the small-table Cortex-M3 prototype (research/m3_small_table): accuracy vs MPFR, edge rules, controls, gcc/clang identity, QEMU instruction counts and bit-identity, into research/m3_small_table/results/"
.PHONY: research-m3-small
research-m3-small:
	OUT=$(abspath $(BUILD))/research/m3_small_table research/m3_small_table/run.sh

HELP_LINES += "  make research-chain-floor -- falcon_x86_fast's integer and binary64 paths timed alone (research/chain_floor): the split checked bit for bit, a control, project-harness timing, into research/chain_floor/results/"
.PHONY: research-chain-floor
research-chain-floor:
	OUT=$(abspath $(BUILD))/research/chain_floor research/chain_floor/run.sh

HELP_LINES += "  make research-faithful-fold -- the faithful folded x86-64 prototype (research/faithful_fold): accuracy vs MPFR against the double inputs, controls, gcc/clang identity, project-harness timing, into research/faithful_fold/results/"
.PHONY: research-faithful-fold
research-faithful-fold:
	OUT=$(abspath $(BUILD))/research/faithful_fold research/faithful_fold/run.sh

HELP_LINES += "  make research-edge-cost -- what falcon_x86's edge rules cost (research/edge_cost): the core behind a part of the rules, each probe checked against the full adaptor, a control, project-harness timing, into research/edge_cost/results/"
.PHONY: research-edge-cost
research-edge-cost:
	OUT=$(abspath $(BUILD))/research/edge_cost research/edge_cost/run.sh
