# SPDX-License-Identifier: MIT
"""kfc's glTF importer against an independent reference of glTF's sampling
rules (tests/gen/gltf_reference.py): fixtures written by
tests/gen/gen_gltf_fixtures.py (.gltf + .bin, base64 data URI, .glb; every
sampler kind on every path, sparse, normalized integers), compiled, played
with `kfplay animate` at W = t seconds, before the first key, between keys, at
keys and after the last. Also: decompile -> compile is byte-identical, and
broken glTF (tests/gen's hostile cases) gets the expected message."""
import base64
import json
import math
import urllib.parse
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gen'))
import driver  # noqa: E402
import gltf_assets  # noqa: E402
import gen_gltf_fixtures  # noqa: E402
import gltf_reference  # noqa: E402



TOLERANCE = 2e-5  # float32 keys and arithmetic, relative to max(1, |value|)
PROPERTY = {'translation': 'translation', 'rotation': 'orientation', 'scale': 'scale',
            'weights': 'morph_weights'}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def expected(work, name):
    with open(os.path.join(work, name + '.expect.json')) as f:
        return json.load(f)


def check_step_keys(a, checks):
    """At a key's own time (its float32 written as the shortest decimal, as
    an exporter writes it, or with 9 digits) every sampler plays exactly
    that key's value: InterpolationTest.glb's STEP channel at 11/24 s plays
    its key, not the one before."""
    src = os.path.join(a.work, 'step_keys.glb')
    kfb = src + '.exact.kfb'
    r = run([a.kfc, src, '-o', kfb])
    if not checks.check(r.returncode == 0, 'step_keys.glb: %s' % r.stderr):
        return
    for anim in expected(a.work, 'step_keys.glb'):
        c = anim['channels'][0]
        target = '%s.translation' % c['object']
        cubic = c['interpolation'] == 'CUBICSPLINE'
        for k, t in enumerate(c['times']):
            key = [gen_gltf_fixtures.f32(x) for x in
                   c['outputs'][(3 * k + 1 if cubic else k) * 3:][:3]]
            for w in (gltf_assets.shortest_f32(t), '%.9g' % t):
                r = run([a.kfplay, kfb, 'animate', w])
                got = gltf_assets.parse_animate(r.stdout, {target}, {}).get(('%.9g' % float(w),
                                                                              target))
                checks.check(got == key, '%s at %s s (key %d): %s, want the key %s'
                             % (anim['name'], w, k, got, key))
    # ... and one float32 step before the key, STEP still plays the key before.
    c = expected(a.work, 'step_keys.glb')[0]['channels'][0]
    before = '%.9g' % (c['times'][1] - 2 ** -25)
    r = run([a.kfplay, kfb, 'animate', before])
    got = gltf_assets.parse_animate(r.stdout, {'Step.translation'}, {})
    checks.check(got.get(('%.9g' % float(before), 'Step.translation')) == [0, 0, 0],
                 'STEP just before key 1: key 0 (%s)' % got)


def check_loop(a, checks, files):
    """--loop: each animation repeats over its longest channel's length, as
    a game plays the clip at fmod(t, length): checked against the reference
    over two and a half periods, the times kept off the seams."""
    worst = 0.0
    for name in files:
        src = os.path.join(a.work, name)
        kfb = src + '.loop.kfb'
        r = run([a.kfc, '--loop', src, '-o', kfb])
        if not checks.check(r.returncode == 0, '%s --loop: %s' % (name, r.stderr)):
            continue
        anims = expected(a.work, name)
        targets, want = set(), {}
        ws = set()
        for anim in anims:
            end = max(c['times'][-1] for c in anim['channels'])
            for j in range(1, 50):
                w = end * 2.5 * j / 50
                if end > 0 and abs(w / end - round(w / end)) > 1e-3:
                    ws.add('%.9g' % w)
        ws = sorted(ws, key=float)
        for anim in anims:
            end = max(c['times'][-1] for c in anim['channels'])
            for c in anim['channels']:
                target = '%s.%s' % (c['object'], PROPERTY[c['path']])
                targets.add(target)
                for w in ws:
                    t = math.fmod(float(w), end) if end > 0 else 0.0
                    want[('%.9g' % float(w), target)] = (c, gltf_reference.sample(c, t))
        got = gltf_assets.play(a.kfplay, kfb, ws, targets)
        for key, (c, value) in want.items():
            have = got.get(key)
            if not checks.check(have is not None and len(have) == len(value),
                                '%s --loop: no value at %s' % (name, key)):
                continue
            if c['path'] == 'rotation' and sum(x * y for x, y in zip(have, value)) < 0:
                value = [-x for x in value]
            err = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(have, value))
            worst = max(worst, err)
            checks.check(err <= TOLERANCE, '%s --loop: %s (%s): %s, want %s'
                         % (name, key, c['interpolation'], have, value))
    print('test_gltf_import: --loop, worst error %.3g' % worst)


def check_names(a, checks):
    """kfc_gltf.h's naming rule on clips.gltf: every valid file compiles, a
    skin joint keeps a name a mesh node shares, and -v says how each clash
    was settled."""
    src = os.path.join(a.work, 'clips.gltf')
    kfb = src + '.names.kfb'
    r = run([a.kfc, '-v', src, '-o', kfb])
    notes = [l.split(': note: ', 1)[1] for l in r.stderr.splitlines() if ': note: ' in l]
    want = [
        "animation 1 is named 'animation0', another animation's name when it has none: its "
        "controller is 'animation1'",
        "node 7 is named 'node6', another node's name when it has none: it is 'node7'",
        "/animations/3/channels/0: the sequence name 'a/b/c.translation' is an earlier "
        "channel's: this one is 'a/b/c.translation#2'",
        "animation 4's controller is 'animation4': 2 animations are named 'Walk'",
        "node 1 keeps the name 'Head': it is the only skin joint of the 2 nodes so named (the "
        "others are node<index>)",
        "node 0 is 'node0': 2 nodes are named 'Head', and the skin joint among them keeps the "
        "name",
        "animation 5's controller is 'animation5': 2 animations are named 'Walk'",
        "node 2 is 'node2': 2 nodes are named 'Arm', more than one of them a skin joint",
        "node 3 is 'node3': 2 nodes are named 'Arm', more than one of them a skin joint",
    ]
    checks.check(r.returncode == 0 and notes == want, 'clips.gltf -v: the notes %r' % notes)
    listed = run([a.kfplay, kfb, 'list']).stdout.splitlines()
    sequences = [l.split(' sequence ')[0] for l in listed if ' sequence ' in l]
    controllers = [l.split(' controller ')[0] for l in listed if ' controller ' in l]
    checks.check(sequences == ['animation0/node6.translation', 'animation1/node7.scale',
                               'a/b/c.translation', 'a/b/c.translation#2',
                               'animation4/Head.orientation', 'animation4/node0.translation',
                               'animation5/node2.scale', 'animation5/node3.translation'],
                 'clips.gltf: sequence names %r' % sequences)
    checks.check(controllers == ['animation0', 'animation1', 'a', 'a/b', 'animation4',
                                 'animation5'], 'clips.gltf: controllers %r' % controllers)


