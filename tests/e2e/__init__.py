"""End-to-end tests: a real bot process driven through the local Discord stand-in."""
