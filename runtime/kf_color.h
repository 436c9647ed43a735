/*
 * kf_color.h - RGB <-> HSV and hue arithmetic, for the X3D nodes that work
 * on colours in HSV (SPEC-NOTES 3 and 4). Hue is in radians, in [0, 2pi).
 */
#ifndef KF_COLOR_H
#define KF_COLOR_H

/* RGB to HSV. A grey (max == min, black included) has s = 0 and h = 0: its
 * hue is undefined, and the callers decide which hue it takes. */
void kf_rgb_to_hsv(const double rgb[3], double hsv[3]);

/* HSV to RGB; h may be any finite angle (it is wrapped first). */
void kf_hsv_to_rgb(const double hsv[3], double rgb[3]);

/* h wrapped into [0, 2pi). */
double kf_hue_wrap(double h);

/* The signed hue change from `from` to `to`, the short way round: in
 * [-pi, pi], and exactly +-pi goes the direct way (is not wrapped). Both
 * hues in [0, 2pi). */
double kf_hue_difference(double from, double to);

#endif /* KF_COLOR_H */
