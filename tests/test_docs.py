# SPDX-License-Identifier: MIT
"""Every documented line runs: the code blocks of README.md, formats/yaml.md,
formats/kfb.md, docs/*.md, examples/README.md and the EXAMPLES of the man
pages, run in
order, as a new user would run them, in a copy of the repository.

What runs, by the block's language:

  sh      each block is a bash script (set -e: any failing command fails the
          test); exported variables carry over to the blocks after it
  yaml    compiled with kfc (it must compile)
  c       compiled with -Wall -Wextra -Werror against the built libraries and
          run (it must exit 0)
  text    not run: output, grammar or formulas
  other   not allowed (the test fails, naming the block)

A comment on the line before a block, `<!-- file: NAME -->`, writes the
block to NAME first, so that later commands find it. In a man page, each
.EX/.EE block is a sh block. The documents share one working copy and one
home folder (HOME), in the order above, so a later document may use the
files an earlier one made. Nothing puts kfc and kfplay on PATH but README.md's
own `export PATH=...` line, as in a new user's shell.

Two commands are never run, and say so: `scons test` (this suite itself)
and the package installers (.ci/install-deps, .ci/install-test-deps,
apt-get), which need root and the network (CI runs them before the suite).
Everything else runs, the slow commands (`scons demo`, `scons install`)
included. None may change a file of the checkout: they write under build/,
or the files the documents name.
"""
import argparse
import fnmatch
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Commands that are not run here, with the reason printed when met.
NOT_RUN = [
    (re.compile(r'^\s*scons\s+test\b'), 'this test suite itself'),
    (re.compile(r'^\s*(sudo\s+)?apt(-get)?\s'), 'a package install (needs root)'),
]
# The installers of .ci/: CI runs them before the suite.
INSTALLERS = ('.ci/install-deps', '.ci/install-test-deps')


class Block:
    def __init__(self, doc, line, lang, text, file=None):
        self.doc, self.line, self.lang, self.text, self.file = doc, line, lang, text, file

    def where(self):
        return '%s:%d' % (self.doc, self.line)


def markdown_blocks(path, rel):
    blocks = []
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    pending_file = None
    while i < len(lines):
        line = lines[i]
        m = re.match(r'^<!--\s*file:\s*(\S+)\s*-->\s*$', line)
        if m:
            pending_file = m.group(1)
            i += 1
            continue
        m = re.match(r'^(\s*)```(\S*)\s*$', line)
        if m:
            indent, lang = m.group(1), m.group(2)
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and not re.match(r'^\s*```\s*$', lines[i]):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            blocks.append(Block(rel, start, lang, '\n'.join(body) + '\n', pending_file))
            pending_file = None
            i += 1
            continue
        if line.strip():
            pending_file = None
        i += 1
    return blocks


def roff_text(line):
    """A man page's source line as the reader sees it."""
    line = line.replace('\\-', '-').replace('\\e', '\\').replace("\\(aq", "'")
    line = line.replace('\\(dq', '"').replace('\\&', '').replace('\\ ', ' ')
    return line


def man_blocks(path, rel):
    """Each .EX/.EE block; one right after a comment `.\\" file: NAME` is
    that file's text."""
    blocks = []
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        if lines[i].strip() == '.EX':
            m = re.match(r'^\.\\"\s*file:\s*(\S+)\s*$', lines[i - 1]) if i else None
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != '.EE':
                if not lines[i].startswith('.'):
                    body.append(roff_text(lines[i]))
                i += 1
            blocks.append(Block(rel, start, 'sh', '\n'.join(body) + '\n',
                                m.group(1) if m else None))
        i += 1
    return blocks


