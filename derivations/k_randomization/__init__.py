"""``k-randomization`` (``003_6dfa2dbc38b4b249.txt``): Zhilyaev and Zeber, K-Randomization (2016).

Modules: Sections 1-2, differential privacy of a finite release and bit-vector randomization
(:mod:`.definitions`); Section 3, the privacy ratio and the single-bit count (:mod:`.single_bit`);
Sections 4-5, ratios of sums and the per-record statement (:mod:`.ratios`); beyond the paper, the
exact privacy of the aggregated counts (:mod:`.aggregated`)."""
from . import definitions  # noqa: F401  (registers the claims)
from . import ratios  # noqa: F401
from . import single_bit  # noqa: F401
from . import aggregated  # noqa: F401
