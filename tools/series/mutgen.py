#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Random one-token mutants of a C file, as lines of a mutants/*.list.

usage: mutgen.py [--file <c file>] [--seed <n>] [--count <n>]
                 [--equivalent <file>] [--apply-check]

Prints <count> mutants of <file> (default: the series' rw.c), drawn with
<seed>, one per line as "<name>: <perl -0 substitution>", which mutate.sh
applies with perl -0pi -e "<substitution>" <file>.  --count 0 prints every
mutant there is.  The same seed draws the same mutants, in the same order,
whatever the count: the first 20 of --count 50 are those of --count 20.

Mutants change one place, inside a function body (never a comment, a
string, a preprocessor line or kernel-doc):

  rel-<a>2<b>     a relational or equality operator for another (lt le gt
                  ge eq ne: < <= > >= == !=)
  arith-<a>2<b>   + and - for each other, * for /, / for * or %, % for /,
                  and += -= *= /= likewise (binary operators only)
  logic-<a>2<b>   && for || and back
  negate-if       if (x) becomes if (!(x))
  const-<a>to<b>  an integer constant: 0 to 1, 1 to 0, n to n+1 or n-1
  swap-<NEW>      an enum or flag constant for a sibling: DMA_TO_DEVICE and
                  DMA_FROM_DEVICE, the IB_WR_* opcodes the file uses,
                  IB_ACCESS_* and IB_SEND_* flags, the members of the
                  file's own enums (not in case labels)
  drop-<func>     a call statement "\\t<func>(...);" removed, unless it is
                  the body of an if, else or loop, or only logs or warns
  return-0, return-einval
                  "return x;" of a function returning int becomes
                  "return 0;" or "return -EINVAL;"

Nothing inside sizeof(), typeof(), BUILD_BUG_ON() or static_assert() is
mutated: those do not change what the code does.

A mutant is named rnd-<seed>-<index>-<op>-<line>: <index> is its place in
the seed's draw, <line> the line of <file> it changes; when one line has
two mutants of the same op, ".<k>" tells them apart (<op>-<line>.2).

The substitution matches exactly one place in the file: it quotes as many
whole lines around the change as that takes.  The generator checks it by
applying the substitution itself, as a Python regex, and comparing with
the intended text.  The substitution is written so that bash leaves it
alone inside double quotes and perl interpolates nothing: "$", "@", '"',
"`" and "\\" of the source are written \\xNN.

--apply-check also runs perl -0pi -e "<substitution>" through bash on a
copy of the file for every mutant printed, and fails unless the result is
the intended text and differs from the file only in the lines of the one
place the mutant changes (a line, or those of a condition it negates).

--equivalent names a file of mutants set aside as equivalent (default:
mutants/<basename of file>.equivalent beside this script, if it exists),
one per line, "<pattern>: <why it is equivalent>".  <pattern> is a glob
on "<op>-<line>" (rel-lt2ne-253, *-1092 for all mutants of line 1092) or
on the full name (rnd-7-12-*).  Those mutants are never printed; a
pattern that matches no mutant of the file draws a warning, since line
numbers move when the file changes.

Exits 1 if a check fails, 2 on a usage error.
"""
import argparse
import difflib
import fnmatch
import hashlib
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter, namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FILE = os.path.normpath(os.path.join(HERE, "..", "..", "drivers",
                                             "infiniband", "core", "rw.c"))

REL = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
ARITH = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*", "%"], "%": ["/"],
         "+=": ["-="], "-=": ["+="], "*=": ["/="], "/=": ["*="]}
ARITH_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod",
               "+=": "addeq", "-=": "subeq", "*=": "muleq", "/=": "diveq"}
LOGIC = {"&&": ("||", "and2or"), "||": ("&&", "or2and")}

# Sibling constants.  For IB_WR_* only the opcodes the file itself uses are
# candidates, so that a data WR is not turned into an atomic.
GROUPS = [
    (["DMA_TO_DEVICE", "DMA_FROM_DEVICE"], False),
    (["IB_WR_RDMA_WRITE", "IB_WR_RDMA_WRITE_WITH_IMM", "IB_WR_SEND",
      "IB_WR_SEND_WITH_IMM", "IB_WR_RDMA_READ", "IB_WR_SEND_WITH_INV",
      "IB_WR_RDMA_READ_WITH_INV", "IB_WR_LOCAL_INV", "IB_WR_REG_MR",
      "IB_WR_REG_MR_INTEGRITY"], True),
    (["IB_ACCESS_LOCAL_WRITE", "IB_ACCESS_REMOTE_WRITE",
      "IB_ACCESS_REMOTE_READ"], False),
    (["IB_SEND_FENCE", "IB_SEND_SIGNALED", "IB_SEND_SOLICITED",
      "IB_SEND_INLINE"], False),
]

KEYWORDS = {
    "return", "sizeof", "case", "if", "else", "while", "for", "do", "switch",
    "goto", "break", "continue", "default", "typeof", "__typeof__", "struct",
    "union", "enum", "const", "volatile", "static", "inline", "extern",
    "unsigned", "signed", "int", "char", "short", "long", "void", "bool",
}
# Calls whose arguments are only looked at by the compiler.
COMPILE_TIME = re.compile(r"^(sizeof|typeof|__typeof__|BUILD_BUG_ON\w*|"
                          r"static_assert|_Static_assert|__builtin_\w+|"
                          r"__must_be_array|__same_type)$")
# Calls whose removal only loses a message or a warning.
NO_EFFECT = re.compile(r"^(WARN\w*|BUILD_BUG_ON\w*|might_sleep\w*|"
                       r"lockdep_\w+|pr_\w+|printk\w*|"
                       r"(dev|ibdev|netdev)_(dbg|info|notice|warn|err|crit|"
                       r"alert|emerg)\w*|trace_\w+|kunit_\w+)$")
# Qualifiers around the return type of a function definition.
QUALIFIERS = {"static", "inline", "noinline", "__always_inline", "extern",
              "__must_check", "notrace", "__init", "__exit", "__cold",
              "__maybe_unused", "VISIBLE_IF_KUNIT", "__visible"}

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>\x01+)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?![\w.]))
  | (?P<other_num>\d[\w.]*)
  | (?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|.)
""", re.X | re.S)

