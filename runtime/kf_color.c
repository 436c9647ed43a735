/* SPDX-License-Identifier: MIT */
/*
 * kf_color.c - RGB <-> HSV (Foley and van Dam's hexcone), shared by the
 * precomputation of ColorInterpolator keys and their sampling.
 *
 * Hue is measured in sectors of the hexcone (sixths of a turn, pi/3 rad):
 * the hexcone formulas then need no multiplication by pi, so the primary and
 * secondary colours get exact hues and two complementary ones are exactly 3
 * apart, which is what the "exactly half a turn goes the direct way" rule
 * of docs/math.md §3.3 needs to be decidable.
 */
#include <math.h>

#include "kf_math.h"

void kf_rgb_to_hsv(const double rgb[3], double hsv[3])
{
    const double r = rgb[0], g = rgb[1], b = rgb[2];
    const double max = fmax(r, fmax(g, b)), min = fmin(r, fmin(g, b)), delta = max - min;
    double h = 0.0;
    if (delta > 0.0) {
        if (max == r)
            h = (g - b) / delta;
        else if (max == g)
            h = 2.0 + (b - r) / delta;
        else
            h = 4.0 + (r - g) / delta;
        if (h < 0.0)
            h += 6.0;
    }
    hsv[0] = h;
    hsv[1] = max > 0.0 ? delta / max : 0.0;
    hsv[2] = max;
}

void kf_hsv_to_rgb(const double hsv[3], double rgb[3])
{
    const double s = hsv[1], v = hsv[2];
    double x = fmod(hsv[0], 6.0);
    if (x < 0.0)
        x += 6.0;
    int sector = (int)floor(x);
    if (sector > 5) /* x rounded up to 6: the end of the last sector */
        sector = 5;
    const double f = x - sector;
    const double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    const double table[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
    rgb[0] = table[sector][0];
    rgb[1] = table[sector][1];
    rgb[2] = table[sector][2];
}

double kf_hue_wrap(double h)
{
    if (!isfinite(h))
        return 0.0;
    h = fmod(h, 6.0);
    if (h < 0.0)
        h += 6.0;
    return h < 6.0 ? h : 0.0; /* a tiny negative h rounds up to 6 */
}

double kf_hue_difference(double from, double to)
{
    double d = to - from;
    if (d > 3.0) /* exactly half a turn goes the direct way */
        d -= 6.0;
    else if (d < -3.0)
        d += 6.0;
    return d;
}
