# SPDX-License-Identifier: MIT
"""Writes M3G (JSR-184) files for the tests of kfc's M3G importer: a small
writer of the file format (tests/gen/m3g_reference.py reads it back), the
scenes the tests play (every interpolation, repeat mode and keyframe
encoding; several tracks and controllers per object; every class that can
be animated; stored, zlib and empty sections; an external PNG image; user
parameters; a custom property; a track no object owns; two tracks alike on
one object), and hostile variants, each with the exact error kfc reports.

    gen_m3g_files.py DIR [--invalid]    # the scenes (and, with --invalid,
                                        # the hostile files) into DIR, and
                                        # DIR/index.json listing them
    gen_m3g_files.py DIR --fuzz-seeds   # tests/fuzz/fuzz_m3g.c's corpus
    gen_m3g_files.py FILE --example     # fixtures/m3g/swing.m3g
"""
import json
import os
import struct
import sys
import zlib

IDENTIFIER = bytes([0xAB, 0x4A, 0x53, 0x52, 0x31, 0x38, 0x34, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A])
(HEADER, CONTROLLER, TRACK, APPEARANCE, BACKGROUND, CAMERA, COMPOSITING, FOG, POLYGON, GROUP,
 IMAGE, STRIPS, LIGHT, MATERIAL, MESH, MORPHING, SKINNED, TEXTURE, SPRITE, SEQUENCE, VARRAY,
 VBUFFER, WORLD) = range(23)
EXTERNAL = 255
LINEAR, SLERP, SPLINE, SQUAD, STEP = 176, 177, 178, 179, 180
CONSTANT, LOOP = 192, 193
(ALPHA, AMBIENT_COLOR, COLOR, CROP, DENSITY, DIFFUSE_COLOR, EMISSIVE_COLOR, FAR_DISTANCE,
 FIELD_OF_VIEW, INTENSITY, MORPH_WEIGHTS, NEAR_DISTANCE, ORIENTATION, PICKABILITY, SCALE,
 SHININESS, SPECULAR_COLOR, SPOT_ANGLE, SPOT_EXPONENT, TRANSLATION, VISIBILITY) = range(256, 277)


def u32(v):
    return struct.pack('<I', v & 0xFFFFFFFF)


def f32(v):
    return struct.pack('<f', v)


def object3d(uid=0, tracks=(), params=()):
    out = u32(uid) + u32(len(tracks)) + b''.join(u32(t) for t in tracks) + u32(len(params))
    for pid, value in params:
        out += u32(pid) + u32(len(value)) + value
    return out


def controller(speed=1.0, weight=1.0, start=0, end=0, ref_sequence=0.0, ref_world=0, **o3d):
    return (CONTROLLER, object3d(**o3d) + f32(speed) + f32(weight) + struct.pack('<ii', start, end)
            + f32(ref_sequence) + struct.pack('<i', ref_world))


def track(sequence, ctl, prop, **o3d):
    return (TRACK, object3d(**o3d) + u32(sequence) + u32(ctl) + u32(prop))


def quantize(keys, encoding):
    """Bias (the minimum), scale (the range) and the quantized keys, as the
    file format describes encodings 1 and 2."""
    top = 255 if encoding == 1 else 65535
    c = len(keys[0][1])
    lo = [min(v[j] for _, v in keys) for j in range(c)]
    hi = [max(v[j] for _, v in keys) for j in range(c)]
    scale = [h - l for l, h in zip(lo, hi)]
    q = [[int(round((x - l) / s * top)) if s else 0 for x, l, s in zip(v, lo, scale)]
         for _, v in keys]
    return lo, scale, q


def sequence(interpolation, repeat, duration, keys, encoding=0, valid=None, **o3d):
    """keys: [(time, [values])]; valid: (first, last), default all."""
    first, last = valid if valid else (0, len(keys) - 1)
    c = len(keys[0][1])
    out = object3d(**o3d) + bytes([interpolation, repeat, encoding]) + u32(duration) \
        + u32(first) + u32(last) + u32(c) + u32(len(keys))
    if encoding == 0:
        for t, v in keys:
            out += u32(t) + b''.join(f32(x) for x in v)
    else:
        lo, scale, q = quantize(keys, encoding)
        out += b''.join(f32(x) for x in lo) + b''.join(f32(x) for x in scale)
        for (t, _), row in zip(keys, q):
            out += u32(t) + (bytes(row) if encoding == 1 else b''.join(struct.pack('<H', x) for x in row))
    return (SEQUENCE, out)


def node(kind, uid=0, tracks=(), params=(), rest=b'\x00\x01\x02'):
    """An object kfc reads only the Object3D part of; `rest` stands for the
    class's own fields, which it passes over."""
    return (kind, object3d(uid, tracks, params) + rest)


def section(scheme, payload, raw=False):
    """A section; `raw`: a zlib section whose objects are left inflated (for
    the fuzz target, which deflates them, tests/fuzz/fuzz_m3g.c)."""
    body = zlib.compress(payload, 9) if scheme == 1 and not raw else payload
    head = bytes([scheme]) + u32(13 + len(body)) + u32(len(payload))
    data = head + body
    return data + u32(zlib.adler32(data))


