"""Writes small glTF 2.0 files that exercise kfc's importer: every sampler
kind (STEP, LINEAR, CUBICSPLINE) on every path (translation, rotation, scale,
weights), as .gltf with an external .bin, as .gltf with a base64 data URI and
as .glb; a byteStride on a view no animation uses, a sparse accessor,
normalized bytes and shorts for rotations and weights.

    gen_gltf_fixtures.py DIR     writes DIR/*.gltf, *.bin, *.glb

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
            n = self.gltf['nodes'][node]
            exp['channels'].append({'object': n.get('name', 'node%d' % node), 'path': path,
                                    'interpolation': interp, 'times': tdec, 'outputs': odec,
                                    'width': len(odec) // comps // len(tdec) // (3 if interp == 'CUBICSPLINE' else 1)})
        self.gltf['animations'].append(anim)
        self.expect.append(exp)

    def write(self, directory, name, kind):
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
            with open(os.path.join(directory, path), 'w') as f:
                json.dump(g, f, indent=1)
        with open(os.path.join(directory, path + '.expect.json'), 'w') as f:
            json.dump(self.expect, f)
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


def base_case():
    """A valid one-channel document (data URI) that the cases below break."""
    d = Doc()
    node = d.node('n')
    d.animation('a', [(node, 'translation', 'LINEAR', [0.0, 1.0], [0, 0, 0, 1, 2, 3], 3, {})])
    g = d.gltf
    g['buffers'] = [{'byteLength': len(d.bin),
                     'uri': 'data:application/octet-stream;base64,' + base64.b64encode(bytes(d.bin)).decode()}]
    return g


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
    case('count', lambda g: g['accessors'][1].update(count=1),
         'invalid_count.gltf: /animations/0/samplers/0/output: error: accessor 1 has 1 elements, expected 2')
    case('view_past_buffer', lambda g: g['bufferViews'][0].update(byteOffset=1000),
         '/bufferViews/0: error: bytes 1000 to 1008 are past the end of buffer 0')
    case('missing_buffer', lambda g: g['bufferViews'][0].update(buffer=5),
         '/bufferViews/0/buffer: error: buffers 5 does not exist')
    case('missing_file', lambda g: g['buffers'][0].update(uri='nowhere.bin'),
         "/buffers/0: error: cannot read")
    case('huge_count', lambda g: g['accessors'][1].update(count=4294967295),
         '/accessors/1: error: 4294967295 elements from byte 0 do not fit')
    case('huge_sparse', lambda g: (g['accessors'][1].pop('bufferView'), g['accessors'][1].update(
        count=4000000000)), 'without a bufferView are more than kfc accepts')
    case('offset_overflow', lambda g: g['accessors'][1].update(byteOffset=4294967292),
         '/accessors/1: error: 2 elements from byte 4294967292 do not fit')
    case('stride', lambda g: g['bufferViews'][1].update(byteStride=12),
         "/accessors/1/bufferView: error: bufferView 1 has a byteStride")
    case('required_extension', lambda g: g.update(extensionsRequired=['EXT_meshopt_compression']),
         "/extensionsRequired/0: error: the file requires extension 'EXT_meshopt_compression'")
    case('interpolation', lambda g: g['animations'][0]['samplers'][0].update(interpolation='CUBIC'),
         "/animations/0/samplers/0/interpolation: error: unknown interpolation 'CUBIC'")
    case('input_type', lambda g: g['animations'][0]['samplers'][0].update(input=1),
         "/animations/0/samplers/0/input: error: accessor 1 must be FLOAT SCALAR")
    case('node', lambda g: g['animations'][0]['channels'][0]['target'].update(node=9),
         "/animations/0/channels/0/target: error: node 9 does not exist")
    case('version', lambda g: g['asset'].update(version='1.0'), "/asset/version: error: glTF version 1.0")
    case('base64', lambda g: g['buffers'][0].update(uri='data:application/octet-stream;base64,@@@@'),
         "/buffers/0: error: the data URI is not valid base64")
    case('animation_missing', lambda g: g.update(animations=[{'channels': 'x'}]),
         "/animations/0: error: expected an object with a 'channels' array")
    return cases


def main_into(directory):
    os.makedirs(directory, exist_ok=True)
    files = []
    for seed, kind in enumerate(('bin', 'data', 'glb', 'bin', 'data', 'glb')):
        files.append(build(seed).write(directory, 'model%d' % seed, kind))
    with open(os.path.join(directory, 'index.json'), 'w') as f:
        json.dump(files, f)


def main():
    main_into(sys.argv[1])


if __name__ == '__main__':
    main()
