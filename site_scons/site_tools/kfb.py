# SPDX-License-Identifier: MIT
"""SCons tool for kfb: compile animation sources with kfc.

    env = Environment(tools=['default', 'kfb'])      # or env.Tool('kfb')
    env.Kfb('walk.kfb', 'walk.yaml')                  # kfc walk.yaml -o walk.kfb
    env.Kfb('walk')                                   # the same: suffixes are added
    env.Kfb('robot.kfb', 'robot.gltf')                # glTF (and M3G, X3D) import
    env.KfbDecompile('walk2.yaml', 'walk.kfb')        # kfc --decompile

Construction variables:
    KFC           the compiler: a path, or a node built in the same tree (then
                  every output depends on it). Default: 'kfc' on the PATH.
    KFCFLAGS      extra kfc options, e.g. ['-z', '9'].
    KFCCOM, KFCDECOMPILECOM    the command lines.
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

import SCons.Action
import SCons.Builder
import SCons.Scanner


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
    target = list(target) + [env.File(str(t) + '.d') for t in target]
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
            found.append(env.File(path))
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


def _kfb(env, target=None, source=None, **kw):
    """env.Kfb: the outputs, without their dependency files."""
    nodes = env._KfbBuild(target, source, **kw)
    return [n for n in nodes if not str(n).endswith('.kfb.d')]


def generate(env):
    env.SetDefault(KFC='kfc', KFCFLAGS=[])
    env['KFCCOM'] = '$KFC $KFCFLAGS -MD -MF ${TARGETS[1]} $SOURCE -o ${TARGETS[0]}'
    env['KFCDECOMPILECOM'] = '$KFC --decompile $KFCFLAGS $SOURCE -o $TARGET'
    env['BUILDERS']['_KfbBuild'] = SCons.Builder.Builder(
        action=[SCons.Action.Action('$KFCCOM', '$KFCCOMSTR'),
                SCons.Action.Action(_record_dependencies, None)],
        suffix='.kfb', src_suffix='.yaml', single_source=True, emitter=_depfile_emitter,
        target_scanner=SCons.Scanner.Scanner(_scan_output, name='kfc -MD'))
    env.AddMethod(_kfb, 'Kfb')
    env['BUILDERS']['KfbDecompile'] = SCons.Builder.Builder(
        action=SCons.Action.Action('$KFCDECOMPILECOM', '$KFCDECOMPILECOMSTR'),
        suffix='.yaml', src_suffix='.kfb', single_source=True, emitter=_kfc_emitter)


def exists(env):
    return env.Detect(env.get('KFC', 'kfc'))
