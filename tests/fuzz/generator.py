"""Random annotated Fortran programs for differential testing of f2stencil.

generate(seed, mode) returns a Program: one Fortran file of one to three
subroutines, each with one or two `!$f2s stencil` regions, written within what
docs/annotating.md says f2stencil accepts ("inside" mode), or an inside program with
one known-illegal shape planted in a region ("outside" mode) together with the
words its refusal must contain. The same seed and mode give the same text, byte
for byte (only random.Random(seed) decides anything).

The programs stay clear of what would make gfortran and the library disagree
for reasons that are not bugs: divisors, LOG and SQRT arguments are kept away
from 0 and negative values, EXP from overflow, so no NaN or Inf arises; sums
reduced over the nest add terms of one sign, so that a reassociated sum is
within (terms) x epsilon of the serial one.
"""

import random

# Loop variables, innermost first, and the size arguments that bound them.
VARS = ["i", "j", "k"]
SIZES = ["nx", "ny", "nz"]

# Operator precedence levels for parenthesising generated expressions.
P_OR, P_AND, P_NOT, P_REL, P_ADD, P_MUL, P_POW, P_ATOM = 1, 2, 3, 4, 5, 6, 7, 8
P_EQV = 0


class Expr:
    def __init__(self, text, prec, kind):
        self.text = text
        self.prec = prec
        self.kind = kind  # 'r8', 'r4', 'i', 'l'


def wrap(e, need):
    return "(" + e.text + ")" if e.prec < need else e.text


class Array:
    """A dummy array: its type, and per dimension the loop variable it is
    indexed by (an index into VARS) and the factor, or None for a dimension
    read only at constant subscripts."""

    def __init__(self, name, kind, dims, halo, extra_lb, assumed):
        self.name = name
        self.kind = kind
        self.dims = dims  # list of (var, factor) or None
        self.halo = halo
        self.extra_lb = extra_lb
        self.assumed = assumed
        self.written = False

    def bounds(self):
        """(lower, upper) Fortran expressions per dimension."""
        out = []
        for d, dim in enumerate(self.dims):
            if dim is None:
                out.append(("0", "2"))
                continue
            v, c = dim
            n = SIZES[v]
            h = self.halo
            if c > 0:
                lo = c - h - self.extra_lb[d]
                hi = ("%s" % n if c == 1 else "%d*%s" % (c, n)) + (" + %d" % h if h else "")
            else:
                lo_s = "-%s" % n if c == -1 else "%d*%s" % (c, n)
                lo = lo_s + (" - %d" % h if h else "")
                hi = str(-1 + h + self.extra_lb[d])
                out.append((lo, hi))
                continue
            out.append((str(lo), hi))
        return out

    def decl_shape(self):
        parts = []
        for lo, hi in self.bounds():
            if self.assumed:
                parts.append("%s:" % lo)
            elif lo == "1":
                parts.append(hi)
            else:
                parts.append("%s:%s" % (lo, hi))
        return "(" + ", ".join(parts) + ")"


def sub_text(var, factor, off):
    v = VARS[var]
    base = v if factor == 1 else ("-%s" % v if factor == -1 else "%d*%s" % (factor, v))
    if off > 0:
        return "%s+%d" % (base, off)
    if off < 0:
        return "%s-%d" % (base, -off)
    return base


class Region:
    def __init__(self, name, depth):
        self.name = name  # kernel name (None: default name)
        self.kernel = None
        self.depth = depth
        self.lines = []  # body lines, indented relative to the innermost loop
        self.loops = []  # DO statements, outermost first
        self.reductions = {}  # scalar name -> op
        self.red_black = False


class Subroutine:
    def __init__(self, name, depth):
        self.name = name
        self.depth = depth
        self.arrays = []
        self.scalars = {}  # name -> kind ('r8', 'r4', 'i', 'l')
        self.reductions = {}  # name -> (kind, op)
        self.temps = {}  # name -> kind
        self.params = {}  # named constant -> (kind, value text)
        self.regions = []


class Program:
    def __init__(self, seed, mode):
        self.seed = seed
        self.mode = mode
        self.fixed = False
        self.filename = None
        self.text = ""
        self.subs = []
        self.expect = None  # outside mode: words the refusal must contain
        self.outside_kind = None


REAL8_LITS = ["1.5d0", "0.25d0", "2.0_8", "3.0D0", "0.125d0", ".5d0", "1.0d-1", "0.75_8"]
REAL4_LITS = ["0.5", "0.1", "1.5e0", "2.0_4", "0.3", "1.25", "0.7"]


