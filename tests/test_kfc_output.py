# SPDX-License-Identifier: MIT
"""kfc's output file, at its edges.

- An output name of NAME_MAX bytes works (the temporary name beside it is
  short), for compiling and for decompiling, and gives the same bytes as a
  short name.
- An output is never an input: -o, -MF and --decompile's -o naming the
  source, a glTF buffer, another name of the input (a symbolic or hard
  link), or -MF naming the output, are usage errors that change nothing;
  so are -o - and -MF - where standard output is open on any of them (said
  as of /dev/stdout), or on the -MF file.
- Replacing an output keeps its permission bits; a symbolic link is written
  through (the link stays, its target gets the new file), a link to nothing
  refused; a file with other hard links gets the new file under the output's
  name only, the others keep the earlier contents, and kfc says so (not
  under -q).
- Every signal that ends a process and can be caught, sent while kfc writes
  through its temporary file, removes that file, leaves any earlier output
  as it was, and kfc dies of the signal. The write is caught in the act by
  decompiling a large file and polling the directory for the temporary
  file; a run that finishes before the signal lands proves nothing and is
  repeated (up to ATTEMPTS times), and at least one run must be caught.
- SIGKILL cannot be caught: the temporary file it leaves is named for the
  machine and the process, and the next kfc writing to that directory
  removes it (and only such files of processes that no longer run).
"""
import json
import os
import re
import resource
import shutil
import signal
import socket
import stat
import struct
import subprocess
import sys
import time

import driver

ATTEMPTS = 6
# Signals that end a process by default and can be caught (SIGSEGV and SIGBUS
# too: sent by another process, not faults; a sanitizer's handler then reports
# them, so for those only a non-zero exit is asked).
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE,
           signal.SIGALRM, signal.SIGUSR1, signal.SIGUSR2, signal.SIGXCPU, signal.SIGXFSZ,
           signal.SIGVTALRM, signal.SIGPROF, signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS]
if hasattr(signal, 'SIGRTMIN'):  # the real-time signals end a process too
    SIGNALS += [signal.SIGRTMIN + 1, signal.SIGRTMAX]
SANITIZED = (signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT)
checks = driver.Checks()
check = checks.check


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def long_names(kfc, fixtures, work):
    name_max = os.pathconf(work, 'PC_NAME_MAX')
    src = os.path.join(fixtures, 'basic.yaml')
    short = os.path.join(work, 'short.kfb')
    longest = os.path.join(work, 'k' * (name_max - 4) + '.kfb')
    check(run([kfc, src, '-o', short]).returncode == 0, 'short name compiles')
    r = run([kfc, src, '-o', longest])
    check(r.returncode == 0, 'a %d-byte output name: %s' % (name_max, r.stderr.decode()))
    check(os.path.exists(longest) and read(longest) == read(short),
          'the %d-byte output holds the same bytes' % name_max)
    back = os.path.join(work, 'y' * (name_max - 5) + '.yaml')
    r = run([kfc, '--decompile', longest, '-o', back])
    check(r.returncode == 0 and os.path.exists(back), 'decompiled to a %d-byte name' % name_max)
    too_long = os.path.join(work, 'k' * (name_max + 1))
    r = run([kfc, src, '-o', too_long])
    check(r.returncode != 0 and not os.path.exists(too_long), 'NAME_MAX + 1 fails cleanly')
    check(not [p for p in os.listdir(work) if p.startswith('.kfc-')], 'no temporary file left')


def big_kfb(kfc, work):
    """A file whose decompilation takes a while: one wide sequence."""
    src = os.path.join(work, 'big.yaml')
    comps, keys = 1000, 400
    with open(src, 'w') as f:
        f.write('kfb: 1\nsequences:\n  s:\n    interpolation: linear\n'
                '    duration: %d\n    keys:\n' % keys)
        for k in range(keys):
            f.write('      - [%d, [%s]]\n' % (k, ', '.join(str((k * 7 + c) % 13 * 0.25)
                                                        for c in range(comps))))
    out = os.path.join(work, 'big.kfb')
    check(run([kfc, src, '-o', out]).returncode == 0, 'big file compiles')
    return out


