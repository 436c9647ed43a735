#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfc's shell habits: -v reports what was compiled (checked against the
file itself), -q silences it; --color and NO_COLOR decide the colour of
diagnostics (on a terminal and off); -MD -MF -MT write a dependency file
that make (and ninja, when installed) read, and that rebuilds exactly when
the source changes."""
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

ESC = '\x1b['


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, cwd=cwd)


def on_terminal(cmd, env):
    """Runs cmd with stderr on a pseudo-terminal; returns what it wrote there."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait()
    os.close(master)
    return b''.join(chunks).decode()


def main():
    args = driver.arguments()
    driver.require('test_kfc_cli', 'make', 'make')
    c = driver.Checks()
    kfc, work = args.kfc, args.work
    leg = os.path.join(args.fixtures, 'leg_walk.yaml')
    out = os.path.join(work, 'leg.kfb')

    # -v: the numbers are the file's.
    r = run([kfc, '-v', leg, '-o', out])
    data = open(out, 'rb').read()
    c.check(r.returncode == 0 and not r.stdout, '-v: success, nothing on stdout')
    report = r.stderr
    c.check(re.search(r'^kfc: .*leg_walk\.yaml -> .*leg\.kfb in [0-9.]+ ms$', report, re.M),
            '-v: what and how long: %r' % report[:80])
    c.check('objects: sequence 4, interpolator 0, follower 0, controller 1, target 4, track 4; '
            '20 keys' in report, '-v: objects per kind and keys')
    pos, parts, raw = 32, [], 0
    for _ in range(3):
        tag, _, stored, size = struct.unpack_from('<4sIII', data, pos)
        parts.append('%s %d/%d' % (tag.decode(), stored, size))
        raw += size
        pos += 20 + stored
    c.check('sections (stored/raw bytes): ' + ', '.join(parts) in report,
            '-v: bytes per section %s' % parts)
    c.check('file: %d bytes; sections raw: %d bytes; ratio %.3f' % (len(data), raw,
                                                                     len(data) / raw) in report,
            '-v: file size and ratio')
    r = run([kfc, '-v', '--decompile', out, '-o', os.path.join(work, 'back.yaml')])
    c.check(r.returncode == 0 and '-> ' in r.stderr, '-v --decompile reports')
    for q in (['-q'], ['-v', '-q'], []):
        r = run([kfc] + q + [leg, '-o', out])
        c.check(r.returncode == 0 and not r.stderr and not r.stdout, '%s: silent' % q)
    bad = os.path.join(args.fixtures, 'invalid', sorted(os.listdir(
        os.path.join(args.fixtures, 'invalid')))[0])
    r = run([kfc, '-q', bad, '-o', out])
    c.check(r.returncode == 1 and 'error:' in r.stderr, '-q still reports errors')

    # Colour.
    env = dict(os.environ)
    env.pop('NO_COLOR', None)
    plain = run([kfc, bad, '-o', os.path.join(work, 'x.kfb')], env=env).stderr
    c.check(ESC not in plain and ': error: ' in plain, 'auto: no colour into a pipe')
    coloured = run([kfc, '--color=always', bad, '-o', 'x.kfb'], env=env).stderr
    c.check(re.sub(r'\x1b\[[0-9;]*m', '', coloured) == plain and ESC + '1;31merror:' in coloured,
            '--color=always: the same text with red "error:"')
    c.check(ESC not in run([kfc, '--color=never', bad], env=env).stderr, '--color=never')
    tty = on_terminal([kfc, bad, '-o', os.path.join(work, 'x.kfb')], env)
    c.check(ESC + '1;31merror:' in tty, 'auto on a terminal: colour (%r)' % tty[:60])
    c.check(ESC not in on_terminal([kfc, '--color=never', bad], env), 'never on a terminal')
    nc = dict(env, NO_COLOR='1')
    c.check(ESC not in on_terminal([kfc, bad], nc), 'NO_COLOR on a terminal: no colour')
    c.check(ESC in on_terminal([kfc, '--color=always', bad], nc), 'always beats NO_COLOR')
    c.check(ESC in on_terminal([kfc, bad], dict(env, NO_COLOR='')),
            'an empty NO_COLOR does not count (no-color.org)')
    r = run([kfc, '--color=sometimes', leg])
    c.check(r.returncode == 2, '--color=sometimes: usage error')

    # Dependency files.
    proj = os.path.join(work, 'make project')
    os.makedirs(proj)
    shutil.copy(leg, os.path.join(proj, 'walk $1 #.yaml'))
    r = run([kfc, '-MD', 'walk $1 #.yaml', '-o', 'walk.kfb'], cwd=proj)
    dep = open(os.path.join(proj, 'walk.kfb.d')).read()
    c.check(r.returncode == 0 and dep == 'walk.kfb: walk\\ $$1\\ \\#.yaml\n',
            '-MD: default name and target, make escapes: %r' % dep)
    r = run([kfc, '-MD', '-MF', 'x.d', '-MT', 'all files', 'walk $1 #.yaml', '-o', 'w.kfb'],
            cwd=proj)
    c.check(open(os.path.join(proj, 'x.d')).read() == 'all\\ files: walk\\ $$1\\ \\#.yaml\n',
            '-MF names the file, -MT the target')
    r = run([kfc, '-MD', bad, '-o', os.path.join(proj, 'bad.kfb')], cwd=proj)
    c.check(r.returncode == 1 and not os.path.exists(os.path.join(proj, 'bad.kfb.d')),
            'a failed compile writes no dependency file')
    for argv in (['-MF', 'a.d', leg], ['-MD', leg, '-o', '-']):
        c.check(run([kfc] + argv, cwd=proj).returncode == 2, '%s: usage error' % argv)
    r = run([kfc, '-MD', '-MF', 'dec.d', '--decompile', 'walk.kfb', '-o', 'dec.yaml'], cwd=proj)
    c.check(open(os.path.join(proj, 'dec.d')).read() == 'dec.yaml: walk.kfb\n',
            '--decompile -MD: the .kfb is the dependency')

    # make: the rule names no prerequisite; only the dependency file does.
    with open(os.path.join(proj, 'Makefile'), 'w') as f:
        f.write('walk.kfb:\n\t"$(KFC)" -MD \'walk $$1 #.yaml\' -o $@\n-include walk.kfb.d\n')
    os.remove(os.path.join(proj, 'walk.kfb'))
    make = ['make', '-s', 'KFC=' + kfc]

    def stamp(path, t):
        os.utime(os.path.join(proj, path), (t, t))

    now = time.time()
    r = run(make, cwd=proj)
    c.check(r.returncode == 0 and os.path.exists(os.path.join(proj, 'walk.kfb')),
            'make: builds (%s)' % r.stderr.strip())
    stamp('walk $1 #.yaml', now - 100)
    stamp('walk.kfb', now - 50)
    c.check(run(make + ['-q'], cwd=proj).returncode == 0, 'make: up to date after a build')
    stamp('walk $1 #.yaml', now - 10)
    c.check(run(make + ['-q'], cwd=proj).returncode == 1, 'make: out of date once the source changes')
    run(make, cwd=proj)
    c.check(os.path.getmtime(os.path.join(proj, 'walk.kfb')) > now - 10 and
            run(make + ['-q'], cwd=proj).returncode == 0, 'make: rebuilt, then up to date')

    ninja = shutil.which('ninja')
    if ninja:
        nproj = os.path.join(work, 'ninja')
        os.makedirs(nproj)
        shutil.copy(leg, os.path.join(nproj, 'walk.yaml'))
        with open(os.path.join(nproj, 'build.ninja'), 'w') as f:
            f.write('rule kfc\n  command = %s -MD -MF $out.d $in -o $out\n'
                    '  depfile = $out.d\n  deps = gcc\n'
                    'build walk.kfb: kfc walk.yaml\n' % kfc)
        run([ninja], cwd=nproj)
        c.check('no work to do' in run([ninja, '-n'], cwd=nproj).stdout, 'ninja: up to date')
        deps = run([ninja, '-t', 'deps'], cwd=nproj).stdout
        c.check('walk.yaml' in deps, 'ninja read the dependency file: %r' % deps)
    print('test_kfc_cli: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
