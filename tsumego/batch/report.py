"""Reports of a verification run: the terminal summary and a self-contained HTML page.

The HTML page needs nothing from outside: the style, the filter script and the board diagrams
(SVG, drawn here from the results' ``board`` field) are all inline.
"""

from __future__ import annotations

import html
import json
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from tsumego.batch.verify import CLASSES, Class, Result
from tsumego.go.coords import from_sgf

_GTP_COLUMNS = "ABCDEFGHJKLMNOPQRST"

DESCRIPTIONS = {
    "error": "the file could not be read or set up",
    "unknown": "a limit stopped the search",
    "frame-sensitive": "the book and the proof disagree, and the frame of the plain problem may "
                       "decide the result",
    "no-solution": "the side to play cannot succeed at all",
    "book-move-fails": "a move the book calls correct loses",
    "wrong-line-works": "a move the book calls wrong wins",
    "bad-refutation": "the book's refutation of a wrong line fails",
    "extra-solutions": "more correct first moves than the book lists",
    "weak-reply": "a reply in a book line is not a best resistance",
    "no-answer": "the book gives no correct first move",
    "agree": "the book and the proof agree",
}


def name_of(r: Result, multi: bool = False) -> str:
    return f"{r.file}#{r.game}" if multi or r.game else r.file


def _multi_files(results: Sequence[Result]) -> set[str]:
    return {r.file for r in results if r.game > 0}


def counts(results: Iterable[Result]) -> dict[Class, int]:
    out = {c: 0 for c in CLASSES}
    for r in results:
        out[r.cls] = out.get(r.cls, 0) + 1
    return out


def finding_lines(results: Sequence[Result]) -> list[str]:
    """One line per finding: ``file[#game]: class: text``."""
    multi = _multi_files(results)
    lines = []
    for r in results:
        if not r.is_finding:
            continue
        name = name_of(r, r.file in multi)
        for f in r.findings:
            lines.append(f"{name}: {f['class']}: {f['text']}")
    return lines


def summary(results: Sequence[Result], *, total: int, wall: float, jobs: int | str,
            from_cache: int = 0, resumed: int = 0, interrupted: bool = False) -> str:
    """The terminal report: counts per class, times, then one line per finding."""
    c = counts(results)
    secs = [r.seconds for r in results]
    width = max(len(k) for k in CLASSES)
    out = []
    head = f"verified {len(results)} of {total} problems in {wall:.1f} s (jobs {jobs}"
    if resumed:
        head += f", {resumed} from the earlier run"
    if from_cache:
        head += f", {from_cache} from the cache"
    head += ")"
    if interrupted:
        head += ": INTERRUPTED, the rest was not done"
    out.append(head)
    for k in CLASSES:
        if c.get(k):
            out.append(f"  {k:<{width}}  {c[k]:>6}   {DESCRIPTIONS.get(k, '')}")
    out.append(f"  {'total':<{width}}  {len(results):>6}")
    if secs:
        out.append(f"  time per problem: total {sum(secs):.1f} s, median "
                   f"{statistics.median(secs):.2f} s, max {max(secs):.1f} s")
    lines = finding_lines(results)
    if lines:
        out.append("")
        out.append("findings:")
        out.extend(lines)
    return "\n".join(out)


# --- HTML --------------------------------------------------------------------------------------

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:1.5em;
 color:#222;background:#fafafa}
