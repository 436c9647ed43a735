#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes workload W, the benchmark animation, as kfc YAML sources.

W is a 64-joint character playing a 10 s loop: each joint has a
translation (vec3), a rotation (quaternion) and a scale (vec3) sequence of
301 keys (30 keys per second, key times shared within a joint), all driven
by one controller into the joint's targets (192 tracks). Motion is smooth:
every component is a sum of 3 sinusoids of 0.1-2 Hz; rotations come from
smooth Euler angles and keep each key in the previous key's hemisphere; the
root walks forward at 1.2 m/s. Times are in seconds, as a player's world
time is (the key times i / 30 rounded to float32).

Two variants share the keys: LINEAR+SLERP and SPLINE+SQUAD. A third, the
constant-channel variant (LINEAR+SLERP), keeps W's rotations and root motion
but holds every other joint's translation at its rest offset and every scale
at exactly 1, as real skeletal animation does: what a compact format gains
from constant channels shows there.

    gen_workload.py OUT_DIR        writes OUT_DIR/w_linear.yaml, w_spline.yaml,
                                   w_const.yaml
    gen_workload.py --w2 OUT_DIR   the second workload, W2 (below): w2_*.yaml

and, beside each, the same numbers as a flat list (w_*.flat) that kfbench
builds through kf_builder where kfc is not at hand.

The output is a pure function of this file (a fixed-seed Mersenne Twister,
whose random() sequence Python guarantees across versions).
"""
import math
import os
import random
import struct
import sys

JOINTS = 64
KEYS = 301                 # 10 s at 30 keys/s, both ends included
DURATION = 10.0           # seconds
WALK_SPEED = 1.2           # m/s, root joint along x
SEED = 20240607

VARIANTS = {  # interpolations, and whether non-root translations and scales are constant
    'linear': ('linear', 'slerp', False),
    'spline': ('spline', 'squad', False),
    'const': ('linear', 'slerp', True),
}


def f32(x):
    """x rounded to float32, as kfc will store it."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def fmt(x):
    """The shortest decimal that reads back to the same float32."""
    x = f32(x)
    if x == 0.0:
        return '0'
    for digits in range(1, 10):
        s = '%.*g' % (digits, x)
        if f32(float(s)) == x:
            break
    if 'e' in s and 1e-4 <= abs(x) < 1e9:  # plain notation, as people write times
        exponent = math.floor(math.log10(abs(x)))
        s = '%.*f' % (max(0, digits - 1 - exponent), x)
    return s


class Wave:
    """A sum of three sinusoids, 0.1-2 Hz, around `base`."""

    def __init__(self, rng, base, amplitude):
        self.base = base
        self.terms = [(amplitude * rng.uniform(0.3, 1.0) / (k + 1), rng.uniform(0.1, 2.0),
                       rng.uniform(0.0, 2 * math.pi)) for k in range(3)]

    def __call__(self, seconds):
        return self.base + sum(a * math.sin(2 * math.pi * f * seconds + p)
                               for a, f, p in self.terms)


def euler_to_quat(rx, ry, rz):
    """Rotation about x, then y, then z (q = qz qy qx), as [x, y, z, w]."""
    cx, sx = math.cos(rx / 2), math.sin(rx / 2)
    cy, sy = math.cos(ry / 2), math.sin(ry / 2)
    cz, sz = math.cos(rz / 2), math.sin(rz / 2)
    return [sx * cy * cz - cx * sy * sz,
            cx * sy * cz + sx * cy * sz,
            cx * cy * sz - sx * sy * cz,
            cx * cy * cz + sx * sy * sz]


