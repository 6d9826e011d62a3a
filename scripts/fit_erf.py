#!/usr/bin/env python3
"""fit_erf.py — derives the polynomial coefficients of lower/cpu/emit_math.c's erf
(and the erf GELU), and prints them as C arrays with their fit error.

Two pieces, both Chebyshev interpolants (mpmath at 40 digits, converted to
monomial form):
  small:  erf(x)/x as a degree-6 polynomial in s = x^2 on |x| < 1;
  tail:   z·erfc(z)·e^(z²) as a degree-12 polynomial in w ∈ [-1, 1], where
          w maps t = 1/z ∈ [0.09, 1] (z ∈ [1, 11.1]); the mapped variable
          keeps Horner's rule in f32 stable (in t itself the coefficients
          cancel and f32 evaluation loses 5 bits);
  near:   the same function as a degree-8 polynomial in w ∈ [-1, 1] mapping
          t ∈ [1, 2] (z ∈ [0.5, 1]), for gelu_erf's x < 0 side, where
          1 + erf(z) would cancel.
Run: python3 scripts/fit_erf.py   (needs only mpmath)."""
import mpmath as mp

mp.mp.dps = 40


def cheb_fit(f, a, b, deg):
    n = deg + 1
    xs = [(a + b) / 2 + (b - a) / 2 * mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) for k in range(n)]
    A = mp.matrix([[x**j for j in range(n)] for x in xs])
    c = mp.lu_solve(A, mp.matrix([f(x) for x in xs]))
    return [c[j] for j in range(n)]


def max_rel(f, c, a, b, samples=4000):
    worst = 0
    for k in range(samples + 1):
        x = a + (b - a) * mp.mpf(k) / samples
        p = 0
        for cj in reversed(c):
            p = p * x + cj
        worst = max(worst, abs(p / f(x) - 1))
    return worst


def small(s):
    return mp.erf(mp.sqrt(s)) / mp.sqrt(s) if s > 0 else 2 / mp.sqrt(mp.pi)


T_LO, T_HI = mp.mpf("0.09"), mp.mpf(1)
T_MID, T_RAD = (T_LO + T_HI) / 2, (T_HI - T_LO) / 2


def r_of_t(t):
    z = 1 / t
    return z * mp.erfc(z) * mp.exp(z * z)


def tail(w):
    return r_of_t(T_MID + T_RAD * w)


N_MID, N_RAD = mp.mpf(3) / 2, mp.mpf(1) / 2


def near(w):
    return r_of_t(N_MID + N_RAD * w)


def emit(name, c, err):
    print(f"/* max relative error of the fit: {float(err):.2e} */")
    print(f"static const double {name}[] = {{")
    for cj in reversed(c):
        print(f"    {mp.nstr(cj, 17)},")
    print("};")


cs = cheb_fit(small, mp.mpf(0), mp.mpf(1), 6)
emit("erf_small", cs, max_rel(small, cs, mp.mpf("1e-30"), mp.mpf(1)))
ct = cheb_fit(tail, mp.mpf(-1), mp.mpf(1), 12)
emit("erfc_tail", ct, max_rel(tail, ct, mp.mpf(-1), mp.mpf(1)))
print(f"/* w = t·{mp.nstr(1 / T_RAD, 17)} + {mp.nstr(-T_MID / T_RAD, 17)} */")
cn = cheb_fit(near, mp.mpf(-1), mp.mpf(1), 8)
emit("erfc_near", cn, max_rel(near, cn, mp.mpf(-1), mp.mpf(1)))
print(f"/* w = t·{mp.nstr(1 / N_RAD, 17)} + {mp.nstr(-N_MID / N_RAD, 17)} */")
