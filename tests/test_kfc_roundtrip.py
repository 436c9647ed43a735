# SPDX-License-Identifier: MIT
"""kfc compile / decompile round trips over every fixtures/*.yaml.

For each source: compiling twice gives the same bytes; the decompiled YAML
compiles back to the same bytes and decompiles to itself, as does a file
with compressed sections; '-' reads standard
input and writes standard output with the same results; without -o the
output is the input's name with .kfb (or .yaml) for its extension.
"""
import glob
import os
import shutil
import subprocess
import sys

import driver

checks = driver.Checks()
fail = checks.fail


def run(args, stdin=None):
    r = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    if r.returncode != 0:
        fail('%s: exit status %d: %s'
             % (' '.join(args), r.returncode, r.stderr.decode('utf-8', 'replace').strip()))
    return r


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def check(kfc, src, work):
    stem = os.path.splitext(os.path.basename(src))[0]
    a = os.path.join(work, stem + '.a.kfb')
    a2 = os.path.join(work, stem + '.a2.kfb')
    y = os.path.join(work, stem + '.y.yaml')
    b = os.path.join(work, stem + '.b.kfb')
    y2 = os.path.join(work, stem + '.y2.yaml')

    if run([kfc, src, '-o', a]).returncode or run([kfc, src, '-o', a2]).returncode:
        return
    if read(a) != read(a2):
        fail('%s: two compiles differ' % src)
    if run([kfc, '--decompile', a, '-o', y]).returncode:
        return
    if run([kfc, y, '-o', b]).returncode:
        return
    if read(a) != read(b):
        fail('%s: compile -> decompile -> compile is not byte-identical (%s vs %s)'
             % (src, a, b))
    if run([kfc, '--decompile', b, '-o', y2]).returncode == 0 and read(y) != read(y2):
        fail('%s: decompiling the recompiled file gives different YAML' % src)
    # Names a YAML reader that resolves types would take for something else
    # are quoted (fixtures/names.yaml).
    if stem == 'names':
        for name in (b"'1'", b"'null'", b"'~'", b"'yes'", b"'<<'", b"'='"):
            if b'\n  %s:' % name not in read(y):
                fail('%s: the name %s is not written quoted' % (src, name.decode()))

    # Compressed sections, and the zero runs left out, hold the same
    # animation; a runs file decompiles to a source that compiles to it.
    for level in ('9', 'runs'):
        z = os.path.join(work, stem + '.z%s.kfb' % level)
        yz = os.path.join(work, stem + '.z%s.yaml' % level)
        zz = os.path.join(work, stem + '.z%s.again.kfb' % level)
        if run([kfc, '-z', level, src, '-o', z]).returncode == 0 \
                and run([kfc, '--decompile', z, '-o', yz]).returncode == 0 and read(yz) != read(y):
            fail('%s: the -z %s file decompiles differently' % (src, level))
        if run([kfc, '-z', level, yz, '-o', zz]).returncode == 0 and read(zz) != read(z):
            fail('%s: -z %s: compile -> decompile -> compile is not byte-identical' % (src, level))

    # Standard input and output.
    r = run([kfc, '-', '-o', '-'], read(src))
    if r.returncode == 0 and r.stdout != read(a):
        fail('%s: stdin -> stdout compile differs from the file compile' % src)
    r = run([kfc, '-'], read(src))
    if r.returncode == 0 and r.stdout != read(a):
        fail('%s: stdin without -o does not write the .kfb to stdout' % src)
    r = run([kfc, '--decompile', '-', '-o', '-'], read(a))
    if r.returncode == 0 and r.stdout != read(y):
        fail('%s: stdin -> stdout decompile differs from the file decompile' % src)

    # Default output names.
    copy = os.path.join(work, stem + '.copy.yaml')
    shutil.copyfile(src, copy)
    if run([kfc, copy]).returncode == 0:
        derived = os.path.join(work, stem + '.copy.kfb')
        if not os.path.exists(derived) or read(derived) != read(a):
            fail('%s: without -o, expected %s' % (src, derived))
        else:
            os.remove(copy)
            if run([kfc, '--decompile', derived]).returncode == 0 and read(copy) != read(y):
                fail('%s: --decompile without -o, expected %s' % (src, copy))


def main():
    a = driver.arguments()
    kfc = os.path.abspath(a.kfc)

    sources = sorted(glob.glob(os.path.join(a.fixtures, '*.yaml')))
    if not sources:
        fail('no fixtures in %s' % a.fixtures)
    for src in sources:
        check(kfc, src, a.work)
    if checks.failures:
        print('test_kfc_roundtrip: %d failure(s)' % len(checks.failures), file=sys.stderr)
        return 1
    print('test_kfc_roundtrip: %d sources ok' % len(sources))
    return 0


if __name__ == '__main__':
    sys.exit(main())
