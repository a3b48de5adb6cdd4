"""Shared helpers of the numeric layer: provenance links and the one validation layer.

Every public function of :mod:`numeric` and every command of the CLI validates its inputs here.
A bad input raises :class:`ParameterError` (a ``ValueError``) whose ``param`` attribute names the
parameter, and whose message starts with that name and states the domain; the CLI maps ``param``
to its flag (``--epsilon``...).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

#: Memory one call may allocate for arrays whose size grows with its inputs (outputs included).
MAX_BYTES = 2 << 30


class ParameterError(ValueError):
    """A ``ValueError`` naming the offending parameter (``.param``) and its domain."""

    def __init__(self, param: str, message: str):
        super().__init__(message)
        self.param = param


def fail(name: str, domain: str, got=None) -> None:
    """Raise :class:`ParameterError`: ``name must be <domain>[, got <got>]``."""
    tail = "" if got is None else f", got {got}"
    raise ParameterError(name, f"{name} must be {domain}{tail}")


def provenance(*claim_ids: str) -> Callable:
    """Attach the ids of the claims a public function rests on (checked by the registry tests)."""
    if not claim_ids:
        raise ValueError("a public numeric function must name at least one claim")

    def mark(fn):
        fn.__claims__ = tuple(claim_ids)
        return fn

    return mark


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_float(name: str, value, finite: bool = False) -> np.ndarray:
    """``value`` as a float array; ``ParameterError`` naming ``name`` if it is not real-numeric
    (strings, booleans, complex, objects, ragged nested sequences), has NaN, or (``finite``) has an
    infinity."""
    if isinstance(value, np.ndarray):
        arr = value
    else:
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError):       # ragged nested sequences ([1.0, [2.0]])
            fail(name, "a real number or a rectangular array of real numbers", _short(value))
    if arr.dtype == bool or arr.dtype.kind in "USOcMmV":
        if arr.dtype.kind == "O":
            try:
                arr = np.asarray(value, dtype=float)
            except (TypeError, ValueError, OverflowError):
                fail(name, "real-numeric", _short(value))
        else:
            fail(name, "real-numeric (not a boolean, string or complex number)", _short(value))
    try:
        arr = np.asarray(arr, dtype=float)
    except (TypeError, ValueError, OverflowError):
        fail(name, "real-numeric", _short(value))
    if np.isnan(arr).any():
        fail(name, "a number, not NaN")
    if finite and not np.isfinite(arr).all():
        fail(name, "finite")
    return arr


def require(ok, name: str, domain: str) -> None:
    """Raise ``ParameterError`` naming the parameter and its domain unless ``ok`` holds everywhere."""
    if not np.all(ok):
        fail(name, domain)


def positive(name: str, value) -> np.ndarray:
    arr = as_float(name, value)
    require(arr > 0, name, "> 0")
    return arr


def scalar(name: str, value, lo=-math.inf, hi=math.inf, lo_open=False, hi_open=False,
           finite=True) -> float:
    """A real scalar in the interval (lo/hi, open or closed as said), as a Python float."""
    if isinstance(value, np.ndarray) and value.ndim != 0:      # before any pass over a large array
        fail(name, "a real scalar", f"an array of shape {value.shape}")
    arr = as_float(name, value, finite=finite)
    if arr.ndim != 0:
        fail(name, "a real scalar", f"an array of shape {arr.shape}")
    v = float(arr)
    below = v <= lo if lo_open else v < lo
    above = v >= hi if hi_open else v > hi
    if below or above:
        fail(name, f"in {'(' if lo_open else '['}{lo:g}, {hi:g}{')' if hi_open else ']'}", _short(value))
    return v


def boolean(name: str, value) -> bool:
    """``True`` or ``False`` (Python or NumPy booleans only: the string ``'False'`` is refused)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    fail(name, "True or False", _short(value))


def tolerance(name: str, value, lo: float = 1e-15, hi: float = 0.1) -> float:
    """A relative tolerance in [lo, hi]."""
    return scalar(name, value, lo, hi)


def count(name: str, value, lo: int, hi: int | None = None) -> int:
    """An integer in [lo, hi] (not a bool, not a float); ``ParameterError`` naming ``name`` otherwise."""
    integer = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if not integer or value < lo or (hi is not None and value > hi):
        fail(name, f"an integer >= {lo}" if hi is None else f"an integer in [{lo}, {hi}]", _short(value))
    return int(value)


