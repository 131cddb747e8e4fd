"""The test suite: python3 -m tests.run_tests runs every test_*.py here."""
