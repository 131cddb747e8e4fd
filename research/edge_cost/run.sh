#!/bin/sh
# Reproduces every figure of README.md: each probe checked against the full
# adaptor (N draws per probe, default 1e6), the control and the
# project-harness benchmark (SCALAR_RUNS processes), by
# research/probe_run.sh.
exec "$(dirname "$0")/../probe_run.sh" edge_cost
