# SPDX-License-Identifier: MIT
"""kfc's glTF importer against an independent reference of glTF's sampling
rules (tests/gen/gltf_reference.py): fixtures written by
tests/gen/gen_gltf_fixtures.py (.gltf + .bin, base64 data URI, .glb; every
sampler kind on every path, sparse, normalized integers), compiled, played
with `kfplay animate` at W = t seconds, before the first key, between keys, at
keys and after the last. Also: decompile -> compile is byte-identical, and
broken glTF (tests/gen's hostile cases) gets the expected message."""
import json
import urllib.parse
import os
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

    # Under -v: what kfc leaves out, and why.
    r = run([a.kfc, '-v', os.path.join(a.work, 'names.gltf'), '-o', os.path.join(a.work, 'names.v.kfb')])
    for expect in ("/animations/0/channels/17: channel skipped: a KHR_animation_pointer target",
                   "note: extension 'KHR_technique_webgl' ignored (not about animation)"):
        checks.check(r.returncode == 0 and expect in r.stderr, 'names.gltf -v: no "%s" in %r' % (expect, r.stderr))

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
