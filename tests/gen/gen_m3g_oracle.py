#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes m3g_oracle_data.c: the M3G reference vectors as C tables.

usage: gen_m3g_oracle.py ORACLE_DIR OUT.c

Samples where Nokia's core has a quirk we do not reproduce (docs/math.md §1.7)
and controller steps where Nokia rounds the position to whole milliseconds
get expectations from our rule instead, computed here by a small reference
implementation written independently of the C runtime (LINEAR, STEP and
SLERP only: the quirks occur nowhere else). If the oracle is missing, the
tables are empty and m3g_oracle_present is 0: the tests fail.
"""
import json
import math
import os
import sys

INTERP = {'STEP': 0, 'LINEAR': 1, 'SPLINE': 2, 'SLERP': 3, 'SQUAD': 4}
REPEAT = {'CONSTANT': 0, 'LOOP': 1}
MAXC = 6


def c_double(x):
    if x is None:
        return '0.0'
    return repr(float(x))


def c_vec(v, n=MAXC):
    v = list(v) + [0.0] * (n - len(v))
    return '{' + ', '.join(c_double(x) for x in v) + '}'


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"' if s is not None else 'NULL'


# ---- reference rule (LINEAR, STEP, SLERP) ------------------------------------

def normalize(q):
    n2 = sum(x * x for x in q)
    if n2 <= 1e-5:
        return [0.0, 0.0, 0.0, 1.0]
    n = math.sqrt(n2)
    return [x / n for x in q]


def valid_keys(seq):
    keys = seq['keys']
    n = len(keys)
    first, last = seq['valid_range']
    order = [(first + j) % n for j in range((last - first) % n + 1)]
    out = []
    for i in order:
        v = [float(x) for x in keys[i]['v']]
        if seq['interpolation'] in ('SLERP', 'SQUAD'):
            v = normalize(v)
        out.append((float(keys[i]['t']), v))
    return out


def slerp(a, b, s):
    c = sum(x * y for x, y in zip(a, b))
    if c >= 1 - 1e-5:
        return [(1 - s) * x + s * y for x, y in zip(a, b)]
    if c <= -1 + 1e-5:
        p = [-a[1], a[0], -a[3], a[2]]
        ka, kb = math.sin((1 - s) * math.pi / 2), math.sin(s * math.pi / 2)
        return [ka * x + kb * y for x, y in zip(a, p)]
    th = math.acos(c)
    ka, kb = math.sin((1 - s) * th) / math.sin(th), math.sin(s * th) / math.sin(th)
    return [ka * x + kb * y for x, y in zip(a, b)]


def reference_sample(seq, t):
    keys = valid_keys(seq)
    D = float(seq['duration'])
    if len(keys) == 1:
        return keys[0][1]
    t0, tl = keys[0][0], keys[-1][0]
    if seq['repeat'] == 'LOOP':
        t = t0 + math.fmod(t - t0, D)
        if t < t0:
            t += D
    elif t < t0:
        return keys[0][1]
    elif t >= tl:
        return keys[-1][1]
    i = max(j for j in range(len(keys)) if keys[j][0] <= t)
    ta, va = keys[i]
    if i + 1 < len(keys):
        tb, vb = keys[i + 1]
    else:
        tb, vb = t0 + D, keys[0][1]
    if seq['interpolation'] == 'STEP' or t == ta:
        return va
    s = (t - ta) / (tb - ta)
    if seq['interpolation'] == 'LINEAR':
        return [(1 - s) * x + s * y for x, y in zip(va, vb)]
    if seq['interpolation'] == 'SLERP':
        return slerp(va, vb, s)
    raise SystemExit('no reference rule for %s' % seq['interpolation'])


# ---- sequence cases ------------------------------------------------------------

def emit_sequence(out, prefix, seq, with_samples):
    name = prefix
    keys = seq['keys']
    out.append('static const m3g_key %s_keys[] = {%s};' % (
        name, ', '.join('{%s, %s}' % (c_double(k['t']), c_vec(k['v'])) for k in keys)))
    stored = seq.get('keys_stored', keys)
    out.append('static const m3g_key %s_stored[] = {%s};' % (
        name, ', '.join('{%s, %s}' % (c_double(k['t']), c_vec(k['v'])) for k in stored)))
    nsamples = 0
    if with_samples:
        rows = []
        for s in seq['samples']:
            if 'note' in s:
                rows.append('{%s, %s, 1}' % (c_double(s['t']), c_vec(reference_sample(seq, s['t']))))
            else:
                rows.append('{%s, %s, 0}' % (c_double(s['t']), c_vec(s['v'])))
        out.append('static const m3g_sample %s_samples[] = {%s};' % (name, ', '.join(rows)))
        nsamples = len(rows)
    tangents = seq.get('spline_tangents') or seq.get('squad_ab_xyzw') or []
    rows = []
    for tg in tangents:
        a = tg.get('out', tg.get('a'))
        b = tg.get('in', tg.get('b'))
        rows.append('{%d, %s, %s}' % (tg['index'], c_vec(a), c_vec(b)))
    if rows:
        out.append('static const m3g_tangent %s_tangents[] = {%s};' % (name, ', '.join(rows)))
    return '{%s, %d, %d, %s, %d, %d, %d, %d, %s_keys, %s_stored, %d, %s, %d, %s}' % (
        c_str(seq.get('name', prefix)), INTERP[seq['interpolation']], REPEAT[seq['repeat']],
        c_double(seq['duration']), seq['valid_range'][0], seq['valid_range'][1],
        seq['components'], len(keys), name, name, nsamples,
        name + '_samples' if nsamples else 'NULL', len(rows),
        name + '_tangents' if rows else 'NULL')


# ---- controller cases ----------------------------------------------------------

NODE_PROPERTIES = {
    'Group': {'TRANSLATION', 'ORIENTATION', 'SCALE', 'ALPHA', 'PICKABILITY', 'VISIBILITY'},
}
NODE_PROPERTIES['Light'] = NODE_PROPERTIES['Group'] | {'COLOR', 'INTENSITY', 'SPOT_ANGLE',
                                                       'SPOT_EXPONENT'}
FIXED_COUNTS = {'TRANSLATION': (3,), 'ORIENTATION': (4,), 'SCALE': (1, 3), 'ALPHA': (1,),
                'PICKABILITY': (1,), 'VISIBILITY': (1,), 'COLOR': (3,), 'INTENSITY': (1,),
                'SPOT_ANGLE': (1,), 'SPOT_EXPONENT': (1,)}

# API probes of the case "no_controller_and_api_errors": the equivalent
# kf_sequence_desc / controller checks (tests/test_controller_oracle.c knows
# them by name). Probes with no equivalent in a flat-array API are listed
# with the reason.
PROBES = {
    'new KeyframeSequence(2,3,SLERP)': 'slerp_3_components',
    'new KeyframeSequence(0,3,LINEAR)': 'no_keys',
    'new KeyframeSequence(2,3,170)': 'bad_interpolation',
    'setKeyframe(0, time=-1, ...)': 'negative_time',
    'setValidRange(0, 1) with 1 key': 'valid_range_out_of_bounds',
    'setDuration(0)': 'zero_duration',
    'setRepeatMode(7)': 'bad_repeat',
}
NOT_APPLICABLE = {
    # Keys are passed as one array of key_count entries: there is no index
    # to get wrong, and short values are a source-format error in kfc.
    'setKeyframe(index=1 of 1, ...)',
    'setKeyframe(0, 0, value with 2 < 3 components)',
}


def state_row(st, from_rule):
    light = 'intensity' in st
    return '{%s, %s, %s, %d, %d, %d, %d, %s, %s, %s, %uu, %d}' % (
        c_vec(st['translation'], 3), c_vec(st['orientation_xyzw'], 4), c_vec(st['scale'], 3),
        st['alpha_factor_u16'], int(st['picking_enabled']), int(st['rendering_enabled']),
        int(light), c_double(st.get('intensity')), c_double(st.get('spot_angle')),
        c_double(st.get('spot_exponent')), st.get('color_rgb', 0), int(from_rule))


def emit_controller_case(out, idx, case):
    prefix = 'cc%d' % idx
    seq_ids = sorted(case['sequences'], key=int)
    seqs = [dict(case['sequences'][k], name='s' + k) for k in seq_ids]
    rows = [emit_sequence(out, '%s_s%s' % (prefix, k), s, False) for k, s in zip(seq_ids, seqs)]
    out.append('static const m3g_case %s_sequences[] = {%s};' % (prefix, ', '.join(rows)))

    nodes, tracks, controllers = {}, {}, {}
    node_tracks = {}          # node -> [track]
    track_seq_invalid = set()
    ops = []
    steps = case['steps']

    # Sequences whose use made animate() fail are invalid: the builder must
    # reject them (the build-time form of M3G's IllegalStateException).
    for st in steps:
        if st['op'] == 'addAnimationTrack' and st.get('return', 0) >= 0:
            node_tracks.setdefault(st['node'], []).append(st['track'])
    track_of = {}
    for st in steps:
        if st['op'] == 'new AnimationTrack':
            track_of[st['track']] = st
    invalid = set()
    for st in steps:
        if st['op'] == 'animate' and st.get('error', '').startswith('M3G_INVALID_OPERATION'):
            for tr in node_tracks.get(st['node'], []):
                invalid.add(track_of[tr]['seq'])
    for s in sorted(invalid):
        ops.append('{OP_SEQUENCE_INVALID, %d, 0, 0, NULL, 0, 0, 1, {{0}}}' % s)

    # Python model of the controllers, to recompute fractional positions.
    ctl = {}
    bound = {}          # (node, property) -> components
    added = {}          # node -> set of tracks
    started = False
    for st in steps:
        op = st['op']
        if op in ('new Group', 'new Light'):
            nodes[st['node']] = st['type']
        elif op == 'new AnimationController':
            controllers[st['controller']] = True
            ctl[st['controller']] = dict(speed=1.0, weight=1.0, start=0.0, end=0.0, rw=0.0, rs=0.0)
        elif op == 'new AnimationTrack':
            tracks[st['track']] = dict(seq=st['seq'], prop=st['property'], ctl=None,
                                       created=st['created'])
            if not st['created']:
                comps = case['sequences'][str(st['seq'])]['components']
                assert comps not in FIXED_COUNTS[st['property']], st
                # A track whose component count the property refuses.
                ops.append('{OP_TRACK, -1, %d, -1, %s, 0, 0, 1, {{0}}}' % (
                    st['seq'], c_str(st['property'].lower())))
        elif op == 'setController':
            tr = tracks[st['track']]
            if started:
                # Re-binding after playback started only happens to tracks of
                # invalid sequences here, which the builder already refused.
                assert tr['seq'] in invalid, st
            tr['ctl'] = st['controller']
        elif op == 'addAnimationTrack':
            tr = tracks[st['track']]
            node = st['node']
            comps = case['sequences'][str(tr['seq'])]['components']
            key = (node, tr['prop'])
            ours_error = (st['track'] in added.get(node, set()) or
                          (key in bound and bound[key] != comps))
            m3g_error = st.get('return', 0) < 0
            if m3g_error and not ours_error:
                # kfb targets are untyped: any object may have any property.
                assert tr['prop'] not in NODE_PROPERTIES[nodes[node]], st
                continue
            assert m3g_error == ours_error, st
            if tr['seq'] in invalid:
                continue
            added.setdefault(node, set()).add(st['track'])
            if not ours_error:
                bound[key] = comps
            ops.append('{OP_TRACK, %d, %d, %d, %s, 0, 0, %d, {{0}}}' % (
                node, tr['seq'], -1 if tr['ctl'] is None else tr['ctl'],
                c_str(tr['prop'].lower()), int(ours_error)))
        elif op == 'setPosition':
            started = True
            c = ctl[st['controller']]
            c['rs'], c['rw'] = float(st['sequence_time']), float(st['world_time'])
            ops.append('{OP_SET_POSITION, %d, 0, 0, NULL, %s, %s, 0, {{0}}}' % (
                st['controller'], c_double(st['sequence_time']), c_double(st['world_time'])))
        elif op == 'setSpeed':
            started = True
            c = ctl[st['controller']]
            w = float(st['world_time'])
            c['rs'] = c['rs'] + c['speed'] * (w - c['rw'])
            c['rw'] = w
            c['speed'] = float(st['speed'])
            ops.append('{OP_SET_SPEED, %d, 0, 0, NULL, %s, %s, 0, {{0}}}' % (
                st['controller'], c_double(st['speed']), c_double(st['world_time'])))
        elif op == 'setWeight':
            started = True
            err = 'error' in st
            if not err:
                ctl[st['controller']]['weight'] = float(st['weight_arg'])
            ops.append('{OP_SET_WEIGHT, %d, 0, 0, NULL, %s, 0, %d, {{0}}}' % (
                st['controller'], c_double(st['weight_arg']), int(err)))
        elif op == 'setActiveInterval':
            started = True
            err = 'error' in st
            if not err:
                ctl[st['controller']]['start'] = float(st['start'])
                ctl[st['controller']]['end'] = float(st['end'])
            ops.append('{OP_SET_ACTIVE, %d, 0, 0, NULL, %s, %s, %d, {{0}}}' % (
                st['controller'], c_double(st['start']), c_double(st['end']), int(err)))
        elif op == 'getPosition':
            started = True
            ops.append('{OP_GET_POSITION, %d, %d, 0, NULL, %s, %s, 0, {{0}}}' % (
                st['controller'], int(st['active']), c_double(st['position']),
                c_double(st['world_time'])))
        elif op == 'animate':
            started = True
            if 'error' in st:
                continue  # an invalid sequence: refused by the builder above
            node, w = st['node'], float(st['world_time'])
            state = dict(st['state'])
            from_rule = False
            for tr_id in sorted(added.get(node, ())):
                tr = tracks[tr_id]
                if tr['ctl'] is None:
                    continue
                c = ctl[tr['ctl']]
                pos = c['rs'] + c['speed'] * (w - c['rw'])
                active = c['start'] == c['end'] or c['start'] <= w < c['end']
                if active and c['weight'] > 0 and pos != math.floor(pos):
                    # Nokia sampled round(pos); expect the exact position.
                    assert len(added[node]) == 1 and tr['prop'] == 'TRANSLATION', st
                    v = reference_sample(case['sequences'][str(tr['seq'])], pos)
                    state['translation'] = [c['weight'] * x for x in v]
                    from_rule = True
            ops.append('{OP_ANIMATE, %d, 0, 0, NULL, 0, %s, 0, %s}' % (
                node, c_double(w), state_row(state, from_rule)))
        elif op in PROBES:
            ops.append('{OP_PROBE, 0, 0, 0, %s, 0, 0, 1, {{0}}}' % c_str(PROBES[op]))
        elif op in NOT_APPLICABLE:
            pass
        else:
            raise SystemExit('%s: unhandled step %r' % (case['name'], op))

    empty = state_row(dict(translation=[], orientation_xyzw=[], scale=[], alpha_factor_u16=0,
                           picking_enabled=0, rendering_enabled=0), False)
    ops = [o.replace('{{0}}}', empty + '}') for o in ops]
    out.append('static const m3g_op %s_ops[] = {%s};' % (prefix, ',\n    '.join(ops)))
    return '{%s, %d, %s_sequences, %d, %d, %s_ops}' % (
        c_str(case['name']), len(seqs), prefix, len(controllers), len(ops), prefix)


def main():
    oracle_dir, out_path = sys.argv[1], sys.argv[2]
    path = os.path.join(oracle_dir, 'm3g.json')
    out = ['/* Generated by tests/gen/gen_m3g_oracle.py from %s. Do not edit. */' % path,
           '#include <stddef.h>', '#include "m3g_oracle.h"']
    if not os.path.exists(path):
        out += ['const int m3g_oracle_present = 0;',
                'const char *const m3g_oracle_path = %s;' % c_str(path),
                'const unsigned m3g_case_count = 0;',
                'const m3g_case m3g_cases[1];',
                'const unsigned m3g_controller_case_count = 0;',
                'const m3g_controller_case m3g_controller_cases[1];']
    else:
        with open(path) as f:
            data = json.load(f)
        cases = [emit_sequence(out, 'c%d' % i, c, True) for i, c in enumerate(data['cases'])]
        ccases = [emit_controller_case(out, i, c) for i, c in enumerate(data['controller_cases'])]
        out += ['const int m3g_oracle_present = 1;',
                'const char *const m3g_oracle_path = %s;' % c_str(path),
                'const unsigned m3g_case_count = %d;' % len(cases),
                'const m3g_case m3g_cases[] = {\n    %s\n};' % ',\n    '.join(cases),
                'const unsigned m3g_controller_case_count = %d;' % len(ccases),
                'const m3g_controller_case m3g_controller_cases[] = {\n    %s\n};'
                % ',\n    '.join(ccases)]
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
