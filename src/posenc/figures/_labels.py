"""The figures' words in Chinese: one table, English label to Chinese label.

The Chinese edition draws every figure with the same builder as the English one
(``posenc.figures.build(name, language="zh_CN")``); the words it shows are then looked up here
and replaced: titles, axis and colour-bar labels, legend entries, annotations and fixed tick
labels of the static figures, and the legend names, axis titles, slider prefixes, menu labels
and description (the ``aria-label``) of the interactive ones. Mathematics (``$...$``) is copied
into the Chinese label unchanged. The terms are the Chinese edition's
(``locale/zh_CN/glossary.md``).

A key is either an exact label, or a template for labels a builder formats from numbers: its
``{0}``, ``{1}``, ... stand for any text, copied into the Chinese label where the value puts
the same ``{n}``. An exact key wins over a template, and a longer template over a shorter one.
A label that no key matches is left as it is; tests/test_figures_zh.py finds every English word
left in a Chinese figure, and every key that no figure uses.
"""

from __future__ import annotations

import re
from functools import cache

# Chinese labels of the static figures (matplotlib: mathtext between dollars)
STATIC = {
    # chapter 1's toy sentences stay in English, as the caption and alt text keep them: their
    # words are the toy model's vocabulary (the tick labels A, hit, B), not labels
    '"A hit B"': "“A hit B”",
    '"B hit A", reordered': "“B hit A”，重新排序",
    "$\\langle p_m, p_n\\rangle$, random table": "$\\langle p_m, p_n\\rangle$，随机表",
    "$\\theta_i$ uniform random in $[0, \\pi)$": "$\\theta_i$ 在 $[0, \\pi)$ 上均匀随机",
    "$\\tilde f$ minus its second-order expansion (slope {0})": (
        "$\\tilde f$ 减去其二阶展开（斜率 {0}）"
    ),
    "{0}: RMS model $\\sqrt{\\nu^*/d}$": "{0}：均方根模型 $\\sqrt{\\nu^*/d}$",
    "$q = k$ in the slowest pair": "$q = k$ 位于最慢的频率对",
    "$q = k$ spread evenly ($S_d$)": "$q = k$ 均匀分布（$S_d$）",
    "$x$  (small $x$)": "$x$（小 $x$）",
    "{0} heads": "{0} 个头",
    "32 pairs, $\\theta_i = b^{-2i/d}$": "32 个频率对，$\\theta_i = b^{-2i/d}$",
    # the headings of stacked panels in a drawing for phones (figures.PLACES), the words of the
    # Chinese captions ("左：…右：…")
    "Left": "左",
    "Middle": "中",
    "Right": "右",
    "Im $p_m$": "虚部 $p_m$",
    "Re $p_m$": "实部 $p_m$",
    "NTK, evaluation": "NTK，评估",
    "NTK-aware base": "NTK-aware 底数",
    "PE(m)$_{10}$": "位置编码 PE(m)$_{10}$",
    "PI, evaluation": "PI，评估",
    "Position Interpolation": "位置内插",
    "RoPE, {0}, NTK-aware base": "RoPE，{0}，NTK-aware 底数",
    "RoPE, {0}, Position Interpolation": "RoPE，{0}，位置内插",
    "RoPE, {0}, as trained": "RoPE，{0}，按训练时",
    "RoPE, {0}": "RoPE，{0}",
    "Sandwich bias $/\\,(d/2)$": "Sandwich 偏置 $/\\,(d/2)$",
    "T5 bias": "T5 偏置",
    "T5 bias $b(n - m)$": "T5 偏置 $b(n - m)$",
    "YaRN, the code's ramp": "YaRN，代码中的斜坡",
    "YaRN, the paper's ramp": "YaRN，论文中的斜坡",
    "absolute error": "绝对误差",
    "absolute part": "绝对部分",
    "accuracy": "准确率",
    "accuracy at length 512": "长度 512 处的准确率",
    "admissible": "可接受",
    "angles seen in training": "训练中见过的角度",
    "b = {0}, wavelength {1}": "b = {0}，波长 {1}",
    "base $b$ ($\\times 10^4$)": "底数 $b$（$\\times 10^4$）",
    "base b": "底数 b",
    "bias": "偏置",
    "bidirectional": "双向",
    "bucket": "桶",
    "chapter 5: $I_b(x)$": "第 5 章：$I_b(x)$",
    "column": "列",
    "continuum": "连续极限",
    "coordinate": "坐标",
    "coordinate $j$": "坐标 $j$",
    "coordinate {0}: {1} at {2} cycles": "坐标 {0}：{2} 个周期处占 {1}",
    "coordinate {0}\n{1} at {2} cycles": "坐标 {0}\n{2} 个周期处占 {1}",
    "coordinate j": "坐标 j",
    "coordinate j\nhalves: sin, …, sin, cos, …, cos": "坐标 j\n分半布局：sin, …, sin, cos, …, cos",
    "coordinate j\ninterleaved: sin, cos, sin, cos, …": "坐标 j\n交错布局：sin, cos, sin, cos, …",
    "halves: sin, …, sin, cos, …, cos": "分半布局：sin, …, sin, cos, …, cos",
    "interleaved: sin, cos, sin, cos, …": "交错布局：sin, cos, sin, cos, …",
    "cos (odd j)": "cos（奇数 j）",
    "cos(tω)  (coordinate 2i+1)": "cos(tω)（坐标 2i+1）",
    "cosine": "余弦",
    "density": "密度",
    "difference": "差",
    "distance $x = m - n$": "距离 $x = m - n$",
    "distance $x = m - n$ (log scale)": "距离 $x = m - n$（对数坐标）",
    "distance $x$": "距离 $x$",
    "distance $x$ (log scale)": "距离 $x$（对数坐标）",
    "distance from query to key": "query 到 key 的距离",
    "distance x": "距离 x",
    "distance x = m − n": "距离 x = m − n",
    "distance x = |m − n|": "距离 x = |m − n|",
    "entries": "元素",
    "entry of $M_k$": "$M_k$ 的元素",
    "evaluation length": "评估长度",
    "evaluation, $x < 16384$": "评估，$x < 16384$",
    "expected score $/\\,d$": "期望分数 $/\\,d$",
    "exponent $\\alpha$ of $\\theta(\\nu) = \\nu^\\alpha$": (
        "$\\theta(\\nu) = \\nu^\\alpha$ 的指数 $\\alpha$"
    ),
    "finite sum, d = {0}": "有限和，d = {0}",
    "first coordinate of the pair": "坐标对的第一个坐标",
    "first zero / b": "第一个零点 / b",
    "fraction of variance explained": "解释的方差比例",
    "fraction of variance\nexplained": "解释的方差比例",
    "frequency (cycles per 512 positions)": "频率（每 512 个位置的周期数）",
    "frequency index $i$": "频率下标 $i$",
    "frequency index i": "频率下标 i",
    "head {0} of {1}, slope {2}": "第 {0} 个头（共 {1} 个），斜率 {2}",
    "head h (reference order)": "头 h（参考实现的顺序）",
    "imaginary part": "虚部",
    "integer positions": "整数位置",
    "integral": "积分",
    "integral $\\int_0^1 \\cos(x\\, b^{-\\nu})\\, d\\nu$": (
        "积分 $\\int_0^1 \\cos(x\\, b^{-\\nu})\\, d\\nu$"
    ),
    "integral, $d \\to \\infty$": "积分，$d \\to \\infty$",
    "k strongest frequencies": "最强的 k 个频率",
    "key position n": "key 位置 n",
    "largest angle $(L-1)\\theta_i$ (rad)": "最大角度 $(L-1)\\theta_i$（弧度）",
    "largest angle (rad)": "最大角度（弧度）",
    "last bucket begins": "最后一个桶的起点",
    "learned": "可学习",
    "learned, mean": "可学习，平均",
    "learned, positions shuffled": "可学习，位置打乱",
    "learned, shuffled": "可学习，打乱",
    "learned, ± 1 s.d.": "可学习，± 1 个标准差",
    "lowest frequency, $i = d/2 - 1$": "最低频率，$i = d/2 - 1$",
    "m = {0}, n = {1}: angle {2}": "m = {0}，n = {1}：角度 {2}",
    "m − n and m + n": "m − n 与 m + n",
    "m − n only (Toeplitz)": "仅 m − n（Toeplitz）",
    "masked\n(−∞)": "掩码\n(−∞)",
    "mixed difference minus $\\varepsilon^2 p_m^\\top H p_n$ (slope {0})": (
        "混合差分减去 $\\varepsilon^2 p_m^\\top H p_n$（斜率 {0}）"
    ),
    "new angles at evaluation": "评估时的新角度",
    "no position vectors\nquery": "无位置向量\nquery",
    "no position\nvectors\nquery": "无位置向量\nquery",
    "norm": "范数",
    "normalised inner product": "归一化内积",
    "normalised inner product, $b = 10^4$": "归一化内积，$b = 10^4$",
    "normalised score or bias": "归一化分数或偏置",
    "off-diagonal strength $s$": "非对角强度 $s$",
    "offset |m − n|": "偏移 |m − n|",
    "one full turn, $2\\pi$": "整整一圈，$2\\pi$",
    "one pair, $\\theta = 0.1$": "一个频率对，$\\theta = 0.1$",
    "original, training": "原始，训练",
    "pair index $i$": "频率对下标 $i$",
    "pale: sum; line: integral": "浅色：求和；实线：积分",
    "paper, $2\\pi b^{2i/d}$": "论文，$2\\pi b^{2i/d}$",
    "position $m$": "位置 $m$",
    "position $n$": "位置 $n$",
    "position $n$  ($s = 0.5$)": "位置 $n$（$s = 0.5$）",
    "position $t$": "位置 $t$",
    "position embeddings: coordinate": "位置嵌入：坐标",
    "position m": "位置 m",
    "position n": "位置 n",
    "position of the query": "query 的位置",
    "position t": "位置 t",
    "positions": "位置",
    "positions $m/4$ (interpolated)": "位置 $m/4$（内插）",
    "positions, random, N = 512": "位置，随机，N = 512",
    "positions, trained": "位置，训练后",
    "query position m": "query 位置 m",
    "random $\\theta_i$, $d = 64$": "随机 $\\theta_i$，$d = 64$",
    "random walk": "随机游走",
    "rank / number of heads (sorted)": "排名 / 头数（排序后）",
    "real part": "实部",
    "real part (decay_sum)": "实部（decay_sum）",
    "recall": "召回",
    "recall\nmean attention": "召回\n平均注意力",
    "relative distance $x$": "相对距离 $x$",
    "relative distance x": "相对距离 x",
    "relative distance x (log scale)": "相对距离 x（对数坐标）",
    "relative distance x = m − n": "相对距离 x = m − n",
    "relative part": "相对部分",
    "relative position key − query": "相对位置 key − query",
    "row": "行",
    "scale $\\varepsilon$ of the position vectors": "位置向量的尺度 $\\varepsilon$",
    "score $/\\,d$: mean $\\pm$ one sd": "分数 $/\\,d$：均值 $\\pm$ 一个标准差",
    "second coordinate": "第二个坐标",
    "share of energy": "能量占比",
    "sin (even j)": "sin（偶数 j）",
    "sin(tω)  (coordinate 2i)": "sin(tω)（坐标 2i）",
    "sinusoidal": "正弦",
    "sinusoidal, d = {0}": "正弦，d = {0}",
    "slope": "斜率",
    "slope $s_h$": "斜率 $s_h$",
    "slope 3 (guide)": "斜率 3（参考线）",
    "small $x$: $1 - x^2(1-b^{-2})\\,/\\,(4\\ln b)$": (
        "小 $x$：$1 - x^2(1-b^{-2})\\,/\\,(4\\ln b)$"
    ),
    "sum $(2/d)\\sum_i \\cos(x\\theta_i)$, $d = 128$, integer $x$": (
        "求和 $(2/d)\\sum_i \\cos(x\\theta_i)$，$d = 128$，整数 $x$"
    ),
    "sum, d = {0}": "求和，d = {0}",
    "tensor2tensor / paper": "tensor2tensor / 论文",
    "the same, p-RoPE $p = 0.75$": "同上，p-RoPE $p = 0.75$",
    "the token 8 back": "前 8 位的 token",
    "the token 8 back\nmean attention": "前 8 位的 token\n平均注意力",
    "training range": "训练范围",
    "training, $x < 4096$": "训练，$x < 4096$",
    "unidirectional": "单向",
    "value": "值",
    "value at the first trough": "第一个波谷处的值",
    "wavelength (positions)": "波长（位置数）",
    "white noise": "白噪声",
    "with position vectors\nquery": "有位置向量\nquery",
    "with position\nvectors\nquery": "有位置向量\nquery",
    "word embeddings: coordinate": "词嵌入：坐标",
    "words": "词",
    "words, 5–95 %": "词，5–95 %",
    "words, median": "词，中位数",
    "words, random, N = 30522": "词，随机，N = 30522",
    "words, trained": "词，训练后",
    "x (integer distances)": "x（整数距离）",
    "x (log scale)": "x（对数坐标）",
    "xPos's factor alone": "仅 xPos 的因子",
    "xPos, $q = k$": "xPos，$q = k$",
    "zero of Ci, {0}": "Ci 的零点，{0}",
    "zoom (right)": "放大（右图）",
    "|correlation|": "|相关系数|",
    "|off-diagonal| / mean diagonal": "|非对角| / 对角均值",
}

