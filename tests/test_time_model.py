# SPDX-License-Identifier: MIT
"""One clock, in seconds: the examples of formats/yaml.md and README.md play as
their comments say. yaml.md's door turns half a turn about y in 2 s and starts
over, its camera damper comes within 10 cm of [1, 2, 0] after 1.93 s and rests
from 3.6 s; the README's door turns a quarter turn in 2 s and its hip loops
every 4 s. The sources are taken from the documents themselves. And a time
written as a key's own decimal plays that key (a step sequence, coincident
interpolator keys, a controller at speed 1000). kf_build.h's time fields say
their unit, and so do formats/kfb.md's."""
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def example(path, name):
    """The block a document writes to `name` (`<!-- file: name -->`)."""
    text = open(path, encoding='utf-8').read()
    m = re.search(r'<!--\s*file:\s*%s\s*-->\s*\n```yaml\n(.*?)```' % re.escape(name), text, re.S)
    return m.group(1) if m else None


def angle_about_y(q):
    """The rotation angle of quaternion x y z w about +y, in [0, 2 pi)."""
    return (2.0 * math.atan2(q[1], q[3])) % (2.0 * math.pi)


def main():
    a = driver.arguments('--root')
    c = driver.Checks()
    os.makedirs(a.work, exist_ok=True)

    def compile_doc(doc, name):
        src = example(os.path.join(a.root, doc), name)
        if not c.check(src is not None, '%s has no block for %s' % (doc, name)):
            return None
        path = os.path.join(a.work, name)
        with open(path, 'w') as f:
            f.write(src)
        kfb = path + '.kfb'
        r = subprocess.run([a.kfc, path, '-o', kfb], capture_output=True, text=True)
        return kfb if c.check(r.returncode == 0, '%s: %s' % (name, r.stderr)) else None

    def animate(kfb, target, times):
        r = subprocess.run([a.kfplay, kfb, 'animate'] + ['%.17g' % t for t in times],
                           capture_output=True, text=True)
        rows = [l.split() for l in r.stdout.splitlines()]
        return [list(map(float, row[2:])) for row in rows if row[1] == target]

    kfb = compile_doc('formats/yaml.md', 'example.yaml')
    if kfb:
        # The door: half a turn about y in 2 s, eased, then over again.
        times = [0, 0.5, 1, 1.5, 1.999, 2, 2.5, 3, 3.5, 3.999, 4]
        angles = [angle_about_y(q) for q in animate(kfb, 'door.orientation', times)]
        at = dict(zip(times, angles))
        c.check(at[0] < 1e-6 and at[2] < 1e-6 and at[4] < 1e-6, 'door at 0, 2, 4 s: %s' % angles)
        c.check(3.1 < at[1.999] <= 3.1416 and 3.1 < at[3.999] <= 3.1416,
                'door just before 2 and 4 s: %.4f %.4f rad' % (at[1.999], at[3.999]))
        for t in (0.5, 1, 1.5):
            c.check(abs(at[t] - at[t + 2]) < 1e-6, 'door at %g and %g s' % (t, t + 2))
        c.check(0 < at[0.5] < at[1] < at[1.5] < at[1.999], 'door turns on: %s' % angles)
        # Eased: slower than uniform at the start, the same in the middle.
        c.check(at[0.5] < 0.25 * 3.14, 'door eased in: %.4f rad at 0.5 s' % at[0.5])
        # The camera damper, every 10 ms.
        r = subprocess.run([a.kfplay, kfb, 'follow', 'cam', '--tick', '0.01', '--until', '4'],
                           capture_output=True, text=True)
        rows = [list(map(float, l.split())) for l in r.stdout.splitlines()]
        by_time = {round(row[0], 6): row for row in rows}

        def distance(t):
            row = by_time[round(t, 6)]
            return math.dist(row[1:4], (1, 2, 0))

        c.check(distance(1.92) >= 0.1 > distance(1.93),
                'cam within 10 cm at 1.93 s, not 1.92: %.5f %.5f' % (distance(1.92), distance(1.93)))
        c.check(by_time[3.59][4] == 1 and by_time[3.6][4] == 0 and distance(3.6) == 0,
                'cam at rest from 3.6 s: %s %s' % (by_time[3.59], by_time[3.6]))

    kfb = compile_doc('README.md', 'walk.yaml')
    if kfb:
        times = [0, 1, 1.999, 2, 3]
        at = dict(zip(times, [angle_about_y(q) for q in animate(kfb, 'door.orientation', times)]))
        c.check(abs(at[1] - math.pi / 4) < 1e-6 and at[2] < 1e-6 and at[0] < 1e-6 and
                abs(at[3] - math.pi / 4) < 1e-6 and abs(at[1.999] - math.pi / 2) < 2e-3,
                'README door: a quarter turn every 2 s: %s' % at)
        hip = animate(kfb, 'hip.translation', [1, 5, 2.5, 6.5])
        c.check(hip[0] == [80, 33, 0] and hip[1] == hip[0] and hip[2] == [60, 30, 0] and
                hip[3] == hip[2], 'README hip: keys at 1 and 2.5 s, a 4 s loop: %s' % hip)
    # A time written as a key's own decimal plays that key, though the key
    # is the float32 nearest to it: a step sequence, coincident interpolator
    # keys (the right limit), and through a controller at speed 1000.
    src = os.path.join(a.work, 'keys.yaml')
    with open(src, 'w') as f:
        f.write("""kfb: 1
sequences:
  step: {interpolation: step, duration: 1, keys: [[0, 6.665], [0.458, 10], [0.7, 3]]}
  ms: {interpolation: step, duration: 1000, keys: [[0, 1], [458, 2]]}
interpolators:
  pair: {node: ScalarInterpolator, key: [0, 0.1, 0.1, 1], keyValue: [0, 1, 5, 10]}
controllers:
  s: {}
  ms: {speed: 1000}
tracks:
  - {animator: step, controller: s, target: a.level, components: 1}
  - {animator: ms, controller: ms, target: b.level, components: 1}
""")
    kfb = src + '.kfb'
    subprocess.run([a.kfc, src, '-o', kfb], check=True)

    def sample(name, t):
        r = subprocess.run([a.kfplay, kfb, 'sample', name, t], capture_output=True, text=True)
        return float(r.stdout.split()[1])

    c.check(sample('step', '0.458') == 10 and abs(sample('step', '0.4579999') - 6.665) < 1e-6,
            'step at its key 0.458: %g, just before: %g' % (sample('step', '0.458'),
                                                            sample('step', '0.4579999')))
    c.check(sample('pair', '0.1') == 5 and abs(sample('pair', '0.0999999') - 1) < 1e-5,
            'coincident interpolator keys at 0.1: %g' % sample('pair', '0.1'))
    c.check(animate(kfb, 'a.level', [0.458])[0] == [10] and
            animate(kfb, 'b.level', [0.458])[0] == [2],
            'world 0.458 s plays the key at 0.458 s and, at speed 1000, the key at 458')

    # The builder's header gives every time field its unit: kf.h's clock.
    build_h = open(os.path.join(a.root, 'offline', 'kf_build.h'), encoding='utf-8').read()
    c.check('kf.h\'s "Time" section' in build_h, 'kf_build.h points to kf.h\'s Time section')
    for field in ('duration', 'times', 'tau', 'speed', 'active_start', 'active_end', 'ref_world',
                  'ref_sequence', 'cycle_interval'):
        for line in re.findall(r'^\s*(?:const )?double \*?%s;.*$' % field, build_h, re.M):
            c.check(re.search(r'/\*.*(seconds|sequence time)', line),
                    'kf_build.h: %s has no unit: %s' % (field, line.strip()))
    # So does the binary format's: every time field of formats/kfb.md.
    kfb_md = open(os.path.join(a.root, 'formats', 'kfb.md'), encoding='utf-8').read()
    for field in ('duration', 'times', 'cycle_interval'):
        rows = re.findall(r'^\| `%s` +\|.*$' % field, kfb_md, re.M)
        c.check(rows and all(re.search(r'seconds|sequence time', row) for row in rows),
                'formats/kfb.md: %s has no unit: %s' % (field, rows))
    controller = kfb_md.split('#### Controller', 1)[-1].split('\n#### ', 1)[0]
    for field in ('speed', 'active_end', 'ref_world', 'ref_sequence'):
        c.check(re.search(r'`%s`\s*\([^)]*(seconds|sequence time)' % field, controller),
                'formats/kfb.md: the controller\'s %s has no unit' % field)
    print('test_time_model: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
