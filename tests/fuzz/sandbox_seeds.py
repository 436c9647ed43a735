#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz_gltf that read the buffer files of its sandbox folder
(fuzz_gltf.c), as documents and as URIs alone: a mutation or two (a piece
from gltf.dict) away from the ways out of the folder kfc must refuse.

usage: sandbox_seeds.py OUT_DIR          (fuzz_gltf)
       sandbox_seeds.py --uris OUT_DIR   (fuzz_files: URIs alone; byte 2 first:
                                          the sandbox's root is the root)"""
import json
import os
import sys


def document(uri, length, path='translation', components='VEC3'):
    return {'asset': {'version': '2.0'}, 'nodes': [{'name': 'n'}],
            'buffers': [{'byteLength': length, 'uri': uri}],
            'bufferViews': [{'buffer': 0, 'byteLength': 8},
                            {'buffer': 0, 'byteOffset': 8, 'byteLength': length - 8}],
            'accessors': [{'bufferView': 0, 'componentType': 5126, 'count': 2, 'type': 'SCALAR'},
                          {'bufferView': 1, 'componentType': 5126, 'count': 2, 'type': components}],
            'animations': [{'channels': [{'sampler': 0, 'target': {'node': 0, 'path': path}}],
                            'samplers': [{'input': 0, 'output': 1}]}]}


URIS = ['data.bin', 'sub/data.bin', 'in.bin', 'sub/../quat.bin', '%64ata.bin', 'bytes.bin']
WIDER = ['../data.bin', 'up/secret.bin', 'out.bin', 'sub/out.bin']


def main():
    if sys.argv[1] == '--uris':
        out = sys.argv[2]
        os.makedirs(out, exist_ok=True)
        for i, uri in enumerate(URIS):
            with open(os.path.join(out, 'uri%d' % i), 'wb') as f:
                f.write(uri.encode())
        for i, uri in enumerate(WIDER):
            with open(os.path.join(out, 'wider%d' % i), 'wb') as f:
                f.write(b'\x02' + uri.encode())
        return
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {'sandbox_data.gltf': document('data.bin', 32),
             'sandbox_sub.gltf': document('sub/data.bin', 32),
             'sandbox_link.gltf': document('in.bin', 32),
             'sandbox_quat.gltf': document('quat.bin', 40, 'rotation', 'VEC4')}
    for name, doc in seeds.items():
        with open(os.path.join(out, name), 'w') as f:
            json.dump(doc, f, separators=(',', ':'))
    # Byte 1, then a URI: fuzz_gltf puts it in a document of its own.
    for name, uri in (('uri_data', 'data.bin'), ('uri_sub', 'sub/data.bin'), ('uri_link', 'in.bin')):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(b'\x01' + uri.encode())


if __name__ == '__main__':
    main()
