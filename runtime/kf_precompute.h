/*
 * kf_precompute.h - what the builder computes ahead of time so that sampling
 * only evaluates: spline tangents and squad intermediates (SPEC-NOTES 1.4).
 *
 * Inputs are a sequence's valid keys in valid order (keys 0 .. count-1);
 * outputs are `count` tangents / quaternions per array.
 */
#ifndef KF_PRECOMPUTE_H
#define KF_PRECOMPUTE_H

#include <stdint.h>

/* M3G's time-scale factors of key i: F-_i (incoming) and F+_i (outgoing),
 * which keep the velocity continuous across unevenly spaced keys. Segment
 * lengths wrap (the last key's segment runs to the first key one period
 * later); CONSTANT sequences get 0 at the first and last key. */
void kf_m3g_time_scales(const float *times, uint32_t count, double duration, uint32_t repeat,
                        uint32_t i, double *f_in, double *f_out);

/* SPLINE: Catmull-Rom tangents scaled by kf_m3g_time_scales. */
void kf_precompute_spline(const float *times, const float *values, uint32_t count,
                          uint32_t components, double duration, uint32_t repeat,
                          float *out, float *in);

/* SQUAD: the intermediate quaternions a_i (outgoing) and b_i (incoming). */
void kf_precompute_squad(const float *times, const float *quats, uint32_t count,
                         double duration, uint32_t repeat, float *a, float *b);

#endif /* KF_PRECOMPUTE_H */
