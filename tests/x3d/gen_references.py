# SPDX-License-Identifier: MIT
"""Plays each scene of tests/data/x3d/scenes.json in X_ITE through
xite_sample.cjs and writes what it recorded beside the scene, as
NAME.xite.json (tests/data/x3d/README.md says how these were made).

    python3 tests/x3d/gen_references.py [--out DIR] [SCENE...]

Node must find x_ite, jsdom, jsdom-global and nogl (NODE_PATH)."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data', 'x3d')


def command(name, spec):
    cmd = ['node', os.path.join(HERE, 'xite_sample.cjs'), os.path.join(DATA, name),
           '--load', repr(spec['load']), '--step', repr(spec['step']), '--until', repr(spec['until'])]
    for e in spec.get('events', []):
        cmd += ['--event', e]
    for f in spec.get('fields', []):
        cmd += ['--field', f]
    return cmd


def record(name, spec):
    """X_ITE's recording of scene `name`, as the parsed JSON."""
    r = subprocess.run(command(name, spec), capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError('%s: %s' % (name, r.stderr.strip()))
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=DATA)
    ap.add_argument('scenes', nargs='*')
    a = ap.parse_args()
    with open(os.path.join(DATA, 'scenes.json')) as f:
        manifest = json.load(f)
    for name in a.scenes or sorted(manifest):
        data = record(name, manifest[name])
        path = os.path.join(a.out, os.path.splitext(name)[0] + '.xite.json')
        with open(path, 'w') as f:
            json.dump(data, f, separators=(',', ':'))
            f.write('\n')
        print('%s: %d frames of %s' % (path, len(data['frames']), ', '.join(data['fields'])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