def write(sections, authoring='kfb tests', external=False, total=None, version=b'\x01\x00', tail=b'',
          raw=False):
    """An M3G file of the header and `sections`: [(scheme, [(type, data)])].
    Returns the bytes and each object's place: {index: (section, inflated,
    offset of its ObjectType byte)}, in the file or in the section's
    inflated bytes. `tail`: raw bytes after the last section's objects."""
    places, index = {}, 2
    bodies = []
    for number, (scheme, objects) in enumerate(sections, 1):
        payload = b''
        for kind, data in objects:
            places[index] = (number, scheme == 1, len(payload))
            payload += bytes([kind]) + u32(len(data)) + data
            index += 1
        bodies.append((scheme, payload))
    if tail:
        bodies[-1] = (bodies[-1][0], bodies[-1][1] + tail)

    def header(size):
        return bytes([HEADER]) + u32(11 + len(authoring.encode()) + 1) + version \
            + bytes([1 if external else 0]) + u32(size) + u32(size) + authoring.encode() + b'\0'

    rest = b''.join(section(s, p, raw) for s, p in bodies)
    size = len(IDENTIFIER) + len(section(0, header(0))) + len(rest)
    data = IDENTIFIER + section(0, header(size if total is None else total)) + rest
    places[1] = (0, False, 12 + 9)
    at = 12 + len(section(0, header(0)))
    for number, (scheme, payload) in enumerate(bodies, 1):
        for i, (s, inflated, off) in places.items():
            if s == number and not inflated:
                places[i] = (s, False, at + 9 + off)
        at += len(section(scheme, payload, raw))
    return data, places


def where(places, index, delta=0):
    """The location kfc prints for byte `delta` of object `index`."""
    s, inflated, off = places[index]
    if inflated:
        return 'section %d, inflated byte %d, object %d' % (s, off + delta, index)
    return 'byte %d, object %d' % (off + delta, index)


# Deterministic values, unlike any other key.
def values(seed, count, components, scale=10.0):
    out, x = [], seed * 7919 + 17
    for _ in range(count):
        row = []
        for _ in range(components):
            x = (x * 1103515245 + 12345) % 2**31
            row.append(round((x / 2**31 * 2 - 1) * scale, 3))
        out.append(row)
    return out


def quats(seed, count, long_way=False):
    out = []
    for k, row in enumerate(values(seed, count, 4, 1.0)):
        if long_way and k % 2:
            row = [-x for x in out[-1]]  # antipodal to the one before
        out.append(row)
    return out


TIMES = [0, 100, 250, 600, 1000]
WRAP_TIMES = [500, 800, 900, 100, 300]  # valid range [3, 1]: 100 300 500 800