def check_split(a, checks):
    """--split: one file per animation, named by the pattern's '*' (the
    controller name, '/' and other bytes a file name should not hold as
    '_'), each playing its animation alone, at full weight; sequence names
    are unique within each file."""
    src = os.path.join(a.work, 'clips.gltf')
    outdir = os.path.join(a.work, 'split')
    os.makedirs(outdir, exist_ok=True)
    r = run([a.kfc, '--split', '-MD', src, '-o', os.path.join(outdir, 'clip-*.kfb')])
    names = ['animation0', 'animation1', 'a', 'a_b', 'animation4', 'animation5']
    made = sorted(f for f in os.listdir(outdir))
    checks.check(r.returncode == 0 and made == sorted(['clip-%s.kfb%s' % (n, d) for n in names
                                                        for d in ('', '.d')]),
                 '--split: the files %r (%s)' % (made, r.stderr))
    anims = expected(a.work, 'clips.gltf')
    for n, anim in zip(names, anims):
        kfb = os.path.join(outdir, 'clip-%s.kfb' % n)
        if not os.path.exists(kfb):
            continue
        listed = run([a.kfplay, kfb, 'list']).stdout.splitlines()
        controllers = [l.split(' controller ')[0] for l in listed if ' controller ' in l]
        checks.check(controllers == [anim['controller']] and
                     ' weight=1 ' in [l for l in listed if ' controller ' in l][0],
                     '%s: its one controller, at weight 1: %r' % (kfb, controllers))
        checks.check(not [l for l in listed if ' sequence ' in l and '#' in l.split(' ')[0]],
                     '%s: no renamed sequence in a file of its own' % kfb)
        dep = open(kfb + '.d').read()
        checks.check(dep.startswith(kfb + ':') and 'clips.gltf' in dep and 'clips data.bin'
                     in dep.replace('\\ ', ' '), '%s.d: %r' % (kfb, dep))
        targets = {'%s.%s' % (c['object'], PROPERTY[c['path']]) for c in anim['channels']}
        ws = ['0', '0.3', '0.5', '1', '1.7', '3']
        got = gltf_assets.play(a.kfplay, kfb, ws, targets)
        for c in anim['channels']:
            target = '%s.%s' % (c['object'], PROPERTY[c['path']])
            for w in ws:
                value = gltf_reference.sample(c, float(w))
                have = got.get((w, target))
                if c['path'] == 'rotation' and have and sum(x * y for x, y in zip(have, value)) < 0:
                    value = [-x for x in value]
                checks.check(have is not None and
                             max(abs(x - y) for x, y in zip(have, value)) <= TOLERANCE,
                             '%s: %s at %s: %s, want %s' % (kfb, target, w, have, value))
    # The default pattern: the input's name, '_*' for its extension.
    r = run([a.kfc, '-s', os.path.join(a.work, 'model0.gltf')])
    checks.check(r.returncode == 0 and os.path.exists(os.path.join(a.work, 'model0_take0.kfb')),
                 '--split: the default names (%s)' % r.stderr)
    # Two names that one file name would take: the second gets its index.
    two = gen_gltf_fixtures.base_case()
    two['animations'].append(dict(two['animations'][0], name='a?'))
    two['animations'][0]['name'] = 'a*'
    path = os.path.join(a.work, 'twins.gltf')
    with open(path, 'w') as f:
        json.dump(two, f)
    r = run([a.kfc, '-s', path, '-o', os.path.join(outdir, 'twin_*.kfb')])
    checks.check(r.returncode == 0 and os.path.exists(os.path.join(outdir, 'twin_a_.kfb')) and
                 os.path.exists(os.path.join(outdir, 'twin_a__1.kfb')),
                 '--split: names one file name would take twice (%s)' % r.stderr)
    # A name whose "_index" an earlier clip holds as its own name: the next
    # free one, every clip a file of its own. With -MD, no clip's file is
    # another's dependency file.
    for names, argv, want in (
            (['a__2', 'a_', 'a?'], ['-o', 'trip_*.kfb'],
             ['trip_a__2.kfb', 'trip_a_.kfb', 'trip_a__2_2.kfb']),
            (['a', 'a.d'], ['-MD', '-o', 'dep_*'], ['dep_a', 'dep_a.d', 'dep_a.d_1', 'dep_a.d_1.d'])):
        many = gen_gltf_fixtures.base_case()
        many['animations'] = [dict(many['animations'][0], name=n) for n in names]
        path = os.path.join(a.work, 'many.gltf')
        with open(path, 'w') as f:
            json.dump(many, f)
        d = os.path.join(a.work, 'split-%s' % argv[-1].split('_')[0])
        os.makedirs(d)
        r = run([a.kfc, '-s', path] + argv[:-1] + [os.path.join(d, argv[-1])])
        made = sorted(os.listdir(d))
        checks.check(r.returncode == 0 and made == sorted(want),
                     '--split %r: %r, want %r (%s)' % (names, made, sorted(want), r.stderr))
    # A clip's file that kfc refuses (here the input's own name): refused
    # before any clip is written, so nothing is left behind.
    d = os.path.join(a.work, 'split-refused')
    os.makedirs(d)
    model = gen_gltf_fixtures.base_case()
    model['animations'] = [dict(model['animations'][0], name=n) for n in ('Bounce', 'model')]
    path = os.path.join(d, 'model.gltf')
    with open(path, 'w') as f:
        json.dump(model, f)
    before = open(path, 'rb').read()
    r = run([a.kfc, '-s', path, '-o', os.path.join(d, '*.gltf')])
    checks.check(r.returncode == 2 and "is the input" in r.stderr and
                 sorted(os.listdir(d)) == ['model.gltf'] and open(path, 'rb').read() == before,
                 '--split naming the input: nothing written: %r (%s)' % (sorted(os.listdir(d)),
                                                                         r.stderr))
    check_split_fails(a, checks)
    kept = os.path.join(a.work, 'refused.kfb')  # never written
    for argv, message in (
            (['-s', src, '-o', 'x.kfb'], "--split needs an output pattern with '*' for the "
                                         "animation's name"),
            (['-s', '-MD', '-MF', 'x.d', src], '--split writes a dependency file beside each '
                                               'output: no -MF or -MT'),
            (['-s', '-d', src], '--split applies to compiling'),
            (['-s', os.path.join(a.fixtures, 'basic.yaml')],
             "--split writes one file per animation of an input; a kfb source is compiled whole, "
             'and says which sequences loop (repeat: loop)'),
            (['--loop', os.path.join(a.fixtures, 'basic.yaml')],
             "--loop repeats an input's animations; a kfb source is compiled whole, and says "
             'which sequences loop (repeat: loop)'),
            # --asset-root, where no file the input names is read.
            (['--asset-root', a.fixtures, os.path.join(a.fixtures, 'basic.yaml'), '-o', kept],
             '--asset-root bounds the files an input names; a kfb source names none'),
            (['--asset-root', a.fixtures, os.path.join(a.fixtures, 'm3g', 'swing.m3g'), '-o',
              kept],
             "--asset-root bounds the files an input names; an M3G file's external "
             'references are never opened'),
            (['--asset-root=' + a.fixtures, os.path.join(a.fixtures, 'x3d', 'door.x3d'), '-o',
              kept],
             "--asset-root bounds the files an input names; an X3D scene's URLs (Inline, "
             'textures, scripts) are never opened')):
        r = run([a.kfc] + argv)
        checks.check(r.returncode == 2 and r.stderr == "kfc: error: %s\nTry 'kfc --help' for "
                     "more information.\n" % message and not os.path.exists(kept),
                     '%s: %r' % (argv, r.stderr))


