"""Named standard results that proofs may cite (a citation step names one of these keys).

Each entry states the result as it is used and gives a reference a reader can look up.  A proof
that cites one is labelled "PROVED (with citations)"; `dpderive show` lists the citations of a
claim and the report lists every cited result with the claims that use it.
"""
from __future__ import annotations

from .core import citation

citation("triangle_inequality", "Triangle inequality",
         "|a + d| <= |a| + |d| and |a + d| >= |a| - |d| for real a, d.",
         "Any analysis text, e.g. W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 1.33.")
citation("mediant_inequality", "Ratio of sums (mediant) inequality",
         "For b_k > 0: min_k a_k/b_k <= (sum a_k)/(sum b_k) <= max_k a_k/b_k, with equality on the right "
         "iff a_k/b_k equals the maximum for every k with b_k > 0.",
         "G. H. Hardy, J. E. Littlewood, G. Polya, Inequalities, 2nd ed. (1952), Sec. 2.5.")
citation("laguerre_rule_of_signs", "Laguerre's rule of signs",
         "An exponential sum sum_k w_k e^{c_k z} (c_1 < ... < c_K) has at most as many real zeros, counted "
         "with multiplicity, as the sequence (w_k) has sign changes.",
         "G. Polya, G. Szego, Problems and Theorems in Analysis II (1976), Part V, Problem 80; "
         "G. J. O. Jameson, Counting zeros of generalised polynomials, Math. Gazette 90 (2006).")
citation("rolle_theorem", "Rolle's theorem",
         "Between two zeros of a differentiable real function there is a zero of its derivative.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 5.10.")
citation("intermediate_value_theorem", "Intermediate value theorem",
         "A continuous function on [a, b] takes every value between f(a) and f(b).",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 4.23.")
citation("monotone_limits", "Monotone functions and their sign",
         "A differentiable function whose derivative is > 0 (< 0) on an interval is strictly increasing "
         "(decreasing) there; a continuous function constant on each of finitely many pieces covering an "
         "interval, and monotone on the others, attains its supremum at a piece endpoint or on a constant piece.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 5.11.")
citation("data_processing_hockey_stick", "Data-processing inequality for the hockey-stick divergence",
         "For every Markov kernel K, sup_A P K(A) - e^eps Q K(A) <= sup_A P(A) - e^eps Q(A): post-processing "
         "cannot increase the (eps, delta) of a mechanism.",
         "C. Dwork, A. Roth, The Algorithmic Foundations of Differential Privacy (2014), Prop. 2.1; "
         "B. Balle, G. Barthe, M. Gaboardi, Privacy amplification by subsampling, NeurIPS (2018), Sec. 2.")
citation("hockey_stick_event_form", "Hockey-stick divergence as a supremum over events",
         "sup_A P(A) - e^eps Q(A) = int (p - e^eps q)_+ d mu, attained at A = {p > e^eps q}, for densities p, q "
         "with respect to a common measure mu.",
         "B. Balle, G. Barthe, M. Gaboardi, Privacy amplification by subsampling, NeurIPS (2018), Sec. 2; "
         "Dwork & Roth (2014), Sec. 3.5.")
citation("amplification_by_subsampling", "Privacy amplification by subsampling (Balle, Barthe, Gaboardi 2018)",
         "If M is eps-DP with respect to substitution, M applied to a subsample drawn without replacement with "
         "sampling fraction q is ln(1 + q(e^eps - 1))-DP.",
         "B. Balle, G. Barthe, M. Gaboardi, Privacy amplification by subsampling: tight analyses via couplings "
         "and divergences, NeurIPS (2018), Thm 9 and Table 1.")
citation("characteristic_function_uniqueness", "Uniqueness of characteristic functions",
         "Two probability laws on R with the same characteristic function are equal.",
         "P. Billingsley, Probability and Measure, 3rd ed. (1995), Thm 26.2.")
citation("coupling_binomial", "Coupling of hypergeometric and binomial laws of neighbouring totals",
         "A sample of a population with one more unit of value 1 is obtained from a sample of the smaller "
         "population by replacing the drawn unit, so the laws of the sampled totals differ by a one-step "
         "shift on the event that the changed unit is drawn.",
         "T. Lindvall, Lectures on the Coupling Method (1992), Ch. I.")
citation("fubini_tonelli", "Fubini-Tonelli theorem",
         "Iterated integrals (or a sum and an integral) of a non-negative measurable function may be exchanged.",
         "P. Billingsley, Probability and Measure, 3rd ed. (1995), Thm 18.3.")
citation("hypergeometric_law", "Law of the number of sampled units with a property under simple random sampling",
         "Under simple random sampling of n units among N of which t have a property, the number drawn with the "
         "property is hypergeometric: P(Y = y) = C(t, y) C(N - t, n - y) / C(N, n).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), II.6.")
