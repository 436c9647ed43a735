#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Files of an earlier format version still load and play what they did.

tests/data/version2.0/ to version2.5/ hold files written by the writers
of those versions (lossless and error-bounded, every interpolation among
them), each beside the YAML that writer's kfc decompiled it to. Today's reader must decompile
each to the same YAML, to the byte (every key, tangent and parameter
printed as the shortest decimal of its float); compiling that YAML today
writes the current version, which decompiles to the same YAML again.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402
import kfb_layout  # noqa: E402

checks = driver.Checks()
check = checks.check
args = driver.arguments()
here = os.path.dirname(os.path.abspath(__file__))


def version(path):
    with open(path, 'rb') as f:
        return kfb_layout.version_of(f.read(kfb_layout.HEADER_SIZE))


def decompile(path):
    p = subprocess.run([args.kfc, '--decompile', path, '-o', '-'], capture_output=True)
    check(p.returncode == 0, '%s decompiles: %s' % (path, p.stderr.decode()))
    return p.stdout


for minor in (0, 1, 2, 3, 4, 5):
    data = os.path.join(here, 'data', 'version2.%d' % minor)
    files = sorted(f for f in os.listdir(data) if f.endswith('.kfb'))
    check(len(files) >= 6, 'version 2.%d files: %d' % (minor, len(files)))
    for name in files:
        old = os.path.join(data, name)
        with open(old[:-4] + '.yaml', 'rb') as f:
            expected = f.read()
        check(version(old) == (2, minor), '%s is a version 2.%d file: %r' %
              (old, minor, version(old)))
        check(decompile(old) == expected, '%s decompiles as the 2.%d reader did' % (old, minor))
        new = os.path.join(args.work, '2.%d_%s' % (minor, name))
        p = subprocess.run([args.kfc, old[:-4] + '.yaml', '-o', new], capture_output=True)
        check(p.returncode == 0, '%s recompiles: %s' % (old, p.stderr.decode()))
        if p.returncode == 0:
            check(version(new)[0] == 2 and version(new)[1] > minor, '%s now written as %r' %
                  (old, version(new)))
            check(decompile(new) == expected, '%s: the current version plays the same' % old)

print('test_read_versions: %d checks, %d failed' % (checks.count, len(checks.failures)))
sys.exit(1 if checks.failures else 0)
