/* SPDX-License-Identifier: MIT */
/*
 * kf_precompute.h - what the builder computes ahead of time so that sampling
 * only evaluates: Hermite tangents and squad intermediates.
 *
 * One per-key core serves every curve kind; they differ only in parameters:
 *   - the neighbour weights: how much of the incoming difference (v_i - v_p)
 *     and the outgoing one (v_n - v_i) each tangent takes; Catmull-Rom takes
 *     half of each, Kochanek-Bartels weights them by tension, continuity and
 *     bias (kf_tcb_weights);
 *   - the time-scale factors F-_i (incoming) and F+_i (outgoing) that adapt a
 *     tangent to unevenly spaced keys (M3G: kf_m3g_time_scales; X3D:
 *     kf_x3d_time_scales, the same quotients assigned the other way round).
 * X3D's rules for which keys get which tangent (keyVelocity, closed,
 * normalizeVelocity, open ends) live in kf_precompute_x3d.c.
 * For quaternions the differences are logarithms: L- = log(conj(q_p) q_i),
 * L+ = log(conj(q_i) q_n).
 */
#ifndef KF_PRECOMPUTE_H
#define KF_PRECOMPUTE_H

#include <stdint.h>

typedef struct kf_tangent_weights {
    double out_prev, out_next; /* outgoing tangent = out_prev (v_i - v_p) + out_next (v_n - v_i) */
    double in_prev, in_next;   /* incoming tangent = in_prev (v_i - v_p) + in_next (v_n - v_i) */
} kf_tangent_weights;

/* Catmull-Rom: every weight 1/2, so both tangents are (v_n - v_p) / 2. */
extern const kf_tangent_weights kf_catmull_rom_weights;

/* Kochanek-Bartels weights (Eberly's eqs. 2-3, docs/math.md §5.1); all zero
 * gives kf_catmull_rom_weights exactly. */
void kf_tcb_weights(double tension, double continuity, double bias, kf_tangent_weights *w);

/* Tangents of one key of a `components`-vector curve:
 *   out = f_out * (w.out_prev d- + w.out_next d+),  in = f_in * (w.in_prev d- + w.in_next d+)
 * with d- = cur - prev, d+ = next - cur. */
void kf_key_tangents(const float *prev, const float *cur, const float *next, uint32_t components,
                     const kf_tangent_weights *w, double f_in, double f_out, float *out, float *in);

/* Squad intermediates of one key (quaternions x y z w):
 *   T_out = w.out_prev L- + w.out_next L+,  T_in = w.in_prev L- + w.in_next L+
 *   a = q_i exp((f_out T_out - L+) / 2),    b = q_i exp((L- - f_in T_in) / 2) */
void kf_key_squad(const float *prev, const float *cur, const float *next,
                  const kf_tangent_weights *w, double f_in, double f_out, float *a, float *b);

/* Tangents of one key whose velocity T is given (X3D keyVelocity) instead of
 * derived from its neighbours: out = f_out T, in = f_in T. */
void kf_key_velocity_tangents(const double *velocity, uint32_t components, double f_in,
                              double f_out, float *out, float *in);

/* M3G's time-scale factors of valid key i (docs/math.md §1.4): with segment
 * lengths that wrap (the last key's segment runs to the first key one period
 * later), F-_i = 2 d_p / (d_p + d_i), F+_i = 2 d_i / (d_p + d_i); 0 when both
 * are 0, and 0 at the first and last key of a CONSTANT sequence. */
void kf_m3g_time_scales(const float *times, uint32_t count, double duration, uint32_t repeat,
                        uint32_t i, double *f_in, double *f_out);

/* M3G SPLINE / SQUAD over valid keys 0 .. count-1 (neighbours cyclic).
 * `tcb` (3 per key: tension, continuity, bias) may be NULL for Catmull-Rom. */
void kf_precompute_spline(const float *times, const float *values, const float *tcb, uint32_t count,
                          uint32_t components, double duration, uint32_t repeat, float *out,
                          float *in);
void kf_precompute_squad(const float *times, const float *quats, const float *tcb, uint32_t count,
                         double duration, uint32_t repeat, float *a, float *b);

/* X3D's time-scale factors of a key (docs/math.md §3.6) from the lengths of the
 * segments before (d_prev) and after (d_next) it: F-_i = 2 d_next / (d_prev +
 * d_next), F+_i = 2 d_prev / (d_prev + d_next); 0 when both are 0. (M3G's
 * assign the same quotients the other way round.) */
void kf_x3d_time_scales(double d_prev, double d_next, double *f_in, double *f_out);

/*
 * X3D Spline{Scalar,Position,Position2D}Interpolator tangents (docs/math.md §3.6)
 * of `count` keys of `components` numbers: outgoing T0_i into out[i], incoming
 * T1_i into in[i]. `velocities` holds `velocity_count` keyVelocity entries:
 * count of them give every T_i, 2 give T_0 and T_{count-1}, 0 none.
 * `closed` is honoured only if the first and last values are equal and no
 * velocity is given.
 */
void kf_x3d_spline_tangents(const float *keys, const float *values, uint32_t count,
                            uint32_t components, const float *velocities, uint32_t velocity_count,
                            int closed, int normalize_velocity, float *out, float *in);

/* X3D SquadOrientationInterpolator control quaternions s_i of `count` unit
 * quaternions (Shoemake's squad, key spacing ignored, neighbours flipped
 * into q_i's hemisphere). Open ends are s_0 = q_0, s_{count-1} = q_{count-1};
 * `closed` wraps through q_{count-2} and q_1, honoured only if q_0 and
 * q_{count-1} are the same rotation. */
void kf_x3d_squad(const float *quats, uint32_t count, int closed, float *s);

#endif /* KF_PRECOMPUTE_H */
