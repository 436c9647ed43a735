# SPDX-License-Identifier: MIT
"""Packaging that behaves, on a copy of the tree: `scons install` with
DESTDIR stages under it and writes nothing to PREFIX; CFLAGS, CPPFLAGS and
LDFLAGS from the environment and from the command line are all appended
after kfb's own flags; -Werror only with WERROR=1; a relative PREFIX is made
absolute (also in kf.pc); a plain `scons` says where the tools and libraries
are and leaves the tree up to date (`scons -q` exits 0, a second `scons`
builds nothing; a library's links are LN lines); a PREFIX with a blank in it is escaped in kf.pc, so that
pkg-config's words compile and link a program (kf_offline's, shared, name
libkf_offline alone, which holds the runtime it needs; static, its archive's
needs too: both link and run), and one with a '$' in it is
where the files go, not a variable SCons expands; what install writes is
0644 or 0755 and the folders it makes 0755, whatever the umask and the
checkout's modes; `scons uninstall` removes
what install wrote and the folders it leaves empty, nothing else; an option
SCons does not know and an empty PREFIX are refused; a plain `scons -c`
removes build/ and leaves the tree as checked out, and a build after it (or
after `rm -rf build`) runs the configure checks again and succeeds; the
configure checks compile and link with the user's CFLAGS, CPPFLAGS and
LDFLAGS, not with kfb's warning flags; BINDIR, LIBDIR, INCLUDEDIR, MANDIR and
DOCDIR (where LICENSE and NEWS go, with the libraries) place the files
(relative ones under PREFIX), the .pc files name LIBDIR and INCLUDEDIR, and
uninstall follows them; `scons --help` names the targets,
the default job count and every option; ISAL=1 stops a build without ISA-L,
ISAL=0 leaves it out, and every build (an install too) says which inflater
it uses; without libyaml, jansson and expat the build stops, naming their
packages (a cross compiler's architecture's), and TOOLS=0 builds and installs
the libraries, headers and .pc files alone without them."""
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402
from test_docs import copy_tree  # noqa: E402


def kf_versions(root):
    """The version kf.h says, and the part of it a library's SONAME
    carries: 0.MINOR while the major is 0 (any 0.x minor release may change
    the ABI, README.md's "ABI"), else the major."""
    v = dict(re.findall(r'#define KF_VERSION_(MAJOR|MINOR|PATCH)\s+(\d+)',
                        open(os.path.join(root, 'runtime', 'kf.h')).read()))
    return ('%s.%s.%s' % (v['MAJOR'], v['MINOR'], v['PATCH']),
            '0.' + v['MINOR'] if v['MAJOR'] == '0' else v['MAJOR'])


def fake_cc(path, hide=(), machine=None, compile_needs=(), link_needs=(), check_refuses=()):
    """A C compiler that is cc, but for which the headers `hide` names are
    not installed (#error), which calls itself `machine` (-dumpmachine), and
    which fails a configure check's compile without every word of
    `compile_needs`, its link without every word of `link_needs`, and
    either with a word of `check_refuses`."""
    folder = path + '.include'
    os.makedirs(folder, exist_ok=True)
    for header in hide:
        with open(os.path.join(folder, header), 'w') as f:
            f.write('#error %s is not installed here\n' % header)

    def require(words, refuse=False):
        return ''.join(
            '    case " $* " in *" %s "*) %s ;; *) %s ;; esac\n'
            % (w, 'echo "fake cc: %s in a check" >&2; exit 1' % w if refuse else ':',
               ':' if refuse else 'echo "fake cc: no %s in a check" >&2; exit 1' % w)
            for w in words)
    with open(path, 'w') as f:
        f.write('#!/bin/sh\n')
        if machine:
            f.write('if [ "$1" = -dumpmachine ]; then echo %s; exit 0; fi\n' % machine)
        f.write('case "$*" in *conftest*)\n')
        f.write(require(check_refuses, refuse=True))
        f.write('    case " $* " in *" -c "*)\n%s    ;; *)\n%s    ;; esac ;;\nesac\n'
                % (require(compile_needs), require(link_needs)))
        f.write('exec cc -isystem %s "$@"\n' % shlex.quote(folder))
    os.chmod(path, 0o755)
    return path


