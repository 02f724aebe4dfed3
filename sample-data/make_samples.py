#!/usr/bin/env python3
"""Regenerate verdict's bundled sample data (sample-data/).

    pip install pillow && python3 sample-data/make_samples.py

Everything here is made up by this script: the charts and "photos" are drawn with
Pillow, the questions, answers, model responses and reviews are written below. The
output is deterministic (fixed seeds, fixed times): running the script twice gives
byte-identical files (with the same Pillow version, which renders the default font).

Writes, relative to this folder:
    images/*.png                 charts (CHARTOM) and counting pictures (C-VQA)
    chartom.jsonl                CHARTOM result set (7 chart pairs, 3 models)
    chartom-qa.jsonl             CharToM-QA result set (10 items, 2 models, LLM judge)
    chartom-qa-eval.jsonl        CharToM-QA in the benchmark's own evaluation JSONL layout
    chartom-qa-long.jsonl        CharToM-QA with ~2,000-word contexts (make_long_context.py)
    cvqa.jsonl                   C-VQA result set (real and synthetic, 2 models)
    cvqa-doc.json                C-VQA items in the JSON document form
    generic.jsonl                items of a benchmark verdict does not know
    import/                      inputs for `verdict import` (C-VQA CSVs, CHARTOM folder)
and finally checks what it wrote (required fields, unique ids, images, G7_Q1's HMI).
"""

import csv
import io
import json
import math
import os
import random
import shutil
import sys

from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "images")
W, H = 480, 320

# ---------------------------------------------------------------------------------------
# Drawing helpers
# ---------------------------------------------------------------------------------------

_FONTS = {}


def font(size=12):
    """Pillow's bundled default font at `size` (a bitmap font on old Pillow builds)."""
    if size not in _FONTS:
        try:
            _FONTS[size] = ImageFont.load_default(size=size)
        except TypeError:  # Pillow < 10.1: no size argument
            _FONTS[size] = ImageFont.load_default()
    return _FONTS[size]


def text_size(d, s, f):
    box = d.textbbox((0, 0), s, font=f)
    return box[2] - box[0], box[3] - box[1]


def text(d, xy, s, size=12, fill=(30, 30, 30), anchor="la"):
    d.text(xy, s, font=font(size), fill=fill, anchor=anchor)


def new_canvas(bg=(255, 255, 255)):
    img = Image.new("RGB", (W, H), bg)
    return img, ImageDraw.Draw(img)


def save_png(img, name, colors=64):
    """Save as an optimised palette PNG (no dithering, so output is deterministic)."""
    os.makedirs(IMAGES, exist_ok=True)
    p = img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    path = os.path.join(IMAGES, name)
    p.save(path, format="PNG", optimize=True)
    return "images/" + name


def nice_num(v):
    if abs(v - round(v)) < 1e-9:
        return str(int(round(v)))
    return ("%.2f" % v).rstrip("0").rstrip(".")


class Plot:
    """A rectangular plot area with linear axes. y may be inverted (min at the top)."""

    def __init__(self, d, box, xlim, ylim, invert_y=False):
        self.d = d
        self.x0, self.y0, self.x1, self.y1 = box  # pixels: left, top, right, bottom
        self.xlim, self.ylim, self.invert_y = xlim, ylim, invert_y

    def px(self, x):
        a, b = self.xlim
        return self.x0 + (x - a) / (b - a) * (self.x1 - self.x0)

    def py(self, y):
        a, b = self.ylim
        t = (y - a) / (b - a)
        if self.invert_y:
            return self.y0 + t * (self.y1 - self.y0)
        return self.y1 - t * (self.y1 - self.y0)

    def frame(self, yticks, xticks=None, xlabels=None, grid=True, ylabel=None, xlabel=None,
              right=False, tick_color=(30, 30, 30)):
        d = self.d
        for v in yticks:
            y = self.py(v)
            if grid:
                d.line([(self.x0, y), (self.x1, y)], fill=(225, 225, 225))
            if right:
                d.line([(self.x1, y), (self.x1 + 4, y)], fill=tick_color)
                text(d, (self.x1 + 7, y), nice_num(v), 11, tick_color, "lm")
            else:
                d.line([(self.x0 - 4, y), (self.x0, y)], fill=tick_color)
                text(d, (self.x0 - 7, y), nice_num(v), 11, tick_color, "rm")
        if xticks is not None:
            labels = xlabels or [nice_num(v) for v in xticks]
            for v, lab in zip(xticks, labels):
                x = self.px(v)
                d.line([(x, self.y1), (x, self.y1 + 4)], fill=(30, 30, 30))
                text(d, (x, self.y1 + 7), lab, 11, anchor="ma")
        d.line([(self.x0, self.y0), (self.x0, self.y1)], fill=(30, 30, 30))
        d.line([(self.x0, self.y1), (self.x1, self.y1)], fill=(30, 30, 30))
        if right:
            d.line([(self.x1, self.y0), (self.x1, self.y1)], fill=tick_color)
        if ylabel:
            lab = Image.new("RGBA", (200, 16), (255, 255, 255, 0))
            ld = ImageDraw.Draw(lab)
            text(ld, (100, 8), ylabel, 11, tick_color, "mm")
            lab = lab.rotate(90 if not right else -90, expand=True)
            xx = 2 if not right else W - 18
            d._image.paste(lab, (xx, int((self.y0 + self.y1) / 2 - 100)), lab)
        if xlabel:
            text(d, ((self.x0 + self.x1) / 2, self.y1 + 24), xlabel, 11, anchor="ma")


def title(d, s, sub=None):
    text(d, (W / 2, 8), s, 15, anchor="ma")
    if sub:
        text(d, (W / 2, 27), sub, 11, (90, 90, 90), anchor="ma")


# ---------------------------------------------------------------------------------------
# CHARTOM charts: one honest (_1) and one manipulated (_2) chart per pair
# ---------------------------------------------------------------------------------------

BLUE = (45, 105, 175)
ORANGE = (225, 120, 40)
RED = (200, 50, 50)
GREEN = (60, 150, 80)

G7_YEARS = list(range(2010, 2021))
G7_BILL = [250, 252, 255, 259, 262, 268, 274, 281, 287, 294, 300]


def chart_g7(manipulated):
    """Line chart; the manipulated version truncates the y-axis at 240."""
    img, d = new_canvas()
    title(d, "Average monthly grocery bill, Millbrook", "household of four, US dollars")
    if manipulated:
        ylim, ticks = (240, 305), list(range(240, 301, 10))
    else:
        ylim, ticks = (0, 350), list(range(0, 351, 50))
    p = Plot(d, (70, 50, 455, 275), (2009.5, 2020.5), ylim)
    p.frame(ticks, G7_YEARS[::2], ylabel="Monthly bill ($)", xlabel="Year")
    pts = [(p.px(x), p.py(y)) for x, y in zip(G7_YEARS, G7_BILL)]
    d.line(pts, fill=BLUE, width=3)
    for x, y in pts:
        d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=BLUE)
    return save_png(img, "G7_Q1_%d.png" % (2 if manipulated else 1))


G3_PARKS = ["Oak Park", "Riverside", "Hilltop", "Lakeview"]
G3_VISITS = [88, 110, 95, 102]


def chart_g3(manipulated):
    """Bar chart; the manipulated version starts the bars at 80 instead of 0."""
    img, d = new_canvas()
    title(d, "Visitors to city parks in 2023", "thousands of visitors")
    if manipulated:
        ylim, ticks = (80, 115), list(range(80, 116, 5))
    else:
        ylim, ticks = (0, 120), list(range(0, 121, 20))
    p = Plot(d, (70, 50, 455, 275), (0, 4), ylim)
    p.frame(ticks, [0.5, 1.5, 2.5, 3.5], G3_PARKS, ylabel="Visitors (thousands)")
    for i, v in enumerate(G3_VISITS):
        x0, x1 = p.px(i + 0.18), p.px(i + 0.82)
        d.rectangle([x0, p.py(v), x1, p.py(ylim[0])], fill=(90, 140, 200), outline=BLUE)
    return save_png(img, "G3_Q2_%d.png" % (2 if manipulated else 1))


G10_YEARS = list(range(2016, 2023))
G10_CRUMB = [20, 23, 26, 29, 33, 36, 40]
G10_GOLDEN = [100, 118, 130, 148, 165, 182, 200]


