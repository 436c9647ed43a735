#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfc's shell habits: the command line grammar it shares with kfplay
(getopt_long: combined short options, attached values, --opt=value, '--',
'-' for standard input and output, --help and --version on standard
output, a usage error as one line and a pointer to --help); -v reports
what was compiled (checked against the file itself), -q silences it; --color and NO_COLOR decide the colour of
diagnostics (on a terminal and off); -MD -MF -MT write a dependency file
that make (and ninja, when installed) read, and that rebuilds exactly when
the source changes; without -o, a gzipped X3D scene's output and dependency
file are named without both its extensions."""
import gzip
import os
import pty
import select
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402
import kfb_layout  # noqa: E402

ESC = '\x1b['


def run(cmd, env=None, cwd=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, cwd=cwd)


def on_terminal(cmd, env):
    """Runs cmd with stderr on a pseudo-terminal; returns what it wrote there."""
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait()
    os.close(master)
    return b''.join(chunks).decode()


def check_grammar(c, kfc, kfplay, leg, work):
    """One grammar: every spelling of an option gives the same file; usage
    errors are one line, the pointer to --help, exit 2 and nothing else."""
    want = os.path.join(work, 'grammar_want.kfb')
    c.check(run([kfc, '-z', '9', leg, '-o', want]).returncode == 0, 'grammar: reference build')
    reference = open(want, 'rb').read()
    out = os.path.join(work, 'grammar.kfb')
    for argv in (['-z9', leg, '-o', out], ['--compression=9', leg, '--output=' + out],
                 ['--compression', '9', '--output', out, leg], ['-qvz9', '-o' + out, leg],
                 ['--comp=9', leg, '-o', out],  # an unambiguous prefix
                 [leg, '-z9', '-o', out],        # options after the operand
                 ['-z9', '-o', out, '--', leg]):
        if os.path.exists(out):
            os.remove(out)
        r = run([kfc] + argv)
        c.check(r.returncode == 0 and not r.stdout and os.path.exists(out) and
                open(out, 'rb').read() == reference, 'grammar %s: the -z 9 file (%s)' % (argv, r.stderr))
    # '-' is standard input and standard output; '--' lets a name start with '-'.
    src = open(leg, 'rb').read()
    r = subprocess.run([kfc, '-z9', '-', '-o', '-'], input=src, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    c.check(r.returncode == 0 and r.stdout == reference, 'grammar: - in, - out')
    dashed = os.path.join(work, '-dashed.yaml')
    shutil.copy(leg, dashed)
    r = run([kfc, '-z9', '-o', 'dashed.kfb', '--', '-dashed.yaml'], cwd=work)
    c.check(r.returncode == 0 and open(os.path.join(work, 'dashed.kfb'), 'rb').read() == reference,
            "grammar: '--' ends the options (%s)" % r.stderr)
    # -M: the rule instead of the output (standard output, or -MF), nothing written.
    shutil.copy(leg, os.path.join(work, 'walk.yaml'))
    r = run([kfc, '-M', 'walk.yaml'], cwd=work)
    c.check(r.returncode == 0 and r.stdout == 'walk.kfb: walk.yaml\n' and
            not os.path.exists(os.path.join(work, 'walk.kfb')), '-M: %r' % r.stdout)
    r = run([kfc, '-M', '-MF', 'w.d', '-MT', 'all', 'walk.yaml', '-o', 'x.kfb'], cwd=work)
    c.check(r.returncode == 0 and not r.stdout and
            open(os.path.join(work, 'w.d')).read() == 'all: walk.yaml\n' and
            not os.path.exists(os.path.join(work, 'x.kfb')), '-M -MF -MT')
    r = run([kfc, '-M', '-q', os.path.join(args_fixtures(leg), 'invalid', 'unknown_field.yaml')],
            cwd=work)
    c.check(r.returncode == 1 and not r.stdout and ': error: ' in r.stderr,
            '-M compiles: an invalid source fails, with no rule')
    # -MF - writes the dependency file to standard output.
    r = run([kfc, '-MD', '-MF', '-', '-MT', 't', leg, '-o', out])
    c.check(r.returncode == 0 and r.stdout == 't: %s\n' % leg.replace(' ', '\\ '),
            '-MF -: the rule on standard output: %r' % r.stdout)
    r = run([kfc, '-MD', '-MF-', leg, '-o', '-'])
    c.check(r.returncode == 2 and r.stderr.splitlines()[0] == 'kfc: error: the output and the '
            'dependency file cannot both be standard output', '-MF - with -o -: %r' % r.stderr)
    for argv in (['-h'], ['--help']):
        r = run([kfc] + argv)
        c.check(r.returncode == 0 and r.stdout.startswith('Usage: kfc ') and not r.stderr,
                '%s: usage on standard output, exit 0' % argv)
        # the units: kfplay's --help says them too
        c.check(re.search(r'^Times are seconds .*\n.*; rotation angles are radians\.$', r.stdout,
                          re.M), '%s: the units of time and angle' % argv)
    for argv in (['-V'], ['--version']):
        r = run([kfc] + argv)
        c.check(r.returncode == 0 and re.match(r'kfc \S+ \(libkf \S+, libyaml \S+, jansson \S+, '
                                                  r'expat \S+, zlib \S+\)\n'
                                                  r'libkf inflates with (ISA-L|zlib) \S+ .*\n$',
                                                  r.stdout) and not r.stderr,
                '%s: the versions: %r' % (argv, r.stdout))
        # The inflater is kfplay's, word for word.
        c.check(r.stdout.splitlines()[-1:] ==
                run([kfplay, '-V']).stdout.splitlines()[-1:],
                '%s: the inflater as kfplay -V names it' % argv)
    # Help and versions that cannot be written fail, and say so, with the
    # status of an output that cannot be written.
    for tool, argv in ((kfc, ['-h']), (kfc, ['-V']), (kfplay, ['-h']),
                       (kfplay, ['-V'])):
        with open('/dev/full', 'w') as full:
            r = subprocess.run([tool] + argv, stdout=full, stderr=subprocess.PIPE, text=True)
        c.check(r.returncode == driver.EXIT_IO and 'error' in r.stderr,
                '%s %s > /dev/full: status %d, %r' % (os.path.basename(tool), argv[0],
                                                      r.returncode, r.stderr))
    usage = [
        (['--frobnicate', leg], "unknown option '--frobnicate'"),
        (['--ouput', 'x.kfb', leg], "unknown option '--ouput'; did you mean '--output'?"),
        (['--max-erors=3', leg], "unknown option '--max-erors'; did you mean '--max-errors'?"),
        (['-x', leg], "unknown option '-x'"),
        (['-qx', leg], "unknown option '-x'"),
        (['--co', leg], "ambiguous option '--co' (--compression, --color)"),
        (['--verbose=yes', leg], "option '--verbose' takes no value"),
        ([leg, '-o'], "missing file name after '-o'"),
        ([leg, '--output'], "missing file name after '--output'"),
        ([leg, '-z'], "missing level after '-z'"),
        ([leg, '-z10'], "compression level must be 0-9 or 'runs', not '10'"),
        ([leg, '--compression=x'], "compression level must be 0-9 or 'runs', not 'x'"),
        ([leg, '-zrun'], "compression level must be 0-9 or 'runs', not 'run'"),
        ([leg, '-a'], "missing animation name or index after '-a'"),
        ([leg, '-MF'], "missing name after '-MF'"),
        ([leg, '-MX'], "unknown option '-MX'"),
        ([leg, leg], "more than one input file: '%s' (kfc reads one: -o goes before the output's "
                     "name)" % leg),
        ([leg, '-o', 'a', '-o', 'b'], "more than one output file: 'b'"),
        ([leg, '-o', ''], 'empty output file name'),
        ([], 'no input file'),
        ([leg, '--color=sometimes'], "--color takes auto, always or never, not 'sometimes'"),
        ([leg, '--max-errors=x'], "--max-errors takes a count from 0 (no limit) to 1000000, not 'x'"),
        (['-M', '-s', leg], "-M describes one output; with --split, -MD writes each one's"),
        ([leg, '-MF', 'x.d'], '-MF and -MT need -MD or -M'),
        ([leg, '--max-errors=-1'],
         "--max-errors takes a count from 0 (no limit) to 1000000, not '-1'"),
    ]
    # --max-errors=0 reports every error; the default stops after 20.
    many = os.path.join(work, 'many_errors.yaml')
    with open(many, 'w') as f:
        f.write('kfb: 1\nsequences:\n')
        for i in range(30):
            f.write('  s%d: {interpolation: cubic, duration: 1, keys: [[0, 1]]}\n' % i)
    # "stopped" only when an error was held back: not when the limit is
    # exactly the count.
    for argv, errors, stopped in (([], 20, True), (['--max-errors=0'], 30, False),
                                  (['--max-errors', '30'], 30, False),
                                  (['--max-errors=29'], 29, True),
                                  (['--max-errors=31'], 30, False), (['--max-errors=1'], 1, True)):
        r = run([kfc] + argv + [many, '-o', out])
        lines = r.stderr.splitlines()
        c.check(r.returncode == 1 and len([l for l in lines if ': error: ' in l]) == errors and
                (lines[-1] == 'kfc: stopped after %d error%s (--max-errors=0 reports them all)'
                 % (errors, '' if errors == 1 else 's')) == stopped and
                len([l for l in lines if 'stopped after' in l]) == stopped,
                '%s: %d errors reported: %r' % (argv, errors, lines[-1:]))
    # The name meant, for the first 20 names no animator has: each search
    # goes through every name, so that --max-errors=0 would make a file of
    # unknown names cost the square of its size.
    unknown = os.path.join(work, 'unknown_names.yaml')
    with open(unknown, 'w') as f:
        f.write('kfb: 1\nsequences:\n')
        for i in range(30):
            f.write('  seq%02d: {interpolation: step, duration: 1, keys: [[0, [1]]]}\n' % i)
        f.write('controllers:\n  c: {}\ntracks:\n')
        for i in range(30):
            f.write('  - {animator: sxq%02d, controller: c, target: "n%d.alpha"}\n' % (i, i))
    r = run([kfc, '--max-errors=0', unknown, '-o', out])
    want = ['%s:%d:16: error: no animator named \'sxq%02d\'%s'
            % (unknown, 36 + i, i, "; did you mean 'seq%02d'?" % i if i < 20 else '')
            for i in range(30)]
    c.check(r.returncode == 1 and r.stderr.splitlines() == want,
            'unknown names: the name meant for the first 20 only: %r' % r.stderr.splitlines()[18:22])
    for argv, message in usage:
        r = run([kfc] + argv + ['-o', out] if '-o' not in argv and '--output' not in argv and
                argv and argv[-1] not in ('-z', '-a', '-MF') else [kfc] + argv)
        c.check(r.returncode == 2 and not r.stdout and
                r.stderr == 'kfc: error: %s\nTry \'kfc --help\' for more information.\n' % message,
                'usage %s: %r, want %r' % (argv, r.stderr, message))


WARNED = """kfb: 1
sequences:
  hip:
    interpolation: linear
    duration: 4000
    keys: [[0, [0, 0, 0]], [1000, [1, 2, 3]]]
  turn:
    interpolation: slerp
    duration: 1
    keys: [[0, [0, 1, 0, 1.57]], [1, [0, 0, 0, 1]]]
  spare:
    interpolation: step
    duration: 1
    keys: [[0, 1]]