def check_asset_root_data(a, checks):
    """--asset-root with a glTF file whose buffers are all data: URIs: taken
    (it is a glTF input), and the file is the one written without it."""
    src = os.path.join(a.fixtures, 'gltf', 'bounce.gltf')
    outs = [os.path.join(a.work, 'bounce%d.kfb' % i) for i in (0, 1)]
    r0 = run([a.kfc, src, '-o', outs[0]])
    r1 = run([a.kfc, '--asset-root', a.work, src, '-o', outs[1]])
    checks.check(r0.returncode == 0 and r1.returncode == 0 and not r1.stderr and
                 open(outs[0], 'rb').read() == open(outs[1], 'rb').read(),
                 '--asset-root with data: buffers only: %d %r' % (r1.returncode, r1.stderr))


def check_split_fails(a, checks):
    """--split where a clip's file (or its dependency file) cannot be
    created or written: exit 3, the message names that file, and no clip's
    file is left, nor any temporary file; a file of a clip's name that was
    there keeps its bytes."""
    d = os.path.join(a.work, 'split-fails')
    model = gen_gltf_fixtures.base_case()
    model['animations'] = [dict(model['animations'][0], name=n) for n in ('Bounce', 'Spin')]
    os.makedirs(d)
    with open(os.path.join(d, 'model.gltf'), 'w') as f:
        json.dump(model, f)
    for folder in ('out/clip_Spin.kfb', 'dep/clip_Spin.kfb.d', 'Bounce'):
        os.makedirs(os.path.join(d, folder))
    with open(os.path.join(d, 'out', 'clip_Bounce.kfb'), 'wb') as f:
        f.write(b'earlier')

    def tree():
        return sorted(os.path.relpath(os.path.join(top, n), d)
                      for top, dirs, files in os.walk(d) for n in dirs + files)
    before = tree()
    for argv, message in (
            (['-o', 'nodir/*.kfb'], 'nodir/Bounce.kfb: error: cannot create: No such file or '
                                    'directory'),
            (['-o', '*/clip.kfb'], 'Spin/clip.kfb: error: cannot create: No such file or '
                                   'directory'),
            (['-o', 'out/clip_*.kfb'], 'out/clip_Spin.kfb: error: cannot open for writing: Is a '
                                       'directory'),
            (['-MD', '-o', 'dep/clip_*.kfb'], 'dep/clip_Spin.kfb.d: error: cannot open for '
                                              'writing: Is a directory')):
        # (Bytes that are not UTF-8 are the message gone wrong: replaced.)
        r = subprocess.run([a.kfc, '-s', 'model.gltf'] + argv, cwd=d, capture_output=True,
                           text=True, errors='replace')
        checks.check(r.returncode == 3 and r.stderr == message + '\n',
                     '--split %s: exit 3, %r: got %d %r' % (argv, message, r.returncode, r.stderr))
        left = tree()
        kept = open(os.path.join(d, 'out', 'clip_Bounce.kfb'), 'rb').read()
        checks.check(left == before and kept == b'earlier',
                     '--split %s: nothing written: %r new, out/clip_Bounce.kfb %r' % (
                         argv, sorted(set(left) - set(before)), kept[:16]))


def check_warning(a, checks, path, name, want, what):
    """Compiles `path` as it is, with -Werror and with -Wno-NAME: warning
    -WNAME's one line `want` (or nothing, where it is empty), then that line
    as an error and no output, then nothing."""
    out = path + '.kfb'
    for args, code, shown in (
            ([], 0, want + ' [-W%s]\n' % name if want else ''),
            (['-Werror'], 1 if want else 0,
             want.replace('warning:', 'error:') + ' [-Werror=%s]\n' % name if want else ''),
            (['-Wno-' + name], 0, '')):
        if os.path.exists(out):
            os.remove(out)
        r = run([a.kfc] + args + [path, '-o', out])
        checks.check(r.returncode == code and r.stderr == shown and
                     os.path.exists(out) == (code == 0),
                     '%s %s: %d %r' % (what, args, r.returncode, r.stderr))


def check_long_duration(a, checks):
    """A clip of 1000 s or more (glTF's times are seconds: key times written
    in milliseconds) is -Wlong-duration at the input of the first sampler
    that ends last, once an animation; -Werror fails the compile, -Wno-
    silences it. One just shorter is no warning."""
    def document(times):
        values = [0.0, 0.0, 0.0] * len(times)
        raw = struct.pack('<%df' % len(times), *times) + struct.pack('<%df' % len(values), *values)
        def view(at, n):
            return {'buffer': 0, 'byteOffset': at, 'byteLength': 4 * n}
        return {'asset': {'version': '2.0'}, 'nodes': [{'name': 'cart'}],
                'buffers': [{'byteLength': len(raw), 'uri': 'data:application/octet-stream;base64,'
                             + base64.b64encode(raw).decode()}],
                'bufferViews': [view(0, len(times)), view(4 * len(times), len(values))],
                'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': len(times),
                               'type': 'SCALAR'},
                              {'bufferView': 1, 'componentType': 5126, 'count': len(times),
                               'type': 'VEC3'}],
                'animations': [{'name': 'Roll', 'samplers': [{'input': 0, 'output': 1},
                                                             {'input': 0, 'output': 1}],
                                'channels': [{'sampler': 0,
                                              'target': {'node': 0, 'path': 'translation'}},
                                             {'sampler': 1,
                                              'target': {'node': 0, 'path': 'scale'}}]}]}

    path = os.path.join(a.work, 'milliseconds.gltf')
    for times, message in (([0, 500, 1000], 'a last key time of 1000 s is 16.7 minutes'),
                           ([0, 500, 999.5], None)):
        with open(path, 'w') as f:
            json.dump(document(times), f)
        want = '%s: /animations/0/samplers/0/input: warning: %s: glTF times are seconds ' \
            '(milliseconds?)' % (path, message) if message else ''
        check_warning(a, checks, path, 'long-duration', want, 'key times to %g' % times[-1])


