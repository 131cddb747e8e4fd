#!/bin/sh
# Every figure of README.md, into results/ (../run_double.sh says how).
exec "$(dirname "$0")/../run_double.sh" "$(cd "$(dirname "$0")" && pwd)"
