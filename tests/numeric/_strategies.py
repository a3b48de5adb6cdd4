"""Hypothesis strategies shared by the profile tests."""
from __future__ import annotations

from hypothesis import strategies as st


@st.composite
def srs_designs(draw, max_N: int):
    """(N, n, m_t, M_t): SRS of n among N <= max_N units, population total known to lie in
    [m_t, M_t] with m_t < M_t (so that a neighbouring pair exists)."""
    N = draw(st.integers(1, max_N))
    n = draw(st.integers(1, N))
    m_t = draw(st.integers(0, N - 1))
    M_t = draw(st.integers(m_t + 1, N))
    return N, n, m_t, M_t