def scene():
    """The objects of the main scene, in order: (type, data) list, and a
    note of what each group of objects tests."""
    objs = []

    def add(obj):
        objs.append(obj)
        return len(objs) + 1  # object index: the header is 1

    c_plain = add(controller())
    c_fast = add(controller(speed=2.0, weight=0.5, start=500, end=4000, ref_sequence=10.0,
                            ref_world=1000, uid=21))
    c_back = add(controller(speed=-0.5, weight=0.75, ref_sequence=300.0, ref_world=200))
    c_late = add(controller(speed=1.5, weight=1.0, start=-1000, end=2500, ref_world=-100))
    controllers = [c_plain, c_fast, c_back, c_late]
    groups = []
    n = 0
    for encoding in (0, 1, 2):
        for interpolation in (STEP, LINEAR, SPLINE, SLERP, SQUAD):
            for repeat in (CONSTANT, LOOP):
                quat = interpolation in (SLERP, SQUAD)
                wrap = n % 3 == 2
                times = WRAP_TIMES if wrap else TIMES
                vals = quats(n, 5, long_way=n % 4 == 1) if quat else values(n, 5, 3)
                valid = (3, 1) if wrap else (1, 3) if n % 3 == 1 else None
                seq = add(sequence(interpolation, repeat, 1200, list(zip(times, vals)), encoding,
                                   valid, uid=100 + n))
                prop = ORIENTATION if quat else TRANSLATION
                ctl = controllers[n % len(controllers)]
                t = add(track(seq, ctl, prop))
                groups.append((t, n))
                n += 1
    for t, n in groups:
        add(node(GROUP, uid=500 + n if n % 2 else 0, tracks=[t]))
    # One Group, many tracks: several properties, two controllers blended
    # into one target, a track without controller, two tracks alike.
    s3 = add(sequence(SPLINE, LOOP, 2000, list(zip([0, 400, 900, 1500], values(40, 4, 3)))))
    s3b = add(sequence(LINEAR, CONSTANT, 3000, list(zip([0, 700, 2500], values(41, 3, 3)))))
    s1 = add(sequence(LINEAR, LOOP, 800, list(zip([0, 300, 600], [[0.2], [0.9], [0.4]]))))
    svis = add(sequence(STEP, LOOP, 900, list(zip([0, 300, 600], [[1.0], [0.0], [0.7]])), 1))
    sq = add(sequence(SQUAD, LOOP, 1600, list(zip([0, 500, 1100], quats(42, 3)))))
    sscale = add(sequence(SPLINE, CONSTANT, 1000, list(zip([0, 500, 1000], [[1.0], [2.5], [0.5]]))))
    t_a = add(track(s3, c_plain, TRANSLATION))
    t_b = add(track(s3b, c_back, TRANSLATION))
    t_c = add(track(s3, c_fast, TRANSLATION))
    t_none = add(track(s3b, 0, SCALE))
    t_alpha = add(track(s1, c_plain, ALPHA))
    t_vis = add(track(svis, c_late, VISIBILITY))
    t_pick = add(track(svis, c_plain, PICKABILITY))
    t_rot = add(track(sq, c_plain, ORIENTATION))
    t_rot2 = add(track(sq, c_plain, ORIENTATION))
    t_scale1 = add(track(sscale, c_fast, SCALE))
    add(node(GROUP, uid=900, tracks=[t_a, t_b, t_c, t_none, t_alpha, t_vis, t_pick, t_rot, t_rot2],
             params=[(7, b'hello'), (8, b'')]))
    add(node(MESH, tracks=[t_scale1]))
    # Every class that can be animated, in its own properties.
    c3 = lambda seed: add(sequence(LINEAR, LOOP, 1000, list(zip([0, 350, 700], values(seed, 3, 3, 1.2)))))
    c1 = lambda seed, lo, hi: add(sequence(SPLINE, CONSTANT, 1000, list(zip(
        [0, 300, 800], [[lo + (hi - lo) * x] for x in (0.1, 0.9, 0.4)]))))
    ambient, diffuse, emissive, specular = c3(60), c3(61), c3(62), c3(63)
    shin, alpha = c1(64, -10, 140), c1(65, -0.2, 1.2)
    mat_tracks = [add(track(s, c_plain, p)) for s, p in
                  ((ambient, AMBIENT_COLOR), (diffuse, DIFFUSE_COLOR), (emissive, EMISSIVE_COLOR),
                   (specular, SPECULAR_COLOR), (shin, SHININESS), (alpha, ALPHA))]
    add(node(MATERIAL, uid=71, tracks=mat_tracks))
    color, inten, angle, expo = c3(66), c1(67, 0, 3), c1(68, -5, 100), c1(69, -1, 130)
    light_tracks = [add(track(s, c_fast, p)) for s, p in
                    ((color, COLOR), (inten, INTENSITY), (angle, SPOT_ANGLE), (expo, SPOT_EXPONENT))]
    add(node(LIGHT, uid=72, tracks=light_tracks))
    fov, near, far = c1(70, 30, 90), c1(71, 0.1, 1), c1(72, 50, 100)
    cam_tracks = [add(track(s, c_plain, p)) for s, p in ((fov, FIELD_OF_VIEW), (near, NEAR_DISTANCE),
                                                         (far, FAR_DISTANCE))]
    add(node(CAMERA, tracks=cam_tracks))
    dens = c1(73, -0.5, 2)
    add(node(FOG, tracks=[add(track(dens, c_back, DENSITY)), add(track(color, c_plain, COLOR))]))
    crop4 = add(sequence(LINEAR, CONSTANT, 500, list(zip([0, 500], values(74, 2, 4, 64)))))
    crop2 = add(sequence(STEP, LOOP, 500, list(zip([0, 250], values(75, 2, 2, 64))), 2))
    add(node(BACKGROUND, tracks=[add(track(crop4, c_plain, CROP)), add(track(alpha, c_plain, ALPHA))]))
    add(node(SPRITE, tracks=[add(track(crop2, c_late, CROP))]))
    weights = add(sequence(SPLINE, LOOP, 1000, list(zip([0, 200, 650], values(76, 3, 5, 1.0))), 1))
    add(node(MORPHING, tracks=[add(track(weights, c_plain, MORPH_WEIGHTS))]))
    add(node(TEXTURE, uid=77, tracks=[add(track(color, c_back, COLOR)), add(track(s3, c_plain, TRANSLATION))]))
    add(node(VBUFFER, tracks=[add(track(color, c_plain, COLOR)), add(track(alpha, c_late, ALPHA))]))
    add(node(SKINNED, tracks=[add(track(s3b, c_fast, TRANSLATION))]))
    custom = add(sequence(LINEAR, LOOP, 600, list(zip([0, 300], values(78, 2, 2)))))
    add(node(GROUP, uid=78, tracks=[add(track(custom, c_plain, 300))]))
    add(track(s3, c_plain, TRANSLATION))  # owned by nothing: never played
    add(node(WORLD, uid=1, tracks=[add(track(sq, c_late, ORIENTATION))]))
    return objs


def split(objs, schemes):
    """`objs` over len(schemes) sections, in order, and an empty zlib
    section between the first two."""
    n = len(schemes)
    size = (len(objs) + n - 1) // n
    parts = [(s, objs[i * size:(i + 1) * size]) for i, s in enumerate(schemes)]
    return parts[:1] + [(1, [])] + parts[1:]


def oracle_like():
    """A scene like the reference vectors' file cases, with an external
    image: one controller, a Group animated in three properties."""
    c = controller(speed=2.0, weight=0.5, ref_sequence=10.0, ref_world=1000, uid=100)
    s1 = sequence(LINEAR, LOOP, 1000, [(0, [0, 0, 0]), (300, [10, -5, 2.5]), (800, [4, 4, 4])], uid=101)
    s2 = sequence(STEP, CONSTANT, 1000, [(0, [-1, -1.5, 10.1]), (500, [1, 0.5, 10.0]),
                                          (900, [-1, 0.5, 10.0])], 1, uid=102)
    s3 = sequence(SLERP, CONSTANT, 2000, list(zip([0, 100, 1900], quats(3, 3))), 2, (1, 2), uid=103)
    objs = [c, s1, s2, s3, track(4, 3, TRANSLATION, uid=104), track(5, 3, SCALE, uid=105),
            track(6, 3, ORIENTATION, uid=106), node(GROUP, uid=107, tracks=[7, 8, 9])]
    return [(0, [(EXTERNAL, b'texture.PNG\0')]), (1, objs)]