class Gen:
    def __init__(self, rnd, sub, region_writes, rb=None):
        self.r = rnd
        self.sub = sub
        self.writes = region_writes  # array name -> list of write subscript tuples
        self.defined = set()  # temps assigned on every path so far
        self.rb = rb  # red-black: (array name) whose reads must be at odd offsets
        self.reduction_ok = True

    # -- leaves -----------------------------------------------------------
    def subscript(self, a):
        """A read subscript of array a, within its declared bounds."""
        if a.name in self.writes:
            subs = self.r.choice(self.writes[a.name])
            return "%s(%s)" % (a.name, ", ".join(subs))
        if self.rb == a.name:
            # A point of the other colour: one neighbour at an odd offset.
            d = self.r.randrange(self.sub.depth)
            offs = [0] * self.sub.depth
            offs[d] = self.r.choice([-1, 1])
            return "%s(%s)" % (a.name, ", ".join(sub_text(v, 1, offs[v]) for v in range(self.sub.depth)))
        parts = []
        for dim in a.dims:
            if dim is None:
                parts.append(str(self.r.randrange(0, 3)))
            else:
                v, c = dim
                parts.append(sub_text(v, c, self.r.randint(-a.halo, a.halo)))
        return "%s(%s)" % (a.name, ", ".join(parts))

    def arrays_of(self, kind):
        return [a for a in self.sub.arrays if a.kind == kind]

    def scalars_of(self, kind):
        return [s for s, k in self.sub.scalars.items() if k == kind]

    def params_of(self, kind):
        return sorted(n for n, (k, _) in self.sub.params.items() if k == kind)

    def temps_of(self, kind):
        return sorted(t for t in self.defined if self.sub.temps[t] == kind)

    # -- expressions ------------------------------------------------------
    def real(self, kind, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.25:
            return self.real_leaf(kind)
        c = r.random()
        if c < 0.45:
            op = r.choice(["+", "-", "*", "+", "*", "/"])
            a = self.real(kind, depth - 1)
            other = kind if kind == "r4" else r.choice(["r8", "r4", "r8"])
            if r.random() < 0.15:
                b = self.integer(depth - 1)
            else:
                b = self.real(other, depth - 1)
            if r.random() < 0.5:
                a, b = b, a
            if a.kind == "i" and b.kind == "i":
                b = self.real_leaf(kind)
            if op == "/":
                lit = self.real_lit(kind if b.kind == "i" else b.kind)
                den = Expr("%s + abs(%s)" % (lit, b.text), P_ADD, b.kind)
                return Expr("%s / (%s)" % (wrap(a, P_MUL), den.text), P_MUL, kind)
            prec = P_ADD if op in "+-" else P_MUL
            right_need = prec + 1 if op in "-/" or r.random() < 0.3 else prec
            if b.prec == P_ADD and b.text.startswith("-"):
                right_need = P_ATOM
            return Expr("%s %s %s" % (wrap(a, prec), op, wrap(b, right_need)), prec, kind)
        if c < 0.52:
            a = self.real(kind, depth - 1)
            return Expr("-" + wrap(a, P_MUL), P_ADD, kind)
        if c < 0.58:
            a = self.real(kind, depth - 1)
            return Expr("%s**%d" % (wrap(a, P_ATOM), r.choice([2, 2, 3])), P_POW, kind)
        if c < 0.9:
            return self.real_intrinsic(kind, depth)
        cond = self.logical(depth - 1)
        a, b = self.real(kind, depth - 1), self.real(kind, depth - 1)
        return Expr("merge(%s, %s, %s)" % (a.text, b.text, cond.text), P_ATOM, kind)

    def more_intrinsic(self, kind, depth):
        """The elementary functions, conversions, specific names and REAL
        powers of the "intrinsics" feature, each kept in its domain."""
        r = self.r
        a = self.real(kind, depth - 1)
        other = "r4" if kind == "r8" else "r8"
        lit = self.real_lit(kind)
        f = r.choice(["tan", "atan", "tanh", "sinh", "cosh", "log10", "asin", "acos", "atan2",
                      "conv", "convi", "aint", "pow", "specific"])
        if f == "tan":
            return Expr("tan(sin(%s))" % a.text, P_ATOM, kind)
        if f in ("atan", "tanh"):
            return Expr("%s(%s)" % (f, a.text), P_ATOM, kind)
        if f in ("sinh", "cosh"):
            return Expr("%s(sin(%s))" % (f, a.text), P_ATOM, kind)
        if f == "log10":
            return Expr("log10(%s + abs(%s))" % (lit, a.text), P_ATOM, kind)
        if f in ("asin", "acos"):
            return Expr("%s(sin(%s))" % (f, a.text), P_ATOM, kind)
        if f == "atan2":
            b = self.real(kind, depth - 1)
            return Expr("atan2(%s, %s + abs(%s))" % (a.text, lit, b.text), P_ATOM, kind)
        if f == "conv":
            # A value of the other kind converted, REAL(x, k) or DBLE/SNGL.
            b = self.real(other, depth - 1)
            k = "8" if kind == "r8" else "4"
            spelled = r.choice(["real(%s, %s)" % (b.text, k),
                                ("dble(%s)" if kind == "r8" else "sngl(%s)") % b.text])
            return Expr(spelled, P_ATOM, kind)
        if f == "convi":
            # An INTEGER from a bounded real, back to REAL.
            g = r.choice(["int", "nint", "floor", "ceiling"])
            i = "%s(7.5*sin(%s))" % (g, a.text)
            k = "8" if kind == "r8" else "4"
            return Expr(r.choice(["real(%s, %s)" % (i, k),
                                  ("dble(%s)" if kind == "r8" else "float(%s)") % i]),
                        P_ATOM, kind)
        if f == "aint":
            return Expr("%s(%s)" % (r.choice(["aint", "anint"]), a.text), P_ATOM, kind)
        if f == "pow":
            e = r.choice(["1.5", "0.5", "2.5", "0.25"]) + ("d0" if kind == "r8" else "")
            return Expr("(%s + abs(%s))**%s" % (lit, a.text, e), P_POW, kind)
        if kind == "r8":
            g = r.choice(["dsqrt(dabs(%s))", "dexp(-dabs(%s))", "dsin(%s)", "dtanh(%s)"])
            return Expr(g % a.text, P_ATOM, kind)
        b = self.real(kind, depth - 1)
        return Expr("%s(%s, %s)" % (r.choice(["amax1", "amin1"]), a.text, b.text), P_ATOM, kind)

    def real_intrinsic(self, kind, depth):
        r = self.r
        if "intrinsics" in FEATURES and r.random() < 0.35:
            return self.more_intrinsic(kind, depth)
        f = r.choice(["sqrt", "abs", "sign", "min", "max", "mod", "exp", "log", "sin", "cos"])
        a = self.real(kind, depth - 1)
        if f == "sqrt":
            return Expr("sqrt(abs(%s))" % a.text, P_ATOM, kind)
        if f == "log":
            return Expr("log(%s + abs(%s))" % (self.real_lit(kind), a.text), P_ATOM, kind)
        if f == "exp":
            return Expr("exp(-abs(%s))" % a.text, P_ATOM, kind)
        if f in ("abs", "sin", "cos"):
            return Expr("%s(%s)" % (f, a.text), P_ATOM, kind)
        b = self.real(kind, depth - 1)
        if f == "mod":
            return Expr("mod(%s, %s + abs(%s))" % (a.text, self.real_lit(kind), b.text), P_ATOM, kind)
        if f == "sign":
            return Expr("sign(%s, %s)" % (a.text, b.text), P_ATOM, kind)
        args = [a.text, b.text]
        if r.random() < 0.3:
            args.append(self.real(kind, depth - 1).text)
        return Expr("%s(%s)" % (f, ", ".join(args)), P_ATOM, kind)

    def real_lit(self, kind):
        return self.r.choice(REAL8_LITS if kind == "r8" else REAL4_LITS)

    def real_leaf(self, kind):
        r = self.r
        opts = []
        arrays = self.arrays_of(kind)
        # REAL(4) data and literals inside REAL(8) expressions, as legacy
        # codes mix them.
        if arrays:
            opts += ["array"] * 4
        if self.scalars_of(kind):
            opts += ["scalar"]
        if self.temps_of(kind):
            opts += ["temp"] * 2
        opts += ["lit", "loopvar"]
        if self.params_of(kind):
            opts.append("param")
        c = r.choice(opts)
        if c == "param":
            return Expr(r.choice(self.params_of(kind)), P_ATOM, kind)
        if c == "array":
            return Expr(self.subscript(r.choice(arrays)), P_ATOM, kind)
        if c == "scalar":
            return Expr(r.choice(self.scalars_of(kind)), P_ATOM, kind)
        if c == "temp":
            return Expr(r.choice(self.temps_of(kind)), P_ATOM, kind)
        if c == "loopvar":
            v = VARS[r.randrange(self.sub.depth)]
            return Expr("%s*%s" % (v, self.real_lit(kind)), P_MUL, kind)
        return Expr(self.real_lit(kind), P_ATOM, kind)

    def integer(self, depth):
        r = self.r
        if depth <= 0 or r.random() < 0.4:
            opts = ["var", "var", "lit"]
            if self.scalars_of("i"):
                opts.append("scalar")
            if self.params_of("i"):
                opts.append("param")
            if self.temps_of("i"):
                opts.append("temp")
            if self.arrays_of("i"):
                opts.append("array")
            c = r.choice(opts)
            if c == "var":
                return Expr(VARS[r.randrange(self.sub.depth)], P_ATOM, "i")
            if c == "lit":
                return Expr(str(r.randint(1, 7)), P_ATOM, "i")
            if c == "scalar":
                return Expr(r.choice(self.scalars_of("i")), P_ATOM, "i")
            if c == "param":
                return Expr(r.choice(self.params_of("i")), P_ATOM, "i")
            if c == "temp":
                return Expr(r.choice(self.temps_of("i")), P_ATOM, "i")
            return Expr(self.subscript(r.choice(self.arrays_of("i"))), P_ATOM, "i")
        c = r.random()
        a = self.integer(depth - 1)
        if c < 0.5:
            op = r.choice(["+", "-", "*"])
            b = self.integer(depth - 1)
            prec = P_ADD if op != "*" else P_MUL
            return Expr("%s %s %s" % (wrap(a, prec), op, wrap(b, prec + 1)), prec, "i")
        if c < 0.65:
            return Expr("%s / %d" % (wrap(a, P_MUL), r.randint(2, 4)), P_MUL, "i")
        if c < 0.8:
            return Expr("mod(%s, %d)" % (a.text, r.randint(2, 5)), P_ATOM, "i")
        f = r.choice(["abs", "min", "max"])
        if f == "abs":
            return Expr("abs(%s)" % a.text, P_ATOM, "i")
        return Expr("%s(%s, %s)" % (f, a.text, self.integer(depth - 1).text), P_ATOM, "i")

    def logical(self, depth):
        r = self.r
        c = r.random()
        if depth <= 0 or c < 0.45:
            opts = ["cmp", "cmp", "cmp", "icmp"]
            if self.arrays_of("l"):
                opts += ["mask", "mask"]
            if self.temps_of("l"):
                opts.append("temp")
            if self.scalars_of("l"):
                opts.append("scalar")
            if r.random() < 0.05:
                return Expr(r.choice([".true.", ".false."]), P_ATOM, "l")
            o = r.choice(opts)
            if o == "mask":
                return Expr(self.subscript(r.choice(self.arrays_of("l"))), P_ATOM, "l")
            if o == "temp":
                return Expr(r.choice(self.temps_of("l")), P_ATOM, "l")
            if o == "scalar":
                return Expr(r.choice(self.scalars_of("l")), P_ATOM, "l")
            rel = r.choice(["<", "<=", ">", ">=", "==", "/=", ".lt.", ".le.", ".gt.", ".ge.", ".ne."])
            if o == "icmp":
                a, b = self.integer(1), self.integer(1)
            else:
                a = self.real(r.choice(["r8", "r4"]), min(depth, 1))
                b = self.real(r.choice(["r8", "r4"]), min(depth, 1))
            return Expr("%s %s %s" % (wrap(a, P_ADD), rel, wrap(b, P_ADD)), P_REL, "l")
        if c < 0.6:
            a = self.logical(depth - 1)
            return Expr(".not. " + wrap(a, P_NOT + 1), P_NOT, "l")
        op, prec = r.choice([(".and.", P_AND), (".or.", P_OR), (".eqv.", P_EQV), (".neqv.", P_EQV)])
        a, b = self.logical(depth - 1), self.logical(depth - 1)
        return Expr("%s %s %s" % (wrap(a, prec), op, wrap(b, prec + 1)), prec, "l")

    def value(self, kind, depth):
        if kind == "l":
            return self.logical(depth)
        if kind == "i":
            return self.integer(depth)
        return self.real(kind, depth)


# Optional parts of the language: "ranks", read-only arrays of a rank other
# than the nest's depth (lower rank, an extra dimension read at constant
# subscripts), which issue 11 added; "cnames", arrays named like C keywords,
# GNU macros and libm functions, and 63-character subroutine names; "powconst",
# named constants whose value uses `**` (the last two are defect classes of
# issue 12's section 0); "intrinsics", the elementary functions, conversions,
# FORTRAN 77 specific names and REAL powers added after the first campaign.
# All are accepted now and on by default (run_fuzz.py's --features adds to
# DEFAULT_FEATURES).
DEFAULT_FEATURES = ["ranks", "cnames", "powconst", "intrinsics"]
FEATURES = set()

# Names that collide with C: keywords, GNU C keywords and predefined macros,
# functions the generated C calls. None is a Fortran intrinsic.
C_NAMES = ["fmod", "fmodf", "copysign", "copysignf", "logf", "asm", "typeof", "unix", "linux",
           "double", "signed", "unsigned", "register", "restrict", "inline", "static", "struct",
           "union", "volatile", "goto", "auto", "printf", "malloc", "free", "main", "exit",
           "expf", "sqrtf", "fabs", "pow", "errno", "stdin", "assert", "bool", "true", "false"]


def generate(seed, mode="inside", features=None):
    global FEATURES
    FEATURES = set(features or ())
    r = random.Random("%s:%d" % (mode, seed))
    p = Program(seed, mode)
    p.fixed = r.random() < 0.3
    nsubs = r.choice([1, 1, 2, 2, 3])
    # Array names are a letter and the subroutine's number: no `t`, whose
    # names would be the temporaries t1-t3 every subroutine declares (seed
    # 141196 declared t3 twice).
    names = iter("abcdefghopqrsxuvwyz")
    kernel_no = [0]
    used = set()
    for s in range(nsubs):
        depth = r.choice([1, 2, 2, 3, 3])
        sub = Subroutine("sub%d" % (s + 1), depth)
        sub.index = s + 1
        if "cnames" in FEATURES and r.random() < 0.3:
            sub.name = sub.name + "_" + "x" * (63 - len(sub.name) - 1)
        make_arrays(r, sub, names, s, used)
        make_scalars(r, sub, s)
        nreg = r.choice([1, 1, 1, 2])
        for reg in range(nreg):
            make_region(r, sub, reg, s, kernel_no)
        p.subs.append(sub)
    if mode == "outside":
        plant_illegal(r, p)
    p.filename = "fz%d.f" % seed if p.fixed else "fz%d.f90" % seed
    p.text = render(p)
    return p


def make_arrays(r, sub, names, s, used):
    d = sub.depth
    n = r.randint(2, 4)
    for a in range(n):
        name = next(names) + str(s + 1)
        if "cnames" in FEATURES and r.random() < 0.3:
            name = C_NAMES[r.randrange(len(C_NAMES))]
            # Unique in the file: run_fuzz.py's driver declares one variable
            # per array name for every subroutine's call.
            if name in used:
                name = next(names) + str(s + 1)
        used.add(name)
        kind = r.choice(["r8", "r8", "r8", "r4", "r8", "i", "l"]) if a >= 2 else r.choice(["r8", "r8", "r4"])
        dims = [(v, 1) for v in range(d)]
        # Multigrid: a grid twice as fine along some dimensions.
        if r.random() < 0.15:
            dims = [(v, 2) if r.random() < 0.7 else (v, 1) for v in range(d)]
        # Read-only shapes: lower rank, an extra dimension, reversed, transposed.
        if a >= 2 and kind != "l":
            c = r.random()
            if "ranks" not in FEATURES:
                pass
            elif c < 0.15 and d > 1:
                keep = sorted(r.sample(range(d), r.randint(1, d - 1)))
                dims = [(v, 1) for v in keep]
            elif c < 0.25 and "ranks" in FEATURES:
                dims = dims + [None]
            elif c < 0.32 and d > 1:
                dims = list(reversed(dims))
            elif c < 0.38:
                dims = [(v, -1) if v == 0 else (v, f) for v, f in dims]
        halo = r.choice([0, 1, 1, 2])
        extra = [r.choice([0, 0, 1]) for _ in dims]
        assumed = r.random() < 0.15
        sub.arrays.append(Array(name, kind, dims, halo, extra, assumed))
    # Every subroutine has at least two writable grids of its full rank.
    for a in sub.arrays[:2]:
        a.dims = [(v, f if f is not None and f > 0 else 1) for v, f in a.dims]


def make_scalars(r, sub, s):
    sub.scalars["alpha"] = "r8"
    if r.random() < 0.5:
        sub.scalars["beta"] = "r4"
    if r.random() < 0.4:
        sub.scalars["m"] = "i"
    if r.random() < 0.25:
        sub.scalars["flag"] = "l"
    for t, k in [("t1", "r8"), ("t2", "r8"), ("t3", "r4"), ("it", "i"), ("lt", "l")]:
        sub.temps[t] = k
    # Named constants, folded by f2stencil as Fortran rounds them.
    for n in range(r.randint(0, 2)):
        kind = r.choice(["r8", "r8", "r4", "i"])
        if kind == "i":
            value = "%d*%d - %d" % (r.randint(1, 4), r.randint(1, 4), r.randint(0, 3))
        else:
            lits = REAL8_LITS if kind == "r8" else REAL4_LITS
            value = "%s %s %s" % (r.choice(lits), r.choice(["+", "*", "/", "-"]), r.choice(lits))
            if "powconst" in FEATURES and r.random() < 0.5:
                value = "%s**2" % r.choice(lits)
        sub.params["c%d%d" % (n + 1, sub.index)] = (kind, value)


# The longest kernel name whose module procedures all fit Fortran's 63
# characters: `<K>_first_touch_explicit` is the longest (driver/Pipeline.cpp).
MAX_KERNEL_NAME = 63 - len("_first_touch_explicit")


def fits_write(a, depth):
    return (not a.assumed or True) and len(a.dims) == depth and all(
        dim is not None and dim[1] > 0 for dim in a.dims) and [dim[0] for dim in a.dims] == list(
            range(depth)) and a.kind in ("r8", "r4")


def make_region(r, sub, reg, s, kernel_no):
    d = sub.depth
    kernel_no[0] += 1
    name = "k%d" % kernel_no[0] if r.random() < 0.7 else None
    if name is None and len(sub.name) + 2 > MAX_KERNEL_NAME:
        # The default name `<sub>_<n>` of a long subroutine is refused (its
        # module procedures would pass 63 characters): a name(...) clause of
        # the longest length every target and wrapper allows.
        name = ("k%d_" % kernel_no[0]).ljust(MAX_KERNEL_NAME, "y")
    region = Region(name, d)
    region.kernel = name if name else "%s_%d" % (sub.name, reg + 1)
    candidates = [a for a in sub.arrays if fits_write(a, d)]
    rb = None
    red_black = d >= 2 and r.random() < 0.12 and any(all(f == 1 for _, f in a.dims) and a.halo >= 1
                                                     for a in candidates)
    writes = {}
    if red_black:
        region.red_black = True
        rb_arr = r.choice([a for a in candidates if all(f == 1 for _, f in a.dims) and a.halo >= 1])
        rb = rb_arr.name
        rb_arr.written = True
    else:
        nw = r.randint(1, min(2, len(candidates)))
        for a in r.sample(candidates, nw):
            a.written = True
            offs_choices = [[0] * d]
            if any(f == 2 for _, f in a.dims) and r.random() < 0.6:
                # Several stores of one array from one point: offsets that
                # differ modulo the factor along a dimension of factor 2.
                dd = r.choice([x for x, (_, f) in enumerate(a.dims) if f == 2])
                o2 = [0] * d
                o2[dd] = -1
                offs_choices.append(o2)
                a.halo = max(a.halo, 1)
            elif r.random() < 0.2:
                shift = [r.randint(-a.halo, a.halo) if a.halo else 0 for _ in range(d)]
                offs_choices = [shift]
            writes[a.name] = [tuple(sub_text(v, f, o[x]) for x, (v, f) in enumerate(a.dims))
                              for o in offs_choices]
    g = Gen(r, sub, writes, rb)
    # Loops: bounds 1..n or 2..n-1, a constant step of 2 now and then, the
    # red-black stride form on the innermost loop.
    loops = []
    for v in reversed(range(d)):
        lo = r.choice(["1", "1", "2"])
        hi = r.choice([SIZES[v], SIZES[v], "%s - 1" % SIZES[v]])
        step = ""
        if rb and v == 0 and r.random() < 0.5:
            outer = "+".join(VARS[x] for x in range(1, d))
            lo = "1 + mod(%s + color, 2)" % outer
            step = ", 2"
            g.rb_stride = True
        elif not rb and r.random() < 0.1:
            step = ", 2"
            lo = r.choice(["1", "2"])
        loops.append("do %s = %s, %s%s" % (VARS[v], lo, hi, step))
    region.loops = loops
    body = []
    if rb:
        sub.scalars["color"] = "i"
        test = "mod(%s + color, 2) == 0" % "+".join(VARS[x] for x in range(d))
        if getattr(g, "rb_stride", False):
            test = None
        a = next(x for x in sub.arrays if x.name == rb)
        inner = []
        g.writes_at = None
        e = g.real(a.kind, 3)
        # Reads of the coloured array at the other colour's points.
        e2 = Expr(g.subscript(a), P_ATOM, a.kind)
        inner.append("%s(%s) = %s + %s*%s" % (a.name, ", ".join(VARS[:d]), wrap(e, P_ADD),
                                              g.real_lit(a.kind), e2.text))
        if test:
            body.append("if (%s) then" % test)
            body += ["  " + x for x in inner]
            body.append("end if")
        else:
            body += inner
    else:
        nstmt = r.randint(1, 5)
        stmts = []
        todo = list(writes.items())
        for _ in range(nstmt):
            stmts += gen_stmt(r, g, sub, region, writes, 0)
        # Each written array is written unconditionally at each of its
        # subscripts at least once.
        for an, subs in todo:
            a = next(x for x in sub.arrays if x.name == an)
            for st in subs:
                stmts.append("%s(%s) = %s" % (an, ", ".join(st), g.real(a.kind, 3).text))
        body = stmts
    region.lines = body
    sub.regions.append(region)


def gen_stmt(r, g, sub, region, writes, nest):
    c = r.random()
    out = []
    if c < 0.3:
        # A temporary.
        t = r.choice(sorted(sub.temps))
        kind = sub.temps[t]
        out.append("%s = %s" % (t, g.value(kind, 3).text))
        g.defined.add(t)
        return out
    if c < 0.55 and writes:
        an = r.choice(sorted(writes))
        a = next(x for x in sub.arrays if x.name == an)
        st = r.choice(writes[an])
        out.append("%s(%s) = %s" % (an, ", ".join(st), g.real(a.kind, 3).text))
        return out
    if c < 0.68:
        # A reduction update.
        kind = r.choice(["r8", "r8", "r4", "i"])
        op = r.choice(["+", "+", "-", "max", "min"])
        existing = [s for s, (k, o) in region.reductions.items() if True]
        if existing and r.random() < 0.5:
            name = r.choice(existing)
            kind, op = region.reductions[name]
        else:
            name = "s%d%d" % (sub.index, len(sub.reductions) + 1)
            sub.reductions[name] = (kind, op)
            region.reductions[name] = (kind, op)
        if kind == "i":
            term = g.integer(2).text
            if op in "+-":
                term = "abs(%s)" % term
        else:
            term = g.real(kind, 2)
            if op in "+-":
                term = r.choice(["abs(%s)", "(%s)**2", "sqrt(abs(%s))"]) % term.text
            else:
                term = term.text
        if op == "+":
            out.append(r.choice(["%s = %s + %s", "%s = %s + %s"]) % (name, name, term)
                       if r.random() < 0.7 else "%s = %s + %s" % (name, term, name))
        elif op == "-":
            out.append("%s = %s - %s" % (name, name, term))
        else:
            out.append("%s = %s(%s, %s)" % (name, op, name, term))
        return out
    if c < 0.9 and nest < 2:
        cond = g.logical(2).text
        before = set(g.defined)
        then = []
        for _ in range(r.randint(1, 2)):
            then += gen_stmt(r, g, sub, region, writes, nest + 1)
        then_def = set(g.defined)
        g.defined = set(before)
        out.append("if (%s) then" % cond)
        out += ["  " + x for x in then]
        if r.random() < 0.5:
            final_else = r.random() >= 0.3
            out.append("else" if final_else else "else if (%s) then" % g.logical(1).text)
            els = []
            for _ in range(r.randint(1, 2)):
                els += gen_stmt(r, g, sub, region, writes, nest + 1)
            out += ["  " + x for x in els]
            # Without a final ELSE, a path may assign nothing.
            g.defined = before | (then_def & set(g.defined)) if final_else else before
        else:
            g.defined = before
        out.append("end if")
        return out
    if writes:
        an = r.choice(sorted(writes))
        a = next(x for x in sub.arrays if x.name == an)
        st = r.choice(writes[an])
        out.append("if (%s) %s(%s) = %s" % (g.logical(1).text, an, ", ".join(st), g.real(a.kind, 2).text))
    return out


def plant_illegal(r, p):
    """Puts one known-illegal shape into one region of an inside program."""
    sub = r.choice(p.subs)
    region = r.choice(sub.regions)
    if region.red_black:
        # The colour test would make a neighbour's read legal: a plain nest.
        region.red_black = False
        region.lines = []
        region.loops = ["do %s = 1, %s" % (VARS[v], SIZES[v]) for v in reversed(range(sub.depth))]
    d = sub.depth
    grids = [a for a in sub.arrays if a.written and fits_write(a, d) and all(f == 1 for _, f in a.dims)]
    kinds = ["fewer", "scalar_before", "reduction_read", "long_name"]
    if grids:
        kinds += ["carried", "carried", "carried_write"]
    k = r.choice(kinds)
    p.outside_kind = k
    idx = ", ".join(VARS[:d])
    if k == "carried":
        a = r.choice(grids)
        # Offsets of 2: another point's element also along a stride-2 loop.
        a.halo = max(a.halo, 2)
        # The write comes first, then reads of a neighbour along every loop:
        # each neighbour is another point's element, and with every loop
        # carrying a dependence none can be the ordered one (issue 11's
        # sweeps accept a nest where only one loop carries).
        reads = []
        for dim in range(d):
            offs = [0] * d
            offs[dim] = r.choice([-2, 2])
            reads.append("%s(%s)" % (a.name, ", ".join(sub_text(v, 1, offs[v]) for v in range(d))))
        region.lines = region.lines + ["%s(%s) = %s(%s) + 0.5d0*(%s)" % (
            a.name, idx, a.name, idx, " + ".join(reads))]
        p.expect = "depends on the loop order"
    elif k == "carried_write":
        a = r.choice(grids)
        a.halo = max(a.halo, 2)
        # Stores that meet another point's along every loop (one loop alone
        # would be an ordered sweep), 2 away: also along a stride-2 loop.
        for dim in range(d):
            offs = [0] * d
            offs[dim] = 2
            region.lines = region.lines + ["%s(%s) = 1.0d0" % (a.name, ", ".join(
                sub_text(v, 1, offs[v]) for v in range(d)))]
        region.lines = region.lines + ["%s(%s) = 2.0d0" % (a.name, idx)]
        p.expect = "depends on the loop order"
    elif k == "fewer":
        a = r.choice([x for x in sub.arrays if fits_write(x, d)])
        a.written = True
        subs = [VARS[v] for v in range(d)]
        if d == 1:
            subs[0] = "1"
        else:
            subs[r.randrange(d)] = "1"
        region.lines = region.lines + ["%s(%s) = 0.5d0" % (a.name, ", ".join(subs))]
        p.expect = "writes the same element"
    elif k == "long_name":
        # A name(...) whose `<K>_first_touch` passes Fortran's 63 characters.
        region.name = "kl_".ljust(MAX_KERNEL_NAME + 10, "y")
        region.kernel = region.name
        p.expect = "is too long: the library's module would declare"
    elif k == "reduction_read":
        # A sum whose partial value the point also reads.
        a = next(x for x in sub.arrays if x.written and fits_write(x, d))
        sub.reductions["sq"] = ("r8", "+")
        region.lines = region.lines + ["sq = sq + abs(alpha)", "%s(%s) = sq" % (a.name, idx)]
        p.expect = "and also read here"
    else:
        sub.temps["tq"] = "r8"
        region.lines = ["if (alpha > 0.5d0) then", "  tq = 1.0d0", "end if"] + region.lines
        a = next(x for x in sub.arrays if x.written and fits_write(x, d))
        region.lines.append("%s(%s) = tq" % (a.name, idx))
        p.expect = "may be read before it is assigned"


KIND_DECL = {"r8": "real(8)", "r4": "real(4)", "i": "integer", "l": "logical"}


def render(p):
    out = []
    for sub in p.subs:
        out += render_sub(p, sub)
        out.append("")
    lines = []
    for line in out:
        lines += fixed_lines(line) if p.fixed else free_lines(line)
    return "\n".join(lines) + "\n"


def render_sub(p, sub, interface=False):
    """The subroutine's text, or with `interface` only its header and the
    declarations of its dummies (for an INTERFACE block)."""
    d = sub.depth
    dummies = SIZES[:d] + sorted(sub.scalars) + sorted(sub.reductions) + [a.name for a in sub.arrays]
    L = ["subroutine %s(%s)" % (sub.name, ", ".join(dummies)), "  implicit none"]
    L.append("  integer, intent(in) :: %s" % ", ".join(SIZES[:d]))
    for s in sorted(sub.scalars):
        L.append("  %s, intent(in) :: %s" % (KIND_DECL[sub.scalars[s]], s))
    for s in sorted(sub.reductions):
        L.append("  %s, intent(inout) :: %s" % (KIND_DECL[sub.reductions[s][0]], s))
    for a in sub.arrays:
        intent = "inout" if a.written else "in"
        L.append("  %s, intent(%s) :: %s%s" % (KIND_DECL[a.kind], intent, a.name, a.decl_shape()))
    if interface:
        return L + ["end subroutine %s" % sub.name]
    for n in sorted(sub.params):
        kind, value = sub.params[n]
        L.append("  %s, parameter :: %s = %s" % (KIND_DECL[kind], n, value))
    for t in sorted(sub.temps):
        L.append("  %s :: %s" % (KIND_DECL[sub.temps[t]], t))
    L.append("  integer :: %s" % ", ".join(VARS[:d]))
    for region in sub.regions:
        # A small tuning size in every region, so that tuning (run_fuzz.py's
        # tuned runs) takes seconds; clauses in either order.
        clauses = ["tune_size(%s)" % ", ".join(str(9 - 2 * v) for v in range(d))]
        if region.name:
            clauses.insert(len(region.name) % 2, "name(%s)" % region.name)
        clause = " " + " ".join(clauses)
        L.append("  !$f2s stencil%s" % clause)
        ind = "  "
        for lp in region.loops:
            L.append(ind + lp)
            ind += "  "
        for line in region.lines:
            L.append(ind + line)
        for _ in region.loops:
            ind = ind[:-2]
            L.append(ind + "end do")
    # A fixed-form END statement may not be continued: a long name is left out.
    L.append("end subroutine" if p.fixed and len(sub.name) > 40 else "end subroutine %s" % sub.name)
    return L


def split_at(text, width):
    """Splits text into pieces of at most width characters, at spaces or
    commas where possible, never inside a token."""
    pieces = []
    while len(text) > width:
        cut = max(text.rfind(" ", 0, width), text.rfind(",", 0, width) + 1)
        if cut <= 0:
            cut = width
        pieces.append(text[:cut])
        text = text[cut:]
    pieces.append(text)
    return pieces


def free_lines(line):
    if len(line) <= 100 or line.lstrip().startswith("!"):
        return [line]
    parts = split_at(line, 90)
    return [x + " &" for x in parts[:-1]] + ["    & " + parts[-1]]


def fixed_lines(line):
    s = line.strip()
    if s.startswith("!$f2s"):
        return ["!$f2s" + s[5:]]
    ind = len(line) - len(line.lstrip())
    body = " " * (6 + ind) + s
    if len(body) <= 72:
        return [body]
    parts = split_at(s, 72 - 6 - ind)
    out = [" " * (6 + ind) + parts[0]]
    for x in parts[1:]:
        for y in split_at(x, 60):
            out.append("     &" + " " * 6 + y)
    return out
