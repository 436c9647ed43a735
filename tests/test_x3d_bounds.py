# SPDX-License-Identifier: MIT
"""The X3D importer's memory stays in proportion to its input
(docs/limits.md, compiler/kfc_x3d_scene.h, compiler/kfc_x3d_gzip.h):

- what it allocates is charged against 64 MiB plus 32 bytes per byte of
  scene text, and a scene that needs more is refused at file:line:col: an
  OrientationInterpolator of a million keys "0" and one value, which took
  137 MB for its 2 MB, is refused at the node, in a few megabytes;
- nodes nothing can reach (no DEF) are read and dropped: two million
  <Group/> take about their text, where each took 100 bytes;
- a gzipped scene inflates to at most 32 times its size plus 1 MiB: 40 MB
  of Group{} in a 40 KB file, which took 560 MB, is refused while it is
  inflated.
Every run's peak memory (kfc's own) is checked against the text plus the
budget: 33 T + 64 MiB, T the text's bytes."""
import gzip
import itertools
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

BASE = 64 << 20
PER_BYTE = 32
RATIO = 32
FLOOR = 1 << 20
HEADER = b'#X3D V3.3 utf8\n'
BUDGET = ('error: the scene needs more memory than kfc gives a scene of its size '
          '(64 MiB and 32 bytes per byte of text)')


def peak_kb(cmd):
    """Runs `cmd`; returns its exit status, its stderr and its peak
    resident memory in KB (its own, not its siblings'; Linux counts a
    child's from the fork, so this script never holds a file whole)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    return os.waitstatus_to_exitcode(status), err, usage.ru_maxrss


def bound_kb(text_bytes, file_bytes):
    """The text (and the file it was inflated from) plus the budget."""
    extra = file_bytes if file_bytes != text_bytes else 0
    return ((PER_BYTE + 1) * text_bytes + extra + BASE) >> 10


def write(path, pieces, compress=False):
    """Writes the byte strings `pieces` yields; returns the text's size."""
    size = 0
    with (gzip.open(path, 'wb', 9) if compress else open(path, 'wb')) as f:
        for piece in pieces:
            f.write(piece)
            size += len(piece)
    return size


def repeat(unit, count):
    chunk = 1 << 16
    for done in range(0, count, chunk):
        yield unit * min(chunk, count - done)


def compile_file(c, a, name, pieces, compress=False):
    path = os.path.join(a.work, name)
    text_bytes = write(path, pieces, compress)
    file_bytes = os.path.getsize(path)
    if compress:
        text_bytes = min(text_bytes, RATIO * file_bytes + FLOOR)
    out = path + '.kfb'
    status, err, kb = peak_kb([a.kfc, path, '-o', out])
    limit = bound_kb(text_bytes, file_bytes)
    c.check(kb < limit, '%s: %d KB, over the bound %d KB' % (name, kb, limit))
    return path, status, err, os.path.exists(out)


def keys_scene(keys):
    yield HEADER + b'DEF C TimeSensor { loop TRUE }\nDEF I OrientationInterpolator { key ['
    yield from repeat(b'0 ', keys)
    yield (b'] keyValue [0 0 1 0] }\nDEF T Transform { }\nROUTE C.fraction_changed TO '
           b'I.set_fraction\nROUTE I.value_changed TO T.rotation\n')


def gzipped(c, a, name, count):
    """`count` Group{} after the header, gzipped: refused when the text is
    past the ratio, else compiled."""
    pieces = itertools.chain([HEADER], repeat(b'Group{}', count))
    path, status, err, made = compile_file(c, a, name, pieces, True)
    text = len(HEADER) + 7 * count
    limit = min(RATIO * os.path.getsize(path) + FLOOR, 256 << 20)
    if text > limit:
        want = ('%s: error: the gzip stream inflates to more than %d bytes: kfc inflates a '
                'scene to at most 32 times its compressed size, plus 1 MiB' % (path, limit))
        c.check(status == 1 and err.strip() == want and not made,
                '%s (%d bytes of text): want %r, got %d %r' % (name, text, want, status, err))
    else:
        c.check(status == 0 and made, '%s: %d %r' % (name, status, err))


def main():
    a = driver.arguments()
    c = driver.Checks()

    # The budget: a million keys, each charged for its double, the value
    # repeated for it (4 doubles) and what the builder and encoder make.
    path, status, err, made = compile_file(c, a, 'keys.x3dv', keys_scene(1000000))
    c.check(status == 1 and err.strip() == path + ':3:1: ' + BUDGET and not made,
            'a million keys: want the budget refusal at 3:1, got %d %r' % (status, err))
    # A tenth of it fits.
    path, status, err, made = compile_file(c, a, 'keys_fit.x3dv', keys_scene(100000))
    c.check(status == 0 and made, 'a hundred thousand keys: %d %r' % (status, err))

    # Nodes nothing reaches cost nothing but their text; their fields are
    # not read. DEF'd nodes are kept, and within the budget.
    groups = itertools.chain([b'<X3D><Scene>'], repeat(b'<Group/>', 2000000), [b'</Scene></X3D>'])
    path, status, err, made = compile_file(c, a, 'groups.x3d', groups)
    c.check(status == 0 and made, '<Group/> x 2M: %d %r' % (status, err))
    defs = (b'DEF N%x Group { }\n' % i for i in range(500000))
    path, status, err, made = compile_file(c, a, 'defs.x3dv', itertools.chain([HEADER], defs))
    c.check(status == 0 and made, 'DEF x 500k: %d %r' % (status, err))

    # Gzip: 32 times the compressed size plus 1 MiB, at most.
    gzipped(c, a, 'bomb.x3dv.gz', (40 << 20) // 7)
    gzipped(c, a, 'past.x3dv.gz', (4 << 20) // 7)
    gzipped(c, a, 'floor.x3dv.gz', (FLOOR - 64) // 7)
    print('test_x3d_bounds: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
