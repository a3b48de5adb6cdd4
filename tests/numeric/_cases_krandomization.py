"""Input-class cases for numeric.krandomization (merged into _input_classes.CASES)."""
CASES: list = []
