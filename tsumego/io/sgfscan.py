"""A fast scan of the moves of a large SGF game tree, for :func:`tsumego.io.sgf.read_move_tree`.

The checker reads trees of hundreds of millions of nodes; a tokenizer that runs once a token in
Python would take hours on the largest. Here numpy finds, chunk by chunk, the brackets, the
property names and the structure outside the property values, reads the moves and their
``BM``/``TE`` marks from them, and links the nodes depth by depth (:meth:`_Scanner.link`), with
no loop over the nodes in Python. The scan takes the common form of a file, the one ``tsumego
solve -o`` writes: no backslash escapes, each property name right before its first value, each
further value right after the one before, no names (``N``) or references (``TSREF``). On
anything else it gives up (returns None) and the caller reads the
file with its exact tokenizer, which also words the errors: what the scan accepts, that
tokenizer reads the same.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from mmap import mmap
from typing import overload

import numpy as np

CHUNK = 1 << 26  # bytes scanned at a time
_BACK = 16  # bytes looked back for a property name (longer names: the exact tokenizer)
_NAME_BYTES = 6  # names up to this long are told apart (longer ones are not read)

# byte classes
_WS, _LETTER, _OTHER, _OPEN, _CLOSE, _SEMI, _LB, _RB, _ESC = range(9)
_CLASS = np.full(256, _OTHER, dtype=np.uint8)
for _c in b" \t\n\r\f\v":
    _CLASS[_c] = _WS
for _c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz":
    _CLASS[_c] = _LETTER
_CLASS[ord("(")] = _OPEN
_CLASS[ord(")")] = _CLOSE
_CLASS[ord(";")] = _SEMI
_CLASS[ord("[")] = _LB
_CLASS[ord("]")] = _RB
_CLASS[ord("\\")] = _ESC


def _code(name: bytes) -> int:
    """A property name as a number: its bytes, the last one lowest."""
    return int.from_bytes(name, "big")


_B, _W, _BM, _TE = _code(b"B"), _code(b"W"), _code(b"BM"), _code(b"TE")
_REFUSED = (_code(b"N"), _code(b"TSREF"))  # names and references: the exact tokenizer's


class Points(Sequence[str]):
    """The move points of a :class:`MoveTree` read by the scan: two bytes a node (a list of
    strings takes eight), which the checker of a tree of hundreds of millions of nodes needs.
    A point of two letters or none (a pass) is kept as a code; any other value (``odd``) as
    it is."""

    __slots__ = ("codes", "odd", "_odd_at")

    ODD = 0xFFFF  # the code of a point kept in ``odd``

    def __init__(self, codes: array[int], odd: dict[int, str]) -> None:
        self.codes = codes  # array("H")
        self.odd = odd
        self._odd_at = sorted(odd)

    @staticmethod
    def code(value: bytes) -> int:
        """The code of a point of two letters (``A``-``Z``, ``a``-``z``), or of ``b""``."""
        return 0 if not value else (value[0] - 64) << 6 | (value[1] - 64)

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self.codes)))]
        c = self.codes[i]
        if c == self.ODD:
            return self.odd[i if i >= 0 else i + len(self.codes)]
        return _POINT_NAMES[c]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]

    def span_bytes(self, i: int, end: int) -> bytes:
        """Nodes ``i`` to ``end``'s points as bytes that tell any two spans apart."""
        out = self.codes[i:end].tobytes()
        lo, hi = bisect.bisect_left(self._odd_at, i), bisect.bisect_left(self._odd_at, end)
        if lo < hi:
            out += repr([(k - i, self.odd[k]) for k in self._odd_at[lo:hi]]).encode("utf-8")
        return out


# the point of each code of Points.code (two letters), "" for a pass
_POINT_NAMES = [""] * (1 << 12)
for _a in [*range(65, 91), *range(97, 123)]:
    for _b in [*range(65, 91), *range(97, 123)]:
        _POINT_NAMES[(_a - 64) << 6 | (_b - 64)] = chr(_a) + chr(_b)


@dataclass
class Scan:
    """The nodes after the root, in preorder from node 1 (node 0 is the root): each one's move
    colour (0 none, 1 ``B``, 2 ``W``), point (its SGF value) and marks (1 ``BM``, 2 ``TE``),
    and the links of all nodes, the root's included; ``end``, the byte just past the game's
    closing parenthesis."""

    color: bytearray
    point: Points
    marks: bytearray
    first_child: array[int]
    next_sibling: array[int]
    end: int


