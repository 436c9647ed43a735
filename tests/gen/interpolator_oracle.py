# SPDX-License-Identifier: MIT
"""The X3D interpolator reference vectors (oracle/x3d.json) and the rules for
using them (oracle/README.md), shared by the C-table generator
(gen_interpolator_oracle.py) and the end-to-end driver (test_interpolator_cli.py).

X_ITE deviates from our reading of the spec (docs/math.md §3) in a few places,
each marked by a deviation flag. `expectations(case)` turns a case into a
list of samples, each either X_ITE's value (compared directly, or mapped as
the README says) or, where the rules exclude X_ITE's value, the value of the
spec formulas computed by the small reference implementation below. That
implementation is written from docs/math.md alone, independently of the C
runtime; `check_reference` proves it against every sample X_ITE is trusted
on before any of its values is used.
"""
import json
import math
import os
import struct

# kf_node order (runtime/kf.h).
NODES = ['ScalarInterpolator', 'PositionInterpolator', 'PositionInterpolator2D',
         'ColorInterpolator', 'CoordinateInterpolator', 'CoordinateInterpolator2D',
         'NormalInterpolator', 'OrientationInterpolator', 'SplineScalarInterpolator',
         'SplinePositionInterpolator', 'SplinePositionInterpolator2D',
         'SquadOrientationInterpolator', 'EaseInEaseOut']
DIMENSION = {'ScalarInterpolator': 1, 'PositionInterpolator': 3, 'PositionInterpolator2D': 2,
             'ColorInterpolator': 3, 'CoordinateInterpolator': 3, 'CoordinateInterpolator2D': 2,
             'NormalInterpolator': 3, 'OrientationInterpolator': 4,
             'SplineScalarInterpolator': 1, 'SplinePositionInterpolator': 3,
             'SplinePositionInterpolator2D': 2, 'SquadOrientationInterpolator': 4,
             'EaseInEaseOut': 2}
ROTATION_NODES = ('OrientationInterpolator', 'SquadOrientationInterpolator')

# README tolerances: 1e-6 (scaled by max(1, |v|)) for values, 1e-5 rad for
# rotations.
TOLERANCE = 1e-6
ANGLE_TOLERANCE = 1e-5

# Fractions for a case X_ITE has no samples for (it threw): the grid the
# other cases use, -0.25 .. 1.25 in steps of 1/24, plus points just past
# each key.
def default_fractions(keys):
    grid = [f32(-0.25 + i / 24.0) for i in range(37)]
    return sorted(set(grid + [f32(k + 2.0 ** -10) for k in keys]))


def f32(x):
    return struct.unpack('<f', struct.pack('<f', float(x)))[0]


def load(oracle_dir):
    """The interpolator cases, or None if the oracle file is absent."""
    path = os.path.join(oracle_dir, 'x3d.json')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)['interpolators']


def entries(values):
    """An MF field as a list of entries (each a list of numbers)."""
    return [list(v) if isinstance(v, list) else [v] for v in values]


def flat(value):
    out = []
    for v in value:
        out.extend(v if isinstance(v, list) else [v])
    return out


# ---- reference implementation (docs/math.md §3), on float32-rounded fields ---

def segment(keys, f):
    """(i, None) at key i, or (i, u) inside [k_i, k_i+1)."""
    n = len(keys)
    if n == 1 or f <= keys[0]:
        return 0, None
    if f >= keys[-1]:
        return n - 1, None
    i = max(j for j in range(n) if keys[j] <= f)
    u = (f - keys[i]) / (keys[i + 1] - keys[i])
    return i, (u if u > 0 else None)


def norm(v):
    return math.sqrt(sum(x * x for x in v))


def normalized(v):
    n = norm(v)
    return [x / n for x in v] if n > 0 else list(v)


