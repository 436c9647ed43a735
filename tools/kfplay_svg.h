/* SPDX-License-Identifier: MIT */
/*
 * kfplay_svg.h - line charts as SVG: axes with round tick values, a legend,
 * a palette for colour-blind readers and for grey-scale print (Okabe & Ito's
 * colours, each with its own dash pattern and marker shape).
 *
 * Each panel is one chart. Its parts carry classes so that programs can find
 * them: "series" (one polyline per component), "key" (one marker per key and
 * component), "tangent", "seam", "event", "xtick-label" / "ytick-label" (the
 * text of each label is the value at its x or y position).
 */
#ifndef KFPLAY_SVG_H
#define KFPLAY_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct kfp_panel {
    char title[200];
    const char *x_label;
    double x_from, x_to; /* the x axis when x_to > x_from; else the samples' range */
    uint32_t components;
    const char *const *component_names; /* `components` names, or NULL: v0, v1, ... */
    size_t n;                           /* samples */
    double *x;                          /* n, non-decreasing */
    double *y;                          /* n * components */
    size_t keys;
    double *key_x;                /* keys */
    double *key_y;                /* keys * components */
    double *slope_in, *slope_out; /* keys * components each, or NULL: no tangents */
    size_t seams;
    double *seam_x; /* where a loop starts over */
    size_t events;
    double *event_x; /* follower events */
} kfp_panel;

/* Writes the panels one above the other as a complete SVG document.
 * Returns 0 when every byte was written. */
int kfp_svg_write(FILE *out, const kfp_panel *panels, size_t count);

/* Frees the arrays of a panel. */
void kfp_panel_free(kfp_panel *panel);

/* Round tick values over [lo, hi] (Heckbert's "nice numbers"): the step
 * (1, 2 or 5 times a power of ten) giving about `target` ticks, and the
 * first and last multiples of it that bound the range from outside. */
void kfp_nice_ticks(double lo, double hi, int target, double *first, double *last, double *step);

#endif /* KFPLAY_SVG_H */
