"""Tooling that runs the game server from outside, never shipped in the package: the local
cluster (``localcluster``, ``make run-cluster``) and the load test (``loadtest``, ``make
bench-server``). Run from the repository's root: ``python -m tools.loadtest``."""
