// SPDX-License-Identifier: MIT
// kf.h and kf_build.h from C++, as a game's engine includes them: they
// compile under the C++ standards' pedantic warnings, their functions link
// with C linkage from the C libraries, and a clip built, encoded, loaded
// and played here gives the values worked out by hand below. Plain C++11:
// no exceptions are needed, and nothing here allocates through new.
#include "kf.h"
#include "kf_build.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace
{

int failures = 0;

void check(bool ok, const char *what)
{
    if (!ok) {
        std::printf("FAIL: %s\n", what);
        failures++;
    }
}

bool near(float a, double b)
{
    return std::fabs(static_cast<double>(a) - b) <= 1e-6;
}

// The encoder's bytes, appended to a vector the caller owns.
int append(void *user, const void *data, size_t size)
{
    std::vector<unsigned char> *out = static_cast<std::vector<unsigned char> *>(user);
    const unsigned char *p = static_cast<const unsigned char *>(data);
    out->insert(out->end(), p, p + size);
    return 0;
}

// A caller's allocator that counts what is live: the load must leave
// exactly what kf_anim_free gives back.
struct counting {
    size_t live;
    size_t calls;
};

void *count_alloc(void *user, size_t size)
{
    counting *c = static_cast<counting *>(user);
    void *p = std::malloc(size);
    if (p) {
        c->live += size;
        c->calls++;
    }
    return p;
}

void count_free(void *user, void *ptr, size_t size)
{
    if (ptr)
        static_cast<counting *>(user)->live -= size;
    std::free(ptr);
}

} // namespace

int main()
{
    kf_builder *b = nullptr;
    check(kf_builder_create(nullptr, &b) == KF_OK, "kf_builder_create");
    if (!b)
        return 1;
    kf_error error;

    // hip: from (0, 0, 0) at 0 s to (2, 4, 6) at 2 s, held after.
    const double times[] = {0.0, 2.0};
    const double values[] = {0.0, 0.0, 0.0, 2.0, 4.0, 6.0};
    kf_sequence_desc s;
    kf_sequence_desc_init(&s);
    s.name = "hip";
    s.interpolation = KF_INTERPOLATION_LINEAR;
    s.duration = 2.0;
    s.components = 3;
    s.key_count = 2;
    s.times = times;
    s.values = values;
    check(kf_builder_add_sequence(b, &s, &error) == KF_OK, "kf_builder_add_sequence");

    // A key time past the duration is refused, with a message.
    const double late[] = {0.0, 3.0};
    kf_sequence_desc bad = s;
    bad.name = "late";
    bad.times = late;
    check(kf_builder_add_sequence(b, &bad, &error) != KF_OK && error.message[0] != '\0',
          "a key after the duration is refused with a message");

    kf_controller_desc c;
    kf_controller_desc_init(&c);
    c.name = "walk";
    check(kf_builder_add_controller(b, &c, &error) == KF_OK, "kf_builder_add_controller");

    kf_track_desc t = {"hip", "walk", "hip.translation", 0};
    check(kf_builder_add_track(b, &t, &error) == KF_OK, "kf_builder_add_track");

    std::vector<unsigned char> file;
    check(kf_builder_encode(b, nullptr, append, &file, &error) == KF_OK && !file.empty(),
          "kf_builder_encode");
    kf_builder_destroy(b);

    counting used = {0, 0};
    const kf_allocator allocator = {count_alloc, count_free, &used};
    kf_load_options options;
    std::memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.allocator = &allocator;
    kf_anim *anim = nullptr;
    check(kf_load_memory(file.data(), file.size(), &options, &anim, &error) == KF_OK,
          "kf_load_memory");
    if (!anim)
        return 1;
    check(used.calls > 0 && used.live > 0, "the load allocates through the caller's allocator");

    // Half the file is no file: an error code and a message, nothing loaded.
    kf_anim *half = reinterpret_cast<kf_anim *>(1);
    check(kf_load_memory(file.data(), file.size() / 2, nullptr, &half, &error) != KF_OK &&
              half == nullptr && error.message[0] != '\0',
          "a truncated file is refused with a message");

    const kf_anim *shared = anim;
    const uint32_t target = kf_anim_find(shared, KF_KIND_TARGET, "hip.translation");
    check(target != KF_NO_INDEX, "kf_anim_find names the target");

    // Sampling the sequence alone: a quarter of the way, and past the end.
    const kf_sequence *hip = kf_anim_sequence(shared, 0);
    kf_cursor cursor = KF_CURSOR_INIT;
    float v[3] = {0, 0, 0};
    kf_sequence_sample(hip, 0.5, &cursor, v);
    check(near(v[0], 0.5) && near(v[1], 1.0) && near(v[2], 1.5), "hip at 0.5 s is (0.5, 1, 1.5)");

    kf_player *player = nullptr;
    check(kf_player_create(shared, nullptr, &player) == KF_OK, "kf_player_create");
    if (player && target != KF_NO_INDEX) {
        kf_player_update(player, 1.5);
        const float *p = kf_player_value(player, target);
        check(p && near(p[0], 1.5) && near(p[1], 3.0) && near(p[2], 4.5),
              "played at 1.5 s: (1.5, 3, 4.5)");
        kf_player_update(player, 5.0);
        p = kf_player_value(player, target);
        check(p && near(p[0], 2.0) && near(p[1], 4.0) && near(p[2], 6.0),
              "played at 5 s, held: (2, 4, 6)");
    }
    kf_player_destroy(player);
    kf_anim_free(anim);
    check(used.live == 0, "kf_anim_free gives back every byte the load took");
    check(std::strlen(kf_version()) > 0 && std::strlen(kf_result_message(KF_ERROR_TRUNCATED)) > 0,
          "kf_version and kf_result_message");

    std::printf("from_cpp: %s\n", failures ? "failed" : "every check passed");
    return failures ? 1 : 0;
}
