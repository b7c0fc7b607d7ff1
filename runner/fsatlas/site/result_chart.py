"""A result page's throughput chart drawn to SVG in Python, for the page's first view.

Vega draws one such chart in 46 ms of CPU (PERFORMANCE.md, issue #65): 460 s for 10,000 result
pages, against a first build of 60 s. This draws the same spec (assets/charts/throughput.vl.json,
made for the screen by static/js/chart-spec.js) with the same scales, marks and words, in the
markup Vega's SVG renderer writes and draw-charts.mjs compacts, in 2 ms of CPU a quick result's
chart (compiled), as the Phoronix Test Suite draws its result graphs with a writer of its own.
What is the same as Vega draws it, to a tenth of a pixel, is each panel's content: its bars,
whiskers, dots, flag letters, axes' grid, ticks, labels and captions, and each bar's <title>
(tests/site/test_result_charts.py compares them with Vega's own drawing). Where the panels sit
is laid out here more simply (rows of panels, with Vega's estimate of a text's width); the
interactive chart a reader asks for is Vega's, as every other chart of the site.

Done here as Vega does them (vega 6, vega-lite 6, d3-scale 4, d3-array 3, d3-format 3, as
package-lock.json pins them): the spec's transforms, the stack of bars sharing a label, the band
and linear scales, d3's nice domain and ticks, the axis labels' format (locale.formatSpan: ",f"
to the ticks' step) and the bars' words' (the spec's y format, ",.3~r").
"""
import functools
import html
import json
import math
import os
import re
from decimal import ROUND_HALF_UP, Context, Decimal
from importlib import resources

# the checkout holding the package (not this file's folder: the compiled module lives elsewhere, compiled.py)
REPO = os.path.dirname(os.path.dirname(str(resources.files("fsatlas"))))
SPEC = os.path.join(REPO, "assets", "charts", "throughput.vl.json")
CHART_SPEC_JS = os.path.join(REPO, "static", "js", "chart-spec.js")
INK = "currentColor"  # chart-spec.js INK.screen: the page's CSS colours text, whiskers and dots
FAINT, STRONG = 0.25, 0.6  # chart-spec.js SCREEN: grid and frame; ticks and domain lines
LAYOUT_PADDING, PADDING = 20, 5  # vega-lite's facet layout padding and the view's padding
PADDING_INNER, PADDING_OUTER = 0.1, 0.05  # vega-lite's band scale for bars
NICE_COUNT = 10  # vega's scale nice: true is d3's nice() with its default count
LABEL_FONT, TITLE_FONT = 10, 11
TICK, LABEL_PAD, TITLE_PAD, TITLE_OFFSET = 5, 2, 4, 10  # vega's axis defaults, the facet title's offset
LABEL_ANGLE = 320  # the spec's labelAngle -40, as vega-lite writes it
E10, E5, E2 = math.sqrt(50), math.sqrt(10), math.sqrt(2)
WIDE = Context(prec=60)  # digits enough for any number below 1e21 to 20 decimals
MAX_EXTENT = 200  # vega's axis maxExtent: the most a y axis's ticks and labels take before its title
# Math.pow(10, k) in V8 (Node v20.20.2, as Debian ships it) where it is not the double nearest 10^k, as d3 computes
# tick steps with it: these 69 of k = -330..310 (tests/site/test_result_charts.py asks Node again)
V8_POW10 = {
    -307: 1.0000000000000001e-307, -306: 9.999999999999999e-307, -303: 1.0000000000000001e-303,
    -278: 1.0000000000000001e-278, -268: 1.0000000000000001e-268, -246: 1.0000000000000001e-246,
    -222: 9.999999999999999e-223, -207: 1.0000000000000001e-207, -166: 9.999999999999999e-167,
    -163: 1.0000000000000001e-163, -148: 1.0000000000000001e-148, -145: 1.0000000000000001e-145,
    -138: 9.999999999999999e-139, -128: 9.999999999999999e-129, -122: 9.999999999999999e-123,
    -111: 9.999999999999999e-112, -106: 1.0000000000000001e-106, -104: 1.0000000000000001e-104,
    -101: 9.999999999999999e-102, -88: 1.0000000000000001e-88, -76: 1.0000000000000001e-76,
    -63: 9.999999999999999e-64, -57: 1.0000000000000001e-57, -39: 1.0000000000000001e-39,
    -32: 9.999999999999999e-33, -29: 1.0000000000000001e-29, -24: 1.0000000000000001e-24,
    -23: 1.0000000000000001e-23, -21: 1.0000000000000001e-21, -20: 1.0000000000000001e-20,
    -17: 9.999999999999999e-18, -5: 0.000009999999999999999, -4: 0.00009999999999999999,
    26: 9.999999999999999e+25, 29: 1.0000000000000001e+29, 34: 1.0000000000000001e+34,
    36: 9.999999999999999e+35, 39: 1.0000000000000001e+39, 42: 9.999999999999999e+41,
    49: 1.0000000000000001e+49, 58: 1.0000000000000001e+58, 61: 1.0000000000000001e+61,
    70: 9.999999999999999e+69, 95: 9.999999999999999e+94, 96: 9.999999999999999e+95,
    111: 1.0000000000000001e+111, 126: 1.0000000000000001e+126, 136: 9.999999999999999e+135,
    142: 9.999999999999999e+141, 165: 1.0000000000000001e+165, 166: 1.0000000000000001e+166,
    169: 1.0000000000000001e+169, 187: 1.0000000000000001e+187, 191: 9.999999999999999e+190,
    210: 1.0000000000000001e+210, 215: 1.0000000000000001e+215, 218: 9.999999999999999e+217,
    225: 1.0000000000000001e+225, 232: 9.999999999999999e+231, 242: 9.999999999999999e+241,
    244: 9.999999999999999e+243, 260: 9.999999999999999e+259, 273: 1.0000000000000001e+273,
    274: 1.0000000000000001e+274, 275: 1.0000000000000001e+275, 279: 9.999999999999999e+278,
    284: 9.999999999999999e+283, 290: 9.999999999999999e+289, 294: 9.999999999999999e+293}
