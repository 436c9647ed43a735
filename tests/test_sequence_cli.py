#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every KeyframeSequence case of oracle/m3g.json through the full path:
YAML source -> kfc -> .kfb -> kfplay sample, compared with the reference
values (1e-5 relative, max(1, |v|) scaling). Samples where Nokia has a quirk
we do not reproduce are compared with our rule (gen_m3g_oracle.py's
reference). Also checks that decompiling each compiled case and compiling
the result gives the same bytes.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))
import driver  # noqa: E402
import gen_m3g_oracle as ref  # noqa: E402

TOL = 1e-5


def yaml_source(case):
    """The case as a kfb source, written the way an author would."""
    lines = ['kfb: 1', 'sequences:', '  %s:' % case['name'],
             '    interpolation: %s' % case['interpolation'].lower(),
             '    repeat: %s' % case['repeat'].lower(),
             '    duration: %r' % case['duration'],
             '    valid_range: [%d, %d]' % tuple(case['valid_range']),
             '    keys:']
    for k in case['keys']:
        lines.append('      - [%r, [%s]]' % (k['t'], ', '.join(repr(float(x)) for x in k['v'])))
    return '\n'.join(lines) + '\n'


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def main():
    args = driver.arguments()

    path = os.path.join(args.oracle, 'm3g.json')
    if not os.path.exists(path):
        print('test_sequence_cli: FAILED: no oracle at %s' % path)
        return 1
    cases = json.load(open(path))['cases']
    failures, checks = [], 0
    for case in cases:
        name = case['name']
        src = os.path.join(args.work, name + '.yaml')
        kfb = os.path.join(args.work, name + '.kfb')
        with open(src, 'w') as f:
            f.write(yaml_source(case))
        r = run([args.kfc, src, '-o', kfb])
        if r.returncode != 0:
            failures.append('%s: kfc failed: %s' % (name, r.stderr.strip()))
            continue
        times = [s['t'] for s in case['samples']]
        r = run([args.kfplay, kfb, 'sample', name] + [str(t) for t in times])
        if r.returncode != 0:
            failures.append('%s: kfplay failed: %s' % (name, r.stderr.strip()))
            continue
        rows = r.stdout.splitlines()
        checks += 1
        if len(rows) != len(times):
            failures.append('%s: %d lines for %d times' % (name, len(rows), len(times)))
            continue
        for s, row in zip(case['samples'], rows):
            fields = row.split()
            want = ref.reference_sample(case, s['t']) if 'note' in s else s['v']
            checks += 1
            if float(fields[0]) != float(s['t']) or len(fields) != 1 + case['components']:
                failures.append('%s: bad line %r for t=%r' % (name, row, s['t']))
                continue
            for k, (got, exp) in enumerate(zip(map(float, fields[1:]), want)):
                checks += 1
                if abs(got - exp) > TOL * max(1.0, abs(exp)):
                    failures.append('%s t=%r component %d: got %.9g, want %.9g%s' % (
                        name, s['t'], k, got, exp, ' (our rule)' if 'note' in s else ''))

        # Decompile -> compile gives the same bytes.
        back = os.path.join(args.work, name + '.decompiled.yaml')
        again = os.path.join(args.work, name + '.again.kfb')
        r1 = run([args.kfc, '--decompile', kfb, '-o', back])
        r2 = run([args.kfc, back, '-o', again]) if r1.returncode == 0 else r1
        checks += 1
        if r2.returncode != 0:
            failures.append('%s: decompile/recompile failed: %s' % (name, r2.stderr.strip()))
        elif open(kfb, 'rb').read() != open(again, 'rb').read():
            failures.append('%s: decompiled source compiles to different bytes' % name)

    for f in failures[:50]:
        print('FAIL', f)
    print('test_sequence_cli: %d cases, %d checks, %d failed' % (len(cases), checks, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
