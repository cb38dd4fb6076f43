"""The errors the library raises on purpose: one hierarchy under :class:`TsumegoError`.

- :class:`InputError`: input that cannot be used (a file, a position, a claim, an option);
  its message is the one-line error the command line prints after the file's name.
- :class:`BudgetExhausted`: a budget ran out before the answer was exact; ``kind`` says
  which, in the words the answers use ("stopped by the node limit").
- The rules: :class:`tsumego.go.board.IllegalMove` (a play the board refuses) and
  :class:`tsumego.go.line.IllegalLine` (a move the rules of a line refuse).
"""

from __future__ import annotations

from typing import Literal

# what ran out: a search's nodes or time, an interrupt (Ctrl-C, GoGui's interrupt), the
# pass-alive test's own cap, the search's depth or memory, a tree's nodes or time, the tree
# builder's lookahead, the eye-space table's plan
Budget = Literal["nodes", "time", "interrupt", "pass-alive", "depth", "memory", "tree-nodes",
                 "tree-time", "lookahead", "plan"]

_WORDS: dict[str, str] = {
    "nodes": "the node limit",
    "time": "the time limit",
    "interrupt": "an interrupt",
    "pass-alive": "the pass-alive test's own cap of 200,000 positions",
    "depth": "the search's depth limit",
    "memory": "a lack of memory",
    "tree-nodes": "the tree's node limit",
    "tree-time": "the tree's time limit",
    "lookahead": "the lookahead's budget",
    "plan": "the eye-space plan's budget",
}


class TsumegoError(Exception):
    """Every error the library raises on purpose."""


class InputError(TsumegoError, ValueError):
    """Input that cannot be used; the message says what is wrong with it."""


class BudgetExhausted(TsumegoError):
    """A budget ran out before the answer was exact; ``kind`` says which (:data:`Budget`)
    and the message says what happened."""

    def __init__(self, kind: Budget, text: str = "") -> None:
        super().__init__(text or f"stopped by {_WORDS[kind]}")
        self.kind: Budget = kind
        self.text = str(self)

    @property
    def limit(self) -> str:
        """The budget in words: "the node limit", "the pass-alive test's own cap ..."."""
        return _WORDS[self.kind]


def budget_words(kind: str) -> str:
    """:attr:`BudgetExhausted.limit` of a kind kept as a string (a Solution's ``limit``)."""
    return _WORDS.get(kind, f"the {kind} limit")
