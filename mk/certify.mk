# mk/certify.mk -- independent certification with Gappa and Sollya (certify/).
#
# Debian packages these targets need (already in core.mk's DEBIAN_PACKAGES,
# which `make deps` installs): gappa sollya
#
#   make certify         Gappa re-proves, for every kernel in KERNELS and every
#                        segment, the generator's evaluation-error interval and
#                        the no-wrap-around ranges.  Scripts and results:
#                        build/certify/<name>/seg<i>.g, build/certify/<name>.result.json
#   make certify-sollya  Sollya's supnorm encloses sup |p - f| of every segment;
#                        the generator's approx_bound must lie in [l, 1.01 u].
# A form eft kernel (no fixed-point interface) has no polynomial, segment
# list or evaluation interval for these certificates: Gappa re-proves its
# small part's rounding claim instead (certify/gappa_eft.py), and
# certify/sollya_check.py skips it (no segment list) with a line naming how
# its bound is proven (the sidecar's bound.method).
# CERTIFY_JOBS sets the parallel Gappa runs.

CERTIFY_DIR      := $(BUILD)/certify
CERTIFY_JOBS     ?= 2
CERTIFY_FOLDERS  := $(foreach k,$(KERNELS),generated/$(k))

.PHONY: certify certify-sollya

HELP_LINES += "  make certify        -- Gappa re-proves every kernel's evaluation-error bound and ranges (build/certify/)"
HELP_LINES += "  make certify-sollya -- Sollya's supnorm cross-checks every segment's approximation bound"

certify: gen-stamps
	$(PY) -m certify.gappa_run --build $(CERTIFY_DIR) --jobs $(CERTIFY_JOBS) $(CERTIFY_FOLDERS)

certify-sollya: gen-stamps
	@mkdir -p $(CERTIFY_DIR); status=0; for s in $(CERTIFY_FOLDERS); do \
	    $(PY) -m certify.sollya_check $$s --json $(CERTIFY_DIR)/$$(basename $$s).sollya.json \
	        || status=1; done; exit $$status
