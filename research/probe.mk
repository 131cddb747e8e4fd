# The rules every probe folder shares (chain_floor, edge_cost): a check.c
# that checks the probes of probe.h against a generated kernel on N inputs,
# one broken control that check must reject, and the probes timed in the
# project's bench harness (scalar_bench.mk).  The including Makefile sets
# PROTO (its folder under research/), KERNEL_HEADER (the generated header
# check.c includes, under GENERATED), CONTROL (the control's name, and
# CONTROL_MACRO the -D that builds it), CONTROL_WHAT (what the control
# breaks) and CHECK_WHAT (what check checks), then includes this file.
CC ?= gcc
CFLAGS = -O2 -march=x86-64-v3 -ffp-contract=off -Wall -Wextra -std=gnu11
OUT ?= ../../build/research/$(PROTO)
N ?= 1000000
GENERATED = ../../generated

.DEFAULT_GOAL := help
.PHONY: check controls help clean

$(OUT):
	mkdir -p $@
$(OUT)/check: check.c probe.h $(GENERATED)/$(KERNEL_HEADER) | $(OUT)
	$(CC) $(CFLAGS) -I$(GENERATED) -o $@ check.c -lm
$(OUT)/check_$(CONTROL): check.c probe.h $(GENERATED)/$(KERNEL_HEADER) | $(OUT)
	$(CC) $(CFLAGS) -D$(CONTROL_MACRO) -I$(GENERATED) -o $@ check.c -lm

check: $(OUT)/check
	$(OUT)/check $(N) 1
controls: $(OUT)/check_$(CONTROL)
	@if $(OUT)/check_$(CONTROL) 1000 1 > $(OUT)/control.txt; then \
	    echo "control $(CONTROL) ($(CONTROL_WHAT)): NOT caught"; exit 1; \
	else echo "control $(CONTROL) ($(CONTROL_WHAT)): caught: $$(head -1 $(OUT)/control.txt)"; fi

PROTO_DEPS = probe.h
include ../scalar_bench.mk

help:
	@echo "make check        $(CHECK_WHAT) (N=$(N))"
	@echo "make controls     the control $(CONTROL) ($(CONTROL_WHAT)), which check must reject"
	@echo "make scalar-bench chain, batch, callgrind instructions beside facct_int128, facct_avx2, falcon_x86, falcon_x86_fast"
	@echo "./run.sh          everything above, output in results/"
clean:
	rm -rf $(OUT)
