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
           "(drechsler2024...), so it dates from 2024 or later."))

SPARSE_VECTOR = register_paper(Paper(
    short="private-deciles", file="001_1dd3d7af6edcb71d.txt",
    title="Rapport de stage : Arbitrages statistiques dans l'apprentissage automatique confidentiel",
    authors=("Alexi Canesse",), date="27 juin 2022",
    venue="internship report (L3), Ecole Normale Superieure de Lyon, supervised by Aurelien Garivier (UMPA)"))

SAMPLING_MISCLASSIFICATION = register_paper(Paper(
    short="shlomo-skinner", file="002_89b9dd341c0215c2.txt",
    title="Privacy Protection from Sampling and Perturbation in Survey Microdata",
    authors=("Natalie Shlomo", "Chris J. Skinner"), date="",
    remark="The authors' footnotes (affiliations) and the venue are lost in the extracted text, which prints "
           "no date."))

K_RANDOMIZATION = register_paper(Paper(
    short="k-randomization", file="003_6dfa2dbc38b4b249.txt",
    title="K-Randomization", authors=("Maxim Zhilyaev", "David Zeber"), date="February 24, 2016",
    remark="No institution or venue is printed."))

ABS_PUFFERFISH = register_paper(Paper(
    short="abs-pufferfish", file="004_005a37d6f70bd1b7.txt",
    title="Confidentiality in ABS business data using Pufferfish differential privacy",
    authors=(), date="24/10/2022", venue="Australian Bureau of Statistics",
    remark="A research paper of the ABS; no individual author is printed. 'Released 24/10/2022'."))