Tok = namedtuple("Tok", "kind text start end")
Mutant = namedtuple("Mutant", "start end new op line")


def mask(text):
    """The text with comments blanked, string and character literals
    turned into \\x01 runs and preprocessor lines blanked; same length,
    same newlines, so that offsets and line numbers hold."""
    out = list(text)
    n = len(text)
    i = 0
    bol = True

    def blank(a, b, fill=" "):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = fill

    while i < n:
        c = text[i]
        if c == "\n":
            bol = True
            i += 1
            continue
        if c in " \t":
            i += 1
            continue
        if bol and c == "#":
            j = i
            while j < n and text[j] != "\n":
                if text.startswith("/*", j):
                    end = text.find("*/", j + 2)
                    j = n if end < 0 else end + 2
                elif text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    j += 2
                else:
                    j += 1
            blank(i, j)
            i = j
            continue
        bol = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            blank(i, j, "\x01")
            i = j
        else:
            i += 1
    return "".join(out)


def tokenize(masked):
    toks = []
    for m in TOKEN.finditer(masked):
        if m.lastgroup != "ws":
            toks.append(Tok(m.lastgroup, m.group(), m.start(), m.end()))
    return toks


def match_brackets(toks):
    """Index of the partner of every bracket token."""
    pairs = {")": "(", "]": "[", "}": "{"}
    match, stack = {}, []
    for k, t in enumerate(toks):
        if t.text in "([{" and t.kind == "op":
            stack.append(k)
        elif t.text in pairs and t.kind == "op":
            while stack and toks[stack[-1]].text != pairs[t.text]:
                stack.pop()
            if stack:
                o = stack.pop()
                match[o], match[k] = k, o
    return match


