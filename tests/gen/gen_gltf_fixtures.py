# SPDX-License-Identifier: MIT
"""Writes small glTF 2.0 files that exercise kfc's importer: every sampler
kind (STEP, LINEAR, CUBICSPLINE) on every path (translation, rotation, scale,
weights), as .gltf with an external .bin, as .gltf with a base64 data URI and
as .glb; a byteStride on a view no animation uses, a sparse accessor,
normalized bytes and shorts for rotations and weights; node names YAML and
target lists must carry as they are, extensions kfc ignores, overlapping
buffer views, a byte order mark; InterpolationTest.glb's key times (frames
of 1/24 s); derived names that collide (kfc_gltf.h's naming rule), clips of
several lengths. invalid_cases() lists broken and hostile documents with the
message each must get.

    gen_gltf_fixtures.py DIR     writes DIR/*.gltf, *.bin, *.glb
    gen_gltf_fixtures.py DIR --invalid
                                 also writes the invalid cases (fuzzing seeds)

Each file's animations are described by a JSON sidecar (NAME.expect.json):
for every channel, the node object name, the path, the interpolation, the
key times (s) and the decoded outputs, which the reference sampler
(gltf_reference.py) evaluates independently of kfc."""
import base64
import json
import math
import os
import random
import struct
import sys

FLOAT, BYTE, UBYTE, SHORT, USHORT = 5126, 5120, 5121, 5122, 5123
FMT = {FLOAT: 'f', BYTE: 'b', UBYTE: 'B', SHORT: 'h', USHORT: 'H'}
SIZE = {FLOAT: 4, BYTE: 1, UBYTE: 1, SHORT: 2, USHORT: 2}
TYPE = {1: 'SCALAR', 3: 'VEC3', 4: 'VEC4'}


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def decode(c, ctype, normalized):
    """The spec's conversion of a stored component (3.11, animation)."""
    if not normalized:
        return f32(c) if ctype == FLOAT else float(c)
    return {BYTE: lambda v: max(v / 127.0, -1.0), UBYTE: lambda v: v / 255.0,
            SHORT: lambda v: max(v / 32767.0, -1.0), USHORT: lambda v: v / 65535.0}[ctype](c)


def encode(x, ctype):
    if ctype == FLOAT:
        return x
    scale = {BYTE: 127, UBYTE: 255, SHORT: 32767, USHORT: 65535}[ctype]
    return int(round(x * scale))


