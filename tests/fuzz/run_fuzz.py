#!/usr/bin/env python3
"""Differential testing of f2stencil with random programs (tests/fuzz/generator.py).

For each seed: the generated program is compiled by gfortran (a program
gfortran rejects is a generator bug, counted as `invalid`); f2stencil runs on
it; an "inside" program must be accepted and an "outside" program refused with
the expected reason. An accepted program's library is called, kernel by
kernel, from a generated Fortran driver on random data at odd sizes, for the
targets c and pthreads (untuned), now and then tuned on a tiny size with a
small budget, and now and then for cuda through the CPU emulation of
tests/cuda/emulation; every written array must equal the gfortran-compiled
original's bit for bit, and every reduction too, except sums on the parallel
targets, which add the same terms in another order: they must agree to a
relative 1e-10 (REAL(8)) or 1e-4 (REAL(4)); the generator makes every term of
such a sum of one sign, so that bound holds for any order of additions at
these sizes.

A failure is minimised (statements, IF blocks, regions and subroutines deleted
while the same failure remains) and written with its seed to --regress-dir as
a .json replay (seed, mode, deletions) and the minimised .f90.

  run_fuzz.py --f2stencil build/driver/f2stencil --count 1000 --jobs 1
  run_fuzz.py --replay tests/fuzz/regressions   (every saved case must pass)
"""

import argparse
import concurrent.futures
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generator  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EMULATION = os.path.join(HERE, "..", "cuda", "emulation")
# harness/Process.cpp's c_rounding_flags, for the C this script compiles
# itself: no FMA contraction, and libm's inexact functions always called.
ROUNDING = ["-ffp-contract=off", "-fopenmp-simd"] + ["-fno-builtin-%s%s" % (f, s) for f in (
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "log",
    "log10", "pow") for s in ("", "f")]

KIND_DECL = generator.KIND_DECL
BITS = {"r8": "0_8", "r4": "0_4"}


class Outcome:
    def __init__(self, status, detail=""):
        self.status = status
        self.detail = detail

    def failed(self):
        return self.status not in ("ok", "refused-ok")


def sh(argv, cwd, timeout=300, env=None):
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=env, errors="replace")
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "timed out after %ds: %s" % (timeout, " ".join(argv))


def kernel_args(module_text, kernel):
    """The dummy argument names of `subroutine <kernel>(...)` in the module."""
    text = re.sub(r"&\s*\n\s*&?", " ", module_text)
    m = re.search(r"subroutine\s+%s\s*\(([^)]*)\)" % re.escape(kernel), text, re.I)
    if not m:
        return None
    return [a.strip() for a in m.group(1).split(",") if a.strip()]


def sizes_for(seed):
    r = random.Random("sizes:%d" % seed)
    return [r.choice([5, 7, 9, 11, 13]) for _ in range(3)]