def functions(toks, match):
    """(open, close, returns_int) of every function body: a top-level {
    right after the ) of a parameter list."""
    out = []
    k = 0
    while k < len(toks):
        t = toks[k]
        if t.text == "{" and k in match:
            if k > 0 and toks[k - 1].text == ")" and k - 1 in match:
                out.append((k, match[k], returns_int(toks, match[k - 1])))
            k = match[k] + 1
            continue
        k += 1
    return out


def returns_int(toks, paren):
    """Whether the declaration whose parameter list opens at toks[paren]
    returns a plain int."""
    k = paren - 2
    words = []
    while k >= 0 and toks[k].text not in (";", "}", "{", ")"):
        words.append(toks[k].text)
        k -= 1
    return [w for w in words if w not in QUALIFIERS] == ["int"]


def file_enums(toks, match):
    """Members of the enums the file defines, a list per enum."""
    groups = []
    for k, t in enumerate(toks):
        if t.text != "enum":
            continue
        o = k + 1 if toks[k + 1].text == "{" else k + 2
        if o >= len(toks) or toks[o].text != "{" or o not in match:
            continue
        members, expect = [], True
        for u in toks[o + 1:match[o]]:
            if expect and u.kind == "id":
                members.append(u.text)
            expect = u.text == ","
        if len(members) > 1:
            groups.append(members)
    return groups


def sibling_map(toks, match):
    """Constant -> the siblings it may become."""
    used = {t.text for t in toks if t.kind == "id"}
    sib = {}
    for members, only_used in GROUPS:
        if only_used:
            members = [m for m in members if m in used]
        for m in members:
            if len(members) > 1:
                sib[m] = [o for o in members if o != m]
    for members in file_enums(toks, match):
        for m in members:
            sib.setdefault(m, [o for o in members if o != m])
    return sib


def excluded(toks, match, a, b):
    """Indexes in (a, b) inside compile-time operands or case labels."""
    out = set()
    for k in range(a + 1, b):
        t = toks[k]
        if (t.kind == "id" and COMPILE_TIME.match(t.text) and
                toks[k + 1].text == "(" and k + 1 in match):
            out.update(range(k, match[k + 1] + 1))
        elif t.text == "case":
            j = k
            while j < b and toks[j].text != ":":
                j += 1
            out.update(range(k, j + 1))
    return out


def line_start(text, pos):
    return text.rfind("\n", 0, pos) + 1


def line_end(text, pos):
    e = text.find("\n", pos)
    return len(text) if e < 0 else e


def fmt_int(literal, value):
    """value written like literal: same base, same suffix."""
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", literal)
    digits, suffix = m.groups()
    if digits[:2] in ("0x", "0X"):
        body = format(value, "X" if any(c in "ABCDEF" for c in digits[2:])
                      else "x")
        return digits[:2] + body + suffix
    if len(digits) > 1 and digits[0] == "0":
        return "0" + format(value, "o") + suffix
    return str(value) + suffix


def int_value(literal):
    digits = re.match(r"(0[xX][0-9a-fA-F]+|\d+)", literal).group(1)
    if digits[:2] in ("0x", "0X"):
        return int(digits, 16)
    if len(digits) > 1 and digits[0] == "0":
        return int(digits, 8)
    return int(digits)


def binary(text, toks, k):
    """toks[k] is a binary operator written the kernel way: an operand
    before it and a space on each side."""
    p = toks[k - 1]
    operand = ((p.kind == "id" and p.text not in KEYWORDS) or
               p.kind == "num" or p.text in (")", "]"))
    t = toks[k]
    return (operand and text[t.start - 1] in " \t\n" and
            t.end < len(text) and text[t.end] in " \t\n")


def label_colon(masked, tok):
    """tok is the colon of a label, case or default line of its own."""
    line = masked[line_start(masked, tok.start):line_end(masked, tok.start)]
    return re.match(r"\s*(\w+|case\b.*|default)\s*:\s*$", line) is not None


