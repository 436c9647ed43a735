# SPDX-License-Identifier: MIT
"""An independent reference for Kochanek-Bartels keyframe sequences.

Written from the formulas of docs/math.md §1.4 and §5 (Eberly's equations 2-5
with M3G's time-scale factors), in float64, without reference to the C
runtime: the tests compare libkf against it. Inputs are rounded to float32
first, as the builder stores them.

A sequence is a dict: interpolation ('SPLINE', 'SQUAD', 'LINEAR'), repeat
('CONSTANT', 'LOOP'), duration, valid_range [first, last], keys: a list of
{'t': time, 'v': [components], 'tcb': [tension, continuity, bias]}.
"""
import math
import struct


def f32(x):
    return struct.unpack('<f', struct.pack('<f', float(x)))[0]


# ---- quaternions [x, y, z, w] --------------------------------------------------

def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def qconj(q):
    return [-q[0], -q[1], -q[2], q[3]]


def qlog(q):
    n = math.sqrt(q[0] ** 2 + q[1] ** 2 + q[2] ** 2)
    if n <= 1e-5:
        return [0.0, 0.0, 0.0]
    k = math.atan2(n, q[3]) / n
    return [q[0] * k, q[1] * k, q[2] * k]


def qexp(v):
    n = math.sqrt(sum(x * x for x in v))
    if n <= 1e-5:
        return [0.0, 0.0, 0.0, 1.0]
    k = math.sin(n) / n
    return [v[0] * k, v[1] * k, v[2] * k, math.cos(n)]


def qnormalize(q):
    n2 = sum(x * x for x in q)
    if n2 <= 1e-5:
        return [0.0, 0.0, 0.0, 1.0]
    n = math.sqrt(n2)
    return [x / n for x in q]


def slerp(a, b, s):
    """M3G slerp: no hemisphere flip (docs/math.md §1.4)."""
    c = sum(x * y for x, y in zip(a, b))
    if c >= 1 - 1e-5:
        return [(1 - s) * x + s * y for x, y in zip(a, b)]
    if c <= -1 + 1e-5:
        p = [-a[1], a[0], -a[3], a[2]]
        ka, kb = math.sin((1 - s) * math.pi / 2), math.sin(s * math.pi / 2)
        return [ka * x + kb * y for x, y in zip(a, p)]
    th = math.acos(c)
    return [(math.sin((1 - s) * th) * x + math.sin(s * th) * y) / math.sin(th)
            for x, y in zip(a, b)]


# ---- the curve -------------------------------------------------------------------

