"""``private-deciles`` (``001_1dd3d7af6edcb71d.txt``): Canesse, internship report (ENS Lyon, 2022).

Modules: Sections 1.2 and 2.1, neighbours, differential privacy and AboveThreshold
(:mod:`.above_threshold`); Sections 2.2.1-2.2.2, the histogram method, its privacy, accuracy lemma and
cost (:mod:`.histogram`); Sections 2.2.3-2.2.4 and Appendix A, its accuracy for uniform and normal data
(:mod:`.accuracy`); Section 3, the inverse-sensitivity mechanism (:mod:`.inverse_sensitivity`)."""
from . import above_threshold  # noqa: F401  (registers the claims)
from . import histogram  # noqa: F401
from . import accuracy  # noqa: F401
from . import inverse_sensitivity  # noqa: F401
