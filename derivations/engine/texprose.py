"""Prose of the registry typeset for LaTeX: the mathematics in it set as mathematics.

Titles, notes, check details, erratum explanations, readings and findings are English with
mathematics written in ASCII: by hand (``e^{-r/b}/(2b)``, ``|ab| < 1``, ``tau -> -oo``,
``q in (0, 1)``) or printed by SymPy (``2*exp(1/2)*sinh(3/4)``, ``Eq(log(2), oo)``).
:func:`prose` finds the mathematical fragments and typesets them in ``$...$``; English words stay
text.  It is deliberately conservative: a fragment becomes mathematics when it holds an operator,
a symbol name (a single letter, a Greek name, ``oo``, a subscripted name) or a function applied to
arguments; a bracket holding English words stays text and only the fragments inside it are set.
A fragment in SymPy's own syntax (``**``, ``*`` between operands, ``Abs(``, ``Piecewise(``,
``exp(``) is parsed back with SymPy and printed by :func:`sympy.latex` (when it does not parse, as
for a hand-written formula, it is typeset token by token); one too long for a line of text is set
as a display, broken by :mod:`.texlayout`.  Whatever the text, the result is valid LaTeX: a second
subscript or a function name without its argument is typeset, not left to fail.

Names of claims, errata, readings, findings and cited results in the text become links
(``links`` maps each name to its anchor).  :func:`raw_sympy` finds what is left of ASCII
mathematics outside math mode in a finished document (the report's tests use it).
"""
from __future__ import annotations

import re
import unicodedata
import warnings
from dataclasses import dataclass, field
from typing import Mapping

import sympy as sp

from . import texlayout
from .render import latex
from .texwidth import tex_width

# -- plain text ----------------------------------------------------------------------------------
_TEX_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "_": r"\_", "^": r"\^{}",
                "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "~": r"\~{}", "<": r"\textless{}",
                ">": r"\textgreater{}", "|": r"\textbar{}"}

# Characters outside ASCII (mostly OCR glyphs quoted in readings) in a form pdflatex sets with the
# base fonts, all of them Type 1
_TEX_UNICODE = {"\u2014": "---", "\u2013": "--", "\u2018": "`", "\u2019": "'", "\u201c": "``", "\u201d": "''",
                "\u00a7": r"$\S$", "\u00a9": "[copyright sign]", "\u00a3": r"$\pounds$",
                "\u20ac": r"[euro sign]", "\ufb01": "fi", "\ufb02": "fl", "\u00a2": r"[cent sign]"}


# accents of the Latin letters of the sources (French: Th\u00e9or\u00e8me, D\u00e9finition), as TeX accent commands
_TEX_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~", "\u0327": "c"}


def _non_ascii(ch: str) -> str:
    if ch in _TEX_UNICODE:
        return _TEX_UNICODE[ch]
    parts = unicodedata.normalize("NFD", ch)
    if len(parts) == 2 and parts[0].isascii() and parts[0].isalpha() and parts[1] in _TEX_ACCENTS:
        return "\\" + _TEX_ACCENTS[parts[1]] + "{" + parts[0] + "}"
    return f"[U+{ord(ch):04X}]"


def tex_escape(text: str) -> str:
    """Text for LaTeX: special characters escaped, accented Latin letters as accent commands, other
    characters outside ASCII transliterated (or shown as their code point), so that the report compiles
    with pdflatex and the base fonts."""
    text = re.sub(r"[\\{}_^&%$#~<>|]", lambda m: _TEX_ESCAPES[m.group()], text)
    return "".join(ch if ord(ch) < 128 else _non_ascii(ch) for ch in text)


def breakable_tt(text: str) -> str:
    """Typewriter text (a name, a file, quoted glyphs) that may break after ``.``, ``_``, ``/``, ``,``
    and spaces."""
    out = tex_escape(text)
    out = re.sub(r"(\.|\\_|/|,|-+|\\\}|\))(?!$)", r"\1\\allowbreak{}", out)
    return r"\texttt{" + out + "}"


# -- vocabulary ------------------------------------------------------------------------------------
GREEK = {g: "\\" + g for g in (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
    "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega", "Gamma", "Delta",
    "Theta", "Lambda", "Xi", "Pi", "Sigma", "Upsilon", "Phi", "Psi", "Omega")}
GREEK.update({"eps": r"\varepsilon", "epsilon": r"\varepsilon"})

