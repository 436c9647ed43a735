# SPDX-License-Identifier: MIT
"""kfplay follow: every follower case of oracle/x3d.json from YAML source,
and the command's own rules.

Each case is written as a `followers:` source with the fields as the
oracle authored them (defaults left to kfc), compiled with kfc, played with
`kfplay FILE follow NAME --tick DT --until T --event ...`, and every line
compared as follower_oracle.py plans (oracle/README.md's rules). Then the
command itself: one line per tick k at k*DT up to T inclusive (a tick
past T by no more than 1e-5 T run at T), none for t = 0; an event applied
before the first tick at or after its time, equal times in command-line
order, a chaser's transition starting at the event's own time; rotations
in and out as axis-angle; arrays as all their numbers; `list`; the errors
and exit statuses.
"""
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
import driver  # noqa: E402
import follower_oracle  # noqa: E402

TOL = 1e-6        # values, relative to max(1, |v|)
ANGLE_TOL = 1e-5  # rotations, radians

checks = driver.Checks()
fail, check = checks.fail, checks.check


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                          universal_newlines=True)


def number(x):
    return repr(float(x))


def tick_time(k, tick):
    """Tick k's time as kfplay prints it: the decimal of the tick's places
    (3 * 0.1 is 0.3), or k * tick itself when the tick is no short decimal."""
    t = k * tick
    text = repr(float(tick))
    mantissa, _, exponent = text.partition('e')
    places = len(mantissa.partition('.')[2].rstrip('0')) - int(exponent or 0)
    if places > 17:
        return t
    d = float('%.*f' % (max(places, 0), t))
    return d if abs(d - t) <= 8 * sys.float_info.epsilon * abs(t) else t


def event_args(events):
    out = []
    for e in events:
        out += ['--event', '%s:%s=%s' % (number(e['time']), e['kind'],
                                         ','.join(number(v) for v in e['value']))]
    return out


def follow(kfplay, path, name, tick, until, events=(), extra=()):
    args = [kfplay, path, 'follow', name, '--tick', number(tick), '--until', number(until)]
    return run(args + list(extra) + event_args(events))


def parse(out, count):
    rows = []
    for line in out.splitlines():
        f = line.split()
        check(len(f) == count + 2, 'line %r: %d fields, want %d' % (line, len(f), count + 2))
        rows.append((float(f[0]), [float(x) for x in f[1:-1]], int(f[-1])))
    return rows


def as_quat(axis_angle):
    return follower_oracle.axis_angle_to_quat(axis_angle)


def close(got, want):
    return all(abs(g - w) <= TOL * max(1.0, abs(w)) for g, w in zip(got, want))


