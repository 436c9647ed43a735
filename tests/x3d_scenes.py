# SPDX-License-Identifier: MIT
"""Checks kfc's X3D importer on any scenes you have against X_ITE: for each
.x3d, .x3dv or .wrl file (gzipped too) under the paths given, kfc compiles
it, X_ITE plays it (tests/x3d/xite_sample.cjs, loaded at X3D time --load,
later than the times a scene states), and the fields X_ITE animates are
compared frame by frame with what kfplay plays (tests/test_x3d_import.py's
comparison: sensors the scene starts by events and followers' events are
not sent, so those fields must stay as the scene set them). Prints each
scene's verdict and largest error. Not part of `scons test`; run after
`scons`:

    NODE_PATH=... python3 tests/x3d_scenes.py DIR_OR_FILE...

Fields X_ITE animates through what kfc does not import (Scripts, PROTO
instances, Inline) are listed as "not imported", not as failures."""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'x3d'))
import driver  # noqa: E402
import gen_references  # noqa: E402
import test_x3d_import  # noqa: E402
import test_x3d_xite  # noqa: E402

EXTENSIONS = ('.x3d', '.x3dv', '.wrl', '.x3dz', '.x3dvz', '.wrz', '.x3d.gz', '.x3dv.gz', '.wrl.gz')


def scenes(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
        for root, _, files in os.walk(p):
            for f in sorted(files):
                if f.lower().endswith(EXTENSIONS):
                    yield os.path.join(root, f)


def main():
    ap = argparse.ArgumentParser()
    build = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'release')
    ap.add_argument('--kfc', default=os.path.join(build, 'compiler', 'kfc'))
    ap.add_argument('--kfplay', default=os.path.join(build, 'tools', 'kfplay'))
    ap.add_argument('--work', default='/tmp/x3d_scenes')
    ap.add_argument('--load', type=float, default=1000.0)
    ap.add_argument('--step', type=float, default=0.125)
    ap.add_argument('--until', type=float, default=6.0)
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('paths', nargs='+')
    a = ap.parse_args()
    a.kfc, a.kfplay = os.path.abspath(a.kfc), os.path.abspath(a.kfplay)
    os.makedirs(a.work, exist_ok=True)
    path = test_x3d_xite.node_path()
    if not path:
        print('x3d_scenes: node cannot find x_ite, jsdom, jsdom-global and nogl (NODE_PATH)')
        return 2
    os.environ['NODE_PATH'] = path
    spec = {'load': a.load, 'step': a.step, 'until': a.until}
    overall = {'interpolators': (0.0, ''), 'followers': (0.0, '')}
    counts = {'compared': 0, 'failed': 0, 'kfc error': 0, 'X_ITE error': 0, 'nothing animated': 0}
    for src in scenes(a.paths):
        r = subprocess.run([a.kfc, src, '-o', os.path.join(a.work, 'scene.kfb')],
                           capture_output=True, text=True)
        if r.returncode != 0:
            counts['kfc error'] += 1
            print('%s: kfc: %s' % (src, r.stderr.strip()))
            continue
        try:
            ref = gen_references.record(os.path.abspath(src), spec)
        except Exception as e:  # noqa: BLE001 - any X_ITE failure is reported
            counts['X_ITE error'] += 1
            lines = [l for l in str(e).splitlines() if 'Error' in l] or str(e).splitlines() or ['?']
            print('%s: X_ITE: %s' % (src, lines[0].strip()[:160]))
            continue
        if not ref['fields']:
            counts['nothing animated'] += 1
            if a.verbose:
                print('%s: nothing animated' % src)
            continue
        checks = driver.Checks()
        worst = {'interpolators': (0.0, ''), 'followers': (0.0, '')}
        saved = sys.stderr
        sys.stderr = open(os.devnull, 'w') if not a.verbose else saved
        try:
            test_x3d_import.compare(a, checks, src, os.path.basename(src), spec, ref, worst)
        except Exception as e:  # noqa: BLE001 - a scene the comparison cannot read
            checks.fail('the comparison failed: %r' % e)
        finally:
            if sys.stderr is not saved:
                sys.stderr.close()
            sys.stderr = saved
        counts['compared'] += 1
        for k in worst:
            if worst[k][0] > overall[k][0]:
                overall[k] = worst[k]
        verdict = 'ok' if not checks.failures else '%d failed' % len(checks.failures)
        counts['failed'] += bool(checks.failures)
        print('%s: %d fields, %s; worst %.3g %s' % (src, len(ref['fields']), verdict,
                                                   max(worst['interpolators'][0], worst['followers'][0]),
                                                   worst['interpolators'][1] or worst['followers'][1]))
        for f in checks.failures[:5]:
            print('    ' + f)
    print('x3d_scenes: %s; worst interpolated %.3g (%s), followers %.3g (%s)'
          % (', '.join('%d %s' % (v, k) for k, v in counts.items()), overall['interpolators'][0],
             overall['interpolators'][1], overall['followers'][0], overall['followers'][1]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
