/* SPDX-License-Identifier: MIT */
/* kf_precompute.c - Hermite tangents and squad intermediates (kf_precompute.h). */
#include "kf_precompute.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "kf_math.h"
#include "kfb_format.h"

const kf_tangent_weights kf_catmull_rom_weights = {0.5, 0.5, 0.5, 0.5};

/* Eberly's (2) and (3), as his PosSpline/RotSpline code computes them:
 * continuity enters the outgoing tangent's backward difference as (1 + c)
 * and its forward one as (1 - c), and the incoming tangent the other way
 * round, so c != 0 makes the two tangents of a key differ (a corner). */
void kf_tcb_weights(double tension, double continuity, double bias, kf_tangent_weights *w)
{
    const double t = 1.0 - tension;
    w->out_prev = 0.5 * t * (1.0 + continuity) * (1.0 + bias);
    w->out_next = 0.5 * t * (1.0 - continuity) * (1.0 - bias);
    w->in_prev = 0.5 * t * (1.0 - continuity) * (1.0 + bias);
    w->in_next = 0.5 * t * (1.0 + continuity) * (1.0 - bias);
}

void kf_key_tangents(const float *prev, const float *cur, const float *next, uint32_t components,
                     const kf_tangent_weights *w, double f_in, double f_out, float *out, float *in)
{
    for (uint32_t c = 0; c < components; c++) {
        double d_prev = (double)cur[c] - prev[c], d_next = (double)next[c] - cur[c];
        out[c] = (float)(f_out * (w->out_prev * d_prev + w->out_next * d_next));
        in[c] = (float)(f_in * (w->in_prev * d_prev + w->in_next * d_next));
    }
}

void kf_key_velocity_tangents(const double *velocity, uint32_t components, double f_in,
                              double f_out, float *out, float *in)
{
    for (uint32_t c = 0; c < components; c++) {
        out[c] = (float)(f_out * velocity[c]);
        in[c] = (float)(f_in * velocity[c]);
    }
}

/* q (x) exp(v), stored as float. */
static void times_exp(const double q[4], const double v[3], float *out)
{
    double e[4], r[4];
    kf_qexp(v, e);
    kf_qmul(q, e, r);
    kf_narrow(r, 4, out);
}

/* log(from^-1 to) of two keys: L+ of `from`'s key, L- of `to`'s. */
static void relative_log(const float *from, const float *to, double out[3])
{
    double qf[4], qt[4], inv[4], rel[4];
    kf_widen(from, 4, qf);
    kf_widen(to, 4, qt);
    kf_qconj(qf, inv);
    kf_qmul(inv, qt, rel);
    kf_qlog(rel, out);
}

static void squad_of_logs(const float *cur, const double l_prev[3], const double l_next[3],
                          const kf_tangent_weights *w, double f_in, double f_out, float *a,
                          float *b)
{
    double qi[4];
    kf_widen(cur, 4, qi);
    double va[3], vb[3];
    for (int c = 0; c < 3; c++) {
        double t_out = w->out_prev * l_prev[c] + w->out_next * l_next[c];
        double t_in = w->in_prev * l_prev[c] + w->in_next * l_next[c];
        va[c] = 0.5 * (f_out * t_out - l_next[c]);
        vb[c] = 0.5 * (l_prev[c] - f_in * t_in);
    }
    times_exp(qi, va, a);
    times_exp(qi, vb, b);
}

void kf_key_squad(const float *prev, const float *cur, const float *next,
                  const kf_tangent_weights *w, double f_in, double f_out, float *a, float *b)
{
    double l_next[3], l_prev[3]; /* L+ and L- */
    relative_log(cur, next, l_next);
    relative_log(prev, cur, l_prev);
    squad_of_logs(cur, l_prev, l_next, w, f_in, f_out, a, b);
}

/* Length of the segment that starts at valid key i. The last key's segment
 * is the wrap interval to the first key of the next period. */
static double segment_length(const float *times, uint32_t count, double duration, uint32_t i)
{
    if (i + 1 < count)
        return (double)times[i + 1] - times[i];
    return duration - times[count - 1] + times[0];
}

void kf_m3g_time_scales(const float *times, uint32_t count, double duration, uint32_t repeat,
                        uint32_t i, double *f_in, double *f_out)
{
    *f_in = *f_out = 0.0;
    if (repeat != KFB_REPEAT_LOOP && (i == 0 || i == count - 1))
        return;
    uint32_t prev = i ? i - 1 : count - 1;
    double d_prev = segment_length(times, count, duration, prev);
    double d_this = segment_length(times, count, duration, i);
    double sum = d_prev + d_this;
    if (sum == 0.0)
        return;
    *f_in = 2.0 * d_prev / sum;
    *f_out = 2.0 * d_this / sum;
}

static void key_weights(const float *tcb, uint32_t i, kf_tangent_weights *w)
{
    if (tcb)
        kf_tcb_weights(tcb[3 * i], tcb[3 * i + 1], tcb[3 * i + 2], w);
    else
        *w = kf_catmull_rom_weights;
}

/* What M3G's rule gives valid key i: its cyclic neighbours, time-scale
 * factors and neighbour weights (Catmull-Rom, or Kochanek-Bartels). */
typedef struct m3g_key {
    uint32_t prev, next;
    double f_in, f_out;
    kf_tangent_weights w;
} m3g_key;

static m3g_key m3g_key_at(const float *times, const float *tcb, uint32_t count, double duration,
                          uint32_t repeat, uint32_t i)
{
    m3g_key k;
    k.prev = i ? i - 1 : count - 1;
    k.next = i + 1 < count ? i + 1 : 0;
    kf_m3g_time_scales(times, count, duration, repeat, i, &k.f_in, &k.f_out);
    key_weights(tcb, i, &k.w);
    return k;
}

void kf_precompute_spline(const float *times, const float *values, const float *tcb, uint32_t count,
                          uint32_t components, double duration, uint32_t repeat, float *out,
                          float *in)
{
    for (uint32_t i = 0; i < count; i++) {
        const m3g_key k = m3g_key_at(times, tcb, count, duration, repeat, i);
        kf_key_tangents(values + (size_t)k.prev * components, values + (size_t)i * components,
                        values + (size_t)k.next * components, components, &k.w, k.f_in, k.f_out,
                        out + (size_t)i * components, in + (size_t)i * components);
    }
}

void kf_precompute_squad(const float *times, const float *quats, const float *tcb, uint32_t count,
                         double duration, uint32_t repeat, float *a, float *b)
{
    if (count == 0)
        return;
    /* A key's L- is its predecessor's L+ (both log(q[i-1]^-1 q[i])), and
     * key 0's the last key's: each is computed once, the same operations
     * kf_key_squad does. The logs are most of squad's cost. */
    double l_prev[3], l_next[3];
    relative_log(quats + 4 * (size_t)(count - 1), quats, l_prev);
    for (uint32_t i = 0; i < count; i++) {
        const m3g_key k = m3g_key_at(times, tcb, count, duration, repeat, i);
        relative_log(quats + 4 * (size_t)i, quats + 4 * (size_t)k.next, l_next);
        squad_of_logs(quats + 4 * (size_t)i, l_prev, l_next, &k.w, k.f_in, k.f_out,
                      a + 4 * (size_t)i, b + 4 * (size_t)i);
        memcpy(l_prev, l_next, sizeof l_prev);
    }
}
