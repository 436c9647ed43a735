# SPDX-License-Identifier: MIT
"""An independent reading of M3G (JSR-184) files, for the tests of kfc's
importer: a small parser of the file format (identifier, sections with
Adler-32 and zlib, objects, the Object3D part of every object, the three
animation classes) and a sampler of what M3G plays, written from the file
format specification and the M3G API's KeyframeSequence, AnimationTrack and
AnimationController documentation (docs/math.md section 1 and 2), apart
from kfc's C code.

    model = read(data)              # raises Error on a file M3G refuses
    model.targets()                 # {target name: (property, components)}
    model.animate(world_ms)         # {target name: value, or None when no
                                    #  active track plays it}

Names follow docs/import-m3g.md: the class and object index, with the
name Swerve Author's name table (in the header's AuthoringField) gives
the userID, or else the userID when it is not 0 (Group7_RooTransform,
Group7_uid12), then the property (Group7_uid12.orientation). Values are in double precision, except that a
time is placed among the keys at float32 precision (docs/math.md 1.3, kfb's
rule) and 8- and 16-bit keyframes decode in float32 as the M3G API does."""
import math
import struct
import zlib

IDENTIFIER = bytes([0xAB, 0x4A, 0x53, 0x52, 0x31, 0x38, 0x34, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A])
CLASSES = ['Header', 'AnimationController', 'AnimationTrack', 'Appearance', 'Background', 'Camera',
           'CompositingMode', 'Fog', 'PolygonMode', 'Group', 'Image2D', 'TriangleStripArray',
           'Light', 'Material', 'Mesh', 'MorphingMesh', 'SkinnedMesh', 'Texture2D', 'Sprite3D',
           'KeyframeSequence', 'VertexArray', 'VertexBuffer', 'World']
PROPERTIES = ['alpha', 'ambient_color', 'color', 'crop', 'density', 'diffuse_color',
              'emissive_color', 'far_distance', 'field_of_view', 'intensity', 'morph_weights',
              'near_distance', 'orientation', 'pickability', 'scale', 'shininess',
              'specular_color', 'spot_angle', 'spot_exponent', 'translation', 'visibility']
LINEAR, SLERP, SPLINE, SQUAD, STEP = 176, 177, 178, 179, 180
CONSTANT, LOOP = 192, 193
EPSILON = 1e-5
# M3G clamps what it applies (docs/math.md 2): property -> (low, high).
# The component counts a property takes (None: any), and the classes that
# have it (the AnimationTrack documentation's table; 'Node' stands for
# Camera, Group, Light, Mesh, MorphingMesh, SkinnedMesh, Sprite3D, World,
# 'Transformable' for those and Texture2D).
COUNTS = {'crop': (2, 4), 'ambient_color': (3,), 'color': (3,), 'diffuse_color': (3,),
          'emissive_color': (3,), 'specular_color': (3,), 'translation': (3,), 'orientation': (4,),
          'scale': (1, 3), 'morph_weights': None}
HAVE = {'alpha': 'Background Material Node VertexBuffer', 'ambient_color': 'Material',
        'color': 'Background Fog Light Texture2D VertexBuffer', 'crop': 'Background Sprite3D',
        'density': 'Fog', 'diffuse_color': 'Material', 'emissive_color': 'Material',
        'far_distance': 'Camera Fog', 'field_of_view': 'Camera', 'intensity': 'Light',
        'morph_weights': 'MorphingMesh', 'near_distance': 'Camera Fog',
        'orientation': 'Transformable', 'pickability': 'Node', 'scale': 'Transformable',
        'shininess': 'Material', 'specular_color': 'Material', 'spot_angle': 'Light',
        'spot_exponent': 'Light', 'translation': 'Transformable', 'visibility': 'Node'}
NODES = 'Camera Group Light Mesh MorphingMesh SkinnedMesh Sprite3D World'.split()


def has(cls, prop):
    kinds = HAVE[prop].split()
    return cls in kinds or ('Node' in kinds or 'Transformable' in kinds) and cls in NODES \
        or 'Transformable' in kinds and cls == 'Texture2D'


CLAMP = {'alpha': (0, 1), 'ambient_color': (0, 1), 'color': (0, 1), 'diffuse_color': (0, 1),
         'emissive_color': (0, 1), 'specular_color': (0, 1), 'spot_angle': (0, 90),
         'spot_exponent': (0, 128), 'shininess': (0, 128), 'density': (0, math.inf)}


