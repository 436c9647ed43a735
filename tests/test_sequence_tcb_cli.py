# SPDX-License-Identifier: MIT
"""Kochanek-Bartels keys, derivatives and arc length through the whole path:
YAML source -> kfc -> .kfb -> kfplay (sample, velocity, acceleration,
sample-distance, animate), and kfc --decompile.

  - fixtures/leg_walk.yaml against Eberly's leg (oracle/eberly.json): every
    sample of the hip position (value, velocity, acceleration) and of the
    three joint rotations, through the sequences and through the player;
  - sources written here from Eberly's position and rotation cases and from
    the reference cases of gen_tcb_oracle.py, against the independent
    reference tcb_reference.py: values, derivatives, points at distances;
  - explicit zero TCB compiles to the bytes of no TCB; decompiling keeps TCB
    maps and `arc_length`, and compiles back to the same bytes;
  - kfplay's errors for the new commands.
"""
import json
import math
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
import driver  # noqa: E402
import gen_tcb_oracle as cases  # noqa: E402
import tcb_reference as ref  # noqa: E402

checks = driver.Checks()
fail, check = checks.fail, checks.check


def run(args, expect=0):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    check(r.returncode == expect, '%s: exit status %d, want %d: %s' % (
        ' '.join(args), r.returncode, expect, r.stderr.decode('utf-8', 'replace').strip()))
    return r


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def close(got, want, tol, scale=1.0):
    return len(got) == len(want) and all(
        abs(g - w) <= tol * max(1.0, scale, abs(w)) for g, w in zip(got, want))


class Tools:
    def __init__(self, kfc, kfplay, work):
        self.kfc, self.kfplay, self.work = kfc, kfplay, work

    def compile(self, name, text):
        src = os.path.join(self.work, name + '.yaml')
        out = os.path.join(self.work, name + '.kfb')
        with open(src, 'w') as f:
            f.write(text)
        return out if run([self.kfc, src, '-o', out]).returncode == 0 else None

    def query(self, kfb, command, name, xs):
        """kfplay's lines "X v..." as {X as printed: [v...]}, in order."""
        args = [self.kfplay, kfb, command] + ([name] if name else []) + ['%.17g' % x for x in xs]
        r = run(args)
        rows = []
        for line in r.stdout.decode().splitlines():
            parts = line.split()
            rows.append([float(p) if i != 1 or name else p for i, p in enumerate(parts)])
        return rows


# ---- sources -------------------------------------------------------------------------

def number(x):
    x = float(x)
    return repr(int(x)) if x == int(x) and abs(x) < 1e15 else repr(x)


def sequence_yaml(name, seq, arc_length=False, explicit_zero=False):
    lines = ['  %s:' % name,
             '    interpolation: %s' % seq['interpolation'].lower(),
             '    repeat: %s' % seq['repeat'].lower(),
             '    duration: %s' % number(seq['duration']),
             '    valid_range: [%d, %d]' % tuple(seq['valid_range'])]
    if arc_length:
        lines.append('    arc_length: true')
    lines.append('    keys:')
    takes_tcb = seq['interpolation'] in ('SPLINE', 'SQUAD')
    for k in seq['keys']:
        value = '[%s]' % ', '.join(number(x) for x in k['v'])
        tcb = k.get('tcb', [0, 0, 0])
        extra = ''
        if takes_tcb and (explicit_zero or any(tcb)):
            extra = ', {tension: %s, continuity: %s, bias: %s}' % tuple(number(x) for x in tcb)
        lines.append('      - [%s, %s%s]' % (number(k['t']), value, extra))
    return '\n'.join(lines) + '\n'


def source(sequences):
    return 'kfb: 1\nsequences:\n' + ''.join(sequences)


# ---- the leg ---------------------------------------------------------------------------

LEG_PARTS = [('hip_angle', 'hip_q_xyzw', 'hip.orientation'),
             ('knee_angle', 'knee_q_xyzw', 'knee.orientation'),
             ('ankle_angle', 'ankle_q_xyzw', 'ankle.orientation')]


