# SPDX-License-Identifier: MIT
"""kfc's error reporting, end to end.

Every fixtures/invalid/*.yaml starts with one or more lines

    # expect: LINE:COL: error: MESSAGE
    # stderr: TEXT            (a line printed as it is, without the path)

optionally preceded by `# kfc: OPTIONS` (arguments to add; without it,
`-w`: warnings are test_kfc_cli.py's, and fixtures that test them as
errors say `# kfc: -Werror...`), and kfc must
print exactly those lines on its standard error, `<path>:` before each
`expect` line: every error of the source, in the order kfc finds them (an
entry's in the order of their positions), and nothing else (no error that only follows from another). It must exit with
status 1 and leave no output file (and no temporary file) behind; an output
file that existed before must be left byte for byte as it was. The same
holds when the source comes from standard input (`<stdin>` then names it).
The command line's own failures (usage, I/O, invalid .kfb, out of memory) are checked
against their documented exit codes.
"""
import glob
import os
import subprocess
import sys

import driver

from driver import EXIT_INVALID, EXIT_IO, EXIT_NOMEM, EXIT_USAGE

checks = driver.Checks()
fail = checks.fail


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=60)


def first_line(data):
    text = data.decode('utf-8', 'replace')
    return text.split('\n', 1)[0]


def header(source):
    """The fixture's extra options and expected lines: (args, [(kind, text)])."""
    args, lines = [], []
    for line in source.decode('utf-8', 'replace').split('\n'):
        if line.startswith('# kfc: '):
            args += line[len('# kfc: '):].split()
        elif line.startswith('# expect: '):
            lines.append(('expect', line[len('# expect: '):]))
        elif line.startswith('# stderr: '):
            lines.append(('stderr', line[len('# stderr: '):]))
        else:
            break
    return args, lines


def leftovers(work, name):
    return [p for p in os.listdir(work) if p.startswith(name + '.')]


def check_fixture(kfc, path, work):
    with open(path, 'rb') as f:
        source = f.read()
    extra, expected = header(source)
    extra = extra or ['-w']
    if not any(kind == 'expect' for kind, _ in expected):
        fail('%s: first line is not "# expect: ..."' % path)
        return
    name = os.path.splitext(os.path.basename(path))[0] + '.kfb'
    out = os.path.join(work, name)

    for label, args, stdin, shown in (
            ('file', [kfc] + extra + [path, '-o', out], None, path),
            ('stdin', [kfc] + extra + ['-', '-o', out], source, '<stdin>')):
        if os.path.exists(out):
            os.remove(out)
        r = run(args, stdin)
        got = r.stderr.decode('utf-8', 'replace')
        want = ''.join('%s:%s\n' % (shown, text) if kind == 'expect' else text + '\n'
                       for kind, text in expected)
        if r.returncode != EXIT_INVALID:
            fail('%s (%s): exit status %d, expected %d; stderr: %s'
                 % (path, label, r.returncode, EXIT_INVALID, first_line(r.stderr)))
        if got != want:
            fail('%s (%s):\n  expected: %s\n  got:      %s' % (path, label, want, got))
        if os.path.exists(out) or leftovers(work, name):
            fail('%s (%s): left an output file behind' % (path, label))

    # A failed compile leaves an existing output untouched.
    previous = b'previous output \x00\xff' * 7
    with open(out, 'wb') as f:
        f.write(previous)
    run([kfc] + extra + [path, '-o', out])
    with open(out, 'rb') as f:
        if f.read() != previous:
            fail('%s: overwrote the existing output' % path)
    os.remove(out)
    if leftovers(work, name):
        fail('%s: left a temporary file behind' % path)


def check_exit(label, result, status, stderr_start):
    got = first_line(result.stderr)
    if result.returncode != status:
        fail('%s: exit status %d, expected %d (stderr: %s)'
             % (label, result.returncode, status, got))
    if not got.startswith(stderr_start):
        fail('%s: stderr %r does not start with %r' % (label, got, stderr_start))


