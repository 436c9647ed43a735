#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks kfc's glTF importer on a directory of real glTF 2.0 assets (not
part of `scons test`: the assets are not the project's to ship).

    tests/gltf_assets.py DIR... [--kfc PATH] [--kfplay PATH] [--tolerance X]

For every .gltf / .glb under DIR that has animations, and for each of its
animations (`kfc --animation INDEX`, so that no other animation adds to a
target), it compiles the file, plays it with `kfplay animate W` before the
first key, at every key, between keys and after the last, and compares each
target with the glTF specification's sampling at t = W seconds
(tests/gen/gltf_reference.py), reading the file's buffers and accessors
here, apart from kfc. It then decompiles the .kfb, compiles the YAML again
and checks the result is the same file. It prints one line per file with the
largest error (relative to max(1, |value|)) and exits non-zero if any file
fails to import or is off by more than the tolerance. Files kfc refuses for
an extension they require are reported as such, not as failures."""
import argparse
import base64
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'gen'))
sys.path.insert(0, HERE)
import driver  # noqa: E402
import gltf_reference  # noqa: E402

PATHS = {'translation': 'translation', 'rotation': 'orientation', 'scale': 'scale',
         'weights': 'morph_weights'}
COMPONENT = {5120: ('b', 1), 5121: ('B', 1), 5122: ('h', 2), 5123: ('H', 2), 5125: ('I', 4),
             5126: ('f', 4)}
NORMALIZE = {5120: lambda c: max(c / 127.0, -1.0), 5121: lambda c: c / 255.0,
             5122: lambda c: max(c / 32767.0, -1.0), 5123: lambda c: c / 65535.0}
TYPES = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT2': 4, 'MAT3': 9, 'MAT4': 16}
MAX_TIMES = 600  # world times played per animation (a sample of them past this)


def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


class Document:
    """A glTF file's JSON and buffers, with accessors decoded as the spec
    defines them (byte strides, sparse substitution, normalized integers)."""

    def __init__(self, path):
        self.path = path
        with open(path, 'rb') as f:
            data = f.read()
        self.bin = None
        if data[:4] == b'glTF':
            length = struct.unpack_from('<I', data, 8)[0]
            pos, chunks = 12, []
            while pos + 8 <= length:
                n, kind = struct.unpack_from('<II', data, pos)
                chunks.append((kind, data[pos + 8:pos + 8 + n]))
                pos += 8 + n
            self.json = json.loads(chunks[0][1].decode('utf-8-sig'))
            if len(chunks) > 1 and chunks[1][0] == 0x004E4942:
                self.bin = chunks[1][1]
        else:
            self.json = json.loads(data.decode('utf-8-sig'))
        if not isinstance(self.json, dict):
            raise ValueError('not a JSON object')
        self.buffers = {}

    def buffer(self, i):
        if i not in self.buffers:
            b = self.json['buffers'][i]
            uri = b.get('uri')
            if uri is None:
                data = self.bin
            elif uri.startswith('data:'):
                data = base64.b64decode(uri.split(',', 1)[1])
            else:
                with open(os.path.join(os.path.dirname(self.path), urllib.parse.unquote(uri)), 'rb') as f:
                    data = f.read()
            self.buffers[i] = data
        return self.buffers[i]

    def _read(self, view_index, offset, count, comps, ctype, normalized):
        v = self.json['bufferViews'][view_index]
        data = self.buffer(v['buffer'])
        fmt, size = COMPONENT[ctype]
        stride = v.get('byteStride', comps * size)
        base = v.get('byteOffset', 0) + offset
        out = []
        for i in range(count):
            out += struct.unpack_from('<%d%s' % (comps, fmt), data, base + i * stride)
        if normalized:
            return [NORMALIZE[ctype](c) for c in out]
        return [float(c) for c in out]

    def accessor(self, i):
        a = self.json['accessors'][i]
        comps, count, ctype = TYPES[a['type']], a['count'], a['componentType']
        norm = a.get('normalized', False)
        if 'bufferView' in a:
            values = self._read(a['bufferView'], a.get('byteOffset', 0), count, comps, ctype, norm)
        else:
            values = [0.0] * (count * comps)
        s = a.get('sparse')
        if s:
            idx = self._read(s['indices']['bufferView'], s['indices'].get('byteOffset', 0),
                             s['count'], 1, s['indices']['componentType'], False)
            sub = self._read(s['values']['bufferView'], s['values'].get('byteOffset', 0),
                             s['count'], comps, ctype, norm)
            for k, j in enumerate(idx):
                values[int(j) * comps:(int(j) + 1) * comps] = sub[k * comps:(k + 1) * comps]
        return values

    def node_object(self, index):
        """The object name kfc gives node `index` (kfc_gltf.h)."""
        nodes = self.json.get('nodes', [])
        name = nodes[index].get('name')
        fallback = 'node%d' % index
        taken = re.fullmatch(r'node[0-9]+', name or '') and name != fallback
        if isinstance(name, str) and name and '\0' not in name and not taken and \
                sum(1 for n in nodes if n.get('name') == name) == 1:
            return name
        return fallback

    def channels(self, ai):
        """The channels of animation `ai` that kfc imports, as
        gltf_reference.sample takes them, with their kfb target names; and
        how many it skips (targets kfc does not animate)."""
        anim = self.json['animations'][ai]
        out, skipped = [], 0
        for ch in anim['channels']:
            t = ch.get('target', {})
            # KHR_animation_pointer's node targets are the core ones
            pointer = t.get('extensions', {}).get('KHR_animation_pointer', {}).get('pointer', '')
            m = re.fullmatch(r'/nodes/(0|[1-9][0-9]*)/(translation|rotation|scale|weights)',
                             pointer) if t.get('path') == 'pointer' else None
            if m:
                t = {'node': int(m.group(1)), 'path': m.group(2)}
            if t.get('path') not in PATHS or 'node' not in t:
                skipped += 1
                continue
            s = anim['samplers'][ch['sampler']]
            interp = s.get('interpolation', 'LINEAR')
            times = self.accessor(s['input'])
            outputs = self.accessor(s['output'])
            comps = {'rotation': 4, 'weights': 1}.get(t['path'], 3)
            width = len(outputs) // comps // len(times) // (3 if interp == 'CUBICSPLINE' else 1)
            out.append({'target': '%s.%s' % (self.node_object(t['node']), PATHS[t['path']]),
                        'path': t['path'], 'interpolation': interp, 'times': times,
                        'outputs': outputs, 'width': width})
        return out, skipped


def shortest_f32(t):
    """The shortest decimal that reads back as the float32 t: how an exporter
    writes a key's time, and what a user types to play that key."""
    for digits in range(1, 10):
        text = '%.*g' % (digits, t)
        if f32(float(text)) == t:
            return text
    return '%.9g' % t


