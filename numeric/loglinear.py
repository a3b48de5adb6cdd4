"""Log-linear risk model of sample uniques (Shlomo and Skinner, Section 2.1)."""
__all__: list[str] = []
