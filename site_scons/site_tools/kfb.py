# SPDX-License-Identifier: MIT
"""SCons tool for kfb: compile animation sources with kfc.

    env = Environment(tools=['default', 'kfb'])      # or env.Tool('kfb')
    env.Kfb('walk.kfb', 'walk.yaml')                  # kfc walk.yaml -o walk.kfb
    env.Kfb('walk')                                   # the same: suffixes are added
    env.KfbDecompile('walk2.yaml', 'walk.kfb')        # kfc --decompile

Construction variables:
    KFC           the compiler: a path, or a node built in the same tree (then
                  every output depends on it). Default: 'kfc' on the PATH.
    KFCFLAGS      extra kfc options, e.g. ['-z', '9'].
    KFCCOM, KFCDECOMPILECOM    the command lines.
    KFCCOMSTR, KFCDECOMPILECOMSTR    what to print instead of them.

kfc writes the same bytes for the same source and flags on every machine and
run, so outputs can be built in parallel (scons -j) and shared through
CacheDir.
"""
import os

import SCons.Action
import SCons.Builder


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


def generate(env):
    env.SetDefault(KFC='kfc', KFCFLAGS=[])
    env['KFCCOM'] = '$KFC $KFCFLAGS $SOURCE -o $TARGET'
    env['KFCDECOMPILECOM'] = '$KFC --decompile $KFCFLAGS $SOURCE -o $TARGET'
    env['BUILDERS']['Kfb'] = SCons.Builder.Builder(
        action=SCons.Action.Action('$KFCCOM', '$KFCCOMSTR'),
        suffix='.kfb', src_suffix='.yaml', single_source=True, emitter=_kfc_emitter)
    env['BUILDERS']['KfbDecompile'] = SCons.Builder.Builder(
        action=SCons.Action.Action('$KFCDECOMPILECOM', '$KFCDECOMPILECOMSTR'),
        suffix='.yaml', src_suffix='.kfb', single_source=True, emitter=_kfc_emitter)


def exists(env):
    return env.Detect(env.get('KFC', 'kfc'))
