# mk/falcon.mk -- Falcon drop-in evidence (falcon/, docs/falcon.md):
# bit-exactness of facct_compat against the hand-written reference and the
# BerExp decision counts of every kernel with Falcon adaptors.
# Outputs: build/falcon/compat.json, build/berexp.json,
# build/falcon/berexp_quick.json.  build/audit.json (make audit) is read
# when present for the kernels' measured errors.

FALCON_BUILD   := $(BUILD)/falcon
COMPAT_DRAWS   ?= 1000000000
BEREXP_DRAWS   ?= 1000000000
FALCON_THREADS ?= 2

HELP_LINES += "  make falcon-compat -- facct_compat vs runtime/facct_ref.c on COMPAT_DRAWS (1e9) random inputs, plus a bit-flipped control"
HELP_LINES += "  make berexp        -- BerExp decisions of every kernel vs the reference on identical random bytes, BEREXP_DRAWS (1e9): build/berexp.json"
HELP_LINES += "  make berexp-quick  -- the same on 1e7 draws (build/falcon/berexp_quick.json)"
HELP_LINES += "  make falcon-test   -- only the Falcon adaptor, compat and BerExp tests (tests/test_falcon.py)"

.PHONY: falcon-compat berexp berexp-quick falcon-test

falcon-compat: gen-stamps
	$(PY) -m falcon.compat --kernel facct_compat --draws $(COMPAT_DRAWS) \
	    --threads $(FALCON_THREADS) --control --build $(FALCON_BUILD) \
	    --out $(FALCON_BUILD)/compat.json

berexp: gen-stamps
	$(PY) -m falcon.berexp --draws $(BEREXP_DRAWS) --threads $(FALCON_THREADS) \
	    --control-bits 40 --audit $(BUILD)/audit.json --build $(FALCON_BUILD) \
	    --out $(BUILD)/berexp.json $(KERNELS)

berexp-quick: gen-stamps
	$(PY) -m falcon.berexp --draws 10000000 --threads $(FALCON_THREADS) \
	    --control-bits 44 --audit $(BUILD)/audit.json --build $(FALCON_BUILD) \
	    --out $(FALCON_BUILD)/berexp_quick.json $(KERNELS)

falcon-test:
	$(PY) -m tests.run_tests test_falcon.py