XML_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # no XML 1.0 character


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    """What this draws from the spec: panel size, columns, the y axis's title, the digits of the
    bars' figures, the bar's tooltip (its title words), the dots' size, the flag letters' offset."""
    with open(SPEC, encoding="utf-8") as f:
        vl = json.load(f)
    layers = vl["spec"]["layer"]
    bar = layers[0]
    point = next(layer for layer in layers if layer["mark"]["type"] == "point")
    text = next(layer for layer in layers if layer["mark"]["type"] == "text")
    return {"width": vl["spec"]["width"], "height": vl["spec"]["height"], "columns": vl["columns"],
            "y_title": bar["encoding"]["y"]["title"], "digits": _digits(bar["encoding"]["y"]["format"]),
            "x_field": vl["spec"]["encoding"]["x"]["field"],
            "tooltip": [(t["field"], t.get("title", t["field"])) for t in bar["encoding"]["tooltip"]],
            "stroke_width": bar["mark"]["strokeWidth"], "dot_size": point["mark"]["size"],
            "dot_opacity": point["mark"]["opacity"], "flag_dy": text["mark"]["dy"], "flag_size": text["mark"]["fontSize"],
            "pale": bar["encoding"]["fillOpacity"]["condition"]["value"]}


def _digits(specifier: str) -> int:
    """The significant digits of a d3-format ",.N~r", the one format this draws bars' figures in."""
    found = re.fullmatch(r",\.(\d+)~r", specifier)
    if not found:
        raise ValueError(f"{SPEC}: the y format {specifier!r} is not ',.N~r', which site/result_chart.py draws")
    return int(found[1])


@functools.lru_cache(maxsize=1)
def palette() -> tuple[list, dict]:
    """(the category colours, the flag letters) as static/js/chart-spec.js defines them for every chart."""
    with open(CHART_SPEC_JS, encoding="utf-8") as f:
        js = f.read()
    colours = json.loads(re.search(r"var CATEGORY = (\[[^\]]*\])", js)[1])
    letters = re.search(r"var FLAG_LETTERS = (\{[^}]*\})", js)[1]
    return colours, json.loads(re.sub(r"([{,]\s*)([A-Za-z_]\w*)\s*:", r'\1"\2":', letters))


