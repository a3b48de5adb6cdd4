"""Input-class cases for numeric.shuffle_rr (merged into _input_classes.CASES)."""
CASES: list = []
