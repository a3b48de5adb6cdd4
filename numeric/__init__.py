"""Fast, vectorised numeric functions generated from (and linked to) verified claims.

Every public function names the claims it rests on in ``fn.__claims__``.

>>> from numeric import ht_variance, laplace_mgf
>>> float(laplace_mgf(0.5, 1.0))
1.3333333333333333
"""
from .bruteforce import delta_bruteforce
from .ht import census_rse, ht_variance, simulate_rse
from .ht_mechanism import (density_ratio, density_ratio_derivative, ht_atoms, laplace_mechanism_delta,
                           mixture_density)
from . import krandomization as _krandomization, shuffle_rr as _shuffle_rr
from . import loglinear as _loglinear, misclassification as _misclassification, sampling as _sampling
from .identification import expected_inverse_frequency, prob_population_unique
from .loglinear import *  # noqa: F401,F403  (names in numeric.loglinear.__all__)
from .misclassification import *  # noqa: F401,F403
from .sampling import *  # noqa: F401,F403
from .krandomization import *  # noqa: F401,F403
from .shuffle_rr import *  # noqa: F401,F403
from . import quantile_mechanisms as _quantile_mechanisms
from .quantile_mechanisms import *  # noqa: F401,F403
from . import private_deciles as _private_deciles
from .private_deciles import *  # noqa: F401,F403
from . import above_threshold as _above_threshold
from .above_threshold import *  # noqa: F401,F403
from .laplace import (bias_correction, laplace_cdf, laplace_mgf, laplace_pdf, log_laplace_mean,
                      log_laplace_variance)
from .profile import (SRS, Bernoulli, BinaryDomain, ExplicitDesign, FiniteDomain, IntervalDomain, Poisson, Scale,
                      Stratified, WorstPair, amplified_laplace_scale, calibrate_scale, epsilon_for_delta,
                      privacy_profile, worst_pair)
from .tables import calibrate_table, release_table
from .pufferfish import (disclosure_risk, max_disclosure_risk, pufferfish_epsilon, pufferfish_scale,
                         simulate_disclosure_risk)
from .srs_binary import srs_binary_delta0, srs_binary_epsilon0, srs_binary_log_pmf, srs_binary_pmf_ratio

__all__ = ["Bernoulli", "BinaryDomain", "ExplicitDesign", "FiniteDomain", "IntervalDomain", "Poisson", "SRS",
           "Stratified", "WorstPair", "calibrate_table", "release_table",
           "amplified_laplace_scale", "calibrate_scale", "epsilon_for_delta", "privacy_profile", "worst_pair",
           "disclosure_risk", "max_disclosure_risk", "pufferfish_epsilon", "pufferfish_scale",
           "simulate_disclosure_risk",
           "expected_inverse_frequency", "prob_population_unique",
           "bias_correction", "census_rse", "delta_bruteforce", "density_ratio", "density_ratio_derivative",
           "ht_atoms", "ht_variance", "laplace_cdf", "laplace_mechanism_delta", "laplace_mgf", "laplace_pdf",
           "log_laplace_mean", "log_laplace_variance", "mixture_density", "simulate_rse", "srs_binary_delta0",
           "srs_binary_epsilon0", "srs_binary_log_pmf", "srs_binary_pmf_ratio"]
__all__ += _loglinear.__all__ + _misclassification.__all__ + _sampling.__all__
__all__ += _krandomization.__all__ + _shuffle_rr.__all__
__all__ += _quantile_mechanisms.__all__
__all__ += _private_deciles.__all__
__all__ += _above_threshold.__all__
