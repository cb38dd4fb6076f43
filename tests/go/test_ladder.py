"""Ladders (``ladder_kill``): the attacker captures by successive ataris, whatever the
defender's saving plays. Each claim is held to the brute-force search of rules.md.

Diagrams: ``X`` Black (the attacker), ``O`` White, ``@`` the White target, ``.`` an empty point
of the region, ``-`` an empty point outside it (every stone is in the region).
"""

from __future__ import annotations

import random

import pytest
from brute import BruteGame
from conftest import diagram_mask

from tsumego import BLACK, WHITE
from tsumego.go.board import Board, bits
from tsumego.go.life import ladder_kill

BALANCES = (-2, -1, 0, 1, 2)


def ladder(diagram: str, attacker_to_move: bool = True) -> tuple[tuple[int, int], ...] | None:
    board = Board.from_diagram(diagram)
    target = diagram_mask(diagram, "@")
    region = diagram_mask(diagram, ".XO@")
    before = board.snapshot()
    made = ladder_kill(board, target, region, WHITE, attacker_to_move)
    assert board.snapshot() == before, "the board must be left as it was"
    return made


def brute_winners(diagram: str, first: int) -> set[int]:
    """The brute force's winners at every balance, ``first`` to move."""
    board = Board.from_diagram(diagram)
    cells = [board.color_at(p) for p in range(board.size * board.size)]
    game = BruteGame(board.size, cells, bits(diagram_mask(diagram, ".XO@")),
                     bits(diagram_mask(diagram, "@")))
    return {game.winner(first, b) for b in BALANCES}


# White's stone at D2 has two liberties. Black's atari at C2 drives it along the first line:
# after White's D1, Black ataris from either side and White's extension is captured.
LADDER = """
    - - - - - -
    - - - - - -
    - - - - - -
    X X X X X X
    X X . @ X X
    X . . . . .
"""

# The same run with a White stone at each end of the first line, each with a liberty outside
# the region (never filled), and a liberty outside the region above C2: every atari is
# answered by a play that joins one of them, and White lives.
BROKEN = """
    - - - - - -
    - - - - - -
    - - - - - -
    X X - X X X
    X X . @ X -
    - O . . . O
"""

# White's stone is in atari at D1: its only saving play starts the ladder.
IN_ATARI = """
    - - - - - -
    - - - - - -
    - - - - - -
    X X X X X X
    X X X @ X X
    X . . . . .
"""


def test_a_ladder_along_the_edge_kills() -> None:
    made = ladder(LADDER)
    assert made is not None and len(made) == 2  # C2, then E1 or C1: checked against the path
    assert brute_winners(LADDER, BLACK) == {BLACK}


def test_ladder_breakers_save_the_runner() -> None:
    assert ladder(BROKEN) is None
    assert brute_winners(BROKEN, BLACK) == {WHITE}


def test_with_the_defender_to_move_every_saving_play_must_lose() -> None:
    made = ladder(IN_ATARI, attacker_to_move=False)
    assert made is not None and len(made) == 1
    assert brute_winners(IN_ATARI, WHITE) == {BLACK}


def _random_case(rng: random.Random) -> tuple[Board, int, int, bool] | None:
    """A random 5x5 board with a White target block of one or two liberties (the side to
    move: Black for two, White for one) and a region of at most 7 points (the target's
    liberties, then empty points next to them), as (board, target, region, the attacker to
    move); None when the draw has no such block."""
    size = 5
    cells = [rng.choice("XXOO...") for _ in range(size * size)]
    board = Board.from_diagram("\n".join(" ".join(cells[y * size:(y + 1) * size])
                                         for y in range(size)))
    geo = board.geo
    if board.black | board.white != sum(1 << p for p, c in enumerate(cells) if c != "."):
        return None  # a stone without liberties: not a position
    whites = board.white
    while whites:
        blk = geo.flood(whites & -whites, board.white)
        whites &= ~blk
        libs = geo.dilate(blk) & board.empty
        if libs.bit_count() in (1, 2):
            region = libs
            for p in bits(geo.dilate(libs) & board.empty & ~libs):
                if region.bit_count() < 7:
                    region |= 1 << p
            return board, blk, region, libs.bit_count() == 2
    return None


@pytest.mark.parametrize("seed", range(4))
def test_every_claim_agrees_with_the_brute_force(seed: int) -> None:
    """Random 5x5 boards and small regions: wherever a ladder read claims the target, the
    brute force says the attacker wins at every balance with that side to move (the read's
    own line is the only history, so its plays are legal)."""
    rng = random.Random(500 + seed)
    claimed = refused = deep = 0
    while claimed < 60:
        case = _random_case(rng)
        if case is None:
            continue
        board, target, region, attacker_to_move = case
        before = board.snapshot()
        made = ladder_kill(board, target, region, WHITE, attacker_to_move)
        assert board.snapshot() == before
        if made is None:
            refused += 1
            continue
        game = BruteGame(5, [board.color_at(p) for p in range(25)], bits(region),
                         bits(target))
        first = BLACK if attacker_to_move else WHITE
        assert {game.winner(first, b) for b in BALANCES} == {BLACK}
        claimed += 1
        deep += len(made) >= 2
    assert refused > 0 and deep > 0
