"""Helpers shared by the test suites and bench/: real servers on loopback, the contract."""
