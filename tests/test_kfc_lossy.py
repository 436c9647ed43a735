#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfc --max-error: the error-bounded compile.

For every interpolation kind, sources of noisy keys are compiled lossless
and lossy; both files are sampled with kfplay at every key time, at many
times between keys and at random times, and the error of each lossy sample
against the lossless one is computed here, by each kind's own measure
(translation: Euclidean distance; orientation: rotation angle in degrees;
scale: relative; other: absolute), and must stay within the bound. Also:
hand-derived snapped values and key tangents (splines reduce to hermite
sequences), kinds left out and sequences that drive nothing stay lossless, lossy compile -> decompile -> compile is
byte-identical, -v reports the worst errors, and malformed SPECs are usage
errors (exit 2).
"""
import math
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

checks = driver.Checks()
check = checks.check

BOUND = {'translation': 7e-5, 'orientation': 0.14, 'scale': 1e-3, 'other': 1e-3}
SPEC = ','.join('%s=%r' % kv for kv in BOUND.items())
TIGHT = {'translation': 1e-5, 'orientation': 0.01, 'scale': 1e-5, 'other': 1e-5}
TIGHT_SPEC = ','.join('%s=%r' % kv for kv in TIGHT.items())

# (sequence name, interpolation, repeat, components, target, kind)
CASES = [
    ('lin', 'linear', 'constant', 3, 'a.translation', 'translation'),
    ('lin_loop', 'linear', 'loop', 3, 'b.translation', 'translation'),
    ('spl', 'spline', 'constant', 3, 'c.translation', 'translation'),
    ('spl_loop', 'spline', 'loop', 3, 'd.translation', 'translation'),
    ('stp', 'step', 'constant', 1, 'e.alpha', 'other'),
    ('sle', 'slerp', 'constant', 4, 'f.orientation', 'orientation'),
    ('sle_loop', 'slerp', 'loop', 4, 'g.orientation', 'orientation'),
    ('squ', 'squad', 'constant', 4, 'h.orientation', 'orientation'),
    ('squ_loop', 'squad', 'loop', 4, 'i.orientation', 'orientation'),
    ('her', 'hermite', 'constant', 3, 'j.translation', 'translation'),
    ('scl', 'linear', 'constant', 3, 'k.scale', 'scale'),
    ('scl_spl', 'spline', 'loop', 3, 'l.scale', 'scale'),
    ('cus', 'linear', 'constant', 2, 'm.glow', 'other'),
]
KEYS = 40
DURATION = 4000.0


def key_times(rng):
    t, times = 0.0, []
    for _ in range(KEYS):
        times.append(t)
        t += rng.choice([25.0, 50.0, 75.0, 100.0])
    return times


def quat(rng, prev):
    if prev is None:
        q = [rng.gauss(0, 1) for _ in range(4)]
    else:
        q = [x + rng.gauss(0, 0.15) for x in prev]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def source(rng):
    lines = ['kfb: 1', 'controllers:', '  c: {}', 'sequences:']
    for name, interp, repeat, comps, _, kind in CASES:
        lines += ['  %s:' % name, '    interpolation: %s' % interp,
                  '    repeat: %s' % repeat, '    duration: %r' % DURATION, '    keys:']
        prev = None
        base = [rng.uniform(-2, 2) for _ in range(comps)]
        for t in key_times(rng):
            if comps == 4 and interp in ('slerp', 'squad'):
                prev = quat(rng, prev)
                v = prev
            elif kind == 'scale':
                v = [1.0 + 0.5 * math.sin(t / 300.0 + k) + rng.uniform(-0.01, 0.01)
                     for k in range(comps)]
            else:
                v = [b + math.sin(t / 500.0 + k) + rng.uniform(-0.01, 0.01)
                     for k, b in enumerate(base)]
            vs = '[%s]' % ', '.join('%r' % x for x in v) if comps > 1 else '%r' % v[0]
            if interp == 'hermite':
                tin = [rng.uniform(-0.01, 0.01) for _ in range(comps)]
                tout = [rng.uniform(-0.01, 0.01) for _ in range(comps)]
                lines.append('      - [%r, %s, {in: [%s], out: [%s]}]' % (
                    t, vs, ', '.join('%r' % x for x in tin), ', '.join('%r' % x for x in tout)))
            else:
                lines.append('      - [%r, %s]' % (t, vs))
    lines.append('tracks:')
    for name, _, _, comps, target, kind in CASES:
        extra = ', components: %d' % comps if kind == 'other' and 'glow' in target else ''
        lines.append('  - {animator: %s, controller: c, target: %s%s}' % (name, target, extra))
    return '\n'.join(lines) + '\n'


def run(args, expect=0):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=300)
    check(r.returncode == expect, '%s: exit %d, want %d: %s'
          % (' '.join(args), r.returncode, expect, r.stderr.strip()))
    return r


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def sample(kfplay, kfb, name, times):
    r = run([kfplay, kfb, 'sample', name] + ['%r' % t for t in times])
    return [[float(x) for x in row.split()[1:]] for row in r.stdout.splitlines()]


def error(kind, a, b):
    if kind == 'translation':
        return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))
    if kind == 'orientation':
        na = math.sqrt(sum(x * x for x in a))
        nb = math.sqrt(sum(x * x for x in b))
        dot = abs(sum(x * y for x, y in zip(a, b))) / (na * nb)
        return math.degrees(2.0 * math.acos(min(1.0, dot)))
    if kind == 'scale':
        return max(abs(y - x) / abs(x) if x else (0.0 if x == y else math.inf)
                   for x, y in zip(a, b))
    return max(abs(x - y) for x, y in zip(a, b))


def sample_times(rng):
    """Every key time (keys lie on a 25 ms grid), 7 times between any two,
    past the end (loops), and random times."""
    times = [i * 3.125 for i in range(int(DURATION * 1.5 / 3.125))]
    times += [rng.uniform(0.0, DURATION * 1.5) for _ in range(300)]
    return times


def check_bounds(args, work, rng, spec, bound, tag):
    src = os.path.join(work, 'noisy.yaml')
    exact = os.path.join(work, 'noisy.kfb')
    lossy = os.path.join(work, 'noisy.%s.kfb' % tag)
    run([args.kfc, src, '-o', exact])
    r = run([args.kfc, '-v', '-e', spec, src, '-o', lossy])
    check('worst error: translation' in r.stderr, '-v names the worst errors: %r' % r.stderr)
    check(read(exact) != read(lossy), '%s: the lossy file differs from the lossless one' % tag)
    times = sample_times(rng)
    worst = {}
    for name, interp, _, _, _, kind in CASES:
        a = sample(args.kfplay, exact, name, times)
        b = sample(args.kfplay, lossy, name, times)
        if not check(len(a) == len(times) and len(b) == len(times), '%s: samples' % name):
            continue
        e = max(error(kind, x, y) for x, y in zip(a, b))
        worst[kind] = max(worst.get(kind, 0.0), e)
        check(e <= bound[kind], '%s (%s) at %s: error %.6g over the bound %g'
              % (name, interp, tag, e, bound[kind]))
        changed = any(x != y for x, y in zip(a, b))
        check(changed, '%s (%s) at %s: nothing was reduced' % (name, interp, tag))
    # The player too (its kernels, single precision, not the sampler kfc
    # checks with) stays within the bound: every target at every time.
    played = [{}, {}]
    for k, kfb in enumerate((exact, lossy)):
        r = run([args.kfplay, kfb, 'animate'] + ['%r' % t for t in times])
        for line in r.stdout.splitlines():
            w = line.split()
            played[k][(w[0], w[1])] = [float(x) for x in w[2:]]
    for _, interp, _, _, target, kind in CASES:
        keys = [(w, t) for (w, t) in played[0] if t == target]
        if not check(len(keys) == len(times) and all(k in played[1] for k in keys),
                     '%s: played at every time' % target):
            continue
        e = max(error(kind, played[0][k], played[1][k]) for k in keys)
        check(e <= bound[kind], '%s (%s) played at %s: error %.6g over the bound %g'
              % (target, interp, tag, e, bound[kind]))
    # The round trip: what the lossy file plays, as source, compiles to it.
    y = os.path.join(work, 'noisy.%s.yaml' % tag)
    again = os.path.join(work, 'noisy.%s.again.kfb' % tag)
    run([args.kfc, '--decompile', lossy, '-o', y])
    run([args.kfc, y, '-o', again])
    check(read(lossy) == read(again), '%s: lossy compile -> decompile -> compile differs' % tag)
    # Reduced splines play as hermite sequences with key tangents on a grid
    # (check_finer); every other interpolation stays what it was.
    for name, interp, _, _, _, _ in CASES:
        kind, _ = decompiled_keys(args, lossy, name)
        want = 'hermite' if interp == 'spline' else interp
        check(kind == want, '%s at %s decompiles as %s, want %s' % (name, tag, kind, want))
    return worst


HAND = '''kfb: 1
sequences:
  pos:
    interpolation: linear
    duration: 10
    keys:
      - [0, [0.3, 1.0, -0.7]]
      - [10, [0.3, 1.0, -0.7]]
  idle:
    interpolation: linear
    duration: 10
    keys:
      - [0, [0.3, 1.0, -0.7]]
      - [10, [0.3, 1.0, -0.7]]
  fade:
    interpolation: linear
    duration: 10
    keys:
      - [0, 0.3]
      - [10, 0.3]
tracks:
  - {animator: pos, target: a.translation}
  - {animator: fade, target: a.alpha}
'''


def check_hand(args, work):
    """translation=1e-3: grid 2^-10 (the largest power of two <= 2e-3 / sqrt 3);
    0.3 -> 307/1024, -0.7 -> -717/1024, 1 stays. `idle` drives nothing and
    `fade` (other) has no bound: both stay as written."""
    src = os.path.join(work, 'hand.yaml')
    with open(src, 'w') as f:
        f.write(HAND)
    kfb = os.path.join(work, 'hand.kfb')
    run([args.kfc, '-e', 'translation=1e-3', src, '-o', kfb])
    for name, want in (('pos', [307 / 1024, 1.0, -717 / 1024]),
                       ('idle', [0.300000012, 1.0, -0.699999988]),
                       ('fade', [0.300000012])):
        got = sample(args.kfplay, kfb, name, [5.0])
        check(len(got) == 1 and all(abs(g - w) < 1e-9 for g, w in zip(got[0], want)),
              'hand %s: %r, want %r' % (name, got, want))
    # -v: pos's error is the distance from (0.3, 1, -0.7), as floats, to
    # (307, 1024, -717) / 1024; no sequence drives a scale, and fade's kind
    # has no bound.
    r = run([args.kfc, '-v', '-e', 'translation=1e-3,scale=1e-3', src, '-o', kfb])
    line = r.stderr.splitlines()[-1] if r.stderr else ''
    check(line == 'kfc: worst error: translation 0.000276 (max 0.001), orientation lossless, '
          'scale nothing reduced (max 0.001), other lossless', 'hand -v: %r' % line)
    # A later -e sets again what it gives, as a build's flags after its
    # defaults do; the kinds it leaves keep the earlier bound.
    r = run([args.kfc, '-v', '-e', 'translation=0.5,scale=1e-3', '-e', 'translation=1e-3', src,
             '-o', kfb])
    line = r.stderr.splitlines()[-1] if r.stderr else ''
    check(line == 'kfc: worst error: translation 0.000276 (max 0.001), orientation lossless, '
          'scale nothing reduced (max 0.001), other lossless', 'hand -e twice: %r' % line)


FINER = '''kfb: 1
sequences:
  osc:
    interpolation: spline
    duration: 3000%s
    keys:
      - [0, 0.00087890625]
      - [1000, 0.02060546875]
      - [2000, 0.04013671875]
      - [3000, 0.05947265625]
tracks:
  - {animator: osc, target: n.glow, components: 1}
'''


def decompiled_keys(args, kfb, name):
    """The key lines of sequence `name` in kfc --decompile's output, and its
    interpolation."""
    text = run([args.kfc, '--decompile', kfb, '-o', '-']).stdout
    m = re.search(r'^  %s:\n    interpolation: (\w+)\n(?:    .*\n)*?    keys:\n((?:    - .*\n)+)'
                  % name, text, re.M)
    if not check(m is not None, '%s: no sequence %s in %r' % (kfb, name, text)):
        return None, []
    return m.group(1), m.group(2).splitlines()


def check_finer(args, work):
    """other = u = 2^-10, so values take the grid 2u first: the keys 0.9u,
    21.1u, 41.1u and 60.9u go to 0, 22u, 42u and 60u, errors of -0.9u, +0.9u,
    +0.9u and -0.9u.

    The spline becomes a hermite sequence, whose key tangents take grids of
    their own: 8, 4, 2 and 1 times 2^-19 per ms (the largest power of two
    <= 2u / 1000 ms). Keys 1 and 2 have in = out = 20.1u / 1000 and
    19.9u / 1000 per ms (M3G's tangents, 0.5 (v2 - v0) and 0.5 (v3 - v1),
    over 1000 ms), which are 10.29 and 10.19 times 2^-19; the end keys' are 0.
    - 8 x 2^-19: both go to 8 (scaled by 1000 ms: -4.47u and -4.28u); the
      error at s = 3/4 of the middle segment is 0.9u + h2 (-4.47u) +
      h3 (-4.28u) = 1.29u: over.
    - 4 x 2^-19: both go to 12 (+3.34u and +3.54u); at s = 1/4 of the
      middle segment 0.9u + 0.1875 (0.75 * 3.34u - 0.25 * 3.54u) = 1.20u.
    - 2 x 2^-19: both go to 10 (-0.57u and -0.37u); no segment goes past
      0.92u. So: values 0, 22u, 42u, 60u; tangents 0, 10, 10, 0 x 2^-19.

    With a distance table the sequence stays a spline, whose tangents M3G's
    rule derives from the snapped keys: on the grid 2u, keys 1 and 2 then
    get tangents (e2 - e0) / 2 and (e3 - e1) / 2 of their errors, and the
    spline between them reaches 1.125u at its middle (h0 e1 + h1 e2 + h2 t1
    + h3 t2). kfc must find that and take the next grid, u, on which the
    keys are 0.9, 21.1, 41.1 and 60.9 steps: 1, 21, 41 and 61 u."""
    u = 2.0 ** -10
    for tag, extra, interp, values, tangents in (
            ('hermite', '', 'hermite', [0, 22, 42, 60], [0, 10, 10, 0]),
            ('spline', '\n    arc_length: true', 'spline', [1, 21, 41, 61], None)):
        src = os.path.join(work, 'finer.%s.yaml' % tag)
        with open(src, 'w') as f:
            f.write(FINER % extra)
        kfb = os.path.join(work, 'finer.%s.kfb' % tag)
        run([args.kfc, '-e', 'other=0.0009765625', src, '-o', kfb])
        got = sample(args.kfplay, kfb, 'osc', [0.0, 1000.0, 2000.0, 3000.0])
        want = [[v * u] for v in values]
        check(got == want, '%s: values on the grid found: %r, want %r' % (tag, got, want))
        kind, keys = decompiled_keys(args, kfb, 'osc')
        check(kind == interp, '%s: decompiles as %s, want %s' % (tag, kind, interp))
        if tangents is None:
            continue
        want_keys = ['    - [%d, %s, {in: %s, out: %s}]' % (
            1000 * i, '%.9g' % (v * u) if v else '0', '%.8g' % (t * 2.0 ** -19) if t else '0',
            '%.8g' % (t * 2.0 ** -19) if t else '0') for i, (v, t) in enumerate(zip(values, tangents))]
        check(keys == want_keys, '%s: key tangents on their grid: %r, want %r'
              % (tag, keys, want_keys))


BAD_SPECS = [
    ('', 'needs KIND=VALUE'),
    ('translation', "'translation' is not KIND=VALUE: give it a bound, as in translation=0.001"),
    ('0.01', "'0.01' is not KIND=VALUE: say what it bounds, as in translation=0.01"),
    ('1e-3,scale=1', "'1e-3' is not KIND=VALUE: say what it bounds, as in translation=1e-3"),
    ('fast', "'fast' is not KIND=VALUE (KIND translation, orientation, scale or other)"),
    ('translation=', 'needs a positive number'),
    ('translation=abc', 'needs a positive number'),
    ('translation=-1', 'needs a positive number'),
    ('translation=0', 'needs a positive number'),
    ('translation=inf', 'needs a positive number'),
    ('rotation=1', "unknown kind 'rotation' (translation, orientation, scale or other); "
     "did you mean 'orientation'?"),
    ('scal=1', "unknown kind 'scal' (translation, orientation, scale or other); "
     "did you mean 'scale'?"),
    ('bogus=1', "unknown kind 'bogus' (translation, orientation, scale or other)\n"),
    ('translation=1,,scale=1', 'is not KIND=VALUE'),
    ('translation=1,', "nothing after the last ','"),
    ('scale=1,scale=2', 'given twice'),
    # a count: what --max-errors, one letter longer, takes
    ('5', "'5' is not KIND=VALUE: say what it bounds, as in translation=5 (KIND translation, "
     "orientation, scale or other; kinds left out stay lossless); to report up to that many "
     "errors: --max-errors=5\n"),
    ('0.01', "as in translation=0.01 (KIND translation, orientation, scale or other; kinds left "
     "out stay lossless)\n"),
]


def check_specs(args, work):
    src = os.path.join(work, 'hand.yaml')
    out = os.path.join(work, 'bad.kfb')
    for spec, message in BAD_SPECS:
        r = run([args.kfc, '-e', spec, src, '-o', out], expect=2)
        check(message in r.stderr, 'SPEC %r: %r lacks %r' % (spec, r.stderr, message))
        check(not os.path.exists(out), 'SPEC %r left an output' % spec)
    r = run([args.kfc, src, '-o', out, '--max-error'], expect=2)
    check('missing' in r.stderr, '--max-error without SPEC: %r' % r.stderr)
    run([args.kfc, '--max-error=scale=0.5,other=1e-3', src, '-o', out])


def main():
    args = driver.arguments()
    rng = random.Random(15)
    with open(os.path.join(args.work, 'noisy.yaml'), 'w') as f:
        f.write(source(rng))
    check_hand(args, args.work)
    check_finer(args, args.work)
    check_specs(args, args.work)
    for spec, bound, tag in ((SPEC, BOUND, 'coarse'), (TIGHT_SPEC, TIGHT, 'tight')):
        worst = check_bounds(args, args.work, rng, spec, bound, tag)
        print('test_kfc_lossy: %s: worst %s' % (tag, ', '.join(
            '%s %.3g' % kv for kv in sorted(worst.items()))))
    print('test_kfc_lossy: %d checks, %d failed' % (checks.count, len(checks.failures)))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
