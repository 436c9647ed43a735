#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfplay --format csv|json: the output parses with Python's csv and json
modules and holds exactly the numbers (and names, flags) of the text output,
for sample (sequences and interpolators), velocity, sample-distance,
animate (names that need quoting and escaping included) and follow; CSV rows
have the header's columns. Also the command line kfplay shares with kfc:
every spelling of an option, '-' for standard input, negative numbers as
times, time ranges (--from, --to, --step, --samples) and the error when no
time is given, --rotation, usage errors as one line and a pointer to --help,
and the errors that name a mix-up (a source, or a glTF, M3G or X3D file kfc
imports, instead of a .kfb; a target instead of an animator); kfc's exit
statuses, each for what it means to kfc (an option's value malformed or
out of its range a usage error, a time after the command invalid input)."""
import csv
import gzip
import io
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402
import kfb_layout  # noqa: E402


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def text_rows(out):
    """The text format's numbers, one list per line."""
    return [[float(x) for x in line.split()] for line in out.decode().splitlines()]


def main():
    args = driver.arguments()
    c = driver.Checks()
    kfbs = {}
    for src in ('leg_walk', 'x3d_interpolators', 'followers', 'names', 'fan_in', 'basic'):
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
        # The text form, rebuilt from each structured form, is the text output
        # (where a name's controls print as \xNN, as in CSV).
        from_json = ''.join('%s %s%s\n' % (fmt(o['w']), driver.terminal_text(o['target']),
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

    # World times in seconds since 1970 (X3D's) stay distinct, and read
    # back as the times played, in every format; a range steps through
    # its decimals.
    epoch = ['1408703701.25', '1408703701.27', '1408703701.5']
    for fmt_args, key in (([], lambda out: [l.split()[0] for l in out.decode().splitlines()]),
                          (['-f', 'csv'], lambda out: [r[0] for r in list(csv.reader(
                              io.StringIO(out.decode(), newline='')))[1:]]),
                          (['-f', 'json'], lambda out: [repr(next(iter(o.values()))) for o in json.loads(out)])):
        r = run([args.kfplay, kfbs['leg_walk'], 'animate'] + epoch + fmt_args)
        times = sorted(set(key(r.stdout)), key=float)
        c.check(r.returncode == 0 and times == epoch,
                'animate at epoch times %s: %s' % (fmt_args, times))
        r = run([args.kfplay, kfbs['followers'], 'follow', 'cam', '--tick', '0.1', '--until',
                 '0.5'] + fmt_args)
        c.check(r.returncode == 0 and key(r.stdout) == ['0.1', '0.2', '0.3', '0.4', '0.5'],
                'follow --tick 0.1 %s: %s' % (fmt_args, key(r.stdout)))
    r = run([args.kfplay, kfbs['leg_walk'], 'animate', '--from', '1408703701.25', '--to',
             '1408703701.31', '--step', '0.02'])
    times = sorted(set(l.split()[0] for l in r.stdout.decode().splitlines()), key=float)
    c.check(times == ['1408703701.25', '1408703701.27', '1408703701.29', '1408703701.31'],
            'a range at epoch times: %s' % times)

    # Usage errors.
    for bad in (['--format', 'xml'], ['--format']):
        r = run([args.kfplay, kfbs['leg_walk'], 'sample', 'hip_position', '0'] + bad)
        c.check(r.returncode == 2 and not r.stdout, 'sample %s: usage error' % bad)
    check_list(c, args, kfbs)
    check_rectangular(c, args, kfbs)
    check_grammar(c, args, kfbs)
    check_ranges(c, args, kfbs)
    check_rotation(c, args, kfbs)
    check_mixups(c, args, kfbs)
    check_terminal_bytes(c, args)
    check_backslash(c, args)
    check_structured_names(c, args)
    check_input_bounds(c, args, kfbs)
    check_exit_codes(c, args, kfbs)
    print('test_kfplay_format: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


# Names that hold what a terminal acts on: OSC (the window's title), BEL,
# CSI (clear the screen), SGR, and the C1 controls CSI (U+009B) and NEL
# (U+0085).
HOSTILE_YAML = r"""kfb: 1
sequences:
  "\e]0;PWNED\a\e[2J\u009b":
    interpolation: linear
    duration: 1
    keys: [[0, [1]], [1, [2]]]
controllers:
  "c\u009d": {}
tracks:
  - {animator: "\e]0;PWNED\a\e[2J\u009b", controller: "c\u009d", target: "\e[32mT\u0085.alpha"}
"""
SEQ = '\\x1b]0;PWNED\\x07\\x1b[2J\\xc2\\x9b'
TARGET = '\\x1b[32mT\\xc2\\x85.alpha'


def compiled(c, args, stem, text, *flags):
    """The .kfb kfc makes of source `text`, written as STEM.yaml in the work
    folder (with kfc's `flags`); a check that kfc took it."""
    src = os.path.join(args.work, stem + '.yaml')
    with open(src, 'w') as f:
        f.write(text)
    kfb = os.path.join(args.work, stem + '.kfb')
    r = run([args.kfc, *flags, src, '-o', kfb])
    c.check(r.returncode == 0, 'kfc %s.yaml: %r' % (stem, r.stderr))
    return kfb


def check_terminal_bytes(c, args):
    """Every name kfplay prints, and every message quoting one, shows the
    bytes a terminal acts on (C0, DEL, C1, what is not UTF-8) as \\xNN: list,
    rows as text, "did you mean", dump, the loader's messages, a file's name."""
    kfb = compiled(c, args, 'hostile', HOSTILE_YAML, '-z', '0')

    def shows(argv, status, out, err):
        r = run([args.kfplay] + argv)
        raw = [b for b in (b'\x1b', b'\x07', b'\xc2\x9b', b'\xc2\x85', b'\xc2\x9d', b'\xe9')
               if b in r.stdout + r.stderr]
        c.check(r.returncode == status and r.stdout.decode() == out and r.stderr.decode() == err
                and not raw, '%s: %d %r %r' % (argv, r.returncode, r.stdout, r.stderr))
    shows([kfb, 'list'], 0,
          SEQ + ' sequence interpolation=linear repeat=constant components=1 keys=2 '
          'valid_range=0..1 duration=1\n'
          'c\\xc2\\x9d controller speed=1 weight=1 active_interval=0..0 reference=0,0\n' +
          TARGET + ' target property=alpha components=1\n'
          '#0 track animator=' + SEQ + ' controller=c\\xc2\\x9d target=' + TARGET + '\n', '')
    shows([kfb, 'animate', '0'], 0, '0 %s 1\n' % TARGET, '')
    shows([kfb, 'sample', '[2J', '0'], 1, '',
          "kfplay: error: no animator named '[2J'; did you mean '%s'? (kfplay FILE list shows "
          "the names)\n" % SEQ)
    r = run([args.kfplay, 'dump', kfb])
    c.check(("sequence '%s' interpolation=linear" % SEQ) in r.stdout.decode() and
            b'\x1b' not in r.stdout and b'\xc2\x9b' not in r.stdout, 'dump: %r' % r.stdout)
    # The loader's message quotes the name as stored: the sequence's
    # interpolation word made 99, the section's CRC made again.
    data = bytearray(open(kfb, 'rb').read())
    objs = kfb_layout.sections(data)[kfb_layout.OBJECTS]
    kfb_layout.put_word(data, objs.stored + kfb_layout.OBJECT_HEADER_SIZE +
                        kfb_layout.field_at('kfb_sequence', 'interpolation'), 99)
    kfb_layout.fix_section_crc(data, objs)
    bad = os.path.join(args.work, 'hostile_bad.kfb')
    with open(bad, 'wb') as f:
        f.write(data)
    shows([bad, 'list'], 1, '', "%s: error: object 0 (sequence '%s'): unknown interpolation 99\n"
          % (bad, SEQ))
    r = run([args.kfplay, 'dump', bad])
    c.check(r.returncode == 1 and ("load: object 0 (sequence '%s'): unknown interpolation 99\n"
                                   % SEQ) in r.stdout.decode(), 'dump: the loader: %r' % r.stdout)
    # A file's own name, from the command line.
    shows([os.path.join(os.fsencode(args.work), b'no\xc2\x9b\xe9.kfb'), 'list'], driver.EXIT_IO, '',
          '%s/no\\xc2\\x9b\\xe9.kfb: error: cannot open: No such file or directory\n' % args.work)


# Two names a backslash alone tells apart: one holds ESC, the other the four
# characters \x1b.
TWINS_YAML = r"""kfb: 1
sequences:
  "a\eb": {interpolation: linear, duration: 1, keys: [[0, [0]], [1, [1]]]}
  'a\x1bb': {interpolation: linear, duration: 1, keys: [[0, [2]], [1, [3]]]}
tracks:
  - {animator: "a\eb", target: "a\eb.alpha"}
  - {animator: 'a\x1bb', target: 'a\x1bb.alpha'}
"""
ESC_NAME, LITERAL_NAME = '\x1b'.join('ab'), 'a\\x1bb'


def check_backslash(c, args):
    """A name's backslash prints as \\\\, as kfc prints it, so that what
    is printed reads back as one name: list, dump, animate's rows, messages
    and their "did you mean" (and a file's name in a message) show the two
    names apart."""
    kfb = compiled(c, args, 'twins', TWINS_YAML)
    esc, lit = driver.terminal_text(ESC_NAME), driver.terminal_text(LITERAL_NAME)
    c.check((esc, lit) == ('a\\x1bb', 'a\\\\x1bb'), 'the names as shown: %s %s' % (esc, lit))

    def shows(argv, status, out, err):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == status and r.stdout.decode() == out and
                r.stderr.decode() == err and b'\x1b' not in r.stdout + r.stderr,
                '%s: %d %r %r' % (argv, r.returncode, r.stdout, r.stderr))
    seq = (' sequence interpolation=linear repeat=constant components=1 keys=2 valid_range=0..1 '
           'duration=1\n')
    shows([kfb, 'list'], 0,
          esc + seq + lit + seq + esc + '.alpha target property=alpha components=1\n' + lit +
          '.alpha target property=alpha components=1\n'
          '#0 track animator=%s controller=- target=%s.alpha\n'
          '#1 track animator=%s controller=- target=%s.alpha\n' % (esc, esc, lit, lit), '')
    shows([kfb, 'animate', '0'], 0, '0 %s.alpha 1\n0 %s.alpha 1\n' % (esc, lit), '')
    r = run([args.kfplay, 'dump', kfb])
    out = r.stdout.decode()
    c.check(r.returncode == 0 and "sequence '%s'" % esc in out and "sequence '%s'" % lit in out
            and b'\x1b' not in r.stdout, 'dump: %r' % r.stdout)
    # A name given on the command line, and the name meant, are quoted so.
    for given in (ESC_NAME, LITERAL_NAME):
        shows([kfb, 'sample', given + 'z', '0'], 1, '',
              "kfplay: error: no animator named %s; did you mean %s? (kfplay FILE list shows the "
              "names)\n" % (driver.terminal_text(given + 'z', True),
                            driver.terminal_text(given, True)))
        shows([kfb, 'follow', given, '--tick', '1', '--until', '1'], 1, '',
              "kfplay: error: %s is a sequence, not a follower: sample plays it (kfplay FILE "
              "sample NAME T...)\n" % driver.terminal_text(given, True))
    # A quote in a quoted name is escaped too.
    shows([kfb, 'sample', "it's", '0'], 1, '',
          "kfplay: error: no animator named 'it\\'s' (kfplay FILE list shows the names)\n")
    # A file's name in a message.
    for name in (ESC_NAME, LITERAL_NAME):
        path = os.path.join(args.work, name + '.kfb')
        shows([path, 'list'], driver.EXIT_IO, '', '%s: error: cannot open: No such file or directory\n'
              % driver.terminal_text(path))


# A target named with ESC, the C1 control CSI (U+009B), CR, LF, a
# backslash, a double quote and a comma.
HOSTILE_TARGET = 'h\x1b\u009b\r\n\\",x.alpha'
HOSTILE_ROWS_YAML = r"""kfb: 1
sequences:
  s: {interpolation: linear, duration: 1, keys: [[0, [0.25]], [1, [0.75]]]}
tracks:
  - {animator: s, target: "h\e\u009b\r\n\\\",x.alpha"}
  - {animator: s, target: "plain.alpha"}
"""


def check_structured_names(c, args):
    """CSV writes a name as the text does (the bytes a terminal acts on as
    \\xNN, a backslash as \\\\), quoted per RFC 4180 where it holds a
    comma or a quote; JSON writes C0, DEL and C1 as \\u00XX, and decodes to
    the name. Neither writes a raw ESC, CSI or CR into a name."""
    kfb = compiled(c, args, 'hostile_rows', HOSTILE_ROWS_YAML)
    shown = driver.terminal_text(HOSTILE_TARGET)
    c.check(shown == 'h\\x1b\\xc2\\x9b\\x0d\\x0a\\\\",x.alpha', 'as text: %s' % shown)
    r = run([args.kfplay, kfb, 'animate', '0', '0.5', '--format', 'csv'])
    out = r.stdout
    c.check(r.returncode == 0 and b'\x1b' not in out and b'\xc2\x9b' not in out and
            out.count(b'\r') == out.count(b'\n') == 5 and
            out.startswith(b'w,target,v0\r\n0,"h\\x1b\\xc2\\x9b\\x0d\\x0a\\\\"",x.alpha",1\r\n'),
            'csv: %r' % out)
    rows = list(csv.reader(io.StringIO(out.decode(), newline='')))
    c.check([row[1] for row in rows[1:]] == [shown, 'plain.alpha'] * 2, 'csv reads back: %r' % rows)
    r = run([args.kfplay, kfb, 'animate', '0', '0.5', '--format', 'json'])
    out = r.stdout
    c.check(r.returncode == 0 and b'\x1b' not in out and b'\xc2\x9b' not in out and
            b'\r' not in out and b'"h\\u001b\\u009b\\u000d\\n\\\\\\",x.alpha"' in out, 'json: %r' % out)
    doc = json.loads(out) if r.returncode == 0 else []
    c.check([o['target'] for o in doc] == [HOSTILE_TARGET, 'plain.alpha'] * 2,
            'json decodes to the names: %r' % doc)
    # The text rows show the name as CSV's field reads back. (The tracks
    # have no controller: the alpha is the property's default, 1.)
    r = run([args.kfplay, kfb, 'animate', '0'])
    c.check(r.stdout.decode() == '0 %s 1\n0 plain.alpha 1\n' % shown, 'text: %r' % r.stdout)


def peak_kb(command):
    """Runs the shell `command`; its stderr and the largest resident size of
    any process it ran (KiB)."""
    probe = ('import resource, subprocess, sys\n'
             'r = subprocess.run(sys.argv[1], shell=True, stderr=subprocess.PIPE)\n'
             'sys.stdout.write("%d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n'
             'sys.stdout.write(r.stderr.decode())\n')
    out = subprocess.run([sys.executable, '-c', probe, command], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    peak, _, err = out.partition('\n')
    return err, int(peak)


def check_exit_codes(c, args, kfbs):
    """Each of kfc's exit statuses, with the same meaning: 0 success; 1 an
    invalid file (a damaged or foreign one, one past 1 GiB), name or number;
    2 a usage error; 3 an input that cannot be opened or read, or an output
    that cannot be written; 4 out of memory."""
    leg = kfbs['leg_walk']
    work = args.work
    foreign = os.path.join(work, 'foreign.kfb')
    with open(foreign, 'wb') as f:
        f.write(b'\x00' * 100)
    huge = os.path.join(work, 'huge.kfb')
    big = os.path.join(work, 'big.kfb')
    for path, size in ((huge, (1 << 30) + 1), (big, 200 << 20)):
        shutil.copyfile(leg, path)
        os.truncate(path, size)  # sparse: nothing is written
    # (status, arguments, standard output, subprocess.run's keywords, what
    # the message says)
    nodir = os.path.join(work, 'nodir', 'x.svg')
    cases = [
        (0, [leg, 'list'], None, {}, ''),
        (driver.EXIT_INVALID, [foreign, 'list'], None, {}, foreign + ': error: '),
        (driver.EXIT_INVALID, [huge, 'list'], None, {},
         huge + ': error: cannot read: larger than 1 GiB'),
        (driver.EXIT_INVALID, [leg, 'sample', 'hip', '0'], None, {},
         "kfplay: error: no animator named 'hip'"),
        # A time after the command that is no number is invalid input;
        # an option's value malformed or out of its range is a usage error,
        # as kfc's are (kfc -z 10), with the pointer to --help.
        (driver.EXIT_INVALID, [leg, 'sample', 'hip_position', 'x'], None, {},
         "kfplay: error: sample takes times: not a decimal number: 'x'"),
        (driver.EXIT_INVALID, [leg, 'animate', '1s'], None, {},
         "kfplay: error: animate takes world times: not a decimal number: '1s': numbers have "
         "no unit, and times are seconds (1)\n"),
        (driver.EXIT_USAGE, [leg, 'animate', '--step', '0'], None, {},
         "kfplay: error: --step must be positive\nTry 'kfplay --help' for more information.\n"),
        (driver.EXIT_USAGE, [leg, 'sample', 'hip_position', '--samples', '0'], None, {},
         "kfplay: error: --samples must be a whole number from 1 to 1e9\nTry 'kfplay --help'"),
        (driver.EXIT_USAGE, [kfbs['followers'], 'follow', 'cam', '--tick', '16ms', '--until', '2'],
         None, {}, "kfplay: error: --tick: not a decimal number: '16ms': numbers have no unit, "
                   "and times are seconds (0.016)\nTry 'kfplay --help' for more information.\n"),
        (driver.EXIT_USAGE, [kfbs['followers'], 'follow', 'cam', '--tick', '0.1', '--until', 'x'],
         None, {}, "kfplay: error: --until: not a decimal number: 'x' (numbers are written as "
                   "2, -0.5, .25 or 1e3)\nTry 'kfplay --help' for more information.\n"),
        (driver.EXIT_USAGE, [leg, 'sample', 'hip_position', '0', '--format', 'xml'], None, {},
         "kfplay: error: unknown format 'xml': text, csv or json\nTry 'kfplay --help'"),
        (driver.EXIT_USAGE, [leg, 'list', '--frobnicate'], None, {},
         "kfplay: error: unknown option '--frobnicate'"),
        (driver.EXIT_IO, [os.path.join(work, 'nothere.kfb'), 'list'], None, {},
         os.path.join(work, 'nothere.kfb') + ': error: cannot open: '),
        (driver.EXIT_IO, [leg, 'plot', 'hip_position', '-o', nodir], None, {},
         nodir + ': error: cannot create: '),
        (driver.EXIT_IO, [leg, 'list'], '/dev/full', {},
         'kfplay: error: cannot write the output: '),
        (driver.EXIT_NOMEM, [big, 'list'], None, driver.short_of_memory(args.kfplay, 96),
         big + ': error: cannot read: out of memory'),
    ]
    try:
        for status, argv, stdout, how, says in cases:
            with open(stdout or os.devnull, 'wb') as out:
                r = subprocess.run([args.kfplay] + argv, stdout=out, stderr=subprocess.PIPE,
                                   timeout=120, **how)
            err = r.stderr.decode('utf-8', 'replace')
            c.check(r.returncode == status and (says in err if says else not err),
                    'kfplay %s%s: exit %d, expected %d, saying %r: %r'
                    % (' '.join(argv), ' > ' + stdout if stdout else '', r.returncode, status,
                       says, err[-500:]))
    finally:
        for path in (huge, big):
            os.remove(path)


def check_input_bounds(c, args, kfbs):
    """kfplay reads no more than its input's header says, nor 1 GiB: a file
    larger is refused from its size before a byte is read, a stream is read
    to its declared size and one byte, and trailing data, a declared size
    past the limit and what is no .kfb are told from what was read."""
    leg = kfbs['leg_walk']
    size = os.path.getsize(leg)
    q = shlex.quote
    big = os.path.join(args.work, 'sparse.kfb')
    shutil.copyfile(leg, big)
    os.truncate(big, (2 << 30) + 5)
    try:
        err, peak = peak_kb('%s %s list' % (q(args.kfplay), q(big)))
        c.check(err == '%s: error: cannot read: larger than 1 GiB\n' % big and peak < 256 << 10,
                'a 2 GiB file, refused unread: %r, %d KiB' % (err, peak))
        os.truncate(big, size + 5)
        r = run([args.kfplay, big, 'list'])
        c.check(r.stderr.decode() == '%s: error: 5 bytes follow the declared end of the file (its '
                'header says %d bytes)\n' % (big, size), 'a file with 5 bytes more: %r' % r.stderr)
    finally:
        os.remove(big)
    # A stream with 300 MB after the file: what the header declares and a
    # byte are read, the rest not.
    trailing = ('<stdin>: error: more bytes follow the declared end of the file (its header says '
                '%d bytes)\n' % size)
    err, peak = peak_kb('(cat %s; head -c 300000000 /dev/zero) | %s - list'
                        % (q(leg), q(args.kfplay)))
    c.check(err == trailing and peak < 256 << 10, 'a stream with 300 MB more: %r, %d KiB'
            % (err, peak))
    data = open(leg, 'rb').read()
    for extra in (b'\0', b'\0' * 100000):
        r = subprocess.run([args.kfplay, '-', 'list'], input=data + extra, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        c.check(r.returncode == 1 and r.stderr.decode() == trailing,
                'a stream, %d bytes more: %r' % (len(extra), r.stderr))
    r = subprocess.run([args.kfplay, 'dump', '-'], input=data + bytes(100000),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = r.stdout.decode()
    c.check(r.returncode == 1 and out.startswith('file: <stdin> (the first %d bytes; more follow, '
                                                 'not read)\n' % (size + 1)) and
            out.endswith('load: ' + trailing[len('<stdin>: error: '):]),
            'dump of a stream with more: %r' % out)
    r = subprocess.run([args.kfplay, '-', 'list'], input=data[:300], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    c.check(r.stderr.decode() == '<stdin>: error: the file is 300 bytes; its header declares %d\n'
            % size, 'a stream cut short: %r' % r.stderr)
    r = subprocess.run([args.kfplay, '-', 'list'], input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    c.check(r.returncode == 0 and r.stdout == run([args.kfplay, leg, 'list']).stdout,
            'a whole stream lists as the file')
    # A header declaring 3 GiB (its CRC made again): nothing read after it.
    huge = bytearray(data)
    kfb_layout.put_word(huge, kfb_layout.header_at('file_size'), 3 << 30)
    kfb_layout.fix_header_crc(huge)
    r = subprocess.run([args.kfplay, '-', 'list'], input=bytes(huge) + bytes(100000),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    c.check(r.returncode == 1 and r.stderr.decode() == '<stdin>: error: the header declares '
            '3221225472 bytes, more than the 1 GiB kfplay reads\n', 'a 3 GiB header: %r' % r.stderr)
    # What is no .kfb is still told, from its first bytes, however long.
    source = open(os.path.join(args.fixtures, 'leg_walk.yaml'), 'rb').read()
    r = subprocess.run([args.kfplay, '-', 'list'], input=source + b'#' * 300000,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    c.check(r.returncode == 1 and r.stderr.decode() == '<stdin>: error: a YAML animation source, '
            'not a compiled .kfb: compile it with kfc first (kfc - -o OUT.kfb)\n',
            'a long source on a stream: %r' % r.stderr)


def usage_text(message):
    return ('kfplay: error: %s\nTry \'kfplay --help\' for more information.\n'
            % message).encode()


def check_rectangular(c, args, kfbs):
    """animate --format csv: narrower targets end in empty fields."""
    r = run([args.kfplay, kfbs['leg_walk'], 'animate', '0', '--format', 'csv'])
    want = ('w,target,v0,v1,v2,v3\r\n0,hip.translation,50,34,0,\r\n'
            '0,hip.orientation,0,0,0,1\r\n').encode()
    c.check(r.stdout.startswith(want), 'csv: rows as wide as the header: %r' % r.stdout[:120])
    for src in ('leg_walk', 'names', 'followers', 'x3d_interpolators'):
        r = run([args.kfplay, kfbs[src], 'animate', '0', '0.5', '-fcsv'])
        rows = list(csv.reader(io.StringIO(r.stdout.decode(), newline='')))
        c.check(r.returncode == 0 and len(rows) > 1 and all(len(x) == len(rows[0]) for x in rows),
                'animate %s csv: every row has %d fields' % (src, len(rows[0]) if rows else 0))


def check_grammar(c, args, kfbs):
    leg = kfbs['leg_walk']
    want = run([args.kfplay, leg, 'sample', 'hip_position', '0', '-1.25', '--format=csv']).stdout
    c.check(want.startswith(b't,v0,v1,v2\r\n0,50,34,0\r\n-1.25,'), 'sample csv: %r' % want[:60])
    for argv in (['-fcsv', leg, 'sample', 'hip_position', '0', '-1.25'],
                 ['-f', 'csv', leg, 'sample', 'hip_position', '0', '-1.25'],
                 [leg, 'sample', '--format', 'csv', 'hip_position', '0', '-1.25'],
                 [leg, 'sample', 'hip_position', '0', '-1.25', '--forma=csv'],
                 [leg, 'sample', 'hip_position', '-fcsv', '--', '0', '-1.25'],
                 ['sample', leg, 'hip_position', '0', '-1.25', '-fcsv']):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 0 and r.stdout == want and not r.stderr,
                'grammar %s: the same rows (%s)' % (argv, r.stderr))
    # '-' is standard input, for every command.
    data = open(leg, 'rb').read()
    for cmd in (['list'], ['sample', 'knee_angle', '0.5'], ['animate', '0', '1000']):
        direct = run([args.kfplay, leg] + cmd)
        piped = subprocess.run([args.kfplay, '-'] + cmd, input=data, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        c.check(piped.returncode == 0 and piped.stdout == direct.stdout and direct.stdout,
                'kfplay - %s: reads standard input' % cmd[0])
    dump = subprocess.run([args.kfplay, 'dump', '-'], input=data, stdout=subprocess.PIPE)
    c.check(dump.returncode == 0 and dump.stdout.startswith(b'file: <stdin> (%d bytes)\n' % len(data)),
            'kfplay dump -: %r' % dump.stdout[:40])
    for argv in (['-h'], ['--help'], [leg, 'list', '--help']):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 0 and r.stdout.startswith(b'Usage: kfplay ') and not r.stderr,
                '%s: usage on standard output, exit 0' % argv)
        # The unit of T, W, --tick and --until, as kfplay.1 gives it.
        c.check(b'Times are in seconds' in r.stdout, '%s: times in seconds' % argv)
    for argv in (['-V'], ['--version']):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 0 and
                re.match(rb'kfplay \S+ \(libkf \S+\)\nlibkf inflates with (ISA-L|zlib) \S+ .*\n$',
                         r.stdout),
                '%s: versions %r' % (argv, r.stdout))
    usage = [
        ([leg, 'list', '--frobnicate'], "unknown option '--frobnicate'"),
        # A misspelling gets the option meant, as kfc's do (kfc_getopt.c).
        ([leg, 'animate', '0', '--tto', '1'], "unknown option '--tto'; did you mean '--to'?"),
        ([leg, 'animate', '--samles=3'], "unknown option '--samles'; did you mean '--samples'?"),
        ([leg, 'list', '-x'], "unknown option '-x'"),
        ([leg, 'sample', 'hip_position', '0', '--s=1'], "ambiguous option '--s' (--step, --samples)"),
        # An abbreviation that is also a misspelling: which was meant?
        ([leg, 'animate', '--form', '0', '--to', '1', '--step', '1'],
         "'--form' abbreviates --format; did you mean '--from'? (write the option in full)"),
        ([leg, 'list', '--tangents=yes'], "option '--tangents' takes no value"),
        ([leg, 'sample', 'hip_position', '0', '--format'], '--format needs a value'),
        ([leg, 'sample', 'hip_position', '0', '-f'], '-f needs a value'),
        ([leg, 'sample', 'hip_position', '0', '-fxml'], "unknown format 'xml': text, csv or json"),
        ([leg, 'list', '--tick=1'], 'list takes no --tick'),
        ([leg, 'velocity', 'hip_position', '0', '--rotation=quaternion'],
         'velocity takes no --rotation'),
        ([leg, 'sample', 'hip_position', '0', '--rotation=euler'],
         "unknown rotation form 'euler': quaternion or axis-angle"),
        ([leg, 'list', 'extra'], "list takes nothing after it, not 'extra'"),
        ([leg, 'dump', 'x'], "dump takes nothing after the file, not 'x'"),
        ([leg, 'frob'], "unknown command 'frob' (list, sample, animate, velocity, acceleration, "
                        "sample-distance, follow, plot, dump)"),
        # A mistyped command is named, as a mistyped option is.
        ([leg, 'sampel', 'hip_position', '0'],
         "unknown command 'sampel' (list, sample, animate, velocity, acceleration, "
         "sample-distance, follow, plot, dump); did you mean 'sample'?"),
        ([leg, 'Animate', '0'], "unknown command 'Animate' (list, sample, animate, velocity, "
                                "acceleration, sample-distance, follow, plot, dump); did you mean 'animate'?"),
        ([leg], "missing the COMMAND after '%s'" % leg),
        ([], 'missing FILE and COMMAND'),
        ([leg, 'sample'], 'sample needs the NAME of an animator'),
        ([leg, 'sample', 'hip_position'],
         'sample needs times: give them, or a range with --step S or --samples N (and --from, --to)'),
        ([leg, 'animate'],
         'animate needs world times: give them, or a range with --step S or --samples N (and --from, --to)'),
        ([leg, 'animate', '0', '--step', '1'],
         'animate: give world times or a range (--from, --to, --step, --samples), not both'),
        ([leg, 'animate', '--step', '1', '--samples', '3'], 'animate: --step and --samples exclude each other'),
        ([leg, 'animate', '--from', '0', '--to', '1'], 'animate: --from and --to need --step S or --samples N'),
        ([leg, 'follow'], 'follow needs the NAME of a follower'),
    ]
    for argv, message in usage:
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 2 and not r.stdout and r.stderr == usage_text(message),
                'usage %s: %r, want %r' % (argv, r.stderr, message))
    # A time that is not a number: the message says what the command takes.
    # Numbers are kfc's (kfc_number.h): decimal and finite, so hexadecimal,
    # inf, nan and what strtod reads around them are refused.
    forms = ' (numbers are written as 2, -0.5, .25 or 1e3)'
    unit = 'numbers have no unit, and times are seconds (%s)'
    for argv, message in (([leg, 'sample', 'hip_position', '-inf'],
                           "sample takes times: not a decimal number: '-inf'" + forms),
                          ([leg, 'animate', 'hip', '0'],
                           "animate takes world times: not a decimal number: 'hip'" + forms),
                          ([leg, 'sample', 'hip_position', '0x10'],
                           "sample takes times: not a decimal number: '0x10'" + forms),
                          ([leg, 'sample', 'hip_position', '-0x1p3'],
                           "sample takes times: not a decimal number: '-0x1p3'" + forms),
                          ([leg, 'sample', 'hip_position', 'inf'],
                           "sample takes times: not a decimal number: 'inf'" + forms),
                          ([leg, 'sample', 'hip_position', 'NaN'],
                           "sample takes times: not a decimal number: 'NaN'" + forms),
                          ([leg, 'sample', 'hip_position', ' 1'],
                           "sample takes times: not a decimal number: ' 1'" + forms),
                          ([leg, 'sample', 'hip_position', '1e999'],
                           "sample takes times: out of range: '1e999'"),
                          # A unit of time: the seconds meant, as kfc says it.
                          ([leg, 'sample', 'hip_position', '1s'],
                           "sample takes times: not a decimal number: '1s': " + unit % '1'),
                          ([leg, 'velocity', 'hip_position', '250 ms'],
                           "velocity takes times: not a decimal number: '250 ms': " + unit % '0.25')):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 1 and r.stderr == b'kfplay: error: %s\n' % message.encode(),
                '%s: %r' % (argv, r.stderr))
    # The same of an option's value is a usage error, as kfc's is.
    for argv, message in (([leg, 'animate', '--to', '0x10', '--step', '1'],
                           "--to: not a decimal number: '0x10'" + forms),
                          ([leg, 'animate', '--samples', 'infinity'],
                           "--samples: not a decimal number: 'infinity'" + forms),
                          ([leg, 'animate', '--to', '1e999', '--step', '1'],
                           "--to: out of range: '1e999'"),
                          ([leg, 'sample', 'hip_position', '--step=-1'], '--step must be positive'),
                          ([leg, 'sample', 'hip_position', '--step', '0'], '--step must be positive'),
                          ([leg, 'sample', 'hip_position', '--step', '40ms'],
                           "--step: not a decimal number: '40ms': " + unit % '0.04'),
                          ([leg, 'animate', '--from', '1sec', '--samples', '2'],
                           "--from: not a decimal number: '1sec': " + unit % '1'),
                          ([leg, 'animate', '--to', '2 seconds', '--samples', '2'],
                           "--to: not a decimal number: '2 seconds': " + unit % '2')):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 2 and not r.stdout and r.stderr == usage_text(message),
                '%s: %d %r' % (argv, r.returncode, r.stderr))
    # An output that cannot be written: the reason, as kfc and plot give it,
    # and kfc's status.
    for argv in ([leg, 'list'], [leg, 'sample', 'hip_position', '0', '-fcsv'],
                 [leg, 'animate', '0'], [leg, 'dump']):
        with open('/dev/full', 'w') as full:
            r = subprocess.run([args.kfplay] + argv, stdout=full, stderr=subprocess.PIPE)
        c.check(r.returncode == driver.EXIT_IO and
                r.stderr == b'kfplay: error: cannot write the output: No space left on device\n',
                '%s > /dev/full: %d %r' % (argv, r.returncode, r.stderr))
    # Every decimal form kfc reads is a time here too.
    plain = run([args.kfplay, leg, 'sample', 'hip_position', '0.5', '3', '-1.25', '0.001',
                 '1000'])
    for forms in (['.5', '+3', '-1.25', '1e-3', '1E3'], ['0.50', '3.', '-125e-2', '.001e0',
                                                         '+1e+3']):
        r = run([args.kfplay, leg, 'sample', 'hip_position'] + forms)
        c.check(r.returncode == 0 and plain.returncode == 0 and
                [l.split()[1:] for l in r.stdout.splitlines()] ==
                [l.split()[1:] for l in plain.stdout.splitlines()],
                'times %s: %r, want %r' % (forms, r.stdout, plain.stdout))


def check_list(c, args, kfbs):
    """list's CSV (a row per field) and JSON (an object per object) say
    what its text says, names with spaces, commas and quotes included; a
    target's blend: in text only where it blends latest, in CSV and JSON
    always."""
    for src in ('leg_walk', 'x3d_interpolators', 'followers', 'names', 'fan_in', 'basic'):
        text = run([args.kfplay, kfbs[src], 'list'])
        csv_out = run([args.kfplay, kfbs[src], 'list', '-f', 'csv'])
        json_out = run([args.kfplay, kfbs[src], 'list', '--format=json'])
        if not c.check(text.returncode == csv_out.returncode == json_out.returncode == 0,
                       'list %s: all three run: %r' % (src, json_out.stderr)):
            continue
        doc = json.loads(json_out.stdout)
        rows = list(csv.reader(io.StringIO(csv_out.stdout.decode(), newline='')))
        c.check(rows[0] == ['kind', 'index', 'name', 'field', 'value'], 'list csv header')
        # Each object's text line, rebuilt from the CSV rows and from JSON.
        lines, objects = [], []
        for row in rows[1:]:
            key = (row[0], row[1], row[2])
            if not objects or objects[-1][0] != key:
                objects.append((key, []))
            objects[-1][1].append((row[3], row[4]))
        for (kind, index, name), fields in objects:
            words = [name if name else '#' + index, kind]
            for k, v in fields:
                if v == 'true' and k in ('tcb', 'closed', 'normalizeVelocity'):
                    words.append(k)
                elif k == 'blend' and v == 'sum':
                    pass
                elif v != 'false' or k == 'loop':
                    words.append('%s=%s' % (k, v if v or k not in ('controller', 'ease') else '-'))
            lines.append(' '.join(words))
        c.check('\n'.join(lines) + '\n' == text.stdout.decode(),
                'list %s: csv says what text says:\n%s\n%s' % (src, '\n'.join(lines),
                                                                text.stdout.decode()))
        c.check(len(doc) == len(objects) and
                all(o['kind'] == k[0] and o['index'] == int(k[1]) and
                    driver.terminal_text(o.get('name', '')) == k[2]
                    for o, (k, _) in zip(doc, objects)),
                'list %s: json names every object as csv does' % src)
    # fan_in.yaml's door targets blend latest; basic.yaml's targets sum.
    for src, want in (('fan_in', {'door.orientation': 'latest', 'door.translation': 'latest'}),
                      ('basic', {'hip.translation': 'sum', 'hip.orientation': 'sum',
                                'body.alpha': 'sum', 'eye.visibility': 'sum', 'eye.glow': 'sum'})):
        text = run([args.kfplay, kfbs[src], 'list']).stdout.decode()
        shown = {m.group(1): m.group(2) or 'sum' for m in re.finditer(
            r'^(\S+) target property=\w+ components=\d+(?: blend=(\w+))?$', text, re.M)}
        doc = json.loads(run([args.kfplay, kfbs[src], 'list', '-f', 'json']).stdout)
        blends = {o['name']: o.get('blend') for o in doc if o['kind'] == 'target'}
        c.check(shown == want and blends == want and
                text.count(' blend=') == list(want.values()).count('latest'),
                'list %s: the targets\' blends %s (text %s, json %s)' % (src, want, shown, blends))
    doc = json.loads(run([args.kfplay, kfbs['leg_walk'], 'list', '-f', 'json']).stdout)
    seq = [o for o in doc if o['kind'] == 'sequence'][0]
    track = [o for o in doc if o['kind'] == 'track'][0]
    c.check(isinstance(seq['keys'], int) and isinstance(seq['valid_range'], list) and
            isinstance(seq['duration'], (int, float)) and 'name' not in track and
            track['animator'] in {o['name'] for o in doc if o['kind'] == 'sequence'},
            'list json: numbers as numbers, ranges as arrays, tracks by index: %r %r'
            % (seq, track))


def numbers(out):
    """Each line's words, numbers as floats (the times' text may differ)."""
    def word(x):
        try:
            return float(x)
        except ValueError:
            return x
    return [[word(x) for x in line.split()] for line in out.decode().splitlines()]


def check_ranges(c, args, kfbs):
    """A range is the times it stands for, given one by one."""
    leg = kfbs['leg_walk']
    for name, cmd, rng, explicit in (
            ('step', ['sample', 'hip_position'], ['--from', '0.5', '--to', '1.5', '--step', '0.25'],
             ['0.5', '0.75', '1', '1.25', '1.5']),
            ('step landing on --to', ['sample', 'hip_position'], ['--to', '0.3', '--step', '0.1'],
             ['0', '0.1', '0.2', '0.3']),
            # a step written to a few digits for 1/60: its 120th time is
            # past --to by 4e-6, and is --to (as follow's last tick)
            ('a rounded step', ['animate'], ['--to', '2', '--step', '0.0166667'],
             [repr(round(i * 0.0166667, 7)) for i in range(120)] + ['2']),
            ('a step past --to by more', ['sample', 'hip_position'],
             ['--to', '0.29', '--step', '0.1'], ['0', '0.1', '0.2']),
            ('samples', ['sample', 'knee_angle'], ['--from=-1', '--to=3', '--samples=5'],
             ['-1', '0', '1', '2', '3']),
            ('default --to: the duration', ['sample', 'hip_position'], ['--samples', '3'],
             ['0', '2', '4']),
            ('default --to: a fraction', ['sample', 'door'], ['--samples', '3'], ['0', '0.5', '1']),
            ('default --to of animate: one period', ['animate'], ['--samples', '3'],
             ['0', '2', '4']),
            ('one sample', ['velocity', 'hip_position'], ['--from', '1', '--samples', '1'], ['1']),
            ('distances', ['sample-distance', 'hip_position'], ['--step', '50'],
             ['0', '50', '100', '150'])):
        kfb = kfbs['x3d_interpolators'] if 'fraction' in name else leg
        a = run([args.kfplay, kfb] + cmd + rng)
        b = run([args.kfplay, kfb] + cmd + explicit)
        c.check(a.returncode == 0 and b.returncode == 0 and numbers(a.stdout) == numbers(b.stdout)
                and a.stdout, 'range %s: %r vs %r' % (name, a.stdout[:80], b.stdout[:80]))
    # Dense sampling without an argument per time: 400,001 rows.
    r = run([args.kfplay, leg, 'sample', 'hip_position', '--to', '1000', '--step', '0.0025'])
    lines = r.stdout.count(b'\n')
    c.check(r.returncode == 0 and lines == 400001 and r.stdout.split(b'\n')[-2].startswith(b'1000 '),
            'a dense range: %d rows' % lines)
    for argv, message in (
            (['--to', '1e12', '--step', '1e-3'], 'sample: more than 1e9 times'),
            (['--from', '2', '--to', '1', '--step', '1'], 'sample: --to (1) must not be before --from (2)'),
            (['--samples', '0'], '--samples must be a whole number from 1 to 1e9'),
            (['--samples', '2.5'], '--samples must be a whole number from 1 to 1e9')):
        r = run([args.kfplay, leg, 'sample', 'hip_position'] + argv)
        c.check(r.returncode == 2 and r.stderr == usage_text(message),
                'range %s: %d %r' % (argv, r.returncode, r.stderr))


def axis_angle(q):
    """kf_quat_to_axis_angle, in double: w >= 0, angle in [0, pi]."""
    if q[3] < 0:
        q = [-x for x in q]
    n = math.sqrt(sum(x * x for x in q))
    q = [x / n for x in q]
    s = math.sqrt(max(0.0, 1 - q[3] * q[3]))
    angle = 2 * math.acos(min(1.0, q[3]))
    return ([q[0] / s, q[1] / s, q[2] / s, angle] if s > 1e-6 else [0, 0, 1, 0])


def quaternion(aa):
    n = math.sqrt(sum(x * x for x in aa[:3]))
    if n == 0:
        return [0, 0, 0, 1]
    s = math.sin(aa[3] / 2) / n
    return [aa[0] * s, aa[1] * s, aa[2] * s, math.cos(aa[3] / 2)]


def close(a, b, tol=2e-6):
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(a, b))


def check_rotation(c, args, kfbs):
    """--rotation turns every rotation one way; by default each prints as
    its animator states it (sequences, targets: quaternions; X3D nodes:
    axis-angle)."""
    leg, x3d, fol = kfbs['leg_walk'], kfbs['x3d_interpolators'], kfbs['followers']
    cases = [
        ([leg, 'sample', 'knee_angle', '0.5', '2.25'], 1, True),
        ([leg, 'animate', '500', '1250'], 2, True),
        ([x3d, 'sample', 'door', '0.3', '0.8'], 1, False),
        ([fol, 'follow', 'aim', '--tick', '0.25', '--until', '1'], 1, False),
    ]
    for argv, first, quat in cases:
        plain = run([args.kfplay] + argv)
        q = run([args.kfplay] + argv + ['--rotation=quaternion'])
        aa = run([args.kfplay] + argv + ['--rotation', 'axis-angle'])
        c.check(plain.returncode == q.returncode == aa.returncode == 0, '%s: runs' % argv)
        c.check(plain.stdout == (q.stdout if quat else aa.stdout),
                '%s: the default is %s' % (argv, 'quaternion' if quat else 'axis-angle'))
        for lq, la in zip(q.stdout.decode().splitlines(), aa.stdout.decode().splitlines()):
            wq, wa = lq.split(), la.split()
            if argv[1] == 'animate' and not wq[1].endswith('.orientation'):
                c.check(wq == wa, 'animate %s: not a rotation, unchanged' % wq[1])
                continue
            vq = [float(x) for x in wq[first:first + 4]]
            va = [float(x) for x in wa[first:first + 4]]
            c.check(close(axis_angle(vq), va, 2e-6) and
                    (close(quaternion(va), vq, 2e-6) or close(quaternion(va), [-x for x in vq], 2e-6)),
                    '%s: %s and %s are one rotation' % (argv[1:3], vq, va))


def check_mixups(c, args, kfbs):
    src = os.path.join(args.fixtures, 'leg_walk.yaml')
    r = run([args.kfplay, src, 'list'])
    # The .kfb is suggested in the current folder, not beside the file read
    # (here, in the source tree).
    c.check(r.returncode == 1 and r.stderr.decode() ==
            '%s: error: a YAML animation source, not a compiled .kfb: compile it with kfc first '
            '(kfc %s -o leg_walk.kfb)\n' % (src, src), 'a source given to kfplay: %r' % r.stderr)
    # The suggested command as the shell reads it back: names with a blank
    # or a quote quoted, one an option's dash starts after './'.
    for name, shell, out in (('my walk.yaml', "'my walk.yaml'", "'my walk.kfb'"),
                             ("it's.yaml", "'it'\\''s.yaml'", "'it'\\''s.kfb'"),
                             ('-w.yaml', './-w.yaml', './-w.kfb')):
        shutil.copyfile(src, os.path.join(args.work, name))
        r = subprocess.run([args.kfplay, '--', name, 'list'], cwd=args.work,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        c.check(r.returncode == 1 and r.stderr.decode() ==
                '%s: error: a YAML animation source, not a compiled .kfb: compile it with kfc '
                'first (kfc %s -o %s)\n' % (name, shell, out), '%r: %r' % (name, r.stderr))
        words = subprocess.run(['sh', '-c', 'for w in %s %s; do echo "$w"; done' % (shell, out)],
                               stdout=subprocess.PIPE).stdout.decode().splitlines()
        c.check(words == [name if not name.startswith('-') else './' + name,
                          out.strip("'").replace("'\\''", "'")],
                '%r: the shell reads %r' % (name, words))
    # dump says it as plainly, rather than read a header out of text.
    r = run([args.kfplay, 'dump', src])
    c.check(r.returncode == 1 and not r.stdout and r.stderr.decode() ==
            '%s: error: a YAML animation source, not a compiled .kfb: compile it with kfc first '
            '(kfc %s -o leg_walk.kfb)\n' % (src, src), 'a source given to dump: %r' % r.stderr)
    # The content, not the name: a program named .yaml is no source.
    binary = os.path.join(args.work, 'bin.yaml')
    with open(binary, 'wb') as f:
        f.write(open(args.kfplay, 'rb').read()[:65536])
    for argv in ([binary, 'list'], ['dump', binary]):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 1 and b'YAML' not in r.stderr and b'glTF' not in r.stderr,
                '%s: a binary named .yaml: %r' % (argv, r.stderr))
    empty = os.path.join(args.work, 'empty.kfb')
    open(empty, 'w').close()
    for argv in ([empty, 'list'], ['dump', empty]):
        r = run([args.kfplay] + argv)
        c.check(r.returncode == 1 and r.stderr.decode() == '%s: error: the file is empty\n' % empty,
                '%s: an empty file: %r' % (argv, r.stderr))
    # A device named is refused from its status, not read to 1 GiB; a
    # folder likewise, with the status of a file that cannot be read; a
    # pipe is read.
    for path, kind in (('/dev/zero', 'a device'), (args.work, 'a folder')):
        for argv in ([path, 'list'], ['dump', path]):
            r = run([args.kfplay] + argv)
            c.check(r.returncode == driver.EXIT_IO and r.stderr.decode() ==
                    '%s: error: cannot read %s: kfplay reads a .kfb from a file or a pipe\n' %
                    (path, kind), '%s: %r' % (argv, r.stderr))
    gltf = os.path.join(args.work, 'model.gltf')
    with open(gltf, 'w') as f:
        f.write('{"asset": {"version": "2.0"}}')
    r = run([args.kfplay, gltf, 'list'])
    c.check(r.returncode == 1 and r.stderr.decode() ==
            '%s: error: a glTF file: import its animations with kfc first (kfc %s -o model.kfb)\n'
            % (gltf, gltf), 'a glTF file given to kfplay: %r' % r.stderr)
    check_imported(c, args, kfbs)
    r = subprocess.run([args.kfplay, '-', 'list'], input=open(src, 'rb').read(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    c.check(r.returncode == 1 and r.stderr.decode() ==
            '<stdin>: error: a YAML animation source, not a compiled .kfb: compile it with kfc '
            'first (kfc - -o OUT.kfb)\n', 'a source on standard input: %r' % r.stderr)
    leg = kfbs['leg_walk']
    for argv, message in (
            (['sample', 'hip.translation', '0'],
             "'hip.translation' is a target, not an animator: animate plays the targets "
             "(kfplay FILE animate W...), plot draws one"),
            (['velocity', 'walk', '0'],
             "'walk' is a controller, not an animator: animate plays what it controls "
             "(kfplay FILE animate W...)"),
            (['follow', 'hip_position', '--tick', '1', '--until', '1'],
             "'hip_position' is a sequence, not a follower: sample plays it "
             "(kfplay FILE sample NAME T...)"),
            (['sample', 'nobody', '0'], "no animator named 'nobody' (kfplay FILE list shows the names)"),
            # a name given short: the animators whose names hold it
            (['sample', 'hip', '0'],
             "no animator named 'hip'; did you mean 'hip_position' or 'hip_angle'? "
             "(kfplay FILE list shows the names)"),
            (['velocity', 'angle', '0'],
             "no animator named 'angle'; did you mean 'hip_angle', 'knee_angle' or "
             "'ankle_angle'? (kfplay FILE list shows the names)"),
            # a name mistyped, held by none: those an edit or two away
            (['sample', 'hip_postion', '0'],
             "no animator named 'hip_postion'; did you mean 'hip_position'? "
             "(kfplay FILE list shows the names)"),
            (['sample', 'Knee_Angle', '0'],
             "no animator named 'Knee_Angle'; did you mean 'knee_angle'? "
             "(kfplay FILE list shows the names)"),
            (['acceleration', 'hip_angel', '0'],
             "no animator named 'hip_angel'; did you mean 'hip_angle'? "
             "(kfplay FILE list shows the names)"),
            (['follow', 'hip', '--tick', '1', '--until', '1'],
             "no follower named 'hip' (kfplay FILE list shows the names)")):
        r = run([args.kfplay, leg] + argv)
        c.check(r.returncode == 1 and r.stderr.decode() == 'kfplay: error: %s\n' % message,
                '%s: %r' % (argv, r.stderr))
    r = run([args.kfplay, kfbs['followers'], 'sample', 'cam', '0'])
    c.check(r.returncode == 1 and b"'cam' is a follower, not an animator: follow runs it" in r.stderr,
            'sample of a follower: %r' % r.stderr)
    for name, names in (('ca', "'cam'"), ('e', "'slide', 'plane', 'level' or another")):
        r = run([args.kfplay, kfbs['followers'], 'follow', name, '--tick', '1', '--until', '1'])
        c.check(r.returncode == 1 and r.stderr.decode() ==
                "kfplay: error: no follower named '%s'; did you mean %s? (kfplay FILE list shows "
                "the names)\n" % (name, names), 'follow %s: %r' % (name, r.stderr))


def check_imported(c, args, kfbs):
    """Files kfc imports (M3G, X3D in each encoding, gzipped) are named as
    the glTF file is, with the kfc command that makes a .kfb of each in the
    current folder, not beside the file read: its base name, the extension
    dropped as kfc drops it (door.x3d.gz: door.kfb), which the command then
    writes there. A binary under such a name is no such file, and a .kfb
    under one still loads."""
    work = args.work
    m3g = os.path.join(work, 'swing.m3g')
    shutil.copyfile(os.path.join(args.fixtures, 'm3g', 'swing.m3g'), m3g)
    x3d = os.path.join(work, 'door.x3d')
    shutil.copyfile(os.path.join(args.fixtures, 'x3d', 'door.x3d'), x3d)
    vrml = os.path.join(work, 'blink.x3dv')
    with open(vrml, 'w') as f:
        f.write('#X3D V3.3 utf8\nPROFILE Interchange\n'
                'DEF T Transform { children [] }\n'
                'DEF C TimeSensor { cycleInterval 2 loop TRUE }\n'
                'DEF P PositionInterpolator { key [0 1] keyValue [0 0 0, 1 2 3] }\n'
                'ROUTE C.fraction_changed TO P.set_fraction\n'
                'ROUTE P.value_changed TO T.set_translation\n')
    gzipped = os.path.join(work, 'gz', 'door.x3d.gz')
    os.makedirs(os.path.dirname(gzipped))
    with open(x3d, 'rb') as f, gzip.open(gzipped, 'wb') as g:
        g.write(f.read())
    import_first = 'import its animations with kfc first'
    here = os.path.join(work, 'here')
    os.makedirs(here)
    for path, what, output in ((m3g, 'an M3G file', 'swing.kfb'),
                               (x3d, 'an X3D scene', 'door.kfb'),
                               (vrml, 'an X3D scene', 'blink.kfb'),
                               (gzipped, 'an X3D scene', 'door.kfb')):
        message = '%s: error: %s: %s (kfc %s -o %s)\n' % (path, what, import_first, path, output)
        for argv in ([path, 'list'], ['dump', path]):
            r = run([args.kfplay] + argv)
            c.check(r.returncode == 1 and not r.stdout and r.stderr.decode() == message,
                    '%s: %r' % (argv, r.stderr))
        # The command given writes the .kfb where it is run, and nothing
        # beside the file read.
        r = subprocess.run([args.kfc, path, '-o', output], cwd=here, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        c.check(r.returncode == 0 and os.path.exists(os.path.join(here, output)) and
                not os.path.exists(os.path.join(os.path.dirname(path), output)),
                'kfc %s -o %s writes here alone: %r' % (path, output, r.stderr))
        r = run([args.kfplay, os.path.join(here, output), 'list'])
        c.check(r.returncode == 0 and r.stdout, 'kfplay %s list: %r' % (output, r.stderr))
        os.remove(os.path.join(here, output))
    # An M3G file named .kfb would be given its own name: a name to choose.
    misnamed = os.path.join(work, 'swing_m3g.kfb')
    shutil.copyfile(m3g, misnamed)
    r = run([args.kfplay, misnamed, 'list'])
    c.check(r.returncode == 1 and r.stderr.decode() == '%s: error: an M3G file: %s (kfc %s -o '
            'OUT.kfb)\n' % (misnamed, import_first, misnamed), 'an M3G file named .kfb: %r' % r.stderr)
    # The content, not the name: binary bytes named .m3g or .x3d are not
    # those formats, but a .kfb under either name is still read.
    garbage = bytes((i * 37 + 11) % 256 for i in range(4096))
    for name in ('x.m3g', 'x.x3d', 'x.wrl.gz'):
        path = os.path.join(work, name)
        with open(path, 'wb') as f:
            f.write(garbage)
        for argv in ([path, 'list'], ['dump', path]):
            r = run([args.kfplay] + argv)
            c.check(r.returncode == 1 and b'M3G' not in r.stderr and b'X3D' not in r.stderr,
                    '%s: binary bytes named %s: %r' % (argv, name, r.stderr))
        r = run([args.kfplay, path, 'list'])
        c.check(r.stderr.decode() ==
                '%s: error: the file does not start with the .kfb identifier\n' % path,
                'binary bytes named %s: %r' % (name, r.stderr))
    for name in ('leg.m3g', 'leg.x3d'):
        path = os.path.join(work, name)
        shutil.copyfile(kfbs['leg_walk'], path)
        r = run([args.kfplay, path, 'list'])
        c.check(r.returncode == 0 and b'hip_position' in r.stdout,
                'a .kfb named %s: %r' % (name, r.stderr))


def fmt(x):
    """%.9g as C prints it (the text format)."""
    return '%.9g' % x


if __name__ == '__main__':
    sys.exit(main())