def check_quaternion_length(a, checks):
    """glTF rotation keys that are not unit quaternions play normalized (one
    of about no length as no rotation): -Wquaternion-length at the sampler's
    output, in YAML's words; -Werror fails the compile, -Wno- silences it."""
    def document(keys, interpolation):
        times = [0.0, 0.5, 1.0][:len(keys)]
        outputs = []
        for q in keys:
            outputs += [0, 0, 0, 0] + q + [0, 0, 0, 0] if interpolation == 'CUBICSPLINE' else q
        raw = struct.pack('<%df' % len(times), *times) + struct.pack('<%df' % len(outputs), *outputs)
        return {'asset': {'version': '2.0'}, 'nodes': [{'name': 'lid'}],
                'buffers': [{'byteLength': len(raw), 'uri': 'data:application/octet-stream;base64,'
                             + base64.b64encode(raw).decode()}],
                'bufferViews': [{'buffer': 0, 'byteLength': 4 * len(times)},
                                {'buffer': 0, 'byteOffset': 4 * len(times),
                                 'byteLength': 4 * len(outputs)}],
                'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': len(times),
                               'type': 'SCALAR'},
                              {'bufferView': 1, 'componentType': 5126, 'count': len(outputs) // 4,
                               'type': 'VEC4'}],
                'animations': [{'name': 'Spin', 'samplers': [{'input': 0, 'output': 1,
                                                              'interpolation': interpolation}],
                                'channels': [{'sampler': 0,
                                              'target': {'node': 0, 'path': 'rotation'}}]}]}

    at = ': /animations/0/samplers/0/output: '
    none = ', and one of about no length as no rotation, [0, 0, 0, 1]'
    for keys, interpolation, message in (
            ([[0, 0, 0, 1], [0, 0, 0, 2], [0, 0, 0, 0]], 'LINEAR',
             ('key 1 has length 2, not 1 (and 1 more key)', none)),
            ([[0, 0, 0, 0], [0, 1, 0, 0]], 'STEP', ('key 0 has length 0, not 1', none)),
            ([[0, 0, 0, 1], [0, 0.5, 0, 0.5]], 'CUBICSPLINE', ('key 1 has length 0.707, not 1', '')),
            ([[0, 0, 0, 1], [0, 0.7071068, 0, 0.7071068], [0, 1, 0, 0.0141]], 'LINEAR', None)):
        path = os.path.join(a.work, 'quaternion.gltf')
        with open(path, 'w') as f:
            json.dump(document(keys, interpolation), f)
        want = path + at + 'warning: %s: rotation keys are quaternions [x, y, z, w], played ' \
            'normalized%s' % message if message else ''
        out = path + '.kfb'
        check_warning(a, checks, path, 'quaternion-length', want, '%s %r' % (interpolation, keys))
        # played normalized: the zero key as no rotation
        if interpolation == 'STEP':
            got = run([a.kfplay, out, 'animate', '0.25']).stdout
            checks.check('lid.orientation 0 0 0 1' in got, 'a zero rotation key plays: %r' % got)


def check_pointer(a, checks):
    """KHR_animation_pointer: a pointer to a node's translation, rotation,
    scale or weights is the core target, which the extension calls the same
    animation: the same .kfb as the core file (pointer.gltf, which requires
    the extension; its values are checked with the other fixtures). A
    pointer to anything else is skipped with a warning at its channel. One
    to a node property an earlier animation plays starts its animation at
    weight 0, as a core channel does."""
    kfbs = []
    for name in ('pointer.gltf', 'pointer_core.gltf'):
        src = os.path.join(a.work, name)
        r = run([a.kfc, src, '-o', src + '.same.kfb'])
        checks.check(r.returncode == 0 and not r.stderr, '%s: %d %r' % (name, r.returncode, r.stderr))
        kfbs.append(open(src + '.same.kfb', 'rb').read() if r.returncode == 0 else name)
    checks.check(kfbs[0] == kfbs[1], 'pointer.gltf: not the .kfb of the same channels as core targets')

    def document(pointer):
        doc = gen_gltf_fixtures.base_case()
        doc['extensionsUsed'] = doc['extensionsRequired'] = ['KHR_animation_pointer']
        target = gen_gltf_fixtures.node_pointer(0, 'translation')
        target['extensions']['KHR_animation_pointer']['pointer'] = pointer
        return doc, {'sampler': 0, 'target': target}

    for i, pointer in enumerate(('/materials/0/pbrMetallicRoughness/baseColorFactor',
                                 '/cameras/0/perspective/yfov',
                                 '/extensions/KHR_lights_punctual/lights/0/intensity',
                                 '/nodes/0/extensions/KHR_node_visibility/visible',
                                 '/nodes/0/matrix', '/nodes', '/nodes/0/rotation~1')):
        doc, channel = document(pointer)
        doc['animations'][0]['channels'].append(channel)
        path = os.path.join(a.work, 'pointer_other%d.gltf' % i)
        with open(path, 'w') as f:
            json.dump(doc, f)
        check_warning(a, checks, path, 'gltf-dropped',
                      "%s: /animations/0/channels/1: warning: channel skipped: it animates '%s' "
                      "(KHR_animation_pointer); kfc animates only node translation, rotation, "
                      "scale and weights" % (path, pointer), 'pointer %s' % pointer)
    doc, channel = document('/nodes/0/translation')
    doc['animations'].append({'name': 'b', 'samplers': doc['animations'][0]['samplers'],
                              'channels': [channel]})
    path = os.path.join(a.work, 'pointer_later.gltf')
    with open(path, 'w') as f:
        json.dump(doc, f)
    r = run([a.kfc, '-v', path, '-o', path + '.kfb'])
    checks.check(r.returncode == 0 and "note: animation 'b' shares targets with an earlier one: "
                 "its controller starts at weight 0" in r.stderr,
                 'a later animation through a pointer: %d %r' % (r.returncode, r.stderr))


def check_mesh_weights_pointer(a, checks):
    """KHR_animation_pointer to /meshes/M/weights: glTF plays a mesh's
    weights on each node that instances it without weights of its own, so
    each such node's morph_weights plays the channel; a mesh whose every
    instance has its own weights is a warning."""
    def document(own_weights):
        d = gen_gltf_fixtures.Doc()
        first = d.node('a', targets=2)
        # (and a translation, so that dropping the weights leaves a .kfb)
        d.animation('m', [(first, 'weights', 'LINEAR', [0.0, 1.0], [0, 0, 1, 0.5], 1, {}),
                          (first, 'translation', 'LINEAR', [0.0, 1.0], [0, 0, 0, 1, 2, 3], 3, {})])
        g = d.gltf
        g['nodes'] += [{'name': 'b', 'mesh': 0}, {'name': 'c', 'mesh': 0, 'weights': [0, 0]}]
        if own_weights:
            g['nodes'][0]['weights'] = g['nodes'][1]['weights'] = [0, 0]
        g['animations'][0]['channels'][0]['target'] = {
            'path': 'pointer',
            'extensions': {'KHR_animation_pointer': {'pointer': '/meshes/0/weights'}}}
        g['extensionsUsed'] = g['extensionsRequired'] = ['KHR_animation_pointer']
        g['buffers'] = [{'byteLength': len(d.bin), 'uri': 'data:application/octet-stream;base64,'
                         + base64.b64encode(bytes(d.bin)).decode()}]
        return g

    path = os.path.join(a.work, 'mesh_weights.gltf')
    with open(path, 'w') as f:
        json.dump(document(False), f)
    r = run([a.kfc, path, '-o', path + '.kfb'])
    checks.check(r.returncode == 0 and not r.stderr, 'mesh weights pointer: %d %r'
                 % (r.returncode, r.stderr))
    r = run([a.kfplay, path + '.kfb', 'animate', '0.5'])
    checks.check([l for l in r.stdout.splitlines() if 'morph' in l] ==
                 ['0.5 a.morph_weights 0.5 0.25', '0.5 b.morph_weights 0.5 0.25'],
                 'mesh weights pointer: both nodes without weights play it: %r' % r.stdout)
    path = os.path.join(a.work, 'mesh_weights_own.gltf')
    with open(path, 'w') as f:
        json.dump(document(True), f)
    check_warning(a, checks, path, 'gltf-dropped',
                  "%s: /animations/0/channels/0: warning: channel skipped: it animates "
                  "'/meshes/0/weights', mesh 0's default morph weights (KHR_animation_pointer), "
                  "which every node that instances it overrides with weights of its own" % path,
                  'mesh weights every node overrides')


