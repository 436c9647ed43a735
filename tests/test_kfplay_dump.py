#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfplay dump: on every fixture, the header, sections and objects agree
with an independent reading of the file (Python's struct and zlib, with
formats/kfb_format.h's sizes and versions through kfb_layout) and with
`kfplay list`; every array lies inside DATA. On damaged files (every
truncation length, bit flips all over) it never crashes: exit 1, a damage
line or libkf's error, nothing from a sanitizer."""
import os
import re
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402
import kfb_layout as layout  # noqa: E402


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def place_pieces(stream):
    """DATA's pieces (a 2.3 stream, or 2.4's runs): (L, Z, L words), Z zero
    words after each."""
    out, k = [], 0
    while k < len(stream):
        words, zeros = struct.unpack_from('<II', stream, k)
        out.append(stream[k + 8:k + 8 + 4 * words] + bytes(4 * zeros))
        k += 8 + 4 * words
    return b''.join(out)


def sections(data):
    """(tag, stored, raw, raw bytes) per section, read independently."""
    out, pos = [], layout.HEADER_SIZE
    version = layout.word(data, layout.header_at('version'))
    for i in range(layout.SECTION_COUNT):
        tag, comp, stored, raw = struct.unpack_from('<4sIII', data, pos)
        body = data[pos + layout.SECTION_HEADER_SIZE:pos + layout.SECTION_HEADER_SIZE + stored]
        if comp == layout.COMPRESSION_RUNS:  # the pieces, not deflated (DATA only)
            body = place_pieces(body)
        elif comp:
            body = zlib.decompress(body)
            if i == layout.DATA and layout.has(version, layout.SINCE['PIECES']):
                body = place_pieces(body)
        out.append((tag.decode(), stored, raw, body))
        pos += layout.SECTION_HEADER_SIZE + stored + layout.SECTION_CRC_SIZE
    return out


def main():
    args = driver.arguments()
    c = driver.Checks()
    fixtures = sorted(f[:-5] for f in os.listdir(args.fixtures) if f.endswith('.yaml'))
    leg = None
    for name in fixtures:
        for level in ('1', '0', 'runs'):
            kfb = os.path.join(args.work, '%s.z%s.kfb' % (name, level))
            if run([args.kfc, '-z', level, os.path.join(args.fixtures, name + '.yaml'),
                    '-o', kfb]).returncode:
                c.fail('kfc %s' % name)
                continue
            leg = kfb if name == 'leg_walk' and level == '1' else leg
            r = run([args.kfplay, 'dump', kfb])
            out = r.stdout.decode()
            tag = '%s -z%s' % (name, level)
            c.check(r.returncode == 0 and 'damage' not in out and out.endswith('load: ok\n'),
                    '%s: dumps clean (%d)' % (tag, r.returncode))
            data = open(kfb, 'rb').read()
            for stag, stored, raw, body in sections(data):
                c.check(len(body) == raw, '%s: %s holds its %d raw bytes' % (tag, stag, raw))
                line = re.search(r'^  %s @\d+ \w+ stored=(\d+) raw=(\d+)' % stag, out, re.M)
                c.check(line and (int(line.group(1)), int(line.group(2))) == (stored, raw),
                        '%s: %s sizes' % (tag, stag))
            objs = sections(data)[layout.OBJECTS][3]
            count = 0
            pos = 0
            while pos < len(objs):
                pos += layout.OBJECT_HEADER_SIZE + layout.word(objs, pos + layout.field_at(
                    'kfb_object', 'size'))
                count += 1
            c.check(re.search(r'^  %d objects$' % count, out, re.M) is not None,
                    '%s: %d objects' % (tag, count))
            listed = run([args.kfplay, kfb, 'list']).stdout.decode().splitlines()
            kinds = ('sequence', 'interpolator', 'follower', 'controller', 'target')
            for kind in kinds:
                want = sum(1 for l in listed if l.split(' ')[1:2] == [kind] or
                           (' %s ' % kind in l and not l.startswith('#')))
                got = len(re.findall(r'^  #\d+ @\d+ %s ' % kind, out, re.M))
                c.check(got == want, '%s: %d %s records (list: %d)' % (tag, got, kind, want))
            c.check(len(re.findall(r'^  #\d+ @\d+ track ', out, re.M)) ==
                    len(re.findall(r'^#\d+ track animator=', '\n'.join(listed), re.M)),
                    '%s: tracks' % tag)
            words = len(sections(data)[layout.DATA][3]) // 4
            for off, n in re.findall(r'=@(\d+)\[(\d+)\]', out):
                c.check(int(off) + int(n) <= words, '%s: array @%s[%s] inside DATA' % (tag, off, n))

    # A controller's doubles as the source wrote them (speed 0.1, not
    # 0.10000000000000001): the shortest text that reads back, as kfc -d.
    rot = os.path.join(args.work, 'rotations.z1.kfb')
    if os.path.exists(rot):
        listed = run([args.kfplay, rot, 'list']).stdout.decode()
        c.check(re.search(r'^slow controller speed=0\.1 weight=2 ', listed, re.M) is not None,
                'list: slow speed=0.1 weight=2: %s' % listed)
        dumped = run([args.kfplay, 'dump', rot]).stdout.decode()
        c.check(re.search(r"'slow' speed=0\.1 weight=2 ", dumped) is not None,
                'dump: slow speed=0.1 weight=2')

    # A target that blends latest says so; one that sums says nothing.
    fan = os.path.join(args.work, 'fan_in.z1.kfb')
    if os.path.exists(fan):
        dumped = run([args.kfplay, 'dump', fan]).stdout.decode()
        blends = re.findall(r"^  #\d+ @\d+ target '([^']+)'.* components=\d+( blend=latest)?$",
                            dumped, re.M)
        c.check(sorted(blends) == [('door.orientation', ' blend=latest'),
                                   ('door.translation', ' blend=latest')],
                'dump: fan_in.yaml\'s targets blend latest: %s' % blends)
    basic = os.path.join(args.work, 'basic.z1.kfb')
    if os.path.exists(basic):
        c.check('blend=' not in run([args.kfplay, 'dump', basic]).stdout.decode(),
                'dump: basic.yaml\'s targets say no blend')

    # The leg walk's first key times, at the offset dump names.
    if leg:
        data = open(leg, 'rb').read()
        dump = run([args.kfplay, 'dump', leg]).stdout.decode()
        off, n = map(int, re.search(r"'hip_position'.*\n\s+times=@(\d+)\[(\d+)\]", dump).groups())
        times = struct.unpack_from('<%df' % n, sections(data)[layout.DATA][3], 4 * off)
        c.check(times == (0, 1, 2, 3, 4), 'hip_position times at @%d: %s' % (off, times))

        def damaged(blob, what):
            path = os.path.join(args.work, 'damaged.kfb')
            open(path, 'wb').write(blob)
            r = run([args.kfplay, 'dump', path])
            err = r.stderr.decode()
            ok = (r.returncode == 1 and 'Sanitizer' not in err and 'runtime error' not in err
                  and ('damage:' in r.stdout.decode() or 'load: ' in r.stdout.decode()
                       or (not blob and err == '%s: error: the file is empty\n' % path)))
            c.check(ok, '%s: exit %d, %s' % (what, r.returncode, err.strip()[:200]))

        for length in range(0, len(data), 3):
            damaged(data[:length], 'truncated to %d' % length)
        for pos in range(0, len(data)):
            for bit in (0, 5) if pos % 2 else (7,):
                blob = bytearray(data)
                blob[pos] ^= 1 << bit
                damaged(bytes(blob), 'bit %d of byte %d flipped' % (bit, pos))
        # Damage behind the CRCs: a stored file whose record fields are
        # rewritten and the CRC recomputed, so only the fields are wrong.
        stored = os.path.join(args.work, 'leg_walk.z0.kfb')
        blob = bytearray(open(stored, 'rb').read())
        objs = layout.sections(blob)[layout.OBJECTS]
        first = objs.stored  # the first object: the hip's sequence
        body = first + layout.OBJECT_HEADER_SIZE
        for at, value in ((body + layout.field_at('kfb_sequence', 'values'), 0x7fffffff),
                          (body + layout.field_at('kfb_sequence', 'key_count'), 0xffffffff),
                          (first + layout.field_at('kfb_object', 'size'), 4000)):
            b = bytearray(blob)
            layout.put_word(b, at, value)
            layout.fix_section_crc(b, objs)
            damaged(bytes(b), 'object field @%d = %#x' % (at - first, value))
    r = run([args.kfplay, 'dump', os.path.join(args.work, 'missing.kfb')])
    c.check(r.returncode == driver.EXIT_IO and r.stderr,
            'a missing file: exit %d (kfc\'s for a file it cannot read), with a message: %d %r'
            % (driver.EXIT_IO, r.returncode, r.stderr))
    print('test_kfplay_dump: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
