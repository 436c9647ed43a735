# SPDX-License-Identifier: MIT
"""kfc's M3G importer against an independent reading of the same files
(tests/gen/m3g_reference.py): the scenes of tests/gen/gen_m3g_files.py
(every interpolation, repeat mode and keyframe encoding, stored, zlib and
empty sections, every animatable class, several tracks and controllers per
object), compiled, and played with `kfplay animate` at world times W
seconds against M3G's animate() at W x 1000 ms: before, at and between the
keys of every sequence through every controller, across loop periods and
active intervals. Also: the reference vectors' file cases (Nokia's M3G core
loading a file and animating it), decompile -> compile gives the same file,
-v says what was left out, and every hostile file gets its exact message,
exit status 1 and no output."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'gen'))
import driver  # noqa: E402
import gen_m3g_files  # noqa: E402
import m3g_reference  # noqa: E402

TOLERANCE = 2e-5  # float32 keys and kernels, relative to max(1, |value|)


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def parse_animate(text):
    """{(W, target): [values]} from `kfplay animate` lines (W reads back as
    the time asked for)."""
    out = {}
    for line in text.splitlines():
        parts = line.split()
        out[(float(parts[0]), parts[1])] = [float(x) for x in parts[2:]]
    return out


def world_times(model):
    """World times in ms where M3G's animation changes or is interesting:
    every key (and between keys, and a key's neighbourhood) of every
    sequence, seen through each controller that plays it, a few loop
    periods around, and the active intervals' ends."""
    ms = set(range(-3000, 6001, 250))
    for _, _, seq, ctl in model.bindings():
        if not ctl:
            continue
        c = model.controllers[ctl]
        s = model.sequences[seq]
        ms.update((c['start'], c['end'], c['start'] - 1, c['end'] - 1))
        keys = sorted(set(s.times[i] for i in s.order))
        points = []
        for k, t in enumerate(keys):
            points += [t, t - 0.5, t + 0.25]
            if k + 1 < len(keys):
                points += [t + (keys[k + 1] - t) * f for f in (0.3, 0.5, 0.8)]
        for period in (-1, 0, 1, 2):
            for p in points:
                ms.add(c['ref_world'] + (p + period * s.duration - c['ref_sequence']) / c['speed'])
    return sorted(w for w in ms if -20000 < w < 20000)


def compare(checks, name, kfplay, kfb, model, times):
    """kfplay animate against the reference at `times` (ms); the largest
    relative error."""
    worst = 0.0
    ws = ['%r' % (t / 1000.0) for t in times]
    got = {}
    for i in range(0, len(ws), 200):
        r = run([kfplay, kfb, 'animate'] + ws[i:i + 200])
        if not checks.check(r.returncode == 0, '%s: kfplay failed: %s' % (name, r.stderr.strip())):
            return worst
        got.update(parse_animate(r.stdout))
    targets = model.targets()
    compared = 0
    for t, w in zip(times, ws):
        want_all = model.animate(t)
        for target, (prop, components) in targets.items():
            have = got.get((float(w), target))
            if not checks.check(have is not None and len(have) == components,
                                '%s: %s at W=%s: no value (%r)' % (name, target, w, have)):
                continue
            want = want_all[target]
            if want is None:
                continue  # no active track: M3G shows the object's own value
            if prop == 'orientation' and sum(x * y for x, y in zip(have, want)) < 0:
                want = [-x for x in want]
            err = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(have, want))
            worst = max(worst, err)
            compared += 1
            checks.check(err <= TOLERANCE, '%s: %s at W=%s (M3G %.6g ms): got %s, want %s (error %.3g)'
                         % (name, target, w, t, have, want, err))
    checks.check(compared > len(times), '%s: only %d values compared' % (name, compared))
    return worst


