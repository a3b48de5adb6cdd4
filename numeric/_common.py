"""Shared helpers of the numeric layer: provenance links and input validation."""
from __future__ import annotations

from typing import Callable

import numpy as np


def provenance(*claim_ids: str) -> Callable:
    """Attach the ids of the claims a public function rests on (checked by the registry tests)."""
    if not claim_ids:
        raise ValueError("a public numeric function must name at least one claim")

    def mark(fn):
        fn.__claims__ = tuple(claim_ids)
        return fn

    return mark


def as_float(name: str, value) -> np.ndarray:
    """``value`` as a float array; ``ValueError`` naming ``name`` if it is not numeric or has NaN."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numeric, got {value!r}") from None
    if np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN")
    return arr


def require(ok, name: str, domain: str) -> None:
    """Raise ``ValueError`` naming the parameter and its domain unless ``ok`` holds everywhere."""
    if not np.all(ok):
        raise ValueError(f"{name} must be {domain}")


def positive(name: str, value) -> np.ndarray:
    arr = as_float(name, value)
    require(arr > 0, name, "> 0")
    return arr


def count(name: str, value, lo: int) -> int:
    """An integer >= lo (not a bool); ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {value!r}")
    return int(value)


def scalar_out(arr: np.ndarray):
    """A 0-d result as a NumPy scalar, anything else unchanged."""
    arr = np.asarray(arr)
    return arr[()] if arr.ndim == 0 else arr


def per_unit(name: str, value, n: int) -> np.ndarray:
    """A scalar or a length-``n`` array, returned as a length-``n`` float array."""
    arr = as_float(name, value)
    if arr.ndim == 0:
        return np.full(n, float(arr))
    require(arr.shape == (n,), name, f"a scalar or an array of length {n} (got shape {arr.shape})")
    return arr


def as_rng(rng) -> np.random.Generator:
    """A ``numpy.random.Generator`` from a Generator or an integer seed (never global state)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    raise ValueError(f"rng must be a numpy.random.Generator or an integer seed, got {type(rng).__name__}")
