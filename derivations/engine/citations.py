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
         "G. H. Hardy, J. E. Littlewood, G. Polya, Inequalities, 2nd ed. (1952), Ch. II, Thm 1 (a weighted "
         "mean lies between the least and the largest value; (sum a_k)/(sum b_k) is the mean of the a_k/b_k "
         "with weights b_k).")
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

citation(
    "density_of_independent_sum", "Density of a sum of independent random variables (convolution)",
    "If U and X are independent and X has density k, then U + X has density z -> E k(z - U): the mixture of the "
    "shifted densities k(z - u) over the law of U.",
    "W. Feller, An Introduction to Probability Theory and Its Applications II, 2nd ed. (1971), V.4; "
    "P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 20 (convolution).")
citation(
    "integral_monotonicity", "Monotonicity of the integral",
    "If f <= g pointwise then int f d mu <= int g d mu; for a probability measure int a d mu = a for a constant a.",
    "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 6.12(b); P. Billingsley, Probability and "
    "Measure, 3rd ed. (1995), Sec. 16.")
citation(
    "distribution_function_intervals", "Probabilities of intervals from a distribution function",
    "For a random variable Y with continuous distribution function G, P(a < Y < b) = G(b) - G(a) (a <= b); for an "
    "increasing bijection phi, P(phi(X) <= u) = P(X <= phi^{-1}(u)).",
    "P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 12 and 14 (distribution functions).")
citation(
    "bernoulli_proportion_variance", "Mean and variance of a proportion of independent Bernoulli trials",
    "The proportion of successes in M independent trials with success probability gamma has mean gamma and "
    "variance gamma(1 - gamma)/M; estimates from independent runs are independent, so variances of a difference add.",
    "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), IX.4-IX.5 "
    "(variance of a sum of independent variables; the binomial distribution).")
citation("pigeonhole_principle", "Pigeonhole principle",
         "k distinct elements of a finite set B require k <= card B.",
         "R. A. Brualdi, Introductory Combinatorics, 5th ed. (2010), Sec. 3.1.")
citation("continuous_positive_integral", "A continuous function positive at a point has a positive integral",
         "If h is continuous and h(z_0) > 0, then {h > 0} is open, so h >= c > 0 on an interval around "
         "z_0 and int h_+ dz > 0.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 4.8 (preimages of open sets) "
         "and Thm 6.12(b) (monotonicity of the integral).")
citation("linearity_conditional_expectation", "Linearity of expectation; expectation given an event",
         "For finitely many random variables Y_k and constants a_k, E[sum_k a_k Y_k] = sum_k a_k E[Y_k]; the "
         "expectation of an indicator is the probability of its event; for an event A with P(A) > 0, "
         "E[Y | A] = E[Y 1_A]/P(A).",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), V.1 and IX.2 "
         "(Theorem 1); P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 21 and 33.")
citation("monotone_likelihood_ratio_region", "Likelihood-ratio regions of a monotone likelihood ratio",
         "If y -> f(y)/g(y) is non-increasing on the union of the supports of two pmfs f, g on the integers "
         "(+oo where only f is positive, 0 where only g is), then for every c >= 0 the set {y : f(y) >= c g(y)} "
         "is an initial segment {y <= k*} of that union, and f - c g < 0 on the rest of it.",
         "E. L. Lehmann, J. P. Romano, Testing Statistical Hypotheses, 3rd ed. (2005), Sec. 3.4 (the proof of "
         "Thm 3.4.1: for a family with monotone likelihood ratio the likelihood-ratio regions are half-lines).")
citation("characteristic_function_sum_mixture", "Characteristic functions of independent sums and of mixtures",
         "The characteristic function of X + Y, X and Y independent, is the product of theirs; that of a mixture "
         "sum_k pi_k P_k of laws is sum_k pi_k phi_k (linearity of the integral).",
         "P. Billingsley, Probability and Measure, 3rd ed. (1995), Sec. 26.")
citation("laplace_mechanism_pure_dp", "The Laplace mechanism",
         "If f has l1-sensitivity Delta, f(x) + b W with W standard Laplace is (Delta/b)-differentially private.",
         "C. Dwork, A. Roth, The Algorithmic Foundations of Differential Privacy (2014), Thm 3.6.")
citation("parallel_composition", "Parallel composition",
         "If the data are partitioned into disjoint parts and an (eps, delta)-DP mechanism is applied to each part "
         "independently, the joint release is (eps, delta)-DP: a change of one record changes one part only.",
         "F. McSherry, Privacy integrated queries, SIGMOD (2009), Thm 4; Dwork & Roth (2014), Sec. 2.")
citation("sequential_composition", "Basic (sequential) composition with delta",
         "The joint release of k mechanisms with independent randomness, the j-th (eps_j, delta_j)-DP, is "
         "(sum_j eps_j, sum_j delta_j)-DP.",
         "C. Dwork, A. Roth, The Algorithmic Foundations of Differential Privacy (2014), Thm 3.16.")
