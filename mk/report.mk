# mk/report.mk -- `make report`: rewrite the measured tables of README.md and
# docs/*.md from build/*.json (report/), between <!-- report:NAME -->
# markers.  Sections whose JSON is missing are left as they are and listed.
# REPORT_ARGS passes options, e.g. REPORT_ARGS="--source ct=build/ct/quick.json".

REPORT_ARGS ?=

HELP_LINES += "  make report      -- rewrite the measured tables of README.md and docs/*.md from build/*.json"

.PHONY: report

report:
	$(PY) -m report --build $(BUILD) $(REPORT_ARGS)
