"""What the entry points of the privacy profile share: the claims they rest on and the checks of
their arguments (a design, a domain, a noise, a scale, epsilons, a target delta)."""
from __future__ import annotations

import numpy as np

from .._common import as_float, require, scalar
from .designs import SRS, Bernoulli, ExplicitDesign, Poisson, Stratified
from .domains import BinaryDomain, FiniteDomain, IntervalDomain

NOISES = ("laplace", "gaussian")
_CLAIMS = ("htm.delta.event_form", "profile.laplace.endpoint_form", "profile.laplace.interval_increasing",
           "profile.laplace.interval_decreasing", "profile.laplace.interval_no_root", "profile.laplace.tails",
           "profile.gaussian.exponential_sum", "profile.gaussian.rolle_step", "profile.gaussian.half_line",
           "profile.delta0_bound", "profile.srs.pmf_difference", "profile.bernoulli.pmf_difference",
           "profile.srs.zero_region", "htm.r8.pmf_ratio", "profile.bernoulli.pmf_ratio",
           "profile.amplification.generic_scale", "htm.census.delta")


# -- validation -------------------------------------------------------------------------------------
def _survey(design, domain) -> bool:
    """True for the designs and domains of the one-unit reductions
    (:mod:`numeric.profile.search.one_unit`)."""
    return isinstance(design, (Stratified, Poisson)) or isinstance(domain, (IntervalDomain, list, tuple))


def _check(design, domain, noise):
    require(isinstance(design, (SRS, Bernoulli, ExplicitDesign, Stratified, Poisson)), "design",
            "an SRS, Bernoulli, Stratified, Poisson or ExplicitDesign")
    require(noise in NOISES, "noise", f"one of {NOISES} (got {noise!r})")
    if isinstance(domain, (list, tuple)):
        require(isinstance(design, Stratified), "domain", "a BinaryDomain, FiniteDomain or IntervalDomain (a list "
                "of per-stratum domains goes with a Stratified design)")
        require(len(domain) == len(design.strata), "domain", f"one domain per stratum ({len(design.strata)} "
                f"strata, {len(domain)} domains)")
        for h, (d, dom) in enumerate(zip(design.strata, domain)):
            require(isinstance(dom, (BinaryDomain, IntervalDomain)), "domain", f"made of BinaryDomain or "
                    f"IntervalDomain (stratum {h} has {type(dom).__name__})")
            if isinstance(dom, BinaryDomain):
                require(dom.N == d.N, "domain", f"on each stratum's population (stratum {h}: domain N = {dom.N}, "
                        f"design N = {d.N})")
        return
    require(isinstance(domain, (BinaryDomain, FiniteDomain, IntervalDomain)), "domain",
            "a BinaryDomain, FiniteDomain or IntervalDomain")
    if isinstance(domain, BinaryDomain):
        require(domain.N == design.N, "domain", f"on the design's population (domain N = {domain.N}, "
                f"design N = {design.N})")
    if isinstance(domain, IntervalDomain):
        require(not isinstance(design, ExplicitDesign), "domain", "a BinaryDomain or FiniteDomain for an "
                "ExplicitDesign (an interval is handled for SRS, Bernoulli, Stratified and Poisson designs)")
    if isinstance(domain, FiniteDomain):
        require(not isinstance(design, (Stratified, Poisson)), "domain", "a BinaryDomain or IntervalDomain for a "
                "Stratified or Poisson design")


def _scale(name: str, value, allow_zero=False) -> float:
    return scalar(name, value, 0.0, np.inf, lo_open=not allow_zero)


def _epsilons(value, name: str = "epsilon") -> np.ndarray:
    eps = as_float(name, value, finite=True)
    require(eps >= 0, name, "finite and >= 0")
    return eps


def _delta_target(value) -> float:
    return scalar("delta", value, 0.0, 1.0, lo_open=True, hi_open=True)
