#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""examples/: the C program plays every fixture exactly as `kfplay animate`
does; the SCons project compiles its sources through the SCons tool into the
bytes kfc writes itself, is then up to date, and rebuilds exactly the output
whose source changed, and no source's name is a command (a backtick, "$(...)",
';', a quote) or code to SCons ("${...}"): kfc gets each name whole, and
compiles it or says why not."""
import glob
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def as_kfplay_shows(out):
    """play's rows with their names as kfplay's text shows them: play prints
    a name as stored, kfplay a control in one as \\xNN (no fixture's name
    holds a line break, which ends a row)."""
    text = out.decode('utf-8', 'surrogateescape')
    return '\n'.join(map(driver.terminal_text, text.split('\n'))).encode('utf-8',
                                                                        'surrogateescape')


def check_documented_command(c, args):
    """examples/README.md's command, as written, from the top of a tree laid
    out as kfb's (the example, the tool, kfc where `scons` puts it): it
    builds, and what it writes is in a folder git ignores."""
    with open(os.path.join(ROOT, 'examples', 'README.md')) as f:
        text = ' '.join(f.read().split())
    match = re.search(r'`(scons -C examples/scons_project[^`]*)`', text)
    if not c.check(match, 'examples/README.md names the command that runs the project'):
        return
    command = match.group(1).split()
    tree = os.path.join(args.work, 'tree')
    shutil.copytree(os.path.join(ROOT, 'examples', 'scons_project'),
                    os.path.join(tree, 'examples', 'scons_project'),
                    ignore=shutil.ignore_patterns('build'))
    shutil.copytree(os.path.join(ROOT, 'site_scons', 'site_tools'),
                    os.path.join(tree, 'site_scons', 'site_tools'))
    kfc = [w.split('=', 1)[1] for w in command if w.startswith('KFC=')]
    if c.check(kfc, 'the command names kfc'):
        os.makedirs(os.path.dirname(os.path.join(tree, kfc[0])))
        shutil.copy2(args.kfc, os.path.join(tree, kfc[0]))
    r = run(command, cwd=tree)
    built = os.path.join(tree, 'examples', 'scons_project', 'build')
    outputs = sorted(glob.glob(os.path.join(built, '*.kfb')))
    c.check(r.returncode == 0 and len(outputs) >= 2,
            '%s: builds (%s)' % (' '.join(command), r.stderr.decode().strip()))
    # What it writes is ignored by git (the source tree's own .gitignore).
    git = shutil.which('git')
    if git and run([git, '-C', ROOT, 'rev-parse'], cwd=ROOT).returncode == 0:
        for path in ['examples/scons_project/build/door.kfb',
                     'examples/scons_project/build/sconsign.dblite']:
            c.check(run([git, '-C', ROOT, 'check-ignore', '-q', path]).returncode == 0,
                    '%s is ignored by git' % path)


# Sources named as a shell or SCons would run them, each to make a file
# PWNED... (or, as SCons's Python, a folder P) in the project if it did.
HOSTILE = ['y`touch PWNED_tick`', 'a$(touch PWNED_dollar)', 'b;touch PWNED_semi', 'sp ace',
           'q\'uo"te', 'e$HOME', '${__import__(chr(111)+chr(115)).mkdir(chr(80))}']


def check_hostile_names(c, args):
    project = os.path.join(args.work, 'hostile')
    shutil.copytree(os.path.join(ROOT, 'examples', 'scons_project'), project,
                    ignore=shutil.ignore_patterns('build'))
    door = os.path.join(project, 'anims', 'door.yaml')
    for name in HOSTILE:
        shutil.copyfile(door, os.path.join(project, 'anims', name + '.yaml'))
    build = os.path.join(project, 'build')  # (short names in kfc's messages)
    r = run(['scons', '-Q', '-k', '-C', project, 'KFC=' + args.kfc,
             'KFB_TOOLPATH=' + os.path.join(ROOT, 'site_scons', 'site_tools')])
    log = (r.stdout + r.stderr).decode('utf-8', 'replace')
    ran = [os.path.join(d, f) for d, dirs, files in os.walk(project)
           for f in files + dirs if f.startswith('PWNED') or f == 'P']
    c.check(not ran, 'hostile source names: nothing run, but %r was made' % ran)
    ref = os.path.join(args.work, 'hostile.ref.kfb')
    run([args.kfc, '-z', '9', door, '-o', ref])
    for name in HOSTILE:
        out = os.path.join(build, name + '.kfb')
        if os.path.exists(out):
            c.check(open(out, 'rb').read() == open(ref, 'rb').read() and
                    os.path.exists(os.path.join(build, 'review', name + '.yaml')),
                    '%r: the bytes of kfc -z 9, decompiled for review' % name)
        else:
            # kfc refused the name (-MD lists no name make and ninja read
            # otherwise): its message names the file as it is.
            c.check("kfc: error: target 'build/%s.kfb'" % name.replace("'", "\\'")
                    in log, '%r: kfc was given the name whole:\n%s' % (name, log))
    c.check(all(os.path.exists(os.path.join(build, n + '.kfb'))
                for n in ('sp ace', 'e$HOME', 'a$(touch PWNED_dollar)')),
            'names with a space, "$X" and "$(...)" compile:\n' + log)


def main():
    args = driver.arguments('--play')
    args.play = os.path.abspath(args.play)
    c = driver.Checks()

    times = ['0', '250', '0.5', '1000', '1999.5', '3500', '-1', '10000']
    for src in sorted(glob.glob(os.path.join(args.fixtures, '*.yaml'))):
        kfb = os.path.join(args.work, os.path.basename(src)[:-5] + '.kfb')
        if run([args.kfc, src, '-o', kfb]).returncode:
            c.fail('kfc %s' % src)
            continue
        played = run([args.play, kfb] + times)
        want = run([args.kfplay, kfb, 'animate'] + times)
        c.check(played.returncode == 0 and as_kfplay_shows(played.stdout) == want.stdout,
                'play %s: as kfplay animate (%d lines)' % (os.path.basename(kfb),
                                                           want.stdout.count(b'\n')))
    r = run([args.play, os.path.join(args.work, 'missing.kfb')])
    c.check(r.returncode == 1 and r.stderr, 'play: a missing file is an error')

    # The SCons project, its outputs in the work directory.
    project = os.path.join(ROOT, 'examples', 'scons_project')
    build = os.path.join(args.work, 'assets')
    scons = ['scons', '-Q', '-C', project, 'KFC=' + args.kfc, 'BUILD=' + build]
    r = run(scons)
    c.check(r.returncode == 0, 'scons project builds: %s' % r.stderr.decode().strip())
    sources = sorted(glob.glob(os.path.join(project, 'anims', '*.yaml')))
    c.check(len(sources) >= 2, 'the project has sources')
    for src in sources:
        name = os.path.basename(src)[:-5]
        out = os.path.join(build, name + '.kfb')
        ref = os.path.join(args.work, name + '.ref.kfb')
        run([args.kfc, '-z', '9', src, '-o', ref])
        c.check(os.path.exists(out) and open(out, 'rb').read() == open(ref, 'rb').read(),
                '%s: the bytes of kfc -z 9' % name)
        c.check(os.path.exists(os.path.join(build, 'review', name + '.yaml')),
                '%s: decompiled for review' % name)
    c.check(run(scons + ['-q']).returncode == 0, 'scons project: up to date after a build')

    # A changed source rebuilds its own output and nothing else.
    work_project = os.path.join(args.work, 'project')
    shutil.copytree(project, work_project, ignore=shutil.ignore_patterns('build'))
    scons2 = ['scons', '-Q', '-C', work_project, 'KFC=' + args.kfc, 'BUILD=' + build + '2',
              'KFB_TOOLPATH=' + os.path.join(ROOT, 'site_scons', 'site_tools')]
    run(scons2)
    outs = {os.path.basename(s)[:-5]: os.path.join(build + '2', os.path.basename(s)[:-5] + '.kfb')
            for s in sources}
    before = {n: os.path.getmtime(p) for n, p in outs.items()}
    time.sleep(0.01)
    first = sorted(outs)[0]
    with open(os.path.join(work_project, 'anims', first + '.yaml'), 'a') as f:
        f.write('# edited\n')
    r = run(scons2)
    commands = [l for l in r.stdout.decode().splitlines() if l.startswith(args.kfc)]
    c.check(r.returncode == 0 and len(commands) == 1 and ('anims/%s.yaml' % first) in commands[0],
            'only %s is recompiled: %r' % (first, commands))
    c.check(all((os.path.getmtime(outs[n]) == before[n]) == (n != first) for n in outs),
            'only %s.kfb changed' % first)
    check_documented_command(c, args)
    check_hostile_names(c, args)
    print('test_examples: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