Buffer = bytes | mmap  # the file's bytes, or the file mapped


class _GiveUp(Exception):
    pass


def scan(data: Buffer, start: int) -> Scan | None:
    """The nodes of the game tree whose root node's properties end at byte ``start`` of
    ``data`` (the next byte outside a value is the root's first child or a parenthesis),
    or None where the file is not in the form this scan takes."""
    try:
        return _Scanner(data, start).run()
    except _GiveUp:
        return None


class _Scanner:
    def __init__(self, data: Buffer, start: int) -> None:
        self.data = data
        self.start = start
        self.size = len(data)
        self.color = bytearray(1)  # (the root's: its properties are the caller's)
        self.codes = array("H", [0])
        self.odd: dict[int, str] = {}  # nodes whose point is not two letters or empty
        self.marks = bytearray(1)
        self.first = array("i", [-1])
        self.nxt = array("i", [-1])
        self.depth = 1  # open parentheses (the game's own after its root)
        # by depth, the node below which the last '(' there began its game tree, and that
        # game tree's first node
        self.parent_at: dict[int, int] = {}
        self.last_head: dict[int, int] = {}
        self.n = 1
        self.done = False
        self.last_struct = _SEMI  # the last structural byte outside values so far
        self.outside_letters = 0  # letters and other bytes outside values, so far
        self.name_letters = 0  # letters of property names, so far

    def run(self) -> Scan:
        s = self.start
        size = CHUNK
        while not self.done:
            if s >= self.size:
                raise _GiveUp  # the game never ends
            got = self.chunk(s, min(s + size, self.size))
            if got < 0:
                size *= 2
            else:
                s, size = got, CHUNK
        if self.outside_letters != self.name_letters:
            raise _GiveUp  # a byte outside the values that is no name, structure or space
        color = self.color
        codes = self.codes
        for i in self.odd:
            codes[i] = Points.ODD
        return Scan(color, Points(codes, self.odd), self.marks, self.first, self.nxt, s)

    def chunk(self, s: int, e: int) -> int:
        """Scan bytes [s, e), or fewer: a chunk ends outside the values (at the last
        structural byte before a value it would leave open). Returns where the next one
        begins, or -1 where a value runs past ``e`` from before the first structural byte
        (nothing is scanned then)."""
        base = max(0, s - _BACK)  # (the name of a value at s may begin before s)
        raw = np.frombuffer(self.data, dtype=np.uint8, count=e - base, offset=base)
        cls = _CLASS[raw]
        off = s - base  # ``raw``'s index of byte s (all positions below are ``raw``'s)
        pos = np.flatnonzero(cls[off:] >= _OPEN) + off
        kind = cls[pos]
        if (kind == _ESC).any():
            raise _GiveUp
        lbs, rbs = pos[kind == _LB], pos[kind == _RB]
        # the values: a ']' closes the value that the first '[' after the ']' before opened
        prev = np.empty(len(rbs), dtype=np.int64)
        prev[:1] = off - 1
        prev[1:] = rbs[:-1]
        j = np.searchsorted(lbs, prev + 1)
        # (with no '[' at all, every ']' is outside a value: its open is past it)
        opens = lbs[np.minimum(j, len(lbs) - 1)] if len(lbs) else rbs + 1
        bad = np.flatnonzero((j >= len(lbs)) | (opens >= rbs))
        broken = len(bad) > 0  # a ']' outside a value: only after the game may it be
        if broken:
            limit = int(rbs[bad[0]])
            keep = pos < limit
            pos, kind = pos[keep], kind[keep]
            lbs, opens, rbs = lbs[lbs < limit], opens[:bad[0]], rbs[:bad[0]]
        after = int(np.searchsorted(lbs, rbs[-1] + 1 if len(rbs) else off))
        trailing = int(lbs[after]) if after < len(lbs) else -1  # a value left open at e
        # the structural bytes outside the values
        st = pos[(kind == _OPEN) | (kind == _CLOSE) | (kind == _SEMI)]
        k = np.searchsorted(rbs, st)
        inside = np.zeros(len(st), dtype=bool)
        within = k < len(rbs)
        inside[within] = opens[k[within]] < st[within]
        if trailing >= 0:
            inside[~within] = st[~within] > trailing
        st = st[~inside]
        stop = len(raw)
        if trailing >= 0:
            if e >= self.size or broken:
                raise _GiveUp  # a value never closed
            if not len(st) or base + int(st[-1]) <= s:
                return -1  # a value longer than the chunk: scan a longer one
            stop = int(st[-1])  # the next chunk begins at the last structural byte
            st = st[:-1]
        skind = cls[st]
        # the end of the game: where the depth comes back to 0
        depth = self.depth + np.cumsum(
            np.where(skind == _OPEN, 1, np.where(skind == _CLOSE, -1, 0)).astype(np.int8),
            dtype=np.int32)
        ended = np.flatnonzero(depth <= 0)
        if len(ended):
            cut = int(ended[0]) + 1
            stop = int(st[cut - 1]) + 1
            st, skind = st[:cut], skind[:cut]
            self.done = True
        elif broken or (e >= self.size and trailing < 0):
            raise _GiveUp  # the game never ends, or not before a ']' outside a value
        keep = rbs < stop
        rbs, opens = rbs[keep], opens[keep]
        # the letters and other bytes outside the values in [s, stop)
        lo = cls[off:stop]
        cs = np.zeros(len(lo) + 1, dtype=np.int32)  # (a chunk's counts fit; int32 sums fast)
        np.cumsum(((lo == _LETTER) | (lo == _OTHER)).view(np.uint8), dtype=np.int32,
                  out=cs[1:])
        self.outside_letters += int(cs[-1]) - int(
            (cs[rbs - off] - cs[opens + 1 - off]).sum(dtype=np.int64))
        # the property names, read back from each value: a value right after another one
        # adds to its property; any other has its name right before it
        named = raw[opens - 1] != ord("]")
        no = opens[named]
        if (cls[no - 1] != _LETTER).any():
            raise _GiveUp  # a space before a value, or a value after no name
        length = np.zeros(len(no), dtype=np.int64)
        code = np.zeros(len(no), dtype=np.int64)
        going = np.ones(len(no), dtype=bool)
        for d in range(1, _BACK + 1):
            if not going.any():
                break
            at = np.maximum(no - d, 0)
            more = going & (no - d >= 0) & (cls[at] == _LETTER)
            if d <= _NAME_BYTES:
                code[more] |= raw[at[more]].astype(np.int64) << (8 * (d - 1))
            length += more
            going = more
        else:
            if going.any():
                raise _GiveUp  # a name too long to look back over
        code[length > _NAME_BYTES] = -1  # not a name this scan reads
        self.name_letters += int(length.sum())
        name_at = no - length
        # every property is in a node: the last structural byte before its name is ';'
        k = np.searchsorted(st, name_at) - 1
        if len(st):
            prev_kind = np.where(k >= 0, skind[np.maximum(k, 0)], self.last_struct)
        else:
            prev_kind = np.full(len(k), self.last_struct)
        if (prev_kind != _SEMI).any() or np.isin(code, _REFUSED).any():
            raise _GiveUp
        # the nodes: one for each ';' outside the values; a property is the last one's
        n0 = self.n
        node = n0 - 1 + np.searchsorted(st[skind == _SEMI], name_at)
        self.link(skind)
        added = self.n - n0
        self.color.extend(bytes(added))
        self.marks.extend(bytes(added))
        self.codes.frombytes(bytes(2 * added))
        if len(node) and node.min() <= 0:
            raise _GiveUp  # (the root's properties are read by the caller)
        self.moves(raw, cls, base, rbs, no, code, node)
        marks = np.frombuffer(self.marks, dtype=np.uint8)
        for want, bit in ((_BM, 1), (_TE, 2)):
            np.bitwise_or.at(marks, node[code == want], bit)
        return base + stop

    def moves(self, raw: np.ndarray, cls: np.ndarray, base: int, rbs: np.ndarray,
              no: np.ndarray, code: np.ndarray, node: np.ndarray) -> None:
        """Each node's move: the first value of its first ``B`` or ``W`` property."""
        mv = np.flatnonzero((code == _B) | (code == _W))
        if not len(mv):
            return
        color = np.frombuffer(self.color, dtype=np.uint8)
        at = node[mv]
        first = np.ones(len(mv), dtype=bool)
        first[1:] = at[1:] != at[:-1]
        first &= color[at] == 0
        mv, at = mv[first], at[first]
        color[at] = np.where(code[mv] == _B, 1, 2)
        o = no[mv]
        close = rbs[np.searchsorted(rbs, o)]
        width = close - o - 1
        two = (width == 2) & (cls[np.minimum(o + 1, len(raw) - 1)] == _LETTER) & (
            cls[np.minimum(o + 2, len(raw) - 1)] == _LETTER)
        codes = np.frombuffer(self.codes, dtype=np.uint16)
        codes[at[two]] = (raw[o[two] + 1].astype(np.uint16) - 64) << 6 | (
            raw[o[two] + 2].astype(np.uint16) - 64)  # (Points.code)
        for i in np.flatnonzero(~two & (width != 0)).tolist():
            a, b = int(o[i]) + 1 + base, int(close[i]) + base
            self.odd[int(at[i])] = bytes(self.data[a:b]).decode("utf-8", "replace").strip()

    def link(self, skind: np.ndarray) -> None:
        """Make the nodes of a run of structural bytes (``_OPEN``, ``_CLOSE``, ``_SEMI``) and
        their links, in the form of SGF's grammar: a game tree is '(', a sequence of nodes,
        then game trees, then ')'. A node is the child of the node before it in its sequence;
        the first node of a game tree is the child of the last node before its '(' if a node
        comes right before it, else (a ')' does) a sibling of the first node of the game tree
        before it at the same depth."""
        count = len(skind)
        if not count:
            return
        semi = skind == _SEMI
        opening = skind == _OPEN
        prev = np.empty(count, dtype=np.uint8)
        prev[0] = self.last_struct
        prev[1:] = skind[:-1]
        if (semi & (prev == _CLOSE)).any() or ((prev == _OPEN) & ~semi).any():
            raise _GiveUp  # a node after a ')', or a game tree with no node
        # ``before[t]``: the last node before token t
        n0 = self.n
        seen = np.cumsum(semi.view(np.uint8), dtype=np.int32)
        before = n0 - 1 + (seen - semi).astype(np.int64)
        added = int(seen[-1])
        self.n = n0 + added
        self.first.frombytes(np.full(added, -1, dtype=np.int32).tobytes())
        self.nxt.frombytes(np.full(added, -1, dtype=np.int32).tobytes())
        first = np.frombuffer(self.first, dtype=np.int32)
        nxt = np.frombuffer(self.nxt, dtype=np.int32)
        # a node right after a node: its only child
        chained = semi & (prev == _SEMI)
        kids = before[chained] + 1
        first[kids - 1] = kids
        # game trees: each depth's '(' in order; the one after a node starts a new set of
        # siblings below it, the one after a ')' goes on with the last set at its depth
        step = np.where(opening, 1, np.where(skind == _CLOSE, -1, 0)).astype(np.int8)
        depth = self.depth + np.cumsum(step, dtype=np.int32) - step  # before each token
        self.depth = int(depth[-1] + step[-1])
        op = np.flatnonzero(opening)
        if len(op):
            level = depth[op].astype(np.int16)
            order = np.argsort(level, kind="stable")
            op, level = op[order], level[order]
            head = before[op] + 1  # the node right after each '('
            anchor = prev[op] == _SEMI
            under = np.where(anchor, before[op], -1)
            new_level = np.ones(len(op), dtype=bool)
            new_level[1:] = level[1:] != level[:-1]
            for i in np.flatnonzero(new_level & ~anchor).tolist():
                d = int(level[i])
                if d not in self.parent_at:
                    raise _GiveUp
                under[i] = self.parent_at[d]
                nxt[self.last_head[d]] = head[i]
            filled = np.maximum.accumulate(np.where(new_level | anchor, np.arange(len(op)), 0))
            under = under[filled]
            follows = ~anchor & ~new_level  # a sibling of the head of the '(' before it
            nxt[head[:-1][follows[1:]]] = head[1:][follows[1:]]
            starts = under >= 0
            first_of = anchor & starts
            first[under[first_of]] = head[first_of]
            ends = np.ones(len(op), dtype=bool)
            ends[:-1] = new_level[1:]
            for i in np.flatnonzero(ends).tolist():
                d = int(level[i])
                self.parent_at[d] = int(under[i])
                self.last_head[d] = int(head[i])
        self.last_struct = int(skind[-1])
