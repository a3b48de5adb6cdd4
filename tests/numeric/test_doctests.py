"""The examples in the numeric docstrings are executed (their values were computed independently
in the docstrings' comments: e.g. 1/(1 - 1/4) for the log-Laplace mean at b = 1/2)."""
from __future__ import annotations

import doctest

import pytest

import numeric
import numeric.bruteforce
import numeric.ht
import numeric.ht_mechanism
import numeric.laplace
import numeric.profile
import numeric.profile.calibration
import numeric.profile.designs
import numeric.profile.domains
import numeric.pufferfish
import numeric.identification
import numeric.loglinear
import numeric.misclassification
import numeric.sampling
import numeric.shuffle_rr
import numeric.srs_binary


@pytest.mark.parametrize("module", [numeric, numeric.laplace, numeric.ht, numeric.ht_mechanism, numeric.bruteforce,
                                    numeric.srs_binary, numeric.profile, numeric.profile.designs,
                                    numeric.profile.domains, numeric.profile.calibration, numeric.pufferfish,
                                    numeric.identification, numeric.loglinear, numeric.sampling,
                                    numeric.misclassification, numeric.shuffle_rr, numeric.quantile_mechanisms,
                                    numeric.private_deciles, numeric._above_threshold],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