def joint_channels(rng, joint, constant=False):
    """The three key lists of one joint: translation, rotation, scale.
    `constant`: translation (but the root's) fixed at its offset, scale 1;
    the random draws are the same either way."""
    offset = [rng.uniform(-0.3, 0.3), rng.uniform(0.0, 0.4), rng.uniform(-0.3, 0.3)]
    if joint == 0:
        offset = [0.0, 0.95, 0.0]
    move = [Wave(rng, o, 0.05) for o in offset]
    angles = [Wave(rng, rng.uniform(-0.5, 0.5), rng.uniform(0.2, 0.9)) for _ in range(3)]
    scale = [Wave(rng, 1.0, 0.05) for _ in range(3)]
    times, trans, rots, scales = [], [], [], []
    prev = None
    for i in range(KEYS):
        s = i * DURATION / (KEYS - 1)
        times.append(s)
        t = [w(s) for w in move]
        if joint == 0:
            t[0] += WALK_SPEED * s
        if constant and joint != 0:
            t = list(offset)
        trans.append(t)
        q = euler_to_quat(*(w(s) for w in angles))
        if prev is not None and sum(a * b for a, b in zip(q, prev)) < 0:
            q = [-c for c in q]
        prev = q
        rots.append(q)
        scales.append([1.0, 1.0, 1.0] if constant else [w(s) for w in scale])
    return times, trans, rots, scales


def write_flat_sequence(flat, name, interpolation, times, values):
    flat.append('%s %s loop %s %d %d\n' % (name, interpolation, fmt(DURATION), len(values[0]),
                                          len(times)))
    for t, v in zip(times, values):
        flat.append('%s %s\n' % (fmt(t), ' '.join(fmt(c) for c in v)))


def write_sequence(out, name, interpolation, times, values):
    out.append('  %s:\n    interpolation: %s\n    repeat: loop\n    duration: %s\n    keys:\n'
               % (name, interpolation, fmt(DURATION)))
    for t, v in zip(times, values):
        out.append('      - [%s, [%s]]\n' % (fmt(t), ', '.join(fmt(c) for c in v)))


def generate(variant):
    vector, rotation, constant = VARIANTS[variant]
    rng = random.Random(SEED)
    flat = ['sequences %d\n' % (3 * JOINTS)]
    out = ['# Workload W (%s+%s), written by tests/bench/gen_workload.py: do not edit.\n'
           '# %d joints x (translation, rotation, scale), %d keys each, times in s.%s\n'
           'kfb: 1\n\nsequences:\n'
           % (vector, rotation, JOINTS, KEYS,
              '\n# Constant channels: translations but the root\'s, and scales.'
              if constant else '')]
    for j in range(JOINTS):
        times, trans, rots, scales = joint_channels(rng, j, constant)
        for channel, interpolation, values in (('t', vector, trans), ('r', rotation, rots),
                                               ('s', vector, scales)):
            write_sequence(out, 'j%02d_%s' % (j, channel), interpolation, times, values)
            write_flat_sequence(flat, 'j%02d_%s' % (j, channel), interpolation, times, values)
    out.append('\ncontrollers:\n  play: {speed: 1, weight: 1}\n\ntracks:\n')
    flat.append('controllers 1\nplay 1 1\ntracks %d\n' % (3 * JOINTS))
    for j in range(JOINTS):
        for channel, prop in (('t', 'translation'), ('r', 'orientation'), ('s', 'scale')):
            out.append('  - {animator: j%02d_%s, controller: play, target: j%02d.%s}\n'
                       % (j, channel, j, prop))
            flat.append('j%02d_%s play j%02d.%s\n' % (j, channel, j, prop))
    return ''.join(out), ''.join(flat)


# The second workload, W2: another shape of the same motion, twice the
# joints over half the time (128 joints x 151 keys, a 5 s loop): as many
# keys as W, twice the sequences, tracks and targets.
W2 = {'JOINTS': 128, 'KEYS': 151, 'DURATION': 5.0}


def main():
    args = sys.argv[1:]
    prefix = 'w'
    if args[:1] == ['--w2']:
        globals().update(W2)
        prefix = 'w2'
        args = args[1:]
    if args[:1] in (['-h'], ['--help']):
        print(__doc__.strip())
        return
    # An option it does not know is a mistake, not a folder to fill.
    if len(args) != 1 or args[0].startswith('-'):
        sys.exit('usage: gen_workload.py [--w2] OUT_DIR')
    os.makedirs(args[0], exist_ok=True)
    for variant in VARIANTS:
        yaml, flat = generate(variant)
        for ext, text in (('yaml', yaml), ('flat', flat)):
            path = os.path.join(args[0], '%s_%s.%s' % (prefix, variant, ext))
            with open(path + '.tmp', 'w', newline='\n') as f:
                f.write(text)
            os.replace(path + '.tmp', path)


if __name__ == '__main__':
    main()