citation("optimal_composition_kov", "Optimal composition theorem (Kairouz, Oh, Viswanath 2015)",
         "For any eps_0 >= 0, delta_0 in [0, 1], the k-fold adaptive composition of (eps_0, delta_0)-DP mechanisms "
         "is ((k - 2i) eps_0, 1 - (1 - delta_0)^k (1 - delta_i))-DP for every i in {0, ..., floor(k/2)}, with "
         "delta_i = sum_{l=0}^{i-1} C(k, l)(e^{(k-l) eps_0} - e^{(k-2i+l) eps_0})/(1 + e^{eps_0})^k; the privacy "
         "region is attained by the k-fold randomized-response pair, so no better bound holds in general.",
         "P. Kairouz, S. Oh, P. Viswanath, The composition theorem for differential privacy, ICML (2015), Thm 3.3; "
         "IEEE Trans. Inf. Theory 63(6) (2017).")
citation("log_concave_location_mlr", "Monotone likelihood ratio of a log-concave location family",
         "If k is a log-concave density (Laplace, normal), z -> k(z - c)/k(z - u) is non-increasing for c <= u; so a "
         "combination w_u k(z - u) - sum_j v_j k(z - c_j) with w_u > 0, v_j >= 0 and every c_j <= u is positive "
         "exactly on an upper half-line (it is positive iff w_u > sum_j v_j k(z - c_j)/k(z - u), a non-increasing "
         "function of z).",
         "S. Karlin, Total Positivity I (1968), Ch. 1 and 3 (Polya frequency functions of order 2); E. L. Lehmann, "
         "J. P. Romano, Testing Statistical Hypotheses, 3rd ed. (2005), Sec. 3.4.")
citation("substitution_rule", "Substitution rule for integrals (reflections and translations)",
         "For an integrable k and an event A, int 1_A(z) k(z) dz = int 1_A(c - w) k(c - w) dw = int 1_A(w + c) "
         "k(w + c) dw: Lebesgue measure is invariant under z -> c - z and z -> z + c.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 6.19; P. Billingsley, Probability and "
         "Measure, 3rd ed. (1995), Thm 16.13.")

# -- amplification by subsampling without replacement, stated for the privacy profile, with its formal form ----------
citation("amplification_subsampling_wor_profile",
         "Amplification by subsampling without replacement, for the privacy profile (Balle, Barthe, Gaboardi 2018)",
         "Let M act on datasets of m records and M' = M o S^wo_m draw m of the n records of its input uniformly "
         "without replacement and apply M to them. With respect to the substitution relation (datasets of n records "
         "that differ in one record, M's privacy profile taken for the same relation on m records), for every "
         "eps >= 0 and eps' = ln(1 + (m/n)(e^eps - 1)): delta_{M'}(eps') <= (m/n) delta_M(eps), delta(.) the privacy "
         "profile (the smallest delta of each eps). So an (eps, delta)-DP M gives an (ln(1 + (m/n)(e^eps - 1)), "
         "(m/n) delta)-DP M'.",
         "B. Balle, G. Barthe, M. Gaboardi, Privacy amplification by subsampling: tight analyses via couplings and "
         "divergences, NeurIPS (2018), arXiv:1807.01647, Thm 9 (sampling without replacement, substitution) and "
         "Table 1.")

import sympy as _sp  # noqa: E402  (the formal form of the citation above)

from .proofs import cited_form as _cited_form  # noqa: E402

#: template symbols of the form of ``amplification_subsampling_wor_profile``: m of n records, the value delta_M(eps)
#: of the profile of the mechanism on the subsample, and the notation delta_{M'}(eps') of the subsampled mechanism's
#: profile at eps' = ln(1 + (m/n)(e^eps - 1))
WOR_M, WOR_N = _sp.symbols("m_{wo} n_{wo}", integer=True, positive=True)
WOR_DELTA_M = _sp.Symbol(r"\delta_{M}(\varepsilon)", nonnegative=True)
WOR_PROFILE = _sp.Symbol(r"\delta_{M \circ S^{wo}_{m}}\left(\ln\left(1 + \frac{m}{n}\left(e^{\varepsilon} - 1\right)"
                         r"\right)\right)")
_cited_form("amplification_subsampling_wor_profile", WOR_PROFILE, WOR_M / WOR_N * WOR_DELTA_M, "<=",
            conditions=(_sp.Le(WOR_M, WOR_N),))
citation("hockey_stick_mixture", "Joint convexity of the hockey-stick divergence",
         "For laws mixed with the same weights, P = sum_i w_i P_i and Q = sum_i w_i Q_i (w_i >= 0, sum_i w_i = 1), "
         "sup_A P(A) - e^eps Q(A) <= sum_i w_i sup_A (P_i(A) - e^eps Q_i(A)): the supremum of a weighted sum is at "
         "most the weighted sum of the suprema.",
         "B. Balle, G. Barthe, M. Gaboardi, Privacy amplification by subsampling: tight analyses via couplings and "
         "divergences, NeurIPS (2018), Sec. 2 (joint convexity); F. Liese, I. Vajda, On divergences and "
         "informations in statistics and information theory, IEEE Trans. Inf. Theory 52 (2006), Sec. II.")
