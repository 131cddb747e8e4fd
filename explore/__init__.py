"""The design-space explorer (`make explore`, docs/explore.md): enumerate the
configs the generator can render for a target, prune them by a cached Remez
estimate and by table size, evaluate the survivors end to end (render, proven
bound, quick check, cost on the target), and report the Pareto front.

Modules, one job each: space (what is enumerated per target), toml_text (a
config as TOML text), cache (content-addressed JSON on disk), estimate
(Remez approximation error per segment width and degree), prune, worker
(one candidate end to end, run as a subprocess), cost_x86 / cost_mcu (the
cost on x86-64, on the Cortex-M3 and M4), scheduler (two workers, progress, the time box),
pareto, report (table, JSON, recommended config, comparison with the shipped
kernel), svg (the plot), cli (arguments and the run)."""