def shift(objs, by):
    """Objects written after `by` more objects: references move with them."""
    out = []
    for kind, data in objs:
        if kind in (HEADER, EXTERNAL):
            out.append((kind, data))
            continue
        uid, n = struct.unpack_from('<II', data, 0)
        refs = [r + by for r in struct.unpack_from('<%dI' % n, data, 8)]
        data = data[:8] + b''.join(u32(r) for r in refs) + data[8 + 4 * n:]
        if kind == TRACK:
            s, c, p = struct.unpack_from('<III', data, len(data) - 12)
            data = data[:-12] + u32(s + by) + u32(c + by if c else 0) + u32(p)
        out.append((kind, data))
    return out


def example():
    """fixtures/m3g/swing.m3g, the documentation's example: a pendulum
    swinging +-30 degrees about z once a second and bobbing up and down, its
    material fading in steps, one controller; zlib-compressed."""
    import math
    swing = [(t, [0.0, 0.0, math.sin(math.radians(a) / 2), math.cos(math.radians(a) / 2)])
             for t, a in ((0, -30), (500, 30))]
    objs = [controller(uid=1),
            sequence(SLERP, LOOP, 1000, swing, uid=11),
            sequence(SPLINE, LOOP, 1000, [(0, [0.0, 0.0, 0.0]), (250, [0.0, -0.1, 0.0]),
                                          (500, [0.0, 0.0, 0.0]), (750, [0.0, -0.1, 0.0])], uid=12),
            sequence(STEP, CONSTANT, 2000, [(0, [0.2]), (500, [0.6]), (1000, [1.0])], 1, uid=21),
            track(3, 2, ORIENTATION), track(4, 2, TRANSLATION), track(5, 2, ALPHA),
            node(MATERIAL, uid=20, tracks=[8], rest=b'\x33\x33\x33\xcc\xcc\xcc\xff\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0'),
            node(GROUP, uid=10, tracks=[6, 7])]
    return write([(1, objs)], authoring='kfb example: a pendulum')[0]


def near_opposite():
    """Keys nearly opposite, as 3ds max exports write a turn past half a
    revolution: slerp's weights grow as 1 / sin theta there, so keys off
    unit length by a float rounding (as written files have them) must be
    normalized before the slerp, or the result moves by that over
    sin^2 theta. Keys 0.43 degrees from opposite, 4e-7 off unit length."""
    import math
    a = [-0.5012884, 0.5011984, -0.4984884, -0.4990184]
    n = math.sqrt(sum(x * x for x in a))
    a = [x / n for x in a]
    # b: a turned by 0.0075 rad towards the perpendicular, then negated.
    p = [-a[1], a[0], -a[3], a[2]]
    e = 0.0075
    b = [-(math.cos(e) * x + math.sin(e) * y) for x, y in zip(a, p)]
    a = [x * (1 + 4e-7) for x in a]
    b = [x * (1 - 4e-7) for x in b]
    keys = [(0, a), (100, b), (200, a), (300, b)]
    objs = [controller(uid=1),
            sequence(SLERP, LOOP, 400, keys, uid=2),
            sequence(SQUAD, LOOP, 400, keys, uid=3),
            track(3, 2, ORIENTATION), track(4, 2, ORIENTATION),
            node(GROUP, uid=10, tracks=[5]), node(GROUP, uid=11, tracks=[6])]
    return write([(0, objs)], authoring='3ds max')[0]


SWERVE_TABLE = ('Superscape Swerve Author 2.0\n'
                'a line before the table: 5 NotAName\n'
                '<SwerveAuthor2NameTable>\r\n'
                '5 Walk Controller\r\n'
                '7 11 - Default\n'
                '133 Arm.01\t \n'
                '5 Second name of 5, not used\n'
                '0 Zero\n'
                '4294967296 TooBig\n'
                '12abc NoSpace\n'
                '13\n'
                '14 \n'
                '15 T\u00eate\n'
                '16 ' + 'L' * 70 + '\n'
                '</SwerveAuthor2NameTable>\n'
                '17 AfterTheTable\n')


def swerve_names():
    """Object names from Swerve Author's name table in the AuthoringField
    (docs/import-m3g.md, Names): the lines that name, and those that do not."""
    keys = [(0, [0.0, 0.0, 0.0]), (500, [1.0, 2.0, 3.0])]
    objs = [controller(uid=5),
            sequence(LINEAR, LOOP, 1000, keys, uid=7),
            sequence(LINEAR, CONSTANT, 1000, keys, uid=17),
            sequence(LINEAR, CONSTANT, 1000, keys),
            track(3, 2, TRANSLATION), track(4, 2, TRANSLATION), track(5, 2, TRANSLATION),
            track(5, 2, TRANSLATION), track(3, 2, TRANSLATION),
            node(GROUP, uid=133, tracks=[6]), node(GROUP, uid=999, tracks=[7]),
            node(GROUP, uid=15, tracks=[8]), node(GROUP, uid=16, tracks=[9]),
            node(GROUP, uid=12, tracks=[10])]
    return write([(0, objs)], authoring=SWERVE_TABLE)[0]