def driver_text(p, lib, modules, suffixes):
    """A Fortran program that runs the original subroutines and then, for the
    target named on its command line, the library's kernels, and compares."""
    r = random.Random("driver:%d" % p.seed)
    subs = p.subs
    arrays = [a for s in subs for a in s.arrays]
    scalars = {}
    for s in subs:
        scalars.update(s.scalars)
    reds = {}
    for s in subs:
        for name, (kind, op) in s.reductions.items():
            reds[name] = (kind, op)
    L = ["program fzdrv", "  use %s" % lib, "  implicit none", "  interface"]
    for s in subs:
        L += ["  " + x for x in generator.render_sub(p, s, interface=True)]
    L += ["  end interface",
         "  integer :: nx, ny, nz, nbad", "  character(len=32) :: arg, tgt"]
    for name, kind in sorted(scalars.items()):
        L.append("  %s :: %s" % (KIND_DECL[kind], name))
    for name, (kind, op) in sorted(reds.items()):
        L.append("  %s :: %s, %s_0, %s_r" % (KIND_DECL[kind], name, name, name))
    for a in arrays:
        colons = ",".join([":"] * len(a.dims))
        L.append("  %s, allocatable :: %s(%s), %s_0(%s), %s_r(%s)" % (
            KIND_DECL[a.kind], a.name, colons, a.name, colons, a.name, colons))
        if a.kind in ("i", "l"):
            L.append("  real(8), allocatable :: %s_x(%s)" % (a.name, colons))
    L += ["  call get_command_argument(1, arg); read (arg, *) nx",
          "  call get_command_argument(2, arg); read (arg, *) ny",
          "  call get_command_argument(3, arg); read (arg, *) nz",
          "  call get_command_argument(4, tgt)", "  nbad = 0"]
    for name, kind in sorted(scalars.items()):
        if kind == "r8":
            L.append("  %s = %.6fd0" % (name, r.uniform(0.2, 1.8)))
        elif kind == "r4":
            L.append("  %s = %.6f" % (name, r.uniform(0.2, 1.8)))
        elif kind == "i":
            L.append("  %s = %d" % (name, r.randint(0, 4)))
        else:
            L.append("  %s = %s" % (name, r.choice([".true.", ".false."])))
    for name, (kind, op) in sorted(reds.items()):
        if op in "+-":
            init = "0"
        elif kind == "i":
            init = str(r.randint(-3, 3))
        else:
            init = "%.4f" % r.uniform(-0.5, 0.5)
        if kind == "r8" and "." in init:
            init += "d0"
        L.append("  %s_0 = %s" % (name, init))
        L.append("  %s = %s_0" % (name, name))
    for a in arrays:
        shape = ", ".join("%s:%s" % b for b in a.bounds())
        L.append("  allocate(%s(%s))" % (a.name, shape))
        if a.kind in ("r8", "r4"):
            L.append("  call random_number(%s)" % a.name)
        else:
            L.append("  allocate(%s_x(%s))" % (a.name, shape))
            L.append("  call random_number(%s_x)" % a.name)
            L.append("  %s = %s" % (a.name, "%s_x > 0.4d0" % a.name if a.kind == "l"
                                   else "int(%s_x*9d0) - 3" % a.name))
        L.append("  %s_0 = %s" % (a.name, a.name))
    for s in subs:
        L.append("  call %s(%s)" % (s.name, ", ".join(sub_dummies(s))))
    for a in arrays:
        L.append("  %s_r = %s" % (a.name, a.name))
    for name in sorted(reds):
        L.append("  %s_r = %s" % (name, name))
    for a in arrays:
        L.append("  %s = %s_0" % (a.name, a.name))
    for name in sorted(reds):
        L.append("  %s = %s_0" % (name, name))
    L.append("  select case (trim(tgt))")
    for suffix in suffixes:
        L.append("  case ('%s')" % (suffix or "best"))
        for s in subs:
            for region in s.regions:
                L.append("    call %s%s(%s)" % (region.kernel, suffix and "_" + suffix,
                                                ", ".join(modules[region.kernel])))
    L += ["  case default", "    print '(a)', 'unknown target ' // trim(tgt)", "    stop 2",
          "  end select"]
    for a in arrays:
        if not a.written:
            continue
        L.append("  if (any(transfer(%s, %s, size(%s)) /= transfer(%s_r, %s, size(%s_r)))) then" % (
            a.name, BITS[a.kind], a.name, a.name, BITS[a.kind], a.name))
        L.append("    nbad = nbad + 1")
        L.append("    print '(a, es24.16)', 'MISMATCH %s ' // trim(tgt) // ' largest difference ', &" % a.name)
        L.append("      maxval(abs(%s - %s_r))" % (a.name, a.name))
        L.append("  end if")
    for name, (kind, op) in sorted(reds.items()):
        if kind == "i" or op not in "+-":
            cond = "%s /= %s_r" % (name, name)
        else:
            tol = "1d-10" if kind == "r8" else "1e-4"
            cond = ("(trim(tgt) == 'c' .and. %s /= %s_r) .or. abs(%s - %s_r) > %s*max(abs(%s_r), tiny(%s))"
                    % (name, name, name, name, tol, name, name))
        L.append("  if (%s) then" % cond)
        L.append("    nbad = nbad + 1")
        L.append("    print *, 'MISMATCH %s ', trim(tgt), %s, %s_r" % (name, name, name))
        L.append("  end if")
    L += ["  if (nbad > 0) stop 1", "  print '(a)', 'OK'", "end program fzdrv"]
    out = []
    for line in L:
        out += generator.free_lines(line)
    return "\n".join(out) + "\n"


