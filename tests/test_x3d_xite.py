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
