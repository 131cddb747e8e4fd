# Constant-time evidence (ct/): valgrind taint tracking, dudect-style t-test
# and binary scan on every kernel in KERNELS and on three control kernels.
# Outputs: build/ct.json (make ct), build/ct/quick.json (make ct-quick).

CT_RUN = $(PY) -m ct.run --kernels "$(KERNELS)" --cc "$(CC)" --cflags "$(CFLAGS)" \
         --build-dir $(BUILD)/ct

.PHONY: ct ct-quick ct-deps

HELP_LINES += "  make ct         -- constant-time checks (memcheck, 10^7-sample t-test, binary scan) -> build/ct.json"
HELP_LINES += "  make ct-quick   -- the same with a short t-test -> build/ct/quick.json"

ct: ct-deps gen
	$(CT_RUN) --out $(BUILD)/ct.json

ct-quick: ct-deps gen
	$(CT_RUN) --ttest-n 100000 --control-n 200000 --out $(BUILD)/ct/quick.json

# memcheck.h comes with Debian's valgrind package.
deps: ct-deps
ct-deps:
	@command -v valgrind >/dev/null && test -f /usr/include/valgrind/memcheck.h || \
	    (apt-get update && apt-get install -y valgrind)
