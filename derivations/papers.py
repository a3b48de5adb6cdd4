"""The bibliographic records of the five source documents in ``shared/seeds``.

Each field is what the document itself prints; where it prints nothing, the field is empty and the
remark says so (the files are text extractions: title pages, footnotes and affiliations may be lost).
"""
from .engine.papers import Paper, register_paper

HT_MECHANISM = register_paper(Paper(
    short="ht-mechanism", file="000_3f4b38deb4c4e7bd.txt",
    title="[The Horvitz-Thompson estimate as a differentially private mechanism]",
    authors=(), date="",
    remark="The extracted text begins at its Abstract: no title, author, date or venue survives. The title in "
           "brackets is descriptive, taken from the Abstract's first sentence; the text cites work of 2024 "
           "(drechsler2024...), so it dates from 2024 or later.",
    sections=(("Abstract", "Abstract"), ("Section 1.3", "Sampling and Survey Data"),
              ("Section 1.4", "Differential Privacy at threshold eps, and at thresholds (eps, delta)"),
              ("Section 2.1", "In the absence of perturbation (b = 0)"),
              ("Section 2.2", "General case, addition of a Laplacian noise (b > 0)"),
              ("Section 2.3", "Cas particulier: données binaires et sondage aléatoire simple"),
              ("Section 2.4", "Additional Gaussian privacy mechanism"))))

SPARSE_VECTOR = register_paper(Paper(
    short="private-deciles", file="001_1dd3d7af6edcb71d.txt",
    title="Rapport de stage : Arbitrages statistiques dans l'apprentissage automatique confidentiel",
    authors=("Alexi Canesse",), date="27 juin 2022",
    venue="internship report (L3), Ecole Normale Superieure de Lyon, supervised by Aurelien Garivier (UMPA)",
    sections=(("Section 1.2", "Définitions"), ("Section 2.1", "AboveThreshold"),
              ("Section 2.2", "La méthode des histogrammes"), ("Section 3.1", "Présentation du mécanisme"),
              ("Section 3.2", "Quasi-optimalité du mécanisme de sensibilité inverse"))))

SAMPLING_MISCLASSIFICATION = register_paper(Paper(
    short="shlomo-skinner", file="002_89b9dd341c0215c2.txt",
    title="Privacy Protection from Sampling and Perturbation in Survey Microdata",
    authors=("Natalie Shlomo", "Chris J. Skinner"), date="",
    remark="The authors' footnotes (affiliations) and the venue are lost in the extracted text, which prints "
           "no date.",
    sections=(("Section 1", "Introduction"), ("Section 2.1", "Identification Risk"),
              ("Section 3", "Sampling and Privacy"), ("Section 4", "Perturbation and Privacy"),
              ("Section 5", "Conclusion"))))

K_RANDOMIZATION = register_paper(Paper(
    short="k-randomization", file="003_6dfa2dbc38b4b249.txt",
    title="K-Randomization", authors=("Maxim Zhilyaev", "David Zeber"), date="February 24, 2016",
    remark="No institution or venue is printed.",
    sections=(("Section 1", "Differential Privacy"), ("Section 2.1", "Bit randomization"),
              ("Section 2.2", "Reporting for bit records"), ("Section 3", "The privacy ratio"),
              ("Section 3.1", "The case L = 1"), ("Section 4", "Ratios of sums: properties"),
              ("Section 5", "Old stuff"))))

ABS_PUFFERFISH = register_paper(Paper(
    short="abs-pufferfish", file="004_005a37d6f70bd1b7.txt",
    title="Confidentiality in ABS business data using Pufferfish differential privacy",
    authors=(), date="24/10/2022", venue="Australian Bureau of Statistics",
    remark="A research paper of the ABS; no individual author is printed. 'Released 24/10/2022'.",
    sections=(("Section 3.1", "Pufferfish privacy for q% intervals"),
              ("Section 3.2", "Proof: log-Laplace multiplicative perturbation satisfies Pufferfish differential "
                              "privacy for q% intervals"),
              ("Section 4.3", "Utility loss and disclosure risk measures"),
              ("Section 4.4", "Sugarcane data case study results"),
              ("Appendix A.1", "Variance of HT estimator under SRSWOR"), ("Appendix A.2", "Variance with bias correction"),
              ("Appendix A.3", "(Agriculture statistics) Variance for a census"),
              ("Appendix B.1", "Derivation of disclosure risk for a single passive claimant"),
              ("Appendix B.2", "Upper bound for disclosure risk for multiple passive claimants"))))