def memory(name: str, cells, itemsize: int = 8, what: str = "the result") -> None:
    """Refuse (naming ``name``) a call whose arrays of ``cells`` items would exceed ``MAX_BYTES``."""
    need = float(cells) * itemsize
    if need > MAX_BYTES:
        raise ParameterError(name, f"{name} is too large: {what} would need {need / 2**30:.3g} GiB "
                             f"(the limit is {MAX_BYTES / 2**30:g} GiB)")


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
    """A ``numpy.random.Generator`` from a Generator or an integer seed >= 0 (never global state)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            fail("rng", "a numpy.random.Generator or an integer seed >= 0", _short(rng))
        return np.random.default_rng(int(rng))
    fail("rng", "a numpy.random.Generator or an integer seed >= 0", type(rng).__name__)


def _shape_of(value) -> tuple:
    """The shape numpy would give ``value`` (read from the array itself: nothing is copied);
    ``()`` for anything numpy cannot shape (ragged lists...), which ``as_float`` then refuses."""
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple):
        return shape
    try:
        return np.shape(value)
    except (TypeError, ValueError):
        return ()


def broadcast_shape(**named) -> tuple:
    """The shape the named inputs broadcast to, found from their shapes alone (nothing is converted
    or allocated, so a :func:`memory` check can come first).  ``ParameterError`` if the shapes clash;
    its ``param`` is the first input, in the order given, whose shape does not broadcast with the
    ones before it, and the message names every input with its shape."""
    shapes = {k: _shape_of(v) for k, v in named.items()}
    acc: tuple = ()
    for k, s in shapes.items():
        try:
            acc = np.broadcast_shapes(acc, s)
        except ValueError:
            listed = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
            raise ParameterError(k, f"{k} must broadcast with {' and '.join(n for n in shapes if n != k)}; "
                                 f"got {listed}") from None
    return acc


def memory_for(arrays: float, itemsize: int = 8, **named) -> tuple:
    """``broadcast_shape(**named)``, then :func:`memory` for ``arrays`` arrays of that shape, naming the
    largest input (the first of the largest).  Returns the broadcast shape."""
    shape = broadcast_shape(**named)
    cells = math.prod(shape)
    if cells * arrays * itemsize > MAX_BYTES:
        sizes = {k: math.prod(_shape_of(v)) for k, v in named.items()}
        memory(max(sizes, key=sizes.get), cells * arrays, itemsize)
    return shape


def exact_sum(values) -> tuple[float, int]:
    """The exact sum of a finite float array as ``(m, k)``, sum = m * 2**k with 1/2 <= |m| < 1 (or m = 0
    exactly when the sum is 0), so that neither an overflowing total (1e308 + 1e308) nor a cancelling
    one (1 + 1e16 - 1e16) is misjudged.  The terms are divided by a power of two >= max |v| (exact down
    to 2^-1022 of it) and summed by ``math.fsum`` (correctly rounded, no overflow); when that sum is
    below 2^-900 they are summed again as exact fractions."""
    values = np.asarray(values, dtype=float).ravel()
    top = float(np.max(np.abs(values))) if values.size else 0.0
    if top == 0:
        return 0.0, 0
    e = math.frexp(top)[1]
    s = math.fsum(np.ldexp(values, -e).tolist())
    if abs(s) >= 2.0 ** -900:
        m, k = math.frexp(s)
        return m, k + e
    from fractions import Fraction

    exact = sum((Fraction(v) for v in values.tolist()), Fraction(0))
    if exact == 0:
        return 0.0, 0
    k = abs(exact.numerator).bit_length() - exact.denominator.bit_length()
    m = exact / Fraction(2) ** k          # in [1/4, 2): one more normalisation step
    m2, k2 = math.frexp(float(m))
    return m2, k + k2


def samples_of(samples, n: int, name: str = "samples", n_is: str = "the length of x") -> list[tuple[int, ...]]:
    """An explicit design's samples as tuples of distinct integer unit indices in [0, n).

    ``ParameterError`` naming ``name`` if ``samples`` is not a sequence of iterables, or a sample has
    a non-integer index (1.5, True, '1': never truncated), an index out of range or a repeated unit.
    A design whose Python lists would exceed the memory limit (about 100 bytes per sample and per unit
    index) is refused first."""
    shape = _shape_of(samples) if isinstance(samples, np.ndarray) else None
    if shape is not None:
        memory(name, math.prod(shape) + (shape[0] if shape else 0), 100, "the list of samples")
    elif hasattr(samples, "__len__"):
        memory(name, len(samples), 100, "the list of samples")
    try:
        items = list(samples)
    except TypeError:
        fail(name, "a sequence of samples, each an iterable of unit indices", _short(samples))
    out = []
    for k, s in enumerate(items):
        if isinstance(s, (str, bytes)):
            fail(name, f"made of iterables of integer unit indices (samples[{k}] is a string)")
        try:
            units = list(s)
        except TypeError:
            fail(name, f"made of iterables of unit indices (samples[{k}] = {_short(s)})")
        for j in units:
            if isinstance(j, (bool, np.bool_)) or not isinstance(j, (int, np.integer)):
                fail(name, f"made of integer unit indices (samples[{k}] contains {_short(j)})")
            if not 0 <= j < n:
                fail(name, f"made of unit indices in [0, n) = [0, {n}), n {n_is} (samples[{k}] contains {j})")
        if len(set(int(j) for j in units)) != len(units):
            fail(name, f"sets of distinct units (samples[{k}] repeats one)")
        out.append(tuple(int(j) for j in units))
    return out


def two_product(a, b):
    """(prod, resid) with a b = prod + resid exactly: the rounded product and Dekker's exact residual by
    Veltkamp's splitting (Dekker 1971), exact where no intermediate over- or underflows (operands within
    about 2^+-450 of 1 and a product above 2^-900)."""
    split = 134217729.0                               # 2^27 + 1
    prod = a * b
    ah = split * a
    ah = ah - (ah - a)
    al = a - ah
    bh = split * b
    bh = bh - (bh - b)
    bl = b - bh
    return prod, (((ah * bh - prod) + ah * bl) + al * bh) + al * bl
