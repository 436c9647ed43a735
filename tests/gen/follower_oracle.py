# SPDX-License-Identifier: MIT
"""The follower cases of oracle/x3d.json, with the comparison rules of
oracle/README.md turned into a plan each test driver follows.

Used by gen_follower_oracle.py (C tables for the C API test) and by
test_follower_cli.py (the kfc -> kfplay path), so both paths compare the
same things the same way:

- Vector chasers: X_ITE runs a 60-slot buffer; ours is the exact FIR. The
  events are given as they are and `expect` is `spec_ideal_FIR_value`.
- OrientationChaser / ColorChaser (no ideal values in the oracle): X_ITE
  equals the exact FIR except that a set_destination reaching an idle
  X_ITE takes effect one slot (duration/60) late, so that event is replayed
  at T + duration/60 and `expect` is X_ITE's value. With the flag
  chaser_multiple_slots_per_frame_ramp_fill, `expect` is the closed form of
  one transition at a time (the case's transitions do not overlap),
  computed here.
- Chasers also get `active`: isActive as the spec defines it, derived here
  from the events alone (a transition runs from its event for `duration`).
- Dampers: X_ITE stops differently (after the update, at 1e-4, without
  snapping), so before an event that reaches an idle X_ITE damper ours gets
  set_value = X_ITE's held value; values are compared on frames where both
  run (and on X_ITE's stop frame, whose output it computed); where ours has
  stopped it must rest exactly at the destination, and X_ITE (if running)
  within order * tolerance of it.

Values are flat lists of numbers as authored (axis-angle for rotations);
`expect_quat` gives rotations as quaternions [x, y, z, w].
"""
import json
import math
import os

CHASERS = {'PositionChaser', 'PositionChaser2D', 'ScalarChaser', 'OrientationChaser',
           'ColorChaser', 'CoordinateChaser', 'TexCoordChaser2D'}
ROTATIONS = {'OrientationChaser', 'OrientationDamper'}
DEFAULT_TOLERANCE = 0.001  # docs/math.md §4.4: tolerance -1 means this


def flatten(v):
    if isinstance(v, (int, float)):
        return [float(v)]
    out = []
    for x in v:
        out.extend(flatten(x))
    return out


def axis_angle_to_quat(a):
    x, y, z, ang = a
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0:
        return [0.0, 0.0, 0.0, 1.0]
    s = math.sin(ang / 2) / n
    return [x * s, y * s, z * s, math.cos(ang / 2)]


