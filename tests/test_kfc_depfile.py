# SPDX-License-Identifier: MIT
"""kfc -MD's dependency files, as GNU make and ninja read them.

Files with hostile names (spaces, '#', '$', ':', backslashes before a space,
'%', non-ASCII, parentheses, ...) are compiled as YAML sources, and read as
glTF buffers, with -MD; each dependency file is then given to both readers:

- make -n: the output is rebuilt when the file is newer, up to date when it
  is older, and nothing but the rule's own recipe runs;
- ninja: `ninja -t deps` lists exactly the files kfc read, and a newer file
  makes `ninja -n` plan the rebuild.

Names that make and ninja cannot both read as written (';' that would start
a recipe, '=', wildcards, control bytes, a trailing backslash, ...) are
refused: a usage error (exit 2) with a message naming the file and what to
do instead (rename it, or compile without -MD; with -M, rename it), and
kfc writes neither the dependency file nor the output. ninja is Debian's ninja-build; without it
the test says SKIPPED."""
import json
import os
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

# Names both readers take back as written (each is a file kfc reads).
GOOD = ['plain.yaml', 'a b.yaml', 'hash#.yaml', 'dollar$1.yaml', 'dollar$(x).yaml', 'co:lon.yaml',
        'pct%.yaml', 'back\\slash.yaml', 'back\\ space.yaml', 'two\\\\ space.yaml', 'tilde~.yaml',
        'caf\u00e9.yaml', 'copy (1).yaml', 'br]ace{}.yaml', '@!,+-.yaml', '-lead.yaml',
        '  spaces  .yaml']
# Names neither may be given, and why kfc says it refuses them.
BAD = [('model.gltf;touch${IFS}PWNED', "';'"), ('a=b.yaml', "'='"), ('star*.yaml', "'*'"),
       ('what?.yaml', "'?'"), ('set[ab].yaml', "'['"), ('pipe|.yaml', "'|'"),
       ("quote'.yaml", '"\'"'), ('dq".yaml', "'\"'"), ('amp&.yaml', "'&'"),
       ('lt<.yaml', "'<'"), ('caret^.yaml', "'^'"), ('tick`.yaml', "'`'"),
       ('tab\t.yaml', 'a control character'), ('line\nbreak.yaml', 'a line break'),
       ('cr\r.yaml', 'a line break'), ('trailing\\', "a trailing '\\'"),
       ('trailing:', "a trailing ':'"), ('~home.yaml', "a leading '~'"),
       ('bs\\#.yaml', "a '\\' before '#', ':' or '$'"), ('bs\\$.yaml', "a '\\' before"),
       ('lib(member)', 'the form NAME(MEMBER)')]
SOURCE = ('kfb: 1\nsequences:\n  s: {interpolation: linear, duration: 1, '
          'keys: [[0, [0]], [1, [1]]]}\n')


def run(args, cwd, **kw):
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, **kw)


def gltf_naming(buffer_uri):
    data = struct.pack('<2f', 0, 1) + struct.pack('<6f', 0, 0, 0, 1, 2, 3)
    return json.dumps({
        'asset': {'version': '2.0'}, 'nodes': [{'name': 'n'}],
        'buffers': [{'byteLength': len(data), 'uri': buffer_uri}],
        'bufferViews': [{'buffer': 0, 'byteLength': 8},
                        {'buffer': 0, 'byteOffset': 8, 'byteLength': 24}],
        'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 2, 'type': 'SCALAR'},
                      {'bufferView': 1, 'componentType': 5126, 'count': 2, 'type': 'VEC3'}],
        'animations': [{'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'translation'}}],
                        'samplers': [{'input': 0, 'output': 1}]}]}), data


def uri_of(name):
    return ''.join(c if c.isalnum() or c in '-._~' else
                   ''.join('%%%02X' % b for b in c.encode()) for c in name)


