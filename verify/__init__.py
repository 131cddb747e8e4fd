"""The error checker's Python side and the user-facing kernel commands:
plan (sidecar -> checker plan), audit (figures -> build/audit.json),
checker_speed (the checker's own speed), user_kernel (`make kernel`) and
vendor (`make vendor`).  `python3 -m verify kernel|vendor ...` is the one
CLI of the last two."""