def chart_g10(manipulated):
    """Line chart of two series; the manipulated version gives each its own y-axis."""
    img, d = new_canvas()
    title(d, "Annual revenue of two bakeries", "thousands of US dollars")
    if manipulated:
        pa = Plot(d, (70, 55, 410, 270), (2015.5, 2022.5), (0, 45))
        pb = Plot(d, (70, 55, 410, 270), (2015.5, 2022.5), (0, 225))
        pa.frame(range(0, 46, 5), G10_YEARS[::2], ylabel="Crumb & Co ($ thousands)",
                 tick_color=ORANGE)
        pb.frame(range(0, 226, 25), None, grid=False, right=True,
                 ylabel="Golden Loaf ($ thousands)", tick_color=BLUE)
    else:
        pa = pb = Plot(d, (70, 55, 440, 270), (2015.5, 2022.5), (0, 225))
        pa.frame(range(0, 226, 25), G10_YEARS[::2], ylabel="Revenue ($ thousands)")
    for plot, ys, col in ((pa, G10_CRUMB, ORANGE), (pb, G10_GOLDEN, BLUE)):
        pts = [(plot.px(x), plot.py(y)) for x, y in zip(G10_YEARS, ys)]
        d.line(pts, fill=col, width=3)
        for x, y in pts:
            d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=col)
    # legend
    lx = 90
    for name, col in (("Crumb & Co", ORANGE), ("Golden Loaf", BLUE)):
        d.line([(lx, 64), (lx + 18, 64)], fill=col, width=3)
        text(d, (lx + 24, 64), name, 11, anchor="lm")
        lx += 110
    return save_png(img, "G10_Q2_%d.png" % (2 if manipulated else 1))


G5_YEARS = list(range(2000, 2013))
G5_THEFTS = [420, 410, 432, 415, 428, 421, 480, 545, 598, 650, 688, 722, 760]


def chart_g5(manipulated):
    """Area line chart; the manipulated version inverts the y-axis (0 at the top)."""
    img, d = new_canvas()
    title(d, "Reported bicycle thefts in Westvale", "new bike-lock law passed in 2005")
    p = Plot(d, (70, 50, 455, 275), (1999.5, 2012.5), (0, 800), invert_y=manipulated)
    pts = [(p.px(x), p.py(y)) for x, y in zip(G5_YEARS, G5_THEFTS)]
    base = p.py(0)
    poly = [(pts[0][0], base)] + pts + [(pts[-1][0], base)]
    d.polygon(poly, fill=(235, 150, 150) if manipulated else (170, 200, 235))
    p.frame(range(0, 801, 100), G5_YEARS[::2], ylabel="Thefts per year", xlabel="Year")
    d.line(pts, fill=RED if manipulated else BLUE, width=3)
    x = p.px(2005)
    for yy in range(int(p.y0), int(p.y1), 8):
        d.line([(x, yy), (x, yy + 4)], fill=(80, 80, 80))
    text(d, (x + 4, p.y0 + (150 if manipulated else 4)), "law passed", 11, (80, 80, 80))
    return save_png(img, "G5_Q1_%d.png" % (2 if manipulated else 1))


def g9_data():
    rng = random.Random(9)
    pts = []
    for _ in range(40):
        h = rng.uniform(0.5, 12)
        score = 45 + 38 * (1 - math.exp(-h / 4.0)) + rng.gauss(0, 4)
        pts.append((round(h, 1), round(score, 1)))
    return pts


def chart_g9(manipulated):
    """Scatter; the manipulated version shows only the 8-11 hour range (a cherry-picked
    x-range where the scores happen to dip) with a falling trend line."""
    img, d = new_canvas()
    pts = g9_data()
    if manipulated:
        shown = [(h, s) for h, s in pts if 8 <= h <= 11]
        title(d, "Study time and exam scores", "selected students")
        p = Plot(d, (70, 50, 455, 275), (8, 11), (60, 100))
        p.frame(range(60, 101, 10), [8, 8.5, 9, 9.5, 10, 10.5, 11],
                ylabel="Exam score", xlabel="Hours of study per week")
    else:
        shown = pts
        title(d, "Study time and exam scores", "all 40 students")
        p = Plot(d, (70, 50, 455, 275), (0, 12), (40, 100))
        p.frame(range(40, 101, 10), range(0, 13, 2),
                ylabel="Exam score", xlabel="Hours of study per week")
    for h, s in shown:
        x, y = p.px(h), p.py(s)
        d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=(90, 140, 200), outline=BLUE)
    # least-squares trend line over what is shown
    n = len(shown)
    mx = sum(h for h, _ in shown) / n
    my = sum(s for _, s in shown) / n
    b = sum((h - mx) * (s - my) for h, s in shown) / sum((h - mx) ** 2 for h, _ in shown)
    a = my - b * mx
    xa, xb = p.xlim
    d.line([(p.px(xa), p.py(a + b * xa)), (p.px(xb), p.py(a + b * xb))],
           fill=RED, width=2)
    return save_png(img, "G9_Q3_%d.png" % (2 if manipulated else 1)), b


G12_SLICES = [("Rent", 36), ("Food", 28), ("Transport", 22), ("Leisure", 14)]
G12_COLORS = {"Rent": (70, 120, 190), "Food": (230, 140, 50), "Transport": (90, 170, 90),
              "Leisure": (200, 80, 90)}


def chart_g12(manipulated):
    """Pie; the manipulated version is a tilted 3D pie with the smaller 'Transport'
    slice pulled out at the front, where perspective and the visible side wall make it
    look biggest."""
    img, d = new_canvas()
    title(d, "Where the Harper household's money goes", "share of monthly spending")
    cx, cy = 240, 180
    total = sum(v for _, v in G12_SLICES)
    if not manipulated:
        r = 105
        a = -90.0
        for name, v in G12_SLICES:
            sweep = 360.0 * v / total
            d.pieslice([cx - r, cy - r, cx + r, cy + r], a, a + sweep,
                       fill=G12_COLORS[name], outline=(255, 255, 255), width=2)
            mid = math.radians(a + sweep / 2)
            text(d, (cx + (r + 14) * math.cos(mid), cy + (r + 14) * math.sin(mid)), name,
                 12, anchor="lm" if math.cos(mid) > 0.2 else
                 ("rm" if math.cos(mid) < -0.2 else "mm"))
            a += sweep
        return save_png(img, "G12_Q2_1.png")
    # 3D: an ellipse (tilt), depth drawn as stacked ellipses, Transport centred at the
    # front (90 degrees = bottom in Pillow's clockwise angles) and exploded outward.
    rx, ry, depth = 170, 70, 34
    order = ["Rent", "Food", "Transport", "Leisure"]
    vals = dict(G12_SLICES)
    t_sweep = 360.0 * vals["Transport"] / total
    start = 90 - t_sweep / 2
    angles = {}
    a = start
    for name in ["Transport", "Leisure", "Rent", "Food"]:
        sweep = 360.0 * vals[name] / total
        angles[name] = (a, a + sweep)
        a += sweep
    cy = 165

    def offset(name):
        if name != "Transport":
            return 0, 0
        a0, a1 = angles[name]
        mid = math.radians((a0 + a1) / 2)
        return 26 * math.cos(mid), 26 * math.sin(mid) * 1.4

    def shade(c, k):
        return tuple(int(v * k) for v in c)

    # side walls: back slices first, then the front one
    for name in ["Rent", "Food", "Leisure", "Transport"]:
        ox, oy = offset(name)
        a0, a1 = angles[name]
        for dz in range(depth, 0, -1):
            box = [cx - rx + ox, cy - ry + oy + dz, cx + rx + ox, cy + ry + oy + dz]
            d.pieslice(box, a0, a1, fill=shade(G12_COLORS[name], 0.62))
        box = [cx - rx + ox, cy - ry + oy, cx + rx + ox, cy + ry + oy]
        d.pieslice(box, a0, a1, fill=G12_COLORS[name], outline=(255, 255, 255))
    for name in order:
        ox, oy = offset(name)
        a0, a1 = angles[name]
        mid = math.radians((a0 + a1) / 2)
        lx = cx + ox + (rx * 0.62) * math.cos(mid)
        ly = cy + oy + (ry * 0.62) * math.sin(mid) + (12 if name == "Transport" else 0)
        text(d, (lx, ly), name, 14 if name == "Transport" else 12, (255, 255, 255), "mm")
    del order
    return save_png(img, "G12_Q2_2.png")


# Schematic island: outer ring a..j, inner square p q r s (Central).
_V = {"a": (150, 62), "b": (255, 48), "c": (330, 72), "d": (380, 128), "e": (372, 214),
      "f": (312, 278), "g": (192, 290), "h": (118, 248), "i": (92, 165), "j": (116, 102),
      "p": (196, 130), "q": (298, 128), "r": (302, 212), "s": (200, 214)}
G14_DISTRICTS = {
    "North": ("jabcqp", 1110),
    "East": ("cderq", 870),
    "South": ("efghsr", 520),
    "West": ("hijps", 920),
    "Central": ("pqrs", 760),
}
G14_BINS = [(400, 600), (600, 800), (800, 1000), (1000, 1200)]
G14_HONEST = [(222, 235, 247), (158, 202, 225), (66, 146, 198), (8, 69, 148)]
G14_MISLEADING = [(60, 20, 90), (190, 40, 40), (240, 150, 40), (252, 240, 190)]


