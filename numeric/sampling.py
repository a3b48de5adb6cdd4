"""Sampling and privacy (Shlomo and Skinner, Section 3)."""
__all__: list[str] = []
