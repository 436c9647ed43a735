/* SPDX-License-Identifier: MIT */
/*
 * test_kfc_sniff.c - what kfc and kfplay take an input for
 * (compiler/kfc_sniff.h), on hand-made names and first bytes: the edges of
 * each test (a byte order mark, an extension's case, a header cut short, an
 * X3D root element past the 4 KiB looked at), and the order of kfc's rules
 * (a glTF name before its content). Linked with kfc's core library alone:
 * the module needs no other, as kfplay, which links it, relies on.
 */
#include <string.h>

#include "kf_test.h"
#include "kfc_sniff.h"

#define S(text) (const unsigned char *)(text), sizeof(text) - 1

static void extensions(void)
{
    CHECK(kfc_sniff_extension("a.GlTf", ".gltf"), "any case");
    CHECK(!kfc_sniff_extension(".gltf", ".gltf"), "an extension alone is no name");
    CHECK(!kfc_sniff_extension("a.gltf.bak", ".gltf"), "only at the end");
    CHECK(!kfc_sniff_extension("", ".m3g"), "empty");
    CHECK(kfc_sniff_gltf_name("dir.x/model.glb") && !kfc_sniff_gltf_name(NULL), "glTF names");
    CHECK(kfc_sniff_m3g_name("SWING.M3G") && !kfc_sniff_m3g_name("swing.m3gz") &&
              !kfc_sniff_m3g_name(NULL),
          "M3G names");
    static const struct {
        const char *name;
        kfc_sniff_encoding encoding;
        size_t suffix;
    } x3d[] = {
        {"door.x3d", KFC_SNIFF_X3D_XML, 0},       {"door.X3DZ", KFC_SNIFF_X3D_XML, 0},
        {"door.x3d.gz", KFC_SNIFF_X3D_XML, 7},    {"door.x3dz.GZ", KFC_SNIFF_X3D_XML, 8},
        {"door.x3dv", KFC_SNIFF_X3D_VRML, 0},     {"door.x3dvz", KFC_SNIFF_X3D_VRML, 0},
        {"door.wrl", KFC_SNIFF_X3D_VRML, 0},      {"door.wrz", KFC_SNIFF_X3D_VRML, 0},
        {"door.wrl.gz", KFC_SNIFF_X3D_VRML, 7},   {"door.gz", KFC_SNIFF_NOT_X3D, 0},
        {".x3d.gz", KFC_SNIFF_NOT_X3D, 0},        {"door.kfb.gz", KFC_SNIFF_NOT_X3D, 0},
        {"door.x3d.gz.gz", KFC_SNIFF_NOT_X3D, 0}, {"x3d", KFC_SNIFF_NOT_X3D, 0},
    };
    for (size_t i = 0; i < sizeof x3d / sizeof x3d[0]; i++) {
        CHECK(kfc_sniff_x3d_name(x3d[i].name) == x3d[i].encoding, "%s: encoding %d", x3d[i].name,
              (int)kfc_sniff_x3d_name(x3d[i].name));
        CHECK(kfc_sniff_x3d_gzip_suffix(x3d[i].name) == x3d[i].suffix, "%s: suffix %zu",
              x3d[i].name, kfc_sniff_x3d_gzip_suffix(x3d[i].name));
    }
    CHECK(kfc_sniff_x3d_name(NULL) == KFC_SNIFF_NOT_X3D, "no name");
}

static void text(void)
{
    CHECK(kfc_sniff_skip_space(S("\xEF\xBB\xBF \t\r\n{"), 0) == 7, "a byte order mark, spaces");
    CHECK(kfc_sniff_skip_space(S("  \xEF\xBB\xBF"), 0) == 2, "a byte order mark only first");
    CHECK(kfc_sniff_skip_space(S("ab  c"), 2) == 4, "from an index");
    CHECK(kfc_sniff_text(S("a\tb\r\n\fc")) && !kfc_sniff_text(S("a\0b")) &&
              !kfc_sniff_text(S("a\x7f")) && !kfc_sniff_text(S("\x1f\x8b")),
          "text");
    static unsigned char late[5000];
    memset(late, 'a', sizeof late);
    late[4096] = 0;
    CHECK(kfc_sniff_text(late, sizeof late), "a control byte past 4 KiB is not looked at");
    late[4095] = 0;
    CHECK(!kfc_sniff_text(late, sizeof late), "one within is");
    CHECK(kfc_sniff_kfb_source(S("\xEF\xBB\xBF# a comment\n\n  # another\r\nkfb: 3\n")),
          "a source after comments");
    CHECK(!kfc_sniff_kfb_source(S("# kfb: 3\n")) && !kfc_sniff_kfb_source(S("kfb")) &&
              !kfc_sniff_kfb_source(S("x: 1\nkfb: 3\n")),
          "not a source");
}

