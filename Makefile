# Fixed-point exp(-x) kernels for FN-DSA: generate, build, check, audit.
# `make help` lists the targets.  Every target is reproducible from a fresh
# clone; `make deps` installs the Debian packages the others need.

PY        ?= python3
CC        ?= gcc
CFLAGS    ?= -O2 -Wall -Wextra
BUILD     := build
KERNELS   := $(sort $(basename $(notdir $(wildcard kernels/*.toml))))

.DEFAULT_GOAL := all
.PHONY: all help deps gen test clean

include mk/*.mk
