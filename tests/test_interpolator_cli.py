# SPDX-License-Identifier: MIT
"""Every interpolator case of oracle/x3d.json through the full path:
YAML source -> kfc -> .kfb -> kfplay sample, under the oracle README's
comparison rules (tests/gen/interpolator_oracle.py: X_ITE's value where the rules trust
it, our spec formula where they exclude it). Each compiled case is also
decompiled and compiled again, which must give the same bytes.

Then interpolators played by tracks, end to end (kfplay animate): TimeSensor
clamp and loop, an EaseInEaseOut feeding an interpolator, rotations blended
into an orientation target, with values worked out by hand.

The oracle file is tests/data/oracle/x3d.json (ORACLE=dir points elsewhere);
without it the test fails.
"""
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
import driver  # noqa: E402
import interpolator_oracle  # noqa: E402

checks = driver.Checks()
fail = checks.fail


def run(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if r.returncode != 0:
        fail('%s: exit status %d: %s' % (' '.join(args), r.returncode,
                                           r.stderr.decode('utf-8', 'replace').strip()))
    return r


def number(x):
    """A YAML number that reads back as the same double."""
    x = float(x)
    return '%d' % x if x == int(x) and abs(x) < 1e15 else repr(x)


def flow(values):
    return '[' + ', '.join(flow(v) if isinstance(v, list) else number(v) for v in values) + ']'


def source(name, case):
    """The case as kfc source: its fields under their X3D names."""
    fields = case['fields']
    lines = ['kfb: 1', 'interpolators:', '  %s:' % name, '    node: %s' % case['node']]
    for field in ('key', 'keyValue', 'keyVelocity', 'easeInEaseOut'):
        if field in fields:
            lines.append('    %s: %s' % (field, flow(fields[field])))
    for field in ('closed', 'normalizeVelocity'):
        if field in fields:
            lines.append('    %s: %s' % (field, 'true' if fields[field] else 'false'))
    return '\n'.join(lines) + '\n'


def quat_of_axis_angle(r):
    return interpolator_oracle.quat(r)


def sample(kfplay, kfb, name, fractions, components):
    """kfplay's value at each fraction (rotations as quaternions), or None."""
    r = run([kfplay, kfb, 'sample', name] + [repr(float(f)) for f in fractions])
    if r.returncode != 0:
        return None
    rows = r.stdout.decode().split('\n')[:-1]
    if len(rows) != len(fractions):
        fail('%s: %d lines for %d fractions' % (name, len(rows), len(fractions)))
        return None
    out = []
    for f, row in zip(fractions, rows):
        words = [float(w) for w in row.split()]
        if interpolator_oracle.f32(words[0]) != interpolator_oracle.f32(f) or len(words) != 1 + components:
            fail('%s: line "%s" for fraction %r' % (name, row, f))
            return None
        out.append(words[1:])
    return out


def check_case(kfc, kfplay, work, case, stats):
    name = case['id']
    node = case['node']
    src = os.path.join(work, name + '.yaml')
    kfb = os.path.join(work, name + '.kfb')
    with open(src, 'w') as f:
        f.write(source(name, case))
    if run([kfc, src, '-o', kfb]).returncode:
        return
    samples, expectations = interpolator_oracle.expectations(case)
    rotation = node in interpolator_oracle.ROTATION_NODES
    components = 4 if rotation else len(samples[0].want)
    got = sample(kfplay, kfb, name, [s.fraction for s in samples], components)
    if got is None:
        return
    max_diff = 0.0
    for s, g in zip(samples, got):
        value = quat_of_axis_angle(g) if rotation else g
        units = interpolator_oracle.differs(node, value, s.want)
        stats['worst'] = max(stats['worst'], (units, name))
        stats[s.source] += 1
        if units > 1:
            fail('%s f=%r%s: got %r, want %r' % (name, s.fraction,
                                                 ' (our rule)' if s.source == 'rule' else '',
                                                 g, s.want))
        if s.xite is not None and not rotation:
            max_diff = max(max_diff, interpolator_oracle.max_abs_diff(value, s.xite))
    for what, expected in expectations:
        if abs(max_diff - expected) > 1e-6:
            fail('%s: %s: %.9g, expected %.9g' % (name, what, max_diff, expected))

    # Decompiled and compiled again: the same bytes.
    back = os.path.join(work, name + '.decompiled.yaml')
    again = os.path.join(work, name + '.again.kfb')
    if run([kfc, '--decompile', kfb, '-o', back]).returncode == 0 and \
            run([kfc, back, '-o', again]).returncode == 0:
        with open(kfb, 'rb') as a, open(again, 'rb') as b:
            if a.read() != b.read():
                fail('%s: decompile -> compile is not byte-identical' % name)


TRACKS = """\
kfb: 1
interpolators:
  ease: {node: EaseInEaseOut, key: [0, 1], easeInEaseOut: [[0, 0.5], [0.5, 0]]}
  level: {node: ScalarInterpolator, key: [0, 1], keyValue: [10, 30]}
  turn: {node: OrientationInterpolator, key: [0, 1], keyValue: [[0, 0, 1, 0], [0, 0, 1, 1.5707963267948966]]}
controllers:
  clock: {}
  half: {weight: 0.5}
tracks:
  - {animator: level, controller: clock, target: a.x, components: 1, cycleInterval: 4, loop: true, ease: ease}
  - {animator: level, controller: clock, target: b.x, components: 1, cycleInterval: 4}
  - {animator: level, controller: clock, target: c.x, components: 1}
  - {animator: turn, controller: clock, target: n.orientation, cycleInterval: 2}
  - {animator: turn, controller: half, target: n.orientation, cycleInterval: 1}
"""


def check_tracks(kfc, kfplay, work):
    """Hand-derived: a is looped over 4 and eased (u' = 2u^2 below 1/2,
    1 - 2(1-u)^2 above), 10 + 20 u'; b is clamped over 4; c over 1. The
    orientation sums pi/2 * w/2 (weight 1) and pi/2 * w (weight 1/2)."""
    src = os.path.join(work, 'tracks.yaml')
    kfb = os.path.join(work, 'tracks.kfb')
    with open(src, 'w') as f:
        f.write(TRACKS)
    if run([kfc, src, '-o', kfb]).returncode:
        return
    steps = {1: (12.5, 15, 30), 3: (27.5, 25, 30), 5: (12.5, 30, 30), -1: (27.5, 10, 10),
             4: (10, 30, 30), 0.5: (10.625, 12.5, 20)}
    r = run([kfplay, kfb, 'animate'] + [number(w) for w in steps])
    if r.returncode:
        return
    rows = {}
    for line in r.stdout.decode().split('\n')[:-1]:
        words = line.split()
        rows[(float(words[0]), words[1])] = [float(x) for x in words[2:]]
    for w, want in steps.items():
        for target, value in zip(('a.x', 'b.x', 'c.x'), want):
            got = rows.get((float(w), target))
            if got is None or abs(got[0] - value) > 1e-6 * max(1, abs(value)):
                fail('tracks: w=%g %s: got %r, want %g' % (w, target, got, value))
    # Fractions given in milliseconds: sampled (clamped: the last key), and
    # said to be outside; fractions inside [0, 1] are said nothing of.
    r = run([kfplay, kfb, 'sample', 'level', '0', '500', '1000'])
    want = ("kfplay: warning: fraction 500 (and 1 more) is outside [0, 1]: the interpolator "
            "holds its last key's value there (its argument is a fraction of its cycle, not a "
            "time: milliseconds?)\n")
    if r.returncode or r.stdout.decode() != '0 10\n500 30\n1000 30\n' or r.stderr.decode() != want:
        fail('sample level 0 500 1000: %r %r' % (r.stdout, r.stderr))
    r = run([kfplay, kfb, 'sample', 'level', '--from', '-1', '--to', '0.5', '--samples', '2'])
    if not r.stderr.decode().startswith("kfplay: warning: fraction -1 is outside [0, 1]: the "
                                        "interpolator holds its first key's value there"):
        fail('sample level from -1: %r' % r.stderr)
    r = run([kfplay, kfb, 'sample', 'level', '0', '0.25', '1'])
    if r.stderr or r.stdout.decode() != '0 10\n0.25 15\n1 30\n':
        fail('sample level in [0, 1]: %r %r' % (r.stdout, r.stderr))

    a1, a2 = math.pi / 8, math.pi / 4   # w = 0.5
    q = [0, 0, math.sin(a1 / 2) + 0.5 * math.sin(a2 / 2), math.cos(a1 / 2) + 0.5 * math.cos(a2 / 2)]
    n = math.sqrt(q[2] ** 2 + q[3] ** 2)
    got = rows.get((0.5, 'n.orientation'))
    if got is None or max(abs(g - x / n) for g, x in zip(got, q)) > 1e-6:
        fail('tracks: blended orientation %r, want %r' % (got, [x / n for x in q]))


def main():
    a = driver.arguments()
    kfc, kfplay = os.path.abspath(a.kfc), os.path.abspath(a.kfplay)

    check_tracks(kfc, kfplay, a.work)
    cases = interpolator_oracle.load(a.oracle)
    if cases is None:
        print('test_interpolator_cli: FAILED: no x3d.json in %s' % a.oracle)
        return 1
    else:
        problems = interpolator_oracle.check_reference(cases)
        for p in problems:
            fail('reference rule: ' + p)
        stats = {'xite': 0, 'rule': 0, 'worst': (0.0, '')}
        for case in cases:
            check_case(kfc, kfplay, a.work, case, stats)
        if not cases:
            fail('the oracle holds no interpolator case')
        print('test_interpolator_cli: %d cases, %d samples against X_ITE, %d against our rule; '
              'worst %.3g of the tolerance (%s)'
              % (len(cases), stats['xite'], stats['rule'], stats['worst'][0], stats['worst'][1]))
    if checks.failures:
        print('test_interpolator_cli: %d failure(s)' % len(checks.failures), file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