# Two morph weight channels on mesh 0 (2 targets), keyed at 0 and 1 s,
# and what each plays at W = 0.25, 0.5 and 1 s (values float32 holds
# exactly): which one a node plays shows which channel drives it.
WEIGHT_KEYS = {'mesh': [0, 0, 1, 0.5], 'own': [0.25, 0.25, 0.75, 0.75]}
WEIGHT_PLAYS = {'mesh': {'0.25': [0.25, 0.125], '0.5': [0.5, 0.25], '1': [1, 0.5]},
                'own': {'0.25': [0.375, 0.375], '0.5': [0.5, 0.5], '1': [0.75, 0.75]}}


def weights_document(animations, nodes):
    """Node 'a' instancing mesh 0, then `nodes` (more node objects); each
    animation of `animations` a list of channels on node 'a''s weights,
    each (keys, how): how is 'path' (target path weights), 'node'
    (/nodes/0/weights) or 'mesh' (/meshes/0/weights)."""
    d = gen_gltf_fixtures.Doc()
    first = d.node('a', targets=2)
    for i, channels in enumerate(animations):
        d.animation('take%d' % i, [(first, 'weights', 'LINEAR', [0.0, 1.0], WEIGHT_KEYS[keys], 1, {})
                                   for keys, how in channels])
    g = d.gltf
    g['nodes'] += nodes
    for anim, channels in zip(g['animations'], animations):
        for channel, (keys, how) in zip(anim['channels'], channels):
            if how != 'path':
                channel['target'] = {'path': 'pointer', 'extensions': {'KHR_animation_pointer': {
                    'pointer': '/%s/0/weights' % ('nodes' if how == 'node' else 'meshes')}}}
    g['extensionsUsed'] = g['extensionsRequired'] = ['KHR_animation_pointer']
    g['buffers'] = [{'byteLength': len(d.bin), 'uri': 'data:application/octet-stream;base64,'
                     + base64.b64encode(bytes(d.bin)).decode()}]
    return g


def played_weights(a, kfb, objects):
    """{object: {W: morph weights}} from `kfplay animate` at WEIGHT_PLAYS' times."""
    ws = sorted(WEIGHT_PLAYS['mesh'], key=float)
    got = gltf_assets.play(a.kfplay, kfb, ws, {o + '.morph_weights' for o in objects})
    return {o: {w: got.get(('%.9g' % float(w), o + '.morph_weights')) for w in ws}
            for o in objects}


def check_mesh_weights_shared(a, checks):
    """A later animation that animates a node's weights through its mesh's
    (/meshes/0/weights), or an earlier one's so animated, shares the node's
    morph_weights as a node channel does: the later controller starts at
    weight 0, with -v's note, and the node plays the earlier animation's
    values, not their sum."""
    for first, later in (('path', 'path'), ('path', 'mesh'), ('mesh', 'path'), ('mesh', 'mesh')):
        path = os.path.join(a.work, 'mesh_weights_shared_%s_%s.gltf' % (first, later))
        with open(path, 'w') as f:
            json.dump(weights_document([[('mesh', first)], [('own', later)]], []), f)
        r = run([a.kfc, '-v', path, '-o', path + '.kfb'])
        what = 'weights through %s, then through %s' % (first, later)
        if not checks.check(r.returncode == 0, '%s: %r' % (what, r.stderr)):
            continue
        checks.check("note: animation 'take1' shares targets with an earlier one: its controller "
                     "starts at weight 0" in r.stderr, '%s: no note: %r' % (what, r.stderr))
        got = played_weights(a, path + '.kfb', ['a'])
        checks.check(got == {'a': WEIGHT_PLAYS['mesh']}, '%s: the earlier plays alone: %s, want %s'
                     % (what, got, WEIGHT_PLAYS['mesh']))


def check_mesh_weights_own(a, checks):
    """One animation that animates node a's weights both through its own
    (path weights, or /nodes/0/weights) and through its mesh's
    (/meshes/0/weights), in either order: a node's weights override its
    mesh's, so a plays its own channel, node b (the same mesh, no weights
    of its own) the mesh's, and node c (weights it states) neither; -v
    notes a and c. With no node b, the mesh's channel plays nowhere: a
    -Wgltf-dropped warning."""
    others = [{'name': 'b', 'mesh': 0}, {'name': 'c', 'mesh': 0, 'weights': [0, 0]}]
    for own in ('path', 'node'):
        for order in ((('own', own), ('mesh', 'mesh')), (('mesh', 'mesh'), ('own', own))):
            mesh_at = [keys for keys, how in order].index('mesh')
            path = os.path.join(a.work, 'mesh_weights_own_%s_%d.gltf' % (own, mesh_at))
            with open(path, 'w') as f:
                json.dump(weights_document([list(order)], others), f)
            r = run([a.kfc, '-v', path, '-o', path + '.kfb'])
            notes = [l.split(': note: ', 1)[1] for l in r.stderr.splitlines() if ': note: ' in l]
            at = '/animations/0/channels/%d: ' % mesh_at
            want = [at + "node 0 plays its own weights, channel %d, not mesh 0's: a node's "
                    "weights override its mesh's" % (1 - mesh_at),
                    at + "node 2 keeps the weights it states, not mesh 0's: a node's weights "
                    "override its mesh's"]
            what = 'own weights through %s, mesh weights at channel %d' % (own, mesh_at)
            if not checks.check(r.returncode == 0 and notes == want and 'warning' not in r.stderr,
                                '%s: %d %r' % (what, r.returncode, r.stderr)):
                continue
            got = played_weights(a, path + '.kfb', ['a', 'b', 'c'])
            checks.check(got == {'a': WEIGHT_PLAYS['own'], 'b': WEIGHT_PLAYS['mesh'],
                                 'c': {w: None for w in WEIGHT_PLAYS['mesh']}},
                         '%s: a plays its own channel, b the mesh\'s, c neither: %s' % (what, got))
    for nodes, why in (([], 'its one node overrides with weights of its own that another channel '
                        'of this animation animates'),
                       (others[1:], 'every node that instances it overrides with weights of its '
                        'own, stated or animated by another channel of this animation')):
        path = os.path.join(a.work, 'mesh_weights_own_only%d.gltf' % len(nodes))
        with open(path, 'w') as f:
            json.dump(weights_document([[('mesh', 'mesh'), ('own', 'path')]], nodes), f)
        check_warning(a, checks, path, 'gltf-dropped',
                      "%s: /animations/0/channels/0: warning: channel skipped: it animates "
                      "'/meshes/0/weights', mesh 0's default morph weights "
                      "(KHR_animation_pointer), which %s" % (path, why),
                      'mesh weights its nodes override (%d more nodes)' % len(nodes))
        if not os.path.exists(path + '.kfb'):
            continue
        got = played_weights(a, path + '.kfb', ['a'])
        checks.check(got == {'a': WEIGHT_PLAYS['own']},
                     'the mesh channel skipped: a plays its own: %s' % got)


