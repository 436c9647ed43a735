/* kf_color.c - RGB <-> HSV and hue arithmetic (kf_color.h). */
#include <math.h>

#include "kf_color.h"
#include "kf_math.h"

#define TWO_PI (2.0 * KF_PI)

void kf_rgb_to_hsv(const double rgb[3], double hsv[3])
{
    const double r = rgb[0], g = rgb[1], b = rgb[2];
    double max = fmax(r, fmax(g, b)), min = fmin(r, fmin(g, b));
    double d = max - min;
    hsv[2] = max;
    hsv[1] = max > 0.0 ? d / max : 0.0;
    if (!(d > 0.0) || !(max > 0.0)) {
        hsv[0] = 0.0;
        hsv[1] = 0.0;
        return;
    }
    double sector;
    if (max == r)
        sector = (g - b) / d;
    else if (max == g)
        sector = 2.0 + (b - r) / d;
    else
        sector = 4.0 + (r - g) / d;
    hsv[0] = kf_hue_wrap(sector * (KF_PI / 3.0));
}

void kf_hsv_to_rgb(const double hsv[3], double rgb[3])
{
    const double s = hsv[1], v = hsv[2];
    double h = kf_hue_wrap(hsv[0]) / (KF_PI / 3.0);
    int i = (int)floor(h);
    double f = h - i;
    if (i < 0 || i > 5) { /* h rounded up to exactly 6 */
        i = 0;
        f = 0.0;
    }
    double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
    switch (i) {
    case 0:  rgb[0] = v; rgb[1] = t; rgb[2] = p; break;
    case 1:  rgb[0] = q; rgb[1] = v; rgb[2] = p; break;
    case 2:  rgb[0] = p; rgb[1] = v; rgb[2] = t; break;
    case 3:  rgb[0] = p; rgb[1] = q; rgb[2] = v; break;
    case 4:  rgb[0] = t; rgb[1] = p; rgb[2] = v; break;
    default: rgb[0] = v; rgb[1] = p; rgb[2] = q; break;
    }
}

double kf_hue_wrap(double h)
{
    if (!isfinite(h))
        return 0.0;
    h = fmod(h, TWO_PI);
    if (h < 0.0)
        h += TWO_PI;
    /* fmod of a tiny negative number can round back up to 2pi. */
    return h >= TWO_PI ? 0.0 : h;
}

double kf_hue_difference(double from, double to)
{
    double d = to - from;
    if (d > KF_PI)
        d -= TWO_PI;
    else if (d < -KF_PI)
        d += TWO_PI;
    return d;
}