static void gltf(void)
{
    CHECK(kfc_sniff_gltf_magic(S("glTF\x02")) && !kfc_sniff_gltf_magic(S("glT")), "GLB magic");
    CHECK(kfc_sniff_gltf_json(S("\xEF\xBB\xBF {\"asset\" :{}}")), "JSON with an asset");
    CHECK(!kfc_sniff_gltf_json(S("{\"assets\": {}}")) &&
              !kfc_sniff_gltf_json(S("[\"asset\": 1]")) && !kfc_sniff_gltf_json(S("{\"asset\" 1}")),
          "no asset key");
    CHECK(!kfc_sniff_gltf_json(S("{\"asset\": {}, \"kfb\": 3}")), "a source written as JSON");
    CHECK(kfc_sniff_gltf("m.gltf", S("")) && kfc_sniff_gltf(NULL, S("{\"asset\":1}")) &&
              kfc_sniff_gltf("m.json", S("{\"asset\":1}")) && !kfc_sniff_gltf("m.json", S("{}")),
          "kfc's glTF rule");
    /* The name is enough: the content is not scanned for a "kfb" key. */
    CHECK(kfc_sniff_gltf("m.gltf", S("{\"asset\": {}, \"kfb\": 3}")), "a glTF name first");
}

static void m3g(void)
{
    static const unsigned char file[] = {0xAB, 0x4A, 0x53, 0x52, 0x31, 0x38, 0x34,
                                         0xBB, 0x0D, 0x0A, 0x1A, 0x0A, 0x00};
    CHECK(kfc_sniff_m3g_identifier(file, sizeof file), "the identifier");
    CHECK(!kfc_sniff_m3g_identifier(file, 11), "cut short");
    CHECK(kfc_sniff_m3g("x.bin", file, sizeof file) && kfc_sniff_m3g("x.m3g", S("junk")) &&
              !kfc_sniff_m3g(NULL, S("junk")),
          "kfc's M3G rule");
}

static void x3d(void)
{
    static const struct {
        const char *text;
        kfc_sniff_encoding encoding;
    } cases[] = {
        {"#VRML V2.0 utf8\n", KFC_SNIFF_X3D_VRML},
        {"\xEF\xBB\xBF\n#X3D V3.3 utf8\n", KFC_SNIFF_X3D_VRML},
        {"#VRML \t V2.0", KFC_SNIFF_X3D_VRML},
        {"#X3D\tV4.0 utf8", KFC_SNIFF_X3D_VRML},
        {"#VRML V1.0 ascii", KFC_SNIFF_NOT_X3D},
        {"#VRMLV2.0", KFC_SNIFF_NOT_X3D},
        {"#X3D ", KFC_SNIFF_NOT_X3D},
        {"<X3D profile='Interchange'>", KFC_SNIFF_X3D_XML},
        {"<?xml version='1.0'?>\n<!DOCTYPE X3D>", KFC_SNIFF_X3D_XML},
        {"<?xml version='1.0'?>\n<x3d/>", KFC_SNIFF_NOT_X3D},
        {"<html><X3D/></html>", KFC_SNIFF_NOT_X3D},
        {"{\"asset\": {}}", KFC_SNIFF_NOT_X3D},
        {"", KFC_SNIFF_NOT_X3D},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const size_t n = strlen(cases[i].text);
        const kfc_sniff_encoding got = kfc_sniff_x3d_text((const unsigned char *)cases[i].text, n);
        CHECK(got == cases[i].encoding, "'%s': %d", cases[i].text, (int)got);
    }
    /* The root element is looked for in the first 4 KiB only. */
    static char prolog[4200];
    memset(prolog, ' ', sizeof prolog);
    memcpy(prolog, "<?xml version='1.0'?>", 21);
    memcpy(prolog + 4092, "<X3D>", 5);
    CHECK(kfc_sniff_x3d_text((const unsigned char *)prolog, sizeof prolog) == KFC_SNIFF_X3D_XML,
          "<X3D ending at 4 KiB");
    memcpy(prolog + 4092, "  <X3D>", 7);
    CHECK(kfc_sniff_x3d_text((const unsigned char *)prolog, sizeof prolog) == KFC_SNIFF_NOT_X3D,
          "<X3D past 4 KiB");
    CHECK(kfc_sniff_gzip(S("\x1f\x8b\x08")) && !kfc_sniff_gzip(S("\x1f")), "gzip's magic");
    CHECK(kfc_sniff_x3d("a.wrl", S("")) && kfc_sniff_x3d(NULL, S("\x1f\x8b")) &&
              kfc_sniff_x3d(NULL, S("<X3D>")) && !kfc_sniff_x3d("a.kfb", S("KFB\0")),
          "kfc's X3D rule");
}

int main(void)
{
    extensions();
    text();
    gltf();
    m3g();
    x3d();
    return kf_test_report("test_kfc_sniff");
}
