# SPDX-License-Identifier: MIT
"""glTF 2.0 animation sampling as the specification states it (Appendix C),
written from the spec's formulas, apart from kfc and libkf: the value of a
channel at time t seconds, holding the first/last values outside the keys."""
import math


def _hermite(vk, bk, vk1, ak1, td, s):
    s2, s3 = s * s, s * s * s
    return [(2 * s3 - 3 * s2 + 1) * vk[i] + td * (s3 - 2 * s2 + s) * bk[i]
            + (-2 * s3 + 3 * s2) * vk1[i] + td * (s3 - s2) * ak1[i] for i in range(len(vk))]


def _slerp(a, b, s):
    d = sum(x * y for x, y in zip(a, b))
    sign = -1.0 if d < 0 else 1.0
    d = abs(d)
    if d > 1 - 1e-9:
        r = [(1 - s) * x + s * sign * y for x, y in zip(a, b)]
    else:
        th = math.acos(d)
        r = [math.sin((1 - s) * th) / math.sin(th) * x + sign * math.sin(s * th) / math.sin(th) * y
             for x, y in zip(a, b)]
    return r


def _normalize(q):
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def sample(channel, t):
    """channel: {'path', 'interpolation', 'times', 'outputs', 'width'}."""
    times, out = channel['times'], channel['outputs']
    n = len(times)
    comps = (4 if channel['path'] == 'rotation' else 3 if channel['path'] in ('translation', 'scale')
             else 1) * channel['width']
    cubic = channel['interpolation'] == 'CUBICSPLINE'

    def part(k, which):  # which: 0 in-tangent, 1 value, 2 out-tangent
        base = (3 * k + which if cubic else k) * comps
        return out[base:base + comps]

    if t <= times[0]:
        v = part(0, 1)
    elif t >= times[-1]:
        v = part(n - 1, 1)
    else:
        k = max(i for i in range(n) if times[i] <= t)
        td = times[k + 1] - times[k]
        s = (t - times[k]) / td
        if channel['interpolation'] == 'STEP':
            v = part(k, 1)
        elif cubic:
            v = _hermite(part(k, 1), part(k, 2), part(k + 1, 1), part(k + 1, 0), td, s)
        elif channel['path'] == 'rotation':
            # keys stored as normalized integers are unit only to their
            # precision; slerp is defined between unit quaternions
            v = _slerp(_normalize(part(k, 1)), _normalize(part(k + 1, 1)), s)
        else:
            v = [(1 - s) * a + s * b for a, b in zip(part(k, 1), part(k + 1, 1))]
    if channel['path'] == 'rotation':
        v = _normalize(v)
    return v