def candidates(text):
    """Every mutant of the file, in file order."""
    masked = mask(text)
    toks = tokenize(masked)
    match = match_brackets(toks)
    sib = sibling_map(toks, match)
    lineno = [0] * (len(text) + 1)
    n = 1
    for i, c in enumerate(text):
        lineno[i] = n
        n += c == "\n"
    lineno[len(text)] = n
    out = []

    def add(start, end, new, op):
        out.append(Mutant(start, end, new, op, lineno[start]))

    for a, b, is_int in functions(toks, match):
        skip = excluded(toks, match, a, b)
        for k in range(a + 1, b):
            t = toks[k]
            if k in skip or t.kind == "str":
                continue
            nxt = toks[k + 1]
            if t.kind == "op" and t.text in REL:
                for o in REL:
                    if o != t.text:
                        add(t.start, t.end, o,
                            f"rel-{REL[t.text]}2{REL[o]}")
            elif (t.kind == "op" and t.text in ARITH and
                  binary(text, toks, k)):
                for o in ARITH[t.text]:
                    add(t.start, t.end, o, f"arith-{ARITH_NAMES[t.text]}2"
                        f"{ARITH_NAMES[o]}")
            elif t.kind == "op" and t.text in LOGIC:
                o, name = LOGIC[t.text]
                add(t.start, t.end, o, f"logic-{name}")
            elif t.text == "if" and nxt.text == "(" and k + 1 in match:
                close = toks[match[k + 1]]
                add(nxt.end, close.start,
                    "!(" + text[nxt.end:close.start] + ")", "negate-if")
            elif t.kind == "num":
                v = int_value(t.text)
                news = [1] if v == 0 else [0, 2] if v == 1 else [v + 1, v - 1]
                for nv in news:
                    lit = fmt_int(t.text, nv)
                    add(t.start, t.end, lit, f"const-{t.text}to{lit}")
            elif t.kind == "id" and t.text in sib:
                for o in sib[t.text]:
                    add(t.start, t.end, o, f"swap-{o}")
            elif t.text == "return" and is_int:
                j, depth = k + 1, 0
                while j < b and not (depth == 0 and toks[j].text == ";"):
                    depth += toks[j].text in "([{"
                    depth -= toks[j].text in ")]}"
                    j += 1
                if j == k + 1 or j >= b:
                    continue
                expr = " ".join(text[toks[k + 1].start:toks[j].start].split())
                for val, op in (("0", "return-0"), ("-EINVAL",
                                                    "return-einval")):
                    if expr != val:
                        add(t.start, toks[j].end, f"return {val};", op)
            if (t.kind == "id" and t.text not in KEYWORDS and
                    nxt.text == "(" and k + 1 in match):
                drop = dropped_call(text, masked, toks, match, k, b)
                if drop:
                    add(drop[0], drop[1], "", f"drop-{t.text}")
    return out


def dropped_call(text, masked, toks, match, k, b):
    """The span of the statement "<func>(...);" at toks[k] with its line,
    if removing it leaves valid code that does something else."""
    t = toks[k]
    ls = line_start(text, t.start)
    if masked[ls:t.start].strip() or NO_EFFECT.match(t.text):
        return None
    close = match[k + 1]
    semi = close + 1
    if semi >= b or toks[semi].text != ";":
        return None
    le = line_end(text, toks[semi].end)
    if masked[toks[semi].end:le].strip():
        return None
    prev = toks[k - 1]
    if prev.text == ":":
        if not label_colon(masked, prev) or toks[semi + 1].text == "}":
            return None
    elif prev.text not in (";", "{", "}"):
        return None
    return ls, min(le + 1, len(text))


def count_at(text, lit):
    """Occurrences of lit in text, overlapping ones included."""
    n, i = 0, text.find(lit)
    while i >= 0:
        n += 1
        i = text.find(lit, i + 1)
    return n


REGEX_META = set("^.|?*+()[]{}/")
UNSAFE = set("$@\"`\\")


def escape(s, meta):
    """s for a perl s/// read from a list and pasted into bash double
    quotes: shell- and perl-special characters as \\xNN, those of meta
    behind a backslash."""
    out = []
    for c in s:
        if c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif c in UNSAFE or not c.isprintable() or ord(c) > 126:
            out.append("\\x%02x" % ord(c))
        elif c in meta:
            out.append("\\" + c)
        else:
            out.append(c)
    return "".join(out)