class Error(Exception):
    pass


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


class Stream:
    def __init__(self, data, what):
        self.data, self.at, self.what = data, 0, what

    def take(self, n):
        if self.at + n > len(self.data):
            raise Error('%s: truncated' % self.what)
        b = self.data[self.at:self.at + n]
        self.at += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack('<I', self.take(4))[0]

    def i32(self):
        return struct.unpack('<i', self.take(4))[0]

    def float(self):
        v = struct.unpack('<f', self.take(4))[0]
        if math.isnan(v) or math.isinf(v):
            raise Error('%s: a Float32 is not a number' % self.what)
        return v

    def string(self):
        end = self.data.find(b'\0', self.at)
        if end < 0:
            raise Error('%s: unterminated string' % self.what)
        s = self.data[self.at:end]
        self.at = end + 1
        return s.decode('utf-8', 'replace')

    def done(self):
        if self.at != len(self.data):
            raise Error('%s: bytes after its data' % self.what)


class Sequence:
    def __init__(self, interpolation, repeat, duration, first, last, times, values):
        self.interpolation, self.repeat, self.duration = interpolation, repeat, duration
        n = len(times)
        if interpolation in (SLERP, SQUAD):
            values = [normalized(v) for v in values]
        self.times, self.values = times, values
        self.order = [(first + k) % n for k in range((last - first) % n + 1)]
        self.components = len(values[0])
        self.tangents = self.intermediates = None
        vt = [times[i] for i in self.order]
        if any(b < a for a, b in zip(vt, vt[1:])) or vt[-1] > duration:
            raise Error('KeyframeSequence: valid key times decrease or pass the duration')

    # Valid key k's neighbours and segment lengths (docs/math.md 1.1, 1.2).
    def delta(self, k):
        o, t = self.order, self.times
        if k == len(o) - 1:
            return self.duration - t[o[-1]] + t[o[0]]
        return t[o[k + 1]] - t[o[k]]

    def factors(self, k):
        """(F-, F+) of valid key k: 0 at the ends in CONSTANT."""
        m = len(self.order)
        if self.repeat == CONSTANT and (k == 0 or k == m - 1):
            return 0.0, 0.0
        dp, di = self.delta((k - 1) % m), self.delta(k)
        if dp + di == 0:
            return 0.0, 0.0
        return 2 * dp / (dp + di), 2 * di / (dp + di)

    def spline_tangents(self):
        o, v, m = self.order, self.values, len(self.order)
        out = []
        for k in range(m):
            fm, fp = self.factors(k)
            p, n = v[o[(k - 1) % m]], v[o[(k + 1) % m]]
            tan = [(b - a) / 2 for a, b in zip(p, n)]
            out.append(([fm * x for x in tan], [fp * x for x in tan]))
        return out

    def squad_intermediates(self):
        o, v, m = self.order, self.values, len(self.order)
        out = []
        for k in range(m):
            fm, fp = self.factors(k)
            q, p, n = v[o[k]], v[o[(k - 1) % m]], v[o[(k + 1) % m]]
            lp = qlog(qmul(qconj(q), n))
            lm = qlog(qmul(qconj(p), q))
            c = [(a + b) / 2 for a, b in zip(lp, lm)]
            a = qmul(q, qexp([(fp * ci - x) / 2 for ci, x in zip(c, lp)]))
            b = qmul(q, qexp([(x - fm * ci) / 2 for ci, x in zip(c, lm)]))
            out.append((a, b))
        return out

    def sample(self, t):
        """The value at sequence time t (docs/math.md 1.3, 1.4)."""
        o, times, values, m = self.order, self.times, self.values, len(self.order)
        t0 = times[o[0]]
        if m == 1:
            return list(values[o[0]])
        if self.repeat == LOOP:
            t = t0 + (t - t0) % self.duration
            placed = f32(t)
            if placed >= t0 + self.duration:
                return list(values[o[0]])
        else:
            placed = f32(t)
            if placed < t0:
                return list(values[o[0]])
            if placed >= times[o[-1]]:
                return list(values[o[-1]])
        k = 0
        while k < m - 1 and times[o[k + 1]] <= placed:
            k += 1
        d = self.delta(k)
        if placed == times[o[k]] or not d > 0 or self.interpolation == STEP:
            return list(values[o[k]])
        s = (t - times[o[k]]) / d
        a, b = values[o[k]], values[o[(k + 1) % m]]
        if self.interpolation == LINEAR:
            return [(1 - s) * x + s * y for x, y in zip(a, b)]
        if self.interpolation == SLERP:
            return slerp(a, b, s)
        if self.interpolation == SPLINE:
            if self.tangents is None:
                self.tangents = self.spline_tangents()
            out_a, in_b = self.tangents[k][1], self.tangents[(k + 1) % m][0]
            h = (2 * s**3 - 3 * s**2 + 1, -2 * s**3 + 3 * s**2, s**3 - 2 * s**2 + s, s**3 - s**2)
            return [h[0] * x + h[1] * y + h[2] * u + h[3] * w
                    for x, y, u, w in zip(a, b, out_a, in_b)]
        if self.intermediates is None:
            self.intermediates = self.squad_intermediates()
        aa, bb = self.intermediates[k][0], self.intermediates[(k + 1) % m][1]
        return slerp(slerp(a, b, s), slerp(aa, bb, s), 2 * s * (1 - s))