def scenes(raw=False):
    """{file name: bytes} of the valid files (`raw`: zlib sections left
    inflated, for the fuzz target)."""
    objs = scene()
    out = {}
    out['scene_stored.m3g'] = write([(0, objs)], raw=raw)[0]
    out['scene_zlib.m3g'] = write([(1, objs)], raw=raw)[0]
    out['scene_mixed.m3g'] = write(split(objs, [0, 1, 0, 1]), raw=raw)[0]
    out['image_reference.m3g'] = write(oracle_like(), external=True, raw=raw)[0]
    out['near_opposite.m3g'] = near_opposite()
    out['swerve_names.m3g'] = swerve_names()
    if not raw:
        out['swing.m3g'] = example()
        # M3G reads up to the header's TotalFileSize: bytes after it are not
        # the file's.
        out['trailing_bytes.m3g'] = example() + b'\0\xab\xcd'
    return out


def invalid_cases():
    """[(name, bytes, the error line kfc prints after 'NAME: ')]: files
    M3G refuses, and (named limit_*) valid files past kfc's limits."""
    cases = []
    base_objs = [controller(), sequence(LINEAR, CONSTANT, 1000, [(0, [0, 0, 0]), (500, [1, 2, 3])]),
                 track(3, 2, TRANSLATION), node(GROUP, tracks=[4])]
    good, places = write([(0, base_objs)])

    def case(name, data, message):
        cases.append((name, data, message))

    def patch(data, at, new):
        return data[:at] + new + data[at + len(new):]

    def resum(data, start):
        """Recompute the Adler-32 of the stored section at `start`."""
        length = struct.unpack_from('<I', data, start + 1)[0]
        return patch(data, start + length - 4, u32(zlib.adler32(data[start:start + length - 4])))

    sec1 = 12 + 9 + 5 + 11 + len(b'kfb tests') + 1 + 4  # the first section after the header's
    assert good[sec1] == 0 and struct.unpack_from('<I', good, sec1 + 5)[0] > 0

    case('not_m3g.m3g', b'\x89PNG\r\n\x1a\n' + bytes(40),
         'byte 0: error: not an M3G file: it does not start with the JSR-184 file identifier '
         '(AB 4A 53 52 31 38 34 BB 0D 0A 1A 0A)')
    case('cut_identifier.m3g', IDENTIFIER[:10],
         'byte 0: error: the file ends inside the JSR-184 file identifier (10 of its 12 bytes)')
    case('identifier_only.m3g', IDENTIFIER,
         'byte 12: error: the file ends after its identifier, without a header section')
    case('short_section.m3g', good[:sec1 + 7],
         'byte 29, object 1: error: Header: TotalFileSize is %d, but the file has %d bytes (truncated?)'
         % (len(good), sec1 + 7))
    bad = patch(good, sec1, b'\x02')
    case('scheme.m3g', bad, 'byte %d: error: section 1: CompressionScheme 2 is neither 0 (stored) '
         'nor 1 (zlib)' % sec1)
    hdr = bytes([HEADER]) + u32(21) + b'\x01\x00\x00' + u32(0) + u32(0) + b'kfb tests\0'
    z = section(1, hdr)
    zfile = IDENTIFIER + z + good[sec1:]
    case('compressed_header.m3g', zfile, 'byte 12: error: section 0, the header\'s, must be stored, '
         'not compressed')
    bad = patch(good, sec1 + 1, u32(12))
    case('section_length_small.m3g', bad, 'byte %d: error: section 1: TotalSectionLength 12 is less '
         'than 13 (%d bytes are left)' % (sec1 + 1, len(good) - sec1))
    bad = patch(good, sec1 + 1, u32(100000))
    case('section_length_large.m3g', bad, 'byte %d: error: section 1: TotalSectionLength 100000 is '
         'past the end of the file (%d bytes are left)' % (sec1 + 1, len(good) - sec1))
    bad = patch(good, len(good) - 1, bytes([good[-1] ^ 0x40]))
    want = struct.unpack_from('<I', bad, len(bad) - 4)[0]
    case('checksum.m3g', bad, 'byte %d: error: section 1: its Adler-32 checksum is 0x%08x, its bytes '
         'give 0x%08x' % (len(good) - 4, want, zlib.adler32(good[sec1:-4])))
    bad = resum(patch(good, sec1 + 5, u32(5)), sec1)
    case('uncompressed_length.m3g', bad, 'byte %d: error: section 1: UncompressedLength is 5, but it '
         'stores %d bytes of objects' % (sec1 + 5, len(good) - sec1 - 13))

    def zcase(name, body, length, message, head=None):
        data = bytes([1]) + u32(13 + len(body)) + u32(length) + body
        data += u32(zlib.adler32(data))
        f = good[:sec1] + data
        f = patch(f, 12 + 9 + 5 + 3, u32(len(f)))
        f = resum(f, 12)
        case(name, f, message % {'at': sec1, 'len': sec1 + 5, 'body': sec1 + 9,
                                 'budget': min(256 << 20, (16 << 20) + 64 * len(f))})

    payload = b''.join(bytes([k]) + u32(len(d)) + d for k, d in base_objs)
    stream = zlib.compress(payload, 9)
    zcase('zlib_ratio.m3g', stream, 2000 * len(stream),
          'byte %%(len)d: error: section 1: UncompressedLength %d from %d bytes of zlib stream: '
          'more than deflate can produce (1032 to 1)' % (2000 * len(stream), len(stream)))
    # What kfc allocates for a file (here the inflated bytes) is bounded by
    # 64 MiB and 64 bytes per byte of it: 70 MiB of zeros deflate to 70 KB.
    big = bytes([GROUP]) + u32(20 + (70 << 20)) + object3d(params=[(1, bytes(70 << 20))])
    zcase('limit_zlib_budget.m3g', zlib.compress(big, 9), len(big),
          'byte %%(len)d: error: section 1: UncompressedLength %d: the file needs more memory than '
          'kfc gives a file of its size (64 MiB and 64 bytes per byte)' % len(big))
    zcase('zlib_corrupt.m3g', b'\x78\x9c\xff\xff' + stream[4:], len(payload),
          'byte %(body)d: error: section 1: zlib: invalid block type')
    zcase('zlib_short.m3g', stream, len(payload) + 5,
          'byte %%(body)d: error: section 1: the zlib stream inflates to %d bytes; its '
          'UncompressedLength says %d' % (len(payload), len(payload) + 5))
    zcase('zlib_long.m3g', stream, len(payload) - 5,
          'byte %%(body)d: error: section 1: the zlib stream inflates to more than its '
          'UncompressedLength, %d bytes' % (len(payload) - 5))
    zcase('zlib_trailing.m3g', stream + b'\0\0\0', len(payload),
          'byte %(body)d: error: section 1: 3 bytes after the end of its zlib stream')
    zcase('zlib_truncated.m3g', stream[:-6], len(payload),
          'byte %%(body)d: error: section 1: the zlib stream ends after %d of its %d bytes'
          % (len(zlib.decompressobj().decompress(stream[:-6])), len(payload)))

    def objects_case(name, objs, message, **kw):
        data, pl = write([(0, objs)], **kw)
        case(name, data, message(pl) if callable(message) else message)

    objects_case('reserved_type.m3g', base_objs + [(23, b'')],
                 lambda pl: '%s: error: ObjectType 23 is reserved (0-22 and 255 are defined)'
                 % where(pl, 6))
    data, pl = write([(0, base_objs)])
    at = pl[5][2]
    case('object_past_section.m3g', resum(patch(data, at + 1, u32(1000)), sec1),
         '%s: error: Group: Length 1000 runs past the end of its section (%d bytes left)'
         % (where(pl, 5, 1), len(data) - 4 - at - 5))
    f, pl = write([(0, base_objs)], tail=b'\x09\x00')
    case('object_header_cut.m3g', f, 'byte %d, object 6: error: the section ends inside an object\'s '
         'ObjectType and Length (2 bytes left)' % (len(f) - 6))
    objects_case('version.m3g', base_objs, 'byte 26, object 1: error: Header: file format version '
                 '2.0; kfc reads version 1.0 (JSR-184: M3G 1.0 and 1.1)', version=b'\x02\x00')
    bad = resum(patch(good, 12 + 9 + 5 + 2, b'\x02'), 12)
    case('boolean.m3g', bad, 'byte 28, object 1: error: Header: hasExternalReferences is 2, not a '
         'Boolean (0 or 1)')
    objects_case('total_large.m3g', base_objs, 'byte 29, object 1: error: Header: TotalFileSize is '
                 '%d, but the file has %d bytes (truncated?)' % (len(good) + 7, len(good)),
                 total=len(good) + 7)
    case('total_small.m3g', resum(patch(good, 29, u32(40)), 12),
         'byte 29, object 1: error: Header: TotalFileSize is 40, less than the file up to the '
         'header\'s end (%d bytes)' % sec1)
    hdr = IDENTIFIER + section(0, bytes([HEADER]) + u32(12) + b'\x01\x00\x00' + u32(0) + u32(0) + b'x')
    case('authoring.m3g', hdr, 'byte 37, object 1: error: Header: the AuthoringField string has no '
         'terminating NUL')
    objects_case('header_only.m3g', [], 'byte %d: error: the file holds no object besides its header'
                 % (sec1 + 13))
    objects_case('second_header.m3g', base_objs + [(HEADER, b'')],
                 lambda pl: '%s: error: a second Header object, outside section 0' % where(pl, 6))
    objects_case('reference_other_file.m3g', [(EXTERNAL, b'scene.m3g\0')],
                 lambda pl: '%s: error: ExternalReference: \'scene.m3g\' names another file; kfc '
                 'does not follow external references (it passes over PNG images only: they hold '
                 'no animation)' % where(pl, 2), external=True)
    data, pl = write([(0, [(EXTERNAL, b'a.png\0')]), (0, shift(base_objs, 1))], external=False)
    case('reference_undeclared.m3g', data, '%s: error: an ExternalReference outside the section '
         'right after the header (hasExternalReferences is 0)' % where(pl, 2))
    objects_case('reference_missing.m3g', base_objs,
                 lambda pl: '%s: error: an AnimationController in the section after the header, '
                 'which holds the external references (hasExternalReferences is 1)'
                 % where(pl, 2), external=True)
    objects_case('uri_no_nul.m3g', [(EXTERNAL, b'a.png')],
                 lambda pl: '%s: error: ExternalReference: the URI string has no terminating NUL'
                 % where(pl, 2, 5), external=True)
    # Object3D
    objects_case('track_forward.m3g', [node(GROUP, tracks=[3]), track(4, 0, ALPHA)],
                 lambda pl: '%s: error: Group: animation track 0 refers to object 3, which does not '
                 'come before it' % where(pl, 2, 13))
    objects_case('track_wrong_class.m3g', base_objs[:3] + [node(GROUP, tracks=[2])],
                 lambda pl: '%s: error: Group: animation track 0 refers to object 2, an '
                 'AnimationController, not an AnimationTrack' % where(pl, 5, 13))
    objects_case('track_null.m3g', base_objs[:3] + [node(GROUP, tracks=[4, 0])],
                 lambda pl: '%s: error: Group: animation track 1 is a null reference'
                 % where(pl, 5, 17))
    objects_case('track_twice.m3g', base_objs[:3] + [node(GROUP, tracks=[4, 4])],
                 lambda pl: '%s: error: Group: it lists AnimationTrack 4 twice' % where(pl, 5, 9))
    objects_case('track_count.m3g', [(GROUP, u32(0) + u32(1 << 30) + bytes(8))],
                 lambda pl: '%s: error: Group: 1073741824 animation tracks need 4294967296 bytes, 8 '
                 'are left' % where(pl, 2, 9))
    objects_case('parameter_twice.m3g', base_objs[:3] + [node(GROUP, params=[(5, b'a'), (5, b'b')])],
                 lambda pl: '%s: error: Group: user parameter ID 5 appears twice' % where(pl, 5, 13))
    objects_case('parameter_length.m3g', [(GROUP, object3d()[:8] + u32(1) + u32(9) + u32(50) + b'xy')],
                 lambda pl: '%s: error: Group: user parameter 0 has 50 bytes, 2 are left'
                 % where(pl, 2, 21))
    objects_case('parameter_count.m3g', [(GROUP, object3d()[:8] + u32(7) + bytes(20))],
                 lambda pl: '%s: error: Group: 7 user parameters need at least 56 bytes, 20 are '
                 'left' % where(pl, 2, 13))
    objects_case('object3d_cut.m3g', [(GROUP, u32(0) + b'\1\0')],
                 lambda pl: '%s: error: Group: the object ends inside its Object3D fields (8 more '
                 'bytes needed, 6 left)' % where(pl, 2, 5))
    # AnimationController
    objects_case('weight.m3g', [controller(weight=-0.5)],
                 lambda pl: '%s: error: AnimationController: weight -0.5 is negative' % where(pl, 2, 21))
    objects_case('interval.m3g', [controller(start=100, end=50)],
                 lambda pl: '%s: error: AnimationController: the active interval [100, 50) starts '
                 'after it ends' % where(pl, 2, 25))
    nan = struct.unpack('<f', b'\x00\x00\xc0\x7f')[0]
    objects_case('speed_nan.m3g', [controller(speed=nan)],
                 lambda pl: '%s: error: AnimationController: speed is NaN, not a number' % where(pl, 2, 17))
    objects_case('controller_long.m3g', [(CONTROLLER, controller()[1] + b'\0')],
                 lambda pl: '%s: error: AnimationController: 1 bytes after the end of its data'
                 % where(pl, 2, 41))
    # AnimationTrack
    objects_case('track_no_sequence.m3g', [track(0, 0, ALPHA)],
                 lambda pl: '%s: error: AnimationTrack: keyframeSequence is a null reference'
                 % where(pl, 2, 17))
    objects_case('track_controller_class.m3g', base_objs[1:2] + [node(GROUP), track(2, 3, ALPHA)],
                 lambda pl: '%s: error: AnimationTrack: animationController refers to object 3, a '
                 'Group, not an AnimationController' % where(pl, 4, 21))
    # KeyframeSequence
    key = [(0, [1.0, 2.0, 3.0]), (500, [4.0, 5.0, 6.0])]

    def seq_case(name, seq, delta, message):
        objects_case(name, [seq], lambda pl: '%s: error: KeyframeSequence: %s' % (where(pl, 2, delta), message))

    seq_case('interpolation.m3g', sequence(181, LOOP, 1000, key), 17,
             'interpolation 181 is none of 176 LINEAR, 177 SLERP, 178 SPLINE, 179 SQUAD, 180 STEP')
    seq_case('repeat.m3g', sequence(LINEAR, 194, 1000, key), 18,
             'repeatMode 194 is neither 192 CONSTANT nor 193 LOOP')
    s = sequence(LINEAR, LOOP, 1000, key)[1]
    seq_case('encoding.m3g', (SEQUENCE, s[:14] + b'\x03' + s[15:]), 19,
             'encoding 3 is none of 0 (Float32), 1 (Byte), 2 (UInt16)')
    seq_case('duration.m3g', sequence(LINEAR, LOOP, 0, key), 20, 'duration 0 is out of range (1 to 2147483647)')
    seq_case('duration_large.m3g', sequence(LINEAR, LOOP, 0x80000000, key), 20,
             'duration 2147483648 is out of range (1 to 2147483647)')
    seq_case('components.m3g', (SEQUENCE, s[:27] + u32(0) + s[31:]), 32, 'componentCount is 0')
    seq_case('keyframes.m3g', (SEQUENCE, s[:31] + u32(0) + s[35:]), 36, 'keyframeCount is 0')
    seq_case('slerp_components.m3g', sequence(SLERP, LOOP, 1000, key), 32,
             'SLERP keyframes are quaternions, 4 components, not 3')
    seq_case('valid_range.m3g', sequence(LINEAR, LOOP, 1000, key, valid=(0, 2)), 28,
             'the valid range [0, 2] is outside its 2 keyframes')
    seq_case('keyframe_count.m3g', (SEQUENCE, s[:31] + u32(0x40000000) + s[35:]), 40,
             '1073741824 keyframes of 3 components need 17179869184 bytes, 32 are left')
    seq_case('keyframes_long.m3g', (SEQUENCE, s + b'\0\0'), 72, '2 bytes after the end of its data')
    seq_case('key_time.m3g', sequence(LINEAR, LOOP, 1000, [(0, [1, 2, 3]), (0x80000001, [1, 2, 3])]), 56,
             'key 1 time 2147483649 is out of range (at most 2147483647)')
    inf = struct.unpack('<f', b'\x00\x00\x80\x7f')[0]
    seq_case('key_value.m3g', sequence(LINEAR, LOOP, 1000, [(0, [1, inf, 3]), (5, [1, 2, 3])]), 48,
             'key 0 component 1 is infinite, not a number')
    s8 = sequence(LINEAR, LOOP, 1000, key, 1)[1]
    big = s8[:35] + f32(3e38) * 3 + f32(3e38) * 3 + s8[59:]
    seq_case('key_decode.m3g', (SEQUENCE, big), 75,
             'key 1 component 0 decodes to a value beyond the float range')
    seq_case('bias_nan.m3g', (SEQUENCE, s8[:39] + struct.pack('<f', nan) + s8[43:]), 44,
             'vectorBias 1 is NaN, not a number')
    # What M3G's API refuses when the tracks are attached.
    q = sequence(SLERP, LOOP, 1000, [(0, [0, 0, 0, 1]), (500, [0, 1, 0, 0])])
    objects_case('track_components.m3g', [q, track(2, 0, TRANSLATION)],
                 lambda pl: '%s: error: AnimationTrack: TRANSLATION cannot take the 4 components of '
                 'KeyframeSequence 2' % where(pl, 3))
    objects_case('track_class.m3g', [sequence(LINEAR, LOOP, 1000, [(0, [60.0])]), track(2, 0, FIELD_OF_VIEW),
                                     node(GROUP, tracks=[3])],
                 lambda pl: '%s: error: Group: AnimationTrack 3 animates FIELD_OF_VIEW, which a Group '
                 'does not have' % where(pl, 4))
    objects_case('track_counts.m3g', [sequence(LINEAR, LOOP, 1000, [(0, [1.0])]),
                                      sequence(LINEAR, LOOP, 1000, [(0, [1.0, 2.0, 3.0])]),
                                      track(2, 0, SCALE), track(3, 0, SCALE), node(GROUP, tracks=[4, 5])],
                 lambda pl: '%s: error: Group: target \'Group6.scale\' is already animated with 1 '
                 'components, not 3' % where(pl, 6))
    objects_case('key_order.m3g', [sequence(LINEAR, LOOP, 1000, [(0, [1.0]), (500, [2.0]), (400, [3.0])])],
                 lambda pl: '%s: error: KeyframeSequence: key time 400 is less than the previous '
                 'valid key\'s time 500' % where(pl, 2))
    objects_case('key_duration.m3g', [sequence(LINEAR, LOOP, 300, [(0, [1.0]), (500, [2.0])])],
                 lambda pl: '%s: error: KeyframeSequence: last valid key time 500 exceeds the '
                 'duration 300' % where(pl, 2))
    # Tracks alike on one object each play a copy of the sequence, charged
    # to the budget like any sequence.
    keys = [(t * 10, [float(t), 0.0, 1.0]) for t in range(2000)]
    alike = [controller(), sequence(LINEAR, LOOP, 30000, keys)] + [track(3, 2, TRANSLATION)] * 200
    objects_case('limit_tracks_alike.m3g', alike + [node(GROUP, tracks=list(range(4, 204)))],
                 lambda pl: '%s: error: KeyframeSequence: the file needs more memory than kfc gives '
                 'a file of its size (64 MiB and 64 bytes per byte)' % where(pl, 3))
    return cases