def main():
    a = driver.arguments('--root')
    driver.require('test_packaging', 'scons', 'scons')
    c = driver.Checks()
    version, soversion = kf_versions(a.root)
    repo = os.path.join(a.work, 'repo')
    copied = copy_tree(a.root, repo)
    env = dict(os.environ, CFLAGS='-DKF_FROM_ENV', CPPFLAGS='-DKF_CPP_FROM_ENV',
               LDFLAGS='-Wl,--as-needed')
    env.pop('DESTDIR', None)

    def scons(*args, extra_env=None):
        r = subprocess.run(['scons', '-Q'] + list(args), cwd=repo, env=dict(env, **(extra_env or {})),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    # kf.pc names PREFIX, made absolute, and never DESTDIR. (A real build
    # first: it runs the configure checks, which a dry run cannot; with the
    # flags of the dry runs below, which the checks use too.)
    line_flags = ['CFLAGS=-DKF_FROM_LINE -O3', 'LDFLAGS=-Wl,-O1']
    code, out = scons('build/release/kf.pc', 'PREFIX=rel/usr', 'DESTDIR=stage', *line_flags)
    pc = open(os.path.join(repo, 'build', 'release', 'kf.pc')).read() if code == 0 else ''
    c.check(re.search(r'^prefix=%s$' % re.escape(os.path.join(repo, 'rel', 'usr')), pc, re.M),
            'kf.pc: prefix=%s' % re.findall(r'^prefix=.*$', pc, re.M))
    c.check(not os.path.exists(os.path.join(repo, 'rel')), 'nothing written to PREFIX')
    code, out = scons('-n', 'install', 'PREFIX=rel/usr', 'DESTDIR=stage', 'VERBOSE=1', *line_flags)
    if not c.check(code == 0, 'scons -n install: %s' % out[-2000:]):
        return 1
    # The spellings of 1 and 0 that a bad value's message names are taken
    # (below: that message). (A dry run with these flags: the configure
    # checks are the real build's.)
    code_yes, out_yes = scons('-n', 'build/release/kf.pc', 'PREFIX=rel/usr', 'ISAL=Yes', 'SIMD=off',
                              'TOOLS=ON', 'WERROR=f', 'FUZZ_RUNS=', *line_flags)
    c.check(code_yes == 0 and 'error' not in out_yes, 'ISAL=Yes SIMD=off TOOLS=ON WERROR=f: %d %s'
            % (code_yes, out_yes[-500:]))
    compiles = [l for l in out.splitlines() if ' -c ' in l and 'build/release/runtime/kf_alloc' in l]
    c.check(len(compiles) >= 1, 'a compile command of the release runtime')
    for cmd in compiles:
        words = cmd.split()
        for flag in ('-DKF_FROM_ENV', '-DKF_FROM_LINE', '-DKF_CPP_FROM_ENV', '-O3'):
            c.check(flag in words, 'compile command has %s: %s' % (flag, cmd))
        if '-O2' in words and '-O3' in words:
            c.check(words.index('-O3') > words.index('-O2'), 'CFLAGS come after kfb\'s -O2: %s' % cmd)
        if '-DKF_FROM_ENV' in words and '-DKF_FROM_LINE' in words:
            c.check(words.index('-DKF_FROM_LINE') > words.index('-DKF_FROM_ENV'),
                    'the command line\'s CFLAGS after the environment\'s')
        c.check('-Werror' not in words, '-Werror without WERROR=1: %s' % cmd)
    links = [l for l in out.splitlines() if re.search(r'-o build/release/compiler/kfc\b', l)]
    c.check(links and '-Wl,--as-needed' in links[0] and '-Wl,-O1' in links[0],
            'kfc\'s link has both LDFLAGS: %s' % links)
    stage = os.path.join(repo, 'stage') + os.path.join(repo, 'rel', 'usr')
    installs = re.findall(r'Install file: "([^"]+)" as "([^"]+)"', out)
    c.check(len(installs) >= 6, '%d files installed' % len(installs))
    for src, dst in installs:
        dst = os.path.join(repo, dst)  # SCons prints paths under the tree relative to it
        c.check(dst.startswith(stage + '/'), 'installed under DESTDIR + absolute PREFIX: %s' % dst)
    c.check(any(d.endswith('/bin/kfc') for _, d in installs) and
            any(d.endswith('/lib/pkgconfig/kf.pc') for _, d in installs) and
            any(d.endswith('/share/man/man1/kfc.1') for _, d in installs), 'tools, kf.pc, man pages')

    code, out = scons('-n', 'build/release/runtime/kf_alloc.o', 'WERROR=1', 'VERBOSE=1', *line_flags)
    c.check(code == 0 and '-Werror' in out.split(), 'WERROR=1 adds -Werror')
    # VERBOSE=0 (or no) is the short form, as if left out.
    for quiet in ('VERBOSE=0', 'VERBOSE=no'):
        code, out = scons('-n', 'build/release/runtime/kf_alloc.o', quiet, *line_flags)
        c.check(code == 0 and 'CC     build/release/runtime/kf_alloc.o' in out.splitlines() and
                '-Wall' not in out, '%s: one short line a file: %s' % (quiet, out[-500:]))

    # A plain `scons` builds what it builds by default and says where;
    # after it nothing is left to build: `scons -q` exits 0, and a second
    # `scons` rebuilds nothing and says where again.
    code, out = scons()
    c.check(code == 0 and 'Built kfb' in out, 'scons says where it built: %s' % out[-2000:])
    # Each line short, the versioned libraries' links too.
    c.check('LN     build/release/runtime/libkf.so.' + soversion in out.splitlines() and
            'Create symlinks' not in out, 'the library links as LN lines: %s' % out[-2000:])
    # The SONAME: libkf.so.0.MINOR while in 0.x, so that a minor release
    # that changes the ABI gets a library of its own name.
    for lib in ('runtime/libkf', 'offline/libkf_offline'):
        path = os.path.join(repo, 'build', 'release', lib + '.so.' + version)
        r = subprocess.run(['readelf', '-d', path], stdout=subprocess.PIPE, text=True)
        c.check(re.findall(r'\(SONAME\).*\[(.*)\]', r.stdout) ==
                [os.path.basename(lib) + '.so.' + soversion],
                '%s: SONAME %s' % (path, re.findall(r'\(SONAME\).*', r.stdout)))
    code, out = scons('-q')
    c.check(code == 0, 'after scons, scons -q exits 0, not %d: %s' % (code, out[-2000:]))
    code, out = scons('--debug=explain')
    built = [l for l in out.splitlines() if re.match(r'scons: (re)?building ', l)]
    c.check(code == 0 and not built and 'Built kfb' in out,
            'a second scons builds nothing and says where it built: %s' % out[-2000:])

    # A PREFIX with a blank in it: kf.pc escapes it, and a program compiled
    # and linked with the words pkg-config prints (as a shell splits them)
    # finds kf.h and libkf. Its '$' is the folder's own, not a construction
    # variable for SCons to expand: the files go where kf.pc says.
    spaced = os.path.join(a.work, 'x sp $HOME')
    mine = [os.path.join(spaced, 'notes.txt'), os.path.join(spaced, 'share', 'mine.txt')]
    for path in mine:  # the user's files, there before kfb's
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, 'w').write('mine\n')
    code, out = scons('install', 'PREFIX=' + spaced)
    if not c.check(code == 0, 'scons install "PREFIX=%s": %s' % (spaced, out[-2000:])):
        return 1
    pcdir = os.path.join(spaced, 'lib', 'pkgconfig')
    if not c.check(os.path.isfile(os.path.join(pcdir, 'kf.pc')),
                   'kf.pc installed in %s: %s' % (pcdir, out[-2000:])):
        return 1
    pc = open(os.path.join(pcdir, 'kf.pc')).read()
    c.check(re.search(r'^prefix=%s$' % re.escape(spaced.replace(' ', '\\ ')), pc, re.M),
            'kf.pc escapes the blank: %s' % re.findall(r'^prefix=.*$', pc, re.M))
    pkg = dict(os.environ, PKG_CONFIG_PATH=pcdir)
    pkg.pop('PKG_CONFIG_LIBDIR', None)
    r = subprocess.run(['pkg-config', '--cflags', '--libs', 'kf'], env=pkg,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    words = shlex.split(r.stdout) if r.returncode == 0 else []
    c.check('-I' + os.path.join(spaced, 'include') in words and
            '-L' + os.path.join(spaced, 'lib') in words and '-lkf' in words,
            'pkg-config --cflags --libs kf: %r -> %r' % (r.stdout, words))
    with open(os.path.join(a.work, 'hello.c'), 'w') as f:
        f.write('#include <stdio.h>\n#include <kf.h>\n'
                'int main(void) { printf("%s\\n", kf_version()); return 0; }\n')
    exe = os.path.join(a.work, 'hello')
    r = subprocess.run(['cc', os.path.join(a.work, 'hello.c'), '-o', exe] + words,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if c.check(r.returncode == 0, 'cc hello.c $(pkg-config --cflags --libs kf): %s' % r.stdout):
        r = subprocess.run([exe], env=dict(os.environ, LD_LIBRARY_PATH=os.path.join(spaced, 'lib')),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        c.check(r.returncode == 0 and r.stdout.strip(), 'hello runs: %r' % r.stdout)
    # Linked with the static library, it needs what `pkg-config --static
    # --libs kf` names besides -lkf: the inflater libkf.a was built with,
    # zlib or ISA-L (which checksums too: no zlib then), and no libkf.so to
    # run.
    isal = "scons: inflate: ISA-L's igzip" in out
    r = subprocess.run(['pkg-config', '--cflags', '--static', '--libs', 'kf'], env=pkg,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    words = [w for w in shlex.split(r.stdout) if w != '-lkf'] if r.returncode == 0 else []
    c.check(('-lisal' in words and '-lz' not in words) if isal else
            ('-lz' in words and '-lisal' not in words),
            'pkg-config --static --libs kf names %s alone: %r' % ('ISA-L' if isal else 'zlib', r.stdout))
    exe = os.path.join(a.work, 'hello-static')
    r = subprocess.run(['cc', os.path.join(a.work, 'hello.c'), '-o', exe,
                        os.path.join(spaced, 'lib', 'libkf.a')] + words,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if c.check(r.returncode == 0, 'cc hello.c libkf.a $(pkg-config --cflags --static --libs kf): '
               '%s' % r.stdout):
        r = subprocess.run(['readelf', '-d', exe], stdout=subprocess.PIPE, text=True)
        c.check('libkf' not in r.stdout, 'hello-static needs no libkf.so: %s' % r.stdout)
        r = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        c.check(r.returncode == 0 and r.stdout.strip(), 'hello-static runs: %r' % r.stdout)

    # libkf_offline.so holds the runtime it builds on: `pkg-config --libs
    # kf_offline` names it alone, and a program linked with those words
    # needs no libkf.so; `--static` adds what libkf_offline.a needs, libkf.a
    # and its inflater, zlib (the writer's deflate), libm and pthread, and a
    # program linked with the archives and those words needs no kfb library
    # to run. Both get kf.h's folder from --cflags (kf_build.h includes it).
    libdir = os.path.join(spaced, 'lib')
    offline_words = {}
    for how in ('--libs', '--static --libs'):
        r = subprocess.run(['pkg-config', '--cflags'] + how.split() + ['kf_offline'], env=pkg,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        offline_words[how] = shlex.split(r.stdout) if r.returncode == 0 else []
        c.check(r.returncode == 0 and '-I' + os.path.join(spaced, 'include') in offline_words[how],
                'pkg-config --cflags %s kf_offline: %r' % (how, r.stdout))
    libs = [w for w in offline_words['--libs'] if not w.startswith('-I')]
    c.check(libs == ['-L' + libdir, '-lkf_offline'],
            'pkg-config --libs kf_offline: -L and -lkf_offline alone, not %r' % libs)
    libs = [w for w in offline_words['--static --libs'] if not w.startswith('-I')]
    want = ['-lkf_offline', '-lkf', '-lz', '-lm', '-lpthread'] + (['-lisal'] if isal else [])
    c.check(all(w in libs for w in want) and libs.index('-lkf_offline') < libs.index('-lkf'),
            'pkg-config --static --libs kf_offline: %s, -lkf after -lkf_offline: %r' % (want, libs))
    with open(os.path.join(a.work, 'build.c'), 'w') as f:
        f.write('#include <stdio.h>\n#include <kf_build.h>\n'
                'static int count(void *user, const void *data, size_t size)\n'
                '{ (void)data; *(size_t *)user += size; return 0; }\n'
                'int main(void) {\n'
                '    static const double times[2] = {0, 1}, values[2] = {1, 2};\n'
                '    kf_builder *b;\n'
                '    if (kf_builder_create(NULL, &b) != KF_OK) return 1;\n'
                '    kf_sequence_desc d;\n'
                '    kf_sequence_desc_init(&d);\n'
                '    d.name = "s"; d.duration = 1; d.components = 1; d.key_count = 2;\n'
                '    d.times = times; d.values = values;\n'
                '    size_t bytes = 0;\n'
                '    kf_result r = kf_builder_add_sequence(b, &d, NULL);\n'
                '    if (r == KF_OK) r = kf_builder_encode(b, NULL, count, &bytes, NULL);\n'
                '    kf_builder_destroy(b);\n'
                '    printf("%zu\\n", bytes);\n'
                '    return r == KF_OK && bytes ? 0 : 1;\n'
                '}\n')
    archives = {'-lkf_offline': os.path.join(libdir, 'libkf_offline.a'),
                '-lkf': os.path.join(libdir, 'libkf.a')}
    for how, name, words in (
            ('--libs', 'build-shared', offline_words['--libs']),
            ('--static --libs', 'build-static',
             [archives.get(w, w) for w in offline_words['--static --libs']])):
        exe = os.path.join(a.work, name)
        r = subprocess.run(['cc', os.path.join(a.work, 'build.c'), '-o', exe] + words,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not c.check(r.returncode == 0, 'cc build.c $(pkg-config --cflags %s kf_offline): %s'
                       % (how, r.stdout)):
            continue
        needed = re.findall(r'\(NEEDED\).*\[(.*)\]', subprocess.run(
            ['readelf', '-d', exe], stdout=subprocess.PIPE, text=True).stdout)
        kfb_needed = [n for n in needed if n.startswith('libkf')]
        c.check(kfb_needed == (['libkf_offline.so.' + soversion] if how == '--libs' else []),
                '%s needs %s of kfb\'s libraries, not %s' % (name, 'libkf_offline.so alone' if
                                                               how == '--libs' else 'none', needed))
        r = subprocess.run([exe], env=dict(os.environ, LD_LIBRARY_PATH=libdir),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        c.check(r.returncode == 0 and r.stdout.strip().isdigit(), '%s runs: %r' % (name, r.stdout))

    # `scons uninstall` takes away what install put there, its folders left
    # empty, and nothing else: not the user's files, not build/.
    code, out = scons('uninstall', 'PREFIX=' + spaced)
    c.check(code == 0, 'scons uninstall: %s' % out[-2000:])
    left = sorted(os.path.join(d, n) for d, dirs, files in os.walk(spaced) for n in dirs + files)
    c.check(left == sorted(mine + [os.path.join(spaced, 'share')]),
            'after uninstall the prefix holds the user\'s files only: %s' % left)
    c.check(os.path.isfile(os.path.join(repo, 'build', 'release', 'compiler', 'kfc')),
            'uninstall leaves build/ alone')
    # With DESTDIR, the same files under it; an empty prefix is left as it was.
    code, out = scons('install', 'PREFIX=/usr', 'DESTDIR=' + os.path.join(a.work, 'stage'))
    c.check(code == 0 and os.path.isfile(os.path.join(a.work, 'stage', 'usr', 'bin', 'kfc')),
            'scons install DESTDIR=: %s' % out[-2000:])
    c.check(re.search(r'^scons: inflate: (ISA-L|zlib)', out, re.M),
            'scons install says which inflater: %s' % out[-2000:])
    code, out = scons('uninstall', 'PREFIX=/usr', 'DESTDIR=' + os.path.join(a.work, 'stage'))
    c.check(code == 0 and os.listdir(os.path.join(a.work, 'stage', 'usr')) == [],
            'scons uninstall DESTDIR=: %s' % out[-2000:])
    # Again, or under a prefix install never wrote to: it says so.
    code, out = scons('uninstall', 'PREFIX=/usr', 'DESTDIR=' + os.path.join(a.work, 'stage'))
    c.check(code == 0 and 'Nothing of kfb is installed under "%s"' %
            os.path.join(a.work, 'stage', 'usr') in out,
            'scons uninstall of nothing says so: %s' % out[-2000:])
    # Under root's umask 077, from a checkout made under it, the files
    # install writes are 0755 (programs, shared libraries) or 0644 and the
    # folders it makes 0755, as install(1) makes them: a header or kf.pc only
    # root can read is no installation for anyone else.
    private = os.path.join(a.work, 'umask 077')
    modes = {}
    for name in ('runtime/kf.h', 'man/kfc.1'):
        path = os.path.join(repo, name)
        modes[path] = os.stat(path).st_mode
        os.chmod(path, 0o600)
    r = subprocess.run(['scons', '-Q', 'install', 'PREFIX=' + private], cwd=repo, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       preexec_fn=lambda: os.umask(0o077))
    for path, mode in modes.items():
        os.chmod(path, mode)
    c.check(r.returncode == 0, 'scons install under umask 077: %s' % r.stdout[-2000:])
    wrong = []
    for d, folders, names in os.walk(private):
        for n in [''] + folders + names:
            path = os.path.join(d, n)
            if os.path.islink(path) or (n == '' and d != private):
                continue
            want = 0o755 if os.path.isdir(path) or n in ('kfc', 'kfplay') or '.so' in n else 0o644
            if os.stat(path).st_mode & 0o7777 != want:
                wrong.append('%s %o' % (os.path.relpath(path, private), os.stat(path).st_mode & 0o7777))
    c.check(r.returncode == 0 and not wrong, 'install under umask 077: modes %s' % wrong)
    scons('uninstall', 'PREFIX=' + private)

    # `scons --help` names the targets, the default job count and every
    # option the build takes (those its refusal of an unknown one lists),
    # each with an entry of its own.
    code, out = scons('-n', 'FOO=1')
    options = re.findall(r'\(options: ([^)]*)\)', out)
    options = options[0].split(', ') if options else []
    c.check({'CFLAGS', 'CPPFLAGS', 'LDFLAGS', 'VERBOSE', 'BENCH_ROUNDS', 'FUZZ_TIME', 'FUZZ_RUNS',
             'LIBDIR', 'TOOLS', 'ISAL'} <= set(options), 'the options the build takes: %s' % out)
    code, out = scons('--help')
    for name in options:
        c.check(re.search(r'^%s: ' % name, out, re.M), 'scons --help: no %s' % name)
    for target in ('demo', 'test', 'valgrind', 'fuzz', 'bench', 'install', 'uninstall', '-c'):
        c.check(re.search(r'^  scons %s ' % re.escape(target), out, re.M),
                'scons --help: no target %s' % target)
    c.check(code == 0 and 'A plain `scons` runs one job per CPU' in out and 'unless -j is given' in out,
            'scons --help: the job count: %s' % out[:3000])

    # BINDIR, LIBDIR, INCLUDEDIR, MANDIR and DOCDIR: relative under PREFIX, absolute
    # as they are (and under DESTDIR); the .pc files name LIBDIR and
    # INCLUDEDIR (under ${prefix} where they lie there), and pkg-config's
    # words for the staged kf_offline.pc (and the kf.pc it requires) are
    # those folders; uninstall finds the files there.
    stage = os.path.join(a.work, 'stage-dirs')
    for options, folders, pc_lines in (
            (['PREFIX=/opt/kfb', 'LIBDIR=lib/x86_64-linux-gnu'],
             dict(bin='/opt/kfb/bin', lib='/opt/kfb/lib/x86_64-linux-gnu', include='/opt/kfb/include',
                  man='/opt/kfb/share/man/man1', doc='/opt/kfb/share/doc/kfb'),
             ['libdir=${prefix}/lib/x86_64-linux-gnu', 'includedir=${prefix}/include']),
            (['PREFIX=/usr', 'LIBDIR=/usr/lib64', 'INCLUDEDIR=/opt/kf/include', 'BINDIR=games',
              'MANDIR=/usr/local/man', 'DOCDIR=share/doc/libkf0'],
             dict(bin='/usr/games', lib='/usr/lib64', include='/opt/kf/include',
                  man='/usr/local/man/man1', doc='/usr/share/doc/libkf0'),
             ['libdir=${prefix}/lib64', 'includedir=/opt/kf/include'])):
        code, out = scons('install', 'DESTDIR=' + stage, *options)
        files = sorted('/' + os.path.relpath(os.path.join(d, n), stage)
                       for d, dirs, names in os.walk(stage) for n in names)
        want = sorted([folders['bin'] + '/kfc', folders['bin'] + '/kfplay',
                       folders['include'] + '/kf.h', folders['include'] + '/kf_build.h',
                       folders['man'] + '/kfc.1', folders['man'] + '/kfplay.1',
                       folders['doc'] + '/LICENSE', folders['doc'] + '/NEWS',
                       folders['lib'] + '/pkgconfig/kf.pc', folders['lib'] + '/pkgconfig/kf_offline.pc'] +
                      ['%s/lib%s%s' % (folders['lib'], lib, end) for lib in ('kf', 'kf_offline')
                       for end in ('.a', '.so', '.so.' + soversion, '.so.' + version)])
        c.check(code == 0 and files == want, 'scons install %s: %s, not %s: %s'
                % (' '.join(options), files, want, out[-2000:]))
        pcdir = stage + folders['lib'] + '/pkgconfig'
        for pc in ('kf.pc', 'kf_offline.pc'):
            text = open(os.path.join(pcdir, pc)).read() if os.path.isfile(os.path.join(pcdir, pc)) else ''
            c.check(all(line in text.splitlines() for line in pc_lines),
                    '%s %s: %s in %r' % (' '.join(options), pc, pc_lines, text))
        pkg = dict(os.environ, PKG_CONFIG_PATH=pcdir, PKG_CONFIG_ALLOW_SYSTEM_LIBS='1',
                   PKG_CONFIG_ALLOW_SYSTEM_CFLAGS='1')
        for name in ('PKG_CONFIG_LIBDIR', 'PKG_CONFIG_SYSROOT_DIR'):
            pkg.pop(name, None)
        r = subprocess.run(['pkg-config', '--cflags', '--libs', 'kf_offline'], env=pkg,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        words = shlex.split(r.stdout) if r.returncode == 0 else []
        c.check(all(w in words for w in ('-I' + folders['include'], '-L' + folders['lib'],
                                         '-lkf_offline')) and '-lkf' not in words,
                '%s: pkg-config --cflags --libs kf_offline: %r' % (' '.join(options), r.stdout))
        code, out = scons('uninstall', 'DESTDIR=' + stage, *options)
        left = [os.path.join(d, n) for d, dirs, names in os.walk(stage) for n in names]
        c.check(code == 0 and not left, 'scons uninstall %s leaves %s: %s'
                % (' '.join(options), left, out[-2000:]))
        shutil.rmtree(stage, ignore_errors=True)

    # A misspelled option, or an empty PREFIX, is refused before anything is
    # built or installed (not dropped, which installed under /usr/local).
    for args, says in ((['prefix=/tmp/x'], "unknown option 'prefix'; did you mean 'PREFIX'?"),
                       (['PREFX=/tmp/x'], "unknown option 'PREFX'; did you mean 'PREFIX'?"),
                       (['FOO=1'], "unknown option 'FOO' (options: "),
                       (['PREFIX='], 'PREFIX is empty'),
                       (['LIBDIR='], 'LIBDIR is empty'), (['MANDIR='], 'MANDIR is empty'),
                       (['DOCDIR='], 'DOCDIR is empty')):
        code, out = scons('-n', 'install', *args)
        c.check(code == 2 and says in out and 'Install file' not in out,
                'scons install %s: %d %s' % (' '.join(args), code, out[-500:]))
    # So is a value an option does not take, in the same words, naming the
    # values it takes: not SCons's own message, with a Python tuple and a
    # line of SConstruct. Every bad value is named, with an unknown option.
    yes_no = '(or yes/no, y/n, true/false, t/f, on/off, all/none, in any case)'
    for args, says in (
            (['ISAL=maybe'], ['ISAL=maybe: use auto, 1 or 0 ' + yes_no]),
            (['SIMD=maybe'], ['SIMD=maybe: use 1 or 0 ' + yes_no]),
            (['TOOLS=maybe'], ['TOOLS=maybe: use 1 or 0 ' + yes_no]),
            (['WERROR=2'], ['WERROR=2: use 1 or 0 ' + yes_no]),
            (['VERBOSE=full'], ['VERBOSE=full: use 1 or 0 ' + yes_no]),
            (['BENCH_ROUNDS=many'], ['BENCH_ROUNDS=many: use a whole number of rounds, at least 1']),
            (['FUZZ_TIME=1m'], ['FUZZ_TIME=1m: use a whole number of seconds, at least 1']),
            (['FUZZ_RUNS=0'], ['FUZZ_RUNS=0: use a whole number of inputs, at least 1']),
            (['ISAL=2', 'prefx=/tmp/x', 'SIMD='],
             ["unknown option 'prefx'", 'ISAL=2: use auto', 'SIMD=: use 1 or 0'])):
        code, out = scons('-n', 'install', *args)
        c.check(code == 2 and all('scons: error: ' + say in out for say in says) and
                'File "' not in out and '(' + "'auto'" not in out and 'Install file' not in out,
                'scons install %s: %d %s' % (' '.join(args), code, out[-500:]))

    # A plain `scons -c` removes build/ whole (kf.pc, the configure log and
    # what no plain `scons` builds too); `-n` only says so.
    build = os.path.join(repo, 'build')
    code, out = scons('-c', '-n')
    c.check(code == 0 and 'Removed directory build' in out and
            os.path.isfile(os.path.join(build, 'release', 'kf.pc')), 'scons -c -n: %s' % out[-2000:])
    code, out = scons('-c')
    c.check(code == 0 and 'Removed directory build' in out and 'Could not' not in out and
            not os.path.exists(build), 'scons -c: %s' % out[-2000:])
    # ... and leaves the tree as it was copied: no signature database (or
    # anything else) at the top. (Python's __pycache__ of site_scons/ aside.)
    left = []
    for d, dirs, files in os.walk(repo):
        dirs[:] = [x for x in dirs if x != '__pycache__']
        left += [os.path.relpath(os.path.join(d, n), repo) for n in files]
    c.check(sorted(left) == sorted(copied), 'after scons -c, files not in the checkout: %s'
            % sorted(set(left) - set(copied)))
    # The next build runs the configure checks again and builds: after
    # `scons -c`, after `rm -rf build`, and with the checks' folder alone gone.
    for undo, gone in (('scons -c', None), ('rm -rf build', build),
                       ('rm -rf build/.sconf_temp', os.path.join(build, '.sconf_temp'))):
        if gone:
            shutil.rmtree(gone)
        code, out = scons('build/release/kf.pc')
        c.check(code == 0 and os.path.isfile(os.path.join(build, 'release', 'kf.pc')),
                'scons after %s: %s' % (undo, out[-2000:]))

    # The configure checks, in a copy of their own: a compiler that fails
    # every check not given the user's CFLAGS, CPPFLAGS and LDFLAGS, or given
    # kfb's warning flags, finds every library (a library under a prefix
    # that only these flags name is found).
    cfg = os.path.join(a.work, 'cfg')
    copy_tree(a.root, cfg)

    def scons_cfg(*args):
        r = subprocess.run(['scons', '-Q', '--config=force'] + list(args), cwd=cfg, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        return r.returncode, r.stdout

    cc = fake_cc(os.path.join(a.work, 'cc-flags'), compile_needs=['-DKF_CHECK_C', '-DKF_CHECK_CPP'],
                 link_needs=['-L/kf-check-ld'], check_refuses=['-Werror', '-Wall', '-std=c11'])
    code, out = scons_cfg('build/release/kf.pc', 'CC=' + cc, 'WERROR=1', 'CFLAGS=-DKF_CHECK_C',
                          'CPPFLAGS=-DKF_CHECK_CPP', 'LDFLAGS=-L/kf-check-ld')
    c.check(code == 0 and 'missing libraries' not in out,
            'the checks have the user\'s flags and not kfb\'s: %s' % out[-2000:])

    # ISAL=auto (the default) uses ISA-L where it is found, ISAL=1 requires
    # it, ISAL=0 leaves it out; every build says which inflater it uses, a
    # named target's too.
    def inflater(out):
        lines = [l for l in out.splitlines() if l.startswith('scons: inflate: ')]
        return lines[0] if len(lines) == 1 else 'not said once: %s' % out[-2000:]

    def requires(name='kf'):
        pc = open(os.path.join(cfg, 'build', 'release', name + '.pc')).read()
        return re.findall(r'^Requires.private: (.*)$', pc, re.M)

    code, out = scons_cfg('build/release/kf.pc')
    have_isal = code == 0 and "ISA-L's igzip" in inflater(out)
    no_isal = fake_cc(os.path.join(a.work, 'cc-no-isal'), hide=['isa-l.h'])
    stage = os.path.join(a.work, 'stage-isal')
    code, out = scons_cfg('install', 'PREFIX=/usr', 'DESTDIR=' + stage, 'ISAL=1', 'CC=' + no_isal)
    c.check(code == 1 and 'ISA-L requested (ISAL=1) but not found: apt-get install libisal-dev'
            in out and not os.path.exists(stage), 'ISAL=1 without ISA-L: %d %s' % (code, out[-2000:]))
    for args, says, libs in (
            (['CC=' + no_isal], 'zlib (ISA-L not found: apt-get install libisal-dev', 'zlib'),
            (['ISAL=auto', 'CC=' + no_isal], 'zlib (ISA-L not found', 'zlib'),
            (['ISAL=0'], 'zlib (ISAL=0)', 'zlib'),
            (['ISAL=no'], 'zlib (ISAL=0)', 'zlib')) + ((
            ([], "ISA-L's igzip (libisal-dev; ISAL=0 for zlib)", 'libisal'),
            (['ISAL=1'], "ISA-L's igzip (ISAL=1)", 'libisal'),
            (['ISAL=yes'], "ISA-L's igzip (ISAL=1)", 'libisal')) if have_isal else ()):
        code, out = scons_cfg('build/release/kf.pc', 'build/release/kf_offline.pc', *args)
        c.check(code == 0 and inflater(out).startswith('scons: inflate: ' + says),
                'scons %s: %s' % (' '.join(args), inflater(out)))
        # (libkf.a built with ISA-L has none of zlib's symbols)
        c.check(requires() == [libs], 'scons %s: kf.pc Requires.private %s' % (' '.join(args), requires()))
        c.check(requires('kf_offline') == ['kf, zlib'],
                'scons %s: kf_offline.pc Requires.private %s' % (' '.join(args), requires('kf_offline')))

    # Without libyaml, jansson and expat the build stops, naming their
    # packages (a cross compiler's: of its architecture, or none), and says
    # that TOOLS=0 builds the libraries without them.
    hidden = ['yaml.h', 'jansson.h', 'expat.h']
    no_tools = fake_cc(os.path.join(a.work, 'cc-no-yaml'), hide=hidden)
    code, out = scons_cfg('build/release/kf.pc', 'CC=' + no_tools)
    c.check(code == 1 and 'missing libraries: yaml, jansson, expat (Debian: apt-get install '
            'libyaml-dev libjansson-dev libexpat1-dev); TOOLS=0 builds the libraries alone' in out,
            'without libyaml, jansson, expat: %d %s' % (code, out[-2000:]))
    r = subprocess.run(['dpkg', '--print-architecture'], stdout=subprocess.PIPE, text=True) \
        if shutil.which('dpkg') else None
    other = ('x86_64-linux-gnu', 'amd64') if (r.stdout.strip() if r else platform.machine()) in \
        ('arm64', 'aarch64') else ('aarch64-linux-gnu', 'arm64')
    for machine, says in ((other[0], 'apt-get install libyaml-dev:{0} libjansson-dev:{0} '
                                     'libexpat1-dev:{0})'.format(other[1])),
                          ('or1k-unknown-elf', 'missing libraries: yaml, jansson, expat (for '
                                               'or1k-unknown-elf, the machine CC compiles for)')):
        cross_cc = fake_cc(os.path.join(a.work, 'cc-' + machine), hide=hidden, machine=machine)
        code, out = scons_cfg('build/release/kf.pc', 'CC=' + cross_cc)
        c.check(code == 1 and says in out, 'a cross compiler for %s without libyaml: %d %s'
                % (machine, code, out[-2000:]))
    # TOOLS=0 builds and installs the libraries, their headers and .pc files
    # alone, without them; a target that needs the tools is refused.
    stage = os.path.join(a.work, 'stage-libs')
    code, out = scons_cfg('install', 'TOOLS=0', 'PREFIX=/usr', 'DESTDIR=' + stage, 'CC=' + no_tools)
    files = sorted(os.path.relpath(os.path.join(d, n), stage)
                   for d, dirs, names in os.walk(stage) for n in names)
    c.check(code == 0 and files == sorted(
        ['usr/include/kf.h', 'usr/include/kf_build.h', 'usr/lib/pkgconfig/kf.pc',
         'usr/lib/pkgconfig/kf_offline.pc', 'usr/share/doc/kfb/LICENSE', 'usr/share/doc/kfb/NEWS'] +
        ['usr/lib/lib%s%s' % (lib, end) for lib in ('kf', 'kf_offline')
         for end in ('.a', '.so', '.so.' + soversion, '.so.' + version)]),
        'scons install TOOLS=0 (without libyaml, jansson, expat): %d %s %s' % (code, files, out[-2000:]))
    c.check(os.path.isfile(os.path.join(cfg, 'build', 'release', 'runtime', 'libkf.so')) and
            not os.path.exists(os.path.join(cfg, 'build', 'release', 'compiler', 'kfc')),
            'TOOLS=0 builds libkf.so and no kfc')
    code, out = scons_cfg('test', 'TOOLS=0', 'CC=' + no_tools)
    c.check(code == 2 and "TOOLS=0 builds the libraries alone, and 'test' needs kfc and kfplay" in out,
            'scons test TOOLS=0: %d %s' % (code, out[-2000:]))

    shutil.rmtree(repo, ignore_errors=True)
    shutil.rmtree(cfg, ignore_errors=True)
    print('test_packaging: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