def normalized(q):
    n = math.sqrt(sum(x * x for x in q))
    if n * n <= EPSILON:
        return [0.0, 0.0, 0.0, 1.0]
    return [x / n for x in q]


def qmul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def qconj(q):
    return [-q[0], -q[1], -q[2], q[3]]


def qlog(q):
    n = math.sqrt(q[0]**2 + q[1]**2 + q[2]**2)
    if n <= EPSILON:
        return [0.0, 0.0, 0.0]
    k = math.atan2(n, q[3]) / n
    return [k * q[0], k * q[1], k * q[2]]


def qexp(v):
    n = math.sqrt(sum(x * x for x in v))
    if n <= EPSILON:
        return [0.0, 0.0, 0.0, 1.0]
    k = math.sin(n) / n
    return [k * v[0], k * v[1], k * v[2], math.cos(n)]


def slerp(a, b, s):
    """M3G's slerp: no turn to the shorter arc; antipodal keys go through
    the perpendicular (docs/math.md 1.4)."""
    c = sum(x * y for x, y in zip(a, b))
    if c >= 1 - EPSILON:
        return [(1 - s) * x + s * y for x, y in zip(a, b)]
    if c <= -1 + EPSILON:
        p = [-a[1], a[0], -a[3], a[2]]
        wa, wp = math.sin((1 - s) * math.pi / 2), math.sin(s * math.pi / 2)
        return [wa * x + wp * y for x, y in zip(a, p)]
    theta = math.acos(c)
    wa, wb = math.sin((1 - s) * theta) / math.sin(theta), math.sin(s * theta) / math.sin(theta)
    return [wa * x + wb * y for x, y in zip(a, b)]


class Model:
    """The objects of one file, as far as animation goes."""

    def __init__(self):
        self.objects = {}  # index -> (class name, userID, [track indices])
        self.controllers = {}  # index -> dict
        self.sequences = {}  # index -> Sequence
        self.tracks = {}  # index -> (sequence, controller or 0, property)
        self.authoring = ''
        self.table = {}  # userID -> name, from Swerve Author's name table

    def name(self, index):
        cls, uid, _ = self.objects[index]
        if uid in self.table:
            return '%s%d_%s' % (cls, index, self.table[uid])
        return '%s%d' % (cls, index) + ('_uid%d' % uid if uid else '')

    def bindings(self):
        """[(target, property name, sequence index, controller index)] for
        every track some object owns."""
        out = []
        for index in sorted(self.objects):
            for t in self.objects[index][2]:
                seq, ctl, prop = self.tracks[t]
                pname = PROPERTIES[prop - 256] if 256 <= prop <= 276 else 'property%d' % prop
                out.append(('%s.%s' % (self.name(index), pname), pname, seq, ctl))
        return out

    def targets(self):
        return {target: (prop, self.sequences[seq].components)
                for target, prop, seq, _ in self.bindings()}

    def position(self, ctl, world_ms):
        c = self.controllers[ctl]
        return c['ref_sequence'] + c['speed'] * (world_ms - c['ref_world'])

    def active(self, ctl, world_ms):
        c = self.controllers[ctl]
        return c['start'] == c['end'] or c['start'] <= world_ms < c['end']

    def animate(self, world_ms):
        """What M3G's animate() gives each target at `world_ms`: the sum of
        weight x sample over its tracks with an active controller, an
        orientation normalized, clamped as M3G clamps; None where no track
        with weight plays."""
        sums = {}
        for target, prop, seq, ctl in self.bindings():
            entry = sums.setdefault(target, [prop, 0.0, None])
            if not ctl or not self.active(ctl, world_ms):
                continue
            w = self.controllers[ctl]['weight']
            v = self.sequences[seq].sample(self.position(ctl, world_ms))
            entry[1] += w
            entry[2] = [w * x for x in v] if entry[2] is None else [a + w * x for a, x in zip(entry[2], v)]
        out = {}
        for target, (prop, weight, value) in sums.items():
            if not weight > 0:
                out[target] = None
                continue
            if prop == 'orientation':
                value = normalized(value) if sum(x * x for x in value) > 0 else [0.0, 0.0, 0.0, 1.0]
            elif prop in ('visibility', 'pickability'):
                value = [1.0 if value[0] >= 0.5 else 0.0]
            elif prop in CLAMP:
                lo, hi = CLAMP[prop]
                value = [min(max(x, lo), hi) for x in value]
            out[target] = value
        return out