def anchor(text, m, max_grow=16):
    """The perl substitution for mutant m: the fewest whole lines around
    it that occur once in the file, or None."""
    a = line_start(text, m.start)
    b = max(line_end(text, max(m.end - 1, m.start)), m.end)
    for step in range(max_grow + 1):
        window = text[a:b]
        if count_at(text, window) == 1:
            new = text[a:m.start] + m.new + text[m.end:b]
            return f"s/{escape(window, REGEX_META)}/{escape(new, '/')}/"
        if step % 2 == 0 and a > 0:
            a = line_start(text, a - 1)
        elif b < len(text):
            b = line_end(text, b + 1)
        elif a > 0:
            a = line_start(text, a - 1)
        else:
            return None
    return None


def unescape(s):
    """What perl makes of our escapes (\\n \\t \\xNN \\<punct>)."""
    def one(mm):
        e = mm.group(1)
        if e == "n":
            return "\n"
        if e == "t":
            return "\t"
        if e.startswith("x"):
            return chr(int(e[1:], 16))
        return e
    return re.sub(r"\\(x[0-9a-f]{2}|[nt]|[^A-Za-z0-9])",
                  one, s)


def split_subst(expr):
    """(pattern, replacement) of "s/<pattern>/<replacement>/"."""
    parts = re.fullmatch(r"s/((?:\\.|[^\\/])*)/((?:\\.|[^\\/])*)/", expr)
    if not parts:
        raise ValueError(f"not an s/// expression: {expr}")
    return parts.group(1), parts.group(2)


def check_python(text, expr, expected):
    """None if expr, applied as a Python regex, matches once and gives
    expected; else what is wrong."""
    if re.search(r"[$@\"`\n]|\\\\", expr):
        return "unsafe character for bash or perl"
    pat, rep = split_subst(expr)
    if re.search(r"\\[A-Za-z](?<!\\[ntx])", pat + rep):
        return "escape of a letter other than \\n \\t \\x"
    rx = re.compile(pat)
    hits = len(re.findall("(?=" + pat + ")", text))
    if hits != 1:
        return f"matches {hits} places"
    got = rx.sub(lambda _: unescape(rep), text, count=1)
    if got == text:
        return "changes nothing"
    if got != expected:
        return "gives another text than intended"
    return None


def changed_lines(old, new):
    """First and last line of old (1-based) that new changes, or None."""
    sm = difflib.SequenceMatcher(None, old.splitlines(True),
                                 new.splitlines(True), autojunk=False)
    spans = [(i1, i2) for op, i1, i2, _, _ in sm.get_opcodes()
             if op != "equal"]
    if not spans:
        return None
    return spans[0][0] + 1, max(spans[-1][1], spans[-1][0] + 1)


def check_perl(path, text, m, expr, expected, tmpdir):
    """None if perl -0pi -e "<expr>", through bash, gives expected and
    changes no line outside those of mutant m; else what is wrong."""
    copy = os.path.join(tmpdir, os.path.basename(path))
    with open(copy, "w", encoding="latin-1") as f:
        f.write(text)
    cmd = 'perl -0pi -e "' + expr + '" "$1"'
    r = subprocess.run(["bash", "-c", cmd, "mutgen", copy],
                       capture_output=True, text=True)
    if r.returncode or r.stderr:
        return f"perl: {r.stderr.strip() or r.returncode}"
    with open(copy, encoding="latin-1") as f:
        got = f.read()
    if got == text:
        return "perl changes nothing"
    if got != expected:
        return "perl gives another text than intended"
    first, last = changed_lines(text, got)
    lo = text.count("\n", 0, m.start) + 1
    hi = text.count("\n", 0, max(m.end - 1, m.start)) + 1
    if first < lo or last > hi:
        return f"perl changes lines {first}-{last}, not only {lo}-{hi}"
    return None


def load_equivalent(path):
    """[(pattern, line number)] of an equivalence file."""
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pattern, sep, why = line.partition(": ")
            if not sep or not why.strip():
                sys.exit(f"mutgen: {path}:{no}: not \"<pattern>: <reason>\"")
            out.append((pattern, no))
    return out


