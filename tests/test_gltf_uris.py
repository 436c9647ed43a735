# SPDX-License-Identifier: MIT
"""A glTF buffer URI reaches only a regular file inside the document's
folder (or the folder --asset-root names), of exactly byteLength bytes.

The test builds a sandbox: a document folder beside a secret file, with
symbolic links pointing in and out (relative and absolute, to files and
to folders), a FIFO, a socket and a link loop. Each URI is compiled: the
ones that stay inside compile to the same bytes as the plain file name;
every other is refused with the JSON pointer of the URI and a message
naming it (percent-encoded escapes, absolute paths, schemes, '..' past the
root, links out, devices, /proc, sizes that differ from byteLength), never
blocks, and leaves no output. Image URIs are never opened: a document whose
images name a FIFO and /dev/zero compiles."""
import base64
import json
import os
import socket
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

TIMEOUT = 30  # a refusal is immediate; a blocked open would hang until this
DATA = struct.pack('<2f', 0, 1) + struct.pack('<6f', 0, 0, 0, 1, 2, 3)
SECRET = b'SECRET-' * 4 + b'XXXX'  # as long as DATA: only the path keeps it out


def document(uri, length=len(DATA), images=None):
    g = {'asset': {'version': '2.0'}, 'nodes': [{'name': 'a'}],
         'buffers': [{'byteLength': length, 'uri': uri}],
         'bufferViews': [{'buffer': 0, 'byteOffset': 0, 'byteLength': 8},
                         {'buffer': 0, 'byteOffset': 8, 'byteLength': 24}],
         'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 2, 'type': 'SCALAR'},
                       {'bufferView': 1, 'componentType': 5126, 'count': 2, 'type': 'VEC3'}],
         'animations': [{'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'translation'}}],
                         'samplers': [{'input': 0, 'output': 1}]}]}
    if images:
        g['images'] = [{'uri': u} for u in images]
    return json.dumps(g)


def sandbox(work):
    root = os.path.join(work, 'root')
    doc = os.path.join(root, 'doc')
    for d in (os.path.join(doc, 'sub'), os.path.join(root, 'other'), os.path.join(root, 'docs')):
        os.makedirs(d)
    for path, data in ((os.path.join(doc, 'data.bin'), DATA),
                       (os.path.join(doc, 'sub', 'data.bin'), DATA),
                       (os.path.join(root, 'other', 'data.bin'), DATA),
                       (os.path.join(root, 'docs', 'data.bin'), DATA),
                       (os.path.join(root, 'secret.bin'), SECRET)):
        with open(path, 'wb') as f:
            f.write(data)
    links = {'in_link.bin': 'sub/data.bin', 'abs_in.bin': os.path.join(doc, 'sub', 'data.bin'),
             'dir_link': 'sub', 'out_link.bin': '../secret.bin',
             'abs_out.bin': os.path.join(root, 'secret.bin'), 'up': '..', 'loop': 'loop',
             'dev_link': '/dev/zero',
             # The folder spelled through a link outside it, and a sibling
             # whose name the folder's is a prefix of.
             'abs_alias.bin': os.path.join(root, 'alias', 'data.bin'),
             'abs_sibling.bin': os.path.join(root, 'docs', 'data.bin'),
             # A link whose target names a file with a '/' after it.
             'slash_link.bin': 'sub/data.bin/'}
    for name, target in links.items():
        os.symlink(target, os.path.join(doc, name))
    os.symlink('doc', os.path.join(root, 'alias'))
    os.mkfifo(os.path.join(doc, 'fifo.bin'))
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(os.path.join(doc, 'sock.bin'))
    return root, doc, sock