def slerp(a, b, u, shortest):
    c = sum(x * y for x, y in zip(a, b))
    if shortest and c < 0:
        b, c = [-x for x in b], -c
    if c >= 1 - 1e-5:
        return [(1 - u) * x + u * y for x, y in zip(a, b)]
    th = math.acos(max(-1.0, c))
    return [(math.sin((1 - u) * th) * x + math.sin(u * th) * y) / math.sin(th)
            for x, y in zip(a, b)]


def quat(r):
    x, y, z, a = r
    n = norm([x, y, z])
    if n == 0:
        return [0.0, 0.0, 0.0, 1.0]
    s = math.sin(a / 2) / n
    return [x * s, y * s, z * s, math.cos(a / 2)]


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def qlog(q):
    n = norm(q[:3])
    if n <= 1e-5:
        return [0.0, 0.0, 0.0]
    k = math.atan2(n, q[3]) / n
    return [x * k for x in q[:3]]


def qexp(v):
    n = norm(v)
    if n <= 1e-5:
        return [0.0, 0.0, 0.0, 1.0]
    k = math.sin(n) / n
    return [x * k for x in v] + [math.cos(n)]


def rgb_to_hsv(c):
    r, g, b = c
    mx, mn = max(c), min(c)
    d = mx - mn
    h = 0.0
    if d > 0:
        h = (g - b) / d if mx == r else 2 + (b - r) / d if mx == g else 4 + (r - g) / d
        h *= math.pi / 3
        if h < 0:
            h += 2 * math.pi
    return [h, d / mx if mx > 0 else 0.0, mx]


