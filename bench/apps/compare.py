#!/usr/bin/env python3
"""Compares the RESULT (and ENERGY) lines of two runs of one application.

usage: compare.py REFERENCE_OUTPUT VARIANT_OUTPUT [--loose]

Fields that the variants compute with the same arithmetic as the serial
build (sums of fields taken serially in the main program, the largest
magnitude) must agree bit for bit, i.e. print the same 17 digits. Sums
formed inside a parallel nest (a reduction) may add in another order and
agree to a relative tolerance. --loose (a GPU run whose elementary
functions are CUDA's, see docs/cuda.md) compares every field to 1e-10.
Prints one line, PASS or FAIL with the fields that differ; exits 0 on PASS.
"""
import sys

# per application: field -> None (bitwise) or a relative tolerance
RULES = {
    "poisson19": {"psum": None, "gosa": 1e-4},          # gosa: REAL(4) sum
    "mg3d": {"usum": None, "rnmu": None, "rnm2": 1e-10},
    "swc": {"psum": None, "usum": None, "vsum": None, "energy": 1e-12,
            "ENERGY": 1e-12},
}


def parse(path):
    fields, energies = {}, []
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "RESULT":
                fields.update(kv.split("=", 1) for kv in w[1:] if "=" in kv)
            elif w[0] == "ENERGY":
                kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
                energies.append((kv["step"], kv["total"]))
    return fields, energies


def close(a, b, tol):
    a, b = float(a), float(b)
    return a == b or abs(a - b) <= tol * max(abs(a), abs(b))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    loose = "--loose" in sys.argv
    ref, ref_e = parse(args[0])
    var, var_e = parse(args[1])
    if "app" not in ref or "app" not in var:
        print("FAIL (no RESULT line)")
        return 1
    app = ref["app"]
    bad = []
    for key in ("app", "size", "iters"):
        if ref.get(key) != var.get(key):
            bad.append(f"{key} {ref.get(key)} vs {var.get(key)}")
    notes = []
    for field, tol in RULES[app].items():
        if field == "ENERGY":
            if len(ref_e) != len(var_e):
                bad.append(f"{len(ref_e)} vs {len(var_e)} ENERGY lines")
            for (s1, e1), (s2, e2) in zip(ref_e, var_e):
                t = max(tol, 1e-10) if loose else tol
                if s1 != s2 or not close(e1, e2, t):
                    bad.append(f"ENERGY step {s1}: {e1} vs {e2}")
            continue
        a, b = ref.get(field), var.get(field)
        if a is None or b is None:
            bad.append(f"{field} missing")
        elif tol is None and a != b:
            if loose and close(a, b, 1e-10):
                notes.append(f"{field} within 1e-10, not bitwise")
            else:
                bad.append(f"{field} {a} vs {b}")
        elif tol is not None and not close(a, b, max(tol, 1e-10) if loose else tol):
            bad.append(f"{field} {a} vs {b} (tolerance {tol})")
    if bad:
        print("FAIL: " + "; ".join(bad))
        return 1
    print("PASS" + (" (" + "; ".join(notes) + ")" if notes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
