"""Sphinx configuration of the dpderive documentation (``sphinx-build -W docs docs/_build``)."""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "dpderive"
author = "the dpderive contributors"
extensions = ["sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon", "sphinx.ext.mathjax",
              "myst_parser"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
autosummary_generate = False          # the summaries link to the API pages; no generated stubs
autodoc_member_order = "bysource"
autodoc_typehints = "none"            # the docstrings state each parameter's domain
napoleon_numpy_docstring = True
napoleon_google_docstring = False
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
html_theme = "alabaster"
html_title = "dpderive"