def fuzz_seeds(directory):
    """The corpus of tests/fuzz/fuzz_m3g.c: every file as it is (mode byte
    0) and with its checksums and size repaired (3); the scenes with zlib
    sections inflated, for the target to deflate (7)."""
    os.makedirs(directory, exist_ok=True)
    # The limit_* files are left out: mutated, they make each run allocate
    # up to the budget, and the fuzzer slows to a crawl.
    files = list(scenes().items()) + [('invalid_' + n, d) for n, d, _ in invalid_cases()
                                      if not n.startswith('limit_')]
    seeds = [(n + '.0', b'\0' + d) for n, d in files] + [(n + '.3', b'\3' + d) for n, d in files]
    seeds += [(n + '.7', b'\7' + d) for n, d in scenes(raw=True).items()]
    for name, data in seeds:
        with open(os.path.join(directory, name), 'wb') as f:
            f.write(data)


def main_into(directory, invalid=False):
    os.makedirs(directory, exist_ok=True)
    names = []
    for name, data in scenes().items():
        with open(os.path.join(directory, name), 'wb') as f:
            f.write(data)
        names.append(name)
    if invalid:
        for name, data, _ in invalid_cases():
            with open(os.path.join(directory, 'invalid_' + name), 'wb') as f:
                f.write(data)
            names.append('invalid_' + name)
    with open(os.path.join(directory, 'index.json'), 'w') as f:
        json.dump(names, f, indent=1)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if '--fuzz-seeds' in sys.argv[2:]:
        fuzz_seeds(sys.argv[1])
    elif '--example' in sys.argv[2:]:
        with open(sys.argv[1], 'wb') as f:
            f.write(example())
    else:
        main_into(sys.argv[1], '--invalid' in sys.argv[2:])
