"""Benchmarks (`make bench`, `python -m bench.run`). Never run as unit tests."""
