# SPDX-License-Identifier: MIT
"""SCons tool for kfb: compile animation sources with kfc.

    env = Environment(tools=['default', 'kfb'])      # or env.Tool('kfb')
    env.Kfb('walk.kfb', 'walk.yaml')                  # kfc walk.yaml -o walk.kfb
    env.Kfb('walk')                                   # the same: suffixes are added
    env.Kfb('robot.kfb', 'robot.gltf')                # glTF (and M3G, X3D) import
    env.KfbDecompile('walk2.yaml', 'walk.kfb')        # kfc --decompile

Names found at build time (Glob) are best given as nodes: SCons substitutes
a string it makes a node of, so a file named "${...}" would be Python it runs.

Construction variables:
    KFC           the compiler: a path, or a node built in the same tree (then
                  every output depends on it). Default: 'kfc' on the PATH.
    KFCFLAGS      extra kfc options, e.g. ['-z', '9'].
    KFCCOM, KFCDECOMPILECOM    the command lines, run without a shell: each
                  word (a file's name whole, whatever it holds) is one argument
                  of kfc, and shell syntax in them is no syntax.
    KFCCOMSTR, KFCDECOMPILECOMSTR    what to print instead of them.

Every output depends on every file kfc reads to make it, as kfc reports
them: a glTF file's external buffers, not only the file named. kfc writes the
list beside the output as it compiles (-MD: OUT.kfb.d, a second target of the
builder, which the Kfb method does not return). A target scanner reads it
before each build, so that editing a buffer rebuilds what read it; where it
is missing or older than the source (a first build, a changed source), the
scanner asks kfc (`kfc -M`, which compiles and writes only the rule), so that
even a first build's CacheDir signature holds every file read. A kfb YAML
source names no other file: it is not asked about. After the build the list
kfc wrote becomes the output's recorded dependencies.

kfc writes the same bytes for the same source and flags on every machine and
run, so outputs can be built in parallel (scons -j) and shared through
CacheDir (the dependency list travels with its output).
"""
import os
import subprocess
import sys

import SCons.Action
import SCons.Builder
import SCons.Errors
import SCons.Scanner
import SCons.Util


def _kfc_node(env):
    """The compiler as a node: the one built in this tree, or the file the
    KFC path or name resolves to (through the PATH), or None."""
    kfc = env.get('KFC')
    if kfc is None:
        return None
    if not isinstance(kfc, str):
        return kfc
    path = env.subst(kfc)
    if os.sep not in path:
        path = env.WhereIs(path) or ''
    return env.File(path) if path and os.path.isfile(path) else None


def _kfc_emitter(target, source, env):
    # kfc is an implicit dependency: a different compiler rebuilds every output.
    kfc = _kfc_node(env)
    if kfc is not None:
        env.Depends(target, kfc)
    return target, source


def _depfile_emitter(target, source, env):
    # The dependency file kfc writes beside each output is a target too, so
    # that `scons -c` removes it and CacheDir keeps it with its output.
    # (t.dir.File, not env.File: a name is not substituted, so a '$' in it
    # is a '$', and "${...}" no Python that SCons evaluates.)
    target = list(target) + [t.dir.File(t.name + '.d') for t in target]
    return _kfc_emitter(target, source, env)


def read_depfile(path):
    """The prerequisites of the dependency file at `path` ([] when it is
    missing)."""
    try:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            return parse_depfile(f.read())
    except OSError:
        return []


def parse_depfile(text):
    """The prerequisites of the one rule of a dependency file, read as GNU
    make reads them: a backslash escapes a blank, '#', ':' or itself, "$$"
    is '$', a backslash at the end of a line continues it, and the target
    ends at the first unescaped ':'."""
    text = text.replace('\\\n', ' ')
    names, word, in_target, i = [], [], True, 0
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text) and text[i + 1] in ' \t#:\\':
            word.append(text[i + 1])
            i += 2
            continue
        if c == '$' and text[i + 1:i + 2] == '$':
            word.append('$')
            i += 2
            continue
        if in_target and c == ':':
            in_target, word = False, []
        elif c in ' \t\n':
            if word and not in_target:
                names.append(''.join(word))
            word = []
        else:
            word.append(c)
        i += 1
    if word and not in_target:
        names.append(''.join(word))
    return names


def _dependency_nodes(node, env, names):
    """Nodes for the files `names` lists, but the output's own sources."""
    depfile = node.get_abspath() + '.d'
    sources = {s.get_abspath() for s in node.sources}
    found = []
    # A relative name is relative to where kfc ran: SCons runs it from the
    # top directory.
    top = env.Dir('#').get_abspath()
    for name in names:
        path = os.path.normpath(os.path.join(top, name))
        if path not in sources and path != depfile:
            # A name a glTF file gives its buffer is the file's to choose:
            # taken as it is, not as a string SCons substitutes (env.File).
            found.append(env.fs.File(path))
    return found


def _read_dependencies(node, env):
    """The files kfc last read for output `node`, but its own sources."""
    return _dependency_nodes(node, env, read_depfile(node.get_abspath() + '.d'))


def _names_no_other_file(source):
    """A kfb YAML source: kfc reads nothing but it."""
    return os.path.splitext(str(source))[1].lower() in ('.yaml', '.yml')