def oracle_cases(a, checks):
    """The reference vectors' file cases: what Nokia's loader makes of a
    file, and its animate() afterwards."""
    path = os.path.join(a.oracle, 'm3g.json')
    with open(path) as f:
        cases = json.load(f)['file_cases']
    worst = 0.0
    for case in cases:
        src = os.path.join(a.work, 'oracle_' + case['name'])
        with open(src, 'wb') as f:
            f.write(bytes.fromhex(case['file_hex']))
        kfb = src + '.kfb'
        r = run([a.kfc, src, '-o', kfb])
        if case['load']['error']:
            checks.check(r.returncode == 1 and 'Adler-32' in r.stderr and not os.path.exists(kfb),
                         '%s: Nokia refuses it (%s); kfc: %d %s'
                         % (case['name'], case['load']['error'], r.returncode, r.stderr.strip()))
            continue
        if not checks.check(r.returncode == 0, '%s: kfc failed: %s' % (case['name'], r.stderr.strip())):
            continue
        objects = case['load']['objects']
        group = [o for o in objects if o['class'] == 'Group'][0]
        name = 'Group%d_uid%d' % (group['file_index'], group['user_id'])
        steps = [s for s in case['steps'] if s['op'] == 'animate']
        ws = ['%r' % (s['world_time'] / 1000.0) for s in steps]
        r = run([a.kfplay, kfb, 'animate'] + ws)
        got = parse_animate(r.stdout)
        for s, w in zip(steps, ws):
            for field, prop in (('translation', 'translation'), ('orientation_xyzw', 'orientation'),
                                ('scale', 'scale')):
                want = s['state'][field]
                have = got.get((float(w), '%s.%s' % (name, prop)))
                ok = have is not None and len(have) == len(want)
                err = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(have, want)) if ok else 1
                worst = max(worst, err)
                checks.check(err <= 1e-5, '%s: %s at world %d ms: got %s, Nokia %s'
                             % (case['name'], prop, s['world_time'], have, want))
        # The objects as Nokia loaded them: keys (8- and 16-bit decoded),
        # controller fields on kfb's clock.
        r = run([a.kfplay, kfb, 'list'])
        listing = r.stdout
        for o in objects:
            label = '%s%d_uid%d' % (o['class'], o['file_index'], o['user_id'])
            if o['class'] == 'AnimationController':
                want = '%s controller speed=%.9g weight=%.9g' % (label, o['speed'] * 1000, o['weight'])
                checks.check(want in listing, '%s: no "%s" in %s' % (case['name'], want, listing))
            if o['class'] == 'KeyframeSequence':
                for k, key in enumerate(o['keys_stored']):
                    if not o['valid_range'][0] <= k <= o['valid_range'][1]:
                        continue
                    r = run([a.kfplay, kfb, 'sample', label, str(key['t'])])
                    have = [float(x) for x in r.stdout.split()[1:]]
                    checks.check(len(have) == len(key['v']) and
                                 all(abs(x - y) <= 1e-6 * max(1, abs(y)) for x, y in zip(have, key['v'])),
                                 '%s: %s key %d: %s, Nokia stored %s' % (case['name'], label, k, have, key['v']))
    return worst


