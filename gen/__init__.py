"""Generator of fixed-point polynomial kernels for exp(-x) and friends.

Run as a module: ``python3 -m gen --help``.
"""