def make_reads(c, kfc, proj, name, what):
    """make -n rebuilds when `name` is newer than the output, not when older."""
    with open(os.path.join(proj, 'Makefile'), 'w') as f:
        f.write('out.kfb:\n\t@echo REBUILT\n-include out.kfb.d\n')
    now = time.time()
    for age, want in ((-100, 'REBUILT'), (100, '')):
        os.utime(os.path.join(proj, 'out.kfb'), (now + age, now + age))
        r = run(['make', '-n'], proj)
        got = '\n'.join(l for l in r.stdout.splitlines() if 'is up to date' not in l).strip()
        c.check(r.returncode == 0 and got == ('echo REBUILT' if want else ''),
                'make -n, %s %r %s: %r %r' % (what, name, 'newer' if age < 0 else 'older',
                                              r.stdout, r.stderr))


def main():
    a = driver.arguments()
    c = driver.Checks()
    ninja = shutil.which('ninja')
    if not shutil.which('make'):
        print('test_kfc_depfile: SKIPPED: install make')
        return 77

    for i, name in enumerate(GOOD):
        for kind in ('yaml', 'gltf'):
            proj = os.path.join(a.work, '%s%d' % (kind, i))
            os.makedirs(proj)
            if kind == 'yaml':
                src = name
                with open(os.path.join(proj, name), 'w') as f:
                    f.write(SOURCE)
                deps = [name]
            else:
                src = 'm.gltf'
                doc, data = gltf_naming(uri_of(name))
                with open(os.path.join(proj, src), 'w') as f:
                    f.write(doc)
                with open(os.path.join(proj, name), 'wb') as f:
                    f.write(data)
                deps = [src, name]
            r = run([a.kfc, '-MD', '-o', 'out.kfb', '--', src], proj)
            if not c.check(r.returncode == 0, '%s %r: kfc -MD: %s' % (kind, name, r.stderr)):
                continue
            for dep in deps:
                os.utime(os.path.join(proj, dep), (time.time() - 50,) * 2)
            make_reads(c, a.kfc, proj, name, kind)
            if not ninja:
                continue
            nproj = proj + '-ninja'
            shutil.copytree(proj, nproj)
            for f in ('out.kfb', 'out.kfb.d', 'Makefile'):
                os.remove(os.path.join(nproj, f))
            with open(os.path.join(nproj, 'build.ninja'), 'w') as f:
                f.write('rule kfc\n  command = %s -MD -MF $out.d -o $out -- $in\n'
                        '  depfile = $out.d\n  deps = gcc\n'
                        'build out.kfb: kfc %s\n' % (a.kfc, src.replace('$', '$$').replace(' ', '$ ')
                                                     .replace(':', '$:')))
            r = run([ninja], nproj)
            c.check(r.returncode == 0, 'ninja builds %r: %s' % (name, r.stdout))
            # `ninja -t deps`: a header line, then each dependency indented by 4.
            listed = [l[4:] for l in run([ninja, '-t', 'deps'], nproj).stdout.splitlines()[1:]
                      if l.strip()]
            c.check(sorted(listed) == sorted(deps), 'ninja -t deps, %s %r: %r' % (kind, name, listed))
            c.check('no work to do' in run([ninja, '-n'], nproj).stdout, 'ninja: up to date')
            later = time.time() + 100
            os.utime(os.path.join(nproj, name), (later, later))
            c.check('no work to do' not in run([ninja, '-n'], nproj).stdout,
                    'ninja: %r newer, rebuilds' % name)

    for i, (name, why) in enumerate(BAD):
        for kind in ('yaml', 'gltf'):
            proj = os.path.join(a.work, 'bad-%s%d' % (kind, i))
            os.makedirs(proj)
            if kind == 'yaml':
                src = name
                with open(os.path.join(proj, name), 'w') as f:
                    f.write(SOURCE)
            else:
                src = 'm.gltf'
                doc, data = gltf_naming(uri_of(name))
                with open(os.path.join(proj, src), 'w') as f:
                    f.write(doc)
                with open(os.path.join(proj, name), 'wb') as f:
                    f.write(data)
            for argv, remedy in ((['-MD', '-MF', 'out.d', '-o', 'out.kfb'],
                                  'rename it, or compile it without -MD'),
                                 (['-M', '-MF', 'out.d', '-MT', 'out.kfb'], 'rename it')):
                r = run([a.kfc] + argv + ['--', src], proj)
                c.check(r.returncode == 2 and r.stderr.startswith('kfc: error: file ') and
                        ('cannot be listed in a dependency file: make and ninja do not both read '
                         'a name with ' + why) in r.stderr and
                        (' as written: %s\n' % remedy) in r.stderr
                        and r.stderr.endswith("\nTry 'kfc --help' for more information.\n")
                        and r.stderr.count('\n') == 2,
                        '%s %r %s: want exit 2 and "%s", got %d %r'
                        % (kind, name, argv[0], why, r.returncode, r.stderr))
                left = sorted(set(os.listdir(proj)) - {src, name})
                c.check(not left, '%s %r: left %s' % (kind, name, left))
    # The same rule for the rule's target (-MT), where '%' makes a pattern.
    proj = os.path.join(a.work, 'target')
    os.makedirs(proj)
    with open(os.path.join(proj, 's.yaml'), 'w') as f:
        f.write(SOURCE)
    # A command-line value: a usage error, found before anything is read
    # (the input need not exist), for -MT's target as for the output name it
    # defaults to.
    for argv, target, why in (
            (['-MD', '-MT', 'out%.kfb', 's.yaml', '-o', 'o.kfb'], "-MT target 'out%.kfb'",
             "'%' (make reads a pattern rule) as written: give -MT another target\n"),
            (['-MD', '-MT', 'a;b', 's.yaml', '-o', 'o.kfb'], "-MT target 'a;b'",
             "';' as written: give -MT another target\n"),
            (['-M', '-MT', 'a%b', 'missing.yaml'], "-MT target 'a%b'", "'%'"),
            (['-MD', 's.yaml', '-o', 'o%.kfb'], "target 'o%.kfb'",
             "'%' (make reads a pattern rule) as written: name the output otherwise, or give -MT "
             "a target\n")):
        r = run([a.kfc] + argv, proj)
        c.check(r.returncode == 2 and r.stderr.startswith('kfc: error: %s cannot be listed'
                                                          % target)
                and why in r.stderr and 'kfc --help' in r.stderr
                and not os.path.exists(os.path.join(proj, 'o.kfb'))
                and not os.path.exists(os.path.join(proj, 'o%.kfb')),
                '%s: %r' % (argv, r.stderr))
    # --split's targets, the files named for the animations: known only
    # once read.
    doc, data = gltf_naming('m.bin')
    doc = json.loads(doc)
    doc['animations'][0]['name'] = 'walk'
    with open(os.path.join(proj, 'm.gltf'), 'w') as f:
        json.dump(doc, f)
    with open(os.path.join(proj, 'm.bin'), 'wb') as f:
        f.write(data)
    r = run([a.kfc, '-MD', '-s', 'm.gltf', '-o', 'a=*.kfb'], proj)
    c.check(r.returncode == 2 and r.stderr ==
            "kfc: error: target 'a=walk.kfb' cannot be listed in a dependency file: make and "
            "ninja do not both read a name with '=' as written: name the output otherwise, or "
            "compile it without -MD\nTry 'kfc --help' for more information.\n"
            and not [f for f in os.listdir(proj) if f.startswith('a=')],
            '--split: %r' % r.stderr)
    c.check(not any(os.path.exists(os.path.join(d, 'PWNED')) for d, _, _ in os.walk(a.work)),
            'no command ran')
    print('test_kfc_depfile: %d checks, %d failed%s' % (c.count, len(c.failures),
                                                         '' if ninja else ' (ninja not installed)'))
    if not ninja and not c.failures:
        print('test_kfc_depfile: SKIPPED: install ninja-build (make passed)')
        return 77
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