citation("multiplication_rule", "Multiplication rule for conditional probabilities",
         "For events A and B, P(A n B) = P(A) P(B | A): for P(A) > 0 the definition of the conditional probability "
         "P(B | A) = P(A n B)/P(A); for P(A) = 0 both sides vanish.",
         "W. Feller, An Introduction to Probability Theory and Its Applications I, 3rd ed. (1968), V.1.")
citation("pure_dp_likelihood_ratio", "Pure differential privacy of discrete laws and the likelihood ratio",
         "For laws with pmfs p_x, p_x' on a countable set and c >= 0, P_x(A) <= c P_x'(A) for every event A iff "
         "p_x(y) <= c p_x'(y) for every outcome y (take singletons; sum over A); so sum_y (p_x - e^eps p_x')_+ = 0 iff "
         "eps >= ln(p_x(y)/p_x'(y)) at every y with p_x(y) > 0, and the least eps with delta(eps) = 0 over a family "
         "of pairs is ln sup p_x(y)/p_x'(y) over the pairs and those y, a ratio with p_x'(y) = 0 < p_x(y) being +oo.",
         "C. Dwork, A. Roth, The Algorithmic Foundations of Differential Privacy (2014), Def. 2.4 and Sec. 3.5.1 "
         "(the privacy loss ln(Pr[M(x) = xi]/Pr[M(y) = xi]) of an outcome xi).")
citation("metric_triangle_inequality", "Triangle inequality of the Hamming distance",
         "The number of coordinates in which two sequences of equal length differ is a metric: d(x, z) <= d(x, y) + "
         "d(y, z).",
         "R. W. Hamming, Error detecting and error correcting codes, Bell System Technical Journal 29(2) (1950) "
         "147-160 (the geometrical model: the distance between points of the code space is a metric).")
citation("least_natural_attained", "An infimum of natural numbers is a least element",
         "The infimum of a set of reals is at most each of its elements; a nonempty set of natural numbers has a least "
         "element, so an infimum over it is attained.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Def. 1.8; H. B. Enderton, Elements of Set "
         "Theory (1977), Ch. 4 (the well-ordering of the natural numbers).")
citation("integral_additivity", "Additivity of the integral over adjacent intervals",
         "For a nonnegative measurable (or integrable) f and a <= c <= d, int_{(a, d)} f = int_{(a, c)} f + "
         "int_{(c, d)} f: the integral is additive over disjoint sets (a point has measure 0), infinite ends included.",
         "W. Rudin, Principles of Mathematical Analysis, 3rd ed. (1976), Thm 6.12(c); P. Billingsley, Probability and "
         "Measure, 3rd ed. (1995), Sec. 16 (the integral over a set: A -> int_A f d mu is countably additive for "
         "nonnegative f).")
citation("hockey_stick_threshold_mlr", "Hockey-stick divergence of a monotone likelihood ratio over thresholds",
         "For two laws P, Q on a finite interval of integers with Q(s) > 0 at every s of it and P(s) Q(s+1) <= "
         "P(s+1) Q(s) for every s (the ratio P/Q nondecreasing) and every c >= 0: sum_s (P(s) - c Q(s))_+ = max_t [P(>= t) - c Q(>= t)], t "
         "over the set and one past its end. The sum is sup_A P(A) - c Q(A), attained at A = {P > c Q} "
         "(hockey_stick_event_form); by the monotone ratio that set is an upper set {s >= t}, and every upper set is "
         "an event.",
         "E. L. Lehmann, J. P. Romano, Testing Statistical Hypotheses, 3rd ed. (2005), Sec. 3.4 (Thm 3.4.1: for a "
         "monotone likelihood ratio the most powerful tests reject on upper half-lines); B. Balle, G. Barthe, "
         "M. Gaboardi, Privacy amplification by subsampling, NeurIPS (2018), Sec. 2.")
#: template symbols of the form of ``hockey_stick_threshold_mlr``
HT_SUM = _sp.Symbol(r"\sum_s (P(s) - c Q(s))_+", real=True)
HT_THR = _sp.Symbol(r"\max_t [P(\geq t) - c Q(\geq t)]", real=True)
HT_MLR = _sp.Symbol(r"\min_s [P(s+1) Q(s) - P(s) Q(s+1)]", real=True)
HT_QMIN = _sp.Symbol(r"\min_s Q(s)", real=True)
_cited_form("hockey_stick_threshold_mlr", HT_SUM, HT_THR, conditions=(_sp.Ge(HT_MLR, 0), _sp.Gt(HT_QMIN, 0)))