def interrupted(kfc, work, kfb, sig):
    out_dir = os.path.join(work, 'signal-%d' % sig)
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, 'out.yaml')
    with open(target, 'w') as f:
        f.write('earlier output\n')
    reference = os.path.join(work, 'reference-%d.yaml' % sig)
    check(run([kfc, '--decompile', kfb, '-o', reference]).returncode == 0, 'reference decompile')
    complete = read(reference)
    caught = 0
    for attempt in range(ATTEMPTS):
        p = subprocess.Popen([kfc, '--decompile', kfb, '-o', target], preexec_fn=no_core,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seen = False
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if any(n.startswith('.kfc-') for n in os.listdir(out_dir)):
                seen = True
                p.send_signal(sig)
                break
        p.communicate(timeout=60)
        if seen and (p.returncode == -sig or (sig in SANITIZED and p.returncode > 0)):
            caught += 1
            left = [n for n in os.listdir(out_dir) if n != 'out.yaml']
            check(not left, 'signal %d: temporary files left: %s' % (sig, left))
            # Either the signal came during the write (the earlier output
            # stays) or just after the rename (the new output is whole).
            check(read(target) in (b'earlier output\n', complete),
                  'signal %d: the output is neither the earlier one nor complete' % sig)
            with open(target, 'w') as f:
                f.write('earlier output\n')
        elif p.returncode == 0:
            # Finished before the signal: the output is complete; start over.
            with open(target, 'w') as f:
                f.write('earlier output\n')
        else:
            check(False, 'signal %d: unexpected exit %d' % (sig, p.returncode))
    check(caught > 0, 'signal %d: no run was caught while writing' % sig)
    return caught


def not_inputs(kfc, fixtures, work):
    d = os.path.join(work, 'inputs')
    os.makedirs(d)
    src = os.path.join(d, 'x.yaml')
    shutil.copy(os.path.join(fixtures, 'basic.yaml'), src)
    os.symlink('x.yaml', os.path.join(d, 'link.yaml'))
    os.link(src, os.path.join(d, 'hard.yaml'))
    kfb = os.path.join(d, 'x.kfb')
    check(run([kfc, src, '-o', kfb]).returncode == 0, 'x.kfb compiles')
    before = {n: read(os.path.join(d, n)) for n in os.listdir(d)}
    cases = [
        ([src, '-o', src], "the output '%s' is the input '%s'" % (src, src)),
        ([src, '-o', os.path.join(d, '.', 'x.yaml')], 'is the input'),
        ([src, '-o', os.path.join(d, 'link.yaml')], 'is the input'),
        ([src, '-o', os.path.join(d, 'hard.yaml')], 'is the input'),
        (['-MD', '-MF', src, src, '-o', os.path.join(d, 'y.kfb')],
         "the dependency file '%s' is the input" % src),
        (['-MD', '-MF', kfb, src, '-o', kfb], "the output '%s' is the dependency file" % kfb),
        (['-MD', '-MF', os.path.join(d, '.', 'new.kfb'), src, '-o', os.path.join(d, 'new.kfb')],
         'is the dependency file'),
        (['--decompile', kfb, '-o', kfb], "the output '%s' is the input" % kfb),
        (['-MD', '--decompile', kfb, '-o', os.path.join(d, 'y.yaml'), '-MF', kfb],
         'the dependency file'),
    ]
    # A glTF document whose buffer is the output asked for.
    gltf = os.path.join(d, 'm.gltf')
    data = struct.pack('<2f', 0, 1) + struct.pack('<6f', 0, 0, 0, 1, 2, 3)
    with open(os.path.join(d, 'm.bin'), 'wb') as f:
        f.write(data)
    with open(gltf, 'w') as f:
        json.dump({'asset': {'version': '2.0'}, 'nodes': [{}],
                   'buffers': [{'byteLength': len(data), 'uri': 'm.bin'}],
                   'bufferViews': [{'buffer': 0, 'byteLength': 8},
                                   {'buffer': 0, 'byteOffset': 8, 'byteLength': 24}],
                   'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 2, 'type': 'SCALAR'},
                                 {'bufferView': 1, 'componentType': 5126, 'count': 2, 'type': 'VEC3'}],
                   'animations': [{'name': 'm.bin',
                                   'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'scale'}}],
                                   'samplers': [{'input': 0, 'output': 1}]}]}, f)
    before.update({n: read(os.path.join(d, n)) for n in ('m.gltf', 'm.bin')})
    # ... said as the file the document reads, and where; the same through
    # another name, and of a dependency file and a --split output.
    buffer = os.path.join(d, 'm.bin')
    cases += [([gltf, '-o', buffer], "kfc: error: the output '%s' is '%s', which %s reads "
                                     "(/buffers/0); what is read is never overwritten\n"
                                     % (buffer, buffer, gltf)),
              ([gltf, '-o', os.path.join(d, '.', 'm.bin')],
               "the output '%s' is '%s', which %s reads (/buffers/0)"
               % (os.path.join(d, '.', 'm.bin'), buffer, gltf)),
              (['-MD', '-MF', buffer, gltf, '-o', os.path.join(d, 'y.kfb')],
               "the dependency file '%s' is '%s', which %s reads (/buffers/0)"
               % (buffer, buffer, gltf)),
              (['-s', gltf, '-o', os.path.join(d, '*')],
               "the output '%s' is '%s', which %s reads (/buffers/0)"
               % (os.path.join(d, 'm.bin'), buffer, gltf))]
    for argv, want in cases:
        r = run([kfc] + argv)
        check(r.returncode == 2 and want in r.stderr.decode(), '%s: %r' % (argv, r.stderr.decode()))
    # Refused before the input is read: basic.yaml's warning (a track
    # without a controller) is not said first.
    r = run([kfc, src, '-o', src])
    check(r.returncode == 2 and r.stderr.decode().startswith(
        "kfc: error: the output '%s' is the input" % src) and 'warning' not in r.stderr.decode(),
          '-o the input: the refusal alone, got %r' % r.stderr.decode())
    # Standard input's file, by any name: never an output either.
    for feed, argv, want in (
            (src, ['-', '-o', src], "the output '%s' is the file standard input reads" % src),
            (src, ['-', '-o', os.path.join(d, 'hard.yaml')], 'the file standard input reads'),
            (src, ['-', '-MD', '-MF', os.path.join(d, 'link.yaml'), '-o',
                   os.path.join(d, 'z.kfb')], "the dependency file"),
            (kfb, ['-d', '-', '-o', kfb], "the output '%s' is the file standard input reads" % kfb)):
        with open(feed, 'rb') as f:
            r = subprocess.run([kfc] + argv, stdin=f, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=120)
        check(r.returncode == 2 and want in r.stderr.decode(),
              'stdin %s: %r' % (argv, r.stderr.decode()))
    # "-" is standard output, whatever file the shell opened it on: refused
    # when that is a file the run reads (kfc x.yaml -o - >> x.yaml, 1<>),
    # as /dev/stdout is, and with the same message.
    y_kfb = os.path.join(d, 'y.kfb')
    hard = os.path.join(d, 'hard.yaml')
    for opened, mode, feed, argv, want in (
            (src, 'ab', None, [src, '-o', '-'],
             "kfc: error: the output '-' is the input '%s'; what is read is never overwritten\n"
             "Try 'kfc --help' for more information.\n" % src),
            (src, 'r+b', None, [src, '-o', '-'], "the output '-' is the input '%s';" % src),
            (hard, 'ab', None, [src, '-o', '-'], "the output '-' is the input '%s';" % src),
            (src, 'r+b', None, [src, '-MD', '-MF', '-', '-o', y_kfb],
             "the dependency file '-' is the input '%s'; what is read is never overwritten" % src),
            (src, 'ab', None, ['-M', '-MF', '-', '-MT', 'x', src],
             "the dependency file '-' is the input '%s';" % src),
            (src, 'r+b', src, ['-', '-o', '-'],
             "the output '-' is the file standard input reads; what is read is never overwritten"),
            (kfb, 'r+b', None, ['-d', kfb, '-o', '-'], "the output '-' is the input '%s';" % kfb),
            (buffer, 'ab', None, [gltf, '-o', '-'],
             "kfc: error: the output '-' is '%s', which %s reads (/buffers/0); what is read is "
             "never overwritten\n" % (buffer, gltf))):
        with open(opened, mode) as out, open(feed or os.devnull, 'rb') as f:
            r = subprocess.run([kfc] + argv, stdin=f, stdout=out, stderr=subprocess.PIPE,
                               timeout=120)
        check(r.returncode == 2 and want in r.stderr.decode(),
              'stdout %s %s: %r' % (mode, argv, r.stderr.decode()))
        # /dev/stdout, the same file by name, is said alike.
        with open(opened, mode) as out, open(feed or os.devnull, 'rb') as f:
            named = subprocess.run([kfc] + ['/dev/stdout' if a == '-' and argv[i - 1] in ('-o', '-MF')
                                            else a for i, a in enumerate(argv)],
                                   stdin=f, stdout=out, stderr=subprocess.PIPE, timeout=120)
        check(named.returncode == 2 and
              named.stderr.decode().replace("'/dev/stdout'", "'-'") == r.stderr.decode(),
              'stdout %s %s: %r, by name %r' % (mode, argv, r.stderr.decode(),
                                                named.stderr.decode()))
    # Two outputs on one file: -o - with standard output on the -MF file.
    with open(os.path.join(d, 'two.d'), 'wb') as out:
        r = subprocess.run([kfc, src, '-o', '-', '-MD', '-MF', os.path.join(d, 'two.d'), '-MT', 'x'],
                           stdout=out, stderr=subprocess.PIPE, timeout=120)
    check(r.returncode == 2 and "the output '-' is the dependency file '%s'" % os.path.join(d, 'two.d')
          in r.stderr.decode(), '-o - onto -MF: %r' % r.stderr.decode())
    os.remove(os.path.join(d, 'two.d'))
    after = {n: read(os.path.join(d, n)) for n in before}
    check(after == before and not [n for n in os.listdir(d) if n not in before],
          'nothing changed: %s' % sorted(set(os.listdir(d)) ^ set(before)))