def main():
    a = driver.arguments()
    checks = driver.Checks()
    gen_m3g_files.main_into(a.work)
    worst = 0.0
    for name, data in gen_m3g_files.scenes().items():
        src = os.path.join(a.work, name)
        kfb = src + '.kfb'
        r = run([a.kfc, src, '-o', kfb])
        if not checks.check(r.returncode == 0, '%s: kfc failed: %s' % (name, r.stderr.strip())):
            continue
        model = m3g_reference.read(data)
        listing = run([a.kfplay, kfb, 'list']).stdout
        targets = sorted(l.split()[0] for l in listing.splitlines() if ' target ' in l)
        checks.check(targets == sorted(model.targets()), '%s: targets %s, the reference %s'
                     % (name, targets, sorted(model.targets())))
        worst = max(worst, compare(checks, name, a.kfplay, kfb, model, world_times(model)))
        yml, again = kfb + '.yaml', kfb + '.again.kfb'
        r1 = run([a.kfc, '--decompile', kfb, '-o', yml])
        r2 = run([a.kfc, yml, '-o', again])
        same = r1.returncode == 0 and r2.returncode == 0 and open(kfb, 'rb').read() == open(again, 'rb').read()
        checks.check(same, '%s: decompile -> compile differs (%s%s)' % (name, r1.stderr, r2.stderr))
    # The documentation's example is what the generator writes.
    with open(os.path.join(a.fixtures, 'm3g', 'swing.m3g'), 'rb') as f:
        checks.check(f.read() == gen_m3g_files.example(),
                     'fixtures/m3g/swing.m3g is not tests/gen/gen_m3g_files.py --example')
    # The three encodings of one scene make one file.
    files = []
    for n in ('scene_stored.m3g', 'scene_zlib.m3g', 'scene_mixed.m3g'):
        path = os.path.join(a.work, n + '.kfb')
        files.append(open(path, 'rb').read() if os.path.exists(path) else n)
    checks.check(files[0] == files[1] == files[2], 'stored, zlib and mixed sections give different files')
    worst = max(worst, oracle_cases(a, checks))

    # Swerve Author's name table names the objects whose user IDs it lists
    # (docs/import-m3g.md, Names; the names written out by hand here).
    src = os.path.join(a.work, 'swerve_names.m3g')
    r = run([a.kfc, '-v', src, '-o', src + '.v.kfb'])
    expect = "note: names from the AuthoringField's Swerve Author name table (5 user IDs)"
    checks.check(r.returncode == 0 and expect in r.stderr, 'names -v: no "%s" in %r' % (expect, r.stderr))
    listing = run([a.kfplay, src + '.v.kfb', 'list']).stdout.splitlines()
    for want in ('AnimationController2_Walk_Controller controller', 'KeyframeSequence3_11_-_Default sequence',
                 'KeyframeSequence4_uid17 sequence', 'KeyframeSequence5 sequence',
                 'Group11_Arm_01.translation target', 'Group12_uid999.translation target',
                 'Group13_T__te.translation target', 'Group14_' + 'L' * 64 + '.translation target',
                 'Group15_uid12.translation target'):
        checks.check(any(line.startswith(want + ' ') for line in listing),
                     'swerve_names.m3g: no "%s" in %s' % (want, listing))

    # -v: what was left out, and why.
    src = os.path.join(a.work, 'scene_mixed.m3g')
    r = run([a.kfc, '-v', src, '-o', src + '.v.kfb'])
    for expect in ('note: Group167_uid78.property300: AnimationTrack 166 animates property 300, which is '
                   'not JSR-184\'s: a custom property of 2 components',
                   'note: AnimationTrack168 belongs to no object: M3G never plays it, nor does kfc',
                   'note: animated, their other fields left out: 1 Background, 1 Camera, 1 Fog, '
                   '32 Group, 1 Light, 1 Material, 1 Mesh, 1 MorphingMesh, 1 SkinnedMesh, 1 Texture2D, '
                   '1 Sprite3D, 1 VertexBuffer, 1 World',
                   'note: 1 object has user parameters, which kfc leaves out'):
        checks.check(r.returncode == 0 and expect in r.stderr, 'scene -v: no "%s" in %r' % (expect, r.stderr))
    src = os.path.join(a.work, 'trailing_bytes.m3g')
    r = run([a.kfc, '-v', src, '-o', src + '.v.kfb'])
    expect = "note: 3 bytes after the header's TotalFileSize (257) not read, as M3G reads none"
    checks.check(r.returncode == 0 and expect in r.stderr, 'trailing -v: no "%s" in %r' % (expect, r.stderr))
    src = os.path.join(a.work, 'image_reference.m3g')
    r = run([a.kfc, '-v', src, '-o', src + '.v.kfb'])
    expect = "note: object 2: external image 'texture.PNG' not read (images hold no animation)"
    checks.check(r.returncode == 0 and expect in r.stderr, 'image -v: no "%s" in %r' % (expect, r.stderr))
    r = run([a.kfc, '--animation', 'walk', src, '-o', src + '.a.kfb'])
    checks.check(r.returncode == 2 and "error: --animation selects one of an input's animations" in r.stderr,
                 '--animation on M3G: %d %r' % (r.returncode, r.stderr))
    # From standard input, found by its identifier.
    with open(os.path.join(a.work, 'scene_zlib.m3g'), 'rb') as f:
        r = subprocess.run([a.kfc, '-', '-o', os.path.join(a.work, 'stdin.kfb')], stdin=f, capture_output=True)
    stdin_kfb = os.path.join(a.work, 'stdin.kfb')
    checks.check(r.returncode == 0 and open(stdin_kfb, 'rb').read() == files[0],
                 'standard input: %d %r' % (r.returncode, r.stderr))

    for case, data, expect in gen_m3g_files.invalid_cases():
        path = os.path.join(a.work, 'invalid_' + case)
        with open(path, 'wb') as f:
            f.write(data)
        out = path + '.kfb'
        r = run([a.kfc, path, '-o', out])
        want = '%s: %s' % (path, expect)
        checks.check(r.returncode == 1 and r.stderr.strip() == want and not os.path.exists(out),
                     '%s: expected exit 1 and "%s", got %d "%s"' % (case, want, r.returncode, r.stderr.strip()))
        if case.startswith('limit_'):
            continue  # a valid file past one of kfc's limits
        try:
            m3g_reference.read(data)
            checks.fail('%s: the reference reads it' % case)
        except m3g_reference.Error:
            pass
    print('test_m3g_import: %d checks, %d failed; worst error vs the reference %.3g (tolerance %g)'
          % (checks.count, len(checks.failures), worst, TOLERANCE))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