def chart_g14(manipulated):
    """Schematic choropleth; the manipulated version uses a colour scale whose darkest
    colour means the LEAST rain, so 'dark = more' readers rank the districts backwards."""
    img, d = new_canvas((236, 244, 250))
    title(d, "Annual rainfall on the Isle of Norland", "millimetres per year, 2023")
    colors = G14_MISLEADING if manipulated else G14_HONEST
    for name, (verts, mm) in G14_DISTRICTS.items():
        k = next(i for i, (lo, hi) in enumerate(G14_BINS) if lo <= mm < hi)
        poly = [_V[v] for v in verts]
        d.polygon(poly, fill=colors[k], outline=(60, 60, 60))
        cx = sum(x for x, _ in poly) / len(poly)
        cy = sum(y for _, y in poly) / len(poly)
        lum = 0.3 * colors[k][0] + 0.59 * colors[k][1] + 0.11 * colors[k][2]
        text(d, (cx, cy), name, 12, (255, 255, 255) if lum < 120 else (20, 20, 20), "mm")
    d.line([_V[v] for v in "abcdefghija"], fill=(40, 40, 40), width=2)
    # legend
    text(d, (402, 92), "Rainfall", 11)
    text(d, (402, 105), "(mm/year)", 11)
    for i, ((lo, hi), col) in enumerate(zip(G14_BINS, colors)):
        y = 124 + i * 24
        d.rectangle([402, y, 420, y + 16], fill=col, outline=(60, 60, 60))
        text(d, (425, y + 8), "%d-%d" % (lo, hi), 10, anchor="lm")
    return save_png(img, "G14_Q1_%d.png" % (2 if manipulated else 1))


# ---------------------------------------------------------------------------------------
# C-VQA "photos": simple scenes of countable things
# ---------------------------------------------------------------------------------------


def sky_grass(d, horizon=200):
    d.rectangle([0, 0, W, horizon], fill=(170, 210, 240))
    d.rectangle([0, horizon, W, H], fill=(120, 180, 90))


def room(d, floor=230, wall=(240, 228, 200), floor_col=(170, 130, 90)):
    d.rectangle([0, 0, W, floor], fill=wall)
    d.rectangle([0, floor, W, H], fill=floor_col)


def draw_apple(d, x, y, r=22, col=(210, 40, 40)):
    d.ellipse([x - r, y - r * 0.9, x + r, y + r], fill=col, outline=(120, 20, 20))
    d.ellipse([x - r * 0.55, y - r * 0.55, x - r * 0.2, y - r * 0.2], fill=(240, 140, 140))
    d.line([(x, y - r * 0.8), (x + 3, y - r * 1.35)], fill=(90, 60, 30), width=3)
    d.ellipse([x + 4, y - r * 1.4, x + 16, y - r * 1.1], fill=(70, 150, 60))


def draw_cup(d, x, y, full=True, col=(250, 250, 250)):
    # y = bottom of the cup on the table
    d.polygon([(x - 18, y - 34), (x + 18, y - 34), (x + 13, y), (x - 13, y)], fill=col,
              outline=(90, 90, 90))
    d.arc([x + 10, y - 28, x + 28, y - 10], -90, 90, fill=(90, 90, 90), width=3)
    d.ellipse([x - 18, y - 38, x + 18, y - 30], fill=(110, 70, 40) if full else (235, 235, 235),
              outline=(90, 90, 90))
    d.ellipse([x - 26, y - 4, x + 26, y + 6], outline=(150, 150, 150))
    if full:
        for k in (-7, 3):
            d.arc([x + k - 4, y - 60, x + k + 4, y - 44], 90, 270, fill=(160, 160, 160), width=2)


def draw_car(d, x, y, col=(200, 40, 40), scale=1.0):
    # y = road level under the wheels
    s = scale
    d.rounded_rectangle([x - 45 * s, y - 34 * s, x + 45 * s, y - 12 * s], 6, fill=col,
                        outline=(40, 40, 40))
    d.polygon([(x - 26 * s, y - 34 * s), (x - 16 * s, y - 52 * s), (x + 18 * s, y - 52 * s),
               (x + 30 * s, y - 34 * s)], fill=col, outline=(40, 40, 40))
    d.polygon([(x - 20 * s, y - 35 * s), (x - 13 * s, y - 48 * s), (x - 1 * s, y - 48 * s),
               (x - 1 * s, y - 35 * s)], fill=(200, 230, 250))
    d.polygon([(x + 3 * s, y - 35 * s), (x + 3 * s, y - 48 * s), (x + 16 * s, y - 48 * s),
               (x + 25 * s, y - 35 * s)], fill=(200, 230, 250))
    for wx in (-26, 26):
        d.ellipse([x + (wx - 11) * s, y - 22 * s, x + (wx + 11) * s, y], fill=(30, 30, 30))
        d.ellipse([x + (wx - 5) * s, y - 16 * s, x + (wx + 5) * s, y - 6 * s],
                  fill=(170, 170, 170))


def draw_cat(d, x, y, col=(240, 150, 60), s=1.0, sitting=True):
    # y = where the cat sits
    dark = tuple(max(0, c - 70) for c in col)
    d.ellipse([x - 22 * s, y - 40 * s, x + 22 * s, y], fill=col, outline=dark)  # body
    d.line([(x + 20 * s, y - 8 * s), (x + 36 * s, y - 20 * s), (x + 38 * s, y - 38 * s)],
           fill=dark, width=max(2, int(5 * s)))  # tail
    hx, hy = x, y - 48 * s
    d.polygon([(hx - 16 * s, hy - 6 * s), (hx - 14 * s, hy - 26 * s), (hx - 3 * s, hy - 12 * s)],
              fill=col, outline=dark)
    d.polygon([(hx + 16 * s, hy - 6 * s), (hx + 14 * s, hy - 26 * s), (hx + 3 * s, hy - 12 * s)],
              fill=col, outline=dark)
    d.ellipse([hx - 17 * s, hy - 16 * s, hx + 17 * s, hy + 14 * s], fill=col, outline=dark)
    for ex in (-7, 7):
        d.ellipse([hx + (ex - 3) * s, hy - 6 * s, hx + (ex + 3) * s, hy + 1 * s], fill=(40, 90, 40))
    d.polygon([(hx - 3 * s, hy + 4 * s), (hx + 3 * s, hy + 4 * s), (hx, hy + 7 * s)],
              fill=(220, 100, 120))
    for side in (-1, 1):
        for dy in (3, 7):
            d.line([(hx + side * 5 * s, hy + dy * s), (hx + side * 20 * s, hy + (dy - 2) * s)],
                   fill=dark, width=1)


def draw_bird(d, x, y, col=(60, 60, 70)):
    # perched on a wire at y
    d.ellipse([x - 12, y - 22, x + 10, y - 2], fill=col)
    d.ellipse([x + 2, y - 30, x + 16, y - 16], fill=col)
    d.polygon([(x + 15, y - 25), (x + 23, y - 22), (x + 15, y - 20)], fill=(240, 170, 40))
    d.ellipse([x + 9, y - 26, x + 12, y - 23], fill=(255, 255, 255))
    d.polygon([(x - 11, y - 14), (x - 24, y - 6), (x - 10, y - 8)], fill=col)
    d.line([(x - 2, y - 3), (x - 2, y)], fill=(240, 170, 40), width=2)
    d.line([(x + 3, y - 3), (x + 3, y)], fill=(240, 170, 40), width=2)