# --- d3 and vega, as they compute --------------------------------------------------------------
def _tick_spec(start: float, stop: float, count: float) -> tuple:
    """d3-array's tickSpec, in doubles as JavaScript computes it."""
    step = (stop - start) / max(0, count)
    power = math.floor(math.log10(step))
    error = step / pow10(power)
    factor = 10 if error >= E10 else 5 if error >= E5 else 2 if error >= E2 else 1
    if power < 0:
        inc = pow10(-power) / factor
        i1, i2 = _js_round(start * inc), _js_round(stop * inc)
        if i1 / inc < start:
            i1 += 1
        if i2 / inc > stop:
            i2 -= 1
        inc = -inc
    else:
        inc = pow10(power) * factor
        i1, i2 = _js_round(start / inc), _js_round(stop / inc)
        if i1 * inc < start:
            i1 += 1
        if i2 * inc > stop:
            i2 -= 1
    if i2 < i1 and 0.5 <= count < 2:
        return _tick_spec(start, stop, count * 2)
    return i1, i2, inc


def pow10(k: int) -> float:
    """JavaScript's Math.pow(10, k) in V8."""
    return V8_POW10.get(k) or float(f"1e{k}")


def _js_round(x: float) -> float:
    """Math.round: the nearest integer, a half up, as a double."""
    if not math.isfinite(x) or abs(x) >= 2 ** 52:
        return x
    whole = math.floor(x)
    return float(whole + 1 if x - whole >= 0.5 else whole)


def ticks(start: float, stop: float, count: int) -> list:
    """d3-array's ticks (start <= stop)."""
    if start == stop:
        return [start]
    i1, i2, inc = _tick_spec(start, stop, count)
    if i2 < i1:
        return []
    return [(i1 + i) / -inc if inc < 0 else (i1 + i) * inc for i in range(int(i2 - i1) + 1)]


def nice(start: float, stop: float, count: int = NICE_COUNT) -> tuple:
    """d3-scale's linear nice() (start <= stop)."""
    prestep = None
    for _ in range(10):
        if start == stop:
            break
        step = _tick_spec(start, stop, count)[2]
        if step == prestep:
            break
        if step > 0:
            start, stop = float(math.floor(start / step)) * step, float(math.ceil(stop / step)) * step
        elif step < 0:
            start, stop = float(math.ceil(start * step)) / step, float(math.floor(stop * step)) / step
        else:
            break
        prestep = step
    return start, stop


def format_rounded(x: float, digits: int = 3) -> str:
    """d3-format's ",.{digits}~r": digits significant, decimal notation, trailing zeros trimmed,
    thousands grouped, a minus sign (U+2212) before a negative number."""
    if x != x or x in (math.inf, -math.inf):
        return str(x)
    negative = x < 0
    if x == 0:
        text = "0"
    else:  # JavaScript's toExponential: the exact value, a tie to the larger digits
        exact = Decimal(abs(x))
        exponent = exact.adjusted()
        coefficient = exact.scaleb(-exponent).quantize(Decimal(1).scaleb(1 - digits), ROUND_HALF_UP)
        if coefficient >= 10:
            exponent += 1
            coefficient = (coefficient / 10).quantize(Decimal(1).scaleb(1 - digits), ROUND_HALF_UP)
        figures = str(coefficient).replace(".", "")
        if exponent < 0:
            text = "0." + "0" * (-exponent - 1) + figures
        elif len(figures) > exponent + 1:
            text = figures[:exponent + 1] + "." + figures[exponent + 1:]
        else:
            text = figures + "0" * (exponent - len(figures) + 1)
        if "." in text:
            text = text.rstrip("0").rstrip(".")
    whole, _, fraction = text.partition(".")
    whole = f"{int(whole):,}"
    text = whole + ("." + fraction if fraction else "")
    if negative and float(text.replace(",", "")) != 0:
        text = "\u2212" + text
    return text


