"""``ht-mechanism`` (``000_3f4b38deb4c4e7bd.txt``): the Horvitz-Thompson estimate as a differential-privacy mechanism.

Modules in the paper's order: the definitions of Section 1.4 and Results 1-6 (:mod:`.results`),
Result 7 and its proof (:mod:`.result7`), simple random sampling on binary data, Results 8-9
(:mod:`.srs`), Result 10 (:mod:`.conditional`), and the exact privacy profile that answers the
paper's question for (epsilon, delta) (:mod:`.profile`)."""
from . import result7, results, srs, conditional, profile  # noqa: F401  (registers the claims)
from . import stratified  # noqa: F401  (stratified, Poisson, bounded values, tables, accuracy)
