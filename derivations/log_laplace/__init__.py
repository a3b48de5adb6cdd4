"""``abs-pufferfish`` (``004_005a37d6f70bd1b7.txt``): log-Laplace perturbation of business
totals, Pufferfish privacy and the p%-rule disclosure risk.

Modules: Lemma 1, the Laplace moments (:mod:`.laplace`); Appendix A, the Horvitz-Thompson
estimator of perturbed values (:mod:`.appendix_a`); Section 3, Section 4 and Appendices B-C,
Pufferfish privacy and the disclosure risk (:mod:`.pufferfish`)."""
from . import laplace, appendix_a, pufferfish  # noqa: F401  (registers the claims)
