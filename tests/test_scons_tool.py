#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The SCons tool (site_scons/site_tools/kfb.py) as a game project uses it:
env.Kfb compiles every fixture in parallel (scons -j2) into a CacheDir; a
clean rebuild retrieves every file from the cache; the files are the bytes
kfc writes by itself; KfbDecompile gives the canonical YAML; a different kfc
rebuilds every output (the compiler is an implicit dependency)."""
import glob
import os
import shutil
import subprocess
import sys

import driver

TOOLDIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'site_scons', 'site_tools')

SCONSTRUCT = '''
import os
env = Environment(tools=['default', 'kfb'], toolpath=[%(tooldir)r], KFC=%(kfc)r,
                  KFCCOMSTR='KFC $TARGET', KFCDECOMPILECOMSTR='DECOMPILE $TARGET',
                  KFCFLAGS=['-w'])  # some fixtures warn on purpose: keep the log to the builds
CacheDir(%(cache)r)
for src in %(sources)r:
    name = os.path.splitext(os.path.basename(src))[0]
    kfb = env.Kfb('out/' + name + '.kfb', src)
    env.KfbDecompile('out/' + name + '.yaml', kfb)
'''


def scons(work, *args):
    return subprocess.run(['scons', '-Q', '-j2'] + list(args), cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def main():
    args = driver.arguments()
    fail = driver.Checks()
    work = args.work
    kfc = os.path.join(work, 'bin', 'kfc')
    os.makedirs(os.path.dirname(kfc))
    shutil.copy2(args.kfc, kfc)
    sources = sorted(glob.glob(os.path.join(args.fixtures, '*.yaml')))
    with open(os.path.join(work, 'SConstruct'), 'w') as f:
        f.write(SCONSTRUCT % dict(tooldir=os.path.abspath(TOOLDIR), kfc=kfc,
                                  cache=os.path.join(work, 'cache'), sources=sources))

    first = scons(work)
    fail.check(first.returncode == 0, 'first build failed:\n' + first.stdout)
    built = [l for l in first.stdout.splitlines() if l.startswith('KFC ')]
    fail.check(len(built) == len(sources), 'first build compiled %d of %d sources'
               % (len(built), len(sources)))
    for src in sources:
        name = os.path.splitext(os.path.basename(src))[0]
        direct = os.path.join(work, name + '.direct.kfb')
        subprocess.check_call([kfc, src, '-o', direct])
        with open(direct, 'rb') as a, open(os.path.join(work, 'out', name + '.kfb'), 'rb') as b:
            fail.check(a.read() == b.read(), '%s: the tool wrote other bytes than kfc' % name)
        canonical = subprocess.check_output([kfc, '--decompile', direct, '-o', '-'])
        with open(os.path.join(work, 'out', name + '.yaml'), 'rb') as y:
            fail.check(y.read() == canonical, '%s: KfbDecompile differs from kfc --decompile'
                       % name)

    subprocess.check_call(['scons', '-Q', '-c'], cwd=work, stdout=subprocess.DEVNULL)
    second = scons(work)
    retrieved = [l for l in second.stdout.splitlines() if l.startswith('Retrieved')]
    fail.check(second.returncode == 0 and len(retrieved) == 2 * len(sources),
               'rebuild after clean: %d of %d files from the cache:\n%s'
               % (len(retrieved), 2 * len(sources), second.stdout))

    # Another compiler (same code, other bytes): everything is rebuilt.
    with open(kfc, 'ab') as f:
        f.write(b'\0')
    third = scons(work, '--cache-disable')
    rebuilt = [l for l in third.stdout.splitlines() if l.startswith('KFC ')]
    fail.check(len(rebuilt) == len(sources), 'after changing kfc, %d of %d rebuilt'
               % (len(rebuilt), len(sources)))
    print('test_scons_tool: %d sources, %d retrieved from the cache, %d rebuilt for a new kfc; '
          '%d checks, %d failed' % (len(sources), len(retrieved), len(rebuilt), fail.count,
                                   len(fail.failures)))
    return 1 if fail.failures else 0


if __name__ == '__main__':
    sys.exit(main())