def sub_dummies(s):
    d = s.depth
    return generator.SIZES[:d] + sorted(s.scalars) + sorted(s.reductions) + [a.name for a in s.arrays]


class Runner:
    def __init__(self, opts):
        self.o = opts

    def check(self, p, work, tuned=False, cuda=False):
        """Runs one program through every check; returns an Outcome."""
        o = self.o
        os.makedirs(work, exist_ok=True)
        src = os.path.join(work, p.filename)
        with open(src, "w") as f:
            f.write(p.text)
        # Bounds checked: an access outside an array in the original is the
        # generator's bug, reported as `invalid`. At -O0: gfortran -O1 folds
        # an expression of literals it propagates through stores
        # (`g(i) = 0.25d0` then `sin(g(i))**3`) with MPFR, one rounding where
        # the library, reading the array, rounds at each operation (seed 4477).
        rc, out = sh(["gfortran", "-c", "-O0", "-ffp-contract=off", "-fcheck=bounds", "-w", "-o", "orig.o",
                      p.filename], work)
        if rc != 0:
            return Outcome("invalid", out[:3000])
        lib = "f2s_fz%d" % p.seed
        targets = "c,pthreads,cuda" if cuda else "c,pthreads"
        cmd = [o.f2stencil, "--target=" + targets, "--no-tune", "-q", "-j", "1", "--lib=" + lib,
               "-o", "lib", p.filename]
        if o.sanitize:
            cmd.insert(1, "--sanitize")
        rc, out = sh(cmd, work, timeout=600)
        if rc == "timeout":
            return Outcome("f2stencil-timeout", out)
        if rc not in (0, 1):
            return Outcome("crash", "f2stencil exit status %s\n%s" % (rc, out[-3000:]))
        if p.mode == "outside":
            if rc == 0:
                return Outcome("accepted-outside", "expected a refusal with '%s'" % p.expect)
            if p.expect not in out:
                return Outcome("wrong-refusal", "expected '%s', got: %s" % (p.expect, out.strip()[:2000]))
            return Outcome("refused-ok", out.strip())
        if rc != 0:
            if "f2stencil: error: Command '" in out:
                kind = "library-build"
            elif ": error: " in out:
                kind = "refused-inside"
            else:
                kind = "crash"
            return Outcome(kind, out.strip()[:3000])
        with open(os.path.join(work, "lib", lib + ".f90")) as f:
            module = f.read()
        args = {}
        for s in p.subs:
            dummies = set(sub_dummies(s))
            for rg in s.regions:
                k = rg.kernel
                a = kernel_args(module, k)
                if a is None:
                    return Outcome("harness", "no procedure '%s' in %s.f90" % (k, lib))
                # A local the kernel takes as an argument is read before the
                # region assigns it: the original reads an undefined value
                # (the minimiser makes such programs, deleting assignments).
                undefined = [x for x in a if x not in dummies]
                if undefined:
                    return Outcome("invalid", "kernel '%s' reads %s, locals of '%s' with no value" % (
                        k, ", ".join("'%s'" % x for x in undefined), s.name))
                args[k] = a
        suffixes = ["c", "pthreads"] + (["cuda"] if cuda else [])
        with open(os.path.join(work, "drv.f90"), "w") as f:
            f.write(driver_text(p, lib, args, suffixes))
        # The driver only copies, fills and compares: -O0 compiles it in a
        # third of -O1's time, a quarter of a program's cost.
        link = ["gfortran", "-O0", "-w", "-o", "drv", "drv.f90", "orig.o", "-Ilib"]
        if cuda:
            built = self.emulated_objects(work, lib)
            if isinstance(built, Outcome):
                return built
            link += built + ["-lstdc++", "-lm"]
        else:
            link += [os.path.join("lib", "lib%s.a" % lib)]
        link += ["-lpthread"]
        if o.sanitize:
            link += ["-fsanitize=address,undefined"]
        rc, out = sh(link, work)
        if rc != 0:
            return Outcome("build", out[:3000])
        n = sizes_for(p.seed)
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
        for suffix in suffixes:
            e = dict(env)
            e["F2S_NUM_THREADS"] = "3"
            if suffix == "cuda":
                e["F2S_TARGET"] = "cuda"
            rc, out = sh(["./drv"] + [str(x) for x in n] + [suffix], work, timeout=120, env=e)
            if rc != 0:
                if "Fortran runtime error" in out and "bound" in out:
                    return Outcome("invalid", "the original reads out of bounds: " + out.strip()[:2000])
                return Outcome("mismatch" if "MISMATCH" in out else "run-error",
                               "target %s, sizes %s: %s" % (suffix, n, out.strip()[:3000]))
        if tuned:
            # A tuning cache of its own: every candidate is measured here.
            cmd = [o.f2stencil, "--target=c,pthreads", "-q", "-j", "1", "--budget=2", "--reps=1",
                   "--tuning-db", os.path.join(work, "tuning.db"), "--lib=" + lib, "-o", "libt",
                   p.filename]
            rc, out = sh(cmd, work, timeout=600)
            if rc != 0:
                return Outcome("tuned-refused" if rc == 1 else "crash", out.strip()[:3000])
            # Every candidate measured must have verified: one that crashed
            # (an out-of-bounds access under --sanitize) or disagreed with the
            # serial reference is a bug even though it was not chosen.
            with open(os.path.join(work, "libt", lib + ".json")) as f:
                record = json.load(f)
            for kr in record["kernels"]:
                for c in kr["candidates"]:
                    if c.get("status") in ("wrong result", "crashed", "build failed"):
                        return Outcome("candidate-failed", "%s %s: %s" % (kr["name"], c.get("id"), c.get("status")))
            with open(os.path.join(work, "drv.f90"), "w") as f:
                f.write(driver_text(p, lib, args, [""]))
            rc, out = sh(["gfortran", "-O0", "-w", "-o", "drvt", "drv.f90", "orig.o", "-Ilibt",
                          os.path.join("libt", "lib%s.a" % lib), "-lpthread"], work)
            if rc != 0:
                return Outcome("build", "tuned: " + out[:3000])
            rc, out = sh(["./drvt"] + [str(x) for x in n] + ["best"], work, timeout=120,
                         env=dict(env, F2S_NUM_THREADS="3"))
            if rc != 0:
                return Outcome("mismatch" if "MISMATCH" in out else "run-error",
                               "tuned, sizes %s: %s" % (n, out.strip()[:3000]))
        return Outcome("ok")

    def emulated_objects(self, work, lib):
        """The library's C and its CUDA through the CPU emulation, as objects."""
        libdir = os.path.join(work, "lib")
        with open(os.path.join(libdir, lib + "_cuda.cu")) as f:
            cu = f.read()
        launch = re.compile(r"([A-Za-z_][A-Za-z0-9_]*<[a-z]+, (?:true|false)>)<<<([^>]*)>>>\(([^;]*)\);")
        cu = launch.sub(r"f2s_emu_launch(\2, [&] { \1(\3); });", cu)
        with open(os.path.join(work, "emu.cpp"), "w") as f:
            f.write(cu)
        rc, out = sh(["g++", "-std=c++20", "-O1"] + ROUNDING + ["-pthread", "-w", "-I", EMULATION,
                      "-c", "emu.cpp", "-o", "emu.o"], work)
        if rc != 0:
            return Outcome("build", "emulated CUDA: " + out[:3000])
        rc, out = sh(["gcc", "-O3", "-march=native"] + ROUNDING + ["-std=gnu11", "-pthread", "-w",
                      "-c", os.path.join("lib", lib + ".c"), "-o", "lib_c.o"], work)
        if rc != 0:
            return Outcome("build", "library C: " + out[:3000])
        # The module's wrappers (assumed-shape, LOGICAL arguments) are code too.
        os.makedirs(os.path.join(work, "modscratch"), exist_ok=True)
        rc, out = sh(["gfortran", "-c", "-w", "-Jmodscratch", os.path.join("lib", lib + ".f90"), "-o", "lib_mod.o"],
                     work)
        if rc != 0:
            return Outcome("build", "library module: " + out[:3000])
        return ["lib_mod.o", "lib_c.o", "emu.o"]