def _ask_kfc(node, env):
    """`kfc -M` for output `node`: the files kfc reads to make it, or None
    when it cannot say (no compiler yet, a source that does not compile)."""
    kfc = _kfc_node(env)
    if kfc is None or not os.path.isfile(kfc.get_abspath()):
        return None
    source = node.sources[0]
    flags = [str(f) for f in env.subst_list('$KFCFLAGS', target=node, source=source)[0]]
    command = [kfc.get_abspath()] + flags + ['-w', '-M', '-MF', '-', '-MT', 'out',
                                             source.get_abspath()]
    try:
        r = subprocess.run(command, cwd=env.Dir('#').get_abspath(), env=env['ENV'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return parse_depfile(r.stdout.decode('utf-8', 'surrogateescape'))


def _scan_output(node, env, path=()):
    if str(node).endswith('.d') or not node.sources:
        return []
    source = node.sources[0]
    if _names_no_other_file(source):
        return []
    depfile = node.get_abspath() + '.d'
    try:
        fresh = os.path.getmtime(depfile) >= os.path.getmtime(source.get_abspath())
    except OSError:
        fresh = False
    names = None if fresh else _ask_kfc(node, env)
    if names is None:
        return _read_dependencies(node, env)
    return _dependency_nodes(node, env, names)


def _record_dependencies(target, source, env):
    """After kfc ran: what it read, as it wrote it, joins the outputs'
    recorded dependencies (beside what SCons found itself: the compiler)."""
    for t in target:
        if not str(t).endswith('.d'):
            t.add_to_implicit(_read_dependencies(t, env))
    return 0


def _run_environment(env, target, source):
    """The variables kfc runs with: $ENV, as SCons gives them to a command."""
    resolve = getattr(SCons.Action, '_resolve_shell_env', None)  # SCons 4.4 on
    ENV = resolve(env, target, source) if resolve else SCons.Action.get_default_ENV(env)
    run_env = {}
    for key, value in ENV.items():
        if SCons.Util.is_List(value):
            value = os.pathsep.join(map(str, SCons.Util.flatten_sequence(value)))
        run_env[key] = str(value)
    return run_env


class _NoShellCommand(SCons.Action.CommandAction):
    """A command line as SCons substitutes, prints and signs it, run as an
    argument list rather than through `sh -c`: SCons's quoting leaves a
    backtick live (a source named y`id`.yaml would run id), and no name
    of a source or target may be a command."""

    def execute(self, target, source, env, executor=None):
        if executor:
            target = executor.get_all_targets()
            source = executor.get_all_sources()
        cmd_list, ignore, _ = self.process(target, list(map(SCons.Action.rfile, source)), env,
                                           executor)
        run_env = _run_environment(env, target, source)
        for argv in filter(len, cmd_list):
            argv = [str(word) for word in argv]
            try:
                status = subprocess.call(argv, env=run_env)
            except OSError as e:
                # (what a shell says and returns for a command it cannot run)
                sys.stderr.write('scons: %s: %s\n' % (argv[0], e.strerror))
                status = 127 if isinstance(e, FileNotFoundError) else 126
            if status and not ignore:
                return SCons.Errors.BuildError(errstr='Error %s' % status, status=status,
                                               action=self, command=argv)
        return 0

    def get_presig(self, target, source, env, executor=None):
        # SCons signs the command as text it parses again, where a name
        # holding "$(" is refused as unbalanced: the names are signed
        # beside the command, as they are.
        if executor:
            target = executor.get_all_targets()
            source = executor.get_all_sources()
        names = '\0'.join(str(n) for n in list(target) + list(source))
        return super().get_presig([], [], env) + '\0' + names


def _kfb(env, target=None, source=None, **kw):
    """env.Kfb: the outputs, without their dependency files."""
    nodes = env._KfbBuild(target, source, **kw)
    return [n for n in nodes if not str(n).endswith('.kfb.d')]


def generate(env):
    env.SetDefault(KFC='kfc', KFCFLAGS=[])
    env['KFCCOM'] = '$KFC $KFCFLAGS -MD -MF ${TARGETS[1]} $SOURCE -o ${TARGETS[0]}'
    env['KFCDECOMPILECOM'] = '$KFC --decompile $KFCFLAGS $SOURCE -o $TARGET'
    env['BUILDERS']['_KfbBuild'] = SCons.Builder.Builder(
        action=[_NoShellCommand('$KFCCOM', cmdstr='$KFCCOMSTR'),
                SCons.Action.Action(_record_dependencies, None)],
        suffix='.kfb', src_suffix='.yaml', single_source=True, emitter=_depfile_emitter,
        target_scanner=SCons.Scanner.Scanner(_scan_output, name='kfc -MD'))
    env.AddMethod(_kfb, 'Kfb')
    env['BUILDERS']['KfbDecompile'] = SCons.Builder.Builder(
        action=_NoShellCommand('$KFCDECOMPILECOM', cmdstr='$KFCDECOMPILECOMSTR'),
        suffix='.yaml', src_suffix='.kfb', single_source=True, emitter=_kfc_emitter)


def exists(env):
    return env.Detect(env.get('KFC', 'kfc'))