def check_leg(tools, fixtures, oracle):
    kfb = os.path.join(tools.work, 'leg_walk.kfb')
    if run([tools.kfc, os.path.join(fixtures, 'leg_walk.yaml'), '-o', kfb]).returncode:
        return
    listing = run([tools.kfplay, kfb, 'list']).stdout.decode()
    check('hip_position sequence' in listing and ' tcb' in listing and ' length=' in listing,
          'leg_walk list: ' + listing)
    path = os.path.join(oracle, 'eberly.json')
    if not os.path.exists(path):
        check(False, 'no Eberly oracle at %s (tests/data/oracle holds it)' % path)
        return
    with open(path) as f:
        leg = json.load(f)['leg']
    samples = leg['samples']
    first = samples[0]
    # The walk loops with a period of 4: at 4 it starts over.
    expect = [first if s['t_float32'] >= 4.0 else s for s in samples]
    times = [s['t_float32'] for s in samples]

    scale = 207.0
    for command, field, tol in (('sample', 'hip_position', 1e-5),
                                ('velocity', 'hip_velocity', 2e-5),
                                ('acceleration', 'hip_acceleration', 2e-5)):
        rows = tools.query(kfb, command, 'hip_position', times)
        check(len(rows) == len(times), 'leg %s: %d rows' % (command, len(rows)))
        for row, e in zip(rows, expect):
            check(close(row[1:], e[field], tol, scale),
                  'leg %s hip_position t=%g: %s, Eberly %s' % (command, row[0], row[1:], e[field]))
    for name, field, _ in LEG_PARTS:
        for row, e in zip(tools.query(kfb, 'sample', name, times), expect):
            check(close(row[1:], e[field], 1e-5),
                  'leg %s t=%g: %s, Eberly %s' % (name, row[0], row[1:], e[field]))

    # Through the player: world seconds, at the controller's speed 1.
    world = list(times)
    rows = tools.query(kfb, 'animate', None, world)
    got = {}
    for row in rows:
        got.setdefault(row[1], []).append(row[2:])
    targets = [('hip.translation', 'hip_position', scale)] + [(t, f, 1.0) for _, f, t in LEG_PARTS]
    for target, field, sc in targets:
        values = got.get(target, [])
        check(len(values) == len(world), 'leg animate %s: %d rows' % (target, len(values)))
        for w, v, e in zip(world, values, expect):
            check(close(v, e[field], 1e-5, sc), 'leg animate %s w=%g: %s, Eberly %s'
                  % (target, w, v, e[field]))


# ---- generated sources against the reference ----------------------------------------------

def check_against_reference(tools, name, seq):
    curve = ref.Curve(seq)
    t0, D = curve.t[0], curve.D
    times = [ref.f32(t0 - 0.5 + (2.2 if curve.loop else 1.2) * D * k / 23) for k in range(24)]
    times += curve.t
    points = seq['interpolation'] in ('LINEAR', 'SPLINE')
    scale = max(abs(x) for v in curve.v for x in v)
    for arc in (False, True) if points else (False,):
        kfb = tools.compile('%s_%d' % (name, arc), source([sequence_yaml('s', seq, arc)]))
        if not kfb:
            continue
        for row in tools.query(kfb, 'sample', 's', times):
            want = curve.sample(row[0])
            check(close(row[1:], want, 1e-5, scale),
                  '%s sample t=%.9g: %s, reference %s' % (name, row[0], row[1:], want))
        if not points:
            r = run([tools.kfplay, kfb, 'velocity', 's', '0'], expect=1)
            check(b'linear or spline' in r.stderr, '%s: velocity of rotations: %s' % (name, r.stderr))
            continue
        for order, command in ((1, 'velocity'), (2, 'acceleration')):
            rows = tools.query(kfb, command, 's', times)
            dscale = max(max(abs(x) for x in curve.derivative(t, order)) for t in times)
            for row in rows:
                want = curve.derivative(row[0], order)
                check(close(row[1:], want, 2e-5, dscale),
                      '%s %s t=%.9g: %s, reference %s' % (name, command, row[0], row[1:], want))
        total = sum(curve.lengths())
        distances = [total * k / 10 for k in range(11)] + [-0.3 * total, 1.7 * total]
        for row in tools.query(kfb, 'sample-distance', 's', distances):
            want = curve.point_at_distance(row[0])
            # A distance error of 1e-5 of the length moves the point by as much.
            if curve.loop and abs(math.fmod(row[0], total)) < 1e-9 * total:
                continue  # a whole period: the start, or (zero-length wrap) the jump's far end
            check(close(row[1:], want, 1e-5, total),
                  '%s sample-distance %.9g: %s, reference %s' % (name, row[0], row[1:], want))


def eberly_sequences(oracle):
    path = os.path.join(oracle, 'eberly.json')
    if not os.path.exists(path):
        check(False, 'no Eberly oracle at %s (tests/data/oracle holds it)' % path)
        return []
    with open(path) as f:
        data = json.load(f)
    out = []
    for c in data['position_cases'] + data['rotation_cases']:
        case = cases.position_case(c) if 'eberly_total_length' in c else cases.rotation_case(c)
        out.append((case.name, case.seq, case.samples))
    return out


