#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks kfc's M3G importer on a directory of real .m3g files (not part of
`scons test`: the files are not the project's to ship).

    tests/m3g_assets.py [DIR...] [--kfc PATH] [--kfplay PATH] [--tolerance X]
                        [--max-times N]

With no DIR it checks the folders KFB_M3G_ASSETS names (separated by
':'), and skips (exit 77) when that is unset: `scons test` runs it so.

For every .m3g file under DIR it reads the file with the independent
reference (tests/gen/m3g_reference.py), compiles it with kfc, and plays it
with `kfplay animate W` at world times around every key of every sequence
through every controller that plays it, comparing each target with what
M3G's animate() gives at W x 1000 ms. It then decompiles the .kfb, compiles
the YAML again and checks the result is the same file. A file both refuse
is reported with kfc's message, not as a failure; a file only one of them
refuses is a failure. It prints one line per file with the largest error
(relative to max(1, |value|)), then what the files hold (sequences by
interpolation, tracks by property, the exporters named in the header's
AuthoringField), and exits non-zero if any file fails."""
import argparse
import collections
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'gen'))
import m3g_reference  # noqa: E402
import test_m3g_import  # noqa: E402

MAX_TIMES = 600  # world times played per file (a sample of them past this)


class Checks:
    def __init__(self, name):
        self.name, self.count, self.failures = name, 0, []

    def check(self, cond, what):
        self.count += 1
        if not cond:
            self.fail(what)
        return cond

    def fail(self, what):
        self.failures.append(what)
        if len(self.failures) <= 5:
            print('  FAIL: ' + what)


INTERPOLATIONS = {176: 'LINEAR', 177: 'SLERP', 178: 'SPLINE', 179: 'SQUAD', 180: 'STEP'}


def check_file(path, a, work, stats):
    with open(path, 'rb') as f:
        data = f.read()
    kfb = os.path.join(work, 'out.kfb')
    if os.path.exists(kfb):
        os.remove(kfb)
    r = subprocess.run([a.kfc, path, '-o', kfb], capture_output=True, text=True)
    try:
        model = m3g_reference.read(data)
    except m3g_reference.Error as e:
        if r.returncode != 0:
            return 'refused by both (%s): %s' % (e, r.stderr.strip().split('error: ', 1)[-1]), True
        return 'the reference refuses it (%s), kfc does not' % e, False
    if r.returncode != 0:
        return 'kfc refuses it: %s' % r.stderr.strip(), False
    stats['compiled'] += 1
    stats['exporter'][model.authoring.split('\n')[0][:60] or '(empty)'] += 1
    if model.sequences:
        stats['animated'] += 1
    for s in model.sequences.values():
        stats['interpolation'][INTERPOLATIONS[s.interpolation]] += 1
    for _, prop, _, _ in model.bindings():
        stats['property'][prop] += 1
    checks = Checks(path)
    times = test_m3g_import.world_times(model)
    if len(times) > a.max_times:
        times = sorted(random.Random(1).sample(times, a.max_times))
    worst = test_m3g_import.compare(checks, os.path.basename(path), a.kfplay, kfb, model, times) \
        if model.bindings() else 0.0
    yml, again = kfb + '.yaml', kfb + '.again.kfb'
    r1 = subprocess.run([a.kfc, '--decompile', kfb, '-o', yml], capture_output=True)
    r2 = subprocess.run([a.kfc, yml, '-o', again], capture_output=True)
    checks.check(r1.returncode == 0 and r2.returncode == 0 and
                 open(kfb, 'rb').read() == open(again, 'rb').read(), 'decompile -> compile differs')
    ok = not checks.failures and worst <= a.tolerance
    stats['worst'] = max(stats['worst'], (worst, path))
    return ('%d targets, %d world times, worst error %.3g%s' %
            (len(model.targets()), len(times), worst,
             '' if ok else ', %d checks failed' % len(checks.failures))), ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('dirs', nargs='*')
    ap.add_argument('--kfc', default=os.path.join(HERE, '..', 'build', 'release', 'compiler', 'kfc'))
    ap.add_argument('--kfplay', default=os.path.join(HERE, '..', 'build', 'release', 'tools', 'kfplay'))
    ap.add_argument('--tolerance', type=float, default=test_m3g_import.TOLERANCE)
    ap.add_argument('--max-times', type=int, default=MAX_TIMES,
                    help='world times played per file (a sample of them past this)')
    a = ap.parse_args()
    if not a.dirs:
        if not os.environ.get('KFB_M3G_ASSETS'):
            print('m3g_assets: SKIPPED: set KFB_M3G_ASSETS to a folder of .m3g files')
            return 77
        a.dirs = os.environ['KFB_M3G_ASSETS'].split(':')
    test_m3g_import.TOLERANCE = a.tolerance
    paths = []
    for d in a.dirs:
        for root, _, names in os.walk(d):
            paths += [os.path.join(root, n) for n in names if n.lower().endswith('.m3g')]
    failed = 0
    stats = {'compiled': 0, 'animated': 0, 'worst': (0.0, ''), 'interpolation': collections.Counter(),
             'property': collections.Counter(), 'exporter': collections.Counter()}
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(paths):
            line, ok = check_file(path, a, work, stats)
            print('%s %s: %s' % ('ok  ' if ok else 'FAIL', path, line))
            failed += not ok
    print('exporters (AuthoringField): %s' % dict(stats['exporter'].most_common()))
    print('sequences by interpolation: %s; tracks by property: %s'
          % (dict(stats['interpolation'].most_common()), dict(stats['property'].most_common())))
    print('%d files: %d compiled, %d animated; worst error %.3g (%s); %d failed'
          % (len(paths), stats['compiled'], stats['animated'], stats['worst'][0], stats['worst'][1], failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
