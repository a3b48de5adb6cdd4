"""Input-class cases for numeric.loglinear (merged into _input_classes.CASES)."""
CASES: list = []
