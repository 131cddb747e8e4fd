"""Falcon drop-in evidence: adaptor checks, bit-exactness and BerExp runs."""
