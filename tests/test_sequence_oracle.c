/* SPDX-License-Identifier: MIT */
/*
 * test_sequence_oracle.c - every KeyframeSequence case of oracle/m3g.json
 * through the C API: kf_builder -> .kfb bytes -> kf_load_memory -> sample.
 * Checks the stored (normalized) keys, the precomputed tangents and squad
 * intermediates, and every sample by random access and by cursor, forwards
 * and backwards.
 */
#include <stdlib.h>

#include "kf_private.h"
#include "kf_test.h"
#include "m3g_oracle.h"
#include "test_util.h"

#define TOL 1e-5

static void check_values(const char *name, const char *how, double t, const float *got,
                         const double *want, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        CHECK(kf_test_close(got[k], want[k], TOL),
              "%s %s t=%.17g component %u: got %.9g, want %.9g", name, how, t, k, got[k], want[k]);
}

static void run_case(const m3g_case *c)
{
    double *times = calloc(c->key_count, sizeof *times);
    double *values = calloc((size_t)c->key_count * c->components, sizeof *values);
    for (unsigned i = 0; i < c->key_count; i++) {
        times[i] = c->keys[i].t;
        for (unsigned k = 0; k < c->components; k++)
            values[i * c->components + k] = c->keys[i].v[k];
    }
    kf_sequence_desc d = {
        .name = c->name,
        .interpolation = (kf_interpolation)c->interpolation,
        .repeat = (kf_repeat)c->repeat,
        .duration = c->duration,
        .components = c->components,
        .key_count = c->key_count,
        .times = times,
        .values = values,
        .valid_first = c->first,
        .valid_last = c->last,
    };
    kf_anim *anim = test_load_sequence(&d);
    free(times);
    free(values);
    CHECK(anim != NULL, "%s: encode/load", c->name);
    if (!anim)
        return;

    const kf_sequence *s = kf_anim_sequence(anim, 0);
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    CHECK(info.valid_first == c->first && info.valid_last == c->last &&
              info.key_count == c->key_count,
          "%s: info valid range %u..%u", c->name, info.valid_first, info.valid_last);
    for (unsigned i = 0; i < c->key_count; i++) {
        float t, v[M3G_MAX_COMPONENTS];
        kf_sequence_key(s, i, &t, v);
        CHECK(t == (float)c->keys_stored[i].t, "%s key %u time", c->name, i);
        check_values(c->name, "stored key", i, v, c->keys_stored[i].v, c->components);
    }
    /* Precomputed data, white-box: stored key j is authored key first + j. */
    for (unsigned i = 0; i < c->tangent_count; i++) {
        const m3g_tangent *tg = &c->tangents[i];
        unsigned j = (tg->key + c->key_count - c->first) % c->key_count;
        unsigned n = s->components;
        float out[M3G_MAX_COMPONENTS], in[M3G_MAX_COMPONENTS];
        for (unsigned m = 0; m < n; m++) {
            out[m] = kf_key_float(s, s->tangent_out, j, m);
            in[m] = kf_key_float(s, s->tangent_in, j, m);
        }
        check_values(c->name, "out tangent / a", tg->key, out, tg->out, n);
        check_values(c->name, "in tangent / b", tg->key, in, tg->in, n);
    }

    float out[M3G_MAX_COMPONENTS];
    kf_cursor forward = KF_CURSOR_INIT, backward = KF_CURSOR_INIT;
    for (unsigned i = 0; i < c->sample_count; i++) {
        const m3g_sample *sm = &c->samples[i];
        kf_sequence_sample(s, sm->t, NULL, out);
        check_values(c->name, sm->from_rule ? "random (our rule)" : "random", sm->t, out, sm->v,
                     c->components);
        kf_sequence_sample(s, sm->t, &forward, out);
        check_values(c->name, "forward cursor", sm->t, out, sm->v, c->components);
        const m3g_sample *back = &c->samples[c->sample_count - 1 - i];
        kf_sequence_sample(s, back->t, &backward, out);
        check_values(c->name, "backward cursor", back->t, out, back->v, c->components);
    }
    kf_anim_free(anim);
}

int main(void)
{
    if (!m3g_oracle_present) {
        printf("test_sequence_oracle: FAILED: no oracle at %s\n", m3g_oracle_path);
        return 1;
    }
    for (unsigned i = 0; i < m3g_case_count; i++)
        run_case(&m3g_cases[i]);
    CHECK(m3g_case_count > 0, "the oracle holds no sequence case");
    return kf_test_report("test_sequence_oracle");
}
