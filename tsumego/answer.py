"""The words an answer is given in: a problem's status and a solution tree's mode.

They are shared by the solver, which gives answers, and the checker, which judges them and
must not import the solver; so they live here, below both."""

from __future__ import annotations

from typing import Literal

Status = Literal["kill", "live", "seki", "ko", "unknown"]  # rules.md, "Result classes"
TreeMode = Literal["readable", "full", "compact"]  # the tree modes build_tree makes