def name_table(authoring):
    """{userID: kfb name part} from the AuthoringField's Swerve Author name
    table: the lines between <SwerveAuthor2NameTable> and its end tag,
    each "<ID> <name>" (the first line of an ID counts); the name without
    trailing blanks, cut to 64 bytes, every byte but a letter, a digit,
    '_' and '-' as '_'."""
    lines = authoring.split(b'\n')
    table, inside = {}, False
    for line in lines:
        if line.endswith(b'\r'):
            line = line[:-1]
        if not inside:
            inside = line == b'<SwerveAuthor2NameTable>'
            continue
        if line == b'</SwerveAuthor2NameTable>':
            break
        digits = len(line) - len(line.lstrip(b'0123456789'))
        if not 0 < digits <= 10 or line[digits:digits + 1] != b' ':
            continue
        uid, name = int(line[:digits]), line[digits + 1:].rstrip(b' \t\r')
        if not 0 < uid < 2**32 or not name or uid in table:
            continue
        table[uid] = ''.join(chr(c) if chr(c).isascii() and (chr(c).isalnum() or chr(c) in '_-')
                             else '_' for c in name[:64])
    return table


def read_sequence(s):
    interpolation, repeat, encoding = s.u8(), s.u8(), s.u8()
    duration, first, last, components, count = s.u32(), s.u32(), s.u32(), s.u32(), s.u32()
    if interpolation not in (LINEAR, SLERP, SPLINE, SQUAD, STEP) or repeat not in (CONSTANT, LOOP):
        raise Error('KeyframeSequence: bad enumeration')
    if encoding > 2 or not 1 <= duration <= 0x7FFFFFFF or components < 1 or count < 1:
        raise Error('KeyframeSequence: bad field')
    if first >= count or last >= count:
        raise Error('KeyframeSequence: valid range out of bounds')
    if interpolation in (SLERP, SQUAD) and components != 4:
        raise Error('KeyframeSequence: quaternions have 4 components')
    bias = scale = None
    if encoding:
        bias = [s.float() for _ in range(components)]
        scale = [s.float() for _ in range(components)]
    times, values = [], []
    for _ in range(count):
        t = s.u32()
        if t > 0x7FFFFFFF:
            raise Error('KeyframeSequence: key time out of range')
        times.append(t)
        if encoding == 0:
            values.append([s.float() for _ in range(components)])
        else:
            div = f32(255.0 if encoding == 1 else 65535.0)
            q = [s.u8() if encoding == 1 else struct.unpack('<H', s.take(2))[0]
                 for _ in range(components)]
            try:
                values.append([f32(b + f32(f32(c * x) / div)) for b, c, x in zip(bias, scale, q)])
            except OverflowError:
                raise Error('KeyframeSequence: a key decodes beyond the float range')
    s.done()
    return Sequence(interpolation, repeat, duration, first, last, times, values)


