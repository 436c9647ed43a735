# SPDX-License-Identifier: MIT
"""The shared libraries' linker version scripts (README.md, "ABI").

Each library exports the functions its header marks KF_API, every one under
the library's single version node, and hides everything else (`local: *`):
a symbol the compiler's visibility let through by mistake stays inside the
library. The node's name comes from SConstruct, beside the SONAME it
follows, and the names from the header, so that neither can drift from
what the build defines.
"""
import re

from SCons.Script import Action

# A declaration of the public API: KF_API, its type, the name, '('.
DECLARATION = re.compile(r'^KF_API\b[^(]*?\b(kf_\w+)\(', re.M)


def version_script(target, source, env):
    """Writes the script: the header's KF_API names, under KF_SYMBOL_NODE."""
    with open(str(source[0])) as f:
        names = DECLARATION.findall(f.read())
    with open(str(target[0]), 'w') as f:
        f.write('%s {\n  global:\n%s  local: *;\n};\n'
                % (env['KF_SYMBOL_NODE'], ''.join('    %s;\n' % n for n in names)))
    return 0


def link_exports(env, header, node, name):
    """Makes the version script NAME.map from `header` with node `node`,
    and has `env` (the shared library's, and only its) link with it.
    Returns the script, which the library must depend on."""
    vmap = env.Command(name + '.map', header,
                       Action(version_script, '$VERSIONMAPCOMSTR', varlist=['KF_SYMBOL_NODE']),
                       KF_SYMBOL_NODE=node)
    env.Append(LINKFLAGS=['-Wl,--version-script=' + vmap[0].abspath])
    return vmap
