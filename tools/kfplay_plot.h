/* SPDX-License-Identifier: MIT */
/* kfplay_plot.h - `kfplay FILE plot NAME... -o OUT.svg`: curves as an SVG. */
#ifndef KFPLAY_PLOT_H
#define KFPLAY_PLOT_H

#include "kf.h"

/* Parses the plot arguments (NAME..., -o, --tangents, --from, --to,
 * --samples, and follow's --tick/--until/--capacity/--event), draws one
 * panel per NAME and writes the SVG. Returns 0, 1 (bad name, number or
 * output) or 2 (usage). */
int kfp_plot(const kf_anim *anim, char **args, int count);

#endif /* KFPLAY_PLOT_H */