interpolators:
  door:
    node: ScalarInterpolator
    key: [0, 2, 4]
    keyValue: [0, 1, 2]
  lid: {node: OrientationInterpolator, key: [0, 1], keyValue: [[0, 1, 0, 0], [0, 1, 0, 90]]}
followers:
  look: {node: OrientationDamper, initialDestination: [0, 1, 0, 180]}
controllers:
  walk: {}
  run: {}
tracks:
  - {animator: hip, controller: walk, target: hip.translation}
  - {animator: turn, target: hip.orientation}
  - {animator: door, controller: walk, target: door.Alpha, components: 1}
  - {animator: lid, controller: walk, target: lid.orientation}
  - {animator: look, controller: walk, target: look.orientation}
"""

# In the order printed: each entry's as it is read; then those that wait for
# the tracks (an animator's times, judged by the speed of the controllers that
# play it), then what nothing uses.
WARNINGS = [
    ('quaternion-length', '10:16', "key 0 has length 1.86, not 1: slerp keys are quaternions "
     "[x, y, z, w], played normalized (axis and angle are an OrientationInterpolator's)"),
    ('fraction-range', '18:14', 'key 1 (2) is outside [0, 1] (and 1 more key): the fraction a '
     'TimeSensor gives never reaches it (cycleInterval sets the time)'),
    ('angle-range', '20:88', 'key 1 has an angle of 90, more than a turn: angles are radians '
     '(90 degrees is 1.5708)'),
    ('angle-range', '22:65', 'the rotation has an angle of 180, more than a turn: angles are '
     'radians (180 degrees is 3.14159)'),
    ('uncontrolled-track', '28:5', "this track has no controller, so it never plays 'turn' into "
     "'hip.orientation'"),
    ('custom-property', '29:48', "'Alpha' is a custom property, not a built-in one; did you mean "
     "'alpha'?"),
    ('long-duration', '5:15', 'a duration of 4000 s is 66.7 minutes: sequence times are seconds '
     '(milliseconds?)'),
    ('unused-sequence', '11:3', "sequence 'spare' is unused: no track plays it"),
    ('unused-controller', '25:3', "controller 'run' is unused: no track has it"),
]


LONG_TIMES = """kfb: 1
sequences:
  s: {interpolation: linear, duration: 999, keys: [[0, 1], [1, 2]]}
interpolators:
  door: {node: ScalarInterpolator, key: [0, 1], keyValue: [0, 1]}
followers:
  cam: {node: PositionDamper, tau: 300}
  calm: {node: PositionDamper, tau: 99}
  slide: {node: PositionChaser, duration: 1500}
  quick: {node: PositionChaser, duration: 999.5}
controllers:
  walk: {}
tracks:
  - {animator: s, controller: walk, target: s.alpha}
  - {animator: door, controller: walk, target: door.alpha, cycleInterval: 2000}
  - {animator: door, controller: walk, target: door2.alpha, cycleInterval: 999}
  - {animator: cam, controller: walk, target: cam.translation}
  - {animator: calm, controller: walk, target: calm.translation}
  - {animator: slide, controller: walk, target: slide.translation}
  - {animator: quick, controller: walk, target: quick.translation}