# names that are mathematics wherever they stand
_FUNCS = {"exp": r"\exp", "ln": r"\ln", "log": r"\log", "sqrt": r"\operatorname{sqrt}", "sin": r"\sin", "cos": r"\cos",
          "sinh": r"\sinh", "cosh": r"\cosh", "tanh": r"\tanh", "sh": r"\operatorname{sh}", "oo": r"\infty",
          "Var": r"\operatorname{Var}", "Cov": r"\operatorname{Cov}", "card": r"\operatorname{card}",
          "supp": r"\operatorname{supp}", "argmax": r"\operatorname*{argmax}", "argmin": r"\operatorname*{argmin}",
          "lhs": r"\mathrm{lhs}", "rhs": r"\mathrm{rhs}", "obs": r"\mathrm{obs}", "int": r"\int",
          "ell": r"\ell", "Abs": r"\operatorname{Abs}", "Eq": r"\operatorname{Eq}",
          "Piecewise": r"\operatorname{Piecewise}", "floor": r"\operatorname{floor}"}
# names that are mathematics when applied (followed by '(', '_', '^' or a symbol): otherwise English
_APPLIED = {"min": r"\min", "max": r"\max", "sup": r"\sup", "inf": r"\inf", "lim": r"\lim", "sum": r"\sum",
            "prod": r"\prod", "det": r"\det", "sign": r"\operatorname{sign}", "Max": r"\max", "Min": r"\min"}
# short English words (a two-letter word that is not one of these is a product of symbols: ab, aX, dz)
_ENGLISH_SHORT = {
    "a", "A", "I", "am", "an", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it", "me", "my",
    "no", "of", "on", "or", "so", "to", "up", "us", "we", "vs", "ok", "re", "eg", "ie", "In", "On", "If",
    "It", "As", "At", "By", "No", "Of", "Or", "So", "To", "We", "An", "Do", "Be", "Is", "id", "th", "nd",
    "rd", "st", "ed", "al", "pp", "Ch", "Sec", "Thm", "et"}
# Yhat, zbar: a decorated symbol
_DECORATED = r"(?!What$|That$|Chat$)[A-Z]hat|[a-z]bar"   # not the English words
# after "a" or "A", these words are not the noun of an article: "for a in {0, 1}", "A is empty"
_AFTER_SYMBOL = {"in", "with", "and", "or", "is", "are", "of", "for", "to", "then", "has", "gives", "where",
                 "when", "so", "at", "on", "the", "be", "not", "ni", "from", "by", "over", "under", "into", "as",
                 "if", "iff", "than", "which", "that", "can", "must", "lies", "holds", "does", "belongs",
                 "contains", "was", "were", "will", "would", "tends", "stays", "equals"}
# a word after one of these names a part of the document, not a symbol ("Appendix C")
_PART_NAMES = {"Section", "Sections", "Appendix", "Appendices", "Figure", "Figures", "Table", "Case", "Cases",
               "Chapter", "Part", "Lemma", "Theorem", "Corollary", "Proposition", "Result", "Results",
               "Definition", "Remark", "Algorithm", "Step", "Problem", "Thm", "Sec"}

_RELATIONS = {":=": ":=", "==": "=", "=": "=", "!=": r"\ne", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">",
              "->": r"\to", "<-": r"\gets", "=>": r"\Rightarrow", "<=>": r"\Leftrightarrow", "~": r"\sim"}
_BINARIES = {"+": "+", "-": "-", "+-": r"\pm", "-+": r"\mp", "/": "/", "*": r"\,", "|": "|",
             "\\": r"\setminus", "..": r"\dots", "...": r"\dots"}

# signs that a fragment is in SymPy's own syntax
_SYMPY_SYNTAX = re.compile(r"\*\*|[\w)]\*\w|\)\*\(|\b(?:Abs|Eq|Ne|Piecewise|Max|Min|Integral|Sum|Rational|"
                           r"KroneckerDelta|Heaviside|exp|log|sqrt|sinh|cosh)\(")
_PY_FUNCS = {"exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh,
             "sin": sp.sin, "cos": sp.cos, "Abs": sp.Abs, "Max": sp.Max, "Min": sp.Min, "Piecewise": sp.Piecewise,
             "Eq": lambda a, b: sp.Eq(a, b, evaluate=False), "Ne": lambda a, b: sp.Ne(a, b, evaluate=False),
             "E": sp.E, "Integral": sp.Integral, "Sum": sp.Sum, "Rational": sp.Rational,
             "KroneckerDelta": sp.KroneckerDelta, "Heaviside": sp.Heaviside, "oo": sp.oo, "pi": sp.pi,
             "floor": sp.floor, "ceiling": sp.ceiling, "binomial": sp.binomial}

INLINE_MAX = 300.0   # pt: a longer SymPy fragment is set as a display


