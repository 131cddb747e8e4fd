"""Independent certification of generated kernels: Gappa (evaluation) and Sollya (approximation)."""
