# SPDX-License-Identifier: MIT
"""The glTF importer's work stays in proportion to its input
(docs/limits.md, compiler/kfc_gltf_data.h):

- JSON that jansson would take more than 48 bytes per byte (and 16 MB) to
  parse is refused before it is parsed: megabytes of "{}" take a moment and
  a few megabytes, where they took 80 times their size;
- every accessor read counts, each time a sampler reads it, against
  2^20 numbers plus 4 per byte of input (the document, and an external
  buffer file once; a data URI is part of the document), and each channel's
  names count a number per 4 bytes: one accessor pair replayed by many
  animations, or one long node name repeated by many channels, is refused
  at exactly the channel the formula says, and the largest accepted file's
  .kfb (stored, -z 0) is under 16 bytes per input byte plus 4 MB;
- a channel of a mesh's weights (KHR_animation_pointer, /meshes/M/weights)
  makes a track on every node that instances the mesh, and each such node
  counts against the same budget (64 numbers, its target's name, and a
  number for the check of targets an earlier animation played): 4,000
  nodes of one mesh animated by 400 animations, 110 KB, are refused at
  exactly the animation the formula says, in memory within 64 bytes per
  input byte plus 64 MB, where they took 319 MB; the most that fit
  compile;
- an external file named by many buffers, by any spelling ("a.bin",
  "./a.bin", "sub/../a.bin", a link to it), is read and held once: memory
  stays within 64 bytes per input byte plus 64 MB with the file counted
  once, where 300 buffers naming one 1 MB file took 300 MB."""
import base64
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

BASE = 1 << 20
PER_BYTE = 4
# What each node that instances a mesh counts, per channel of the mesh's
# weights: its track (KFC_GLTF_NODE_NUMBERS) and the check of shared
# targets (KFC_GLTF_CHECK_NUMBERS), in compiler/kfc_gltf_data.h.
NODE_NUMBERS = 64
CHECK_NUMBERS = 1


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def document(keys, animations, uri, byte_length, node_name=None):
    return {'asset': {'version': '2.0'}, 'nodes': [{'name': node_name} if node_name else {}],
            'buffers': [{'byteLength': byte_length, 'uri': uri}],
            'bufferViews': [{'buffer': 0, 'byteLength': 4 * keys},
                            {'buffer': 0, 'byteOffset': 4 * keys, 'byteLength': 12 * keys}],
            'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': keys, 'type': 'SCALAR'},
                          {'bufferView': 1, 'componentType': 5126, 'count': keys, 'type': 'VEC3'}],
            'animations': [{'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'translation'}}],
                            'samplers': [{'input': 0, 'output': 1}]} for _ in range(animations)]}


def payload(keys):
    times = struct.pack('<%df' % keys, *[k * 0.25 for k in range(keys)])
    return times + struct.pack('<%df' % (3 * keys), *[(k * 7919 % 1000) / 7.0 for k in range(3 * keys)])


