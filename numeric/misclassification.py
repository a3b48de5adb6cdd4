"""Misclassification (PRAM) and privacy (Shlomo and Skinner, Section 4)."""
__all__: list[str] = []
