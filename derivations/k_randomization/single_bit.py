"""Stub: claims of 003_6dfa2dbc38b4b249.txt (being written)."""
