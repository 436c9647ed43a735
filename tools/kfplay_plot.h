/* SPDX-License-Identifier: MIT */
/* kfplay_plot.h - `kfplay FILE plot NAME... -o OUT.svg`: curves as an SVG. */
#ifndef KFPLAY_PLOT_H
#define KFPLAY_PLOT_H

#include "kf.h"
#include "kfplay_args.h"

/* Draws one panel per NAME (`names`, `count` of them) of `anim`, read from
 * `input` ("-": standard input), with the plot options of `options` (-o,
 * --tangents, --from, --to, --samples, and follow's --tick/--until/
 * --capacity/--event) and writes the SVG, all at once or not at all
 * (compiler/kfc_output.h). Returns 0, 1 (a name the file lacks, a
 * picture past its bounds), 2 (usage: -o naming `input`, an option no
 * panel takes, an option's value malformed or out of its range), 3 (an
 * output that cannot be written) or 4 (out of memory). */
int kfp_plot(const kf_anim *anim, const char *input, const kfp_options *options, char **names,
             int count);

/* The end of one period of the tracks that feed `target` (KF_NO_INDEX:
 * of every track), in world time: where each controller maps sequence time
 * 0 plus its animator's period; 1 when no track has one. The default --to
 * of the commands that take a time range. */
double kfp_period_end(const kf_anim *anim, uint32_t target);

#endif /* KFPLAY_PLOT_H */