def play_case(kfplay, files, c):
    """One oracle case through kfplay, compared as the plan says."""
    path = os.path.join(files, c.id + '.kfb')
    r = follow(kfplay, path, c.id, c.tick, c.ticks * c.tick, c.events)
    if not check(r.returncode == 0, '%s: kfplay: %s' % (c.id, r.stderr.strip())):
        return
    rows = parse(r.stdout, len(c.initial_value))
    if not check(len(rows) == c.ticks, '%s: %d lines for %d ticks' % (c.id, len(rows), c.ticks)):
        return
    dests = follower_oracle.destinations(c)
    compared = rested = 0
    for k, (t, v, active) in enumerate(rows):
        check(t == tick_time(k + 1, c.tick), '%s: line %d is t=%r' % (c.id, k, t))
        where = '%s t=%.9g' % (c.id, t)
        if c.mode != 'damper':
            compared += 1
            if c.rotation:
                a = follower_oracle.rotation_angle(as_quat(v), c.expect_quat[k])
                check(a < ANGLE_TOL, '%s: rotation %.3g rad off' % (where, a))
            else:
                check(close(v, c.expect[k]), '%s: %s, want %s' % (where, v, c.expect[k]))
            check(active == c.active[k], '%s: isActive %d, want %d' % (where, active,
                                                                       c.active[k]))
            continue
        dest = dests[k]
        if not active:
            rested += 1
            if c.rotation:
                check(follower_oracle.rotation_angle(as_quat(v), as_quat(dest)) < 1e-6,
                      '%s: resting off the destination' % where)
                far = (follower_oracle.rotation_angle(c.expect_quat[k], as_quat(dest))
                       if c.xite_active[k] else 0.0)
            else:
                # %.9g identifies a float32: at rest it is the destination's.
                check(all(float_round(x) == float_round(d) for x, d in zip(v, dest)),
                      '%s: resting at %s, destination %s' % (where, v, dest))
                far = (max(abs(x - d) for x, d in zip(c.xite_value[k], dest))
                       if c.xite_active[k] else 0.0)
            check(far <= c.rest_slack, '%s: X_ITE runs %.3g from the destination' % (where, far))
        else:
            check(c.xite_active[k] or c.xite_stop[k],
                  '%s: ours runs, X_ITE stopped before' % where)
            compared += 1
            if c.rotation:
                a = follower_oracle.rotation_angle(as_quat(v), c.expect_quat[k])
                check(a < ANGLE_TOL, '%s: rotation %.3g rad off' % (where, a))
            else:
                check(close(v, c.xite_value[k]), '%s: %s, X_ITE %s' % (where, v, c.xite_value[k]))
    pass_through = c.mode == 'damper' and (c.order == 0 or c.tau == 0)
    check(compared > c.ticks // 4 or (pass_through and rested == c.ticks),
          '%s: only %d of %d ticks compared' % (c.id, compared, c.ticks))
    print('  %-36s %4d compared, %4d at rest' % (c.id, compared, rested))


def float_round(x):
    """x rounded to float32, as kfplay stores it."""
    return struct.unpack('f', struct.pack('f', x))[0]


