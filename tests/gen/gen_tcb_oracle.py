#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes tcb_oracle_data.c: Kochanek-Bartels expectations as C tables.

usage: gen_tcb_oracle.py ORACLE_DIR OUT.c

Two sources:
  - oracle/eberly.json (Eberly's PosSpline/RotSpline): Eberly's spline lives
    on [t_1, t_{N-2}], keys 0 and N-1 only shape tangents, so each case is
    a CONSTANT sequence over all N keys, times shifted to start at 0, and
    only samples inside his domain are expected. His leg animation is also
    given in the looping form of fixtures/leg_walk.yaml.
  - tcb_reference.py, an independent float64 implementation of the
    formulas, for what Eberly's code cannot express: LOOP, valid ranges
    that wrap, coincident keys, zero-length wrap segments, and the arc
    length of every segment (by fine polylines).
If eberly.json is missing, only the reference cases are written.
"""
import json
import math
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tcb_reference as ref  # noqa: E402

INTERP = {'STEP': 0, 'LINEAR': 1, 'SPLINE': 2, 'SLERP': 3, 'SQUAD': 4}
REPEAT = {'CONSTANT': 0, 'LOOP': 1}
MAXC = 4
VALUE_ONLY, RIGHT, LEFT = 0, 1, 2


def c_double(x):
    return repr(float(x))


def c_vec(v, n=MAXC):
    v = list(v) + [0.0] * (n - len(v))
    return '{' + ', '.join(c_double(x) for x in v) + '}'


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


class Case:
    def __init__(self, name, source, seq):
        self.name, self.source, self.seq = name, source, seq
        self.samples = []  # (t, value, velocity, acceleration, kind)
        self.segment_lengths = None
        self.eberly_length = -1.0

    def add(self, t, value, velocity=None, acceleration=None, kind=VALUE_ONLY):
        self.samples.append((t, value, velocity or [], acceleration or [], kind))

    def emit(self, out, prefix):
        seq = self.seq
        keys = seq['keys']
        out.append('static const tcb_key %s_keys[] = {%s};' % (prefix, ', '.join(
            '{%s, %s, %s}' % (c_double(k['t']), c_vec(k['v']), c_vec(k.get('tcb', [0, 0, 0]), 3))
            for k in keys)))
        out.append('static const tcb_sample %s_samples[] = {%s};' % (prefix, ',\n    '.join(
            '{%s, %s, %s, %s, %d}' % (c_double(t), c_vec(v), c_vec(vel), c_vec(acc), kind)
            for t, v, vel, acc, kind in self.samples)))
        lengths = 'NULL'
        total = -1.0
        if self.segment_lengths is not None:
            out.append('static const double %s_lengths[] = {%s};' % (
                prefix, ', '.join(c_double(x) for x in self.segment_lengths or [0.0])))
            lengths = prefix + '_lengths'
            total = sum(self.segment_lengths)
        scale = max(abs(x) for sample in self.samples for x in sample[1])
        return '{%s, %s, %d, %d, %s, %d, %d, %d, %d, %s_keys, %d, %s_samples, %s, %d, %s, %s, %s}' % (
            c_str(self.name), c_str(self.source), INTERP[seq['interpolation']],
            REPEAT[seq['repeat']], c_double(seq['duration']), seq['valid_range'][0],
            seq['valid_range'][1], len(keys[0]['v']), len(keys), prefix, len(self.samples), prefix,
            c_double(scale), len(self.segment_lengths or []), lengths, c_double(total),
            c_double(self.eberly_length))


# ---- Eberly's cases ------------------------------------------------------------

def eberly_keys(keys, value_of, shift):
    return [{'t': k['t'] + shift, 'v': value_of(k),
             'tcb': [k['tension'], k['continuity'], k['bias']]} for k in keys]


def eberly_sequence(interp, keys):
    return {'interpolation': interp, 'repeat': 'CONSTANT', 'duration': keys[-1]['t'],
            'valid_range': [0, len(keys) - 1], 'keys': keys}


def domain_end(keys, shift):
    return keys[-2]['t'] + shift


def position_case(c):
    shift = -c['keys'][0]['t']
    keys = eberly_keys(c['keys'], lambda k: k['v'], shift)
    case = Case(c['name'], 'eberly', eberly_sequence('SPLINE', keys))
    end = domain_end(c['keys'], shift)
    for s in c['samples']:
        t = s['t'] + shift
        # At the end of his domain Eberly evaluates u = 1 of the last
        # segment: the left-hand derivatives.
        kind = LEFT if t == end else RIGHT
        case.add(t, s['position'], s['velocity'], s['acceleration'], kind)
        if 'position_incoming' in s:
            case.add(t, s['position_incoming'], s['velocity_incoming'],
                     s['acceleration_incoming'], LEFT)
    curve = ref.Curve(case.seq)
    case.segment_lengths = curve.lengths()
    case.eberly_length = c['eberly_total_length']
    return case


def rotation_case(c):
    shift = -c['keys'][0]['t']
    keys = eberly_keys(c['keys'], lambda k: k['q_xyzw'], shift)
    case = Case(c['name'], 'eberly', eberly_sequence('SQUAD', keys))
    for s in c['samples']:
        case.add(s['t'] + shift, s['q_xyzw'])
    return case


LEG_PARTS = [('hip', 'hip_position', 'SPLINE'), ('hip_rot', 'hip_q_xyzw', 'SQUAD'),
             ('knee', 'knee_q_xyzw', 'SQUAD'), ('ankle', 'ankle_q_xyzw', 'SQUAD')]

# fixtures/leg_walk.yaml: keys 1..5 of the leg at Eberly's own times 0..4,
# looping with a period of 4 (the wrap segment has zero duration: the walk
# jumps back to its start as Eberly's demo does). Keys 0 and 6 only gave
# the end keys one-sided tangents; in a loop the end keys' neighbours are
# each other, and these TCB values give back exactly Eberly's end tangents.
LEG_FIRST_TCB = [0.75, 0.0, -1.0]
LEG_LAST_TCB = [0.75, 0.0, 1.0]


def leg_cases(leg):
    cases = []
    for part, field, interp in LEG_PARTS:
        shift = 1.0
        keys = eberly_keys(leg['keys'], lambda k, f=field: k[f], shift)
        case = Case('leg_' + part, 'eberly', eberly_sequence(interp, keys))
        end = domain_end(leg['keys'], shift)
        for s in leg['samples']:
            t = s['t_float32'] + shift
            if interp == 'SPLINE':
                case.add(t, s['hip_position'], s['hip_velocity'], s['hip_acceleration'],
                         LEFT if t == end else RIGHT)
            else:
                case.add(t, s[field])
        cases.append(case)

        loop_keys = [dict(k) for k in eberly_keys(leg['keys'][1:-1], lambda k, f=field: k[f], 0.0)]
        loop_keys[0]['tcb'] = LEG_FIRST_TCB
        loop_keys[-1]['tcb'] = LEG_LAST_TCB
        seq = {'interpolation': interp, 'repeat': 'LOOP', 'duration': 4.0,
               'valid_range': [0, len(loop_keys) - 1], 'keys': loop_keys}
        loop = Case('leg_walk_' + part, 'eberly', seq)
        first = leg['samples'][0]
        for s in leg['samples']:
            t = s['t_float32']
            # The period ends at 4: the walk starts over.
            e = first if t >= 4.0 else s
            if interp == 'SPLINE':
                loop.add(t, e['hip_position'], e['hip_velocity'], e['hip_acceleration'], RIGHT)
            else:
                loop.add(t, e[field])
        cases.append(loop)
    return cases


# ---- reference cases -------------------------------------------------------------

def q_axis_angle(axis, angle):
    n = math.sqrt(sum(x * x for x in axis))
    s = math.sin(angle / 2) / n
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2)]


def key(t, v, tcb=(0, 0, 0)):
    return {'t': t, 'v': list(v), 'tcb': list(tcb)}


REFERENCE = [
    ('loop_spline_tcb', {
        'interpolation': 'SPLINE', 'repeat': 'LOOP', 'duration': 5.0, 'valid_range': [0, 4],
        'keys': [key(0.5, [1, 2, 0.5], (0.25, -0.5, 0.5)), key(1.0, [2.5, 3, -1], (-1, 1, 0)),
                 key(2.5, [4, 1.5, -0.5], (0.5, 0.25, -0.75)),
                 key(3.0, [5, -1, 1.25], (0, -1, 1)), key(4.25, [3, 0.5, 2], (1, 0, 0))]}),
    ('wrap_range_spline_tcb', {
        'interpolation': 'SPLINE', 'repeat': 'CONSTANT', 'duration': 4.0, 'valid_range': [4, 1],
        'keys': [key(2.5, [3, -2], (0.3, 0.6, -0.2)), key(3.0, [4, 0], (-0.4, 0.1, 0.9)),
                 key(7.0, [100, 100], (1, 1, 1)), key(9.0, [-50, 20], (-1, -1, -1)),
                 key(0.0, [0, 1], (0.5, -0.5, 0.25)), key(1.0, [1.5, 2], (-0.25, 0.75, -0.6))]}),
    ('loop_zero_wrap_spline_tcb', {
        'interpolation': 'SPLINE', 'repeat': 'LOOP', 'duration': 3.0, 'valid_range': [0, 3],
        'keys': [key(0, [0, 0], LEG_FIRST_TCB), key(1, [2, 1]), key(2, [3, -1], (0.2, 0.3, 0.4)),
                 key(3, [6, 0], LEG_LAST_TCB)]}),
    ('coincident_spline_tcb', {
        'interpolation': 'SPLINE', 'repeat': 'CONSTANT', 'duration': 3.0, 'valid_range': [0, 4],
        'keys': [key(0, [0, 1]), key(1, [1, 2], (0.1, 0.5, -0.3)), key(1, [2, -1], (-0.2, -0.4, 0.6)),
                 key(2, [0, 0], (0, 0.3, 0)), key(3, [1, 1])]}),
    ('spline_1d_overshoot', {
        'interpolation': 'SPLINE', 'repeat': 'CONSTANT', 'duration': 4.0, 'valid_range': [0, 4],
        'keys': [key(0, [0]), key(1, [3]), key(1.5, [-1]), key(3, [2], (-0.5, 0, 0)),
                 key(4, [2.5])]}),
    ('linear_loop', {
        'interpolation': 'LINEAR', 'repeat': 'LOOP', 'duration': 6.0, 'valid_range': [0, 2],
        'keys': [key(1, [0, 0, 0]), key(2, [3, 4, 0]), key(4.5, [3, 4, 12])]}),
    ('loop_squad_tcb', {
        'interpolation': 'SQUAD', 'repeat': 'LOOP', 'duration': 4.0, 'valid_range': [0, 3],
        'keys': [key(0, q_axis_angle([1, 0, 0], 0.3), (0.5, 0.2, -0.4)),
                 key(1, q_axis_angle([0, 1, 1], 1.1), (-0.3, -0.6, 0.2)),
                 key(1.75, q_axis_angle([1, 1, 0], 2.0), (0, 0.8, 0.5)),
                 key(3, q_axis_angle([0, 0, 1], -0.7), (0.9, -0.1, -0.9))]}),
    ('squad_subset_tcb', {
        'interpolation': 'SQUAD', 'repeat': 'CONSTANT', 'duration': 5.0, 'valid_range': [1, 3],
        'keys': [key(0, q_axis_angle([1, 2, 3], 0.5), (1, 1, 1)),
                 key(0.5, q_axis_angle([0, 0, 1], 0.25), (0.4, 0, 0)),
                 key(2, q_axis_angle([0, 1, 0], 1.5), (-0.2, 0.7, -0.5)),
                 key(4, q_axis_angle([1, 0, 1], 0.9), (0.1, 0.1, 0.1)),
                 key(5, q_axis_angle([1, 1, 1], 2.5), (-1, -1, -1))]}),
]


def reference_case(name, seq):
    curve = ref.Curve(seq)
    case = Case(name, 'reference', seq)
    t0 = curve.t[0]
    span = seq['duration'] * (2.6 if seq['repeat'] == 'LOOP' else 1.3)
    times = [t0 - 0.7 + span * k / 53 for k in range(54)]
    times += curve.t + [t + seq['duration'] for t in curve.t] + [-seq['duration'] + curve.t[1]]
    for t in sorted(set(ref.f32(x) for x in times)):
        if seq['interpolation'] == 'SQUAD':
            case.add(t, curve.sample(t))
        else:
            case.add(t, curve.sample(t), curve.derivative(t, 1), curve.derivative(t, 2), RIGHT)
    if seq['interpolation'] != 'SQUAD':
        case.segment_lengths = curve.lengths()
    return case


def main():
    oracle_dir, out_path = sys.argv[1], sys.argv[2]
    path = os.path.join(oracle_dir, 'eberly.json')
    out = ['/* Generated by tests/gen/gen_tcb_oracle.py. Do not edit. */',
           '#include <stddef.h>', '#include "tcb_oracle.h"']
    cases = []
    present = os.path.exists(path)
    if present:
        with open(path) as f:
            data = json.load(f)
        cases += [position_case(c) for c in data['position_cases']]
        cases += [rotation_case(c) for c in data['rotation_cases']]
        cases += leg_cases(data['leg'])
    cases += [reference_case(name, seq) for name, seq in REFERENCE]
    rows = [c.emit(out, 'c%d' % i) for i, c in enumerate(cases)]
    out += ['const int tcb_eberly_present = %d;' % int(present),
            'const char *const tcb_eberly_path = %s;' % c_str(path),
            'const unsigned tcb_case_count = %d;' % len(rows),
            'const tcb_case tcb_cases[] = {\n    %s\n};' % ',\n    '.join(rows)]
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