# Chinese labels of the interactive figures (Plotly: HTML tags, Unicode mathematics) and their
# descriptions, the aria-label that screen readers speak
INTERACTIVE = {
    "continuum": "连续极限",
    "fast pairs, xθᵢ > 1": "快频率对，xθᵢ > 1",
    "slow pairs, xθᵢ ≤ 1": "慢频率对，xθᵢ ≤ 1",
    "mean of the arrows": "箭头的均值",
    "mean: %{x:.3f} + %{y:.3f} i<extra></extra>": "均值：%{x:.3f} + %{y:.3f} i<extra></extra>",
    "integral I<sub>b</sub>(x)": "积分 I<sub>b</sub>(x)",
    "sum (2/d) Σᵢ cos(xθᵢ), d = {0}": "求和 (2/d) Σᵢ cos(xθᵢ)，d = {0}",
    "ν<sup>α</sup>, sum": "ν<sup>α</sup>，求和",
    "base b = ": "底数 b = ",
    "distance x = ": "距离 x = ",
    "exponent α = ": "指数 α = ",
    "distance x (log scale)": "距离 x（对数坐标）",
    "real part": "实部",
    "imaginary part": "虚部",
    "relative distance x": "相对距离 x",
    "normalised inner product": "归一化内积",
    (
        "Interactive phasor diagram: the d/2 unit arrows at angles x times theta_i drawn from "
        "the origin inside the unit circle, slow ones (x theta_i at most 1) in blue and fast "
        "ones in grey, and their mean as a thick red arrow. A slider chooses the distance x "
        "from 1 to 10^4 and a menu the dimension d (32, 64 or 128), with base 10^4; hovering "
        "the red arrow's tip reads out the mean."
    ): (
        "交互相量图：单位圆内从原点出发的 d/2 个单位箭头，角度为 x 乘以 theta_i，慢的"
        "（x theta_i 不超过 1）为蓝色，快的为灰色，它们的均值为一支粗红箭头。滑块选择距离 x"
        "（1 到 10^4），菜单选择维度 d（32、64 或 128），底数为 10^4；悬停在红箭头尖端可读出均值。"
    ),
    (
        "Interactive line chart of the decay integral I_b(x) and the normalised finite sum "
        "(2/d) sum_i cos(x theta_i) against the distance x on a logarithmic axis from 1 to "
        "100000. A slider chooses the base b from 100 to 10^6 and a menu the dimension d from "
        "32 to 512; hovering reads out both values."
    ): (
        "交互折线图：衰减积分 I_b(x) 与归一化有限和 (2/d) sum_i cos(x theta_i) 随距离 x 的变化，"
        "x 取对数坐标，从 1 到 100000。滑块选择底数 b（100 到 10^6），菜单选择维度 d"
        "（32 到 512）；悬停可读出两者的值。"
    ),
    (
        "Interactive line chart of the continuum inner product J(x) of frequency schedules "
        "against the distance x from 0 to 60: the exponential schedules b^(-nu) for b = 10, "
        "100, 1000, 10^4 and 10^6 and the linear schedule nu as fixed curves, and the power "
        "schedule nu^alpha with its finite sum, where a slider sets alpha from 0.3 to 2 and a "
        "menu the dimension d of the sum. Legend entries hide or show curves; hovering reads "
        "out the values."
    ): (
        "交互折线图：各频率方案的连续内积 J(x) 随距离 x（0 到 60）的变化。指数方案 b^(-nu)"
        "（b = 10、100、1000、10^4 和 10^6）与线性方案 nu 为固定曲线；幂方案 nu^alpha 及其有限和"
        "由滑块设定 alpha（0.3 到 2），由菜单选择求和的维度 d。点击图例可隐藏或显示曲线；"
        "悬停可读出数值。"
    ),
    (
        "Interactive line chart of RoFormer's relative upper bound (1/(d/2)) sum_j |S_j(x)| "
        "against the distance x from 0 to 256, with its continuum approximation as a dashed "
        "line. A slider chooses the base b from 100 to 10^6 and a menu the dimension d from "
        "32 to 512; hovering reads out both values."
    ): (
        "交互折线图：RoFormer 的相对上界 (1/(d/2)) sum_j |S_j(x)| 随距离 x（0 到 256）的变化，"
        "虚线为其连续近似。滑块选择底数 b（100 到 10^6），菜单选择维度 d（32 到 512）；"
        "悬停可读出两者的值。"
    ),
}

