"""The fuzz campaign of issue 10 (a package, so its conftest and helpers do not shadow tests/conftest.py)."""
