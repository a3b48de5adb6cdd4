"""The claim engine: claims, typed proof steps, verdicts, errata, readings, the registry, reports
and code generation.  It knows nothing of any source document; the encodings of the documents
live in one package each beside it."""
from . import citations  # noqa: F401,E402  (registers the citable standard results)
