# SPDX-License-Identifier: MIT
"""The X3D reference recordings, made again: tests/x3d/xite_sample.cjs plays
every scene of tests/data/x3d/ in X_ITE, now, and what it records must be
what is committed there (NAME.xite.json), which tests/test_x3d_import.py
compares kfc's import with. So the recordings stay what X_ITE plays, and
the wrapper stays working. Likewise the table of X3D's node types and
fields that kfc checks scenes against (compiler/kfc_x3d_nodes.c) must be
what tests/x3d/gen_x3d_nodes.py writes from X_ITE now.

Needs node, and x_ite (15.0.1), jsdom, jsdom-global and nogl where Node
finds them: NODE_PATH, or the global modules (`npm root -g`), where
.ci/install-test-deps puts them. Without them: SKIPPED (exit 77)."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'x3d'))
import driver  # noqa: E402
import gen_references  # noqa: E402
import gen_x3d_nodes  # noqa: E402

MODULES = ('x_ite', 'jsdom', 'jsdom-global', 'nogl')
TOLERANCE = 1e-9  # the same program on the same clock: the same numbers


def node_path():
    """A NODE_PATH under which every module is found, or None."""
    dirs = [d for d in os.environ.get('NODE_PATH', '').split(os.pathsep) if d]
    if shutil.which('npm'):
        r = subprocess.run(['npm', 'root', '-g'], capture_output=True, text=True)
        if r.returncode == 0:
            dirs.append(r.stdout.strip())
    for m in MODULES:
        if not any(os.path.isfile(os.path.join(d, m, 'package.json')) for d in dirs):
            return None
    return os.pathsep.join(dirs)


def same(a, b):
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= TOLERANCE * max(1.0, abs(b))
    return a == b


SLIDE = """DEF Clock TimeSensor { cycleInterval 2 loop TRUE }
DEF Slide PositionInterpolator { key [0 0.5 1] keyValue [0 0 0, 1 2 3, 0 0 0] }
DEF Box Transform { %s}
ROUTE Clock.fraction_changed TO Slide.set_fraction
ROUTE Slide.value_changed TO Box.set_translation
"""

# Scenes the wrapper must load as real ones do, each with a box X_ITE moves
# as kfc's import does:
# - at an X3D time of now (seconds since 1970), where a clock step of 1e-7
#   ms is below a double's resolution (an integer cycleInterval, which
#   float32 holds exactly);
# - with PROFILE Full, which loads the physics engine (its WebAssembly
#   decoded with atob), and with a Sound node (a Web Audio graph).
SCENES = (
    ('epoch', 1800000000, '#X3D V3.3 utf8\nPROFILE Immersive\n' + SLIDE % ''),
    ('full', 0, '#X3D V3.3 utf8\nPROFILE Full\n' + SLIDE % ''),
    ('sound', 0, '#X3D V3.3 utf8\nPROFILE Immersive\nCOMPONENT Sound:3\n' +
     SLIDE % 'children Sound { source AudioClip { } } '),
)


def check_scene(a, checks, name, load, text):
    os.makedirs(a.work, exist_ok=True)
    scene = os.path.join(a.work, name + '.x3dv')
    with open(scene, 'w') as f:
        f.write(text)
    cmd = ['node', os.path.join(gen_references.HERE, 'xite_sample.cjs'), scene, '--load',
           str(load), '--step', '0.25', '--until', '3']
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        checks.fail('%s, loaded at X3D time %d: X_ITE did not finish loading' % (name, load))
        return
    if not checks.check(r.returncode == 0 and r.stdout,
                        '%s, loaded at %d: %s' % (name, load, r.stderr)):
        return
    frames = json.loads(r.stdout)['frames']
    kfb = scene + '.kfb'
    subprocess.run([a.kfc, scene, '-o', kfb], check=True)
    out = subprocess.run([a.kfplay, kfb, 'animate'] + [repr(f['t']) for f in frames],
                         capture_output=True, text=True).stdout.split('\n')
    played = [[float(x) for x in line.split()[2:]] for line in out if line]
    want = [f['values']['Box.translation'] for f in frames]
    checks.check(len(frames) == 12 and len(played) == len(want) and
                 all(abs(x - y) <= 1e-6 for p, w in zip(played, want) for x, y in zip(p, w)),
                 '%s, loaded at %d: kfb %s, X_ITE %s' % (name, load, played, want))


def main():
    a = driver.arguments()
    path = node_path() if shutil.which('node') else None
    if not path:
        print('test_x3d_xite: SKIPPED: install nodejs and npm install x_ite '
              '(with jsdom, jsdom-global and nogl; .ci/install-test-deps)')
        return 77
    os.environ['NODE_PATH'] = path
    checks = driver.Checks()
    with open(os.path.join(gen_references.DATA, 'scenes.json')) as f:
        manifest = json.load(f)
    for name in sorted(manifest):
        try:
            live = gen_references.record(name, manifest[name])
        except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
            checks.fail('%s: X_ITE: %s' % (name, e))
            continue
        with open(os.path.join(gen_references.DATA, os.path.splitext(name)[0] + '.xite.json')) as f:
            committed = json.load(f)
        checks.check(live['xite'] == committed['xite'],
                     '%s: X_ITE %s, the recording was made with %s' % (name, live['xite'],
                                                                       committed['xite']))
        checks.check(same(live, committed), '%s: X_ITE plays what is committed' % name)
    for name, load, text in SCENES:
        check_scene(a, checks, name, load, text)
    try:
        version, table = gen_x3d_nodes.nodes()
    except (RuntimeError, ValueError, subprocess.TimeoutExpired) as e:
        checks.fail('node types: X_ITE: %s' % e)
    else:
        with open(gen_x3d_nodes.OUT) as f:
            checks.check(f.read() == gen_x3d_nodes.source(version, table),
                         'compiler/kfc_x3d_nodes.c is not what X_ITE %s defines: '
                         'python3 tests/x3d/gen_x3d_nodes.py writes it again' % version)
    print('test_x3d_xite: %d scenes, %d checks, %d failed' % (len(manifest), checks.count,
                                                             len(checks.failures)))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