"""


def check_zero_quaternion(c, kfc, kfplay, work):
    """A slerp key of about no length (a forgotten w) plays as no rotation,
    and -Wquaternion-length says so; a far but real length only that it is
    normalized."""
    src = os.path.join(work, 'zero_quaternion.yaml')
    out = os.path.join(work, 'zero_quaternion.kfb')
    zero = ', and one of about no length as no rotation, [0, 0, 0, 1]'
    for keys, played, length, ending in (
            ('[[0, [0, 0, 0, 0]], [1, [0, 1, 0, 0]]]', '0 0 0 1', '0, not 1', zero),
            ('[[0, [0, 0, 0, 2]], [1, [0, 1, 0, 0]]]', '0 0 0 1', '2, not 1', ''),
            # the first far key has a length, a later one none: said too
            ('[[0, [0, 0, 0, 2]], [1, [0, 0, 0, 0]]]', '0 0 0 1', '2, not 1 (and 1 more key)',
             zero)):
        with open(src, 'w') as f:
            f.write('kfb: 1\nsequences:\n  turn:\n    interpolation: slerp\n    duration: 1\n'
                    '    keys: %s\n' % keys)
        r = run([kfc, src, '-o', out])
        want = ("%s:6:16: warning: key 0 has length %s: slerp keys are quaternions "
                "[x, y, z, w], played normalized%s (axis and angle are an "
                "OrientationInterpolator's) [-Wquaternion-length]" % (src, length, ending))
        c.check(r.returncode == 0 and r.stderr.splitlines() == [want],
                'quaternion of length %s: %r' % (length, r.stderr))
        r = run([kfplay, out, 'sample', 'turn', '0'])
        c.check(r.returncode == 0 and played in r.stdout,
                'quaternion of length %s plays %s: %r' % (length, played, r.stdout))


def check_long_times(c, kfc, fixtures, work):
    """-Wlong-duration also for the other times a source gives in seconds: a
    chaser's duration and a cycleInterval of 1000 s or more, a damper's tau of
    100 s or more; none just below. A track's cycleInterval is judged as the
    track is read, an animator's times once the tracks say what plays them."""
    src = os.path.join(work, 'long_times.yaml')
    with open(src, 'w') as f:
        f.write(LONG_TIMES)
    out = os.path.join(work, 'long_times.kfb')
    r = run([kfc, src, '-o', out])
    warned = (
        ('15:75', 'a cycleInterval of 2000 s is 33.3 minutes: TimeSensor times are seconds'),
        ('7:36', 'a tau of 300 s is 5 minutes: follower times are seconds'),
        ('9:43', 'a duration of 1500 s is 25 minutes: follower times are seconds'))
    want = ['%s:%s: warning: %s (milliseconds?) [-Wlong-duration]' % (src, at, message)
            for at, message in warned]
    c.check(r.returncode == 0 and os.path.exists(out) and r.stderr.splitlines() == want,
            'long times: %r' % r.stderr.splitlines())
    r = run([kfc, '-Wno-long-duration', src, '-o', out])
    c.check(r.returncode == 0 and not r.stderr, '-Wno-long-duration: %r' % r.stderr)
    check_long_times_speed(c, kfc, work)
    # An imported M3G file keeps its milliseconds, played at speed 1000: its
    # decompiled source compiles under -Werror, to the same bytes.
    kfb, yaml = os.path.join(work, 'swing.kfb'), os.path.join(work, 'swing.yaml')
    again = os.path.join(work, 'swing_again.kfb')
    for argv in ([os.path.join(fixtures, 'm3g', 'swing.m3g'), '-o', kfb],
                 ['-d', kfb, '-o', yaml], ['-Werror', yaml, '-o', again]):
        r = run([kfc] + argv)
        c.check(r.returncode == 0 and not r.stderr, 'M3G round trip %s: %r' % (argv, r.stderr))
    c.check(os.path.exists(again) and open(again, 'rb').read() == open(kfb, 'rb').read(),
            'M3G round trip: the same bytes')


# Times a controller's speed makes short or long: written in milliseconds and
# played at speed 1000 (s, cam, the first door track), the same played at
# speed 1 (t), at both (both: the faster says), by no track (spare: at speed
# 1); a slow or paused controller does not make a time long (slow, paused).
LONG_SPEEDS = """kfb: 1
sequences:
  s: {interpolation: linear, duration: 2000, keys: [[0, 1], [2000, 2]]}
  t: {interpolation: linear, duration: 2000, keys: [[0, 1], [2000, 2]]}
  both: {interpolation: linear, duration: 2000, keys: [[0, 1], [2000, 2]]}
  spare: {interpolation: linear, duration: 2000, keys: [[0, 1], [2000, 2]]}
  far: {interpolation: linear, duration: 4000000, keys: [[0, 1], [1, 2]]}
  slow: {interpolation: linear, duration: 999, keys: [[0, 1], [1, 2]]}
  paused: {interpolation: linear, duration: 999, keys: [[0, 1], [1, 2]]}
interpolators:
  door: {node: ScalarInterpolator, key: [0, 1], keyValue: [0, 1]}
followers:
  cam: {node: PositionDamper, tau: 300}
  drift: {node: PositionDamper, tau: 300000}
controllers:
  ms: {speed: 1000}
  walk: {speed: 1}
  half: {speed: 0.5}
  stop: {speed: 0}
tracks:
  - {animator: s, controller: ms, target: s.alpha}
  - {animator: t, controller: walk, target: t.alpha}
  - {animator: both, controller: walk, target: both.alpha}
  - {animator: both, controller: ms, target: both2.alpha}
  - {animator: far, controller: ms, target: far.alpha}
  - {animator: slow, controller: half, target: slow.alpha}
  - {animator: paused, controller: stop, target: paused.alpha}
  - {animator: door, controller: ms, target: door.alpha, cycleInterval: 2000}
  - {animator: door, controller: ms, target: door2.alpha, cycleInterval: 2000000}
  - {animator: cam, controller: ms, target: cam.translation}
  - {animator: drift, controller: ms, target: drift.translation}
"""


def check_long_times_speed(c, kfc, work):
    """-Wlong-duration judges a time by the world seconds it plays: divided by
    the speed of the fastest controller whose track plays it (at speed 1 when
    none does); the message names a speed other than 1. -Werror=long-duration
    makes each an error at the same place."""
    src = os.path.join(work, 'long_speeds.yaml')
    with open(src, 'w') as f:
        f.write(LONG_SPEEDS)
    out = os.path.join(work, 'long_speeds.kfb')
    warned = (
        ('29:74', 'a cycleInterval of 2000000 at speed 1000 is 33.3 minutes of world time'),
        ('4:40', 'a duration of 2000 s is 33.3 minutes: sequence times are seconds '
         '(milliseconds?)'),
        ('6:44', 'a duration of 2000 s is 33.3 minutes: sequence times are seconds '
         '(milliseconds?)'),
        ('7:42', 'a duration of 4000000 at speed 1000 is 66.7 minutes of world time'),
        ('14:38', 'a tau of 300000 at speed 1000 is 5 minutes of world time'))
    r = run([kfc, src, '-o', out])
    want = ['%s:%s: warning: %s [-Wlong-duration]' % (src, at, message) for at, message in warned]
    lines = [l for l in r.stderr.splitlines() if 'unused' not in l]
    c.check(r.returncode == 0 and lines == want, 'long times by speed: %r' % lines)
    os.remove(out)
    r = run([kfc, '-Werror=long-duration', src, '-o', out])
    want = ['%s:%s: error: %s [-Werror=long-duration]' % (src, at, message)
            for at, message in warned]
    lines = [l for l in r.stderr.splitlines() if 'unused' not in l]
    c.check(r.returncode == 1 and not os.path.exists(out) and lines == want,
            '-Werror=long-duration by speed: %r' % lines)


