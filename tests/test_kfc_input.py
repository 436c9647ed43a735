# SPDX-License-Identifier: MIT
"""kfc's main input (compiler/kfc_input.c, docs/limits.md):

- an input larger than the limit (256 MiB) is refused whole, with the same
  message and status whatever its format (YAML, glTF, X3D, M3G), never
  compiled from its first 256 MiB; a regular file from its size, before it
  is read (sparse files here, so no disk is spent), standard input once
  256 MiB + 1 bytes have come;
- a named input is a regular file: a FIFO without a writer is refused at
  once (it hung in open), a device (/dev/zero, also through a link named
  zero.gltf: read up to 256 MiB before), a folder and a file of /proc are
  refused, compiling and decompiling alike; standard input as '-' is read
  as it is, a pipe included, and /dev/stdin redirected from a file works."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

LIMIT = 256 << 20
TOO_LARGE = 'error: input is larger than 256 MiB'


def run(cmd, **kw):
    kw.setdefault('timeout', 60)
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def oversized(c, a, work):
    heads = {
        'big.yaml': b'kfb: 1\n',
        'big.gltf': b'{"asset":{"version":"2.0"}}',
        'big.glb': b'glTF\x02\x00\x00\x00',
        'big.x3dv': b'#X3D V3.3 utf8\nGroup {}\n',
        'big.x3d': b'<?xml version="1.0"?><X3D><Scene/></X3D>',
        'big.m3g': b'\xabJSR184\xbb\r\n\x1a\n',
    }
    for name, head in sorted(heads.items()):
        for size in (LIMIT + 1, LIMIT + (5 << 20)):
            path = os.path.join(work, name)
            with open(path, 'wb') as f:
                f.write(head)
                f.truncate(size)
            out = path + '.kfb'
            r = run([a.kfc, path, '-o', out])
            c.check(r.returncode == 1 and r.stderr.startswith(path + ': ' + TOO_LARGE) and
                    not os.path.exists(out),
                    '%s of %d bytes: want "%s", got %d %r' % (name, size, TOO_LARGE, r.returncode, r.stderr))
            os.remove(path)
    # Standard input: read up to the limit and one byte more, then refused.
    out = os.path.join(work, 'stdin.kfb')
    r = run(['sh', '-c', 'head -c %d /dev/zero | tr "\\0" " " | "$0" - -o "$1"' % (LIMIT + 1), a.kfc, out])
    c.check(r.returncode == 1 and TOO_LARGE in r.stderr and not os.path.exists(out),
            'standard input of 256 MiB + 1: %d %r' % (r.returncode, r.stderr))


def refused(c, a, name, path, want):
    for decompile in ([], ['-d']):
        out = path + '.out'
        try:
            r = run([a.kfc] + decompile + [path, '-o', out], stdin=subprocess.DEVNULL, timeout=10)
        except subprocess.TimeoutExpired:
            c.fail('%s %s: still running after 10 s' % (' '.join(decompile), name))
            continue
        c.check(r.returncode == 3 and ('error: cannot read ' + want) in r.stderr and
                'kfc reads a named input only from a regular file' in r.stderr and not os.path.exists(out),
                '%s %s: want "%s" refused, got %d %r' % (' '.join(decompile), name, want, r.returncode, r.stderr))


def kinds(c, a, work):
    fifo = os.path.join(work, 'in.fifo')
    os.mkfifo(fifo)
    os.symlink('in.fifo', os.path.join(work, 'fifo.gltf'))
    os.symlink('/dev/zero', os.path.join(work, 'zero.gltf'))
    os.mkdir(os.path.join(work, 'folder.yaml'))
    cases = [('a FIFO', fifo, 'a FIFO'),
             ('a link to a FIFO', os.path.join(work, 'fifo.gltf'), 'a FIFO'),
             ('/dev/zero', '/dev/zero', 'a device'),
             ('a link to /dev/zero', os.path.join(work, 'zero.gltf'), 'a device'),
             ('a folder', os.path.join(work, 'folder.yaml'), 'a folder')]
    if sys.platform.startswith('linux') and os.path.exists('/proc/self/status'):
        cases.append(('a /proc file', '/proc/self/status', 'a file of /proc or /sys'))
    for name, path, want in cases:
        refused(c, a, name, path, want)

    # Standard input as '-': a pipe, compiled and decompiled.
    leg = os.path.join(a.fixtures, 'leg_walk.yaml')
    named = os.path.join(work, 'named.kfb')
    r = run([a.kfc, leg, '-o', named])
    c.check(r.returncode == 0, 'leg_walk.yaml: %r' % r.stderr)
    piped = os.path.join(work, 'piped.kfb')
    r = run(['sh', '-c', 'cat "$1" | "$0" - -o "$2"', a.kfc, leg, piped])
    c.check(r.returncode == 0 and open(piped, 'rb').read() == open(named, 'rb').read(),
            "'-' from a pipe: %d %r" % (r.returncode, r.stderr))
    r = run(['sh', '-c', 'cat "$1" | "$0" -d - -o -', a.kfc, named])
    c.check(r.returncode == 0 and 'kfb:' in r.stdout, "-d '-' from a pipe: %d %r" % (r.returncode, r.stderr))
    # /dev/stdin names the file standard input is redirected from.
    if os.path.exists('/dev/stdin'):
        redirected = os.path.join(work, 'redirected.kfb')
        with open(leg, 'rb') as f:
            r = run([a.kfc, '/dev/stdin', '-o', redirected], stdin=f)
        c.check(r.returncode == 0 and open(redirected, 'rb').read() == open(named, 'rb').read(),
                '/dev/stdin from a file: %d %r' % (r.returncode, r.stderr))


def main():
    a = driver.arguments()
    c = driver.Checks()
    kinds(c, a, a.work)
    oversized(c, a, a.work)
    print('test_kfc_input: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