def hsv_to_rgb(h, s, v):
    h = (h % (2 * math.pi)) / (math.pi / 3)
    i = min(int(math.floor(h)), 5)
    f = h - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    return list([(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i])


def spline_tangents(keys, v, velocities, closed, normalize):
    n, dim = len(keys), len(v[0])
    T, given = [None] * n, [False] * n
    if velocities and len(velocities) == n:
        T, given = [list(x) for x in velocities], [True] * n
    elif velocities and len(velocities) == 2:
        T[0], T[-1] = list(velocities[0]), list(velocities[1])
        given[0] = given[-1] = True
    if normalize:
        total = sum(norm([a - b for a, b in zip(v[i], v[i + 1])]) for i in range(n - 1))
        for i in range(n):
            if given[i]:
                length = norm(T[i])
                T[i] = [x * total / length for x in T[i]] if length > 0 else T[i]
    closed = closed and n >= 2 and v[0] == v[-1] and not given[0]
    out, inc = [[0.0] * dim for _ in range(n)], [[0.0] * dim for _ in range(n)]
    for i in range(n):
        if i in (0, n - 1) and not closed:
            if given[i]:
                out[i], inc[i] = list(T[i]), list(T[i])
            continue
        p, q = (i - 1, i + 1) if 0 < i < n - 1 else (n - 2, 1)
        d_prev = keys[i] - keys[i - 1] if i > 0 else keys[-1] - keys[-2]
        d_next = keys[i + 1] - keys[i] if i < n - 1 else keys[1] - keys[0]
        t = T[i] if given[i] else [(a - b) / 2 for a, b in zip(v[q], v[p])]
        total = d_prev + d_next
        f_in = 2 * d_next / total if total else 0.0
        f_out = 2 * d_prev / total if total else 0.0
        out[i], inc[i] = [f_out * x for x in t], [f_in * x for x in t]
    return out, inc


def squad_controls(q, closed):
    n = len(q)

    def control(p, c, nx):
        p = [-x for x in p] if sum(a * b for a, b in zip(p, c)) < 0 else p
        nx = [-x for x in nx] if sum(a * b for a, b in zip(nx, c)) < 0 else nx
        inv = [-c[0], -c[1], -c[2], c[3]]
        l1, l2 = qlog(qmul(inv, nx)), qlog(qmul(inv, p))
        return qmul(c, qexp([-(a + b) / 4 for a, b in zip(l1, l2)]))

    closed = closed and n >= 2 and abs(sum(a * b for a, b in zip(q[0], q[-1]))) >= 1 - 1e-6
    s = [None] * n
    for i in range(n):
        if i in (0, n - 1) and not closed:
            s[i] = q[i]
        elif 0 < i < n - 1:
            s[i] = control(q[i - 1], q[i], q[i + 1])
        else:
            s[i] = control(q[n - 2], q[i], q[1])
    return s


def ease_local(e_out, e_in, u):
    total = e_out + e_in
    if total < 0:
        return u
    if total > 1:
        e_out, e_in = e_out / total, e_in / total
    t = 1 / (2 - e_out - e_in)
    if u < e_out:
        return t / e_out * u * u
    if u < 1 - e_in:
        return t * (2 * u - e_out)
    return 1 - t * (1 - u) ** 2 / e_in


def reference(node, fields, fractions, closed=None):
    """Our rule's value at each fraction: flat lists; rotations as
    quaternions x y z w."""
    keys = [f32(k) for k in fields['key']]
    n = len(keys)
    values = [[f32(x) for x in e] for e in entries(fields.get('keyValue', []))]
    velocities = [[f32(x) for x in e] for e in entries(fields.get('keyVelocity', []))]
    if closed is None:
        closed = bool(fields.get('closed', False))
    normalize = bool(fields.get('normalizeVelocity', False))
    out = []
    if node == 'EaseInEaseOut':
        pairs = [[f32(x) for x in e] for e in fields['easeInEaseOut']]
        for f in fractions:
            i, u = segment(keys, f)
            out.append([keys[i] if u is None else
                        keys[i] + ease_local(pairs[i][1], pairs[i + 1][0], u) *
                        (keys[i + 1] - keys[i])])
        return out
    m = len(values) // n
    per_key = [values[i * m:(i + 1) * m] for i in range(n)]
    if node in ROTATION_NODES:
        q = [[f32(x) for x in quat(e[0])] for e in per_key]
        s = squad_controls(q, closed) if node == 'SquadOrientationInterpolator' else None
    if node.startswith('Spline'):
        t_out, t_in = spline_tangents(keys, [e[0] for e in per_key], velocities, closed, normalize)
    for f in fractions:
        i, u = segment(keys, f)
        if node in ROTATION_NODES:
            if u is None:
                r = q[i]
            elif s is None:
                r = slerp(q[i], q[i + 1], u, True)
            else:
                r = slerp(slerp(q[i], q[i + 1], u, True), slerp(s[i], s[i + 1], u, True),
                          2 * u * (1 - u), True)
            out.append(normalized(r))
        elif node == 'NormalInterpolator':
            out.append(flat(normalized(per_key[i][j]) if u is None else
                            normalized(slerp(normalized(per_key[i][j]),
                                             normalized(per_key[i + 1][j]), u, False))
                            for j in range(m)))
        elif u is None:
            out.append(flat(per_key[i]))
        elif node == 'ColorInterpolator':
            a, b = rgb_to_hsv(per_key[i][0]), rgb_to_hsv(per_key[i + 1][0])
            if a[1] == 0:
                a[0] = b[0]
            elif b[1] == 0:
                b[0] = a[0]
            dh = b[0] - a[0]
            dh = dh - 2 * math.pi if dh > math.pi else dh + 2 * math.pi if dh < -math.pi else dh
            out.append(hsv_to_rgb(a[0] + u * dh, a[1] + u * (b[1] - a[1]),
                                  a[2] + u * (b[2] - a[2])))
        elif node.startswith('Spline'):
            h = [2 * u ** 3 - 3 * u ** 2 + 1, -2 * u ** 3 + 3 * u ** 2, u ** 3 - 2 * u ** 2 + u,
                 u ** 3 - u ** 2]
            va, vb = per_key[i][0], per_key[i + 1][0]
            out.append([h[0] * a + h[1] * b + h[2] * c + h[3] * d
                        for a, b, c, d in zip(va, vb, t_out[i], t_in[i + 1])])
        else:
            out.append([a + u * (b - a) for a, b in zip(flat(per_key[i]), flat(per_key[i + 1]))])
    return out


# ---- comparison rules (oracle/README.md) ---------------------------------------

class Sample(object):
    """One expectation: `want` (flat; rotations as a quaternion) at
    `fraction`; `source` is 'xite' or 'rule' (our formula, where the README
    excludes X_ITE's value); `xite` is X_ITE's raw value, if any."""

    def __init__(self, fraction, want, source, xite=None):
        self.fraction, self.want, self.source, self.xite = fraction, want, source, xite


def xite_value(case, sample):
    if case['node'] in ROTATION_NODES:
        return list(sample['quat_xyzw'])
    v = sample['value']
    return flat(v) if isinstance(v, list) else [v]


def expectations(case):
    """(samples, checks): the per-sample expectations, and case-level checks
    as (description, expected max |ours - X_ITE| over all samples)."""
    node, fields, flags = case['node'], case['fields'], set(case['deviation_flags'])
    keys = [f32(k) for k in fields['key']]
    n = len(keys)
    fractions = [s['fraction'] for s in case['samples']] or default_fractions(keys)
    rule = reference(node, fields, fractions)
    samples, checks = [], []

    def touches(i, u, key):
        """Whether the sample is in a segment that starts or ends at `key`."""
        return u is not None and key in (i, i + 1)

    for k, f in enumerate(fractions):
        raw = xite_value(case, case['samples'][k]) if case['samples'] else None
        i, u = segment(keys, f)
        use_rule = raw is None
        if 'keyVelocity_size2_padded_with_zero_vectors' in flags:
            use_rule = u is not None
        if 'normalizeVelocity_last_velocity_not_normalized' in flags:
            use_rule = touches(i, u, n - 1)
        if 'closed_applied_although_first_ne_last' in flags:
            use_rule = True
        if case['id'] == 'splinepos_closed_velocity_N':
            use_rule = touches(i, u, 0) or touches(i, u, n - 1)
        if use_rule:
            samples.append(Sample(f, rule[k], 'rule', raw))
            continue
        want = raw
        if 'easeInEaseOut_outputs_local_segment_fraction' in flags:
            # X_ITE gives the local u' of the segment (0 below the keys, 1
            # above); ours maps it back onto the keys.
            j = min(i, n - 2)
            want = [keys[j] + raw[0] * (keys[j + 1] - keys[j])] if n > 1 else [keys[0]]
        samples.append(Sample(f, want, 'xite', raw))
    if 'keyVelocity_size2_padded_with_zero_vectors' in flags:
        checks.append(('max |ours - X_ITE| equals crosscheck.max_abs_diff_vs_spec2',
                       case['crosscheck']['max_abs_diff_vs_spec2']))
    return samples, checks


def differs(node, got, want):
    """How far `got` is from `want`, in units of the tolerance (> 1: fail)."""
    if node in ROTATION_NODES:
        return rotation_angle(got, want) / ANGLE_TOLERANCE
    return max(abs(g - w) / (TOLERANCE * max(1.0, abs(w))) for g, w in zip(got, want))


def rotation_angle(a, b):
    """The angle of the rotation between two quaternions, up to q ~ -q
    (well conditioned for small angles: |a - b| = 2 sin(angle / 4))."""
    a, b = normalized(a), normalized(b)
    d = min(norm([x - y for x, y in zip(a, b)]), norm([x + y for x, y in zip(a, b)]))
    return 4 * math.asin(min(1.0, d / 2))


def max_abs_diff(got, want):
    return max(abs(g - w) for g, w in zip(got, want))


def check_reference(cases):
    """Problems where the reference disagrees with a trusted X_ITE sample."""
    problems = []
    for case in cases:
        samples, _ = expectations(case)
        rule = reference(case['node'], case['fields'], [s.fraction for s in samples])
        for s, r in zip(samples, rule):
            if s.source == 'xite' and differs(case['node'], r, s.want) > 1:
                problems.append('%s at %r: reference %r, X_ITE %r' % (
                    case['id'], s.fraction, r, s.want))
    return problems