def tick_step(start: float, stop: float, count: int) -> float:
    """d3-array's tickStep (start <= stop)."""
    inc = _tick_spec(start, stop, count)[2]
    return 1 / -inc if inc < 0 else inc


def format_span(x: float, start: float, stop: float, count: int) -> str:
    """An axis label as vega formats it with no format of its own (locale.formatSpan): d3-format's
    ",.{p}f", p the decimals the ticks' step needs (precisionFixed), thousands grouped."""
    # a domain of one value has no step (nor one near 1e-308 wide, where d3's is NaN): d3-format's
    # own precision for "f", 6; and at most 20
    try:
        step = tick_step(start, stop, count) if start != stop else math.nan
    except (OverflowError, ValueError):
        step = math.nan
    decimals = min(20, max(0, -Decimal(repr(abs(step))).adjusted())) if math.isfinite(step) and step else 6
    if abs(x) >= 1e21:  # JavaScript's toFixed writes these as String() does, which d3 leaves ungrouped
        return ("\u2212" if x < 0 else "") + _js_number(abs(x))
    text = format(Decimal(abs(x)).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP, WIDE), "f")
    whole, _, fraction = text.partition(".")
    text = f"{int(whole):,}" + ("." + fraction if fraction else "")
    return "\u2212" + text if x < 0 and float(text.replace(",", "")) != 0 else text


def _js_string(value) -> str:
    """A field's value as vega-lite's description writes it (isValid ? value : "" + value)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return " ".join(_js_string(v) for v in value)
    if isinstance(value, (int, float)):
        return _js_number(value)
    return str(value)


def _js_number(x: float) -> str:
    """A number as JavaScript's String() writes it (an integer past a double: Infinity, as JSON.parse reads it)."""
    if isinstance(x, int):
        try:
            x = float(x)
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    if float(x).is_integer() and abs(x) < 1e21:
        return str(int(x))
    text = repr(float(x))
    return re.sub(r"e([+-])0*(\d)", r"e\1\2", text) if "e" in text else text


def _px(x: float) -> str:
    """A coordinate to a tenth of a pixel, as draw-charts.mjs writes it (Math.round, String)."""
    if not math.isfinite(x * 10):
        return _js_number(x)
    value = _js_round(x * 10) / 10
    return "0" if value == 0 else _js_number(value)


def _text(words: str) -> str:
    """Words as SVG text or an attribute's value: escaped, and any character XML 1.0 has not
    (which Vega would write as it is, leaving the page's SVG not well-formed) as U+FFFD."""
    return html.escape(XML_UNSAFE.sub("\ufffd", words))


def _nested(row: dict, field: str):
    value = row
    for part in field.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


# --- the chart ------------------------------------------------------------------------------
def _plotted(rows: list) -> list:
    """The spec's transforms: ok throughput rows, in MB/s, with their flags' letters. A row
    aggregate.throughput_rows could not have written (no finite mean, an interval with one
    end) is drawn as far as it goes: no bar without a finite mean, no whisker without both
    ends, no dot for a sample that is not a finite number."""
    _, letters = palette()
    out = []
    for row in rows:
        if not isinstance(row, dict) or row.get("metric") != "throughput" or row.get("status") != "ok":
            continue
        mean, ci_low, ci_high = (_finite(row.get(name)) for name in ("mean", "ci_low", "ci_high"))
        if mean is None:
            continue
        if ci_low is None or ci_high is None:
            ci_low = ci_high = None
        flags = row.get("flags")
        flags = re.split(r"[,\s]+", flags) if isinstance(flags, str) else flags if isinstance(flags, list) else []
        samples = row.get("samples")
        out.append({**row, "marks": "".join(letter for flag, letter in letters.items() if flag in flags),
                    "samples": [v for v in map(_finite, samples if isinstance(samples, list) else []) if v is not None],
                    "mean_mb_s": mean / 1e6,
                    "ci_low_mb_s": None if ci_low is None else ci_low / 1e6,
                    "ci_high_mb_s": None if ci_high is None else ci_high / 1e6,
                    "top_mb_s": mean / 1e6 if ci_high is None else ci_high / 1e6,
                    "machine_shown": row.get("machine") if row.get("machine_name") == row.get("machine")
                    else f"{_js_string(row.get('machine_name'))} ({_js_string(row.get('machine'))})"})
    return out


