#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks kfc's M3G importer on a directory of real .m3g files (not part of
`scons test`: the files are not the project's to ship).

    tests/m3g_assets.py DIR... [--kfc PATH] [--kfplay PATH] [--tolerance X]

For every .m3g file under DIR it reads the file with the independent
reference (tests/gen/m3g_reference.py), compiles it with kfc, and plays it
with `kfplay animate W` at world times around every key of every sequence
through every controller that plays it, comparing each target with what
M3G's animate() gives at W x 1000 ms. It then decompiles the .kfb, compiles
the YAML again and checks the result is the same file. A file both refuse
is reported with kfc's message, not as a failure; a file only one of them
refuses is a failure. It prints one line per file with the largest error
(relative to max(1, |value|)) and exits non-zero if any file fails."""
import argparse
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


def check_file(path, a, work):
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
    checks = Checks(path)
    times = test_m3g_import.world_times(model)
    if len(times) > MAX_TIMES:
        times = sorted(random.Random(1).sample(times, MAX_TIMES))
    worst = test_m3g_import.compare(checks, os.path.basename(path), a.kfplay, kfb, model, times) \
        if model.bindings() else 0.0
    yml, again = kfb + '.yaml', kfb + '.again.kfb'
    r1 = subprocess.run([a.kfc, '--decompile', kfb, '-o', yml], capture_output=True)
    r2 = subprocess.run([a.kfc, yml, '-o', again], capture_output=True)
    checks.check(r1.returncode == 0 and r2.returncode == 0 and
                 open(kfb, 'rb').read() == open(again, 'rb').read(), 'decompile -> compile differs')
    ok = not checks.failures and worst <= a.tolerance
    return ('%d targets, %d world times, worst error %.3g%s' %
            (len(model.targets()), len(times), worst,
             '' if ok else ', %d checks failed' % len(checks.failures))), ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('dirs', nargs='+')
    ap.add_argument('--kfc', default=os.path.join(HERE, '..', 'build', 'release', 'compiler', 'kfc'))
    ap.add_argument('--kfplay', default=os.path.join(HERE, '..', 'build', 'release', 'tools', 'kfplay'))
    ap.add_argument('--tolerance', type=float, default=test_m3g_import.TOLERANCE)
    a = ap.parse_args()
    test_m3g_import.TOLERANCE = a.tolerance
    paths = []
    for d in a.dirs:
        for root, _, names in os.walk(d):
            paths += [os.path.join(root, n) for n in names if n.lower().endswith('.m3g')]
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(paths):
            line, ok = check_file(path, a, work)
            print('%s %s: %s' % ('ok  ' if ok else 'FAIL', path, line))
            failed += not ok
    print('%d files, %d failed' % (len(paths), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