def peak_kb(cmd):
    """Runs `cmd`; returns its exit status, its stderr and its peak
    resident memory in KB (its own, not its siblings')."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, err, usage.ru_maxrss


def shared_file(c, a, work):
    """300 buffers naming one 1 MB file, spelled five ways."""
    folder = os.path.join(work, 'shared')
    os.makedirs(os.path.join(folder, 'sub'))
    size = 1 << 20
    with open(os.path.join(folder, 'shared.bin'), 'wb') as f:
        f.write(payload(2).ljust(size, b'\0'))
    os.symlink('shared.bin', os.path.join(folder, 'alias.bin'))
    os.link(os.path.join(folder, 'shared.bin'), os.path.join(folder, 'hard.bin'))
    spellings = ('shared.bin', './shared.bin', 'sub/../shared.bin', 'alias.bin', 'hard.bin')
    count = 300
    doc = {'asset': {'version': '2.0'}, 'nodes': [{}],
           'buffers': [{'byteLength': size, 'uri': spellings[i % len(spellings)]}
                       for i in range(count)],
           'bufferViews': [], 'accessors': [], 'animations': []}
    for i in range(count):
        doc['bufferViews'] += [{'buffer': i, 'byteLength': 8},
                               {'buffer': i, 'byteOffset': 8, 'byteLength': 24}]
        doc['accessors'] += [{'bufferView': 2 * i, 'componentType': 5126, 'count': 2, 'type': 'SCALAR'},
                             {'bufferView': 2 * i + 1, 'componentType': 5126, 'count': 2, 'type': 'VEC3'}]
        doc['animations'].append({'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'translation'}}],
                                  'samplers': [{'input': 2 * i, 'output': 2 * i + 1}]})
    text = json.dumps(doc, separators=(',', ':'))
    path = os.path.join(folder, 'shared.gltf')
    with open(path, 'w') as f:
        f.write(text)
    bound_kb = (64 * (len(text) + size) + (64 << 20)) >> 10
    status, err, kb = peak_kb([a.kfc, path, '-o', path + '.kfb'])
    c.check(status == 0 and os.path.exists(path + '.kfb'), 'one file, %d buffers: %r' % (count, err))
    c.check(kb < bound_kb, 'one file of %d bytes, %d buffers: %d KB, over the bound %d KB'
            % (size, count, kb, bound_kb))


def bound_kb(input_bytes):
    """docs/limits.md's bound on kfc's memory for an input, in KB."""
    return (64 * input_bytes + (64 << 20)) >> 10


def mesh_weights_document(nodes, animations):
    """`nodes` nodes instancing one mesh of one morph target, and
    `animations` animations that each animate the mesh's weights through a
    KHR_animation_pointer channel of one key: its text, and the animation
    whose channel the budget refuses (None: all fit)."""
    data = struct.pack('<2f', 0.0, 0.5)
    channel = {'sampler': 0, 'target': {'path': 'pointer', 'extensions': {
        'KHR_animation_pointer': {'pointer': '/meshes/0/weights'}}}}
    doc = {'asset': {'version': '2.0'}, 'extensionsUsed': ['KHR_animation_pointer'],
           'meshes': [{'primitives': [{'attributes': {}, 'targets': [{}]}]}],
           'nodes': [{'mesh': 0} for _ in range(nodes)],
           'buffers': [{'byteLength': len(data),
                        'uri': 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()}],
           'bufferViews': [{'buffer': 0, 'byteLength': 4}, {'buffer': 0, 'byteOffset': 4, 'byteLength': 4}],
           'accessors': [{'bufferView': v, 'componentType': 5126, 'count': 1, 'type': 'SCALAR'}
                         for v in (0, 1)],
           'animations': [{'channels': [channel], 'samplers': [{'input': 0, 'output': 1}]}
                          for _ in range(animations)]}
    text = json.dumps(doc, separators=(',', ':'))
    budget, spent = BASE + PER_BYTE * len(text), 0
    # Node 0 plays the channel's own track; the others' targets are names
    # made as it is, node<k>.morph_weights.
    names = sum((len('node%d.morph_weights' % k) + 3) // 4 for k in range(1, nodes))
    for i in range(animations):
        spent += nodes * (CHECK_NUMBERS + NODE_NUMBERS) + names + 2
        spent += (len('animation%d/node0.morph_weights' % i) + len('node0.morph_weights') + 3) // 4
        if spent > budget:
            return text, i
    return text, None


def mesh_weights(c, a, work):
    """Many nodes of one mesh, its weights animated by many animations."""
    def compile_file(name, nodes, animations):
        text, refused_at = mesh_weights_document(nodes, animations)
        path = os.path.join(work, name + '.gltf')
        with open(path, 'w') as f:
            f.write(text)
        status, err, kb = peak_kb([a.kfc, '-z', '0', path, '-o', path + '.kfb'])
        c.check(kb < bound_kb(len(text)), '%s: %d nodes x %d animations, %d bytes: %d KB, over the '
                'bound %d KB' % (name, nodes, animations, len(text), kb, bound_kb(len(text))))
        return path, len(text), refused_at, status, err

    path, size, refused_at, status, err = compile_file('mesh_weights', 4000, 400)
    want = '%s: /animations/%s/channels/0: error: the channels\' names and tracks and the ' \
        'samplers\' numbers come to more than 4 numbers per byte of input' % (path, refused_at)
    c.check(refused_at is not None and status == 1 and want in err and not os.path.exists(path + '.kfb'),
            '4000 nodes x 400 animations: want a refusal at animation %s, got %d %r'
            % (refused_at, status, err))
    # The most animations that fit: compiled, the .kfb within the bound.
    most = 1
    while mesh_weights_document(1000, most + 1)[1] is None:
        most += 1
    for animations in (most, most + 1):
        path, size, refused_at, status, err = compile_file('mesh_weights%d' % animations, 1000,
                                                           animations)
        out = path + '.kfb'
        if refused_at is None:
            kfb = os.path.getsize(out) if os.path.exists(out) else 0
            c.check(status == 0 and 0 < kfb <= 16 * size + (4 << 20),
                    '1000 nodes x %d animations, the most that fit: %d bytes out of %d in: %r'
                    % (animations, kfb, size, err))
        else:
            c.check(status == 1 and '/animations/%d/channels/0: error:' % refused_at in err
                    and not os.path.exists(out),
                    '1000 nodes x %d animations: want a refusal at animation %d, got %d %r'
                    % (animations, refused_at, status, err))


def main():
    a = driver.arguments()
    c = driver.Checks()
    work = a.work

    # One external file, many buffers: read once (measured first, alone).
    shared_file(c, a, work)
    mesh_weights(c, a, work)

    # JSON's parse cost.
    empty = os.path.join(work, 'empty_objects.gltf')
    with open(empty, 'w') as f:
        f.write('[' + ','.join(['{}'] * 1000000) + ']')
    r = run([a.kfc, empty, '-o', empty + '.kfb'])
    c.check(r.returncode == 1 and '/: error: parsing this JSON could take' in r.stderr and
            'kfc parses JSON that takes at most 48' in r.stderr and not os.path.exists(empty + '.kfb'),
            'a million {}: %r' % r.stderr)
    for shape, item, refused in (('arrays', '[]', True), ('zeros', '0', False),
                                 ('strings', '""', False), ('nested', '{"a":{}}', True)):
        path = os.path.join(work, shape + '.gltf')
        with open(path, 'w') as f:
            f.write('{"asset":{"version":"2.0"},"extras":[' + ','.join([item] * 2000000) + ']}')
        r = run([a.kfc, path, '-o', path + '.kfb'])
        said = 'parsing this JSON could take' in r.stderr
        c.check(said == refused, '%s: refused %s, want %s: %r' % (shape, said, refused, r.stderr[:200]))

    # Replayed accessors: keys x 4 numbers a channel, plus its names
    # ("animation<i>/node0.translation" and "node0.translation").
    keys = 10000
    data = payload(keys)

    def replayed(mode, animations):
        """Writes the document; returns its path, input bytes and the
        animation whose channel the budget refuses (None: all fit)."""
        name = '%s%d' % (mode, animations)
        path = os.path.join(work, name + '.gltf')
        if mode == 'data':
            uri = 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()
        else:
            uri = name + '.bin'
            with open(os.path.join(work, uri), 'wb') as f:
                f.write(data)
        text = json.dumps(document(keys, animations, uri, len(data)), separators=(',', ':'))
        with open(path, 'w') as f:
            f.write(text)
        input_bytes = len(text) + (len(data) if mode == 'file' else 0)
        budget, spent = BASE + PER_BYTE * input_bytes, 0
        for i in range(animations):
            names = len('animation%d/node0.translation' % i) + len('node0.translation')
            spent += 4 * keys + (names + 3) // 4
            if spent > budget:
                return path, input_bytes, i
        return path, input_bytes, None

    for mode in ('data', 'file'):
        path, input_bytes, refused_at = replayed(mode, 400)
        most = refused_at
        while replayed(mode, most)[2] is not None:
            most -= 1
        for animations in (400, most):
            path, input_bytes, refused_at = replayed(mode, animations)
            out = path + '.kfb'
            r = run([a.kfc, '-z', '0', path, '-o', out])
            if refused_at is None:
                size = os.path.getsize(out) if os.path.exists(out) else 0
                c.check(r.returncode == 0 and 0 < size <= 16 * input_bytes + (4 << 20),
                        '%s x %d, the most that fit: %d bytes out of %d in: %r'
                        % (mode, animations, size, input_bytes, r.stderr))
            else:
                want = '/animations/%d/' % refused_at
                c.check(r.returncode == 1 and want in r.stderr and 'numbers per byte of input' in r.stderr
                        and not os.path.exists(out),
                        '%s x %d: want a refusal at %s, got %d %r'
                        % (mode, animations, want, r.returncode, r.stderr))

    # A long node name repeated by many channels: names count as output.
    long_name = 'N' * 20000
    small = payload(1)
    uri = 'data:application/octet-stream;base64,' + base64.b64encode(small).decode()
    text = json.dumps(document(1, 300, uri, len(small), long_name), separators=(',', ':'))
    path = os.path.join(work, 'names.gltf')
    with open(path, 'w') as f:
        f.write(text)
    budget, spent, refused_at = BASE + PER_BYTE * len(text), 0, None
    for i in range(300):
        cost = 4 + (len('animation%d/' % i) + 2 * len(long_name + '.translation') + 3) // 4
        if spent + cost > budget:
            refused_at = i
            break
        spent += cost
    r = run([a.kfc, '-z', '0', path, '-o', path + '.kfb'])
    c.check(refused_at is not None and r.returncode == 1 and
            ('/animations/%d/channels/0: error: the channels\' names and tracks and the samplers\' '
             'numbers' % refused_at) in r.stderr,
            'long names: want a refusal at animation %s, got %r' % (refused_at, r.stderr))
    print('test_gltf_bounds: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
