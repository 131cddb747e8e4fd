# The design-space explorer (explore/, docs/explore.md): enumerate the
# configs of a target, prune them by a cached Remez estimate and by table
# size, render, prove, check (quick) and measure the survivors and the
# shipped kernel two at a time, and report the Pareto front.  Outputs:
# build/explore/<target>.json, .svg, .toml (the recommended config) and the
# candidates' folders under build/explore/<target>/.

HELP_LINES += "  make explore TARGET=x86|m3|m4 BUDGET_LOG2=n [MAX_TABLE_BYTES=n] [TIME=min] -- the Pareto front of the configs for a target and error budget: build/explore/<target>.json, .svg, .toml"

.PHONY: explore
explore:
	$(PY) -m explore --target "$(TARGET)" --budget-log2 "$(BUDGET_LOG2)" \
	    --max-table-bytes "$(MAX_TABLE_BYTES)" --time "$(TIME)"