def main():
    a = driver.arguments()
    c = driver.Checks()
    root, doc, sock = sandbox(a.work)
    gltf = os.path.join(doc, 'm.gltf')
    out = os.path.join(a.work, 'out.kfb')

    def compile_uri(uri, length=len(DATA), extra=(), images=None):
        with open(gltf, 'w') as f:
            f.write(document(uri, length, images))
        if os.path.exists(out):
            os.remove(out)
        try:
            r = subprocess.run([a.kfc] + list(extra) + [gltf, '-o', out], capture_output=True,
                               stdin=subprocess.DEVNULL, text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return None, 'blocked for %d s' % TIMEOUT, None
        data = open(out, 'rb').read() if os.path.exists(out) else None
        return r.returncode, r.stderr, data

    rc, err, reference = compile_uri('data.bin')
    c.check(rc == 0 and reference, 'the plain name compiles: %s' % err)
    # A document on standard input has no folder: its URIs resolve against
    # the current directory, which is also the root.
    for cwd, uri, want in ((doc, 'data.bin', ''),
                           (root, 'data.bin', "<stdin>: /buffers/0/uri: error: cannot read URI "
                                              "'data.bin': No such file or directory (looked for "
                                              "under '%s')\n" % os.path.realpath(root)),
                           (os.path.join(doc, 'sub'), '../data.bin',
                            "<stdin>: /buffers/0/uri: error: URI '../data.bin' leads outside the "
                            "folder '%s' (kfc --asset-root DIR reads from DIR and the folders in "
                            "it)\n" % os.path.realpath(os.path.join(doc, 'sub')))):
        with open(gltf, 'w') as f:
            f.write(document(uri))
        with open(gltf) as f:
            r = subprocess.run([a.kfc, '-', '-o', out], stdin=f, capture_output=True, text=True,
                               cwd=cwd, timeout=TIMEOUT)
        data = open(out, 'rb').read() if os.path.exists(out) else None
        c.check(r.stderr == want and (data == reference if not want else r.returncode != 0),
                'standard input in %s naming %r: %d %r' % (cwd, uri, r.returncode, r.stderr))
        if os.path.exists(out):
            os.remove(out)

    # A reference's dot segments are resolved from its text (RFC 3986): a
    # folder it names and leaves need not exist.
    inside = ['sub/data.bin', 'sub/../data.bin', './data.bin', 'sub//data.bin', 'sub%2Fdata.bin',
              '%64ata.bin', 'in_link.bin', 'abs_in.bin', 'dir_link/data.bin', 'dir_link/../data.bin',
              'nosub/../data.bin', 'nosub/deeper/../../sub/./data.bin']
    for uri in inside:
        rc, err, data = compile_uri(uri)
        c.check(rc == 0 and data == reference, '%r stays inside: exit %s, %s' % (uri, rc, err))
    # The data URIs glTF 2.0 allows a buffer (either media type, in any
    # case, and the scheme and ';base64' in any case too) hold the same
    # bytes; another media type is refused.
    for scheme, media, encoding in (('data', 'application/octet-stream', 'base64'),
                                    ('data', 'application/gltf-buffer', 'base64'),
                                    ('data', 'Application/GLTF-Buffer', 'base64'),
                                    ('DATA', 'application/octet-stream', 'BASE64'),
                                    ('Data', 'application/gltf-buffer', 'Base64')):
        uri = '%s:%s;%s,%s' % (scheme, media, encoding, base64.b64encode(DATA).decode())
        rc, err, data = compile_uri(uri)
        c.check(rc == 0 and data == reference, '%s compiles: exit %s, %s' % (uri[:40], rc, err))
    rc, err, data = compile_uri('data:text/plain;base64,' + base64.b64encode(DATA).decode())
    c.check(rc == 1 and "/buffers/0/uri: error: a buffer's data URI must be" in err and
            "not 'data:text/plain'" in err, 'data:text/plain is refused: exit %s, %s' % (rc, err))
    # With the root one folder up, '..' may climb to it (and a link may point
    # into it).
    # An absolute link is judged by its text, which must name a path inside
    # the root's real path: kfc looks at nothing outside the root, so the
    # link outside it that abs_alias.bin goes through is followed only once
    # it is inside.
    for uri, ok in (('../other/data.bin', True), ('out_link.bin', True), ('up/other/data.bin', True),
                    ('abs_alias.bin', True), ('abs_sibling.bin', True),
                    ('../../secret.bin', False), ('../doc/../../x.bin', False)):
        rc, err, data = compile_uri(uri, len(SECRET) if 'out_link' in uri else len(DATA),
                                    ['--asset-root', root])
        if ok:
            c.check(rc == 0 and data, '--asset-root: %r compiles: %s' % (uri, err))
        else:
            c.check(rc == 1 and 'leads outside the folder' in err and data is None,
                    '--asset-root: %r refused: %s' % (uri, err))

    secret = os.path.join(root, 'secret.bin')
    refused = [
        ('../secret.bin', 1, "URI '../secret.bin' leads outside the folder"),
        ('%2e%2e/secret.bin', 1, "URI '%2e%2e/secret.bin' leads outside the folder"),
        ('%2E%2E%2Fsecret.bin', 1, 'leads outside the folder'),
        ('sub/../../secret.bin', 1, 'leads outside the folder'),
        ('nosub/../../secret.bin', 1, 'leads outside the folder'),
        ('nosub/../../nothere.bin', 1, 'leads outside the folder'),
        ('data.bin/.', 1, "URI 'data.bin/.' names a folder, not a regular file"),
        ('up/secret.bin', 1, "URI 'up/secret.bin' leads outside the folder"),
        ('out_link.bin', 1, "URI 'out_link.bin' leads outside the folder"),
        ('abs_out.bin', 1, 'goes through a symbolic link that leads outside the folder'),
        ('dev_link', 1, 'goes through a symbolic link that leads outside the folder'),
        ('abs_alias.bin', 1, 'goes through a symbolic link that leads outside the folder'),
        ('abs_sibling.bin', 1, 'goes through a symbolic link that leads outside the folder'),
        (secret, 1, 'is an absolute path; a reference must be relative'),
        (secret.replace('/', '%2F'), 1, 'is an absolute path once decoded'),
        ('//host/share/x.bin', 1, 'is an absolute path'),
        ('file://' + secret, 1, 'has a scheme'),
        ('http://example.com/x.bin', 1, 'has a scheme'),
        ('C:x.bin', 1, 'has a scheme'),
        ('fifo.bin', 1, "URI 'fifo.bin' names a FIFO, not a regular file"),
        ('sock.bin', 1, "URI 'sock.bin' names a socket, not a regular file"),
        ('sub', 1, "URI 'sub' names a folder, not a regular file"),
        ('sub/', 1, 'names a folder'),
        # A file with a '/' after its name (the system's "not a folder"):
        # the '/' is the slip, not the file.
        ('data.bin/', 1, "URI 'data.bin/' ends in '/', but 'data.bin' is a file (remove the '/')"),
        ('sub/data.bin//', 1, "URI 'sub/data.bin//' ends in '/', but 'sub/data.bin' is a file"),
        ('data.bin%2F', 1, "URI 'data.bin%2F' ends in '/', but 'data.bin' is a file"),
        ('in_link.bin/', 1, "URI 'in_link.bin/' ends in '/', but 'in_link.bin' is a file"),
        ('slash_link.bin', 1, "URI 'slash_link.bin' goes through a symbolic link to a file by a "
                              "name that ends in '/'"),
        ('fifo.bin/', 1, "URI 'fifo.bin/' names a FIFO, not a regular file"),
        ('dir_link/', 1, "URI 'dir_link/' names a folder, not a regular file"),
        ('loop', 1, "URI 'loop' goes through too many symbolic links"),
        ('a%00b.bin', 1, 'has a NUL byte'),
        ('a%zzb.bin', 1, "has a '%' that is not a percent-escape"),
        ('data.bin%4', 1, "has a '%' that is not a percent-escape"),
        ('data.bin?x=1', 1, 'has a query or a fragment'),
        ('data.bin#x', 1, 'has a query or a fragment'),
        ('', 1, "URI '' is empty"),
        ('no\nthere.bin', 3, "cannot read URI 'no\\x0athere.bin'"),
        ('nowhere.bin', 3, "cannot read URI 'nowhere.bin': No such file or directory (looked "
                           "for under '%s')" % os.path.realpath(doc)),
        ('sub\\data.bin', 3, "(looked for under '%s'; URIs separate folders with '/', not "
                              "'\\\\')" % os.path.realpath(doc)),
    ]
    for uri, want_rc, want in refused:
        rc, err, data = compile_uri(uri)
        c.check(rc == want_rc and '/buffers/0/uri: error: ' in err and want in err
                and data is None and err.count('\n') == 1,
                '%r: want exit %d and "%s", got %s: %r' % (uri, want_rc, want, rc, err))
    # Sizes: exactly byteLength, checked before reading.
    for length in (len(DATA) - 1, len(DATA) + 1, 1 << 30):
        rc, err, data = compile_uri('data.bin', length)
        c.check(rc == 1 and ('names a file of %d bytes, not the %d the reference states'
                             % (len(DATA), length)) in err,
                'byteLength %d: %s' % (length, err))
    # The machine's devices and kernel files, reachable only once the user
    # names / as the root.
    up = '../' * (os.path.abspath(doc).count('/'))
    for path, want in (('dev/zero', 'names a device'), ('dev/null', 'names a device'),
                       ('dev/stdin', 'not a regular file'),
                       ('proc/self/environ', 'names a file of /proc, /sys'),
                       ('proc/self/status', 'names a file of /proc, /sys')):
        if not os.path.exists('/' + path):
            continue
        rc, err, data = compile_uri(up + path, 1 << 20, ['--asset-root', '/'])
        c.check(rc == 1 and want in err and data is None, '/%s: %s' % (path, err))
    # The document outside the root.
    rc, err, data = compile_uri('data.bin', extra=['--asset-root', os.path.join(root, 'other')])
    c.check(rc == 1 and 'the input is not inside' in err, 'document outside the root: %s' % err)
    rc, err, data = compile_uri('data.bin', extra=['--asset-root', os.path.join(root, 'nowhere')])
    c.check(rc == 3 and 'cannot use the folder' in err, 'a root that does not exist: %s' % err)
    # Images are not animation data: never opened, whatever they name.
    rc, err, data = compile_uri('data.bin', images=['fifo.bin', '/dev/zero', '../secret.bin'])
    c.check(rc == 0 and data == reference, 'image URIs are not opened: %s' % err)
    sock.close()
    print('test_gltf_uris: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
