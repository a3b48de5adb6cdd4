"""Input-class cases for numeric.misclassification (merged into _input_classes.CASES)."""
CASES: list = []
