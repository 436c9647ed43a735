#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The SCons tool (site_scons/site_tools/kfb.py) as a game project uses it:
env.Kfb compiles every fixture and a glTF model with an external buffer in
parallel (scons -j2) into a CacheDir; the files are the bytes kfc writes by
itself; KfbDecompile gives the canonical YAML; the build is then up to date;
editing the buffer (a file kfc reads but the project never names) rebuilds
the model and nothing else; a clean rebuild retrieves every file from the
cache, and a cache never hands out a model built from other buffer bytes,
not even to a fresh checkout's first build; a different kfc rebuilds every
output (the compiler is an implicit dependency); a buffer whose name SCons
would read as "${...}" is a dependency by its own name, and no code."""
import glob
import json
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gen'))
import driver  # noqa: E402
import gen_gltf_fixtures  # noqa: E402

TOOLDIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'site_scons', 'site_tools')

SCONSTRUCT = '''
import os
env = Environment(tools=['default', 'kfb'], toolpath=[%(tooldir)r], KFC=%(kfc)r,
                  KFCCOMSTR='KFC $TARGET', KFCDECOMPILECOMSTR='DECOMPILE $TARGET',
                  KFCFLAGS=['-w'])  # some fixtures warn on purpose: keep the log to the builds
CacheDir(%(cache)r)
for src in %(sources)r + ['model.gltf']:
    name = os.path.splitext(os.path.basename(src))[0]
    kfb = env.Kfb('out/' + name + '.kfb', src)
    env.KfbDecompile('out/' + name + '.yaml', kfb)
'''


def scons(work, *args):
    return subprocess.run(['scons', '-Q', '-j2'] + list(args), cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def lines(result, start):
    return [l for l in result.stdout.splitlines() if l.startswith(start)]


def write_project(work, kfc, cache, sources):
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, 'SConstruct'), 'w') as f:
        f.write(SCONSTRUCT % dict(tooldir=os.path.abspath(TOOLDIR), kfc=kfc, cache=cache,
                                  sources=sources))
    # A glTF model whose data lies in "model data.bin", next to it.
    gen_gltf_fixtures.build(3).write(work, 'model', 'bin')


def set_buffer(work, value):
    """Rewrites the first key time's neighbour in the buffer: other bytes,
    the same document."""
    path = os.path.join(work, 'model data.bin')
    data = bytearray(open(path, 'rb').read())
    struct.pack_into('<f', data, len(data) - 4, value)
    with open(path, 'wb') as f:
        f.write(data)


# A buffer's name is the glTF file's to choose: this one is Python code to
# SCons, were the name substituted (it would make a folder P).
CODE_NAME = 'b${__import__(chr(111)+chr(115)).mkdir(chr(80))}.bin'
CODE_SCONSTRUCT = '''
env = Environment(tools=['default', 'kfb'], toolpath=[%(tooldir)r], KFC=%(kfc)r)
env.Kfb('out/dep.kfb', 'dep.gltf')
'''


def check_buffer_named_code(fail, args, kfc):
    work = os.path.join(args.work, 'code')
    os.makedirs(work)
    with open(os.path.join(work, 'SConstruct'), 'w') as f:
        f.write(CODE_SCONSTRUCT % dict(tooldir=os.path.abspath(TOOLDIR), kfc=kfc))
    path = os.path.join(work, gen_gltf_fixtures.build(3).write(work, 'dep', 'bin'))
    with open(path) as f:
        gltf = json.load(f)
    gltf['buffers'][0]['uri'] = CODE_NAME
    with open(path, 'w') as f:
        json.dump(gltf, f)
    os.rename(os.path.join(work, 'dep data.bin'), os.path.join(work, CODE_NAME))
    built = scons(work)
    fail.check(built.returncode == 0, 'a buffer named as code: builds:\n' + built.stdout)
    fail.check(scons(work, '-q').returncode == 0, 'a buffer named as code: then up to date')
    fail.check(not os.path.exists(os.path.join(work, 'P')),
               'a buffer named %r: SCons ran it as Python' % CODE_NAME)
    with open(os.path.join(work, CODE_NAME), 'ab') as f:
        f.write(b'\0')
    fail.check(scons(work, '-q').returncode == 1,
               'a buffer named %r: editing it makes the model out of date' % CODE_NAME)


def main():
    args = driver.arguments()
    fail = driver.Checks()
    work = os.path.join(args.work, 'project')
    kfc = os.path.join(args.work, 'bin', 'kfc')
    os.makedirs(os.path.dirname(kfc))
    shutil.copy2(args.kfc, kfc)
    cache = os.path.join(args.work, 'cache')
    sources = sorted(glob.glob(os.path.join(args.fixtures, '*.yaml')))
    write_project(work, kfc, cache, sources)
    outputs = sources + [os.path.join(work, 'model.gltf')]

    def same_as_kfc(src, tag):
        name = os.path.splitext(os.path.basename(src))[0]
        direct = os.path.join(args.work, name + '.direct.kfb')
        subprocess.check_call([kfc, '-w', src, '-o', direct])
        with open(direct, 'rb') as a, open(os.path.join(work, 'out', name + '.kfb'), 'rb') as b:
            fail.check(a.read() == b.read(), '%s: %s: the tool wrote other bytes than kfc'
                       % (tag, name))
        return direct

    first = scons(work)
    fail.check(first.returncode == 0, 'first build failed:\n' + first.stdout)
    built = lines(first, 'KFC ')
    fail.check(len(built) == len(outputs), 'first build compiled %d of %d sources'
               % (len(built), len(outputs)))
    for src in outputs:
        direct = same_as_kfc(src, 'first build')
        name = os.path.splitext(os.path.basename(src))[0]
        canonical = subprocess.check_output([kfc, '--decompile', direct, '-o', '-'])
        with open(os.path.join(work, 'out', name + '.yaml'), 'rb') as y:
            fail.check(y.read() == canonical, '%s: KfbDecompile differs from kfc --decompile'
                       % name)
    fail.check(scons(work, '-q').returncode == 0, 'up to date after the first build')

    # The buffer is a dependency: editing it rebuilds the model, only it.
    set_buffer(work, 1.5)
    fail.check(scons(work, '-q').returncode == 1, 'out of date once the buffer changed')
    edited = scons(work)
    fail.check(edited.returncode == 0 and lines(edited, 'KFC ') == ['KFC out/model.kfb'],
               'the buffer changed: the model alone is rebuilt: %r' % lines(edited, 'KFC '))
    same_as_kfc(os.path.join(work, 'model.gltf'), 'buffer edited')
    fail.check(scons(work, '-q').returncode == 0, 'up to date after the rebuild')

    # A clean rebuild comes from the cache: both buffer states are there.
    subprocess.check_call(['scons', '-Q', '-c'], cwd=work, stdout=subprocess.DEVNULL)
    second = scons(work)
    retrieved = lines(second, 'Retrieved')
    fail.check(second.returncode == 0 and not lines(second, 'KFC ') and
               len(retrieved) == 3 * len(outputs),
               'rebuild after clean: %d of %d files from the cache:\n%s'
               % (len(retrieved), 3 * len(outputs), second.stdout))
    same_as_kfc(os.path.join(work, 'model.gltf'), 'from the cache')

    # A fresh checkout (no dependency file, no record of a build) sharing the
    # cache, its buffer unlike any built: the model is compiled, not taken
    # from the cache, and the other outputs are.
    fresh = os.path.join(args.work, 'fresh')
    write_project(fresh, kfc, cache, sources)
    set_buffer(fresh, 2.75)
    third = scons(fresh)
    fail.check(third.returncode == 0 and lines(third, 'KFC ') == ['KFC out/model.kfb'],
               'a fresh checkout with other buffer bytes compiles the model: %r'
               % lines(third, 'KFC '))
    subprocess.check_call([kfc, '-w', os.path.join(fresh, 'model.gltf'), '-o',
                           os.path.join(args.work, 'fresh.kfb')])
    fail.check(open(os.path.join(args.work, 'fresh.kfb'), 'rb').read() ==
               open(os.path.join(fresh, 'out', 'model.kfb'), 'rb').read(),
               'a fresh checkout: the model of its own buffer')

    check_buffer_named_code(fail, args, kfc)

    # Another compiler (same code, other bytes): everything is rebuilt.
    with open(kfc, 'ab') as f:
        f.write(b'\0')
    fourth = scons(work, '--cache-disable')
    rebuilt = lines(fourth, 'KFC ')
    fail.check(len(rebuilt) == len(outputs), 'after changing kfc, %d of %d rebuilt'
               % (len(rebuilt), len(outputs)))
    print('test_scons_tool: %d sources, %d retrieved from the cache, %d rebuilt for a new kfc; '
          '%d checks, %d failed' % (len(outputs), len(retrieved), len(rebuilt), fail.count,
                                   len(fail.failures)))
    return 1 if fail.failures else 0


if __name__ == '__main__':
    sys.exit(main())