def world_times(channels):
    """{W string: t}: before the first key, at each key (W the shortest
    decimal of the key's float32 seconds: the key's own time plays the key),
    between keys and after the last."""
    at, between = {}, {}
    for c in channels:
        ts = c['times']
        for t in (0.0, ts[0] / 2, ts[-1] + 0.25, ts[-1] + 1.0):
            at.setdefault('%.9g' % t, t)
        for k in range(len(ts)):
            at[shortest_f32(ts[k])] = ts[k]
            if k + 1 < len(ts):
                for j in (1, 3):
                    t = ts[k] + (ts[k + 1] - ts[k]) * j / 4
                    between.setdefault('%.9g' % t, t)
    for w, t in between.items():
        at.setdefault(w, t)
    if len(at) > MAX_TIMES:  # an even sample, keeping the ends
        ws = sorted(at, key=float)
        step = len(ws) / MAX_TIMES
        keep = {ws[int(i * step)] for i in range(MAX_TIMES)} | {ws[0], ws[-1]}
        at = {w: at[w] for w in keep}
    return at


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def parse_animate(out, targets, got):
    """Adds {(W as %.9g, target): values} from `kfplay animate` output
    "W target v...\\n" to `got`. A target name may hold spaces, so the names
    `targets` lists are matched (longest first), as kfplay shows them (a
    line break or another control as \\xNN: driver.terminal_text)."""
    shown = {driver.terminal_text(n): n for n in targets}
    names = sorted(shown, key=len, reverse=True)
    pos = 0
    while pos < len(out):
        sp = out.index(' ', pos)
        name = next((n for n in names if out.startswith(n + ' ', sp + 1)), None)
        start = sp + 1 + (len(name) + 1 if name is not None else 0)
        end = out.index('\n', start)
        if name is not None:
            got[('%.9g' % float(out[pos:sp]), shown[name])] = [float(x) for x in
                                                               out[start:end].split()]
        pos = end + 1
    return got