class Curve:
    """The valid keys of a sequence with their tangents (or squad a/b)."""

    def __init__(self, seq):
        keys = seq['keys']
        n = len(keys)
        first, last = seq['valid_range']
        order = [(first + j) % n for j in range((last - first) % n + 1)]
        self.interp = seq['interpolation']
        self.loop = seq['repeat'] == 'LOOP'
        self.D = f32(seq['duration'])
        self.t = [f32(keys[i]['t']) for i in order]
        vals = [[f32(x) for x in keys[i]['v']] for i in order]
        if self.interp == 'SQUAD':
            vals = [qnormalize(v) for v in vals]
        self.v = vals
        self.tcb = [[f32(x) for x in keys[i].get('tcb', [0, 0, 0])] for i in order]
        self.n = len(order)
        self.out, self.inn = self._tangents()

    def duration_of(self, i):
        """Duration of the segment starting at valid key i (the last: wrap)."""
        if i + 1 < self.n:
            return self.t[i + 1] - self.t[i]
        return self.D - self.t[i] + self.t[0]

    def _tangents(self):
        n, out, inn = self.n, [], []
        for i in range(n):
            p, q = (i - 1) % n, (i + 1) % n
            d_prev, d_this = self.duration_of(p), self.duration_of(i)
            if (not self.loop and i in (0, n - 1)) or d_prev + d_this == 0:
                f_in = f_out = 0.0
            else:
                f_in = 2 * d_prev / (d_prev + d_this)
                f_out = 2 * d_this / (d_prev + d_this)
            tension, cont, bias = self.tcb[i]
            # Eberly (2): outgoing; (3): incoming. "back" multiplies the
            # difference from the previous key, "fwd" the one to the next.
            out_back = (1 - tension) * (1 + cont) * (1 + bias) / 2
            out_fwd = (1 - tension) * (1 - cont) * (1 - bias) / 2
            in_back = (1 - tension) * (1 - cont) * (1 + bias) / 2
            in_fwd = (1 - tension) * (1 + cont) * (1 - bias) / 2
            if self.interp == 'SQUAD':
                qi = self.v[i]
                back = qlog(qmul(qconj(self.v[p]), qi))
                fwd = qlog(qmul(qconj(qi), self.v[q]))
                t_out = [out_back * b + out_fwd * f for b, f in zip(back, fwd)]
                t_in = [in_back * b + in_fwd * f for b, f in zip(back, fwd)]
                # Eberly (4) and (5), tangents scaled by the time factors.
                a = qmul(qi, qexp([(f_out * to - f) / 2 for to, f in zip(t_out, fwd)]))
                b = qmul(qi, qexp([(bk - f_in * ti) / 2 for bk, ti in zip(back, t_in)]))
                out.append([f32(x) for x in a])
                inn.append([f32(x) for x in b])
            else:
                back = [x - y for x, y in zip(self.v[i], self.v[p])]
                fwd = [x - y for x, y in zip(self.v[q], self.v[i])]
                out.append([f32(f_out * (out_back * b + out_fwd * f)) for b, f in zip(back, fwd)])
                inn.append([f32(f_in * (in_back * b + in_fwd * f)) for b, f in zip(back, fwd)])
        return out, inn

    # -- placing a time: docs/math.md §1.3 -----------------------------------------

    def locate(self, t):
        """(segment, s) or ('hold', key)."""
        t0 = self.t[0]
        if self.n == 1:
            return ('hold', 0)
        if self.loop:
            t = t0 + math.fmod(t - t0, self.D)
            if t < t0:
                t += self.D
            if t >= t0 + self.D:
                t = t0
        elif t < t0:
            return ('hold', 0)
        elif t >= self.t[-1]:
            return ('hold', self.n - 1)
        i = max(j for j in range(self.n) if self.t[j] <= t)
        return (i, (t - self.t[i]) / self.duration_of(i))

    # -- evaluation ---------------------------------------------------------------------

    def segment_value(self, i, s, order=0):
        """d^order/ds^order of segment i's curve at s."""
        j = (i + 1) % self.n
        a, b = self.v[i], self.v[j]
        if self.interp == 'LINEAR':
            if order == 0:
                return [(1 - s) * x + s * y for x, y in zip(a, b)]
            return [(y - x) if order == 1 else 0.0 for x, y in zip(a, b)]
        if self.interp == 'SQUAD':
            assert order == 0
            return slerp(slerp(a, b, s), slerp(self.out[i], self.inn[j], s), 2 * s * (1 - s))
        ta, tb = self.out[i], self.inn[j]
        if order == 0:
            h = (2 * s ** 3 - 3 * s ** 2 + 1, -2 * s ** 3 + 3 * s ** 2, s ** 3 - 2 * s ** 2 + s,
                 s ** 3 - s ** 2)
        elif order == 1:
            h = (6 * s ** 2 - 6 * s, -6 * s ** 2 + 6 * s, 3 * s ** 2 - 4 * s + 1, 3 * s ** 2 - 2 * s)
        else:
            h = (12 * s - 6, -12 * s + 6, 6 * s - 4, 6 * s - 2)
        return [h[0] * w + h[1] * x + h[2] * y + h[3] * z for w, x, y, z in zip(a, b, ta, tb)]

    def sample(self, t):
        where = self.locate(t)
        if where[0] == 'hold':
            return list(self.v[where[1]])
        i, s = where
        if s == 0:
            return list(self.v[i])
        return self.segment_value(i, s)

    def derivative(self, t, order):
        """Right-hand time derivative; 0 where the value is held."""
        where = self.locate(t)
        if where[0] == 'hold':
            return [0.0] * len(self.v[0])
        i, s = where
        L = self.duration_of(i)
        return [x / L ** order for x in self.segment_value(i, s, order)]

    # -- arc length, by a fine polyline ---------------------------------------------------

    def segment_count(self):
        return self.n if self.loop else self.n - 1

    def polyline_length(self, i, s0=0.0, s1=1.0, pieces=4096):
        """Length of segment i between s0 and s1, by polylines of `pieces` and
        2 * pieces chords, Richardson-extrapolated (the chord error is
        O(h^2)); a zero-duration segment is a jump of length 0."""
        if self.duration_of(i) <= 0 or s1 <= s0:
            return 0.0

        def chords(m):
            pts = [self.segment_value(i, s0 + (s1 - s0) * k / m) for k in range(m + 1)]
            return sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
        l1, l2 = chords(pieces), chords(2 * pieces)
        return l2 + (l2 - l1) / 3

    def lengths(self, pieces=4096):
        return [self.polyline_length(i, pieces=pieces) for i in range(self.segment_count())]

    def point_at_distance(self, d, pieces=8192):
        """The point at distance d along the curve from the first valid key
        (CONSTANT clamps, LOOP wraps a period): walks a fine polyline and
        interpolates the curve parameter inside the chord that holds d."""
        lengths = self.lengths()
        total = sum(lengths)
        if self.loop:
            d = math.fmod(d, total)
            if d < 0:
                d += total
        elif d <= 0:
            return list(self.v[0])
        elif d >= total:
            return list(self.v[-1])
        for i, length in enumerate(lengths):
            if d >= length:
                d -= length
                continue
            # Chords underestimate the arc by O(h^2): scale them to the
            # segment's (extrapolated) length.
            pts = [self.segment_value(i, k / pieces) for k in range(pieces + 1)]
            chords = [math.dist(p, q) for p, q in zip(pts, pts[1:])]
            scale = length / sum(chords)
            for k, c in enumerate(chords):
                c *= scale
                if d < c:
                    return self.segment_value(i, (k + d / c) / pieces)
                d -= c
            return self.segment_value(i, 1.0)
        return list(self.v[0] if self.loop else self.v[-1])