def replacing(kfc, fixtures, work):
    d = os.path.join(work, 'replace')
    other = os.path.join(work, 'replace-target')
    os.makedirs(d)
    os.makedirs(other)
    src = os.path.join(fixtures, 'basic.yaml')
    ref = os.path.join(d, 'ref.kfb')
    check(run([kfc, src, '-o', ref]).returncode == 0, 'reference')
    new = read(ref)
    old_mask = os.umask(0o022)
    try:
        fresh = os.path.join(d, 'fresh.kfb')
        check(run([kfc, src, '-o', fresh]).returncode == 0 and
              stat.S_IMODE(os.stat(fresh).st_mode) == 0o644, 'a new output: 0666 & ~umask')
        for mode in (0o600, 0o640, 0o755, 0o444):
            out = os.path.join(d, 'mode%o.kfb' % mode)
            with open(out, 'w') as f:
                f.write('earlier')
            os.chmod(out, mode)
            r = run([kfc, src, '-o', out])
            check(r.returncode == 0 and read(out) == new and stat.S_IMODE(os.stat(out).st_mode) == mode,
                  'mode %o kept: %o %r' % (mode, stat.S_IMODE(os.stat(out).st_mode), r.stderr))
    finally:
        os.umask(old_mask)
    # Through a symbolic link: the link stays, the target is replaced.
    target = os.path.join(other, 'target.kfb')
    with open(target, 'w') as f:
        f.write('earlier')
    os.chmod(target, 0o600)
    link = os.path.join(d, 'link.kfb')
    os.symlink(target, link)
    r = run([kfc, src, '-o', link])
    check(r.returncode == 0 and os.path.islink(link) and os.readlink(link) == target and
          read(target) == new and stat.S_IMODE(os.stat(target).st_mode) == 0o600 and
          not [n for n in os.listdir(other) if n.startswith('.kfc-')],
          'written through the link: %r' % r.stderr)
    dangling = os.path.join(d, 'dangling.kfb')
    os.symlink(os.path.join(other, 'nothing.kfb'), dangling)
    r = run([kfc, src, '-o', dangling])
    check(r.returncode == 3 and 'a symbolic link to nothing' in r.stderr.decode() and
          not os.path.exists(os.path.join(other, 'nothing.kfb')), 'a link to nothing: %r' % r.stderr)
    # Hard links: this name gets the new file, the others keep the old.
    for quiet in (False, True):
        out = os.path.join(d, 'linked%d.kfb' % quiet)
        with open(out, 'w') as f:
            f.write('earlier')
        os.link(out, out + '.a')
        os.link(out, out + '.b')
        r = run([kfc] + (['-q'] if quiet else []) + [src, '-o', out])
        note = 'had 2 other hard links; this name has the new file, the others keep the earlier contents'
        check(r.returncode == 0 and read(out) == new and read(out + '.a') == b'earlier' and
              read(out + '.b') == b'earlier' and os.stat(out).st_nlink == 1,
              'hard links split: %r' % r.stderr)
        check((note in r.stderr.decode()) != quiet, 'the note (quiet %s): %r' % (quiet, r.stderr))


