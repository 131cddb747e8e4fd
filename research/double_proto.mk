# The Makefile of a double-interface x86-64 prototype (fold_fast,
# faithful_fold): proto.h with a Falcon-contract function and a full
# adaptor, coeffs.h from gen_coeffs.py, checked by the shared ../acc_double.c
# and timed in the project's bench harness.  The including Makefile sets
# PROTO (its folder name under research/), ACC_NAMES (-DACC_DOMAIN=,
# -DACC_FPR=, -DACC_LIMIT=: acc_double.c's header says what they are),
# COEFFS_ARGS (gen_coeffs.py's arguments) and CONTROLS (the CONTROL_ flag
# names of its broken builds), then writes its `controls` recipe with
# CONTROL_CAUGHT on $(OUT)/acc_control_<NAME>.  Binaries go to OUT
# (default: build/research/<PROTO> of the repository), never here; its
# ./run.sh (../run_double.sh) runs every step into results/.
CC ?= gcc
CFLAGS = -O2 -march=x86-64-v3 -ffp-contract=off -Wall -Wextra -std=gnu11
OUT ?= ../../build/research/$(PROTO)
N ?= 2500000
LIBS = -lmpfr -lgmp -lm
ACC_SRC = ../acc_double.c
ACC_FLAGS = -I. $(ACC_NAMES)
SRC = $(ACC_SRC) proto.h coeffs.h ../proto_common.h

.DEFAULT_GOAL := help
.PHONY: coeffs acc controls help clean
include ../acc.mk
# Deliberately broken builds that acc must reject (proto.h says what each breaks).
$(OUT)/acc_control_%: $(SRC) | $(OUT)
	$(CC) -DCONTROL_$* -o $@ $(ACC)
controls: $(CONTROLS:%=$(OUT)/acc_control_%)

# coeffs.h is committed (a build never writes here); `make coeffs` re-derives it.
coeffs:
	python3 gen_coeffs.py $(COEFFS_ARGS) > coeffs.h.tmp && mv coeffs.h.tmp coeffs.h
acc: $(OUT)/acc_bin
	$(OUT)/acc_bin $(N) 1

# The prototype in the project's bench harness (research/scalar_bench.mk).
PROTO_DEPS = proto.h coeffs.h ../proto_common.h
include ../scalar_bench.mk

help:
	@echo "make acc          error vs MPFR against the double inputs, N=$(N) per distribution (4 N + powers of two + edges)"
	@echo "make controls     the deliberately broken builds that acc must reject ($(CONTROLS))"
	@echo "make compilers    gcc and clang outputs identical"
	@echo "make scalar-bench chain, batch, callgrind instructions beside facct_int128, facct_avx2, falcon_x86, falcon_x86_fast"
	@echo "make coeffs       re-derive coeffs.h (gen_coeffs.py)"
	@echo "./run.sh          everything above, output in results/"
clean:
	rm -rf $(OUT)