class Doc:
    def __init__(self):
        self.bin = bytearray()
        self.gltf = {'asset': {'version': '2.0', 'generator': 'gen_gltf_fixtures.py'},
                     'buffers': [], 'bufferViews': [], 'accessors': [], 'nodes': [],
                     'meshes': [], 'animations': []}
        self.expect = []

    def view(self, data, stride=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        v = {'buffer': 0, 'byteOffset': len(self.bin), 'byteLength': len(data)}
        if stride:
            v['byteStride'] = stride
        self.bin += data
        self.gltf['bufferViews'].append(v)
        return len(self.gltf['bufferViews']) - 1

    def accessor(self, values, comps, ctype=FLOAT, normalized=False, sparse=None, minmax=False):
        stored = [encode(x, ctype) for x in values]
        count = len(values) // comps
        acc = {'componentType': ctype, 'count': count, 'type': TYPE[comps]}
        if normalized:
            acc['normalized'] = True
        if sparse is None:
            acc['bufferView'] = self.view(struct.pack('<%d%s' % (len(stored), FMT[ctype]), *stored))
            decoded = [decode(c, ctype, normalized) for c in stored]
        else:
            # zeros, with the listed elements substituted
            idx = sparse
            sub = [stored[i * comps + k] for i in idx for k in range(comps)]
            acc['sparse'] = {'count': len(idx),
                             'indices': {'bufferView': self.view(struct.pack('<%dH' % len(idx), *idx)),
                                         'componentType': USHORT},
                             'values': {'bufferView': self.view(struct.pack('<%d%s' % (len(sub), FMT[ctype]), *sub))}}
            decoded = [0.0] * len(values)
            for i in idx:
                for k in range(comps):
                    decoded[i * comps + k] = decode(stored[i * comps + k], ctype, normalized)
        if minmax:
            acc['min'] = [min(values)]
            acc['max'] = [max(values)]
        self.gltf['accessors'].append(acc)
        return len(self.gltf['accessors']) - 1, decoded

    def node(self, name=None, targets=0):
        n = {}
        if name:
            n['name'] = name
        if targets:
            self.gltf['meshes'].append({'primitives': [{'attributes': {'POSITION': 0},
                                                        'targets': [{'POSITION': 0}] * targets}]})
            n['mesh'] = len(self.gltf['meshes']) - 1
        self.gltf['nodes'].append(n)
        return len(self.gltf['nodes']) - 1

    def skin(self, joints):
        self.gltf.setdefault('skins', []).append({'joints': joints})

    def object_name(self, index):
        """kfc's object name for node `index` (kfc_gltf.h): its name if it is
        not empty, not another node's fallback name "node<k>", and either
        no other node has it or it is the only skin joint among the nodes
        that have it; else "node<index>"."""
        name = self.gltf['nodes'][index].get('name')
        names = [n.get('name') for n in self.gltf['nodes']]
        joints = {j for s in self.gltf.get('skins', []) for j in s['joints']}
        own = 'node%d' % index
        if not name:
            return own
        if name.startswith('node') and name[4:].isdigit() and name[4:].isascii() and name != own:
            return own
        if names.count(name) == 1:
            return name
        named_joints = [i for i in joints if names[i] == name]
        return name if named_joints == [index] else own

    def controller_name(self, index):
        """The same rule for an animation's controller ("animation<index>")."""
        name = self.gltf['animations'][index].get('name')
        names = [a.get('name') for a in self.gltf['animations']]
        own = 'animation%d' % index
        if (not name or names.count(name) > 1 or
                (name.startswith('animation') and name[9:].isdigit() and name != own)):
            return own
        return name

    def animation(self, name, channels):
        anim = {'channels': [], 'samplers': []}
        if name:
            anim['name'] = name
        exp = {'name': name, 'channels': []}
        for node, path, interp, times, outputs, comps, opts in channels:
            ti, tdec = self.accessor(times, 1, minmax=True)
            oi, odec = self.accessor(outputs, comps, **opts)
            anim['samplers'].append({'input': ti, 'output': oi, 'interpolation': interp})
            anim['channels'].append({'sampler': len(anim['samplers']) - 1,
                                     'target': {'node': node, 'path': path}})
            exp['channels'].append({'object': self.object_name(node), 'path': path,
                                    'interpolation': interp, 'times': tdec, 'outputs': odec,
                                    'width': len(odec) // comps // len(tdec) // (3 if interp == 'CUBICSPLINE' else 1)})
        self.gltf['animations'].append(anim)
        self.expect.append(exp)

    def write_expect(self):
        """The sidecar, with each animation's controller name."""
        for i, exp in enumerate(self.expect):
            exp['controller'] = self.controller_name(i)
        return self.expect

    def write(self, directory, name, kind, bom=False):
        g = json.loads(json.dumps(self.gltf))
        data = bytes(self.bin)
        if kind == 'bin':
            g['buffers'] = [{'byteLength': len(data), 'uri': name + ' data.bin'.replace(' ', '%20')}]
            with open(os.path.join(directory, name + ' data.bin'), 'wb') as f:
                f.write(data)
            path = name + '.gltf'
        elif kind == 'data':
            g['buffers'] = [{'byteLength': len(data),
                             'uri': 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()}]
            path = name + '.gltf'
        else:
            g['buffers'] = [{'byteLength': len(data)}]
            path = name + '.glb'
        if kind == 'glb':
            js = json.dumps(g).encode()
            js += b' ' * (-len(js) % 4)
            pad = data + b'\0' * (-len(data) % 4)
            body = struct.pack('<II', len(js), 0x4E4F534A) + js + struct.pack('<II', len(pad), 0x004E4942) + pad
            with open(os.path.join(directory, path), 'wb') as f:
                f.write(struct.pack('<III', 0x46546C67, 2, 12 + len(body)) + body)
        else:
            with open(os.path.join(directory, path), 'w', encoding='utf-8-sig' if bom else 'utf-8') as f:
                json.dump(g, f, indent=1)
        with open(os.path.join(directory, path + '.expect.json'), 'w') as f:
            json.dump(self.write_expect(), f)
        return path


def unit_quat(rng):
    q = [rng.uniform(-1, 1) for _ in range(4)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]


def build(seed):
    """One document: every path with every interpolation, one animation."""
    rng = random.Random(seed)
    d = Doc()
    # a view with a byteStride that no animation accessor uses (vertex data)
    d.gltf['bufferViews'].append({'buffer': 0, 'byteOffset': 0, 'byteLength': 12, 'byteStride': 12})
    d.gltf['accessors'].append({'bufferView': 0, 'componentType': FLOAT, 'count': 1, 'type': 'VEC3'})
    d.bin += struct.pack('<3f', 0, 0, 0)
    channels = []
    for interp in ('STEP', 'LINEAR', 'CUBICSPLINE'):
        n = 4 + rng.randrange(4)
        t = 0.1 + rng.random() * 0.3
        times = []
        for _ in range(n):
            times.append(round(t, 4))
            t += 0.05 + rng.random() * 0.4
        parts = 3 if interp == 'CUBICSPLINE' else 1
        for path in ('translation', 'rotation', 'scale', 'weights'):
            targets = 3 if path == 'weights' else 0
            node = d.node('%s_%s' % (path, interp.lower()) if rng.random() < 0.8 else None, targets)
            comps = {'translation': 3, 'scale': 3, 'rotation': 4, 'weights': 1}[path]
            width = targets if path == 'weights' else 1
            out = []
            q = unit_quat(rng)
            for k in range(n):
                for p in range(parts):
                    value = p == 1 or parts == 1
                    for _ in range(width):
                        if path == 'rotation' and value:
                            # near the previous key (sometimes the far sign)
                            q = [x + rng.uniform(-0.4, 0.4) for x in q]
                            m = math.sqrt(sum(x * x for x in q))
                            q = [x / m for x in q]
                            s = -1 if rng.random() < 0.3 else 1
                            out += [s * x for x in q]
                        elif path == 'rotation':
                            out += [rng.uniform(-0.5, 0.5) for _ in range(4)]
                        elif path == 'weights':
                            out.append(rng.uniform(0, 1) if value else rng.uniform(-1, 1))
                        else:
                            out += [rng.uniform(-2, 2) for _ in range(comps)]
            opts = {}
            if path in ('rotation', 'weights') and interp != 'CUBICSPLINE' and rng.random() < 0.6:
                if path == 'weights':
                    opts = {'ctype': rng.choice([UBYTE, USHORT]), 'normalized': True}
                else:
                    opts = {'ctype': rng.choice([BYTE, SHORT]), 'normalized': True}
            if path == 'translation' and interp == 'LINEAR':
                opts = {'sparse': sorted(rng.sample(range(n), 2))}
            channels.append((node, path, interp, times, out, comps, opts))
    d.animation('take%d' % seed, channels)
    return d


def names_case():
    """Node names a YAML source and a target list must carry as they are
    (spaces, quotes, YAML indicators, a line break, non-ASCII), duplicates,
    a name that is another node's fallback name, unnamed nodes; extensions
    kfc may ignore although the file requires them; and channels kfc skips
    (KHR_animation_pointer) beside those it imports."""
    d = Doc()
    names = ['a b', 'x: y', '#c', '- d', "'q'", '"dq"', '\u00e9 \u65e5\u672c', 'new\nline',
             'node0', 'dup', 'dup', None, '', 'a.b.translation', '[x] {y} &a *b !t %p @ ` | >',
             'null', 'node11']
    nodes = [d.node(n) for n in names]
    channels = []
    for i, node in enumerate(nodes):
        path = ('translation', 'scale')[i % 2]
        channels.append((node, path, ('LINEAR', 'STEP', 'CUBICSPLINE')[i % 3],
                         [0.0, 0.5 + i / 64, 1.25],
                         [x * (i + 1) / 7 for x in range(27 if i % 3 == 2 else 9)], 3, {}))
    d.animation('take: one', channels)
    anim = d.gltf['animations'][0]
    anim['channels'].append({'sampler': 0, 'target': {
        'path': 'pointer', 'extensions': {'KHR_animation_pointer': {
            'pointer': '/materials/0/pbrMetallicRoughness/baseColorFactor'}}}})
    d.gltf['extensionsUsed'] = ['KHR_animation_pointer', 'KHR_technique_webgl',
                                'KHR_materials_pbrSpecularGlossiness', 'EXT_mesh_gpu_instancing']
    d.gltf['extensionsRequired'] = d.gltf['extensionsUsed'][1:]
    return d


def node_pointer(node, path):
    """A channel target as KHR_animation_pointer writes node `node`'s
    `path`: the same animation as {"node": node, "path": path}."""
    return {'path': 'pointer',
            'extensions': {'KHR_animation_pointer': {'pointer': '/nodes/%d/%s' % (node, path)}}}


def pointer_case(seed):
    """build(seed) with every other channel's target written through
    KHR_animation_pointer, which the file requires: the pointers to node
    translation, rotation, scale and weights are the core targets."""
    d = build(seed)
    for anim in d.gltf['animations']:
        for i, ch in enumerate(anim['channels']):
            if i % 2 == 0:
                ch['target'] = node_pointer(ch['target']['node'], ch['target']['path'])
    d.gltf['extensionsUsed'] = d.gltf['extensionsRequired'] = ['KHR_animation_pointer']
    return d


def step_keys_case():
    """InterpolationTest.glb's keys: 24 frames a second, so key times such as
    11/24 s that float32 cannot hold exactly. At a key's own time (as an
    exporter writes it, the shortest decimal of the float) each sampler
    plays that key's value: STEP jumps there, not one key later."""
    d = Doc()
    times = [k * 11 / 24 for k in range(6)]
    steps = [0, 0, 0, 10, 0, 0, 0, 10, 0, -5, 2.5, 0, 0, 1, 0, 7.25, 0, 0]
    d.animation('Step Translation', [(d.node('Step'), 'translation', 'STEP', times, steps, 3, {})])
    d.animation('Linear Translation', [(d.node('Linear'), 'translation', 'LINEAR', times, steps,
                                        3, {})])
    cubic = []
    for k in range(6):
        cubic += [1, -1, 0.5] + steps[3 * k:3 * k + 3] + [-2, 0, 1]
    d.animation('CubicSpline Translation', [(d.node('Cubic'), 'translation', 'CUBICSPLINE', times,
                                             cubic, 3, {})])
    return d


def clips_case():
    """Derived names that collide, each settled by kfc's rule: nodes that
    share a name (a mesh node and a skin joint: the joint keeps it; two
    joints: neither), a node named another's fallback name, animations
    sharing a name, one named another's fallback name, and animation 'a' on
    node 'b/c' beside 'a/b' on node 'c' (one sequence name, twice). Channels
    of one animation end at different times (a looping clip's length is its
    longest), the first keys not always at 0."""
    d = Doc()
    head_mesh, head_joint = d.node('Head'), d.node('Head')
    arm_a, arm_b = d.node('Arm'), d.node('Arm')
    bc, c = d.node('b/c'), d.node('c')
    unnamed, fake = d.node(), d.node('node6')
    d.skin([head_joint, arm_a, arm_b])
    t = [0.0, 0.5, 1.25]
    v3 = [0, 1, 2, 3, 4, 5, -1, 0.5, 2]
    d.animation(None, [(unnamed, 'translation', 'LINEAR', t, v3, 3, {})])
    d.animation('animation0', [(fake, 'scale', 'STEP', [0.25, 1.0], [1, 1, 1, 2, 2, 2], 3, {})])
    d.animation('a', [(bc, 'translation', 'LINEAR', t, v3, 3, {})])
    d.animation('a/b', [(c, 'translation', 'LINEAR', [0.5, 2.0], [1, 1, 1, 3, 0, -1], 3, {})])
    q = [0, 0, 0, 1, 0, 0.70710677, 0, 0.70710677, 0, 1, 0, 0]
    cubic = []
    for k in range(3):
        cubic += [0.5, 0, -0.5] + v3[3 * k:3 * k + 3] + [0, 1, 0]
    d.animation('Walk', [(head_joint, 'rotation', 'LINEAR', [0.25, 1.0, 2.0], q, 4, {}),
                         (head_mesh, 'translation', 'CUBICSPLINE', [0.0, 0.75, 1.5], cubic, 3, {})])
    d.animation('Walk', [(arm_a, 'scale', 'STEP', t, v3, 3, {}),
                         (arm_b, 'translation', 'LINEAR', [0.1, 0.6], [0, 0, 0, 1, 2, 3], 3, {})])
    return d


def overlap_case():
    """Buffer views that overlap, as the spec allows: input and output
    accessors read through one view spanning the buffer (at their own
    byteOffsets), and one through a second view overlapping the first."""
    d = Doc()
    times = [0.0, 0.25, 1.0]
    out = [0.5, -1, 2, 1, 1, 1, -3, 0.25, 4]
    d.animation('overlap', [(d.node('shared_a'), 'translation', 'LINEAR', times, out, 3, {}),
                            (d.node('shared_b'), 'scale', 'STEP', times, out, 3, {})])
    views = d.gltf['bufferViews']
    for a in d.gltf['accessors']:
        a['byteOffset'] = views[a['bufferView']]['byteOffset']
        a['bufferView'] = 0
    d.gltf['bufferViews'] = [{'buffer': 0, 'byteOffset': 0, 'byteLength': len(d.bin)},
                             {'buffer': 0, 'byteOffset': 4, 'byteLength': len(d.bin) - 4}]
    d.gltf['accessors'][3].update(bufferView=1, byteOffset=d.gltf['accessors'][3]['byteOffset'] - 4)
    return d


def base_case():
    """A valid one-channel document (data URI) that the cases below break."""
    d = Doc()
    node = d.node('n')
    d.animation('a', [(node, 'translation', 'LINEAR', [0.0, 1.0], [0, 0, 0, 1, 2, 3], 3, {})])
    g = d.gltf
    g['buffers'] = [{'byteLength': len(d.bin),
                     'uri': 'data:application/octet-stream;base64,' + base64.b64encode(bytes(d.bin)).decode()}]
    return g


def glb_bytes(g, bin_bytes, version=2, extra=b''):
    """`g` as a GLB file: its JSON chunk (padded with spaces), `extra`, then
    a BIN chunk of `bin_bytes` unless None."""
    js = json.dumps(g).encode()
    js += b' ' * (-len(js) % 4)
    body = struct.pack('<II', len(js), 0x4E4F534A) + js + extra
    if bin_bytes is not None:
        body += struct.pack('<II', len(bin_bytes), 0x004E4942) + bin_bytes
    return struct.pack('<III', 0x46546C67, version, 12 + len(body)) + body


def second_buffer_glb(second):
    """base_case() as a GLB, its data in the BIN chunk (buffer 0), with a
    second buffer `second` that nothing uses."""
    g = base_case()
    data = base64.b64decode(g['buffers'][0]['uri'].split(',', 1)[1])
    g['buffers'] = [{'byteLength': len(data)}, second]
    return glb_bytes(g, data)


def invalid_cases():
    """(file name, bytes, expected message part) for broken and hostile glTF."""
    cases = []

    def case(name, mutate, expect):
        g = base_case()
        mutate(g)
        cases.append((name + '.gltf', json.dumps(g).encode(), expect))

    cases.append(('syntax.gltf', b'{"asset": {"version": "2.0"},\n  "animations": [}', 'syntax.gltf:2:'))
    cases.append(('deep.gltf', b'[' * 100000, 'error: maximum parsing depth'))
    cases.append(('duplicate_key.gltf', b'{"asset": {"version": "2.0"}, "asset": {}}', 'duplicate'))
    cases.append(('truncated.glb', struct.pack('<III', 0x46546C67, 2, 1000) + b'\0' * 8,
                  'GLB header says 1000 bytes'))
    # A whole 12-byte header and nothing after it: a GLB without its JSON chunk.
    cases.append(('header_only.glb', struct.pack('<III', 0x46546C67, 2, 12), 'error: GLB: no JSON chunk'))
    case('count', lambda g: g['accessors'][1].update(count=1),
         'invalid_count.gltf: /animations/0/samplers/0/output: error: accessor 1 has 1 elements, expected 2')
    case('view_past_buffer', lambda g: g['bufferViews'][0].update(byteOffset=1000),
         '/bufferViews/0: error: bytes 1000 to 1008 are past the end of buffer 0')
    case('missing_buffer', lambda g: g['bufferViews'][0].update(buffer=5),
         '/bufferViews/0/buffer: error: buffer 5 does not exist')
    case('missing_file', lambda g: g['buffers'][0].update(uri='nowhere.bin'),
         "/buffers/0/uri: error: cannot read URI 'nowhere.bin': No such file")
    case('huge_count', lambda g: g['accessors'][1].update(count=4294967295),
         '/accessors/1: error: 4294967295 elements from byte 0 do not fit')
    case('huge_sparse', lambda g: (g['accessors'][1].pop('bufferView'), g['accessors'][1].update(
        count=4000000000)), 'without a bufferView are more than kfc accepts')
    case('offset_overflow', lambda g: g['accessors'][1].update(byteOffset=4294967292),
         '/accessors/1: error: 2 elements from byte 4294967292 do not fit')
    case('stride', lambda g: g['bufferViews'][1].update(byteStride=12),
         'invalid_stride.gltf: /accessors/1/bufferView: error: bufferView 1 has a byteStride (12): '
         'glTF allows one only on vertex-attribute views, and animation data is tightly packed; '
         'this one is already (elements of 12 bytes), so remove "byteStride" from /bufferViews/1, '
         'or re-export\n')
    # key times and values interleaved in one view: no edit of the JSON helps
    case('stride_interleaved', lambda g: g['bufferViews'][1].update(byteStride=16),
         'invalid_stride_interleaved.gltf: /accessors/1/bufferView: error: bufferView 1 has a '
         'byteStride (16): glTF allows one only on vertex-attribute views, and animation data is '
         'tightly packed; its elements of 12 bytes lie 16 apart, interleaved with other data: '
         're-export the file\n')
    case('required_extension', lambda g: g.update(extensionsRequired=['EXT_meshopt_compression']),
         "invalid_required_extension.gltf: /extensionsRequired/0: error: the file requires "
         "extension 'EXT_meshopt_compression', which kfc does not support: it compresses buffer "
         "views, animation data among them; write the file without it (decompressed) and import "
         "that\n")
    case('required_unknown', lambda g: g.update(extensionsRequired=['KHR_materials_ior', 'ACME_warp']),
         "invalid_required_unknown.gltf: /extensionsRequired/1: error: the file requires extension "
         "'ACME_warp', which kfc does not support: write the file without it and import that\n")
    # What a terminal acts on (C0, C1: U+009B is CSI) shows as \xNN in a message.
    case('required_controls', lambda g: g.update(extensionsRequired=['ACME_\x1b[2J\u009b2J']),
         "invalid_required_controls.gltf: /extensionsRequired/0: error: the file requires extension "
         "'ACME_\\x1b[2J\\xc2\\x9b2J', which kfc does not support: write the file without it and "
         "import that\n")
    case('interpolation', lambda g: g['animations'][0]['samplers'][0].update(interpolation='CUBIC'),
         "/animations/0/samplers/0/interpolation: error: unknown interpolation 'CUBIC'")
    case('interpolation_case', lambda g: g['animations'][0]['samplers'][0].update(interpolation='linear'),
         "invalid_interpolation_case.gltf: /animations/0/samplers/0/interpolation: error: unknown "
         "interpolation 'linear' (expected LINEAR, STEP or CUBICSPLINE); did you mean 'LINEAR'?\n")
    case('input_type', lambda g: g['animations'][0]['samplers'][0].update(input=1),
         "/animations/0/samplers/0/input: error: accessor 1 must be FLOAT SCALAR")
    # What an accessor holds is judged before its size: VEC3 key times in
    # a view sized for SCALARs are not key times.
    case('input_vec3', lambda g: g['accessors'][0].update(type='VEC3'),
         "invalid_input_vec3.gltf: /animations/0/samplers/0/input: error: accessor 0 must be "
         "FLOAT SCALAR (key times)\n")
    case('output_vec4', lambda g: g['accessors'][1].update(type='VEC4'),
         "invalid_output_vec4.gltf: /animations/0/samplers/0/output: error: accessor 1 cannot hold "
         "translation: expected VEC3 FLOAT\n")
    case('node', lambda g: g['animations'][0]['channels'][0]['target'].update(node=9),
         "/animations/0/channels/0/target: error: node 9 does not exist")
    case('version', lambda g: g['asset'].update(version='1.0'), "/asset/version: error: glTF version 1.0")
    case('base64', lambda g: g['buffers'][0].update(uri='data:application/octet-stream;base64,@@@@'),
         "/buffers/0/uri: error: the data URI is not valid base64")
    case('animation_missing', lambda g: g.update(animations=[{'channels': 'x'}]),
         "/animations/0: error: expected an object with a 'channels' array")

    # Key times: the base case's buffer is 2 times then 2 VEC3 outputs.
    def data(g, times, outputs=(0, 0, 0, 1, 2, 3)):
        raw = struct.pack('<2f6f', *(list(times) + list(outputs)))
        g['buffers'][0]['uri'] = 'data:application/octet-stream;base64,' + base64.b64encode(raw).decode()

    case('times_equal', lambda g: data(g, (0.5, 0.5)),
         '/animations/0/samplers/0/input: error: accessor 0: key time 1 (0.5 s) is not greater')
    case('times_decreasing', lambda g: data(g, (1.0, 0.5)),
         '/animations/0/samplers/0/input: error: accessor 0: key time 1 (0.5 s) is not greater')
    case('times_negative', lambda g: data(g, (-1.0, 0.5)),
         '/animations/0/samplers/0/input: error: accessor 0: key time 0 (-1 s) is negative')
    case('times_nan', lambda g: data(g, (0.0, float('nan'))),
         '/accessors/0: error: element 1 is not a finite number')
    case('times_inf', lambda g: data(g, (0.0, float('inf'))),
         '/accessors/0: error: element 1 is not a finite number')
    case('output_nan', lambda g: data(g, (0.0, 1.0), (0, 0, 0, 1, float('nan'), 3)),
         '/accessors/1: error: element 1 is not a finite number')
    # Huge or malformed counts
    # A whole count past 32 bits is said to be too large, not malformed.
    case('count_2_40', lambda g: g['accessors'][1].update(count=2 ** 40),
         "invalid_count_2_40.gltf: /accessors/1: error: 'count' 1099511627776 is larger than any "
         "accessor kfc reads (at most 4294967295)\n")
    case('count_2_32_2', lambda g: g['accessors'][0].update(count=2 ** 32 + 2),
         "invalid_count_2_32_2.gltf: /accessors/0: error: 'count' 4294967298 is larger than any "
         "accessor kfc reads (at most 4294967295)\n")
    case('count_2_53', lambda g: g['accessors'][1].update(count=2 ** 53),
         "/accessors/1: error: 'count' 9007199254740992 is larger than any accessor kfc reads")
    case('count_2_53_real', lambda g: g['accessors'][1].update(count=2.0 ** 53),
         "/accessors/1: error: 'count' 9007199254740992 is larger than any accessor kfc reads")
    case('count_2_32_real', lambda g: g['accessors'][1].update(count=2.0 ** 32),
         "/accessors/1: error: 'count' 4294967296 is larger than any accessor kfc reads")
    case('sparse_count_huge', lambda g: g['accessors'][1].update(sparse={
        'count': 2 ** 32, 'indices': {'bufferView': 0, 'componentType': USHORT}, 'values': {'bufferView': 1}}),
        "/accessors/1/sparse: error: 'count' 4294967296 is larger than any accessor kfc reads "
        "(at most 4294967295)")
    case('view_length_huge', lambda g: g['bufferViews'][1].update(byteLength=2 ** 32),
         "/bufferViews/1: error: 'byteLength' 4294967296 is larger than any byte offset or length "
         "kfc reads (at most 4294967295)")
    case('view_stride_huge', lambda g: g['bufferViews'][1].update(byteStride=2 ** 32),
         "/bufferViews/1: error: 'byteStride' 4294967296 is larger than any byteStride glTF allows "
         "(at most 252)")
    case('component_type_huge', lambda g: g['accessors'][1].update(componentType=2 ** 32 + 5126),
         "/accessors/1: error: unknown componentType 4294972422")
    # An index likewise: past 2^31 it is too large, negative or fractional malformed.
    case('index_2_32_2', lambda g: g['accessors'][1].update(bufferView=2 ** 32 + 2),
         "/accessors/1: error: 'bufferView' 4294967298 is larger than any index kfc reads "
         "(at most 2147483647)")
    case('index_2_31', lambda g: g['accessors'][1].update(bufferView=2 ** 31),
         "/accessors/1: error: 'bufferView' 2147483648 is larger than any index kfc reads "
         "(at most 2147483647)")
    case('index_negative', lambda g: g['accessors'][1].update(bufferView=-1),
         "/accessors/1: error: 'bufferView' must be a non-negative integer index")
    case('index_fraction', lambda g: g['accessors'][1].update(bufferView=0.5),
         "/accessors/1: error: 'bufferView' must be a non-negative integer index")
    case('count_negative', lambda g: g['accessors'][1].update(count=-1),
         "/accessors/1: error: 'count' must be a non-negative integer")
    case('count_fraction', lambda g: g['accessors'][1].update(count=1.5),
         "/accessors/1: error: 'count' must be a non-negative integer")
    case('count_1e300', lambda g: g['accessors'][1].update(count=1e300),
         "/accessors/1: error: 'count' 1e+300 is larger than any accessor kfc reads")
    case('count_zero', lambda g: g['accessors'][1].update(count=0),
         "/accessors/1: error: 'count' must be an integer >= 1")
    case('sparse_count', lambda g: g['accessors'][1].update(sparse={
        'count': 3, 'indices': {'bufferView': 0, 'componentType': USHORT}, 'values': {'bufferView': 1}}),
        '/accessors/1/sparse: error: sparse count 3 is not in [1, 2]')
    # Offsets and lengths past buffers and views
    case('view_length_past_buffer', lambda g: g['bufferViews'][1].update(byteLength=1000),
         '/bufferViews/1: error: bytes 8 to 1008 are past the end of buffer 0 (32 bytes)')
    case('view_offset_huge', lambda g: g['bufferViews'][1].update(byteOffset=4294967295,
                                                                   byteLength=4294967295),
         '/bufferViews/1: error: bytes 4294967295 to 8589934590 are past the end of buffer 0')
    case('view_length_zero', lambda g: g['bufferViews'][1].update(byteLength=0),
         "/bufferViews/1: error: 'byteLength' must be an integer >= 1")
    case('accessor_past_view', lambda g: g['accessors'][1].update(byteOffset=4),
         '/accessors/1: error: 2 elements from byte 4 do not fit in bufferView 1 (24 bytes)')
    case('accessor_misaligned', lambda g: (g['bufferViews'][1].update(byteLength=20),
                                           g['accessors'][0].update(bufferView=1, byteOffset=2, count=1)),
         '/accessors/0: error: byteOffset 2 is not a multiple of the component size 4')
    case('view_missing', lambda g: g['accessors'][1].update(bufferView=7),
         '/accessors/1/bufferView: error: bufferView 7 does not exist (2 defined)')
    case('accessor_missing', lambda g: g['animations'][0]['samplers'][0].update(output=9),
         '/animations/0/samplers/0/output: error: accessor 9 does not exist (2 defined)')
    # Missing or malformed buffers
    case('no_buffers', lambda g: g.pop('buffers'),
         '/bufferViews/0/buffer: error: buffer 0 does not exist (0 defined)')
    case('buffer_without_uri', lambda g: g['buffers'][0].pop('uri'),
         "/buffers/0: error: a buffer without 'uri' must be the first, in a GLB file with a BIN chunk")
    case('unused_buffer_without_uri', lambda g: g['buffers'].append({'byteLength': 8}),
         "/buffers/1: error: a buffer without 'uri' must be the first, in a GLB file with a BIN chunk")
    case('buffer_longer_than_data', lambda g: g['buffers'][0].update(byteLength=1000),
         "/buffers/0/uri: error: byteLength 1000 is more than the data URI's 32 bytes")
    case('buffer_huge', lambda g: g['buffers'][0].update(byteLength=2 ** 31),
         '/buffers/0: error: a buffer of 2147483648 bytes is larger than kfc reads')
    case('base64_not_base64', lambda g: g['buffers'][0].update(uri='data:application/octet-stream,AAAA'),
         '/buffers/0/uri: error: a data URI must be base64')
    case('data_media_type', lambda g: g['buffers'][0].update(
        uri=g['buffers'][0]['uri'].replace('application/octet-stream', 'text/plain')),
        "/buffers/0/uri: error: a buffer's data URI must be data:application/octet-stream or "
        "data:application/gltf-buffer, not 'data:text/plain'")
    case('data_no_media_type', lambda g: g['buffers'][0].update(
        uri=g['buffers'][0]['uri'].replace('application/octet-stream', '')),
        "/buffers/0/uri: error: a buffer's data URI must be data:application/octet-stream or "
        "data:application/gltf-buffer, not 'data:'")
    case('base64_inner_padding', lambda g: g['buffers'][0].update(
        uri='data:application/octet-stream;base64,AA=A' + 'A' * 40),
        '/buffers/0/uri: error: the data URI is not valid base64')
    case('base64_short', lambda g: g['buffers'][0].update(uri=g['buffers'][0]['uri'][:-12]),
         "/buffers/0/uri: error: byteLength 32 is more than the data URI's")
    # A broken data URI read by a second accessor (a second animation's
    # channel): each read fails alike and keeps nothing (LeakSanitizer, in
    # the sanitizer build, sees any decode buffer left behind).
    def second_reader(g, uri):
        g['buffers'][0]['uri'] = uri(g['buffers'][0]['uri'])
        g['animations'].append(dict(g['animations'][0], name='b'))

    case('data_twice_short', lambda g: second_reader(g, lambda u: u[:-12]),
         "invalid_data_twice_short.gltf: /buffers/0/uri: error: byteLength 32 is more than the "
         "data URI's 24 bytes")
    case('data_twice_base64', lambda g: second_reader(g, lambda u: u[:-4] + '@@@@'),
         'invalid_data_twice_base64.gltf: /buffers/0/uri: error: the data URI is not valid base64')
    case('data_twice_padding', lambda g: second_reader(g, lambda u: u.replace(',', ',AA=A', 1)),
         'invalid_data_twice_padding.gltf: /buffers/0/uri: error: the data URI is not valid base64')
    case('uri_absolute', lambda g: g['buffers'][0].update(uri='/etc/x.bin'),
         "/buffers/0/uri: error: URI '/etc/x.bin' is an absolute path")
    case('uri_scheme', lambda g: g['buffers'][0].update(uri='file:///x.bin'),
         "/buffers/0/uri: error: URI 'file:///x.bin' has a scheme")
    # Deep nesting inside an otherwise valid document
    deep = json.dumps(base_case())[:-1] + ', "extras": ' + '{"a": ' * 3000 + '1' + '}' * 3000 + '}'
    cases.append(('deep_extras.gltf', deep.encode(), 'deep_extras.gltf:1:'))
    # Syntax errors near control bytes and broken UTF-8: quoted escaped, on one line
    cases.append(('syntax_control.gltf', b'{"asset": \n\x01\x1b[31m\r\n', "syntax_control.gltf:2:1: error: invalid token near '\\x01'"))
    cases.append(('syntax_utf8.gltf', b'{"a": \xff\xfe}', "syntax_utf8.gltf:1:"))
    # A NUL in a string: said so, not in jansson's words.
    cases.append(('nul_string.gltf', b'{"asset": {"version": "2.0"},\n "nodes": [{"name": "a\\u0000b"}]}',
                  "nul_string.gltf:2:30: error: a NUL character (\\u0000) is not allowed in a glTF "
                  "string near '\"a\\u0000b\"'\n"))
    cases.append(('syntax_newline_string.gltf', b'{"a": "x\ny"}', "syntax_newline_string.gltf:1:8: error: unexpected newline near '\"x'"))
    # The spec's refusals
    case('stride_input', lambda g: g['bufferViews'][0].update(byteStride=4),
         '/accessors/0/bufferView: error: bufferView 0 has a byteStride')
    case('stride_sparse', lambda g: (g['bufferViews'][0].update(byteStride=4), g['accessors'][1].update(sparse={
        'count': 1, 'indices': {'bufferView': 0, 'componentType': USHORT}, 'values': {'bufferView': 1}})),
        '/accessors/0/bufferView: error: bufferView 0 has a byteStride (4)')

    # A sparse accessor's own views: views 2 (12 bytes, the VEC3 values)
    # and 3 (2-byte indices) over the output's bytes.
    def sparse_views(g, values_stride, indices_stride):
        for length, stride in ((12, values_stride), (4, indices_stride)):
            g['bufferViews'].append({'buffer': 0, 'byteOffset': 8, 'byteLength': length})
            if stride:
                g['bufferViews'][-1]['byteStride'] = stride
        g['accessors'][1]['sparse'] = {'count': 1, 'indices': {'bufferView': 3, 'componentType': USHORT},
                                       'values': {'bufferView': 2}}

    case('stride_sparse_values', lambda g: sparse_views(g, 12, None),
         'invalid_stride_sparse_values.gltf: /accessors/1/sparse/values/bufferView: error: bufferView 2 '
         'has a byteStride (12): glTF allows one only on vertex-attribute views, and animation data is '
         'tightly packed; this one is already (elements of 12 bytes), so remove "byteStride" from '
         '/bufferViews/2, or re-export\n')
    case('stride_sparse_indices', lambda g: sparse_views(g, None, 4),
         'invalid_stride_sparse_indices.gltf: /accessors/1/sparse/indices/bufferView: error: bufferView 3 '
         'has a byteStride (4): glTF allows one only on vertex-attribute views, and animation data is '
         'tightly packed; its elements of 2 bytes lie 4 apart, interleaved with other data: re-export '
         'the file\n')
    case('normalized_float', lambda g: g['accessors'][1].update(normalized=True),
         '/accessors/1: error: a FLOAT accessor cannot be normalized')
    case('translation_short', lambda g: g['accessors'][1].update(componentType=SHORT, normalized=True),
         '/animations/0/samplers/0/output: error: accessor 1 cannot hold translation')
    case('matrix_node', lambda g: g['nodes'][0].update(matrix=[1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
         "/animations/0/channels/0/target: error: node 0 has a 'matrix'; an animated node must not")
    case('weights_no_morphs', lambda g: (g['animations'][0]['channels'][0]['target'].update(path='weights'),
                                         g['accessors'][1].update(type='SCALAR')),
         '/animations/0/channels/0/target: error: node 0 has no mesh with morph targets')
    case('cubic_one_key', lambda g: (g['accessors'][0].update(count=1), g['accessors'][1].update(type='SCALAR', count=3),
                                     g['animations'][0]['samplers'][0].update(interpolation='CUBICSPLINE')),
         '/animations/0/samplers/0/input: error: accessor 0 has 1 key; CUBICSPLINE needs at least 2')
    case('cubic_count', lambda g: g['animations'][0]['samplers'][0].update(interpolation='CUBICSPLINE'),
         '/animations/0/samplers/0/output: error: accessor 1 has 2 elements, expected 6')
    case('duplicate_target', lambda g: g['animations'][0]['channels'].append(g['animations'][0]['channels'][0]),
         "/animations/0/channels/1/target: error: a second channel of this animation animates node 0's translation")
    # KHR_animation_pointer targets that no valid file holds
    def pointer(g, text, core=False):
        g.update(extensionsUsed=['KHR_animation_pointer'], extensionsRequired=['KHR_animation_pointer'])
        channels = g['animations'][0]['channels']
        target = node_pointer(0, 'rotation')
        target['extensions']['KHR_animation_pointer']['pointer'] = text
        if core:  # beside the core channel
            channels.append({'sampler': 0, 'target': target})
        else:
            channels[0]['target'] = target

    at = ('/animations/0/channels/%d/target/extensions/KHR_animation_pointer/pointer: error: ')
    for name, text, expect in (
            ('leading_zero', '/nodes/00/translation', "'00' in '/nodes/00/translation' is not a "
             "node index (digits, without a sign or leading zeros)"),
            ('sign', '/nodes/+0/translation', "'+0' in '/nodes/+0/translation' is not a node "
             "index (digits, without a sign or leading zeros)"),
            ('range', '/nodes/1/translation', "'/nodes/1/translation' names node 1, which does "
             "not exist (1 defined)"),
            ('huge', '/nodes/99999999999999999999999/scale', "'/nodes/99999999999999999999999/scale' "
             "names node 99999999999999999999999, which does not exist (1 defined)"),
            ('node_only', '/nodes/0', "'/nodes/0' names node 0, not one of its properties (as in "
             "/nodes/0/rotation)"),
            ('inside', '/nodes/0/translation/1', "'/nodes/0/translation/1' points inside node 0's "
             "translation; the pointer ends at the property (/nodes/0/translation)"),
            ('relative', 'nodes/0/translation', "'nodes/0/translation' is not a JSON pointer: one "
             "starts with '/', as in /nodes/0/rotation")):
        case('pointer_' + name, lambda g, text=text: pointer(g, text),
             'invalid_pointer_%s.gltf: %s%s\n' % (name, at % 0, expect))
    case('pointer_missing', lambda g: g['animations'][0]['channels'][0].update(target={'path': 'pointer'}),
         "invalid_pointer_missing.gltf: %sa channel whose path is 'pointer' needs this string, the "
         "JSON pointer of what it animates (KHR_animation_pointer)\n" % (at % 0))
    # the spec's rule: one animation animates a property one way, not both
    case('pointer_and_core', lambda g: pointer(g, '/nodes/0/translation', core=True),
         "invalid_pointer_and_core.gltf: /animations/0/channels/1/target: error: a second channel "
         "of this animation animates node 0's translation\n")

    # One large accessor read by many samplers: reads out of proportion to
    # the input are refused (here after about 350 of the 800 channels).
    keys = 1000
    raw = struct.pack('<%df' % keys, *[k / 100 for k in range(keys)]) + struct.pack('<%df' % (3 * keys), *range(3 * keys))
    many = {'asset': {'version': '2.0'}, 'nodes': [{} for _ in range(800)],
            'buffers': [{'byteLength': len(raw),
                         'uri': 'data:application/octet-stream;base64,' + base64.b64encode(raw).decode()}],
            'bufferViews': [{'buffer': 0, 'byteLength': 4 * keys},
                            {'buffer': 0, 'byteOffset': 4 * keys, 'byteLength': 12 * keys}],
            'accessors': [{'bufferView': 0, 'componentType': FLOAT, 'count': keys, 'type': 'SCALAR'},
                          {'bufferView': 1, 'componentType': FLOAT, 'count': keys, 'type': 'VEC3'}],
            'animations': [{'samplers': [{'input': 0, 'output': 1}],
                            'channels': [{'sampler': 0, 'target': {'node': i, 'path': 'translation'}}
                                         for i in range(800)]}]}
    cases.append(('many_reads.gltf', json.dumps(many).encode(),
                  '/animations/0/samplers/0/input: error: accessor 0: the samplers have read 4 numbers per byte'))

    # GLB containers
    def glb(g, bin_bytes, version=2, extra=b''):
        g['buffers'] = [{'byteLength': 32}]
        return glb_bytes(g, bin_bytes, version, extra)

    def glb_case(name, make, expect):
        cases.append((name + '.glb', make(base_case()), expect))

    glb_case('glb_short_bin', lambda g: glb(g, b'\0' * 16),
             "/buffers/0: error: byteLength 32 is more than the GLB BIN chunk's 16 bytes")
    glb_case('glb_no_bin', lambda g: glb(g, None),
             "/buffers/0: error: a buffer without 'uri' must be the first, in a GLB file with a BIN chunk")
    # Only the BIN chunk, the first buffer, goes without 'uri': a second one
    # is refused though nothing reads it.
    cases.append(('glb_second_no_uri.glb', second_buffer_glb({'byteLength': 8}),
                  "/buffers/1: error: a buffer without 'uri' must be the first, in a GLB file "
                  "with a BIN chunk"))
    glb_case('glb_version', lambda g: glb(g, b'\0' * 32, version=1), 'error: GLB version 1, expected 2')
    glb_case('glb_two_json', lambda g: glb(g, b'\0' * 32, extra=struct.pack('<II', 4, 0x4E4F534A) + b'{}  '),
             'error: GLB chunk 1: a second JSON chunk')
    def long_chunk(g):  # the BIN chunk says 64 bytes, the file holds 32
        b = bytearray(glb(g, b'\0' * 32))
        struct.pack_into('<I', b, len(b) - 40, 64)
        return bytes(b)

    glb_case('glb_chunk_past_end', long_chunk, 'error: GLB chunk 1: 32 bytes past the end of the file')
    return cases


def main_into(directory):
    os.makedirs(directory, exist_ok=True)
    files = []
    for seed, kind in enumerate(('bin', 'data', 'glb', 'bin', 'data', 'glb')):
        files.append(build(seed).write(directory, 'model%d' % seed, kind))
    files.append(names_case().write(directory, 'names', 'data'))
    files.append(overlap_case().write(directory, 'overlap', 'glb'))
    # a byte order mark before the JSON, which the spec lets readers ignore
    files.append(names_case().write(directory, 'bom', 'data', bom=True))
    files.append(step_keys_case().write(directory, 'step_keys', 'glb'))
    files.append(clips_case().write(directory, 'clips', 'bin'))
    files.append(pointer_case(6).write(directory, 'pointer', 'data'))
    files.append(build(6).write(directory, 'pointer_core', 'data'))
    with open(os.path.join(directory, 'index.json'), 'w') as f:
        json.dump(files, f)


def main():
    main_into(sys.argv[1])
    if '--invalid' in sys.argv[2:]:
        for name, text, _ in invalid_cases():
            with open(os.path.join(sys.argv[1], 'invalid_' + name), 'wb') as f:
                f.write(text)


if __name__ == '__main__':
    main()