def _finite(x) -> float | None:
    """A row's figure as a double, or None where it is no finite number."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        x = float(x)
    except OverflowError:
        return None
    return x if math.isfinite(x) else None


def _stacked(rows: list, x_field: str) -> dict:
    """vega's stack (zero offset) of the bars sharing a label, by filesystem descending: id(row)
    -> (start, end)."""
    spans, groups = {}, {}
    for row in rows:
        groups.setdefault(_js_string(row.get(x_field)), []).append(row)
    for group in groups.values():
        up = down = 0.0
        for row in sorted(group, key=lambda r: _js_string(r.get("filesystem")), reverse=True):
            v = row["mean_mb_s"]
            if v < 0:
                spans[id(row)] = (down + v, down)
                down += v
            else:
                spans[id(row)] = (up, up + v)
                up += v
    return spans


def _width(text: str, size: float) -> int:
    """vega's estimate of a text's width where no canvas measures it (in Node as here)."""
    return int(0.8 * len(text) * size)


class _Panel:
    """One workload's panel: its scales, marks and extent around its plot."""

    def __init__(self, name: str, rows: list, colours: dict):
        s = spec()
        self.name, self.rows, self.colours = name, rows, colours
        self.w, self.h, self.x_field = s["width"], s["height"], s["x_field"]
        self.spans = _stacked(rows, self.x_field)
        labels = sorted({_js_string(r.get(self.x_field)) for r in rows})
        n = len(labels)
        step = self.w / max(1, n - PADDING_INNER + PADDING_OUTER * 2)
        start = (self.w - step * (n - PADDING_INNER)) * 0.5
        self.band = {label: start + step * i for i, label in enumerate(labels)}
        self.bandwidth = step * (1 - PADDING_INNER)
        self.labels = labels
        values = [v for r in rows for v in self.spans[id(r)]]
        values += [v for r in rows if r["ci_low_mb_s"] is not None for v in (r["ci_low_mb_s"], r["ci_high_mb_s"])]
        values += [v / 1e6 for r in rows for v in r["samples"]]
        values += [r["top_mb_s"] for r in rows if r["marks"]]
        low, high = min(values + [0.0]), max(values + [0.0])  # zero: true
        try:
            self.d0, self.d1 = nice(low, high)
            self.ticks = ticks(self.d0, self.d1, math.ceil(self.h / 40))
            [self.tick_label(t) for t in self.ticks]
        except (OverflowError, ValueError):  # a span near 1e-308 MB/s, where d3's arithmetic is NaN
            self.d0, self.d1, self.ticks = low, high, []

    def axis_extent(self) -> float:
        """How far left of the plot the y axis's ticks and labels reach (vega: none without
        ticks; at most MAX_EXTENT), where its title begins."""
        if not self.ticks:
            return 0
        return min(MAX_EXTENT, TICK + LABEL_PAD + max(_width(self.tick_label(t), LABEL_FONT) for t in self.ticks))

    def tick_label(self, t: float) -> str:
        return format_span(t, self.d0, self.d1, math.ceil(self.h / 40))

    def y(self, v: float) -> float:
        if self.d1 == self.d0:
            return self.h / 2
        return self.h - (v - self.d0) / (self.d1 - self.d0) * self.h

    def centre(self, row: dict) -> float:
        return self.band[_js_string(row.get(self.x_field))] + self.bandwidth / 2

    def extent(self) -> tuple:
        """(left, top, right, bottom) of what the panel draws around its plot (0..w, 0..h)."""
        y_axis = self.axis_extent() + TITLE_PAD + TITLE_FONT
        angle = math.radians(360 - LABEL_ANGLE)
        overhang = [self.band[label] + self.bandwidth / 2 - math.cos(angle) * _width(label, LABEL_FONT)
                    for label in self.labels]
        below = max((math.sin(angle) * _width(label, LABEL_FONT) for label in self.labels), default=0)
        left = max(y_axis, -min(overhang, default=0))
        return left, self.title_y() - LABEL_FONT, self.w + 1, self.h + TICK + LABEL_PAD + below + LABEL_FONT

    def title_y(self) -> float:
        tops = [self.y(r["top_mb_s"]) + spec()["flag_dy"] - spec()["flag_size"] for r in self.rows if r["marks"]]
        return min([0.0] + tops) - TITLE_OFFSET - 13.5

    def svg(self) -> str:
        s = spec()
        out = [f'<path class="background" aria-hidden="true" d="M0.5,0.5h{_px(self.w)}v{_px(self.h)}h-{_px(self.w)}Z" '
               f'stroke="{INK}" stroke-opacity="{FAINT}"/><g>']
        # the grid, the x axis, the y axis
        grid = "".join(f'<line transform="translate(0,{_js_number(_js_round(self.y(t)))})" x2="{_px(self.w)}" y2="0"/>' for t in self.ticks)
        out.append('<g class="mark-group role-axis" aria-hidden="true"><g transform="translate(0.5,0.5)">'
                   '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z" pointer-events="none"/><g>'
                   f'<g class="mark-rule role-axis-grid" pointer-events="none" stroke="{INK}" stroke-opacity="{FAINT}" '
                   f'stroke-width="1">{grid}</g></g>'
                   '<path class="foreground" aria-hidden="true" d="" pointer-events="none" display="none"/></g></g>')
        centres = [self.band[label] + self.bandwidth / 2 for label in self.labels]
        x_ticks = "".join(f'<line transform="translate({_js_number(_js_round(c - 0.5))},0)" x2="0" y2="{TICK}"/>' for c in centres)
        x_labels = "".join(f'<text transform="translate({_px(c - 0.5)},{TICK + LABEL_PAD}) rotate({LABEL_ANGLE}) '
                           f'translate(0,8)">{_text(label)}</text>'
                           for c, label in zip(centres, self.labels))
        # vega's caption of a discrete axis: its first five values and its last, past seven
        named = ", ".join(self.labels) if len(self.labels) <= 7 else \
            ", ".join(self.labels[:5]) + ", ending with " + self.labels[-1]
        plural = "" if len(self.labels) == 1 else "s"
        out.append(f'<g class="mark-group role-axis" role="graphics-symbol" aria-roledescription="axis" '
                   f'aria-label="{_text(f"X-axis for a discrete scale with {len(self.labels)} value{plural}: {named}")}">'
                   f'<g transform="translate(0.5,{_px(self.h + 0.5)})">'
                   '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z" pointer-events="none"/><g>'
                   f'<g class="mark-rule role-axis-tick" pointer-events="none" stroke="{INK}" stroke-opacity="{STRONG}" '
                   f'stroke-width="1">{x_ticks}</g>'
                   f'<g class="mark-text role-axis-label" pointer-events="none" fill="{INK}" font-family="sans-serif" '
                   f'font-size="{LABEL_FONT}px" text-anchor="end">{x_labels}</g>'
                   f'<g class="mark-rule role-axis-domain" pointer-events="none" stroke="{INK}" stroke-opacity="{STRONG}" '
                   f'stroke-width="1"><line transform="translate(0,0)" x2="{_px(self.w)}" y2="0"/></g></g>'
                   '<path class="foreground" aria-hidden="true" d="" pointer-events="none" display="none"/></g></g>')
        y_ticks = "".join(f'<line transform="translate(0,{_js_number(_js_round(self.y(t)))})" x2="-{TICK}" y2="0"/>' for t in self.ticks)
        y_labels = "".join(f'<text transform="translate(-{TICK + LABEL_PAD},{_px(self.y(t) + 0.3 * LABEL_FONT)})">'
                           f'{self.tick_label(t)}</text>' for t in self.ticks)
        title = _text(s["y_title"])
        described = (f"Y-axis titled '{s['y_title']}' for a linear scale with values from "
                     f"{format_span(self.d0, self.d0, self.d1, 5)} to {format_span(self.d1, self.d0, self.d1, 5)}")
        out.append(f'<g class="mark-group role-axis" role="graphics-symbol" aria-roledescription="axis" '
                   f'aria-label="{_text(described)}"><g transform="translate(0.5,0.5)">'
                   '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z" pointer-events="none"/><g>'
                   f'<g class="mark-rule role-axis-tick" pointer-events="none" stroke="{INK}" stroke-opacity="{STRONG}" '
                   f'stroke-width="1">{y_ticks}</g>'
                   f'<g class="mark-text role-axis-label" pointer-events="none" fill="{INK}" font-family="sans-serif" '
                   f'font-size="{LABEL_FONT}px" text-anchor="end">{y_labels}</g>'
                   f'<g class="mark-rule role-axis-domain" pointer-events="none" stroke="{INK}" stroke-opacity="{STRONG}" '
                   f'stroke-width="1"><line transform="translate(0,{_px(self.h)})" x2="0" y2="-{_px(self.h)}"/></g>'
                   f'<g class="mark-text role-axis-title" pointer-events="none" fill="{INK}" font-family="sans-serif" '
                   f'font-size="{TITLE_FONT}px" font-weight="bold" text-anchor="middle">'
                   f'<text transform="translate({_px(-(self.axis_extent() + TITLE_PAD))},{_px(self.h / 2)}) rotate(-90) '
                   f'translate(0,-2)">{title}</text></g></g>'
                   '<path class="foreground" aria-hidden="true" d="" pointer-events="none" display="none"/></g></g>')
        out.append(self._marks())
        out.append(f'<g class="mark-group role-title"><g transform="translate({_px(self.w / 2)},{_px(self.title_y())})">'
                   '<path class="background" aria-hidden="true" d="M0,0h0v0h0Z" pointer-events="none"/><g>'
                   f'<g class="mark-text role-title-text" role="graphics-symbol" aria-roledescription="title" '
                   f'aria-label="{_text(f"Title text {chr(39)}{self.name}{chr(39)}")}" pointer-events="none">'
                   f'<text text-anchor="middle" transform="translate(0,8)" font-family="sans-serif" '
                   f'font-size="{LABEL_FONT}px" fill="{INK}">{_text(self.name)}</text></g></g>'
                   '<path class="foreground" aria-hidden="true" d="" pointer-events="none" display="none"/></g></g>')
        out.append('</g><path class="foreground" aria-hidden="true" d="" display="none"/>')
        return "".join(out)

    def _marks(self) -> str:
        s = spec()
        bars, whiskers, dots, letters = [], [], [], []
        for row in self.rows:
            start, end = self.spans[id(row)]
            x, top, bottom = self.band[_js_string(row.get(self.x_field))], self.y(end), self.y(start)
            y0, y1 = min(top, bottom), max(top, bottom)
            w = max(0.25, self.bandwidth)
            colour = self.colours[_js_string(row.get("filesystem"))]
            bars.append(f'<path role="graphics-symbol" aria-roledescription="bar" '
                        f'd="M{_px(x)},{_px(y0)}h{_px(w)}v{_px(y1 - y0)}h{_px(-w)}Z" fill="{colour}" '
                        f'fill-opacity="{s["pale"] if row["marks"] else 1}" stroke="{colour}" '
                        f'stroke-width="{_js_number(s["stroke_width"])}"><title>{_text(self.described(row))}</title></path>')
        for row in self.rows:
            if row["ci_low_mb_s"] is not None:
                low, high = self.y(row["ci_low_mb_s"]), self.y(row["ci_high_mb_s"])
                whiskers.append(f'<line transform="translate({_px(self.centre(row))},{_px(low)})" x2="0" '
                                f'y2="{_px(high - low)}" stroke="{INK}"/>')
        radius = _px(math.sqrt(s["dot_size"]) / 2)
        for row in self.rows:
            for v in row["samples"]:
                dots.append(f'<circle cx="{_px(self.centre(row))}" cy="{_px(self.y(v / 1e6))}" r="{radius}" '
                            f'fill="{INK}" opacity="{_js_number(s["dot_opacity"])}"/>')
        for row in self.rows:
            if row["marks"]:
                y = self.y(row["top_mb_s"]) + s["flag_dy"] + 0.3 * s["flag_size"]
                letters.append(f'<text text-anchor="middle" transform="translate({_px(self.centre(row))},{_px(y)})" '
                               f'font-family="sans-serif" font-size="{s["flag_size"]}px" font-weight="bold" '
                               f'fill="{INK}">{_text(row["marks"])}</text>')
        out = ['<g class="mark-rect role-mark child_layer_0_marks" role="graphics-object" '
               'aria-roledescription="rect mark container">' + "".join(bars) + "</g>"]
        for name, cls, items in (("child_layer_1_marks", "mark-rule", whiskers), ("child_layer_2_marks", "mark-symbol", dots),
                                 ("child_layer_3_marks", "mark-text", letters)):
            if items:
                out.append(f'<g class="{cls} role-mark {name}" aria-hidden="true">' + "".join(items) + "</g>")
        return "".join(out)

    def described(self, row: dict) -> str:
        """A bar's words, as vega-lite describes it (its <title>): x, y, then the tooltip's fields."""
        s = spec()
        parts = [f"{s['x_field']}: {_js_string(row.get(s['x_field']))}",
                 f"{s['y_title']}: {format_rounded(row['mean_mb_s'], s['digits'])}"]
        parts += [f"{title}: {_js_string(_nested(row, field) if '.' in field else row.get(field, 'undefined'))}"
                  for field, title in s["tooltip"]]
        return "; ".join(parts)


