"""The top layer: the `finestate` command (main.py), its tables, and `make bench` (bench.py)."""