def check_terminal(c, kfc, leg, work):
    """A compiled .kfb is not written to a terminal (exit 2, nothing written
    there); decompiled YAML is, and a .kfb goes to a pipe as before."""
    kfb = os.path.join(work, 'terminal.kfb')
    master, slave = pty.openpty()
    try:
        r = subprocess.run([kfc, leg, '-o', '-'], stdout=slave, stderr=subprocess.PIPE,
                           text=True)
        c.check(r.returncode == 2 and r.stderr.startswith(
            'kfc: error: not writing a binary .kfb to a terminal: give -o FILE, or redirect '
            'standard output\n'), 'a .kfb to a terminal: %d %r' % (r.returncode, r.stderr))
        r = run([kfc, leg, '-o', kfb])
        c.check(r.returncode == 0, 'compiled for the terminal case: %r' % r.stderr)
        r = subprocess.run([kfc, '-d', kfb, '-o', '-'], stdout=slave, stderr=subprocess.PIPE,
                           text=True)
        c.check(r.returncode == 0 and not r.stderr, 'YAML to a terminal: %r' % r.stderr)
        shown = b''
        while True:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                break
            shown += os.read(master, 65536)
        c.check(b'kfb: ' in shown and b'error' not in shown,
                'only the YAML reached the terminal: %d bytes' % len(shown))
    finally:
        os.close(slave)
        os.close(master)
    r = subprocess.run([kfc, leg, '-o', '-'], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(kfb, 'rb') as f:
        c.check(r.returncode == 0 and r.stdout == f.read(),
                'a .kfb to a pipe: %d bytes' % len(r.stdout))


LAT_X3DV = (b'#X3D V3.3 utf8\nPROFILE Interchange\nDEF Lat\xe9 Transform {}\n'
            b'DEF T TimeSensor { loop TRUE }\n'
            b'DEF I PositionInterpolator { key [0 1] keyValue [0 0 0, 1 1 1] }\n'
            b'ROUTE T.fraction_changed TO I.set_fraction\n'
            b'ROUTE I.value_changed TO Lat\xe9.set_translation\n')


def check_terminal_bytes(c, kfc, fixtures, work):
    """What a terminal acts on never reaches it from a diagnostic: C0 and C1
    controls (U+009B is CSI) and bytes that are not UTF-8 print as \\xNN,
    from a source's text, an X3D DEF name and a file's name alike."""
    def stderr(argv):
        r = subprocess.run([kfc] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return r.returncode, r.stderr
    c1 = os.path.join(work, 'c1.yaml')
    with open(c1, 'wb') as f:
        f.write(b'kfb: 1\nsequences:\n  s:\n    interpolation: "\\x9b2J\\e[2Jlinear"\n'
                b'    duration: 1\n    keys: [[0, [1]]]\n')
    status, err = stderr([c1, '-o', os.path.join(work, 'c1.kfb')])
    c.check(status == 1 and b"4:20: error: unknown interpolation '\\xc2\\x9b2J\\x1b[2Jlinear' "
            b"(expected" in err and b'\x9b' not in err and b'\x1b' not in err,
            'a C1 control in a diagnostic: %r' % err)
    lat = os.path.join(work, 'lat.x3dv')
    with open(lat, 'wb') as f:
        f.write(LAT_X3DV)
    status, err = stderr([lat, '-o', os.path.join(work, 'lat.kfb')])
    c.check(b'7:1: warning: ROUTE I.value_changed TO Lat\\xe9.set_translation skipped: a '
            b'target name must be valid UTF-8 text [-Wx3d-dropped]' in err and b'\xe9' not in err,
            'a DEF name that is not UTF-8, in a warning: %r' % err)
    status, err = stderr([os.path.join(os.fsencode(work), b'no\xc2\x9b\xff.yaml')])
    c.check(status == 3 and b'no\\xc2\\x9b\\xff.yaml: error: cannot open' in err and
            b'\x9b' not in err, 'a C1 control in a file name: %r' % err)
    # -v's notes and summary name the file too (X3D's and M3G's notes).
    scene = os.path.join(os.fsencode(work), b'i\xc2\x9b\x1b.x3dv')
    with open(scene, 'wb') as f:
        f.write(b'#X3D V3.3 utf8\nPROFILE Interchange\nInline { url "a.x3d" }\n'
                b'DEF T TimeSensor { loop TRUE }\n')
    status, err = stderr(['-v', '-Wno-empty', scene, '-o', os.path.join(work, 'inline.kfb')])
    shown = scene.replace(b'\xc2\x9b\x1b', b'\\xc2\\x9b\\x1b')
    c.check(status == 0 and err.startswith(shown + b':3:1: note: Inline: ') and
            (b'kfc: ' + shown + b' -> ') in err and b'\x1b' not in err and b'\x9b' not in err,
            '-v on an X3D file named with controls: %r' % err)
    m3g = os.path.join(os.fsencode(work), b's\xc2\x9b.m3g')
    shutil.copyfile(os.path.join(fixtures, 'm3g', 'swing.m3g'), m3g)
    status, err = stderr(['-v', m3g, '-o', os.path.join(work, 'swing.kfb')])
    shown = m3g.replace(b'\xc2\x9b', b'\\xc2\\x9b')
    c.check(status == 0 and err.startswith(shown + b': note: ') and b'\x9b' not in err,
            '-v on an M3G file named with a C1 control: %r' % err)
    # A backslash is written \\ too, in a quoted name and a file's name: a
    # name holding the four characters \x1b prints apart from one holding ESC.
    twins = os.path.join(work, 'twins.yaml')
    with open(twins, 'w') as f:
        f.write('kfb: 1\nsequences:\n'
                '  "a\\eb": {interpolation: linear, duration: 1, keys: [[0, [0]]]}\n'
                "  'a\\x1bb': {interpolation: linear, duration: 1, keys: [[0, [0]]]}\n"
                '  s: {interpolation: linear, duration: 1, keys: [[0, [0]]]}\n'
                'tracks:\n  - {animator: s, target: t.alpha}\n')
    status, err = stderr([twins, '-o', os.path.join(work, 'twins.kfb')])
    c.check(status == 0 and b"warning: sequence 'a\\x1bb' is unused" in err and
            b"warning: sequence 'a\\\\x1bb' is unused" in err and b'\x1b' not in err,
            'two names a backslash tells apart: %r' % err)
    for name, shown in ((b'no\x1b.yaml', b'no\\x1b.yaml'), (b'no\\x1b.yaml', b'no\\\\x1b.yaml')):
        status, err = stderr([os.path.join(os.fsencode(work), name)])
        c.check(status == 3 and (os.fsencode(work) + b'/' + shown + b': error: cannot open') in err,
                'a file named %r: %r' % (name, err))


def check_door(c, kfc, kfplay, leg, work):
    """--help fits 80 columns. --decompile takes the compiling options and
    leaves them (one set of flags serves a build's both steps, as the SCons
    tool's KFCFLAGS does): the same YAML with -e, -z and -Werror."""
    for tool in (kfc, kfplay):
        r = run([tool, '--help'])
        wide = [line for line in r.stdout.splitlines() if len(line) > 80]
        c.check(r.returncode == 0 and not wide, '%s --help: lines over 80 columns: %r'
                % (os.path.basename(tool), wide))
    kfb = os.path.join(work, 'door.kfb')
    yml = os.path.join(work, 'door.yaml')
    run([kfc, leg, '-o', kfb])
    r = run([kfc, '-d', kfb, '-o', yml])
    plain = open(yml, 'rb').read() if r.returncode == 0 else None
    r = run([kfc, '-d', '-e', 'translation=1e-3', '-z', '9', '-Werror', kfb, '-o', yml])
    c.check(r.returncode == 0 and not r.stderr and plain is not None and
            open(yml, 'rb').read() == plain, '-d with compiling options: %r' % r.stderr)


def args_fixtures(leg):
    """The fixtures folder, from the leg walk's path."""
    return os.path.dirname(leg)


def check_empty(c, kfc, fixtures, work):
    """-Wempty: a glTF or X3D input from which no animation is imported (a scene
    exported without its animation) is written, with a warning at the file; the
    warning off, made an error (no file then), and never for a YAML source without
    tracks (a library of animators) or for an input that animates."""
    gltf = os.path.join(work, 'static.gltf')
    with open(gltf, 'w') as f:
        f.write('{"asset": {"version": "2.0"}, "nodes": [{"name": "box"}]}')
    x3d = os.path.join(work, 'static.x3d')
    with open(x3d, 'w') as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<X3D profile="Interchange" '
                'version="3.3"><Scene><Transform DEF="T"/></Scene></X3D>\n')
    out = os.path.join(work, 'static.kfb')
    for src, fmt in ((gltf, 'glTF 2.0'), (x3d, 'X3D')):
        want = ('%s: %%s: no animation was imported from this %s file, so the .kfb plays '
                'nothing [-W%%sempty]' % (src, fmt))
        if os.path.exists(out):
            os.remove(out)
        r = run([kfc, src, '-o', out])
        c.check(r.returncode == 0 and os.path.exists(out) and
                r.stderr.splitlines() == [want % ('warning', '')], '%s: %r' % (fmt, r.stderr))
        r = run([kfc, '-Wno-empty', src, '-o', out])
        c.check(r.returncode == 0 and not r.stderr, '%s -Wno-empty: %r' % (fmt, r.stderr))
        os.remove(out)
        r = run([kfc, '-Werror=empty', src, '-o', out])
        c.check(r.returncode == 1 and not os.path.exists(out) and
                r.stderr.splitlines() == [want % ('error', 'error=')],
                '%s -Werror=empty: %r' % (fmt, r.stderr))
    for src in (os.path.join(fixtures, 'empty.yaml'), os.path.join(fixtures, 'gltf', 'bounce.gltf'),
                os.path.join(fixtures, 'm3g', 'swing.m3g')):
        r = run([kfc, src, '-o', out])
        c.check(r.returncode == 0 and 'Wempty' not in r.stderr, '%s: %r' % (src, r.stderr))


def check_other_names(c, kfc, work):
    """A custom property under another tool's name for a built-in one (position,
    rotation), given its components, compiles with -Wcustom-property naming the
    built-in one; an ordinary custom name gets no warning."""
    src = os.path.join(work, 'other_names.yaml')
    with open(src, 'w') as f:
        f.write('kfb: 1\nsequences:\n  s:\n    interpolation: linear\n    duration: 1\n'
                '    keys: [[0, [0, 0, 0]], [1, [1, 1, 1]]]\ncontrollers:\n  c: {}\ntracks:\n'
                '  - {animator: s, controller: c, target: cam.position, components: 3}\n'
                '  - {animator: s, controller: c, target: cam.glow, components: 3}\n')
    out = os.path.join(work, 'other_names.kfb')
    r = run([kfc, src, '-o', out])
    c.check(r.returncode == 0 and os.path.exists(out) and r.stderr.splitlines() == [
        "%s:10:42: warning: 'position' is a custom property, not a built-in one; did you mean "
        "'translation'? [-Wcustom-property]" % src], 'another tool\'s name: %r' % r.stderr)


def check_warnings(c, kfc, work):
    """Warnings: printed, the file still written; each turned off by its
    name, all by -w and -q; made errors by -Werror (or one by -Werror=NAME),
    -Wno-error=NAME exempting one; an unknown name is a usage error."""
    src = os.path.join(work, 'warned.yaml')
    with open(src, 'w') as f:
        f.write(WARNED)
    out = os.path.join(work, 'warned.kfb')

    def line(name, at, message, error=False):
        return '%s:%s: %s: %s [-W%s%s]' % (src, at, 'error' if error else 'warning', message,
                                           'error=' if error else '', name)

    def named(name):
        return next(w for w in WARNINGS if w[0] == name)

    def compile_(*args):
        if os.path.exists(out):
            os.remove(out)
        r = run([kfc] + list(args) + [src, '-o', out])
        return r, r.stderr.splitlines()

    r, lines = compile_()
    c.check(r.returncode == 0 and os.path.exists(out) and lines == [line(*w) for w in WARNINGS],
            'warnings: each one, the file written: %r' % lines)
    for name, _, _ in WARNINGS:
        r, lines = compile_('-Wno-' + name)
        c.check(r.returncode == 0 and lines == [line(*w) for w in WARNINGS if w[0] != name],
                '-Wno-%s: that one off' % name)
    r, lines = compile_('-Wno-unused')
    c.check(lines == [line(*w) for w in WARNINGS if not w[0].startswith('unused')],
            '-Wno-unused: the four unused-* off')
    r, lines = compile_('-Wno-all', '-Wcustom-property')
    c.check(lines == [line(*named('custom-property'))], '-Wno-all -WNAME: only that one')
    for args in (['-w'], ['-q'], ['-w', '-Werror']):
        r, lines = compile_(*args)
        c.check(r.returncode == 0 and not lines and os.path.exists(out), '%s: no warnings' % args)
    r, lines = compile_('-Werror')
    c.check(r.returncode == 1 and not os.path.exists(out) and
            lines == [line(*w, error=True) for w in WARNINGS], '-Werror: every one an error')
    r, lines = compile_('-Werror', '-Wno-error=unused-controller')
    c.check(r.returncode == 1 and lines == [line(*w, error=w[0] != 'unused-controller')
                                            for w in WARNINGS], '-Werror -Wno-error=NAME')
    r, lines = compile_('-Werror', '-Wno-error')
    c.check(r.returncode == 0 and lines == [line(*w) for w in WARNINGS], '-Werror -Wno-error')
    r, lines = compile_('-Werror=fraction-range', '-q')
    c.check(r.returncode == 1 and lines == [line(*named('fraction-range'), error=True)],
            '-q still reports a warning made an error: %r' % lines)
    r, lines = compile_('-Werror=uncontrolled-track', '--max-errors=1')
    at = WARNINGS.index(named('uncontrolled-track'))
    c.check(r.returncode == 1 and lines[at] == line(*WARNINGS[at], error=True) and
            lines[at + 1:] == [line(*w) for w in WARNINGS[at + 1:]],
            '--max-errors: a warning made an error is the one error, no "stopped": %r' % lines)
    r, lines = compile_('-Werror', '--max-errors=1')
    c.check(r.returncode == 1 and lines == [line(*WARNINGS[0], error=True),
                                            'kfc: stopped after 1 error (--max-errors=0 reports '
                                            'them all)'],
            '--max-errors counts warnings made errors: %r' % lines)
    env = dict(os.environ)
    env.pop('NO_COLOR', None)
    r = run([kfc, '--color=always', '-Wno-all', '-Wunused-sequence', src, '-o', out], env=env)
    c.check(r.stderr == '\x1b[1m%s:11:3:\x1b[0m \x1b[1;35mwarning:\x1b[0m sequence \'spare\' is '
            'unused: no track plays it [-Wunused-sequence]\n' % src, 'a warning in magenta: %r'
            % r.stderr)
    for option, message in (
            ('-Wunused-sequnce', "unknown warning '-Wunused-sequnce'; did you mean "
                                 "'unused-sequence'?"),
            ('-Wno-frobnicate', "unknown warning '-Wno-frobnicate' (kfc --help lists them)"),
            ('-Werror=nope', "unknown warning '-Werror=nope' (kfc --help lists them)")):
        r = run([kfc, option, src, '-o', out])
        c.check(r.returncode == 2 and r.stderr == 'kfc: error: %s\nTry \'kfc --help\' for more '
                'information.\n' % message, '%s: %r' % (option, r.stderr))
    # Only files with tracks warn about unused animators: a file without is
    # a library a program samples.
    lib = os.path.join(work, 'library.yaml')
    with open(lib, 'w') as f:
        f.write('kfb: 1\nsequences:\n  a: {interpolation: step, duration: 1, keys: [[0, 1]]}\n')
    r = run([kfc, lib, '-o', out])
    c.check(r.returncode == 0 and not r.stderr, 'no unused warnings without tracks: %r' % r.stderr)


def check_gzip_names(c, kfc, work):
    """Without -o, a gzipped X3D scene's output drops both extensions
    (door.x3d.gz -> door.kfb, any case), and so do -MD's dependency file and
    its rule's target; a .gz after any other name drops only the .gz's."""
    folder = os.path.join(work, 'gzip.names')  # a dot in the folder is no extension
    os.makedirs(folder)
    xml = ('<X3D><Scene><TimeSensor DEF="C" loop="true"/>'
           '<PositionInterpolator DEF="I" key="0 1" keyValue="0 0 0 1 1 1"/>'
           '<Transform DEF="T"/><ROUTE fromNode="C" fromField="fraction_changed" toNode="I" '
           'toField="set_fraction"/><ROUTE fromNode="I" fromField="value_changed" toNode="T" '
           'toField="translation"/></Scene></X3D>\n')
    vrml = ('#X3D V3.3 utf8\nDEF C TimeSensor { loop TRUE }\n'
            'DEF I PositionInterpolator { key [0 1] keyValue [0 0 0 1 1 1] }\n'
            'DEF T Transform { }\nROUTE C.fraction_changed TO I.set_fraction\n'
            'ROUTE I.value_changed TO T.translation\n')
    for name, text, want in (('door.x3d.gz', xml, 'door.kfb'), ('door1.x3dv.gz', vrml, 'door1.kfb'),
                             ('door2.wrl.gz', vrml, 'door2.kfb'), ('DOOR3.X3D.GZ', xml, 'DOOR3.kfb'),
                             ('door4.x3dz', xml, 'door4.kfb'), ('door5.wrz.gz', vrml, 'door5.kfb'),
                             ('door6.gz', xml, 'door6.kfb'), ('door7.tar.gz', xml, 'door7.tar.kfb')):
        with gzip.open(os.path.join(folder, name), 'wt') as f:
            f.write(text)
        r = run([kfc, '-MD', name], cwd=folder)
        made = sorted(n for n in os.listdir(folder) if n.endswith(('.kfb', '.d')))
        dep = os.path.join(folder, want + '.d')
        c.check(r.returncode == 0 and made == sorted([want, want + '.d']) and
                open(dep).read() == '%s: %s\n' % (want, name),
                '%s without -o: want %s and %s.d, got %s (%s)' % (name, want, want, made, r.stderr))
        for n in made:
            os.remove(os.path.join(folder, n))
    # A path with folders: only the last component's extensions.
    r = run([kfc, os.path.join('gzip.names', 'door.x3d.gz')], cwd=work)
    c.check(r.returncode == 0 and os.path.exists(os.path.join(folder, 'door.kfb')),
            'gzip.names/door.x3d.gz without -o: gzip.names/door.kfb (%s)' % r.stderr)


def check_depfile_fails(c, kfc, leg, proj):
    """-MD whose dependency file cannot be created or written: exit 3, the
    message names it, and the output is neither created nor replaced."""
    fails = os.path.join(proj, 'fails')
    os.makedirs(os.path.join(fails, 'dir.d'))
    shutil.copy(leg, os.path.join(fails, 'walk.yaml'))
    old = run([kfc, 'walk.yaml', '-o', 'old.kfb'], cwd=fails)
    with open(os.path.join(fails, 'old.kfb.d'), 'w') as f:
        f.write('old.kfb: earlier\n')
    with open(os.path.join(fails, 'old.yaml'), 'w') as f:
        f.write('# hand-written\n')
    before = {n: open(os.path.join(fails, n), 'rb').read()
              for n in ('old.kfb', 'old.kfb.d', 'old.yaml')}
    for argv, message in (
            (['-MD', '-MF', 'nodir/new.kfb.d', 'walk.yaml', '-o', 'new.kfb'],
             'nodir/new.kfb.d: error: cannot create: No such file or directory'),
            (['-MD', '-MF', 'dir.d', 'walk.yaml', '-o', 'new.kfb'],
             'dir.d: error: cannot open for writing: Is a directory'),
            (['-e', 'translation=0.01', '-MD', '-MF', 'nodir/old.d', 'walk.yaml', '-o', 'old.kfb'],
             'nodir/old.d: error: cannot create: No such file or directory'),
            (['-d', '-MD', '-MF', 'nodir/new.d', 'old.kfb', '-o', 'new.yaml'],
             'nodir/new.d: error: cannot create: No such file or directory'),
            (['-d', '-MD', '-MF', 'dir.d', 'old.kfb', '-o', 'old.yaml'],
             'dir.d: error: cannot open for writing: Is a directory')):
        r = run([kfc] + argv, cwd=fails)
        left = sorted(os.listdir(fails))
        c.check(old.returncode == 0 and r.returncode == 3 and r.stderr == message + '\n' and
                left == ['dir.d', 'old.kfb', 'old.kfb.d', 'old.yaml', 'walk.yaml'] and
                all(open(os.path.join(fails, n), 'rb').read() == b for n, b in before.items()),
                '%s: exit 3, %r, nothing written: got %d %r, %r' % (argv, message, r.returncode,
                                                                    r.stderr, left))


def main():
    args = driver.arguments()
    driver.require('test_kfc_cli', 'make', 'make')
    c = driver.Checks()
    kfc, work = args.kfc, args.work
    leg = os.path.join(args.fixtures, 'leg_walk.yaml')
    out = os.path.join(work, 'leg.kfb')

    # -v: the numbers are the file's.
    r = run([kfc, '-v', leg, '-o', out])
    data = open(out, 'rb').read()
    c.check(r.returncode == 0 and not r.stdout, '-v: success, nothing on stdout')
    report = r.stderr
    c.check(re.search(r'^kfc: .*leg_walk\.yaml -> .*leg\.kfb in [0-9.]+(e-[0-9]+)? s$', report, re.M),
            '-v: what and how long: %r' % report[:80])
    c.check('objects: sequence 4, interpolator 0, follower 0, controller 1, target 4, track 4; '
            '20 keys' in report, '-v: objects per kind and keys')
    parts, raw = [], 0
    for s in kfb_layout.sections(data):
        parts.append('%s %d/%d' % (kfb_layout.tag_text(s.tag), s.stored_size, s.raw_size))
        raw += s.raw_size
    c.check('sections (stored/raw bytes): ' + ', '.join(parts) in report,
            '-v: bytes per section %s' % parts)
    c.check('file: %d bytes; sections raw: %d bytes; ratio %.3f' % (len(data), raw,
                                                                     len(data) / raw) in report,
            '-v: file size and ratio')
    r = run([kfc, '-v', '--decompile', out, '-o', os.path.join(work, 'back.yaml')])
    c.check(r.returncode == 0 and '-> ' in r.stderr, '-v --decompile reports')
    # --decompile without -o writes the default name only where no file has
    # it: a hand-written source of that name is not replaced.
    dec = os.path.join(work, 'dec')
    os.makedirs(dec, exist_ok=True)
    shutil.copyfile(out, os.path.join(dec, 'walk.kfb'))
    with open(os.path.join(dec, 'walk.yaml'), 'w') as f:
        f.write('# hand-written\n')
    for d in (['-d'], ['--decompile']):
        r = run([kfc] + d + ['walk.kfb'], cwd=dec)
        c.check(r.returncode == 2 and open(os.path.join(dec, 'walk.yaml')).read() ==
                '# hand-written\n', '%s without -o: an existing walk.yaml is kept' % d)
        c.check(r.stderr.startswith("kfc: error: the default output 'walk.yaml' exists; name it "
                                    "with -o to replace it"), '%s: says how: %r' % (d, r.stderr))
    r = run([kfc, '-d', 'walk.kfb', '-o', 'walk.yaml'], cwd=dec)
    c.check(r.returncode == 0 and open(os.path.join(dec, 'walk.yaml')).read().startswith('kfb:'),
            '-d -o walk.yaml replaces it')
    os.remove(os.path.join(dec, 'walk.yaml'))
    r = run([kfc, '-d', 'walk.kfb'], cwd=dec)
    c.check(r.returncode == 0 and os.path.exists(os.path.join(dec, 'walk.yaml')),
            '-d without -o writes walk.yaml where there is none')
    # Standard output redirected to a file, no -o: the default name is
    # written, and the empty file the shell made is pointed out (one with
    # something in it is left unremarked). With the default name itself as
    # standard output, the shell has emptied it: said so, nothing written.
    for argv, name in ((['walk.kfb', '-o', 'again.yaml', '-d'], None),
                       (['-d', 'walk.kfb'], 'walk.yaml'),
                       (['again.yaml'], 'again.kfb')):
        if name and os.path.exists(os.path.join(dec, name)):
            os.remove(os.path.join(dec, name))
        with open(os.path.join(dec, 'redirected'), 'w') as f:
            r = subprocess.run([kfc] + argv, cwd=dec, stdout=f, stderr=subprocess.PIPE, text=True)
        note = "kfc: note: wrote '%s'; standard output, a file, is left empty (-o - writes there)\n"
        c.check(r.returncode == 0 and r.stderr == (note % name if name else '') and
                os.path.getsize(os.path.join(dec, 'redirected')) == 0,
                'kfc %s > redirected: %r' % (' '.join(argv), r.stderr))
    with open(os.path.join(dec, 'redirected'), 'w') as f:
        f.write('a log\n')
    with open(os.path.join(dec, 'redirected'), 'a') as f:
        r = subprocess.run([kfc, 'again.yaml'], cwd=dec, stdout=f, stderr=subprocess.PIPE,
                           text=True)
    c.check(r.returncode == 0 and r.stderr == '', '>> a file with something in it: %r' % r.stderr)
    with open(os.path.join(dec, 'walk.yaml'), 'w') as f:
        r = subprocess.run([kfc, '-d', 'walk.kfb'], cwd=dec, stdout=f, stderr=subprocess.PIPE,
                           text=True)
    c.check(r.returncode == 2 and r.stderr.startswith(
        "kfc: error: the default output 'walk.yaml' is standard output, which the shell emptied "
        "before kfc ran (its earlier contents are gone): kfc -d writes the file -o names, "
        "standard output with -o -") and os.path.getsize(os.path.join(dec, 'walk.yaml')) == 0,
        'kfc -d walk.kfb > walk.yaml: %r' % r.stderr)
    os.remove(os.path.join(dec, 'walk.yaml'))
    # The input itself as standard output: emptied by the shell, which is
    # said, rather than that the source is empty.
    for argv in (['again.yaml'], ['again.yaml', '-o', '-'], ['-d', 'walk.kfb', '-o', '-']):
        source = argv[1] if argv[0] == '-d' else argv[0]
        shutil.copy(os.path.join(dec, source), os.path.join(dec, 'in'))
        cmd_args = ['in' if a == source else a for a in argv]
        with open(os.path.join(dec, 'in'), 'w') as f:
            r = subprocess.run([kfc] + cmd_args, cwd=dec, stdout=f, stderr=subprocess.PIPE, text=True)
        c.check(r.returncode == 2 and r.stderr.startswith(
            "kfc: error: the input 'in' is standard output, which the shell emptied before kfc "
            "ran (its earlier contents are gone): kfc writes the file -o names, standard output "
            "with -o -") and not os.path.exists(os.path.join(dec, 'in.kfb')),
            'kfc %s > in: %r' % (' '.join(cmd_args), r.stderr))
        os.remove(os.path.join(dec, 'in'))

    # A default name that is the input's own: the other direction was
    # likely meant, and the message says how to go either way.
    for argv, says in ((['walk.kfb'], "kfc: error: 'walk.kfb' is named as a compiled file, which "
                        "kfc writes: to decompile it, kfc -d walk.kfb; to compile it, name the "
                        "output with -o"),
                       (['-d', 'walk.yaml'], "kfc: error: 'walk.yaml' is named as a source, "
                        "which kfc -d writes: to compile it, kfc walk.yaml; to decompile it, "
                        "name the output with -o")):
        r = run([kfc] + argv, cwd=dec)
        c.check(r.returncode == 2 and r.stderr.splitlines()[:1] == [says],
                'kfc %s: %r' % (' '.join(argv), r.stderr))
    for q in (['-q'], ['-v', '-q'], []):
        r = run([kfc] + q + [leg, '-o', out])
        c.check(r.returncode == 0 and not r.stderr and not r.stdout, '%s: silent' % q)
    bad = os.path.join(args.fixtures, 'invalid', sorted(os.listdir(
        os.path.join(args.fixtures, 'invalid')))[0])
    r = run([kfc, '-q', bad, '-o', out])
    c.check(r.returncode == 1 and 'error:' in r.stderr, '-q still reports errors')

    # Colour.
    env = dict(os.environ)
    env.pop('NO_COLOR', None)
    plain = run([kfc, bad, '-o', os.path.join(work, 'x.kfb')], env=env).stderr
    c.check(ESC not in plain and ': error: ' in plain, 'auto: no colour into a pipe')
    coloured = run([kfc, '--color=always', bad, '-o', 'x.kfb'], env=env).stderr
    c.check(re.sub(r'\x1b\[[0-9;]*m', '', coloured) == plain and ESC + '1;31merror:' in coloured,
            '--color=always: the same text with red "error:"')
    c.check(ESC not in run([kfc, '--color=never', bad], env=env).stderr, '--color=never')
    tty = on_terminal([kfc, bad, '-o', os.path.join(work, 'x.kfb')], env)
    c.check(ESC + '1;31merror:' in tty, 'auto on a terminal: colour (%r)' % tty[:60])
    c.check(ESC not in on_terminal([kfc, '--color=never', bad], env), 'never on a terminal')
    nc = dict(env, NO_COLOR='1')
    c.check(ESC not in on_terminal([kfc, bad], nc), 'NO_COLOR on a terminal: no colour')
    c.check(ESC in on_terminal([kfc, '--color=always', bad], nc), 'always beats NO_COLOR')
    c.check(ESC in on_terminal([kfc, bad], dict(env, NO_COLOR='')),
            'an empty NO_COLOR does not count (no-color.org)')
    r = run([kfc, '--color=sometimes', leg])
    c.check(r.returncode == 2, '--color=sometimes: usage error')

    # Dependency files.
    proj = os.path.join(work, 'make project')
    os.makedirs(proj)
    shutil.copy(leg, os.path.join(proj, 'walk $1 #.yaml'))
    r = run([kfc, '-MD', 'walk $1 #.yaml', '-o', 'walk.kfb'], cwd=proj)
    dep = open(os.path.join(proj, 'walk.kfb.d')).read()
    c.check(r.returncode == 0 and dep == 'walk.kfb: walk\\ $$1\\ \\#.yaml\n',
            '-MD: default name and target, make escapes: %r' % dep)
    r = run([kfc, '-MD', '-MF', 'x.d', '-MT', 'all files', 'walk $1 #.yaml', '-o', 'w.kfb'],
            cwd=proj)
    c.check(open(os.path.join(proj, 'x.d')).read() == 'all\\ files: walk\\ $$1\\ \\#.yaml\n',
            '-MF names the file, -MT the target')
    r = run([kfc, '-MD', bad, '-o', os.path.join(proj, 'bad.kfb')], cwd=proj)
    c.check(r.returncode == 1 and not os.path.exists(os.path.join(proj, 'bad.kfb.d')),
            'a failed compile writes no dependency file')
    for argv in (['-MF', 'a.d', leg], ['-MD', leg, '-o', '-']):
        c.check(run([kfc] + argv, cwd=proj).returncode == 2, '%s: usage error' % argv)
    # Standard output has no name to be the rule's target: -MT gives one.
    for argv, opt in ((['-M', leg, '-o', '-'], '-M'),
                      (['-MD', '-MF', 'stdout.d', leg, '-o', '-'], '-MD')):
        r = run([kfc] + argv, cwd=proj)
        c.check(r.returncode == 2 and not r.stdout and r.stderr.startswith(
            'kfc: error: %s with the output on standard output needs -MT TARGET' % opt) and
            not os.path.exists(os.path.join(proj, 'stdout.d')), '%s: %r' % (argv, r.stderr))
    r = run([kfc, '-M', '-MT', 'all', leg, '-o', '-'], cwd=proj)
    c.check(r.returncode == 0 and r.stdout.startswith('all: '), '-M -MT with -o -: %r' % r.stdout)
    r = run([kfc, '-MD', '-MF', 'dec.d', '--decompile', 'walk.kfb', '-o', 'dec.yaml'], cwd=proj)
    c.check(open(os.path.join(proj, 'dec.d')).read() == 'dec.yaml: walk.kfb\n',
            '--decompile -MD: the .kfb is the dependency')
    # A dependency file that cannot be written fails the run as the output
    # would: no new output, an existing one (and its dependency file) as it
    # was, nothing else left in the folder.
    check_depfile_fails(c, kfc, leg, proj)

    # make: the rule names no prerequisite; only the dependency file does.
    with open(os.path.join(proj, 'Makefile'), 'w') as f:
        f.write('walk.kfb:\n\t"$(KFC)" -MD \'walk $$1 #.yaml\' -o $@\n-include walk.kfb.d\n')
    os.remove(os.path.join(proj, 'walk.kfb'))
    make = ['make', '-s', 'KFC=' + kfc]

    def stamp(path, t):
        os.utime(os.path.join(proj, path), (t, t))

    now = time.time()
    r = run(make, cwd=proj)
    c.check(r.returncode == 0 and os.path.exists(os.path.join(proj, 'walk.kfb')),
            'make: builds (%s)' % r.stderr.strip())
    stamp('walk $1 #.yaml', now - 100)
    stamp('walk.kfb', now - 50)
    c.check(run(make + ['-q'], cwd=proj).returncode == 0, 'make: up to date after a build')
    stamp('walk $1 #.yaml', now - 10)
    c.check(run(make + ['-q'], cwd=proj).returncode == 1, 'make: out of date once the source changes')
    run(make, cwd=proj)
    c.check(os.path.getmtime(os.path.join(proj, 'walk.kfb')) > now - 10 and
            run(make + ['-q'], cwd=proj).returncode == 0, 'make: rebuilt, then up to date')

    ninja = shutil.which('ninja')
    if ninja:
        nproj = os.path.join(work, 'ninja')
        os.makedirs(nproj)
        shutil.copy(leg, os.path.join(nproj, 'walk.yaml'))
        with open(os.path.join(nproj, 'build.ninja'), 'w') as f:
            f.write('rule kfc\n  command = %s -MD -MF $out.d $in -o $out\n'
                    '  depfile = $out.d\n  deps = gcc\n'
                    'build walk.kfb: kfc walk.yaml\n' % kfc)
        run([ninja], cwd=nproj)
        c.check('no work to do' in run([ninja, '-n'], cwd=nproj).stdout, 'ninja: up to date')
        deps = run([ninja, '-t', 'deps'], cwd=nproj).stdout
        c.check('walk.yaml' in deps, 'ninja read the dependency file: %r' % deps)
    check_grammar(c, kfc, args.kfplay, leg, work)
    check_warnings(c, kfc, work)
    check_long_times(c, kfc, args.fixtures, work)
    check_zero_quaternion(c, kfc, args.kfplay, work)
    check_terminal(c, kfc, leg, work)
    check_terminal_bytes(c, kfc, args.fixtures, work)
    check_door(c, kfc, args.kfplay, leg, work)
    check_empty(c, kfc, args.fixtures, work)
    check_other_names(c, kfc, work)
    check_gzip_names(c, kfc, work)
    print('test_kfc_cli: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