def check_animation_option(a, checks):
    """--animation selects one animation or none: digits are an index when
    the file has that animation, else a name; an index that is another
    animation's name, or a name several share, is a usage error that says
    how to name each. A name offered twice is suggested once."""
    def document(names):
        doc = gen_gltf_fixtures.base_case()
        template = doc['animations'][0]
        doc['animations'] = [dict(template, name=n) if n is not None else
                             {k: v for k, v in template.items() if k != 'name'} for n in names]
        return doc

    usage = "kfc: error: %s\nTry 'kfc --help' for more information.\n"
    for names, anim, code, want in (
            (['Spin', 'Spin'], 'Spin', 2,
             usage % "2 animations are named 'Spin' (0 and 1): give its index, -a 0 or -a 1"),
            (['Spin', 'Spin', 'Spin'], 'Spin', 2,
             usage % "3 animations are named 'Spin' (0, 1 and 2): give its index, -a 0, -a 1 or "
                     "-a 2"),
            (['Spin'] * 6, 'Spin', 2,
             usage % "6 animations are named 'Spin' (0, 1, 2 and 3 more): give its index, -a 0, "
                     "-a 1, -a 2 ..."),
            # index 0 is animation 1's name: only index 2 selects alone
            (['Spin', '0', 'Spin'], 'Spin', 2,
             usage % "2 animations are named 'Spin' (0 and 2): give its index, -a 2"),
            (['1', 'Spin'], '1', 2,
             usage % "'1' is both the index of animation 1 and the name of animation 0: give "
                     "-a 0 for animation 0, or -a 'Spin' for animation 1"),
            (['1', None], '1', 2,
             usage % "'1' is both the index of animation 1 and the name of animation 0: give "
                     "-a 0 for animation 0"),
            (['1', '0'], '0', 2,
             usage % "'0' is both the index of animation 0 and the name of animation 1: neither "
                     "has a name or index of its own: import every animation, or each into a "
                     "file of its own with --split"),
            # None selected: a usage error too (the file is valid), each
            # animation without a name by the index that selects it
            (['Spin', 'Spin', None], 'Spn', 2,
             usage % "no animation named or numbered 'Spn' (the file has 3); did you mean "
                     "'Spin'?"),
            (['Spin', 'Spin', None], 'walk', 2,
             usage % "no animation named or numbered 'walk'; the file has 3: 'Spin' twice and "
                     "an unnamed one at index 2 (-a 2)"),
            ([None, 'Spin', None], 'walk', 2,
             usage % "no animation named or numbered 'walk'; the file has 3: an unnamed one at "
                     "index 0 (-a 0), 'Spin' and an unnamed one at index 2 (-a 2)"),
            # index 1 is animation 0's name: it selects neither alone
            (['1', None], 'walk', 2,
             usage % "no animation named or numbered 'walk'; the file has 2: '1' and an unnamed "
                     "one at index 1"),
            (['Spin', 'Spin'], '2', 2,
             usage % "no animation named or numbered '2'; the file has 2: 'Spin' twice"),
            (['a', 'b', 'c', 'd', 'e'], 'walk', 2,
             usage % "no animation named or numbered 'walk' (the file has 5)"),
            ([], 'walk', 2, usage % "no animation named or numbered 'walk' (the file has none)")):
        with open(os.path.join(a.work, 'anim.gltf'), 'w') as f:
            json.dump(document(names), f)
        r = subprocess.run([a.kfc, 'anim.gltf', '-a', anim, '-o', 'anim.kfb'],
                           capture_output=True, text=True, cwd=a.work)
        checks.check(r.returncode == code and r.stderr == want and
                     not os.path.exists(os.path.join(a.work, 'anim.kfb')),
                     '%r -a %r: %d %r' % (names, anim, r.returncode, r.stderr))
    # What each selects: one animation, its controller at full weight.
    for names, anim, controller in (
            (['Spin', 'Spin'], '1', 'animation1'),
            (['Spin', 'Spin'], '01', 'animation1'),
            (['1', 'Spin'], '0', '1'),
            (['1', 'Spin'], 'Spin', 'Spin'),
            (['5', 'Spin'], '5', '5'),        # no animation 5: the name
            (['0', '1'], '1', '1'),           # animation 1's index and its own name
            (['Walk', None], '1', 'animation1')):
        with open(os.path.join(a.work, 'anim.gltf'), 'w') as f:
            json.dump(document(names), f)
        kfb = os.path.join(a.work, 'anim.kfb')
        r = run([a.kfc, os.path.join(a.work, 'anim.gltf'), '-a', anim, '-o', kfb])
        listed = run([a.kfplay, kfb, 'list']).stdout.splitlines() if r.returncode == 0 else []
        controllers = [l.split(' controller ')[0] + (' weight=1' if ' weight=1 ' in l else '')
                       for l in listed if ' controller ' in l]
        checks.check(r.returncode == 0 and not r.stderr and
                     controllers == [controller + ' weight=1'],
                     '%r -a %r: %r (%s)' % (names, anim, controllers, r.stderr))
        if os.path.exists(kfb):
            os.remove(kfb)


def check_note_text(a, checks):
    """-v notes show what a terminal acts on (C0 and DEL, C1 such as CSI,
    bytes that are not UTF-8) as \\xNN, in the file's name and in the
    strings they quote, as errors do."""
    with open(os.path.join(a.work, 'names.gltf')) as f:
        doc = json.load(f)
    doc['extensionsUsed'] = doc.get('extensionsUsed', []) + ['ACME_\x1b]0;X\x07\u009b2J']
    path = os.path.join(a.work, 'ctl\u009b.gltf').encode()
    with open(path, 'w') as f:
        json.dump(doc, f)
    r = subprocess.run([a.kfc.encode(), b'-v', path, b'-o', path + b'.kfb'], capture_output=True)
    want = b"ctl\\xc2\\x9b.gltf: note: extension 'ACME_\\x1b]0;X\\x07\\xc2\\x9b2J' ignored"
    checks.check(r.returncode == 0 and want in r.stderr and b'\x1b' not in r.stderr and
                 b'\xc2\x9b' not in r.stderr, 'a note quoting control bytes: %r' % r.stderr[-400:])


