"""A fingerprint of the code and data that decide the answers: a result kept from a run
(the verify cache, a journal of results) is reused only while it is the same."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

# the packages whose every source (and data) file can change an answer: the rules, the
# knowledge, the search, and the verifier's reading of books and its comparison
_PACKAGES = ("go", "knowledge", "search", "batch")
_SUFFIXES = (".py", ".c", ".npz")


@lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """The SHA-256 of every source and data file of the packages that decide answers (in a
    fixed order): it changes whenever the engine or the rules change, and only then."""
    h = hashlib.sha256()
    root = resources.files("tsumego")
    for pkg in _PACKAGES:
        stack = [root.joinpath(pkg)]
        files = []
        while stack:
            d = stack.pop()
            for entry in d.iterdir():
                if entry.is_dir():
                    if entry.name != "__pycache__":
                        stack.append(entry)
                elif entry.name.endswith(_SUFFIXES):
                    files.append(entry)
        for f in sorted(files, key=lambda e: str(e)):
            name = str(f)
            h.update(name[name.rfind("tsumego"):].encode())
            h.update(f.read_bytes())
    return h.hexdigest()