def copy_tree(root, dest):
    """The repository as a fresh clone has it: tracked files (or, outside
    git, everything but build/ and .git). Returns the names copied."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others',
                              '--exclude-standard'], capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split('\0') if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
    if not names:
        names = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in ('.git', 'build') and not x.startswith('.sconf')]
            names += [os.path.relpath(os.path.join(d, f), root) for f in files]
    copied = []
    for n in names:
        src = os.path.join(root, n)
        if not os.path.isfile(src):
            continue  # a file deleted in the work tree
        os.makedirs(os.path.dirname(os.path.join(dest, n)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, n))
        copied.append(n)
    return copied


class Runner:
    def __init__(self, a):
        self.a = a
        self.failures = 0
        self.demo_built = None  # whether README.md's `scons demo` built a shared library
        self.ran = 0
        self.repo = os.path.join(a.work, 'repo')
        self.home = os.path.join(a.work, 'home')
        self.envfile = os.path.join(a.work, 'env.sh')
        shutil.rmtree(a.work, ignore_errors=True)
        os.makedirs(self.home)
        # The checkout's own files, as copied: no documented command may
        # change one (checkout_untouched).
        self.checkout = {n: self.stamp(n) for n in copy_tree(a.root, self.repo)}
        # kfc and kfplay are not on PATH: README.md's own line puts the ones
        # its `scons demo` built there, as a new user's shell has them. A
        # document run alone (--only) gets this build's instead.
        tools = [os.path.dirname(os.path.abspath(p)) for p in (a.kfc, a.kfplay)]
        path = [d for d in os.environ.get('PATH', '/usr/bin:/bin').split(':')
                if d and not (os.path.exists(os.path.join(d, 'kfc'))
                              or os.path.exists(os.path.join(d, 'kfplay')))]
        if a.only and a.only != 'README.md':
            path = tools + path
        env = {
            'PATH': ':'.join(path),
            'HOME': self.home,
            'LANG': 'C.UTF-8',
            'TERM': 'dumb',
        }
        with open(self.envfile, 'w') as f:
            for k, v in env.items():
                f.write('export %s=%s\n' % (k, shlex.quote(v)))
        self.base_env = env

    def stamp(self, name):
        """A file of the copy as it is now: its size and modification time."""
        try:
            st = os.stat(os.path.join(self.repo, name))
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns

    def fail(self, block, message, output=''):
        self.failures += 1
        print('FAIL: %s (%s block): %s' % (block.where(), block.lang, message))
        if output:
            for line in output.rstrip('\n').split('\n')[-40:]:
                print('    | ' + line)

    def write_file(self, block):
        path = os.path.join(self.repo, block.file)
        os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(block.text)
        return path

    def shell(self, script):
        wrapped = ('set -e\n. %s\ncd %s\n%s\nexport -p > %s.new\n'
                   % (shlex.quote(self.envfile), shlex.quote(self.repo), script,
                      shlex.quote(self.envfile)))
        r = subprocess.run(['bash', '-c', wrapped], env=self.base_env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if r.returncode == 0 and os.path.exists(self.envfile + '.new'):
            os.replace(self.envfile + '.new', self.envfile)
        return r.returncode, r.stdout.decode('utf-8', 'replace')

    def filter_commands(self, block):
        """The block's script, without what is never run (each said)."""
        out = []
        for line in block.text.split('\n'):
            kept = []
            for part in line.split('&&'):
                reason = None
                if part.strip().startswith(INSTALLERS):
                    reason = 'installs packages; CI runs it first'
                for pattern, why in NOT_RUN:
                    if pattern.search(part):
                        reason = why
                if reason:
                    print('%s: not run here: %s (%s)' % (block.where(), part.strip(), reason))
                else:
                    kept.append(part)
            out.append('&&'.join(kept) if kept else ':')
        return '\n'.join(out)

    def run_sh(self, block):
        code, output = self.shell(self.filter_commands(block))
        if code != 0:
            self.fail(block, 'exit status %d' % code, output)

    def run_yaml(self, block):
        path = self.write_file(block) if block.file else os.path.join(self.a.work, 'block.yaml')
        if not block.file:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(block.text)
        r = subprocess.run([self.a.kfc, path, '-o', os.path.join(self.a.work, 'block.kfb')],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            self.fail(block, 'kfc refuses it', r.stdout.decode('utf-8', 'replace'))

    def run_c(self, block):
        path = self.write_file(block) if block.file else os.path.join(self.a.work, 'block.c')
        if not block.file:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(block.text)
        exe = os.path.join(self.a.work, 'block_program')
        cmd = [self.a.cc, '-std=c11', '-Wall', '-Wextra', '-Werror', '-I',
               os.path.join(self.a.root, 'runtime'), '-I', os.path.join(self.a.root, 'offline'),
               path, '-o', exe] + self.a.lib + ['-lz', '-lm', '-lpthread']
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            self.fail(block, 'does not compile', r.stdout.decode('utf-8', 'replace'))
            return
        r = subprocess.run([exe], cwd=self.repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            self.fail(block, 'the program exits %d' % r.returncode,
                      r.stdout.decode('utf-8', 'replace'))

    def run(self, block):
        if block.lang == 'text':
            return
        self.ran += 1
        if block.lang in ('sh', 'console', 'shell', 'bash'):
            if block.file:
                self.write_file(block)
            else:
                self.run_sh(block)
        elif block.lang == 'yaml':
            self.run_yaml(block)
        elif block.lang == 'c':
            self.run_c(block)
        elif block.file:
            self.write_file(block)  # a file a later command uses (an SConstruct)
        else:
            self.fail(block, 'a block in "%s" that nothing runs: tag it text, or name its file'
                      % (block.lang or 'no language'))


def readme_claims(runner):
    """What README.md says of the build, against what the build made in the
    copy: the libraries `scons demo` builds (run by its Quick start block),
    the shared libkf's dependencies, and the units of kfc -e."""
    repo = runner.repo
    readme = open(os.path.join(runner.a.root, 'README.md'), encoding='utf-8').read()
    where = Block('README.md', 1, 'claims', '')
    m = re.search(r'`scons demo` builds (.*?) into', readme, re.S)
    if runner.demo_built is not None and m:
        said = ' '.join(m.group(1).split())
        if not runner.demo_built and 'static' not in said:
            runner.fail(where, '`scons demo` builds no shared library, README.md says it '
                        'builds %s' % said)
    intro = ' '.join(readme.split('\n## ')[0].split())  # before the first section
    shared = os.path.join(repo, 'build', 'release', 'runtime', 'libkf.so')
    if os.path.exists(shared) and shutil.which('readelf'):
        out = subprocess.run(['readelf', '-d', shared], capture_output=True, text=True).stdout
        names = {'libz': 'zlib', 'libisal': 'ISA-L'}
        for lib in re.findall(r'\(NEEDED\).*\[(lib[^.\]]+)', out):
            if lib in names and names[lib] not in intro:
                runner.fail(where, 'libkf.so needs %s; the introduction does not name %s'
                            % (lib, names[lib]))
        if 'libz' not in re.findall(r'\[(lib[^.\]]+)', out) and \
                re.search(r'only dependency is zlib', intro):
            runner.fail(where, 'libkf.so does not need zlib; README.md says it is its only '
                        'dependency')
    kfc_help = subprocess.run([runner.a.kfc, '-h'], capture_output=True, text=True).stdout
    if 'source units' in kfc_help:
        for line in readme.split('\n'):
            if re.search(r'\(metres', line):
                runner.fail(where, 'kfc -h gives translation in source units; README.md says: '
                            + line.strip())


def checkout_untouched(runner):
    """The documented commands write where the documents say (build/, the
    files they name), never over a file of the checkout."""
    changed = [n for n, was in sorted(runner.checkout.items()) if runner.stamp(n) != was]
    if changed:
        runner.fail(Block('(all documents)', 0, 'checkout', ''),
                    'the documented commands changed files of the checkout: %s'
                    % ', '.join(changed))


def ignore_rules(repo):
    """The .gitignore at the top of `repo` as (pattern, anchored, folder
    only) rules (the forms it uses: no negation, no '**')."""
    rules = []
    with open(os.path.join(repo, '.gitignore')) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                rules.append((line.strip('/'), line.startswith('/'), line.endswith('/')))
    return rules


def ignored(rules, name, folder):
    """Whether git ignores `name` (relative, '/'-separated; a folder when
    `folder`), by `rules`, whose folders' contents are ignored with them."""
    parts = name.split('/')
    for pattern, anchored, folder_only in rules:
        for i in range(len(parts)):
            is_folder = folder or i < len(parts) - 1
            if folder_only and not is_folder:
                continue
            if anchored:  # from the top, a component a '/' ('*' stops at one)
                steps = pattern.split('/')
                if len(steps) == i + 1 and all(fnmatch.fnmatchcase(parts[k], steps[k])
                                               for k in range(i + 1)):
                    return True
            elif fnmatch.fnmatchcase(parts[i], pattern):
                return True
    return False


def nothing_untracked(runner):
    """What the documented commands write in the working copy is what
    .gitignore ignores: a user who follows them finds `git status` clean."""
    rules = ignore_rules(runner.repo)
    left = []
    for d, dirs, files in os.walk(runner.repo):
        rel = os.path.relpath(d, runner.repo)
        rel = '' if rel == '.' else rel + '/'
        dirs[:] = [x for x in dirs if not ignored(rules, rel + x, True)]
        left += [rel + f for f in files
                 if rel + f not in runner.checkout and not ignored(rules, rel + f, False)]
    if left:
        runner.fail(Block('(all documents)', 0, 'checkout', ''),
                    'the documented commands leave files .gitignore does not name: %s'
                    % ', '.join(sorted(left)))


def documents(root):
    docs = ['README.md', 'formats/yaml.md', 'formats/kfb.md']
    docs += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, 'docs', '*.md')))
    docs += ['examples/README.md', 'man/kfc.1', 'man/kfplay.1']
    return [d for d in docs if os.path.exists(os.path.join(root, d))]


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--root', required=True)
    p.add_argument('--kfc', required=True)
    p.add_argument('--kfplay', required=True)
    p.add_argument('--cc', default='cc')
    p.add_argument('--lib', action='append', default=[], help='a library C blocks link')
    p.add_argument('--work', required=True)
    p.add_argument('--only', help='one document (for debugging)')
    a = p.parse_args()
    # What the documents' commands use beyond the build.
    for tool, package in (('pkg-config', 'pkg-config'), ('valgrind', 'valgrind'),
                          ('make', 'make'), ('scons', 'scons')):
        if shutil.which(tool) is None:
            print('test_docs: SKIPPED: %s not found (Debian package %s; .ci/install-test-deps '
                  'installs it)' % (tool, package))
            return 77
    runner = Runner(a)
    docs = documents(a.root)
    for doc in docs:
        if a.only and doc != a.only:
            continue
        path = os.path.join(a.root, doc)
        blocks = man_blocks(path, doc) if doc.endswith('.1') else markdown_blocks(path, doc)
        for block in blocks:
            runner.run(block)
            if doc == 'README.md' and 'scons demo' in block.text and runner.demo_built is None:
                runner.demo_built = bool(glob.glob(os.path.join(runner.repo, 'build', 'release',
                                                                '*', 'libkf*.so*')))
        if doc == 'README.md':
            readme_claims(runner)
    checkout_untouched(runner)
    if not a.only:
        nothing_untracked(runner)
    print('test_docs: %d documents, %d blocks run, %d failed' % (len(docs), runner.ran,
                                                               runner.failures))
    return 1 if runner.failures else 0


if __name__ == '__main__':
    sys.exit(main())