h1{font-size:1.4em;margin:0 0 .3em}
.meta{color:#555;margin-bottom:1em}
table.counts{border-collapse:collapse;margin-bottom:1em}
table.counts td{padding:.15em .8em;border-bottom:1px solid #ddd}
.filters{position:sticky;top:0;background:#fafafa;padding:.5em 0;border-bottom:1px solid #ccc;
 margin-bottom:1em;z-index:1}
.filters label{margin-right:1em;white-space:nowrap;cursor:pointer}
.cards{display:flex;flex-wrap:wrap;gap:1em}
.card{background:#fff;border:1px solid #ccc;border-radius:6px;padding:.7em;width:430px;
 box-shadow:0 1px 2px rgba(0,0,0,.08)}
.card h2{font-size:1em;margin:0 0 .4em;word-break:break-all}
.badge{display:inline-block;padding:.05em .5em;border-radius:1em;font-size:.85em;color:#fff;
 margin-right:.4em}
.card ul{margin:.4em 0 0 1.1em;padding:0;font-size:.9em}
.card .facts{font-size:.85em;color:#444;margin:.3em 0}
.card .notes{color:#666}
.legend{font-size:.85em;color:#444;margin:.5em 0}
.legend svg{vertical-align:middle}
svg.board{display:block;margin:.3em auto}
"""

_COLORS = {
    "error": "#7f2704", "unknown": "#6a51a3", "frame-sensitive": "#8c6d31",
    "no-solution": "#a50f15",
    "book-move-fails": "#de2d26", "wrong-line-works": "#e6550d", "bad-refutation": "#d94801",
    "extra-solutions": "#3182bd", "weak-reply": "#31a354", "no-answer": "#636363",
    "agree": "#2ca25f",
}

_JS = """
(function(){
  var boxes=document.querySelectorAll('.filters input');
  function apply(){
    var on={};
    boxes.forEach(function(b){on[b.value]=b.checked;});
    var shown=0;
    document.querySelectorAll('.card').forEach(function(c){
      var v=!!on[c.dataset.cls]; c.hidden=!v; if(v)shown++;});
    document.getElementById('shown').textContent=shown;
  }
  var m=/only=([a-z,-]+)/.exec(location.hash);
  if(m){var want=m[1].split(',');boxes.forEach(function(b){b.checked=want.indexOf(b.value)>=0;});}
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  apply();
})();
"""


def _xy(p: str, size: int) -> tuple[int, int] | None:
    try:
        i = from_sgf(p, size)
    except ValueError:
        return None
    if i < 0:
        return None
    return i % size, i // size


def board_svg(r: Result, cell: int | None = None) -> str:
    """An SVG diagram of the problem (cropped to where it happens) with the book's correct
    (green ring) and wrong (red cross) first moves, the solver's best first moves (blue dot)
    and the refutations of failing book moves (orange square) marked."""
    b = r.board
    if not b:
        return ""
    size = int(b["size"])

    def pts(key: str) -> list[tuple[int, int]]:
        return [xy for xy in (_xy(p, size) for p in b.get(key, [])) if xy is not None]

    black, white = set(pts("black")), set(pts("white"))
    target, region = set(pts("target")), set(pts("region"))
    frame = set(pts("frame"))
    correct = {xy for xy in (_xy(p, size) for p in r.book_correct) if xy}
    wrong = {xy for xy in (_xy(p, size) for p in r.book_wrong) if xy}
    solver = {xy for xy in (_xy(p, size) for p in (r.solver_moves or [])) if xy}
    refs = {xy for v in r.refutation.values() for xy in (_xy(p, size) for p in v) if xy}
    focus = region | target | correct | wrong | solver | refs or black | white
    if not focus:
        focus = {(0, 0), (size - 1, size - 1)}
    x0 = max(0, min(x for x, _ in focus) - 1)
    x1 = min(size - 1, max(x for x, _ in focus) + 1)
    y0 = max(0, min(y for _, y in focus) - 1)
    y1 = min(size - 1, max(y for _, y in focus) + 1)
    # snap to an edge that is close: a corner problem should show its corner
    if x0 <= 2:
        x0 = 0
    if y0 <= 2:
        y0 = 0
    if x1 >= size - 3:
        x1 = size - 1
    if y1 >= size - 3:
        y1 = size - 1
    if cell is None:  # small diagrams drawn larger, big ones smaller
        cell = max(18, min(34, 330 // (max(x1 - x0, y1 - y0) + 3)))
    m = round(cell * 1.15)  # margin for the coordinates, clear of the edge stones
    w = (x1 - x0) * cell + 2 * m
    h = (y1 - y0) * cell + 2 * m

    def cx(x: int) -> int:
        return m + (x - x0) * cell

    def cy(y: int) -> int:
        return m + (y - y0) * cell

    o: list[str] = [f'<svg class="board" xmlns="http://www.w3.org/2000/svg" width="{w}" '
                    f'height="{h}" viewBox="0 0 {w} {h}" role="img" '
                    f'aria-label="board diagram">',
                    f'<rect x="0" y="0" width="{w}" height="{h}" fill="#e3b96a"/>']
    # points outside the region: shaded
    half = cell // 2
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if (x, y) not in region:
                o.append(f'<rect x="{cx(x) - half}" y="{cy(y) - half}" width="{cell}" '
                         f'height="{cell}" fill="#6b5a3a" opacity="0.35"/>')
    # grid: lines run past the crop where the board goes on
    ext = cell // 2
    for x in range(x0, x1 + 1):
        ya = cy(y0) - (ext if y0 > 0 else 0)
        yb = cy(y1) + (ext if y1 < size - 1 else 0)
        sw = 2 if x in (0, size - 1) else 1
        o.append(f'<line x1="{cx(x)}" y1="{ya}" x2="{cx(x)}" y2="{yb}" stroke="#333" '
                 f'stroke-width="{sw}"/>')
    for y in range(y0, y1 + 1):
        xa = cx(x0) - (ext if x0 > 0 else 0)
        xb = cx(x1) + (ext if x1 < size - 1 else 0)
        sw = 2 if y in (0, size - 1) else 1
        o.append(f'<line x1="{xa}" y1="{cy(y)}" x2="{xb}" y2="{cy(y)}" stroke="#333" '
                 f'stroke-width="{sw}"/>')
    # coordinates (GTP letters and numbers)
    fs = max(9, cell * 2 // 5)
    for x in range(x0, x1 + 1):
        o.append(f'<text x="{cx(x)}" y="{round(m * 0.45)}" font-size="{fs}" '
                 f'text-anchor="middle" fill="#333">{_GTP_COLUMNS[x]}</text>')
    for y in range(y0, y1 + 1):
        o.append(f'<text x="{round(m * 0.38)}" y="{cy(y) + fs // 3}" font-size="{fs}" '
                 f'text-anchor="middle" fill="#333">{size - y}</text>')
    rad = cell * 0.47
    for (x, y) in sorted(black | white):
        fill, stroke = ("#111", "#000") if (x, y) in black else ("#fafafa", "#222")
        if (x, y) in frame:  # a virtual stone of the frame: dimmed, dashed
            o.append(f'<circle class="frame" cx="{cx(x)}" cy="{cy(y)}" r="{rad:.1f}" '
                     f'fill="{fill}" fill-opacity="0.35" stroke="{stroke}" stroke-width="1.5" '
                     f'stroke-dasharray="3,2"/>')
            continue
        o.append(f'<circle cx="{cx(x)}" cy="{cy(y)}" r="{rad:.1f}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="1"/>')
        if (x, y) in target:
            o.append(f'<circle cx="{cx(x)}" cy="{cy(y)}" r="{cell * 0.18:.1f}" fill="#e31a1c"'
                     f'/>')
    for (x, y) in sorted(refs):
        s = cell * 0.4
        o.append(f'<rect x="{cx(x) - s / 2:.1f}" y="{cy(y) - s / 2:.1f}" width="{s:.1f}" '
                 f'height="{s:.1f}" fill="none" stroke="#f16913" stroke-width="3"/>')
    for (x, y) in sorted(correct):
        o.append(f'<circle cx="{cx(x)}" cy="{cy(y)}" r="{cell * 0.36:.1f}" fill="none" '
                 f'stroke="#1a9641" stroke-width="3"/>')
    for (x, y) in sorted(wrong):
        d = cell * 0.25
        o.append(f'<path d="M{cx(x) - d:.1f},{cy(y) - d:.1f}L{cx(x) + d:.1f},{cy(y) + d:.1f}'
                 f'M{cx(x) - d:.1f},{cy(y) + d:.1f}L{cx(x) + d:.1f},{cy(y) - d:.1f}" '
                 f'stroke="#d7191c" stroke-width="3"/>')
    for (x, y) in sorted(solver):
        o.append(f'<circle cx="{cx(x)}" cy="{cy(y)}" r="{cell * 0.14:.1f}" fill="#2b83ba"/>')
    o.append("</svg>")
    return "".join(o)


def _legend() -> str:
    def icon(body: str) -> str:
        return (f'<svg width="22" height="22" viewBox="0 0 22 22"><rect width="22" height="22" '
                f'fill="#e3b96a"/>{body}</svg>')
    items = [
        (icon('<circle cx="11" cy="11" r="8" fill="none" stroke="#1a9641" stroke-width="3"/>'),
         "book: correct first move"),
        (icon('<path d="M5,5L17,17M5,17L17,5" stroke="#d7191c" stroke-width="3"/>'),
         "book: wrong first move"),
        (icon('<circle cx="11" cy="11" r="4" fill="#2b83ba"/>'), "solver: best first move"),
        (icon('<rect x="6" y="6" width="10" height="10" fill="none" stroke="#f16913" '
              'stroke-width="3"/>'), "refutation of a failing book move"),
        (icon('<circle cx="11" cy="11" r="10" fill="#111"/><circle cx="11" cy="11" r="4" '
              'fill="#e31a1c"/>'), "target stone"),
        (icon('<rect width="22" height="22" fill="#6b5a3a" opacity="0.35"/>'),
         "outside the problem's region"),
        (icon('<circle cx="11" cy="11" r="9" fill="#111" fill-opacity="0.35" stroke="#000" '
              'stroke-width="1.5" stroke-dasharray="3,2"/>'),
         "frame stone: added around a plain problem, not in the book"),
    ]
    return '<div class="legend">' + " &nbsp; ".join(
        f"{i} {html.escape(t)}" for i, t in items) + "</div>"


def _card(r: Result, multi: bool) -> str:
    e = html.escape
    name = name_of(r, multi)
    color = _COLORS.get(r.cls, "#444")
    facts = []
    if r.to_play:
        facts.append(f"{'Black' if r.to_play == 'B' else 'White'} to play")
    if r.status:
        facts.append(f"status {r.status}")
    if r.answers:
        facts.append(f"answers: {r.answers}")
    facts.append(f"{r.seconds:.2f} s" + (" (cached)" if r.cached else ""))
    moves = []
    if r.book_correct or r.book_wrong or r.solver_moves is not None:
        moves.append(f"book correct: {' '.join(r.book_correct) or '-'}; "
                     f"book wrong: {' '.join(r.book_wrong) or '-'}; "
                     f"solver: {' '.join(r.solver_moves or []) or '-'}")
    items = "".join(f"<li>{e(f['class'])}: {e(f['text'])}</li>" for f in r.findings)
    notes = "".join(f'<li class="notes">note: {e(n)}</li>' for n in r.notes)
    return (f'<div class="card" data-cls="{e(r.cls)}">'
            f'<h2><span class="badge" style="background:{color}">{e(r.cls)}</span>{e(name)}</h2>'
            f'<div class="facts">{e(" · ".join(facts))}</div>'
            + (f'<div class="facts">{e(moves[0])}</div>' if moves else "")
            + board_svg(r)
            + (f"<ul>{items}{notes}</ul>" if items or notes else "")
            + "</div>")


def html_page(results: Sequence[Result], *, title: str = "tsumego verify",
              meta: str = "") -> str:
    """The self-contained page: counts, a class filter (``#only=a,b`` in the address selects
    classes), and a card with a board diagram for every problem (``agree`` hidden at first)."""
    e = html.escape
    c = counts(results)
    multi = _multi_files(results)
    rows = "".join(f'<tr><td><span class="badge" style="background:{_COLORS.get(k, "#444")}">'
                   f'{e(k)}</span></td><td>{c[k]}</td><td>{e(DESCRIPTIONS.get(k, ""))}</td></tr>'
                   for k in CLASSES if c.get(k))
    boxes = "".join(
        f'<label><input type="checkbox" value="{e(k)}"{"" if k == "agree" else " checked"}> '
        f'{e(k)} ({c[k]})</label>' for k in CLASSES if c.get(k))
    order = {k: i for i, k in enumerate(CLASSES)}
    cards = "".join(_card(r, r.file in multi)
                    for r in sorted(results, key=lambda r: (order.get(r.cls, 99),)))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{e(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{e(title)}</h1><div class=\"meta\">{e(meta)}</div>"
            f'<table class="counts">{rows}<tr><td>total</td><td>{len(results)}</td><td></td>'
            f"</tr></table>"
            f'<div class="filters">Show: {boxes} — <span id="shown">0</span> shown'
            f"{_legend()}</div>"
            f'<div class="cards">{cards}</div>'
            f"<script>{_JS}</script></body></html>\n")


def results_json(results: Sequence[Result]) -> list[dict[str, Any]]:
    return [r.to_json() for r in results]


def dumps(results: Sequence[Result]) -> str:
    return "\n".join(json.dumps(d) for d in results_json(results))
