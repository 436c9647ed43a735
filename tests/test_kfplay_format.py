#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfplay --format csv|json: the output parses with Python's csv and json
modules and holds exactly the numbers (and names, flags) of the text output,
for sample (sequences and interpolators), velocity, sample-distance,
animate (names that need quoting and escaping included) and follow."""
import csv
import io
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def text_rows(out):
    """The text format's numbers, one list per line."""
    return [[float(x) for x in line.split()] for line in out.decode().splitlines()]


def main():
    args = driver.arguments()
    c = driver.Checks()
    kfbs = {}
    for src in ('leg_walk', 'x3d_interpolators', 'followers', 'names'):
        kfbs[src] = os.path.join(args.work, src + '.kfb')
        r = run([args.kfc, os.path.join(args.fixtures, src + '.yaml'), '-o', kfbs[src]])
        c.check(r.returncode == 0, 'kfc %s' % src)

    commands = [
        ('leg_walk', ['sample', 'hip_position', '0', '0.5', '-1.25', '3.999', '7']),
        ('leg_walk', ['sample', 'knee_angle', '0', '1.5', '2.25']),
        ('leg_walk', ['velocity', 'hip_position', '0.5', '2']),
        ('leg_walk', ['sample-distance', 'hip_position', '0', '10', '100']),
        ('x3d_interpolators', ['sample', 'door', '0', '0.3', '1']),
        ('x3d_interpolators', ['sample', 'mesh', '0', '0.5']),
        ('followers', ['follow', 'cam', '--tick', '0.1', '--until', '1',
                       '--event', '0.2:destination=1,2,3']),
        ('followers', ['follow', 'aim', '--tick', '0.25', '--until', '1',
                       '--event', '0:destination=0,1,0,1.5']),
    ]
    for src, cmd in commands:
        tag = ' '.join(cmd[:2])
        text = run([args.kfplay, kfbs[src]] + cmd)
        csv_out = run([args.kfplay, kfbs[src]] + cmd + ['--format', 'csv'])
        json_out = run([args.kfplay, kfbs[src]] + cmd + ['--format=json'])
        if not c.check(text.returncode == csv_out.returncode == json_out.returncode == 0,
                       '%s: all three run' % tag):
            continue
        want = text_rows(text.stdout)
        follow = cmd[0] == 'follow'
        got_csv = list(csv.reader(io.StringIO(csv_out.stdout.decode(), newline='')))
        header, body = got_csv[0], got_csv[1:]
        c.check(header[0] in ('t', 's', 'fraction') and header[1] == 'v0' and
                (header[-1] == 'active') == follow, '%s: csv header %s' % (tag, header))
        c.check([[float(x) for x in row] for row in body] == want, '%s: csv numbers' % tag)
        doc = json.loads(json_out.stdout)
        key = header[0]
        as_rows = [[o[key]] + o['value'] + ([1.0 if o['active'] else 0.0] if follow else [])
                   for o in doc]
        c.check(as_rows == want, '%s: json numbers' % tag)

    # animate: a label column; names with commas, quotes, tabs, newlines, UTF-8.
    for src, times in (('leg_walk', ['0', '0.5', '1.25']), ('names', ['0', '0.5'])):
        text = run([args.kfplay, kfbs[src], 'animate'] + times)
        csv_out = run([args.kfplay, kfbs[src], 'animate'] + times + ['--format', 'csv'])
        json_out = run([args.kfplay, kfbs[src], 'animate'] + times + ['--format', 'json'])
        doc = json.loads(json_out.stdout)
        body = list(csv.reader(io.StringIO(csv_out.stdout.decode(), newline='')))[1:]
        c.check(len(doc) == len(body) > 0, 'animate %s: as many rows' % src)
        # The text form, rebuilt from each structured form, is the text output.
        from_json = ''.join('%s %s%s\n' % (fmt(o['w']), o['target'],
                                           ''.join(' ' + fmt(v) for v in o['value']))
                            for o in doc)
        from_csv = ''.join('%s %s%s\n' % (fmt(float(r[0])), r[1],
                                          ''.join(' ' + fmt(float(v)) for v in r[2:] if v))
                           for r in body)
        c.check(from_json == text.stdout.decode(), 'animate %s: json = text' % src)
        c.check(from_csv == text.stdout.decode(), 'animate %s: csv = text' % src)
        if src == 'names':
            c.check({'t\tt.alpha', "q'.alpha", '🎬.alpha'} <= {o['target'] for o in doc},
                    'animate names: every odd name survives json')

    # Usage errors.
    for bad in (['--format', 'xml'], ['--format']):
        r = run([args.kfplay, kfbs['leg_walk'], 'sample', 'hip_position', '0'] + bad)
        c.check(r.returncode == 2 and not r.stdout, 'sample %s: usage error' % bad)
    r = run([args.kfplay, kfbs['leg_walk'], 'list', '--format', 'json'])
    c.check(r.returncode == 2, 'list has no --format')
    print('test_kfplay_format: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


def fmt(x):
    """%.9g as C prints it (the text format)."""
    return '%.9g' % x


if __name__ == '__main__':
    sys.exit(main())
