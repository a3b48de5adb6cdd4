"""``shlomo-skinner`` (``002_89b9dd341c0215c2.txt``): Shlomo and Skinner, Privacy Protection from
Sampling and Perturbation in Survey Microdata.

Modules: Section 2.1, identification risk under the Poisson model (:mod:`.identification`)."""
from . import identification  # noqa: F401  (registers the claims)
from . import loglinear  # noqa: F401
from . import sampling  # noqa: F401
from . import misclassification  # noqa: F401