def have_nvcc():
    """Whether f2stencil can build a library with CUDA (harness/CudaToolkit.cpp's search)."""
    return bool(os.environ.get("NVCC") or shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc"))


def plan(seed, opts):
    """What a seed runs: its mode, and whether it is also tuned and emulated."""
    mode = "outside" if opts.outside_every and seed % opts.outside_every == opts.outside_every - 1 else "inside"
    tuned = bool(opts.tuned_every) and seed % opts.tuned_every == 0
    cuda = bool(opts.cuda_every) and seed % opts.cuda_every == 1 and have_nvcc()
    return mode, tuned, cuda


def apply_deletions(p, deletions):
    for d in deletions:
        delete(p, d)
    p.text = generator.render(p)
    return p


def delete(p, d):
    kind = d[0]
    if kind == "sub":
        del p.subs[d[1]]
    elif kind == "region":
        del p.subs[d[1]].regions[d[2]]
    elif kind == "rhs":
        # A right-hand side becomes 0; a one-line IF its assignment.
        _, si, ri, at = d
        lines = p.subs[si].regions[ri].lines
        line = lines[at]
        ind = line[:len(line) - len(line.lstrip())]
        t = line.strip()
        if t.startswith("if ("):
            depth = 0
            for n, ch in enumerate(t):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0 and n > 2:
                    lines[at] = ind + t[n + 1:].strip()
                    break
        else:
            lines[at] = ind + t[:t.index(" = ")] + " = 0"
    else:
        _, si, ri, lo, hi = d
        lines = p.subs[si].regions[ri].lines
        del lines[lo:hi]


def candidates(p):
    """Deletions to try, biggest first: subroutines, regions, IF blocks and
    statements (a block from IF ... THEN to its END IF at once)."""
    out = []
    if len(p.subs) > 1:
        out += [("sub", i) for i in range(len(p.subs))]
    for si, s in enumerate(p.subs):
        if len(s.regions) > 1:
            out += [("region", si, ri) for ri in range(len(s.regions))]
    for si, s in enumerate(p.subs):
        for ri, rg in enumerate(s.regions):
            lines = rg.lines
            for lo, line in enumerate(lines):
                t = line.strip()
                if t.startswith("if (") and t.endswith("then"):
                    ind = len(line) - len(line.lstrip())
                    hi = lo + 1
                    while hi < len(lines) and not (lines[hi].strip() == "end if" and
                                                    len(lines[hi]) - len(lines[hi].lstrip()) == ind):
                        hi += 1
                    out.append(("lines", si, ri, lo, hi + 1))
                elif t.startswith("else") or t == "end if":
                    continue
                else:
                    out.append(("lines", si, ri, lo, lo + 1))
    # Then simpler statements: terms go with their right-hand side.
    for si, s in enumerate(p.subs):
        for ri, rg in enumerate(s.regions):
            for at, line in enumerate(rg.lines):
                t = line.strip()
                if t.startswith("if (") and not t.endswith("then"):
                    out.append(("rhs", si, ri, at))
                elif " = " in t and not t.startswith(("if (", "else")) and not t.endswith(" = 0"):
                    out.append(("rhs", si, ri, at))
    return out


def minimise(runner, seed, mode, tuned, cuda, outcome, work):
    deletions = []
    base = generator.generate(seed, mode, runner.o.features)
    progress = True
    while progress:
        progress = False
        p = apply_deletions(copy.deepcopy(base), deletions)
        for c in candidates(p):
            trial = copy.deepcopy(p)
            delete(trial, c)
            trial.text = generator.render(trial)
            w = os.path.join(work, "min%d" % random.randrange(10**9))
            got = runner.check(trial, w, tuned, cuda)
            shutil.rmtree(w, ignore_errors=True)
            if got.status == outcome.status:
                deletions.append(c)
                progress = True
                break
    return deletions, apply_deletions(copy.deepcopy(base), deletions)


def one(args):
    seed, opts = args
    runner = Runner(opts)
    mode, tuned, cuda = plan(seed, opts)
    p = generator.generate(seed, mode, opts.features)
    work = tempfile.mkdtemp(prefix="f2sfuzz%d_" % seed, dir=opts.work)
    t0 = time.time()
    try:
        got = runner.check(p, work, tuned, cuda)
    except Exception as e:  # a harness bug must not stop the campaign
        got = Outcome("harness", repr(e))
    result = {"seed": seed, "mode": mode, "shape": p.outside_kind, "tuned": tuned, "cuda": cuda, "status": got.status,
              "detail": got.detail if got.failed() else "", "seconds": round(time.time() - t0, 1)}
    if got.failed() and opts.regress_dir and got.status != "harness":
        deletions, small = minimise(runner, seed, mode, tuned, cuda, got, opts.work) if opts.minimise else ([], p)
        os.makedirs(opts.regress_dir, exist_ok=True)
        stem = os.path.join(opts.regress_dir, "seed%d_%s" % (seed, mode))
        with open(stem + ".json", "w") as f:
            json.dump({"seed": seed, "mode": mode, "features": opts.features, "tuned": tuned, "cuda": cuda,
                       "status": got.status,
                       "deletions": deletions, "detail": got.detail}, f, indent=1)
        with open(stem + os.path.splitext(small.filename)[1], "w") as f:
            f.write(small.text)
        result["minimised"] = stem
    if not opts.keep:
        shutil.rmtree(work, ignore_errors=True)
    else:
        result["work"] = work
    return result


def replay(opts):
    """Runs every saved regression case; each must now pass."""
    runner = Runner(opts)
    bad = 0
    files = sorted(f for f in os.listdir(opts.replay) if f.endswith(".json"))
    for name in files:
        with open(os.path.join(opts.replay, name)) as f:
            case = json.load(f)
        p = apply_deletions(generator.generate(case["seed"], case["mode"], case.get("features", [])),
                            [tuple(d) for d in case["deletions"]])
        work = tempfile.mkdtemp(prefix="f2sreplay_", dir=opts.work)
        got = runner.check(p, work, case.get("tuned", False), case.get("cuda", False))
        print("%s: %s %s" % (name, got.status, got.detail[:500] if got.failed() else ""))
        bad += got.failed()
        shutil.rmtree(work, ignore_errors=True)
    print("replayed %d, failed %d" % (len(files), bad))
    return 1 if bad else 0


def print_totals(path):
    """Prints a campaign's counts from its --log: seeds, per outcome, per
    check (tuned, cuda), and per outside shape (recomputed from the seed when
    the log predates the "shape" field)."""
    rows = {}
    with open(path) as f:
        for line in f:
            x = json.loads(line)
            rows[x["seed"]] = x  # a seed run twice counts once, its last run
    seeds = sorted(rows)
    count = {}

    def add(key):
        count[key] = count.get(key, 0) + 1

    for s in seeds:
        x = rows[s]
        add("status " + x["status"])
        add("mode " + x["mode"])
        if x["tuned"]:
            add("tuned " + x["status"])
        if x["cuda"]:
            add("cuda " + x["status"])
        if x["mode"] == "outside":
            shape = x.get("shape") or generator.generate(s, "outside", generator.DEFAULT_FEATURES).outside_kind
            add("shape %s %s" % (shape, x["status"]))
    gaps = seeds[-1] - seeds[0] + 1 - len(seeds) if seeds else 0
    print("programs %d, seeds %d-%d (%d missing), %.0f s of programs" % (
        len(seeds), seeds[0] if seeds else 0, seeds[-1] if seeds else 0, gaps,
        sum(rows[s]["seconds"] for s in seeds)))
    for k in sorted(count):
        print("  %-40s %d" % (k, count[k]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--f2stencil", default=os.path.join(HERE, "..", "..", "build", "driver", "f2stencil"))
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--start", type=int, default=0, help="first seed")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--outside-every", type=int, default=5, help="every Nth seed is an outside program")
    ap.add_argument("--tuned-every", type=int, default=10, help="every Nth seed is also tuned (0: never)")
    ap.add_argument("--cuda-every", type=int, default=4, help="every Nth seed also runs emulated CUDA (0: never)")
    ap.add_argument("--sanitize", action="store_true", help="f2stencil --sanitize, and the driver too")
    ap.add_argument("--work", default=None, help="scratch directory")
    ap.add_argument("--keep", action="store_true", help="keep every program's work directory")
    ap.add_argument("--regress-dir", default=None, help="where failures are written, minimised")
    ap.add_argument("--no-minimise", dest="minimise", action="store_false")
    ap.add_argument("--log", default=None, help="JSON lines, one per program")
    ap.add_argument("--print", dest="show", type=int, default=None, help="print seed's program and exit")
    ap.add_argument("--outside", action="store_true", help="with --print: the outside program")
    ap.add_argument("--replay", default=None, help="directory of saved cases to rerun")
    ap.add_argument("--totals", default=None, help="print the counts of a --log file and exit")
    ap.add_argument("--features", default="",
                    help="comma list of what generator.FEATURES describes, added to the default set (%s)"
                    % ",".join(generator.DEFAULT_FEATURES))
    opts = ap.parse_args()
    opts.f2stencil = os.path.abspath(opts.f2stencil)
    opts.features = generator.DEFAULT_FEATURES + [
        f for f in opts.features.split(",") if f and f not in generator.DEFAULT_FEATURES]
    if opts.totals:
        return print_totals(opts.totals)
    if opts.show is not None:
        sys.stdout.write(generator.generate(opts.show, "outside" if opts.outside else "inside", opts.features).text)
        return 0
    if opts.work is None:
        opts.work = tempfile.mkdtemp(prefix="f2sfuzz_")
    os.makedirs(opts.work, exist_ok=True)
    if opts.replay:
        return replay(opts)
    totals = {}
    failures = []
    log = open(opts.log, "a") if opts.log else None
    seeds = range(opts.start, opts.start + opts.count)
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as ex:
        for res in ex.map(one, [(s, opts) for s in seeds]):
            totals[res["status"]] = totals.get(res["status"], 0) + 1
            if log:
                log.write(json.dumps(res) + "\n")
                log.flush()
            if res["status"] not in ("ok", "refused-ok"):
                failures.append(res)
                print("seed %d (%s%s%s): %s\n  %s" % (res["seed"], res["mode"], ", tuned" if res["tuned"] else "",
                                                    ", cuda" if res["cuda"] else "", res["status"],
                                                    res["detail"].replace("\n", "\n  ")[:2000]), flush=True)
    print("programs %d in %.0fs: %s" % (len(seeds), time.time() - t0,
                                         ", ".join("%s %d" % kv for kv in sorted(totals.items()))))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