def keys(muts):
    """"<op>-<line>" of every mutant, ".<k>" added where one line has the
    same op twice."""
    seen = Counter((m.op, m.line) for m in muts)
    k = Counter()
    out = []
    for m in muts:
        key = f"{m.op}-{m.line}"
        if seen[m.op, m.line] > 1:
            k[m.op, m.line] += 1
            key += f".{k[m.op, m.line]}"
        out.append(key)
    return out


def main():
    ap = argparse.ArgumentParser(
        usage=argparse.SUPPRESS, description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", default=DEFAULT_FILE,
                    help="the C file (default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the draw (default: %(default)s)")
    ap.add_argument("--count", type=int, default=20,
                    help="mutants to print, 0 for all (default: "
                    "%(default)s)")
    ap.add_argument("--equivalent", help="file of mutants set aside")
    ap.add_argument("--apply-check", action="store_true",
                    help="also apply each mutant with perl, through bash")
    args = ap.parse_args()
    if args.count < 0:
        ap.error("--count must be 0 (all) or more")
    equiv_path = args.equivalent
    if equiv_path is None:
        equiv_path = os.path.join(HERE, "mutants",
                                  os.path.basename(args.file) + ".equivalent")
    equiv = load_equivalent(equiv_path)

    # Bytes as characters, as perl sees the file: \xNN is one byte.
    with open(args.file, encoding="latin-1") as f:
        text = f.read()
    muts, seen = [], set()
    for m in sorted(candidates(text), key=lambda m: (m.start, m.end, m.op)):
        result = text[:m.start] + m.new + text[m.end:]
        digest = hashlib.sha1(result.encode()).digest()
        if result != text and digest not in seen:
            seen.add(digest)
            muts.append(m)
    muts_keys = keys(muts)

    for pattern, no in equiv:
        if pattern.startswith("rnd-"):
            continue
        if not any(fnmatch.fnmatchcase(k, pattern) for k in muts_keys):
            print(f"mutgen: {equiv_path}:{no}: {pattern} matches no mutant "
                  f"of {args.file}: stale?", file=sys.stderr)

    order = list(range(len(muts)))
    random.Random(args.seed).shuffle(order)
    want = args.count or len(order)
    lines, failed, equivalent, unanchored = [], 0, 0, 0
    ops = Counter()
    with tempfile.TemporaryDirectory() as tmpdir:
        for index, i in enumerate(order, 1):
            if len(lines) == want:
                break
            m, key = muts[i], muts_keys[i]
            name = f"rnd-{args.seed}-{index}-{key}"
            if any(fnmatch.fnmatchcase(key, p) or
                   fnmatch.fnmatchcase(name, p) for p, _ in equiv):
                equivalent += 1
                continue
            expr = anchor(text, m)
            if expr is None:
                unanchored += 1
                continue
            expected = text[:m.start] + m.new + text[m.end:]
            err = check_python(text, expr, expected)
            if not err and args.apply_check:
                err = check_perl(args.file, text, m, expr, expected,
                                 tmpdir)
            if err:
                print(f"mutgen: {name}: {err}: {expr}", file=sys.stderr)
                failed += 1
                continue
            lines.append(f"{name}: {expr}")
            ops[m.op.split("-")[0]] += 1

    print(f"# mutgen.py --seed {args.seed} --count {args.count}: "
          f"{len(lines)} of the {len(muts)} mutants of "
          f"{os.path.basename(args.file)}")
    for line in lines:
        print(line)
    checked = "applied with perl and " if args.apply_check else ""
    print(f"mutgen: {os.path.basename(args.file)}: {len(muts)} mutants, "
          f"{len(lines)} printed ({checked}checked), {equivalent} set aside "
          f"as equivalent, {unanchored} without a unique anchor, "
          f"{failed} failed; by op: "
          + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())),
          file=sys.stderr)
    if len(lines) < want and not failed and args.count:
        print(f"mutgen: only {len(lines)} of the {want} asked for",
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
