/* SPDX-License-Identifier: MIT */
/*
 * kf_follower_value.c - a follower's values in their working form and back
 * (kf_follower_state.h): shared by the follower's events (kf_follower.c) and
 * its filters (kf_chaser.c, kf_damper.c), which is why it is a file apart.
 */
#include <math.h>

#include "kf_follower_state.h"
#include "kf_math.h"

void kf_follower_take_value(const kf_follower_state *s, const float *in, double *work, float *out)
{
    switch (s->values) {
    case KF_VALUES_ROTATION: {
        double q[4];
        kf_widen(in, 4, q);
        kf_qnormalize(q, work);
        kf_narrow(work, 4, out);
        break;
    }
    case KF_VALUES_COLOR: {
        /* X3D colours live in [0,1]; HSV of anything else means little. */
        double rgb[3];
        for (int i = 0; i < 3; i++) {
            out[i] = in[i] < 0.0f ? 0.0f : in[i] > 1.0f ? 1.0f : in[i];
            rgb[i] = out[i];
        }
        kf_rgb_to_hsv(rgb, work);
        break;
    }
    default:
        for (uint32_t i = 0; i < s->n; i++) {
            work[i] = in[i];
            out[i] = in[i];
        }
        break;
    }
}

void kf_follower_give_value(const kf_follower_state *s, const double *work, float *out)
{
    switch (s->values) {
    case KF_VALUES_ROTATION: {
        double q[4];
        kf_qnormalize(work, q);
        kf_narrow(q, 4, out);
        break;
    }
    case KF_VALUES_COLOR: {
        double hsv[3] = {work[0], fmin(fmax(work[1], 0.0), 1.0), fmin(fmax(work[2], 0.0), 1.0)};
        double rgb[3];
        kf_hsv_to_rgb(hsv, rgb);
        for (int i = 0; i < 3; i++)
            out[i] = (float)rgb[i];
        break;
    }
    default:
        for (uint32_t i = 0; i < s->n; i++)
            out[i] = (float)work[i];
        break;
    }
}