def check_command_line(kfc, fixtures, work):
    valid = os.path.join(fixtures, 'basic.yaml')
    out = os.path.join(work, 'cli.kfb')

    r = run([kfc, '--help'])
    if r.returncode != 0 or b'Exit status' not in r.stdout or b'--decompile' not in r.stdout:
        fail('--help: status %d, output %r' % (r.returncode, r.stdout[:80]))
    r = run([kfc, '--version'])
    if r.returncode != 0 or not r.stdout.startswith(b'kfc ') or b'libyaml' not in r.stdout \
            or b'zlib' not in r.stdout or b'libkf' not in r.stdout:
        fail('--version: status %d, output %r' % (r.returncode, r.stdout))

    check_exit('no arguments', run([kfc]), EXIT_USAGE, 'kfc: error: no input file')
    check_exit('unknown option', run([kfc, '--frobnicate', valid]), EXIT_USAGE,
               "kfc: error: unknown option '--frobnicate'")
    check_exit('two inputs', run([kfc, valid, valid]), EXIT_USAGE,
               'kfc: error: more than one input file:')
    check_exit('-o without a name', run([kfc, valid, '-o']), EXIT_USAGE,
               "kfc: error: missing file name after '-o'")

    missing = os.path.join(work, 'no-such-file.yaml')
    check_exit('missing input', run([kfc, missing, '-o', out]), EXIT_IO,
               missing + ': error: cannot open: ')
    # The same words when decompiling: the name once, before the message.
    missing_kfb = os.path.join(work, 'no-such-file.kfb')
    check_exit('missing input, --decompile', run([kfc, '-d', missing_kfb, '-o', out + '.yaml']),
               EXIT_IO, missing_kfb + ': error: cannot open: No such file or directory')
    bad_dir = os.path.join(work, 'no-such-dir', 'out.kfb')
    check_exit('unwritable output', run([kfc, '-w', valid, '-o', bad_dir]), EXIT_IO,
               bad_dir + ': error: cannot create: ')
    if os.path.exists('/dev/full'):
        check_exit('full device', run([kfc, '-w', valid, '-o', '/dev/full']), EXIT_IO,
                   '/dev/full: error: cannot write: ')
        with open('/dev/full', 'wb') as full:
            r = subprocess.run([kfc, '-w', valid, '-o', '-'], stdout=full, stderr=subprocess.PIPE,
                               timeout=60)
        check_exit('full standard output', r, EXIT_IO, '<stdout>: error: cannot write: ')

    # Out of memory: a source larger than the memory kfc may take, through
    # a pipe (read as it comes; a file named would be mapped, not copied).
    r = subprocess.run([kfc, '-', '-o', out], input=b'#' * (200 << 20), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120, **driver.short_of_memory(kfc, 96))
    if r.returncode != EXIT_NOMEM or b'<stdin>: error: out of memory\n' not in r.stderr:
        fail('out of memory: exit status %d, expected %d (stderr: %r)'
             % (r.returncode, EXIT_NOMEM, r.stderr[-500:]))

    # A player's memory bound is measured only when the file is encoded;
    # kfc still reports it at the tracks section it comes from: 400 targets
    # sharing one 4000-component animator (6.4 MB per player) in a file of
    # about 30 KB.
    wide = os.path.join(work, 'wide_targets.yaml')
    with open(wide, 'w') as f:
        f.write('kfb: 1\nsequences:\n  wide:\n    interpolation: step\n'
                '    duration: 1\n    keys:\n      - [0, [%s]]\n'
                'controllers:\n  c: {}\ntracks:\n' % ', '.join(['0'] * 4000))
        for i in range(400):
            f.write('  - {animator: wide, controller: c, target: m%d.morph_weights}\n' % i)
    wide_out = os.path.join(work, 'wide_targets.kfb')
    check_exit('player memory bound', run([kfc, wide, '-o', wide_out]), EXIT_INVALID,
               wide + ':11:3: error: a player of this animation would need more than ')
    if os.path.exists(wide_out):
        fail('a refused compile left %s behind' % wide_out)

    # --decompile of something that is not a .kfb: the loader's message, and
    # that a source is compiled.
    check_exit('decompile a non-kfb', run([kfc, '--decompile', valid, '-o', out]),
               EXIT_INVALID, valid + ': error: the file does not start with the .kfb identifier: '
               '--decompile reads .kfb files (a source is compiled: kfc %s)' % valid)
    check_exit('decompile stdin', run([kfc, '--decompile', '-', '-o', out], b'not a kfb'),
               EXIT_INVALID, '<stdin>: error: the file does not start with the .kfb identifier')
    if os.path.exists(out):
        fail('a failed decompile left %s behind' % out)

    # A truncated .kfb is refused too.
    good = os.path.join(work, 'good.kfb')
    r = run([kfc, valid, '-o', good])
    if r.returncode != 0:
        fail('compiling %s failed: %s' % (valid, first_line(r.stderr)))
        return
    with open(good, 'rb') as f:
        data = f.read()
    cut = os.path.join(work, 'cut.kfb')
    with open(cut, 'wb') as f:
        f.write(data[:len(data) // 2])
    check_exit('decompile a truncated kfb', run([kfc, '--decompile', cut, '-o', out]),
               EXIT_INVALID, cut + ': error: ')

    # A .kfb given as the source: what it is, not YAML's complaint about its
    # first byte; from a file or standard input, nothing written.
    again = os.path.join(work, 'again.kfb')
    check_exit('compile a kfb', run([kfc, good, '-o', again]), EXIT_INVALID,
               good + ': error: a compiled .kfb file, not a source (kfc --decompile turns it '
               'back into YAML)')
    check_exit('compile a kfb from stdin', run([kfc, '-', '-o', again], data), EXIT_INVALID,
               '<stdin>: error: a compiled .kfb file, not a source')
    if os.path.exists(again):
        fail('compiling a .kfb left %s behind' % again)


def main():
    a = driver.arguments()
    kfc = os.path.abspath(a.kfc)

    paths = sorted(glob.glob(os.path.join(a.fixtures, 'invalid', '*.yaml')))
    if not paths:
        fail('no fixtures in %s/invalid' % a.fixtures)
    for path in paths:
        check_fixture(kfc, path, a.work)
    check_command_line(kfc, a.fixtures, a.work)

    if checks.failures:
        print('test_kfc_errors: %d failure(s)' % len(checks.failures), file=sys.stderr)
        return 1
    print('test_kfc_errors: %d fixtures ok' % len(paths))
    return 0


if __name__ == '__main__':
    sys.exit(main())
