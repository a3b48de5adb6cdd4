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