def play(kfplay, kfb, ws, targets):
    """{(W, target): values} from `kfplay animate`."""
    got = {}
    for i in range(0, len(ws), 200):
        r = run([kfplay, kfb, 'animate'] + ws[i:i + 200])
        if r.returncode != 0:
            raise RuntimeError('kfplay: ' + r.stderr.strip())
        parse_animate(r.stdout, targets, got)
    return got


def compare(channels, at, got):
    """The largest error and where it is."""
    worst, where = 0.0, ''
    for c in channels:
        for w, t in at.items():
            want = gltf_reference.sample(c, t)
            have = got.get(('%.9g' % float(w), c['target']))
            if have is None or len(have) != len(want):
                return math.inf, '%s at W=%s: no value (%s)' % (c['target'], w, have)
            if c['path'] == 'rotation' and sum(x * y for x, y in zip(have, want)) < 0:
                want = [-x for x in want]
            err = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(have, want))
            if err > worst:
                worst, where = err, '%s (%s) at W=%s: got %s, want %s' % (
                    c['target'], c['interpolation'], w, have, want)
    return worst, where


def variants(doc, work):
    """The document rewritten as .glb and as .gltf with base64 data URIs
    (when it is neither): [(label, path)]."""
    buffers = doc.json.get('buffers', [])
    if doc.bin is not None or not buffers or all(
            b.get('uri', '').startswith('data:') for b in buffers):
        return []
    datas = [doc.buffer(i) for i in range(len(buffers))]
    embedded = json.loads(json.dumps(doc.json))
    for b, data in zip(embedded['buffers'], datas):
        b['uri'] = 'data:application/octet-stream;base64,' + base64.b64encode(data).decode()
    base = os.path.join(work, os.path.splitext(os.path.basename(doc.path))[0])
    with open(base + '.embedded.gltf', 'w') as f:
        json.dump(embedded, f)
    # GLB: every buffer joined into the BIN chunk (4-byte aligned), views moved
    glb = json.loads(json.dumps(doc.json))
    blob, starts = bytearray(), []
    for data in datas:
        blob += b'\0' * (-len(blob) % 8)
        starts.append(len(blob))
        blob += data
    glb['buffers'] = [{'byteLength': len(blob)}]
    for v in glb.get('bufferViews', []):
        v['byteOffset'] = v.get('byteOffset', 0) + starts[v['buffer']]
        v['buffer'] = 0
    js = json.dumps(glb).encode()
    js += b' ' * (-len(js) % 4)
    blob += b'\0' * (-len(blob) % 4)
    body = struct.pack('<II', len(js), 0x4E4F534A) + js + struct.pack('<II', len(blob), 0x004E4942) + blob
    with open(base + '.glb', 'wb') as f:
        f.write(struct.pack('<III', 0x46546C67, 2, 12 + len(body)) + body)
    return [('as .glb', base + '.glb'), ('embedded', base + '.embedded.gltf')]


def refused(path, a, work, why):
    """For a file this reader cannot take: kfc must refuse it cleanly."""
    r = run([a.kfc, path, '-o', os.path.join(work, 'bad.kfb')])
    ok = r.returncode in (1, 3) and ': error: ' in r.stderr and 'Sanitizer' not in r.stderr
    return ('rejected' if ok else 'FAIL'), None, r.stderr.strip() or why