def temp_files(dirname):
    return [n for n in os.listdir(dirname) if n.startswith('.kfc-')]


def killed(kfc, work, kfb):
    """SIGKILL leaves the temporary file; the next run removes it."""
    d = os.path.join(work, 'killed')
    os.makedirs(d)
    target = os.path.join(d, 'out.yaml')
    host = ''.join(c for c in socket.gethostname() if c.isalnum() or c in '.-')[:32]
    left = None
    for attempt in range(ATTEMPTS):
        p = subprocess.Popen([kfc, '--decompile', kfb, '-o', target],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            names = temp_files(d)
            if names:
                p.kill()
                left = names
                break
        p.wait()
        if left:
            break
    if not check(left is not None, 'SIGKILL: no run was caught while writing'):
        return
    check(len(left) == 1 and re.fullmatch(r'\.kfc-%s-%d-\w{6}' % (re.escape(host), p.pid), left[0]),
          'the temporary name says the machine and the process: %s (pid %d)' % (left, p.pid))
    check(os.path.exists(os.path.join(d, left[0])), 'SIGKILL leaves it')
    # Names that must stay: a live process's, another machine's, not ours.
    keep = ['.kfc-%s-%d-abcdef' % (host, os.getpid()), '.kfc-other%s-%d-abcdef' % (host, p.pid),
            '.kfc-%s-%d-abc' % (host, p.pid), '.kfc-%s-x%d-abcdef' % (host, p.pid), 'kfc-x']
    for n in keep:
        with open(os.path.join(d, n), 'w') as f:
            f.write('x')
    r = run([kfc, '--decompile', kfb, '-o', os.path.join(d, 'again.yaml')])
    check(r.returncode == 0 and not os.path.exists(os.path.join(d, left[0])),
          'the next run removed %s: %s' % (left[0], sorted(os.listdir(d))))
    check(all(os.path.exists(os.path.join(d, n)) for n in keep), 'the others stay: %s' % sorted(os.listdir(d)))


def no_core():
    """In the child, before kfc starts: no core files, and every tested signal
    at its default. A signal the test's parent ignores would be ignored by kfc
    too (it leaves an ignored signal ignored, as a shell's background job
    ignores SIGINT and SIGQUIT), and no run would die of it."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


def main():
    a = driver.arguments()
    long_names(a.kfc, a.fixtures, a.work)
    not_inputs(a.kfc, a.fixtures, a.work)
    replacing(a.kfc, a.fixtures, a.work)
    kfb = big_kfb(a.kfc, a.work)
    caught = {getattr(s, 'name', 'SIG%d' % s): interrupted(a.kfc, a.work, kfb, s) for s in SIGNALS}
    killed(a.kfc, a.work, kfb)
    if checks.failures:
        print('test_kfc_output: %d failure(s)' % len(checks.failures), file=sys.stderr)
        return 1
    print('test_kfc_output: %d checks; interrupted writes caught (of %d runs each): %s'
          % (checks.count, ATTEMPTS, ', '.join('%s %d' % kv for kv in caught.items())))
    return 0


if __name__ == '__main__':
    sys.exit(main())
