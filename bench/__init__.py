"""The x86-64 benchmark: the variant registry (gen_registry), the timing
run (run), callgrind instruction counts (callgrind, baseline), statistics
(stats), the machine record (machine) and the SVG plot (plot).  Every
script runs as `python3 -m bench.<module>`."""