# -- tokens ----------------------------------------------------------------------------------------
_TOKEN = r"""
 (?P<space>\s+)
|(?P<path>\b[\w.-]+/[\w./-]*\.(?:py|txt|json|tex|ipynb|md|toml)\b)
|(?P<abbr>\b(?:e\.g\.|i\.e\.|cf\.|etc\.|resp\.|vs\.|(?:[A-Za-z]\.){2,}))
|(?P<ref>\b(?:[A-Za-z]\.\d+(?:\.\d+)*|\d+(?:\.\d+){2,})\b)
|(?P<poss>(?:[A-Za-z]{2,}|\d+)'s\b)
|(?P<num>\d{1,3}(?:,\d{3})+(?!\d)|\d+(?:\.\d+)?)
|(?P<word>[A-Za-z]{1,2}\d*'+|[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]*[A-Za-z]\d*)
|(?P<op><=>|:=|==|!=|<=|>=|->|<-|=>|\+-|-\+|\*\*|\.\.\.?|[-+*/^_=<>|~\\])
|(?P<open>[(\[{])
|(?P<close>[)\]}])
|(?P<quote>')
|(?P<punct>[,;:.?!"])
|(?P<other>.)
"""


@dataclass
class Tok:
    kind: str            # space abbr ref num poss word op open close quote punct other name group
    text: str
    role: str = ""       # M math, O operator, N number, E English, P punctuation, S space, T text
    tex: str = ""        # its LaTeX in math mode (M, O, N)
    children: list["Tok"] = field(default_factory=list)   # a group's contents
    close: str = ""      # a group's closing bracket ("" when unclosed)
    script: bool = False  # a group or word that is a super- or subscript


def _tokens(text: str, names: re.Pattern | None) -> list[Tok]:
    pattern = _TOKEN if names is None else r"(?P<name>" + names.pattern + r")|" + _TOKEN
    toks = [Tok(m.lastgroup, m.group()) for m in re.finditer(pattern, text, re.X | re.S)]
    # quotes: opening after a space or bracket, closing before one; a prime otherwise
    out: list[Tok] = []
    quoted = False
    for k, t in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        ends = nxt is None or nxt.kind in ("space", "punct", "close", "quote")
        if t.kind == "word" and t.text.endswith("'") and quoted and ends:
            out.append(Tok("word", t.text[:-1]))
            t = Tok("quote", "'")
        if t.kind == "quote":
            prev = out[-1] if out else None
            if (prev is None or prev.kind in ("space", "open", "punct")) and not ends and not quoted:
                t.kind, quoted = "lquote", True
            elif quoted and ends:
                t.kind, quoted = "rquote", False
            else:
                t.kind = "op"   # a prime after a bracket
        out.append(t)
    return out