def check_eberly(tools, name, seq, samples):
    """Eberly's own numbers, as gen_tcb_oracle.py lays them out."""
    kfb = tools.compile('eberly_' + name, source([sequence_yaml('s', seq)]))
    if not kfb:
        return
    values = [s for s in samples if s[4] != cases.LEFT]
    rows = tools.query(kfb, 'sample', 's', [s[0] for s in values])
    scale = max(abs(x) for s in values for x in s[1])
    for row, s in zip(rows, values):
        check(close(row[1:], s[1], 1e-5, scale), 'Eberly %s t=%g: %s, want %s'
              % (name, row[0], row[1:], s[1]))
    right = [s for s in values if s[4] == cases.RIGHT]
    if right:
        for col, command in ((2, 'velocity'), (3, 'acceleration')):
            dscale = max(abs(x) for s in right for x in s[col])
            rows = tools.query(kfb, command, 's', [s[0] for s in right])
            for row, s in zip(rows, right):
                check(close(row[1:], s[col], 2e-5, dscale), 'Eberly %s %s t=%g: %s, want %s'
                      % (name, command, row[0], row[1:], s[col]))


# ---- bytes and decompiling -------------------------------------------------------------------

def check_bytes(tools):
    seq = dict(cases.REFERENCE)['loop_spline_tcb']
    plain = dict(seq, keys=[dict(k, tcb=[0, 0, 0]) for k in seq['keys']])
    a = tools.compile('zero_none', source([sequence_yaml('s', plain)]))
    b = tools.compile('zero_explicit', source([sequence_yaml('s', plain, explicit_zero=True)]))
    if a and b:
        check(read(a) == read(b), 'explicit zero TCB changes the bytes')
        listing = run([tools.kfplay, b, 'list']).stdout.decode()
        check(' tcb' not in listing, 'zero TCB is listed as TCB: ' + listing)

    both = source([sequence_yaml('p', seq, arc_length=True),
                   sequence_yaml('q', dict(cases.REFERENCE)['squad_subset_tcb'])])
    kfb = tools.compile('decompile', both)
    if not kfb:
        return
    yaml_out = os.path.join(tools.work, 'decompiled.yaml')
    again = os.path.join(tools.work, 'decompiled.kfb')
    if run([tools.kfc, '--decompile', kfb, '-o', yaml_out]).returncode:
        return
    text = open(yaml_out).read()
    check('arc_length: true' in text and 'tension:' in text and 'bias:' in text,
          'the decompiled source lost TCB or arc_length:\n' + text)
    if run([tools.kfc, yaml_out, '-o', again]).returncode == 0:
        check(read(kfb) == read(again), 'decompile -> compile changes the bytes')


def check_kfplay_errors(tools):
    kfb = tools.compile('errors', source([sequence_yaml('s', dict(cases.REFERENCE)['linear_loop'])]))
    if not kfb:
        return
    for args, status in ((['velocity', 'nope', '1'], 1), (['sample-distance', 's', 'x'], 1),
                         (['acceleration'], 2), (['sample-distance', 's', 'inf'], 1)):
        run([tools.kfplay, kfb] + args, expect=status)
    # Keys (0,0,0) (3,4,0) (3,4,12) at 1, 2, 4.5, looping every 6: -2 is 4
    # of the first period, 5 is inside the wrap segment back to the start.
    rows = tools.query(kfb, 'velocity', 's', [1.5, -2, 5])
    for row, want in zip(rows, ([3, 4, 0], [0, 0, 12 / 2.5], [-3 / 2.5, -4 / 2.5, -12 / 2.5])):
        check(close(row[1:], want, 1e-6), 'linear velocity at %g: %s, want %s' % (row[0], row[1:], want))
    rows = tools.query(kfb, 'acceleration', 's', [1.5])
    check(rows[0][1:] == [0, 0, 0], 'linear acceleration %s' % rows[0])


def main():
    a = driver.arguments()
    tools = Tools(os.path.abspath(a.kfc), os.path.abspath(a.kfplay), a.work)

    check_leg(tools, a.fixtures, a.oracle)
    for name, seq, samples in eberly_sequences(a.oracle):
        check_eberly(tools, name, seq, samples)
    for name, seq in cases.REFERENCE:
        check_against_reference(tools, name, seq)
    check_bytes(tools)
    check_kfplay_errors(tools)
    if checks.failures:
        print('test_sequence_tcb_cli: %d of %d checks failed' % (len(checks.failures), checks.count),
              file=sys.stderr)
        return 1
    print('test_sequence_tcb_cli: %d checks, 0 failed' % checks.count)
    return 0


if __name__ == '__main__':
    sys.exit(main())
