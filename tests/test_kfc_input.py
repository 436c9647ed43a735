# SPDX-License-Identifier: MIT
"""kfc's main input (compiler/kfc_input.c, docs/limits.md):

- an input larger than the limit (256 MiB) is refused whole, with the same
  message and status whatever its format (YAML, glTF, X3D, M3G), never
  compiled from its first 256 MiB; a regular file from its size, before it
  is read (sparse files here, so no disk is spent), standard input once
  256 MiB + 1 bytes have come."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

LIMIT = 256 << 20
TOO_LARGE = 'error: input is larger than 256 MiB'


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kw)


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


def main():
    a = driver.arguments()
    c = driver.Checks()
    oversized(c, a, a.work)
    print('test_kfc_input: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