def check_file(path, a, work, doc=None):
    """(status, max error, detail)."""
    try:
        doc = doc or Document(path)
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError,
            RecursionError, struct.error) as e:
        return refused(path, a, work, str(e))
    anims = doc.json.get('animations') or []
    if not anims:
        return 'no animation', None, ''
    try:
        for i in range(len(doc.json.get('buffers', []))):
            doc.buffer(i)
    except FileNotFoundError as e:
        return 'incomplete', None, 'a buffer is missing here: %s' % e
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
        return refused(path, a, work, str(e))
    kfb = os.path.join(work, 'all.kfb')
    r = run([a.kfc, path, '-o', kfb])
    if r.returncode != 0:
        if doc.json.get('extensionsRequired') and 'requires extension' in r.stderr:
            return 'refused', None, r.stderr.strip()
        return 'FAIL', None, 'kfc: ' + r.stderr.strip()
    worst, detail, skipped = 0.0, '', 0
    for ai in range(len(anims)):
        try:
            channels, s = doc.channels(ai)
        except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError,
                ZeroDivisionError, struct.error) as e:
            return refused(path, a, work, 'animation %d: %s' % (ai, e))
        skipped += s
        one = os.path.join(work, 'a%d.kfb' % ai)
        r = run([a.kfc, '--animation', str(ai), path, '-o', one])
        if r.returncode != 0:
            return 'FAIL', None, 'kfc --animation %d: %s' % (ai, r.stderr.strip())
        if not channels:
            continue
        at = world_times(channels)
        ws = sorted(at, key=float)
        try:
            got = play(a.kfplay, one, ws, {c['target'] for c in channels})
        except RuntimeError as e:
            return 'FAIL', None, 'animation %d: %s' % (ai, e)
        err, where = compare(channels, at, got)
        if err > worst:
            worst, detail = err, 'animation %d: %s' % (ai, where)
        # decompile -> compile: the same file
        yml, again = one + '.yaml', one + '.again.kfb'
        r1 = run([a.kfc, '--decompile', one, '-o', yml])
        r2 = run([a.kfc, yml, '-o', again]) if r1.returncode == 0 else r1
        if r2.returncode != 0:
            return 'FAIL', worst, 'animation %d: decompile -> compile: %s' % (ai, r2.stderr.strip())
        with open(one, 'rb') as f1, open(again, 'rb') as f2:
            if f1.read() != f2.read():
                return 'FAIL', worst, 'animation %d: decompile -> compile gives another file' % ai
    status = 'ok' if worst <= a.tolerance else 'FAIL'
    if skipped:
        detail = ('%d channel(s) skipped (targets kfc does not animate, e.g. '
                  'a KHR_animation_pointer to a material); ' % skipped) + detail
    return status, worst, detail


def main():
    root = os.path.dirname(HERE)
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('dirs', nargs='+', help='directories (searched recursively) or files')
    ap.add_argument('--kfc', default=os.path.join(root, 'build/release/compiler/kfc'))
    ap.add_argument('--kfplay', default=os.path.join(root, 'build/release/tools/kfplay'))
    ap.add_argument('--tolerance', type=float, default=2e-5,
                    help='largest error accepted, relative to max(1, |value|)')
    ap.add_argument('-v', '--verbose', action='store_true', help='say where the largest error is')
    ap.add_argument('--no-variants', action='store_true',
                    help='do not also check each .gltf rewritten as .glb and with data URIs')
    a = ap.parse_args()
    files = []
    for d in a.dirs:
        if os.path.isfile(d):
            files.append(d)
        for dirpath, _, names in os.walk(d):
            files += [os.path.join(dirpath, n) for n in names
                      if n.lower().endswith(('.gltf', '.glb'))]
    failed = checked = incomplete = 0
    with tempfile.TemporaryDirectory() as work:
        for path in sorted(files):
            results = [('', check_file(path, a, work))]
            if results[0][1][0] == 'ok' and not a.no_variants:
                for label, p in variants(Document(path), work):
                    results.append((' (%s)' % label, check_file(p, a, work)))
            for label, (status, err, detail) in results:
                if status == 'no animation':
                    continue
                checked += 1
                failed += status == 'FAIL'
                incomplete += status == 'incomplete'
                line = '%-10s %-9s %s%s' % (status, '-' if err is None else '%.3g' % err, path, label)
                if detail and (a.verbose or status != 'ok'):
                    line += '\n           ' + detail
                print(line, flush=True)
    print('%d animated files: %d passed, %d failed, %d incomplete (a buffer missing)'
          % (checked, checked - failed - incomplete, failed, incomplete))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