def main():
    a = driver.arguments()
    checks = driver.Checks()
    gen_gltf_fixtures.main_into(a.work)
    with open(os.path.join(a.work, 'index.json')) as f:
        files = json.load(f)
    worst = 0.0
    for name in files:
        src = os.path.join(a.work, name)
        kfb = src + '.kfb'
        r = run([a.kfc, src, '-o', kfb])
        if not checks.check(r.returncode == 0, '%s: kfc failed: %s' % (name, r.stderr.strip())):
            continue
        with open(src + '.expect.json') as f:
            anims = json.load(f)
        channels = [c for anim in anims for c in anim['channels']]
        # (W, t): world times in seconds and the glTF time each stands for.
        # At a key, W is the shortest decimal of the key's float32 time, as
        # an exporter writes it: the key's own time plays the key's value
        # (STEP jumps there).
        at = {}
        for c in channels:
            ts = c['times']
            for t in (0.0, ts[0] / 2, ts[-1] + 0.5):
                at.setdefault('%.9g' % t, t)
            for k in range(len(ts)):
                at[gltf_assets.shortest_f32(ts[k])] = ts[k]
                if k + 1 < len(ts):
                    for j in range(1, 8):
                        t = ts[k] + (ts[k + 1] - ts[k]) * j / 8
                        at.setdefault('%.9g' % t, t)
        ws = sorted(at, key=float)
        times = [at[w] for w in ws]
        r = run([a.kfplay, kfb, 'animate'] + ws)
        if not checks.check(r.returncode == 0, '%s: kfplay failed: %s' % (name, r.stderr.strip())):
            continue
        got = gltf_assets.parse_animate(
            r.stdout, {'%s.%s' % (c['object'], PROPERTY[c['path']]) for c in channels}, {})
        for c in channels:
            target = '%s.%s' % (c['object'], PROPERTY[c['path']])
            for t, w in zip(times, ws):
                want = gltf_reference.sample(c, t)
                have = got.get(('%.9g' % float(w), target))
                if not checks.check(have is not None and len(have) == len(want),
                                    '%s: %s at %s: no value' % (name, target, w)):
                    continue
                if c['path'] == 'rotation':  # q and -q are one rotation
                    if sum(x * y for x, y in zip(have, want)) < 0:
                        want = [-x for x in want]
                err = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(have, want))
                worst = max(worst, err)
                checks.check(err <= TOLERANCE, '%s: %s (%s) at W=%s: got %s, want %s (error %.3g)'
                             % (name, target, c['interpolation'], w, have, want, err))
        # decompile -> compile: the same bytes
        yml = kfb + '.yaml'
        again = kfb + '.again.kfb'
        r1 = run([a.kfc, '--decompile', kfb, '-o', yml])
        r2 = run([a.kfc, yml, '-o', again])
        same = r1.returncode == 0 and r2.returncode == 0 and open(kfb, 'rb').read() == open(again, 'rb').read()
        checks.check(same, '%s: decompile -> compile differs (%s%s)' % (name, r1.stderr, r2.stderr))
        if name.endswith('.gltf') and os.path.exists(yml):
            checks.check('interpolation: hermite' in open(yml).read(), '%s: no hermite in the decompiled source' % name)

    # A glTF file under another name (.json, or even .yaml) is glTF by its
    # content: the same bytes as under its own name. A kfb source written as
    # JSON that names an entry "asset" stays a kfb source.
    for name in files:
        if not name.endswith('.gltf'):
            continue
        src = os.path.join(a.work, name)
        for other in (src[:-len('.gltf')] + '_named.json', src[:-len('.gltf')] + '_named.yaml'):
            shutil.copyfile(src, other)
            r = run([a.kfc, other, '-o', other + '.kfb'])
            checks.check(r.returncode == 0 and
                         open(other + '.kfb', 'rb').read() == open(src + '.kfb', 'rb').read(),
                         '%s as %s: %s' % (name, os.path.basename(other), r.stderr.strip()))
    source = os.path.join(a.work, 'asset_named.yaml')
    with open(source, 'w') as f:
        f.write('{"kfb": 1, "sequences": {"asset": {"interpolation": "linear", "duration": 1, '
                '"keys": [[0, 1]]}}}\n')
    r = run([a.kfc, source, '-o', source + '.kfb'])
    checks.check(r.returncode == 0 and not r.stderr, 'a JSON kfb source naming an asset: %s'
                 % r.stderr.strip())

    # -MD: the .gltf and every external buffer it read are dependencies.
    for name in files:
        src = os.path.join(a.work, name)
        if not name.endswith('.gltf'):
            continue
        with open(src, encoding='utf-8-sig') as f:
            uris = [b.get('uri', '') for b in json.load(f).get('buffers', [])]
        bins = [urllib.parse.unquote(u) for u in uris if u and not u.startswith('data:')]
        if not bins:
            continue
        dep = src + '.d'
        r = run([a.kfc, '-MD', '-MF', dep, src, '-o', src + '.dep.kfb'])
        text = open(dep).read().replace('\\ ', ' ') if r.returncode == 0 and os.path.exists(dep) else ''  # make escapes spaces
        checks.check(all(os.path.basename(x) in text for x in [name] + bins),
                     '%s: -MD lists %s: %r' % (name, [name] + bins, text))
        # -M: the same rule, without compiling into a file.
        r = run([a.kfc, '-M', '-MF', '-', '-MT', src + '.dep.kfb', src])
        checks.check(r.returncode == 0 and r.stdout == open(dep).read(),
                     '%s: -M gives the rule -MD wrote: %r' % (name, r.stdout))

    # Under -v: what kfc leaves out, and why.
    r = run([a.kfc, '-v', os.path.join(a.work, 'names.gltf'), '-o', os.path.join(a.work, 'names.v.kfb')])
    for expect in ("/animations/0/channels/17: warning: channel skipped: it animates "
                   "'/materials/0/pbrMetallicRoughness/baseColorFactor' (KHR_animation_pointer)",
                   "note: extension 'KHR_technique_webgl' ignored (not about animation)"):
        checks.check(r.returncode == 0 and expect in r.stderr, 'names.gltf -v: no "%s" in %r' % (expect, r.stderr))

    check_step_keys(a, checks)
    check_loop(a, checks, files)
    check_names(a, checks)
    check_split(a, checks)
    check_asset_root_data(a, checks)

    # --animation that names nothing: the name meant, or the names when few.
    for name, anim, expect in (
            ('names.gltf', 'take one', "no animation named or numbered 'take one' (the file has "
             "1); did you mean 'take: one'?"),
            ('model0.gltf', 'walk', "no animation named or numbered 'walk'; the file has 1: "
             "'take0'"),
            ('model0.gltf', '1', "no animation named or numbered '1'; the file has 1: 'take0'")):
        r = subprocess.run([a.kfc, name, '-a', anim, '-o', 'x.kfb'], capture_output=True, text=True,
                           cwd=a.work)
        checks.check(r.returncode == 2 and r.stderr == "kfc: error: %s\nTry 'kfc --help' for more "
                     "information.\n" % expect, '-a %r: %d %r' % (anim, r.returncode, r.stderr))
    check_animation_option(a, checks)
    check_pointer(a, checks)
    check_mesh_weights_pointer(a, checks)
    check_mesh_weights_shared(a, checks)
    check_mesh_weights_own(a, checks)
    check_note_text(a, checks)
    check_quaternion_length(a, checks)
    check_long_duration(a, checks)
    # A JSON syntax error quotes the input near it as every message quotes a
    # name: its control bytes (C0, and C1 as UTF-8 encodes it) escaped, so
    # the diagnostic stays one line, and any other character, an é, as it
    # is. Where it looks like a ',' missing, or one with nothing after it,
    # it says so; not where a bracket is, or where no ',' stands before it.
    missing, trailing = " (is the ',' before it missing?)", \
        " (a ',' before it with nothing after? JSON allows none)"
    # A file cut short ends where a '}' or ']' is expected: no ',' is missing.
    cut = " (the file ends before its objects and arrays are closed: is it cut short?)"
    for raw, expect in ((b'{"asset": {"version": "2.0"},\n\x01}', "2:1: error: string or '}' expected near '\\x01'"),
                        (b'{"asset": {"version": "2.0"}, \xc3\xa9}',
                         "1:31: error: string or '}' expected near '\u00e9'"),
                        (b'{"asset": {"version": "2.0"}, \xc2\x9b}',
                         "1:31: error: string or '}' expected near '\\xc2\\x9b'"),
                        (b'{"asset": {"version": "2.0"}\n "scenes": []}',
                         "2:9: error: '}' expected near '\"scenes\"'" + missing),
                        (b'{"asset": {"version": "2.0"}, "nodes": [1 2]}',
                         "1:43: error: ']' expected near '2'" + missing),
                        (b'{"asset": {"version": "2.0"},\n}',
                         "2:1: error: string or '}' expected near '}'" + trailing),
                        (b'{"asset": {"version": "2.0"}, "nodes": [{},\n  ]}',
                         "2:3: error: unexpected token near ']'" + trailing),
                        (b'{"asset": {"version": "2.0"}, "nodes": ]}',
                         "1:40: error: unexpected token near ']'"),
                        (b'{"asset": {"version": "2.0"}, "nodes": [1, 2}',
                         "1:45: error: ']' expected near '}'"),
                        (b'{"asset": {"version": "2.0"}, "nodes": [{"name": "a"}\n',
                         "2:1: error: ']' expected near end of file" + cut),
                        (b'{"asset": {"version": "2.0"}, "nodes": []\n',
                         "2:1: error: '}' expected near end of file" + cut)):
        with open(os.path.join(a.work, 'syntax.gltf'), 'wb') as f:
            f.write(raw)
        r = subprocess.run([a.kfc, 'syntax.gltf', '-o', 'x.kfb'], capture_output=True, text=True,
                           cwd=a.work)
        checks.check(r.returncode == 1 and r.stderr == 'syntax.gltf:%s\n' % expect,
                     'JSON syntax error %r: %r' % (raw, r.stderr))
    # Every error of a document in one run: a broken channel does not hide the next.
    two = gen_gltf_fixtures.base_case()
    anim = two['animations'][0]
    anim['samplers'].append(dict(anim['samplers'][0], interpolation='CUBIC'))
    anim['channels'].append({'sampler': 1, 'target': {'node': 7, 'path': 'scale'}})
    anim['channels'].append({'sampler': 1, 'target': {'node': 0, 'path': 'scale'}})
    two['animations'].append({'name': 'b', 'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'rotation'}}],
                              'samplers': [{'input': 0, 'output': 1}]})
    path = os.path.join(a.work, 'two_errors.gltf')
    with open(path, 'w') as f:
        json.dump(two, f)
    r = run([a.kfc, path, '-o', path + '.kfb'])
    want = ''.join('%s: %s\n' % (path, line) for line in (
        '/animations/0/channels/1/target: error: node 7 does not exist',
        "/animations/0/samplers/1/interpolation: error: unknown interpolation 'CUBIC' "
        '(expected LINEAR, STEP or CUBICSPLINE)',
        '/animations/1/samplers/0/output: error: accessor 1 cannot hold rotation: expected '
        'VEC4 FLOAT or normalized (UNSIGNED_)BYTE/SHORT'))
    checks.check(r.returncode == 1 and r.stderr == want and not os.path.exists(path + '.kfb'),
                 'every error of a glTF document: %r' % r.stderr)

    # A channel path one edit from glTF's own is a typo: a warning at its
    # pointer, with the path meant (the channel skipped); -Werror fails the
    # compile and writes nothing. One no edit is near stays a -v note.
    for typo, want, status in (
            ('rotaton', ": /animations/0/channels/1/target/path: warning: channel skipped: path "
             "'rotaton' is not one glTF defines; did you mean 'rotation'? [-Wgltf-unknown]\n", 0),
            ('Scale', ": /animations/0/channels/1/target/path: warning: channel skipped: path "
             "'Scale' is not one glTF defines; did you mean 'scale'? [-Wgltf-unknown]\n", 0),
            ('opacity', '', 0)):
        doc = gen_gltf_fixtures.base_case()
        doc['animations'][0]['channels'].append({'sampler': 0,
                                                 'target': {'node': 0, 'path': typo}})
        path = os.path.join(a.work, 'path_%s.gltf' % typo)
        with open(path, 'w') as f:
            json.dump(doc, f)
        for args, code, shown in (([], status, want), (['-Werror'], 1 if want else 0,
                                                       want.replace('warning:', 'error:').replace(
                                                           '[-W', '[-Werror='))):
            out = path + '.kfb'
            if os.path.exists(out):
                os.remove(out)
            r = run([a.kfc] + args + [path, '-o', out])
            checks.check(r.returncode == code and r.stderr == (path + shown if shown else '') and
                         os.path.exists(out) == (code == 0),
                         'path %r %s: %d %r' % (typo, args, r.returncode, r.stderr))

    # The GLB of the invalid case glb_second_no_uri compiles once its second
    # buffer has a URI: only the missing 'uri' is refused there.
    path = os.path.join(a.work, 'second_buffer.glb')
    with open(path, 'wb') as f:
        f.write(gen_gltf_fixtures.second_buffer_glb(
            {'byteLength': 8, 'uri': 'data:application/octet-stream;base64,AAAAAAAAAAA='}))
    r = run([a.kfc, path, '-o', path + '.kfb'])
    checks.check(r.returncode == 0 and not r.stderr, 'a GLB with a second buffer, unused, that '
                 'has a URI compiles: %d %r' % (r.returncode, r.stderr))

    for case, text, expect in gen_gltf_fixtures.invalid_cases():
        path = os.path.join(a.work, 'invalid_' + case)
        with open(path, 'wb') as f:
            f.write(text)
        out = path + '.kfb'
        r = run([a.kfc, path, '-o', out])
        checks.check(r.returncode != 0 and expect in r.stderr and not os.path.exists(out)
                     and 'Sanitizer' not in r.stderr and r.stderr.count('\n') == 1
                     and all(c >= ' ' for c in r.stderr[:-1]),
                     '%s: expected exit != 0 and "%s", got %d "%s"' % (case, expect, r.returncode, r.stderr.strip()))
    print('test_gltf_import: %d checks, %d failed; worst error vs the reference %.3g (tolerance %g)'
          % (checks.count, len(checks.failures), worst, TOLERANCE))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