def _nest(toks: list[Tok]) -> list[Tok]:
    """Brackets into groups; an unmatched bracket stays a token of text."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack: list[tuple[Tok, list[Tok]]] = []
    top: list[Tok] = []
    cur = top
    for t in toks:
        if t.kind == "open":
            g = Tok("group", t.text)
            stack.append((g, cur))
            cur = g.children
        elif t.kind == "close" and stack and (pairs[stack[-1][0].text] == t.text or _interval(stack[-1][0], t)):
            g, parent = stack.pop()
            g.close = t.text
            parent.append(g)
            cur = parent
        elif t.kind == "close":
            cur.append(Tok("other", t.text))
        else:
            cur.append(t)
    while stack:        # unclosed: the bracket is text, its contents follow it
        g, parent = stack.pop()
        parent.append(Tok("other", g.text))
        parent.extend(g.children)
        cur = parent
    return top


def _interval(g: Tok, close: Tok) -> bool:
    """A half-open interval: [a, b) or (a, b]."""
    return g.text in "([" and close.text in ")]" and any(c.kind == "punct" and c.text == "," for c in g.children)


def _neighbours(seq: list[Tok], k: int) -> tuple[Tok | None, Tok | None, bool, bool]:
    """Previous and next non-space tokens, and whether each touches seq[k] (no space between)."""
    p = k - 1
    while p >= 0 and seq[p].kind == "space":
        p -= 1
    n = k + 1
    while n < len(seq) and seq[n].kind == "space":
        n += 1
    return (seq[p] if p >= 0 else None, seq[n] if n < len(seq) else None, p == k - 1, n == k + 1)


def _mathy(t: Tok | None) -> bool:
    return t is not None and t.role in ("M", "N", "G")


def _word_tex(w: str, script: bool = False) -> str:
    primes = len(w) - len(w.rstrip("'"))
    base = w.rstrip("'")
    m = re.fullmatch(r"([A-Za-z]+?)(\d+)", base)
    if m and not script and (len(m.group(1)) <= 2 or m.group(1) in GREEK):
        tex = _word_tex(m.group(1)) + "_{" + m.group(2) + "}"
    elif base in GREEK:
        tex = GREEK[base]
    elif base in _FUNCS:
        tex = _FUNCS[base]
    elif base in _APPLIED:
        tex = _APPLIED[base]
    elif base[:1] == "d" and base[1:] in GREEK:
        tex = "d" + GREEK[base[1:]]
    elif re.fullmatch(_DECORATED, base):
        tex = "\\" + base[1:] + "{" + base[0] + "}"
    elif (len(base) <= 2 or (script and len(base) <= 3)) and not (len(base) >= 2 and base.isupper()):
        tex = base
    else:
        tex = r"\mathrm{" + base + "}"
    return tex + "'" * primes


def _classify(seq: list[Tok], in_script: bool = False) -> None:
    """Give every token of a sequence (and, recursively, of its groups) a role and its LaTeX."""
    # groups first: whether a group is mathematics depends on its contents
    for k, t in enumerate(seq):
        if t.kind == "group":
            prev = seq[k - 1] if k else None
            t.script = prev is not None and prev.kind == "op" and prev.text in ("^", "_", "**") \
                and t.text in "{("
            _classify(t.children, in_script or t.script)
    # English compounds: word-word, word-number, number-word joined by a hyphen
    k = 0
    while k + 2 < len(seq):
        a, h, b = seq[k], seq[k + 1], seq[k + 2]
        if h.kind == "op" and h.text == "-" and a.kind == "word" and b.kind == "word" and b.text == "hat":
            seq[k:k + 3] = [Tok("word", a.text, role="M", tex=r"\hat{" + _word_tex(a.text) + "}")]
            continue
        english = [x.kind == "poss" or (x.kind == "word" and x.text not in ("a", "A", "I") and _english(x.text))
                   for x in (a, b)]
        if h.kind == "op" and h.text == "-" and a.kind in ("word", "num", "poss") and b.kind in ("word", "num", "poss") \
                and (english[0] and b.kind != "poss" or english[1] and a.kind != "poss"):
            seq[k:k + 3] = [Tok("word", a.text + "-" + b.text, role="E")]
            continue
        k += 1
    for k, t in enumerate(seq):     # a hyphen before an English word: "p(s)-weighted"
        if t.kind == "op" and t.text == "-" and 0 < k < len(seq) - 1 and seq[k - 1].kind != "space" \
                and seq[k + 1].kind == "word" and _english(seq[k + 1].text):
            t.kind, t.role = "other", "T"
    for k, t in enumerate(seq):
        prev, nxt, ptouch, ntouch = _neighbours(seq, k)
        after_script = k and seq[k - 1].kind == "op" and seq[k - 1].text in ("^", "_", "**")
        if t.role:
            continue
        if t.kind == "space":
            t.role = "S"
        elif t.kind in ("abbr", "poss", "ref", "name", "path", "lquote", "rquote", "other"):
            t.role = "T" if t.kind not in ("abbr", "poss") else "E"
        elif t.kind == "punct":
            t.role = "P"
        elif t.kind == "num":
            part = prev is not None and prev.kind == "word" and prev.text in _PART_NAMES
            t.role, t.tex = ("T" if part else "N"), t.text.replace(",", "{,}")
        elif t.kind == "op":
            t.role = "O"
        elif t.kind == "group":
            t.role = "G" if (t.script or in_script or _group_is_math(t)) else "T"
        elif t.kind == "word":
            t.role = "M" if (in_script or after_script or _word_is_math(seq, k, t.text)) else "E"
            if t.role == "M":
                t.tex = _word_tex(t.text, script=bool(in_script or after_script))
    # connectives between mathematical neighbours: in, not in, ni, x (product of sets), u (union)
    for k, t in enumerate(seq):
        if t.kind != "word":
            continue
        prev, nxt, _, _ = _neighbours(seq, k)
        between = _mathy(prev) or (prev is not None and prev.kind == "word" and prev.text in ("a", "A"))
        if t.text in ("in", "ni") and between and (_mathy(nxt) or (nxt is not None and nxt.kind == "group")):
            t.role, t.tex = "O", r"\in" if t.text == "in" else r"\ni"
            if prev is not None and prev.role == "E" and prev.text in ("a", "A"):
                prev.role, prev.tex = "M", prev.text
        elif t.text == "not" and nxt is not None and nxt.text in ("in", "ni") and _mathy(prev):
            j = seq.index(nxt)
            _, after, _, _ = _neighbours(seq, j)
            if _mathy(after):
                t.role, t.tex = "O", r"\notin" if nxt.text == "in" else r"\not\ni"
                nxt.kind, nxt.text, nxt.role, nxt.tex = "space", " ", "S", ""
        elif t.text in ("x", "u") and t.role == "M" and prev is not None and nxt is not None:
            capital = [x is not None and (x.kind == "group" or x.text[:1].isupper()) for x in (prev, nxt)]
            if all(capital) and prev.role in ("M", "G") and nxt.role in ("M", "G"):
                t.role, t.tex = "O", r"\times" if t.text == "x" else r"\cup"


def _english(w: str) -> bool:
    base = w.rstrip("'")
    if base in GREEK or base in _FUNCS or base in _APPLIED or (base[:1] == "d" and base[1:] in GREEK):
        return False
    if base in _ENGLISH_SHORT:
        return True
    m = re.fullmatch(r"([A-Za-z]+)\d+", base)
    if m and (len(m.group(1)) <= 2 or m.group(1) in GREEK):
        return False
    if base.isupper() and len(base) >= 2:
        return True
    return len(base) > 2 and not re.fullmatch(_DECORATED, base)


def _word_is_math(seq: list[Tok], k: int, w: str) -> bool:
    prev, nxt, ptouch, ntouch = _neighbours(seq, k)
    base = w.rstrip("'")
    applied = nxt is not None and ntouch and (nxt.kind == "group" and nxt.text in "({"
                                              or nxt.kind == "op" and nxt.text in ("_", "^"))
    if prev is not None and prev.kind == "word" and prev.text in _PART_NAMES and len(base) <= 2:
        return False
    if base in GREEK or base in _FUNCS:
        return True
    if base in _APPLIED:
        return applied or (nxt is not None and nxt.kind == "word" and not _english(nxt.text))
    if base in ("a", "A"):       # an article is followed by its noun
        return nxt is None or not (nxt.kind in ("word", "poss") and _english(nxt.text)
                                   and nxt.text not in _AFTER_SYMBOL)
    if not _english(base):
        return True
    if base.isupper() and 2 <= len(base) <= 5:       # RSE, DP, SRS next to a relation or applied
        return applied or any(x is not None and x.kind == "op" and x.text in _RELATIONS for x in (prev, nxt)) \
            or (ntouch and nxt is not None and nxt.kind == "op" and nxt.text in ("/", "*"))
    # a word attached to an operator or applied to arguments: Laplace(0, b), RMSE/Y
    return bool(applied or (ptouch and prev is not None and prev.kind == "op" and prev.text in ("^", "_")))


def _group_is_math(g: Tok) -> bool:
    """A bracket is mathematics when everything in it is (no English word, no quoted text)."""
    for t in g.children:
        if t.role in ("E", "T") or (t.role == "P" and t.text not in ",;:."):
            return False
    return True


def _strong(t: Tok) -> bool:
    """A token that makes a fragment mathematics."""
    if t.role == "M":
        return True
    if t.role == "G":
        return any(_strong(c) or c.role == "O" for c in t.children)
    return False


# -- rendering --------------------------------------------------------------------------------------
def _join(parts: list[str]) -> str:
    out = ""
    for p in parts:
        if not p:
            continue
        if re.search(r"\\[A-Za-z]+$", out) and p[:1].isalpha():
            out += " "
        out += p
    return out


def _group_tex(g: Tok, sympy_mode: bool = False) -> str:
    inner = _math_tex(g.children, sympy_mode)
    if g.script and g.text == "{":
        return inner
    opens = {"(": "(", "[": "[", "{": r"\{"}
    closes = {")": ")", "]": "]", "}": r"\}", "": ""}
    return opens[g.text] + inner + closes[g.close]


def _script_arg(seq: list[Tok], k: int, sympy_mode: bool = False) -> tuple[str, int]:
    """The LaTeX of the super/subscript that starts at seq[k], and the index after it."""
    if k >= len(seq):
        return "", k
    t = seq[k]
    if t.kind == "group":
        if t.text in "{(":
            return _math_tex(t.children, sympy_mode), k + 1
        return _group_tex(t, sympy_mode=sympy_mode), k + 1
    if t.kind == "op" and t.text in ("-", "+", "*", "'"):
        sign = {"*": "*", "'": r"{\prime}"}.get(t.text, t.text)
        if k + 1 < len(seq) and seq[k + 1].kind in ("num", "word"):
            nxt = seq[k + 1]
            return sign + (nxt.text if nxt.kind == "num" else _word_tex(nxt.text, script=True)), k + 2
        return sign, k + 1
    if t.kind == "word":
        return _word_tex(t.text, script=True), k + 1
    if t.kind == "num":
        return t.text, k + 1
    return "", k


def _scripts_at_end(tex: str) -> set[str]:
    """The kinds of script (``^``, ``_``) that the last atom of ``tex`` already carries (a prime is a
    superscript)."""
    marks: set[str] = set()
    tex = tex.rstrip()
    while tex:
        if tex.endswith("'"):
            marks.add("^")
            tex = tex[:-1]
            continue
        if not tex.endswith("}"):
            break
        depth, k = 0, len(tex) - 1
        while k >= 0:
            depth += (tex[k] == "}") - (tex[k] == "{")
            if depth == 0:
                break
            k -= 1
        if k <= 0 or tex[k - 1] not in "^_":
            break
        marks.add(tex[k - 1])
        tex = tex[:k - 1]
    return marks


def _script(parts: list[str], mark: str, arg: str) -> None:
    """Append a super- (``^``) or subscript (``_``) to the math being built; a second one of the same
    kind (``x_i_j``, a prime then ``^``) starts afresh on an empty base instead of failing."""
    if parts and re.fullmatch(r"[A-Za-z\\]+'+", parts[-1]) and mark == "^":
        parts[-1] = "{" + parts[-1] + "}"          # x'^2: the primed symbol is the base
    elif mark in _scripts_at_end("".join(parts)):
        parts.append("{}")
    parts.append(mark + "{" + arg + "}")


def _math_tex(seq: list[Tok], sympy_mode: bool = False) -> str:
    """LaTeX (math mode) of a run of tokens."""
    parts: list[str] = []
    k = 0
    while k < len(seq):
        t = seq[k]
        nxt = seq[k + 1] if k + 1 < len(seq) else None
        if t.kind == "op" and t.text in ("^", "_", "**"):
            arg, k = _script_arg(seq, k + 1, sympy_mode)
            _script(parts, "_" if t.text == "_" else "^", arg)
            continue
        if t.kind == "space":
            parts.append(" ")
        elif t.kind == "group":
            if t.text == "(" and seq[k - 1:k] and seq[k - 1].kind == "word" and seq[k - 1].text == "sqrt":
                parts[-1] = r"\sqrt{" + _math_tex(t.children, sympy_mode) + "}"
            else:
                parts.append(_group_tex(t, sympy_mode=sympy_mode))
        elif t.kind == "op":
            prev = seq[k - 1] if k else None
            touch_prev = prev is not None and prev.kind in ("word", "num", "group")
            if t.text == "*" and not sympy_mode and touch_prev:
                _script(parts, "^", "*")
            elif t.text in ("+", "-") and touch_prev and (nxt is None or nxt.kind in ("space", "punct")
                                                         or nxt.kind == "close"):
                _script(parts, "^", t.text)                 # 0+, 1-: one-sided limits
            elif t.text == "|" and prev is not None and prev.kind == "space" and nxt is not None \
                    and nxt.kind == "space":
                parts.append(r"\mid")
            elif t.text == "'":
                parts.append("{}'" if "^" in _scripts_at_end("".join(parts)) else "'")
            elif t.text in _RELATIONS:
                parts.append(_RELATIONS[t.text])
            else:
                parts.append(_BINARIES.get(t.text, t.text))
        elif t.role == "O" and t.tex:
            parts.append(t.tex)
        elif t.kind == "word" and sympy_mode and t.text == "E":
            parts.append("e")
        elif t.kind == "word":
            parts.append(t.tex or _word_tex(t.text))
        elif t.kind == "num":
            parts.append(t.text.replace(",", "{,}"))
        elif t.kind == "punct":
            parts.append({",": ",", ";": ";", ":": ":", ".": "."}.get(t.text, t.text))
        elif t.role == "S":
            pass
        else:
            parts.append(r"\text{" + tex_escape(t.text) + "}")
        k += 1
    return _join(parts).strip()


def _sympy_tex(text: str) -> tuple[str, list] | None:
    """A fragment in SymPy's syntax parsed back: (inline LaTeX, [lhs, rel, rhs] or [expr]); None if it
    does not parse."""
    from sympy.parsing.sympy_parser import parse_expr, standard_transformations

    names_tex: dict[str, str] = {}

    def hide(m: re.Match) -> str:       # t_{s'}, x'_i: names SymPy printed but cannot parse
        key = f"v{len(names_tex)}__"
        names_tex[key] = m.group()
        return key

    text = re.sub(r"[A-Za-z][A-Za-z0-9]*(?:'+(?:_\{[^{}]*\}|_[A-Za-z0-9]+)?|_\{[^{}]*\}(?:\^\{[^{}]*\})?)", hide, text)
    pieces = re.split(r"(==|!=|<=|>=|(?<![-<>=!])[<>](?!=)|(?<![=!<>])=(?!=))", text)
    exprs, rels = [], []
    for k, piece in enumerate(pieces):
        if k % 2:
            rels.append(piece)
            continue
        names = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", piece))
        if any(n.startswith("_") or (n.endswith("_") and n not in names_tex) for n in names):
            return None
        local = {}
        for n in names:
            if n in names_tex:
                local[n] = sp.Symbol(names_tex[n])
            elif n in _PY_FUNCS:
                local[n] = _PY_FUNCS[n]
            elif n in ("eps", "epsilon"):
                local[n] = sp.Symbol("epsilon")
            elif n in ("lhs", "rhs"):
                local[n] = sp.Symbol(r"\mathrm{" + n + "}")
            else:
                local[n] = sp.Symbol(n)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exprs.append(parse_expr(piece.strip(), local_dict=local, transformations=standard_transformations))
        except Exception:   # not SymPy's syntax after all (a hand-written formula): typeset it token by token
            return None
    texs = [latex(e) for e in exprs]
    rel_tex = [_RELATIONS.get(r, r) for r in rels]
    inline = texs[0] + "".join(f" {r} {t}" for r, t in zip(rel_tex, texs[1:]))
    if len(exprs) == 2:
        rel = {"==": "==", "=": "==", "<=": "<=", ">=": ">=", "<": "<", ">": ">", "!=": "!="}[rels[0]]
        return inline, [exprs[0], rel, exprs[1]]
    return inline, exprs if len(exprs) == 1 else []


def _span_tex(span: list[Tok]) -> str:
    raw = "".join(_raw(t) for t in span).strip()
    if _SYMPY_SYNTAX.search(raw):
        parsed = _sympy_tex(raw)
        if parsed is not None:
            inline, parts = parsed
            if tex_width(inline, 1) > INLINE_MAX and parts:
                if len(parts) == 3:
                    return "\n" + texlayout.display(parts[0], parts[1], parts[2], texlayout.LINE - 30)
                return "\n\\[ " + texlayout.fit(parts[0], texlayout.LINE - 30) + " \\]\n"
            return "$" + inline + "$"
        return "$" + _math_tex(span, sympy_mode=True) + "$"
    return "$" + _math_tex(span) + "$"


def _raw(t: Tok) -> str:
    if t.kind == "group":
        return t.text + "".join(_raw(c) for c in t.children) + t.close
    return t.text


def _text_tex(t: Tok, links: Mapping[str, str]) -> str:
    if t.kind == "name":
        return ref(t.text, links)
    if t.kind == "path":
        return breakable_tt(t.text)
    if t.kind == "lquote":
        return "`"
    if t.kind == "rquote":
        return "'"
    return tex_escape(t.text)


def _render(seq: list[Tok], links: Mapping[str, str]) -> str:
    out: list[str] = []
    span: list[Tok] = []

    def flush() -> None:
        # trailing spaces are text; the fragment is mathematics if it holds a strong token, or an
        # operator beside a number
        lead = []
        while span and span[0].role == "S":
            lead.append(span.pop(0))
        trail = []
        while span and span[-1].role == "S":
            trail.insert(0, span.pop())
        out.extend(" " for _ in lead)
        if span:
            strong = any(_strong(t) for t in span) or any(t.role == "O" and t.text in _RELATIONS for t in span) \
                or (any(t.role == "O" for t in span) and any(t.role in ("N", "G") for t in span))
            hyphen_range = len(span) == 3 and span[0].role == span[2].role == "N" and span[1].text == "-"
            if strong and not hyphen_range:
                out.append(_span_tex(span))
            else:
                out.append("".join(_plain(t, links) for t in span).replace("-", "--" if hyphen_range else "-"))
        out.extend(" " for _ in trail)
        span.clear()

    for t in seq:
        if t.role == "G" and span and span[-1].role == "S" and _remark(t):
            flush()             # "b > 0 (b = 1/(1+w))": a parenthetical remark is a formula of its own
            span.append(t)
            flush()
        elif t.role in ("M", "O", "N", "S", "G"):
            span.append(t)
        else:
            flush()
            out.append(_plain(t, links))
    flush()
    return "".join(out)


def _remark(g: Tok) -> bool:
    """A bracket after a space that states a relation: a remark, not a factor."""
    return g.text == "(" and any(c.kind == "op" and c.text in _RELATIONS for c in g.children)


def _plain(t: Tok, links: Mapping[str, str]) -> str:
    """A token as text; a bracket as text with its contents rendered."""
    if t.kind == "group":
        closes = {")": ")", "]": "]", "}": r"\}", "": ""}
        return {"(": "(", "[": "[", "{": r"\{"}[t.text] + _render(t.children, links) + closes[t.close]
    return _text_tex(t, links)


def ref(name: str, links: Mapping[str, str]) -> str:
    """A registry name in typewriter type, a link when ``links`` knows its anchor."""
    tt = breakable_tt(name)
    return rf"\hyperref[{links[name]}]{{{tt}}}" if name in links else tt


def names_pattern(names) -> re.Pattern:
    """The names of the registry (ids with a dot, and cited results' keys) as one pattern; an id
    pattern also takes wildcards written after a known prefix (``puff.b13.piece1-6``,
    ``puff.b1.exp_cdf_*``)."""
    names = sorted(set(names), key=len, reverse=True)
    prefixes = sorted({n.split(".")[0] for n in names if "." in n}, key=len, reverse=True)
    alts = [re.escape(n) + r"(?![\w.])" for n in names if "." not in n]
    if prefixes:
        alts.append(r"\b(?:" + "|".join(map(re.escape, prefixes)) + r")(?:\.[\w*{},-]*[\w*}])+")
    return re.compile("|".join(alts) if alts else r"(?!x)x")


def prose(text: str, links: Mapping[str, str] | None = None, names: re.Pattern | None = None) -> str:
    """``text`` for LaTeX: English as text, its mathematics in ``$...$`` (a long SymPy expression as
    a display), registry names as links.  ``names`` is :func:`names_pattern` of the registry."""
    links = links or {}
    seq = _nest(_tokens(text, names))
    _classify(seq)
    return _render(seq, links)


def math_item(text: str) -> str:
    """One fragment known to be mathematics (a value of a counterexample): set in ``$...$``."""
    seq = _nest(_tokens(text, None))
    _classify(seq, in_script=True)
    return _span_tex(seq)


# -- checking a finished document ---------------------------------------------------------------------
RAW_SYMPY = re.compile(r"\boo\b|\*\*|\b(?:exp|sqrt|Eq|Abs|Piecewise|log|Max|Min|sinh|cosh)\(|<=|>=|!=|==|"
                       r"\\textless\{\}=|\\textgreater\{\}=")
_MATH = re.compile(r"\$[^$]*\$|\\\[.*?\\\]|\\begin\{(align\*|aligned|cases)\}.*?\\end\{\1\}", re.S)


def raw_sympy(tex: str, allowed_tt: set[str] = frozenset(), glyph_macro: str = r"\ocr") -> list[str]:
    """Pieces of ASCII or SymPy mathematics left outside math mode in a LaTeX document: ``oo``, ``**``,
    ``exp(``, ``sqrt(``, ``Eq(``, ``Abs(``, ``Piecewise(``, ``<=``, ``>=``, ``!=``, ``==``; and any
    ``\\texttt`` whose text is not a name in ``allowed_tt`` and holds one of them.  Comment lines and
    the verbatim quotations of damaged source text (``glyph_macro``) are not prose and are skipped."""
    body = tex.split(r"\begin{document}", 1)[-1]
    body = "\n".join(line for line in body.splitlines() if not line.lstrip().startswith("%"))
    body = _strip_macro(body, glyph_macro).replace(r"\$", " ")
    found = []
    for m in re.finditer(r"\\texttt\{((?:[^{}]|\{[^{}]*\})*)\}", body):
        inner = m.group(1).replace(r"\allowbreak{}", "")
        plain = re.sub(r"\\_", "_", inner)
        if plain not in allowed_tt and RAW_SYMPY.search(plain):
            found.append(r"\texttt{" + plain + "}")
    text = _MATH.sub(" ", body)
    text = re.sub(r"\\texttt\{((?:[^{}]|\{[^{}]*\})*)\}", " ", text)
    text = re.sub(r"\\(?:label|hyperref|pdfbookmark|ref)\[?[^\]{}]*\]?\{[^{}]*\}", " ", text)
    for m in RAW_SYMPY.finditer(text):
        found.append(text[max(0, m.start() - 40):m.end() + 40].replace("\n", " "))
    return found


def _strip_macro(tex: str, macro: str) -> str:
    """``tex`` without the arguments of ``macro{...}`` (balanced braces)."""
    out, k = [], 0
    while True:
        j = tex.find(macro + "{", k)
        if j < 0:
            out.append(tex[k:])
            return "".join(out)
        out.append(tex[k:j])
        depth, i = 0, j + len(macro)
        while i < len(tex):
            if tex[i] == "\\":
                i += 2
                continue
            depth += (tex[i] == "{") - (tex[i] == "}")
            i += 1
            if depth == 0:
                break
        k = i
