/* SPDX-License-Identifier: MIT */
/*
 * kfc_sniff.h - what an input is, by its name and its first bytes: a glTF
 * file, an M3G file, an X3D scene (and in which encoding), a kfb source,
 * text at all. kfc's importers claim an input by these tests
 * (kfc_import.h), and kfplay names by them a file it was given that is not
 * a .kfb, so that the two tools agree on what a file is. Nothing here
 * parses, inflates or allocates, and nothing depends on a library: kfplay
 * links this without the importers, and so without libyaml, jansson, expat
 * or zlib.
 */
#ifndef KFC_SNIFF_H
#define KFC_SNIFF_H

#include <stddef.h>

/* 1 when `name` ends in `ext` (written in lower case, with its dot) in any
 * case, with something before it (".gltf" alone is no glTF file's name). */
int kfc_sniff_extension(const char *name, const char *ext);

/* The first index from `i` on that is not a space, tab, CR or LF; from 0,
 * past a UTF-8 byte order mark first. */
size_t kfc_sniff_skip_space(const unsigned char *data, size_t size, size_t i);

/* 1 when the first 4 KiB read as text: no NUL, DEL or control character
 * but tab, line breaks and form feed. Where a file's name alone would
 * say what it is, its bytes must at least be this. */
int kfc_sniff_text(const unsigned char *data, size_t size);

/* 1 when the text starts, past comments and blank lines (and a byte
 * order mark), with "kfb:": a kfb YAML source (formats/yaml.md). */
int kfc_sniff_kfb_source(const unsigned char *data, size_t size);

/* glTF: 1 when the data starts with GLB's magic "glTF". */
int kfc_sniff_gltf_magic(const unsigned char *data, size_t size);
/* 1 when `path` ends in .gltf or .glb (any case); 0 for NULL. */
int kfc_sniff_gltf_name(const char *path);
/* 1 when the data is JSON text of an object with an "asset" key, which
 * every glTF file has, and no "kfb" key (a kfb source written as JSON,
 * which YAML reads too): a glTF file under another name (bounce.json). */
int kfc_sniff_gltf_json(const unsigned char *data, size_t size);
/* kfc's glTF importer's claim: the magic, else the name, else the JSON
 * (last: it is a pass over the text, which a name spares). */
int kfc_sniff_gltf(const char *path, const unsigned char *data, size_t size);

/* The 12 bytes every M3G file starts with. */
extern const unsigned char kfc_m3g_identifier[12];
/* M3G: 1 when the data starts with kfc_m3g_identifier. */
int kfc_sniff_m3g_identifier(const unsigned char *data, size_t size);
/* 1 when `path` ends in .m3g (any case); 0 for NULL. */
int kfc_sniff_m3g_name(const char *path);
/* kfc's M3G importer's claim: the identifier, or the name. */
int kfc_sniff_m3g(const char *path, const unsigned char *data, size_t size);

/* X3D's two encodings. */
typedef enum kfc_sniff_encoding {
    KFC_SNIFF_NOT_X3D,
    KFC_SNIFF_X3D_XML,  /* .x3d */
    KFC_SNIFF_X3D_VRML, /* ClassicVRML (.x3dv) and VRML97 (.wrl) */
} kfc_sniff_encoding;

/* The encoding a name says: .x3d and .x3dz XML; .x3dv, .x3dvz, .wrl and
 * .wrz VRML; each also followed by .gz; any case. NOT_X3D for NULL. */
kfc_sniff_encoding kfc_sniff_x3d_name(const char *path);
/* The encoding the text says: past a byte order mark and white space, a
 * VRML header (kfc_sniff_vrml_header), an <X3D element, or an XML
 * declaration or DOCTYPE with "<X3D" or " X3D" in the first 4 KiB (its
 * prolog and root element). */
kfc_sniff_encoding kfc_sniff_x3d_text(const unsigned char *data, size_t size);
/* 1 when `data` starts with a ClassicVRML or VRML97 header: "#X3D V..." or
 * "#VRML V2.0" (more than one space allowed after the hash word, as
 * browsers allow). */
int kfc_sniff_vrml_header(const char *data, size_t size);
/* 1 when the data starts with gzip's magic bytes. */
int kfc_sniff_gzip(const unsigned char *data, size_t size);
/* The length of the end of `name` that is an X3D extension followed by
 * .gz (".x3d.gz", ".wrl.gz", ".x3dz.gz", any case), or 0: a gzipped
 * scene's default output name drops both. */
size_t kfc_sniff_x3d_gzip_suffix(const char *name);
/* kfc's X3D importer's claim: the name, gzip's magic (X3D is the one
 * gzipped format kfc reads), or the text. */
int kfc_sniff_x3d(const char *path, const unsigned char *data, size_t size);

#endif /* KFC_SNIFF_H */