def svg(rows: list) -> str:
    """The chart of a result's throughput rows (aggregate.throughput_rows), or "" when it has no
    bar to draw (its page says so instead of showing a chart: aggregate.result_page)."""
    plotted = _plotted(rows)
    if not plotted:
        return ""
    colours_list, _ = palette()
    names = sorted({_js_string(r.get("filesystem")) for r in plotted})
    colours = {name: colours_list[i % len(colours_list)] for i, name in enumerate(names)}
    by_workload: dict = {}
    for row in plotted:
        by_workload.setdefault(_js_string(row.get("workload")), []).append(row)
    panels = [_Panel(name, by_workload[name], colours) for name in sorted(by_workload)]
    columns = spec()["columns"]
    placed, y, width, first_left, first_top = [], 0.0, 0.0, 0.0, 0.0
    for start in range(0, len(panels), columns):
        row = panels[start:start + columns]
        extents = [p.extent() for p in row]
        top = -min(e[1] for e in extents)
        if start:
            y += top
        else:
            first_top = top
        x = 0.0
        for n, (panel, (left, _, right, _)) in enumerate(zip(row, extents)):
            if n:
                x += left
            else:
                first_left = max(first_left, left)
            placed.append((panel, x, y))
            x += right + LAYOUT_PADDING
        width = max(width, x - LAYOUT_PADDING)
        y += max(e[3] for e in extents) + LAYOUT_PADDING
    left, top = math.ceil(first_left) + PADDING, math.ceil(first_top) + PADDING
    total_w = math.ceil(left + width + PADDING)
    total_h = math.ceil(top + y - LAYOUT_PADDING + PADDING)
    cells = "".join(f'<g transform="translate({_px(x)},{_px(y)})">{p.svg()}</g>' for p, x, y in placed)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '
            f'class="marks" width="{total_w}" height="{total_h}" viewBox="0 0 {total_w} {total_h}">'
            f'<g fill="none" stroke-miterlimit="4" transform="translate({left},{top})">'
            '<g class="mark-group role-frame root" role="graphics-object" aria-roledescription="group mark container">'
            '<g transform="translate(0,0)"><path class="background" aria-hidden="true" d="M0,0h0v0h0Z"/><g>'
            '<g class="mark-group role-scope cell" role="graphics-object" aria-roledescription="group mark container">'
            f'{cells}</g></g><path class="foreground" aria-hidden="true" d="" display="none"/></g></g></g></svg>')