def command_rules(kfplay, files, cases):
    """The tick and event rules, and the errors, on oracle cases' files."""
    by_id = {c.id: c for c in cases}
    scalar = os.path.join(files, 'scalarchaser_aligned.kfb')
    # duration 0.9375, 0 -> 1 from t = 0.
    D = 0.9375

    def R(x):
        return follower_oracle.core(x)

    # Ticks: k*DT, inclusive end, no t = 0 line.
    r = follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.3)
    rows = parse(r.stdout, 1)
    check([t for t, _, _ in rows] == [0.1, 0.2, 0.3], 'ticks: %s' % [t for t, _, _ in rows])
    check(close(rows[2][1], [R(0.3 / D)]), 'initial transition at 0.3: %s' % rows[2][1])
    check(r.stdout.splitlines()[-1].split()[0] == '0.3', '3 x 0.1 prints 0.3: %r' % r.stdout)
    # A DT rounded to a few digits (1/60 as 0.0166667) puts T's tick past
    # T (120 x 0.0166667 = 2.000004): within 1e-5 T, it runs at T and prints
    # T, the value the follower has at T itself.
    r = follow(kfplay, scalar, 'scalarchaser_aligned', 0.0166667, 2)
    lines = r.stdout.splitlines()
    check(len(lines) == 120 and lines[-2].split()[0] == '1.9833373' and
          lines[-1].split()[0] == '2', '--tick 0.0166667 --until 2 ends at 2: %r' % lines[-2:])
    r = follow(kfplay, scalar, 'scalarchaser_aligned', 0.0166667, 0.5)
    at_end = run([kfplay, scalar, 'follow', 'scalarchaser_aligned', '--tick', '0.5',
                  '--until', '0.5'])
    check(r.stdout.splitlines()[-1:] == at_end.stdout.splitlines() and
          at_end.stdout.startswith('0.5 '), 'the last tick runs at T: %r, %r' %
          (r.stdout.splitlines()[-1:], at_end.stdout))
    for until, count, last in ((0.3 * (1 - 0.9e-5), 3, repr(0.3 * (1 - 0.9e-5))),
                               (0.3 * (1 - 1.1e-5), 2, '0.2')):
        r = follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, until)
        lines = r.stdout.splitlines()
        check(len(lines) == count and lines[-1].split()[0] == last,
              '--tick 0.1 --until %r: %d lines, the last at %s: %r' % (until, count, last, lines))
    # Never as much as half a tick: 100001 x 1 is past 100000.4 by more
    # than DT/2, if by less than 1e-5 T.
    r = run([kfplay, scalar, 'follow', 'scalarchaser_aligned', '--tick', '1', '--until',
             '100000.4'])
    lines = r.stdout.splitlines()
    check(len(lines) == 100000 and lines[-1].split()[0] == '100000',
          '--tick 1 --until 100000.4: %d lines, the last %r' % (len(lines), lines[-1:]))
    r = follow(kfplay, scalar, 'scalarchaser_aligned', 0.25, 0.1)
    check(r.returncode == 2 and r.stdout == '' and r.stderr ==
          'kfplay: error: --tick 0.25 is longer than --until 0.1: no tick to print (the first '
          'falls at DT)\nTry \'kfplay --help\' for more information.\n',
          'no tick before the end: a usage error, no lines: %r' % r.stderr)

    # An event between ticks applies before the next tick; the transition
    # starts at the event's time. set_value 0 at 0.05 (no line there), then
    # the tick at 0.1 shows the transition back to 1 started at 0.05.
    ev = [{'time': 0.05, 'kind': 'value', 'value': [0.0]}]
    rows = parse(follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.2, ev).stdout, 1)
    check(close(rows[0][1], [R(0.05 / D)]) and rows[0][2] == 1,
          'transition from the event time: %s' % rows[0][1])
    # Within 1e-9 DT after a tick, an event still applies at that tick.
    ev = [{'time': 0.1 + 1e-11, 'kind': 'value', 'value': [5.0]}]
    rows = parse(follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.2, ev).stdout, 1)
    check(close(rows[0][1], [5.0]), 'an event 1e-11 after a tick applies there: %s' % rows[0][1])
    # Equal times in command-line order: the later one wins...
    ev = [{'time': 0.1, 'kind': 'value', 'value': [2.0]},
          {'time': 0.1, 'kind': 'value', 'value': [4.0]}]
    rows = parse(follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.1, ev).stdout, 1)
    check(close(rows[0][1], [4.0]), '2 then 4: %s' % rows[0][1])
    rows = parse(follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.1, ev[::-1]).stdout, 1)
    check(close(rows[0][1], [2.0]), '4 then 2: %s' % rows[0][1])
    # ... and events given out of order are sorted by time.
    ev = [{'time': 0.2, 'kind': 'value', 'value': [7.0]},
          {'time': 0.1, 'kind': 'value', 'value': [1.0]}]
    rows = parse(follow(kfplay, scalar, 'scalarchaser_aligned', 0.1, 0.2, ev).stdout, 1)
    check(close(rows[0][1], [1.0]) and close(rows[1][1], [7.0]), 'sorted by time: %s' % rows)

    # Rotations: axis-angle in and out (angle in [0, pi], axis unit).
    rot = os.path.join(files, 'orientationchaser_fast.kfb')
    ev = [{'time': 0.0, 'kind': 'destination', 'value': [0, 0, 2, -math.pi / 2]}]
    rows = parse(follow(kfplay, rot, 'orientationchaser_fast', 0.5, 0.5, ev).stdout, 4)
    check(close(rows[0][1], [0, 0, -1, math.pi / 2]), 'axis-angle out: %s' % rows[0][1])

    # Damper dt: t_k - t_{k-1}, from t_0 = 0, also while idle.
    damp = os.path.join(files, 'positiondamper2d_order1_default_tol.kfb')
    c = by_id['positiondamper2d_order1_default_tol']  # order 1, tau 0.25, at rest at 0
    ev = [{'time': 0.3, 'kind': 'destination', 'value': [1, 0]}]
    rows = parse(follow(kfplay, damp, c.id, 0.2, 0.4, ev).stdout, 2)
    check(close(rows[1][1], [1 - math.exp(-0.2 / 0.25), 0]), 'damper dt: %s' % rows[1][1])

    # Arrays: all their numbers.
    mesh = os.path.join(files, 'coordinatechaser_two_points.kfb')
    ok = {'time': 0, 'kind': 'destination', 'value': [1, 2, 3, 4, 5, 6]}
    r = follow(kfplay, mesh, 'coordinatechaser_two_points', 1, 1, [ok])
    check(r.returncode == 0 and close(parse(r.stdout, 6)[0][1], [1, 2, 3, 4, 5, 6]), 'array')
    short = {'time': 0, 'kind': 'value', 'value': [1, 2, 3]}
    r = follow(kfplay, mesh, 'coordinatechaser_two_points', 1, 1, [short])
    check(r.returncode == 2 and 'takes 2 points of 3 (6 numbers)' in r.stderr,
          'a short array: %d %s' % (r.returncode, r.stderr.strip()))

    # Errors and exit statuses: a name the file lacks is invalid input (1);
    # an option's value malformed, out of its range or not the follower's
    # is a usage error (2), as kfc's option values are.
    def status(args, code, says):
        r = run([kfplay] + args)
        usage = r.stderr.endswith("Try 'kfplay --help' for more information.\n")
        check(r.returncode == code and says in r.stderr and r.stdout == '' and
              usage == (code == 2),
              '%s: exit %d (%s), want %d with %r' % (' '.join(args), r.returncode,
                                                   r.stderr.strip(), code, says))
    name = 'scalarchaser_aligned'
    status([scalar, 'follow', 'nobody', '--tick', '1', '--until', '1'], 1, 'no follower named')
    status([scalar, 'follow', name, '--until', '1'], 2, 'needs --tick and --until')
    status([scalar, 'follow', name, '--tick', '0', '--until', '1'], 2, 'must be positive')
    status([scalar, 'follow', name, '--tick', '100', '--until', '1'], 2,
           '--tick 100 is longer than --until 1: no tick to print (the first falls at DT)')
    status([scalar, 'follow', name, '--tick', 'x', '--until', '1'], 2,
           "--tick: not a decimal number: 'x'")
    status([scalar, 'follow', name, '--tick', '1', '--until', 'inf'], 2,
           "--until: not a decimal number: 'inf'")
    status([scalar, 'follow', name, '--tick', '0x1', '--until', '1'], 2,
           "--tick: not a decimal number: '0x1'")
    # A time with a unit: the seconds meant, as kfc says it of a source.
    status([scalar, 'follow', name, '--tick', '16ms', '--until', '1'], 2,
           "kfplay: error: --tick: not a decimal number: '16ms': numbers have no unit, and times "
           "are seconds (0.016)\nTry 'kfplay --help'")
    status([scalar, 'follow', name, '--tick', '1', '--until', '2s'], 2,
           "--until: not a decimal number: '2s': numbers have no unit, and times are seconds (2)")
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '500ms:value=1'], 2,
           "event '500ms:value=1': not a decimal number: '500ms': numbers have no unit, and "
           "times are seconds (0.5)")
    status([scalar, 'follow', name, '--tick', '1e-12', '--until', '1e6'], 2, 'more than 1e9')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--bogus', '1'], 2,
           'unknown option')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event'], 2,
           'needs a value')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '1=2'], 2,
           'T:destination=V')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '1:speed=2'], 2,
           'destination or value')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '1:value=1,2'],
           2, 'takes 1')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '1:value=nan'],
           2, "event '1:value=nan': not a decimal number: 'nan'")
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '0x1:value=1'],
           2, "event '0x1:value=1': not a decimal number: '0x1'")
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--event', '1:value=1e39'],
           2, 'outside the float range')
    status([scalar, 'follow', name, '--tick', '1', '--until', '1', '--capacity', '0'], 2,
           '--capacity')
    # An event after the last tick would never be sent (500 for 0.5 s, say);
    # one at the last tick is.
    status([scalar, 'follow', name, '--tick', '0.5', '--until', '2', '--event', '500:value=1'],
           2, '--event at 500 is after --until 2: it would never be sent (times are seconds)')
    r = run([kfplay, scalar, 'follow', name, '--tick', '0.5', '--until', '2', '--event',
             '2:value=1'])
    check(r.returncode == 0 and r.stdout.splitlines()[-1].split()[:2] == ['2', '1'],
          'an event at --until is sent: %r %r' % (r.stdout, r.stderr))
    # A damper holds no transitions: --capacity is refused as an option the
    # command does not take, not ignored.
    r = run([kfplay, damp, 'follow', c.id, '--tick', '0.5', '--until', '1', '--capacity', '3'])
    check(r.returncode == 2 and r.stdout == '' and r.stderr ==
          "kfplay: error: follow: --capacity is a chaser's option; "
          "'positiondamper2d_order1_default_tol' is a damper (PositionDamper2D)\n"
          "Try 'kfplay --help' for more information.\n",
          'a damper given --capacity: exit %d, %r' % (r.returncode, r.stderr))
    r = run([kfplay, scalar, 'follow', name, '--tick', '0.5', '--until', '1', '--capacity', '3'])
    check(r.returncode == 0 and len(parse(r.stdout, 1)) == 2,
          'a chaser given --capacity: exit %d, %r' % (r.returncode, r.stderr))
    r = run([kfplay, scalar, 'list'])
    check(r.returncode == 0 and
          'scalarchaser_aligned follower node=ScalarChaser components=1 duration=0.9375' in
          r.stdout, 'list: %r' % r.stdout)
    r = run([kfplay, mesh, 'list'])
    check('node=CoordinateChaser components=6 points=2 duration=0.9375' in r.stdout,
          'list an array: %r' % r.stdout)
    r = run([kfplay, damp, 'list'])
    check('node=PositionDamper2D components=2 tau=0.25 order=1 tolerance=-1' in r.stdout,
          'list a damper: %r' % r.stdout)