def read(data):
    """The Model of an M3G file; Error if M3G would refuse it."""
    if data[:12] != IDENTIFIER:
        raise Error('not an M3G file')
    model = Model()
    at, section, index, external = 12, 0, 0, False
    total = None
    while at < len(data):
        if len(data) - at < 13:
            raise Error('truncated section')
        scheme, length, inflated = struct.unpack_from('<BII', data, at)
        if scheme > 1 or length < 13 or at + length > len(data) or (section == 0 and scheme):
            raise Error('bad section header')
        if zlib.adler32(data[at:at + length - 4]) != struct.unpack_from('<I', data, at + length - 4)[0]:
            raise Error('checksum')
        body = data[at + 9:at + length - 4]
        if scheme:
            if inflated:
                d = zlib.decompressobj()
                try:
                    body = d.decompress(body, inflated + 1)
                except zlib.error as e:
                    raise Error('zlib: %s' % e)
                if len(body) != inflated or not d.eof or d.unused_data:
                    raise Error('zlib section of the wrong length')
            else:
                body = b''
        elif inflated != len(body):
            raise Error('UncompressedLength')
        pos = 0
        while pos < len(body):
            if len(body) - pos < 5:
                raise Error('truncated object')
            kind, n = struct.unpack_from('<BI', body, pos)
            index += 1
            if pos + 5 + n > len(body):
                raise Error('object past its section')
            s = Stream(body[pos + 5:pos + 5 + n], CLASSES[kind] if kind < 23 else 'object')
            pos += 5 + n
            if (section == 0) != (kind == 0) or (section == 0 and index != 1):
                raise Error('the header, alone in section 0')
            if (kind == 255) != (external and section == 1):
                raise Error('an external reference out of place')
            if kind == 0:
                if s.take(2) != b'\x01\x00':
                    raise Error('version')
                flag = s.u8()
                if flag > 1:
                    raise Error('Boolean')
                external, total = bool(flag), s.u32()
                s.u32()
                raw = s.data[s.at:s.data.find(b'\0', s.at)]
                model.authoring = s.string()
                model.table = name_table(raw)
                s.done()
                if total > len(data) or total < at + length:
                    raise Error('TotalFileSize')
                data = data[:total]  # M3G stops reading there
                continue
            if kind == 255:
                uri = s.string()
                s.done()
                if not uri.lower().endswith('.png'):
                    raise Error('an external reference to another file')
                model.objects[index] = ('ExternalReference', 0, [])
                continue
            if kind >= 23:
                raise Error('reserved ObjectType')
            uid, ntracks = s.u32(), s.u32()
            tracks = [s.u32() for _ in range(ntracks)]
            for t in tracks:
                if not 0 < t < index or model.objects[t][0] != 'AnimationTrack':
                    raise Error('animationTracks: not an earlier AnimationTrack')
            if len(set(tracks)) != len(tracks):
                raise Error('a track listed twice')
            ids = []
            for _ in range(s.u32()):
                ids.append(s.u32())
                s.take(s.u32())
            if len(set(ids)) != len(ids):
                raise Error('duplicate user parameter ID')
            model.objects[index] = (CLASSES[kind], uid, tracks)
            if kind == 1:
                c = {'speed': s.float(), 'weight': s.float(), 'start': s.i32(), 'end': s.i32(),
                     'ref_sequence': s.float(), 'ref_world': s.i32()}
                s.done()
                if c['weight'] < 0 or c['start'] > c['end']:
                    raise Error('AnimationController: bad weight or interval')
                model.controllers[index] = c
            elif kind == 2:
                seq, ctl, prop = s.u32(), s.u32(), s.u32()
                s.done()
                if not 0 < seq < index or model.objects[seq][0] != 'KeyframeSequence':
                    raise Error('AnimationTrack: not a KeyframeSequence')
                if ctl and (ctl >= index or model.objects[ctl][0] != 'AnimationController'):
                    raise Error('AnimationTrack: not an AnimationController')
                model.tracks[index] = (seq, ctl, prop)
            elif kind == 19:
                model.sequences[index] = read_sequence(s)
        at += length
        section += 1
    if section == 0 or index < 2:
        raise Error('no objects')
    for seq, _, prop in model.tracks.values():
        n = model.sequences[seq].components
        if 256 <= prop <= 276:
            counts = COUNTS.get(PROPERTIES[prop - 256], (1,))
            if counts is not None and n not in counts:
                raise Error('AnimationTrack: a property of the wrong component count')
    for cls, _, tracks in model.objects.values():
        counts = {}
        for t in tracks:
            seq, _, prop = model.tracks[t]
            if 256 <= prop <= 276 and not has(cls, PROPERTIES[prop - 256]):
                raise Error('%s: a track on a property it does not have' % cls)
            if counts.setdefault(prop, model.sequences[seq].components) != model.sequences[seq].components:
                raise Error('%s: two tracks on one property, of different component counts' % cls)
    return model