def draw_balloon(d, x, y, col):
    d.ellipse([x - 20, y - 26, x + 20, y + 24], fill=col, outline=tuple(c // 2 for c in col))
    d.ellipse([x - 11, y - 17, x - 4, y - 8], fill=(255, 255, 255))
    d.polygon([(x - 4, y + 24), (x + 4, y + 24), (x, y + 30)], fill=col)
    d.line([(x, y + 30), (x - 4, y + 60), (x + 3, y + 90)], fill=(90, 90, 90), width=1)


def draw_person(d, x, y, shirt, s=1.0, facing_tv=False):
    # y = feet; a seated viewer when facing_tv (drawn from behind: no face)
    d.rounded_rectangle([x - 18 * s, y - 70 * s, x + 18 * s, y - 18 * s], 8, fill=shirt,
                        outline=(40, 40, 40))
    d.ellipse([x - 15 * s, y - 102 * s, x + 15 * s, y - 70 * s], fill=(225, 185, 150),
              outline=(90, 60, 40))
    d.chord([x - 16 * s, y - 104 * s, x + 16 * s, y - 78 * s], 180, 360, fill=(70, 45, 30))
    if facing_tv:
        d.ellipse([x - 15 * s, y - 100 * s, x + 15 * s, y - 74 * s], fill=(70, 45, 30))
    else:
        for ex in (-6, 6):
            d.ellipse([x + (ex - 2) * s, y - 90 * s, x + (ex + 2) * s, y - 86 * s], fill=(30, 30, 30))
        d.arc([x - 6 * s, y - 86 * s, x + 6 * s, y - 78 * s], 20, 160, fill=(120, 40, 40))
    d.rectangle([x - 14 * s, y - 18 * s, x - 3 * s, y], fill=(50, 60, 90))
    d.rectangle([x + 3 * s, y - 18 * s, x + 14 * s, y], fill=(50, 60, 90))


def scene_apples():
    img, d = new_canvas()
    room(d, 200, (235, 240, 245), (150, 110, 70))
    d.rectangle([40, 190, 440, 205], fill=(120, 80, 50))  # table edge
    d.ellipse([110, 150, 370, 215], fill=(245, 245, 240), outline=(170, 170, 170))  # plate
    for x, y in ((160, 170), (205, 165), (250, 172), (295, 166), (335, 175)):
        draw_apple(d, x, y)
    return save_png(img, "cvqa_apples.png")


def scene_street():
    img, d = new_canvas()
    sky_grass(d, 170)
    d.rectangle([0, 210, W, 290], fill=(90, 90, 95))
    for x in range(0, W, 60):
        d.rectangle([x + 10, 248, x + 40, 253], fill=(240, 240, 240))
    for bx, bh, bc in ((30, 90, (190, 170, 150)), (140, 120, (160, 160, 180)),
                       (300, 80, (200, 180, 140)), (390, 110, (170, 150, 150))):
        d.rectangle([bx, 170 - bh, bx + 80, 170], fill=bc, outline=(90, 90, 90))
        for wy in range(170 - bh + 12, 160, 24):
            for wx in (bx + 12, bx + 46):
                d.rectangle([wx, wy, wx + 20, wy + 12], fill=(220, 235, 250))
    draw_car(d, 90, 240, (200, 40, 40))
    draw_car(d, 240, 282, (40, 90, 190))
    draw_car(d, 390, 240, (200, 40, 40))
    return save_png(img, "cvqa_street.png")


def scene_birds():
    img, d = new_canvas()
    d.rectangle([0, 0, W, H], fill=(180, 215, 240))
    d.ellipse([360, 30, 420, 90], fill=(255, 230, 120))
    d.rectangle([0, 250, W, H], fill=(110, 170, 90))
    d.rectangle([20, 80, 32, 260], fill=(120, 90, 60))
    d.rectangle([448, 80, 460, 260], fill=(120, 90, 60))
    d.line([(26, 150), (240, 165), (454, 150)], fill=(40, 40, 40), width=2)
    for x in (90, 170, 290, 370):
        y = 150 + 15 * (1 - abs(x - 240) / 214.0)
        draw_bird(d, x, y)
    return save_png(img, "cvqa_birds.png")


def scene_balloons():
    img, d = new_canvas()
    d.rectangle([0, 0, W, H], fill=(250, 240, 225))
    d.rectangle([0, 280, W, H], fill=(200, 170, 130))
    cols = [(220, 50, 50), (50, 120, 210), (240, 200, 40), (60, 170, 80), (170, 80, 190),
            (240, 130, 40)]
    for i, col in enumerate(cols):
        x = 70 + i * 68
        y = 80 + (i % 2) * 38
        draw_balloon(d, x, y, col)
    d.line([(70 + 0, 170), (240, 275)], fill=(90, 90, 90))
    d.rectangle([225, 270, 255, 285], fill=(120, 90, 60))
    return save_png(img, "cvqa_balloons.png")


def scene_tv():
    img, d = new_canvas()
    room(d, 210, (230, 215, 190), (150, 105, 70))
    d.rectangle([170, 40, 330, 140], fill=(30, 30, 30))  # TV
    d.rectangle([178, 48, 322, 132], fill=(120, 200, 240))  # lit screen
    d.ellipse([230, 70, 270, 110], fill=(255, 220, 90))
    d.rectangle([235, 140, 265, 150], fill=(40, 40, 40))
    d.rectangle([150, 150, 350, 210], fill=(110, 80, 55))  # TV stand
    d.rounded_rectangle([90, 215, 400, 300], 12, fill=(140, 60, 60))  # sofa back
    draw_person(d, 180, 300, (70, 120, 190), 0.9, facing_tv=True)
    draw_person(d, 300, 300, (60, 150, 80), 0.9, facing_tv=True)
    draw_cat(d, 430, 300, (120, 120, 120), 0.7)
    return save_png(img, "cvqa_tv.png")


def scene_cups():
    img, d = new_canvas()
    room(d, 190, (225, 235, 225), (130, 95, 65))
    d.rectangle([20, 180, 460, 200], fill=(160, 110, 70))
    d.rectangle([40, 200, 60, 300], fill=(130, 90, 55))
    d.rectangle([420, 200, 440, 300], fill=(130, 90, 55))
    for x, full in ((110, True), (195, False), (280, True), (365, False)):
        draw_cup(d, x, 184, full)
    return save_png(img, "cvqa_cups.png")


def scene_cats():
    img, d = new_canvas()
    room(d, 230, (220, 230, 240), (175, 140, 100))
    d.rounded_rectangle([60, 110, 360, 200], 14, fill=(70, 110, 150))  # sofa back
    d.rounded_rectangle([50, 180, 370, 240], 10, fill=(90, 135, 175))  # seat
    d.rounded_rectangle([40, 150, 80, 245], 10, fill=(60, 100, 140))
    d.rounded_rectangle([340, 150, 380, 245], 10, fill=(60, 100, 140))
    draw_cat(d, 150, 185, (240, 150, 60), 0.9)
    draw_cat(d, 265, 185, (60, 60, 60), 0.9)
    draw_cat(d, 420, 295, (250, 250, 250), 0.9)
    return save_png(img, "cvqa_cats.png")


def scene_parking():
    img, d = new_canvas()
    d.rectangle([0, 0, W, H], fill=(110, 110, 115))
    d.rectangle([0, 0, W, 40], fill=(170, 210, 240))
    for x in range(20, W, 115):
        d.line([(x, 60), (x, 300)], fill=(240, 240, 240), width=3)
    cars = [(77, 150, (200, 40, 40)), (192, 150, (40, 90, 190)), (307, 150, (200, 40, 40)),
            (77, 280, (240, 240, 240)), (307, 280, (230, 190, 40))]
    for x, y, col in cars:
        draw_car(d, x, y, col, 0.95)
    return save_png(img, "cvqa_parking.png")


def scene_fruit_bowl():
    img, d = new_canvas()
    room(d, 200, (245, 235, 220), (140, 100, 70))
    d.rectangle([30, 195, 450, 210], fill=(110, 75, 45))
    d.chord([130, 120, 350, 250], 0, 180, fill=(200, 200, 215), outline=(120, 120, 140))
    for x, y in ((180, 180), (225, 172), (270, 178), (300, 184)):
        draw_apple(d, x, y, 20)
    d.line([(128, 185), (352, 185)], fill=(120, 120, 140), width=2)
    return save_png(img, "cvqa_fruit_bowl.png")


# ---------------------------------------------------------------------------------------
# C-VQA synthetic: polygons and flowers, circles and dots
# ---------------------------------------------------------------------------------------

POLY_COLORS = {"red": (220, 60, 60), "yellow": (235, 200, 40), "purple": (150, 80, 190),
               "blue": (60, 110, 210), "green": (70, 170, 90)}


def draw_flower(d, x, y, r=7):
    for k in range(5):
        a = 2 * math.pi * k / 5
        px, py = x + r * 0.8 * math.cos(a), y + r * 0.8 * math.sin(a)
        d.ellipse([px - r * 0.55, py - r * 0.55, px + r * 0.55, py + r * 0.55],
                  fill=(250, 250, 250), outline=(120, 120, 120))
    d.ellipse([x - r * 0.4, y - r * 0.4, x + r * 0.4, y + r * 0.4], fill=(240, 170, 30))


def point_in_poly(x, y, poly):
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xi:
                inside = not inside
    return inside


def dist_to_poly_edge(x, y, poly):
    best = 1e9
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best


def polygons_and_flowers(name, seed, colors, inside_counts, outside):
    """Draw one polygon per colour in `colors` (several polygons may share a colour) with
    inside_counts[i] flowers inside polygon i and `outside` flowers outside all of them."""
    rng = random.Random(seed)
    img, d = new_canvas((245, 245, 240))
    cells = [(20 + (i % 3) * 150, 20 + (i // 3) * 150) for i in range(6)]
    rng.shuffle(cells)
    polys = []
    for i, col in enumerate(colors):
        cx0, cy0 = cells[i]
        cx, cy = cx0 + 70, cy0 + 65
        k = rng.choice([3, 4, 5, 6])
        rad = 58 + rng.uniform(0, 8)
        rot = rng.uniform(0, 2 * math.pi)
        poly = [(cx + rad * math.cos(rot + 2 * math.pi * j / k),
                 cy + rad * 0.95 * math.sin(rot + 2 * math.pi * j / k)) for j in range(k)]
        polys.append(poly)
        d.polygon(poly, fill=tuple(min(255, c + 40) for c in POLY_COLORS[col]),
                  outline=POLY_COLORS[col])
        d.line(poly + [poly[0]], fill=POLY_COLORS[col], width=3)
    placed = []

    def free(x, y):
        return all(math.hypot(x - a, y - b) > 18 for a, b in placed)

    for i, n in enumerate(inside_counts):
        poly = polys[i]
        got = 0
        while got < n:
            x, y = rng.uniform(10, W - 10), rng.uniform(10, H - 10)
            if point_in_poly(x, y, poly) and dist_to_poly_edge(x, y, poly) > 10 and free(x, y):
                placed.append((x, y))
                got += 1
    got = 0
    while got < outside:
        x, y = rng.uniform(12, W - 12), rng.uniform(12, H - 12)
        if all(not point_in_poly(x, y, p) and dist_to_poly_edge(x, y, p) > 10 for p in polys) \
                and free(x, y):
            placed.append((x, y))
            got += 1
    for x, y in placed:
        draw_flower(d, x, y)
    return save_png(img, name)


def circles_and_dots(name, seed, counts, layout):
    """Circles at `layout` positions, circle i holding counts[i] dots."""
    rng = random.Random(seed)
    img, d = new_canvas((245, 245, 240))
    for (cx, cy), n in zip(layout, counts):
        r = 56
        d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(60, 60, 60), width=3)
        placed = []
        while len(placed) < n:
            a, rr = rng.uniform(0, 2 * math.pi), math.sqrt(rng.uniform(0, 1)) * (r - 14)
            x, y = cx + rr * math.cos(a), cy + rr * math.sin(a)
            if all(math.hypot(x - px, y - py) > 16 for px, py in placed):
                placed.append((x, y))
        for x, y in placed:
            d.ellipse([x - 6, y - 6, x + 6, y + 6], fill=(40, 40, 40))
    return save_png(img, name)


# ---------------------------------------------------------------------------------------
# The result sets
# ---------------------------------------------------------------------------------------

T0 = "2026-11-20T09:%02d:00Z"


def at(k):
    return T0 % (k % 60)


def write_jsonl(name, items):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="\n") as f:
        for it in items:
            f.write(json.dumps(it, ensure_ascii=False) + "\n")


MODELS = ["gpt-4o", "llava-1.6", "qwen2-vl"]


def chartom_items():
    g7 = chart_g7(False), chart_g7(True)
    g3 = chart_g3(False), chart_g3(True)
    g10 = chart_g10(False), chart_g10(True)
    g5 = chart_g5(False), chart_g5(True)
    g9 = chart_g9(False)[0], chart_g9(True)[0]
    g12 = chart_g12(False), chart_g12(True)
    g14 = chart_g14(False), chart_g14(True)
    parks = G3_PARKS
    districts = ["North", "East", "South", "West", "Central"]
    pairs = [
        # pair, type, images, manipulation, fact (without human answers), human answers
        # (original, manipulated), hmi (original, manipulated), model answers
        # [(fact, mind, justification)] x 2 versions x 3 models
        ("G7_Q1", "line", g7, "truncated y-axis: the axis starts at 240, not 0",
         {"question": "How many times larger was the average monthly grocery bill in 2020 "
                      "than in 2010?", "format": "number", "options": [], "key": 1.2,
          "strategies": {"misled": 6, "skim": 300}},
         ([[1.2, 38], [1.1, 6], [1.25, 5], [1.3, 4], [2, 3], [5, 3], [6, 5], [300, 4]],
          [[1.2, 30], [1.1, 6], [1.3, 6], [2.5, 6], [4, 3], [6, 12], [300, 5]]),
         (0.18, 0.29),
         [[("The bill grew about 1.2 times.", 0.2, "The axis starts at zero-ish and the line "
            "rises gently; little room to mislead."),
           ("It is 6 times larger.", 0.5, "The chart looks normal."),
           ("1.2", 0.15, "Nothing unusual about this chart.")],
          [("About 1.2 times (250 to 300).", 0.35, "The y-axis is truncated at 240, so a 20% "
            "rise looks like a sixfold jump."),
           ("Roughly 6x.", 0.4, "The line goes up steeply."),
           ("300", 0.3, "The axis does not start at zero, which exaggerates the growth.")]]),
        ("G3_Q2", "bar", g3, "truncated y-axis: the bars start at 80",
         {"question": "Rank the parks from most to fewest visitors.", "format": "rank",
          "options": parks, "key": [2, 4, 3, 1]},
         ([[[2, 4, 3, 1], 52], [[2, 4, 1, 3], 6], [[4, 2, 3, 1], 5]],
          [[[2, 4, 3, 1], 40], [[2, 4, 1, 3], 9], [[4, 2, 3, 1], 14]]),
         (0.17, 0.37),
         [[("Riverside > Lakeview > Hilltop > Oak Park", 0.15, "Honest bar chart."),
           ("B, D, C, A", 0.2, "Bars start at zero."),
           ("2, 4, 3, 1", 0.1, "No manipulation.")],
          [("Riverside > Lakeview > Hilltop > Oak Park", 0.4, "Bars start at 80, so the "
            "differences look several times larger than they are."),
           ("Riverside, Hilltop, Lakeview, Oak Park", 0.3, "Some bars are taller."),
           ("B > D > C > A", 0.45, "The baseline is not zero.")]]),
        ("G10_Q2", "line", g10, "dual y-axes with different scales make the two series "
         "look alike",
         {"question": "Which bakery's revenue grew more, in dollars, from 2016 to 2022?",
          "format": "choice", "options": ["Crumb & Co", "Golden Loaf",
                                          "Both grew by about the same amount"], "key": 2},
         ([[2, 55], [3, 8], [1, 5]], [[2, 30], [3, 28], [1, 10]]),
         (0.19, 0.56),
         [[("B", 0.2, "One shared axis; nothing misleading."),
           ("Golden Loaf", 0.25, "Fine."),
           ("Option 2", 0.2, "Looks honest.")],
          [("Golden Loaf grew by $100k, Crumb & Co by $20k: B.", 0.6, "Each line has its own "
            "y-axis, so the lines look parallel although one grew five times more."),
           ("C", 0.3, "Two axes."),
           ("Both about the same", 0.5, "The two lines rise at the same angle, which "
            "suggests equal growth.")]]),
        ("G5_Q1", "line", g5, "inverted y-axis: 0 is at the top, so a rise looks like a fall",
         {"question": "How many bicycle thefts were reported in 2012?", "format": "number",
          "options": [], "key": 760, "strategies": {"misled": 40, "skim": 420}},
         ([[760, 40], [750, 10], [800, 5], [700, 5], [420, 3], [40, 2]],
          [[760, 25], [750, 8], [700, 4], [40, 15], [420, 6], [100, 7]]),
         (0.08, 0.43),
         [[("There were about 760 thefts.", 0.1, "Normal axis."),
           ("760", 0.2, "Nothing."),
           ("Around 750", 0.1, "Honest area chart.")],
          [("760", 0.5, "The y-axis is upside down: thefts rose after the law, but the "
            "area shrinks toward the top."),
           ("About 40 thefts.", 0.3, "Thefts dropped after the law."),
           ("The chart shows roughly 100.", 0.35, "The axis labels are unusual.")]]),
        ("G9_Q3", "scatter", g9, "cherry-picked range: only students with 8-11 hours "
         "of study are shown",
         {"question": "How do exam scores change with more study time?", "format": "choice",
          "options": ["They rise steadily", "They rise, then level off", "They fall",
                      "There is no relation"], "key": 2},
         ([[2, 44], [1, 16], [4, 4]], [[2, 20], [4, 25], [3, 9], [1, 10]]),
         (0.31, 0.69),
         [[("B", 0.3, "All students are shown."),
           ("They rise steadily (A).", 0.3, "Scatter looks fine."),
           ("2", 0.25, "Nothing.")],
          [("They rise, then level off.", 0.65, "Only a narrow 8-11 hour slice is shown; "
            "the full data tells a different story."),
           ("D: no relation", 0.4, "The trend line is flat."),
           ("C", 0.5, "The x-axis is cut to a subset of students, a selection effect.")]]),
        ("G12_Q2", "pie", g12, "3D exploded pie: perspective makes the front slice "
         "(Transport) look largest",
         {"question": "Which category takes the largest share of spending?",
          "format": "choice", "options": ["Rent", "Food", "Transport", "Leisure"], "key": 1},
         ([[1, 60], [2, 6], [3, 2]], [[1, 35], [3, 27], [2, 6]]),
         (0.12, 0.49),
         [[("Rent", 0.1, "Flat pie."),
           ("A", 0.2, "Honest."),
           ("Rent (36%)", 0.1, "No distortion.")],
          [("Rent", 0.55, "The 3D tilt and the pulled-out slice make Transport look "
            "biggest though Rent is larger."),
           ("Transport", 0.3, "The pie is 3D."),
           ("C", 0.4, "It is a 3D pie.")]]),
        ("G14_Q1", "map", g14, "reversed colour scale: the darkest colour means the least "
         "rain",
         {"question": "Rank the districts from most to least rainfall.", "format": "rank",
          "options": districts, "key": [1, 4, 2, 5, 3]},
         ([[[1, 4, 2, 5, 3], 45], [[1, 2, 4, 5, 3], 12], [[3, 5, 2, 4, 1], 3]],
          [[[1, 4, 2, 5, 3], 22], [[3, 5, 2, 4, 1], 30], [[1, 2, 4, 5, 3], 8]]),
         (0.25, 0.63),
         [[("North > West > East > Central > South", 0.25, "Sequential blue scale."),
           ("1, 4, 2, 5, 3", 0.3, "Fine."),
           ("North, East, West, Central, South", 0.2, "Nothing.")],
          [("North > West > East > Central > South", 0.6, "The legend runs from dark for "
            "little rain to pale for a lot, the reverse of what readers expect."),
           ("South > Central > East > West > North", 0.4, "Dark districts are wettest."),
           ("I cannot tell", 0.5, "The colours are confusing.")]]),
    ]
    items = []
    for pair, ctype, imgs, manip, fact, human, hmis, answers in pairs:
        for v in (0, 1):
            f = dict(fact)
            f["human_answers"] = human[v]
            item = {
                "id": "%s_%d" % (pair, v + 1),
                "benchmark": "chartom",
                "image": imgs[v],
                "chart": {"pair": pair, "version": ["original", "manipulated"][v],
                          "type": ctype, "manipulation": manip},
                "fact": f,
                "mind": {"hmi": hmis[v]},
                "responses": [
                    {"model": m, "fact": a[0], "mind": a[1], "justification": a[2]}
                    for m, a in zip(MODELS, answers[v])
                ],
            }
            items.append(item)
    # reviews: alice graded four manipulated charts, bob two (one disagreement), and an
    # override of an automatic FACT grade
    def grade(item_id, who, k, grades, note=None, seconds=None):
        it = next(i for i in items if i["id"] == item_id)
        r = {"at": at(k), "models": grades}
        if note:
            r["note"] = note
        if seconds:
            r["seconds"] = seconds
        it.setdefault("reviews", {})[who] = r
    grade("G7_Q1_2", "alice", 1, {"gpt-4o": {"justification": "identifies"},
                                  "llava-1.6": {"justification": "misses"},
                                  "qwen2-vl": {"justification": "identifies"}}, seconds=41.0)
    grade("G7_Q1_2", "bob", 2, {"gpt-4o": {"justification": "identifies"},
                                "llava-1.6": {"justification": "misses"},
                                "qwen2-vl": {"justification": "partial"}},
          note="qwen names the axis but not the effect", seconds=55.5)
    grade("G3_Q2_2", "alice", 3, {"gpt-4o": {"justification": "identifies"},
                                  "llava-1.6": {"justification": "misses"},
                                  "qwen2-vl": {"justification": "partial"}}, seconds=30.0)
    grade("G5_Q1_2", "alice", 4, {"gpt-4o": {"justification": "identifies"},
                                  "llava-1.6": {"justification": "misses"},
                                  "qwen2-vl": {"justification": "partial"}}, seconds=38.0)
    grade("G5_Q1_2", "bob", 5, {"gpt-4o": {"justification": "identifies"},
                                "llava-1.6": {"justification": "misses"},
                                "qwen2-vl": {"justification": "misses"}}, seconds=47.0)
    grade("G12_Q2_2", "alice", 6, {"qwen2-vl": {"justification": "partial",
                                                "fact_correct": False}},
          note="'C' names Transport, wrong; kept the automatic grade as a check", seconds=25.0)
    grade("G9_Q3_2", "bob", 7, {"qwen2-vl": {"justification": "identifies"}}, seconds=62.0)
    return items


def contexts(base, more, most):
    return {"0": base, "1000": more + " " + base, "2000": most + " " + more + " " + base}


def chartom_qa_items():
    E = [
        ("pp-1", "Pride and Prejudice", "Elizabeth Bennet", "belief",
         contexts("At the Netherfield ball Mr. Darcy remarks that Elizabeth is tolerable, "
                  "but not handsome enough to tempt him.",
                  "Elizabeth has heard Mr. Wickham's account of how Darcy denied him the "
                  "living old Mr. Darcy promised.",
                  "The Bennets of Longbourn have five unmarried daughters; the arrival of "
                  "rich Mr. Bingley and his proud friend Darcy sets the neighbourhood "
                  "talking."),
         "What does Elizabeth believe about Mr. Darcy's character at this point?",
         "She believes he is proud and unjust, having wronged Wickham.",
         ["Elizabeth thinks Darcy is proud", "She believes Wickham's story",
          "She thinks Darcy treated Wickham unjustly"],
         [("Elizabeth sees Darcy as arrogant and believes he cheated Wickham out of his "
           "inheritance.", [1, 2, 3], None),
          ("She thinks Darcy is shy and kind.", [], "Says Darcy seems kind to her")]),
        ("pp-2", "Pride and Prejudice", "Elizabeth Bennet", "emotion",
         contexts("Darcy proposes, speaking of her inferior connections as much as of his "
                  "love.", "Elizabeth has just learnt that Darcy separated Bingley from "
                  "Jane.", "Months of misunderstanding precede the scene at Hunsford."),
         "How does Elizabeth feel when Darcy proposes?",
         "Angry and insulted, and surprised by the proposal.",
         ["anger", "feels insulted by his manner", "surprise"],
         [("She is furious and offended by how he speaks of her family.", [1, 2], "None"),
          ("She is happy and accepts.", [], "Claims she accepts the proposal")]),
        ("emma-1", "Emma", "Emma Woodhouse", "belief",
         contexts("Mr. Elton praises the portrait Emma made of Harriet with great warmth.",
                  "Emma has decided that Harriet should marry Mr. Elton.",
                  "Emma Woodhouse, handsome, clever and rich, enjoys arranging matches in "
                  "Highbury."),
         "What does Emma believe about Mr. Elton's feelings?",
         "She believes he is in love with Harriet, when in fact he courts Emma.",
         ["Emma thinks Elton admires Harriet", "Elton actually admires Emma",
          "Emma misreads his attentions"],
         [("Emma believes Mr. Elton is falling for Harriet.", [1, 3], None),
          ("Emma knows Elton loves her.", "Null", "Says Emma knows the truth")]),
        ("emma-2", "Emma", "Mr. Knightley", "intention",
         contexts("At Box Hill Emma mocks Miss Bates before everyone.",
                  "Knightley has long been Emma's frankest friend.",
                  "Highbury's small society gathers for an outing."),
         "Why does Mr. Knightley speak to Emma after the picnic?",
         "To reprove her for her cruelty to Miss Bates so that she will make amends.",
         ["to reprove Emma", "because Miss Bates was hurt", "hoping she will make amends"],
         [("He wants to scold her for humiliating Miss Bates and hopes she apologises.",
           [1, 2, 3], None),
          ("He intends to propose to her.", [], "Wrong intention")]),
        ("ge-1", "Great Expectations", "Pip", "desire",
         contexts("Pip returns from Satis House ashamed of his coarse hands and boots.",
                  "Estella has called him a common labouring boy.",
                  "Pip, an orphan raised by his sister and Joe the blacksmith, is sent to "
                  "play at Miss Havisham's."),
         "What does Pip want after his visit to Satis House?",
         "To become a gentleman, to be worthy of Estella.",
         ["to be a gentleman", "to win Estella's regard", "to escape the forge"],
         [("Pip longs to rise above the forge and become a gentleman so Estella will "
           "respect him.", [1, 2, 3], None),
          ("He wants to be a blacksmith like Joe.", [], "Contradicts the text")]),
        ("ge-2", "Great Expectations", "Miss Havisham", "intention",
         contexts("Miss Havisham tells Estella to break the boys' hearts.",
                  "She still wears her wedding dress; the clocks are stopped.",
                  "Years ago she was jilted on her wedding day."),
         "What does Miss Havisham intend in raising Estella?",
         "To use her to take revenge on men for her own heartbreak.",
         ["revenge on men", "through Estella", "because she was jilted"],
         [("She raises Estella as a weapon to break men's hearts, avenging her own "
           "jilting.", [1, 2, 3], None),
          ("She wants Estella to marry Pip.", [3], "Misstates her intention")]),
        ("je-1", "Jane Eyre", "Jane Eyre", "emotion",
         contexts("At the altar a stranger declares that Mr. Rochester has a living wife.",
                  "Jane had come to love Rochester deeply.",
                  "Jane, once an unloved orphan, became governess at Thornfield."),
         "How does Jane feel when the marriage is stopped?",
         "Devastated and betrayed, yet resolved to keep her self-respect.",
         ["devastated", "betrayed", "resolve to keep her principles"],
         [("Jane is crushed and feels deceived.", [1, 2], None),
          ("She is relieved.", [], "Wrong emotion")]),
        ("je-2", "Jane Eyre", "Mr. Rochester", "desire",
         contexts("Rochester begs Jane to stay with him in France.",
                  "His marriage to Bertha cannot be dissolved.",
                  "Rochester has hidden his mad wife in the attic."),
         "What does Rochester want from Jane?",
         "He wants her to stay and live with him despite his marriage.",
         ["wants Jane to stay", "despite being married"],
         [("He wants Jane to remain with him as his wife in all but law.", [1, 2], None),
          ("Rochester wants Jane to leave.", [], "Opposite desire")]),
        ("mm-1", "Middlemarch", "Dorothea Brooke", "belief",
         contexts("Dorothea accepts Mr. Casaubon's proposal.",
                  "She imagines his great work will illuminate the world.",
                  "Dorothea longs for a life of purpose."),
         "What does Dorothea believe about Mr. Casaubon?",
         "That he is a great scholar whose work she can help complete.",
         ["believes he is a great scholar", "believes she can help his work",
          "idealises him"],
         [("She thinks he is a brilliant mind and that assisting him will give her life "
           "meaning.", [1, 2, 3], None),
          ("She believes he is dull.", [], "Contradicts the passage")]),
        ("mm-2", "Middlemarch", "Mr. Casaubon", "intention",
         contexts("Casaubon adds a codicil to his will.",
                  "He is jealous of his young cousin Will Ladislaw.",
                  "His health fails as his Key to All Mythologies stalls."),
         "Why does Casaubon add the codicil?",
         "To stop Dorothea from marrying Ladislaw, out of jealousy.",
         ["to prevent marriage to Ladislaw", "jealousy"],
         [("Out of jealousy, to disinherit Dorothea if she marries Will.", [1, 2], None),
          ("To leave money to charity.", [], "Wrong reason")]),
    ]
    items = []
    for k, (iid, book, char, dim, ctx, q, a, pts, resp) in enumerate(E):
        responses = []
        for model, (text, bonus, pen) in zip(["gpt-4o", "llama-3-70b"], resp):
            responses.append({"model": model, "text": text,
                              "judge": {"bonus": bonus, "penalty": pen}})
        items.append({"id": iid, "benchmark": "chartom-qa", "book": book, "character": char,
                      "dimension": dim, "context": ctx, "question": q, "answer": a,
                      "bonus_points": pts, "responses": responses})
    byid = {i["id"]: i for i in items}
    byid["pp-1"]["reviews"] = {
        "alice": {"at": at(10), "models": {"gpt-4o": {"bonus": [1, 2, 3], "penalty": None},
                                           "llama-3-70b": {"bonus": [], "penalty":
                                                           "Says Darcy is kind"}},
                  "seconds": 95.0},
        "bob": {"at": at(11), "models": {"gpt-4o": {"bonus": [1, 2], "penalty": None},
                                         "llama-3-70b": {"bonus": [], "penalty":
                                                         "Contradicts the text"}},
                "seconds": 120.0, "note": "'cheated of his inheritance' overstates point 3"}}
    byid["emma-1"]["reviews"] = {
        "alice": {"at": at(12), "models": {"gpt-4o": {"bonus": [1], "penalty": None},
                                           "llama-3-70b": {"bonus": [2], "penalty":
                                                           "Emma does not know"}},
                  "seconds": 80.0,
                  "note": "judge credits point 3 for gpt-4o; the response does not say it"}}
    byid["ge-2"]["reviews"] = {
        "bob": {"at": at(13), "models": {"gpt-4o": {"bonus": [1, 2, 3], "penalty": None},
                                         "llama-3-70b": {"bonus": [], "penalty":
                                                         "Misstates the intention"}},
                "seconds": 70.0}}
    # one multiple-choice variant
    byid["pp-2"]["choices"] = ["Delighted", "Angry and insulted", "Indifferent"]
    byid["pp-2"]["key"] = 2
    byid["pp-2"]["responses"][0]["choice"] = 2
    byid["pp-2"]["responses"][1]["choice"] = 1
    return items


def chartom_qa_eval_lines(items):
    out = []
    for it in items[:5]:
        r = it["responses"][0]
        out.append({
            "book_name": it["book"], "tom_dimension": it["dimension"],
            "context_0": it["context"]["0"], "context_1000": it["context"]["1000"],
            "context_2000": it["context"]["2000"], "question": it["question"],
            "answer": it["answer"], "bonus_points": it["bonus_points"],
            "misleading_choices": ["a plausible but wrong reading", "another wrong reading"],
            "response": r["text"], "bonus": r["judge"]["bonus"],
            "penalty": r["judge"]["penalty"] if r["judge"]["penalty"] else "None",
        })
    return out


def options_text(opts):
    return " Select the correct answer:" + "  ".join("%s:%s" % (l, v) for l, v in
                                                     zip("ABCD", opts))


def letter_of(opts, value):
    return "ABCD"[opts.index(value)]


def cvqa_items():
    real = [
        # id, group, image, (q, a), (cq, ca), responses (llava, instructblip)
        ("real-00001", "direct", scene_apples(), ("How many apples are on the plate?", "5"),
         ("How many apples would be on the plate if 2 apples were eaten?", "3"),
         [("There are 5 apples.", "If 2 apples were eaten, there would be 3 apples."),
          ("five", "4")]),
        ("real-00002", "direct", scene_street(), ("How many cars are on the street?", "3"),
         ("How many cars would be on the street if 2 more cars parked there?", "5"),
         [("3", "There would be 5 cars."), ("There are two cars.", "If two more came, 4")]),
        ("real-00003", "indirect", scene_birds(), ("How many birds are on the wire?", "4"),
         ("How many wings would be on the wire if one bird flew away?", "6"),
         [("4 birds", "6"), ("There are 4 birds.", "If one flew away, three birds")]),
        ("real-00004", "direct", scene_balloons(), ("How many balloons are there?", "6"),
         ("How many balloons would there be if half of them popped?", "3"),
         [("There are six balloons.", "3"), ("6", "If half popped, 3 balloons remain.")]),
        ("real-00005", "boolean", scene_tv(), ("Is the TV on?", "yes"),
         ("Would the screen be lit if the TV was switched off?", "no"),
         [("Yes, the TV is on.", "No, it would be dark."), ("yes", "The screen is lit.")]),
        ("real-00006", "direct", "images/cvqa_tv.png",
         ("How many people are watching TV?", "2"),
         ("How many people would be watching TV if the cat joined them?", "3"),
         [("2", "3"), ("Two people.", "If the cat joined, 2")]),
        ("real-00007", "boolean", scene_cups(), ("Are all the cups full?", "no"),
         ("Would all the cups be full if the empty cups were filled?", "yes"),
         [("No, two are empty.", "Yes"), ("yes", "no")]),
        ("real-00008", "direct", scene_cats(), ("How many cats are in the room?", "3"),
         ("How many cats would be on the sofa if the cat on the floor jumped onto it?", "3"),
         [("There are 3 cats.", "3 cats would be on the sofa."), ("2", "2")]),
        ("real-00009", "indirect", scene_parking(), ("How many red cars are there?", "2"),
         ("How many wheels would the red cars have if one red car left?", "4"),
         [("Two red cars.", "4"), ("3", "If one left, there would be 8 wheels.")]),
        ("real-00010", "direct", scene_fruit_bowl(), ("How many apples are in the bowl?", "4"),
         ("How many apples would be in the bowl if 3 more apples were added?", "8"),
         [("4", "7"), ("There are four apples.", "If 3 were added, 7 apples.")]),
    ]
    items = []
    for iid, group, img, (q, a), (cq, ca), resp in real:
        items.append({"id": iid, "benchmark": "cvqa", "split": "real", "group": group,
                      "image": img, "original": {"question": q, "answer": a},
                      "counterfactual": {"question": cq, "answer": ca},
                      "responses": [{"model": m, "original": r[0], "counterfactual": r[1]}
                                    for m, r in zip(["llava-1.5", "instructblip"], resp)]})
    synth = [
        # group, picture spec, question pair with correct values, option sets
        ("abs_counting_1", ("poly", 11, ["purple", "yellow"], [4, 3], 5),
         "How many flowers are outside the purple polygons?", 8,
         "How many flowers would be outside the purple polygons if all polygons were purple?",
         5, [8, 7, 10, 5], [3, 5, 7, 9]),
        ("abs_counting_2", ("poly", 12, ["red", "blue", "red"], [2, 4, 3], 2),
         "How many flowers are inside the red polygons?", 5,
         "How many flowers would be inside the red polygons if the blue polygon were red?", 9,
         [6, 5, 4, 9], [9, 7, 11, 5]),
        ("abs_counting_3", ("poly", 13, ["green", "yellow"], [5, 2], 3),
         "How many flowers are inside the polygons?", 7,
         "How many flowers would be inside the polygons if the flowers outside moved in?", 10,
         [7, 8, 5, 3], [12, 10, 7, 9]),
        ("abs_counting_4", ("dots", 14, [3, 5], [(140, 160), (340, 160)]),
         "How many dots are in the circles?", 8,
         "How many dots would be in the circles if the left circle lost 2 dots?", 6,
         [8, 6, 9, 5], [4, 6, 8, 7]),
        ("abs_counting_5", ("dots", 15, [2, 4, 1], [(100, 160), (240, 160), (380, 160)]),
         "How many dots are in the largest group?", 4,
         "How many dots would be in the largest group if the smallest group joined it?", 5,
         [3, 4, 2, 7], [5, 6, 7, 4]),
        ("abs_counting_6", ("poly", 16, ["blue", "purple", "blue"], [1, 3, 2], 4),
         "How many flowers are outside the blue polygons?", 7,
         "How many flowers would be outside the blue polygons if all polygons were blue?", 4,
         [6, 7, 9, 4], [4, 2, 7, 6]),
    ]
    answers = [("C: 8", "B"), ("B", "The answer is A."), ("A: 7", "B: 10"), ("A", "A"),
               ("B", "I think the answer is D"), ("B: 7", "A")]
    for k, (group, spec, q, a, cq, ca, opts, copts) in enumerate(synth):
        name = "synthetic_%06d.png" % (k + 1)
        if spec[0] == "poly":
            img = polygons_and_flowers(name, spec[1], spec[2], spec[3], spec[4])
        else:
            img = circles_and_dots(name, spec[1], spec[2], spec[3])
        item = {"id": "syn-%05d" % (k + 1), "benchmark": "cvqa", "split": "synthetic",
                "group": group, "image": img,
                "original": {"question": q + options_text(opts), "answer": letter_of(opts, a)},
                "counterfactual": {"question": cq + options_text(copts),
                                   "answer": letter_of(copts, ca)},
                "responses": [{"model": "llava-1.5", "original": answers[k][0],
                               "counterfactual": answers[k][1]}]}
        items.append(item)
    byid = {i["id"]: i for i in items}
    byid["real-00001"]["reviews"] = {
        "alice": {"at": at(20), "status": "accept", "image_related": True, "answer_ok": True,
                  "seconds": 6.5},
        "bob": {"at": at(21), "status": "accept", "image_related": True, "answer_ok": True,
                "seconds": 9.0}}
    byid["real-00006"]["reviews"] = {
        "alice": {"at": at(22), "status": "reject", "reason": "ambiguous",
                  "image_related": True, "answer_ok": False, "seconds": 14.0,
                  "note": "is a cat one of the 'people'?"},
        "bob": {"at": at(23), "status": "accept", "image_related": True, "answer_ok": True,
                "seconds": 4.0}}
    byid["real-00010"]["reviews"] = {
        "alice": {"at": at(24), "status": "fix", "image_related": True, "answer_ok": False,
                  "fixed_answer": "7", "reason": "wrong-answer", "seconds": 12.0}}
    byid["syn-00002"]["reviews"] = {
        "bob": {"at": at(25), "status": "accept", "image_related": True, "answer_ok": True,
                "seconds": 7.5}}
    return items


def cvqa_doc(items):
    doc = {"verdict": 1, "title": "C-VQA sample in the JSON document form",
           "run": {"date": "2026-11-20", "temperature": "@@T@@", "max_tokens": "@@M@@"},
           "items": items[:3]}
    text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    # number spellings that must survive a save
    return text.replace('"@@T@@"', "1.0").replace('"@@M@@"', "1e3")


def generic_items():
    return [
        {"id": "mmlu-1", "benchmark": "mmlu", "subject": "astronomy",
         "question": "Which planet has the shortest year?",
         "choices": ["Mercury", "Venus", "Mars", "Jupiter"], "key": 1,
         "responses": [{"model": "gpt-4o", "text": "Mercury"}]},
        {"id": "mmlu-2", "benchmark": "mmlu", "subject": "chemistry",
         "question": "What is the chemical symbol for sodium?",
         "choices": ["S", "Na", "So", "Sd"], "key": 2,
         "responses": [{"model": "gpt-4o", "text": "So"}],
         "reviews": {"alice": {"at": at(30), "verdict": "fail", "note": "wrong symbol"}}},
        {"id": "gsm-1", "benchmark": "gsm8k",
         "question": "A baker has 12 rolls and sells 5. How many are left?",
         "answer": "7", "responses": [{"model": "gpt-4o", "text": "12 - 5 = 7 rolls."}]},
    ]


def import_examples(cv_items, chartom):
    d = os.path.join(HERE, "import")
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    head = ["img_path", "query", "answer", "new query", "new answer", "type"]
    real = [i for i in cv_items if i["split"] == "real"][:6]
    rows = [[os.path.basename(i["image"]), i["original"]["question"],
             i["original"]["answer"], i["counterfactual"]["question"],
             i["counterfactual"]["answer"], i["group"]] for i in real]
    with open(os.path.join(d, "questions.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head)
        w.writerows(rows)
    with open(os.path.join(d, "tinyvlm_responses.csv"), "w", newline="",
              encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(head + ["response", "new_response"])
        for r, i in zip(rows, real):
            w.writerow(r + [i["responses"][0]["original"], i["responses"][0]["counterfactual"]])
    # the CHARTOM authors' folder layout, for two pairs
    cf = os.path.join(d, "chartom-folder")
    for sub in ("FACT_questions", "chart_images"):
        os.makedirs(os.path.join(cf, sub))
    keys, manips = [], []
    for it in chartom:
        if it["chart"]["pair"] not in ("G7_Q1", "G10_Q2"):
            continue
        cid = it["id"]
        fact = it["fact"]
        lines = [fact["question"]]
        lines += ["%s. %s" % ("ABCDE"[k], o) for k, o in enumerate(fact["options"])]
        with open(os.path.join(cf, "FACT_questions", cid + ".txt"), "w", encoding="utf-8",
                  newline="\n") as f:
            f.write("\n".join(lines) + "\n")
        kind = {"number": "free text", "choice": "multiple choice", "rank": "rank"}
        key = fact["key"] if fact["format"] == "number" else "ABCDE"[fact["key"] - 1]
        keys.append([cid, kind[fact["format"]], key])
        manips.append([cid, it["chart"]["type"], it["chart"]["manipulation"]
                       if it["chart"]["version"] == "manipulated" else ""])
        shutil.copy(os.path.join(HERE, it["image"]), os.path.join(cf, "chart_images",
                                                                  cid + ".png"))
    for name, hdr, rows_ in (("FACT_answer_keys.csv", ["chart id", "answer type", "answer"],
                              keys),
                             ("chart_manipulations.csv",
                              ["chart id", "chart type", "planted manipulation"], manips)):
        with open(os.path.join(cf, name), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(hdr)
            w.writerows(rows_)
    with open(os.path.join(d, "chartom-answers.jsonl"), "w", encoding="utf-8",
              newline="\n") as f:
        for it in chartom:
            if it["chart"]["pair"] in ("G7_Q1", "G10_Q2"):
                r = it["responses"][0]
                f.write(json.dumps({"id": it["id"], "model": r["model"], "fact": r["fact"],
                                    "mind": r["mind"], "justification": r["justification"]},
                                   ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------------------
# Checks of what was written
# ---------------------------------------------------------------------------------------

def hmi(key, strategies, answers):
    above = [s for s in strategies if s > key]
    below = [s for s in strategies if s < key]
    hi = math.sqrt(key * min(above)) if above else math.inf
    lo = math.sqrt(key * max(below)) if below else -math.inf
    n = sum(c for _, c in answers)
    bad = sum(c for a, c in answers if not (lo < float(a) < hi))
    return bad, n


def check(sets):
    ok = True
    for name, items in sets.items():
        ids = [i.get("id") for i in items if "id" in i]
        if len(ids) != len(set(ids)):
            print("duplicate ids in", name)
            ok = False
        for it in items:
            img = it.get("image")
            if img:
                Image.open(os.path.join(HERE, img)).verify()
            if it.get("benchmark") == "cvqa":
                for k in ("split", "group", "original", "counterfactual"):
                    assert k in it, (name, it["id"], k)
            if it.get("benchmark") == "chartom":
                for k in ("chart", "fact", "mind"):
                    assert k in it, (name, it["id"], k)
    g7 = {i["id"]: i for i in sets["chartom.jsonl"]}
    for cid, want in (("G7_Q1_1", (12, 68)), ("G7_Q1_2", (20, 68))):
        f = g7[cid]["fact"]
        got = hmi(f["key"], [f["strategies"]["misled"], f["strategies"]["skim"]],
                  f["human_answers"])
        if got != want:
            print("HMI of", cid, "is", got, "not", want)
            ok = False
    g5 = {i["id"]: i for i in sets["chartom.jsonl"]}
    for cid in ("G5_Q1_1", "G5_Q1_2"):
        f = g5[cid]["fact"]
        bad, n = hmi(f["key"], [f["strategies"]["misled"], f["strategies"]["skim"]],
                     f["human_answers"])
        assert abs(bad / n - g5[cid]["mind"]["hmi"]) < 0.005, (cid, bad, n)
    return ok


def copy_for_tests():
    """The tests read a copy of the sets (tests/fixtures/samples), not these: the README's
    first command lets the reviewer grade them. .ci/run checks the copy is the same."""
    import glob
    import shutil
    dest = os.path.join(HERE, "..", "tests", "fixtures", "samples")
    for f in glob.glob(os.path.join(HERE, "*.json*")) + glob.glob(
            os.path.join(HERE, "lm-eval", "*", "*.jsonl")):
        to = os.path.join(dest, os.path.relpath(f, HERE))
        os.makedirs(os.path.dirname(to), exist_ok=True)
        shutil.copyfile(f, to)


def main():
    random.seed(0)
    chartom = chartom_items()
    write_jsonl("chartom.jsonl", chartom)
    qa = chartom_qa_items()
    write_jsonl("chartom-qa.jsonl", qa)
    write_jsonl("chartom-qa-eval.jsonl", chartom_qa_eval_lines(qa))
    cv = cvqa_items()
    write_jsonl("cvqa.jsonl", cv)
    with open(os.path.join(HERE, "cvqa-doc.json"), "w", encoding="utf-8", newline="\n") as f:
        f.write(cvqa_doc(cv))
    write_jsonl("generic.jsonl", generic_items())
    import_examples(cv, chartom)
    import make_long_context
    make_long_context.write()
    make_long_context.write_checklist()
    copy_for_tests()
    ok = check({"chartom.jsonl": chartom, "chartom-qa.jsonl": qa, "cvqa.jsonl": cv})
    print("sample data written%s" % ("" if ok else " WITH PROBLEMS"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