def slerp_short(a, b, s):
    c = sum(x * y for x, y in zip(a, b))
    if c < 0:
        b = [-x for x in b]
        c = -c
    if c >= 1 - 1e-5:
        q = [(1 - s) * x + s * y for x, y in zip(a, b)]
    else:
        th = math.acos(c)
        ka, kb = math.sin((1 - s) * th) / math.sin(th), math.sin(s * th) / math.sin(th)
        q = [ka * x + kb * y for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def core(x):
    """R(x) of docs/math.md §4.2."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return (1 - math.cos(math.pi * x)) / 2


def same_value(node, a, b):
    if node in ROTATIONS:
        qa, qb = axis_angle_to_quat(a), axis_angle_to_quat(b)
        return all(x == y for x, y in zip(qa, qb)) or all(x == -y for x, y in zip(qa, qb))
    return list(a) == list(b)


class Case:
    pass


def _event(time, kind, value):
    return {'time': float(time), 'kind': kind, 'value': [float(x) for x in value]}


def _tick_of(time, tick):
    """The first tick k >= 1 with k * tick >= time - 1e-9 * tick (the
    kfplay rule)."""
    k = max(1, math.ceil((time - 1e-9 * tick) / tick - 1e-12))
    while k > 1 and (k - 1) * tick >= time - 1e-9 * tick:
        k -= 1
    while k * tick < time - 1e-9 * tick:
        k += 1
    return k


def _chaser_active(case, events, ticks):
    """isActive per tick from the events: a transition runs from its event
    for `duration`; set_value drops the running ones and starts one unless
    the value is already the destination."""
    dest = case.initial_destination
    starts = [0.0] if not same_value(case.node, case.initial_value, dest) else []
    D = case.duration
    out = []
    i = 0
    for k in range(1, ticks + 1):
        t = k * case.tick
        while i < len(events) and events[i]['time'] - 1e-9 * case.tick <= t:
            e = events[i]
            if e['kind'] == 'destination':
                if not same_value(case.node, e['value'], dest):
                    starts.append(e['time'])
                    dest = e['value']
            else:
                starts = [] if same_value(case.node, e['value'], dest) else [e['time']]
            i += 1
        out.append(any(t - s < D for s in starts))
    return out


def _single_transitions(case, events, ticks):
    """Rotation chaser values when transitions never overlap: one slerp from
    where the output rests to the destination (quaternions)."""
    D = case.duration
    q = axis_angle_to_quat
    rest = q(case.initial_value)
    dest = q(case.initial_destination)
    start, origin = 0.0, rest
    if same_value(case.node, case.initial_value, case.initial_destination):
        start = None
    out = []
    i = 0
    for k in range(1, ticks + 1):
        t = k * case.tick
        while i < len(events) and events[i]['time'] - 1e-9 * case.tick <= t:
            e = events[i]
            if start is not None:
                assert e['kind'] == 'value' or e['time'] - start >= D, \
                    '%s: transitions overlap' % case.id
                origin = slerp_short(origin, dest, core((e['time'] - start) / D))
            if e['kind'] == 'destination':
                dest, start = q(e['value']), e['time']
            else:
                origin, start = q(e['value']), e['time']
            i += 1
        if start is None:
            out.append(dest)
        else:
            out.append(slerp_short(origin, dest, core((t - start) / D)))
    return out


def load(oracle_dir):
    """The planned cases, or None if the oracle file is absent."""
    path = os.path.join(oracle_dir, 'x3d.json')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        data = json.load(f)
    return [plan(c) for c in data['followers']]


def plan(c):
    case = Case()
    case.id = c['id']
    case.node = c['node']
    case.chaser = case.node in CHASERS
    case.rotation = case.node in ROTATIONS
    case.fields_as_authored = c['fields_as_authored']
    fields = c['fields']
    case.initial_value = flatten(fields['initialValue'])
    case.initial_destination = flatten(fields['initialDestination'])
    case.points = (len(fields['initialValue'])
                   if case.node.startswith(('Coordinate', 'TexCoord')) else 1)
    case.duration = float(fields.get('duration', 1.0))
    case.tau = float(fields.get('tau', 0.3))
    case.order = int(fields.get('order', 3))
    case.tolerance = float(fields.get('tolerance', -1))
    case.tick = float(c['tick'])
    case.ticks = len(c['samples'])
    assert all(s['time'] == (k + 1) * case.tick for k, s in enumerate(c['samples']))
    flags = set(c['deviation_flags'])
    samples = c['samples']
    xite_active = [bool(s['isActive']) for s in samples]
    xite_value = [flatten(s['value']) for s in samples]

    def xite_idle_before(time):
        k = _tick_of(time, case.tick)
        return not (xite_active[k - 2] if k >= 2 else c['initial_state']['isActive'])

    def xite_held_before(time):
        k = _tick_of(time, case.tick)
        return xite_value[k - 2] if k >= 2 else flatten(c['initial_state']['value'])

    events = []
    for e in c['events']:
        kind = 'destination' if 'set_destination' in e else 'value'
        value = flatten(e['set_' + kind])
        events.append(_event(e['time'], kind, value))

    case.mode = 'ideal'
    if case.chaser:
        ramp = 'chaser_multiple_slots_per_frame_ramp_fill' in flags
        if case.node in ('OrientationChaser', 'ColorChaser') and not ramp:
            case.mode = 'xite'
            for e in events:
                if e['kind'] == 'destination' and xite_idle_before(e['time']):
                    e['time'] += case.duration / 60
        elif case.node in ('OrientationChaser', 'ColorChaser'):
            assert case.node == 'OrientationChaser', 'no closed form for ' + case.node
            case.mode = 'formula'
    else:
        case.mode = 'damper'
        aligned = []
        for e in events:
            if e['kind'] == 'destination' and xite_idle_before(e['time']):
                aligned.append(_event(e['time'], 'value', xite_held_before(e['time'])))
            aligned.append(e)
        events = aligned
    events.sort(key=lambda e: e['time'])  # stable: equal times keep their order
    case.events = events

    case.xite_value = xite_value
    case.xite_active = xite_active
    case.xite_stop = [xite_active[k - 1] if k else c['initial_state']['isActive']
                      for k in range(case.ticks)]
    case.xite_stop = [(not a) and prev for a, prev in zip(xite_active, case.xite_stop)]
    if case.mode == 'ideal':
        case.expect = [flatten(s['spec_ideal_FIR_value']) for s in samples]
    elif case.mode == 'formula':
        case.expect_quat = _single_transitions(case, events, case.ticks)
        case.expect = None
    else:
        case.expect = xite_value
    if case.rotation and case.mode != 'formula':
        case.expect_quat = [list(s['quat_xyzw']) for s in samples]
    case.active = _chaser_active(case, events, case.ticks) if case.chaser else None
    # Dampers: where X_ITE runs but ours rests, X_ITE is this close to the
    # destination (README: order * tolerance; ours stopped at its tolerance).
    case.rest_slack = max(case.order, 1) * (DEFAULT_TOLERANCE if case.tolerance < 0
                                            else case.tolerance)
    return case


def destinations(case):
    """The destination in force at each tick, as authored numbers."""
    dest = case.initial_destination
    out = []
    i = 0
    for k in range(1, case.ticks + 1):
        t = k * case.tick
        while i < len(case.events) and case.events[i]['time'] - 1e-9 * case.tick <= t:
            if case.events[i]['kind'] == 'destination':
                dest = case.events[i]['value']
            i += 1
        out.append(dest)
    return out


def rotation_angle(qa, qb):
    """The angle between two rotations given as quaternions."""
    na = math.sqrt(sum(x * x for x in qa))
    nb = math.sqrt(sum(x * x for x in qb))
    c = abs(sum(x * y for x, y in zip(qa, qb))) / (na * nb)
    return 2 * math.acos(min(1.0, c))
