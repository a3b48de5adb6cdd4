"""Input-class cases for numeric.sampling (merged into _input_classes.CASES)."""
CASES: list = []