def yaml_value(v):
    if isinstance(v, (int, float)):
        return repr(float(v))
    return '[' + ', '.join(yaml_value(x) for x in v) + ']'


def compile_case(kfc, work, c):
    """The case as a YAML source, compiled; the .kfb path or None."""
    lines = ['kfb: 1', 'followers:', '  %s:' % c.id, '    node: %s' % c.node]
    for field, value in c.fields_as_authored.items():
        lines.append('    %s: %s' % (field, yaml_value(value)))
    src = os.path.join(work, c.id + '.yaml')
    out = os.path.join(work, c.id + '.kfb')
    with open(src, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    r = run([kfc, src, '-o', out])
    return out if check(r.returncode == 0, '%s: kfc: %s' % (c.id, r.stderr.strip())) else None


def main():
    a = driver.arguments()
    cases = follower_oracle.load(a.oracle)
    if cases is None:
        print('test_follower_cli: FAILED: no x3d.json in %s (tests/data/oracle holds it)' % a.oracle)
        return 1
    files = os.path.join(a.work, 'yaml')
    os.makedirs(files, exist_ok=True)
    compiled = [c for c in cases if compile_case(a.kfc, files, c)]
    for c in compiled:
        play_case(a.kfplay, files, c)
    if len(compiled) == len(cases):
        command_rules(a.kfplay, files, cases)
    print('test_follower_cli: %d checks, %d failed' % (checks.count, len(checks.failures)))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
