/* kf_precompute.c - spline tangents and squad intermediates (SPEC-NOTES 1.4). */
#include "kf_precompute.h"

#include "kf_math.h"
#include "kfb_format.h"

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

void kf_precompute_spline(const float *times, const float *values, uint32_t count,
                          uint32_t components, double duration, uint32_t repeat,
                          float *out, float *in)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t prev = i ? i - 1 : count - 1;
        uint32_t next = i + 1 < count ? i + 1 : 0;
        double f_in, f_out;
        kf_m3g_time_scales(times, count, duration, repeat, i, &f_in, &f_out);
        for (uint32_t c = 0; c < components; c++) {
            double t = 0.5 * ((double)values[next * components + c] - values[prev * components + c]);
            out[i * components + c] = (float)(f_out * t);
            in[i * components + c] = (float)(f_in * t);
        }
    }
}

static void load_quat(const float *q, double out[4])
{
    for (int i = 0; i < 4; i++)
        out[i] = q[i];
}

void kf_precompute_squad(const float *times, const float *quats, uint32_t count,
                         double duration, uint32_t repeat, float *a, float *b)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t prev = i ? i - 1 : count - 1;
        uint32_t next = i + 1 < count ? i + 1 : 0;
        double qp[4], qi[4], qn[4], inv[4], rel[4];
        load_quat(quats + 4 * prev, qp);
        load_quat(quats + 4 * i, qi);
        load_quat(quats + 4 * next, qn);

        double l_out[3], l_in[3];               /* L+ and L- */
        kf_qconj(qi, inv);
        kf_qmul(inv, qn, rel);
        kf_qlog(rel, l_out);
        kf_qconj(qp, inv);
        kf_qmul(inv, qi, rel);
        kf_qlog(rel, l_in);

        double f_in, f_out;
        kf_m3g_time_scales(times, count, duration, repeat, i, &f_in, &f_out);
        double va[3], vb[3];
        for (int c = 0; c < 3; c++) {
            double centre = 0.5 * (l_out[c] + l_in[c]);
            va[c] = 0.5 * (f_out * centre - l_out[c]);
            vb[c] = 0.5 * (l_in[c] - f_in * centre);
        }
        double e[4], r[4];
        kf_qexp(va, e);
        kf_qmul(qi, e, r);
        for (int c = 0; c < 4; c++)
            a[4 * i + c] = (float)r[c];
        kf_qexp(vb, e);
        kf_qmul(qi, e, r);
        for (int c = 0; c < 4; c++)
            b[4 * i + c] = (float)r[c];
    }
}