LANGUAGES = ("en", "zh_CN")

PLACEHOLDER = re.compile(r"\{(\d)\}")


def check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {LANGUAGES}, got {language!r}")


@cache
def _templates(kind: str) -> list[tuple[re.Pattern, str, str]]:
    """The keys of ``kind``'s table that hold placeholders, as patterns, longest first."""
    table = STATIC if kind == "static" else INTERACTIVE
    found = []
    for key, value in table.items():
        if not PLACEHOLDER.search(key):
            continue
        pattern = "".join(
            f"(?P<g{part}>.+?)" if i % 2 else re.escape(part)
            for i, part in enumerate(PLACEHOLDER.split(key))
        )
        found.append((re.compile(pattern + r"\Z", re.S), key, value))
    found.sort(key=lambda t: -len(PLACEHOLDER.sub("", t[1])))
    return found


# the keys looked up and found so far in this process (tests: every key is used)
USED: set[tuple[str, str]] = set()


def translate(text: str, kind: str = "static") -> str:
    """``text`` in Chinese: its entry in the table of ``kind`` ("static" or "interactive"),
    or ``text`` itself if it has none."""
    table = STATIC if kind == "static" else INTERACTIVE
    if text in table:
        USED.add((kind, text))
        return table[text]
    for pattern, key, value in _templates(kind):
        match = pattern.match(text)
        if match:
            USED.add((kind, key))
            return _filled(value, match.groupdict())
    return text


def _filled(value: str, groups: dict[str, str]) -> str:
    """``value`` with each ``{n}`` replaced by the text its key's ``{n}`` matched."""
    return PLACEHOLDER.sub(lambda m: groups[f"g{m.group(1)}"], value)
