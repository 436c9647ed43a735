/* SPDX-License-Identifier: MIT */
/*
 * kfplay - inspect and play a .kfb file.
 *
 *   kfplay FILE list                what is inside
 *   kfplay FILE sample NAME T...    an animator's value at each time (sequence)
 *                                   or fraction (X3D interpolator)
 *   kfplay FILE animate W...        every target at each world time
 *   kfplay FILE velocity NAME T...  derivatives of a linear/spline animator
 *   kfplay FILE acceleration NAME T...
 *   kfplay FILE sample-distance NAME S...   its value at distance S along the curve
 *   kfplay FILE follow NAME --tick DT --until T [--event T:KIND=V]...
 *                                   a follower driven by events, per tick
 *   kfplay FILE plot NAME... -o OUT.svg     curves as an SVG (kfplay_plot.c)
 *   kfplay dump FILE                the file's layout, record by record
 *                                   (kfplay_dump.c); works on damaged files
 *
 * The command line is kfplay_args.c's; the commands that take times take
 * a range instead (--from, --to, --step or --samples), and those that
 * print numbers, and list, take --format text|csv|json (kfplay_format.c). The command
 * may also come first ("kfplay dump FILE"). FILE "-" is standard input.
 *
 * Numbers print as %.9g (float32 round-trips). Errors go to stderr; the
 * exit statuses are kfc's (kfplay_args.h): 1 bad input, 2 bad usage (an
 * option's value included, as for kfc), 3 a file that cannot be read or
 * written, 4 out of memory.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf.h"
#include "kfb_format.h"
#include "kfc_diag.h"
#include "kfc_number.h"
#include "kfc_suggest.h"
#include "kfc_text.h"
#include "kfplay_args.h"
#include "kfplay_dump.h"
#include "kfplay_follow.h"
#include "kfplay_format.h"
#include "kfplay_input.h"
#include "kfplay_names.h"
#include "kfplay_plot.h"

enum {
    EXIT_INVALID = KFP_EXIT_INVALID,
    EXIT_USAGE = KFP_EXIT_USAGE,
    EXIT_IO = KFP_EXIT_IO,
    EXIT_NOMEM = KFP_EXIT_NOMEM
};

/* What every command is given. */
typedef struct kfp_context {
    const kf_anim *anim;
    const char *path; /* the file read ("-": standard input) */
    const kfp_options *options;
} kfp_context;

static const char usage[] =
    "Usage: kfplay [OPTION...] FILE list\n"
    "       kfplay [OPTION...] FILE sample NAME [T...]\n"
    "       kfplay [OPTION...] FILE animate [W...]\n"
    "       kfplay [OPTION...] FILE velocity|acceleration NAME [T...]\n"
    "       kfplay [OPTION...] FILE sample-distance NAME [S...]\n"
    "       kfplay [OPTION...] FILE follow NAME --tick DT --until T\n"
    "       kfplay [OPTION...] FILE plot NAME... -o OUT.svg\n"
    "       kfplay dump FILE\n"
    "       kfplay --help | --version\n"
    "\n"
    "  list      every object: name, kind, details\n"
    "  sample    the animator NAME at each sequence time T (an X3D interpolator:\n"
    "            at each fraction T): a line \"T v...\"; multi-valued outputs print\n"
    "            all their components\n"
    "  animate   play every track at each world time W, controllers as stored:\n"
    "            a line \"W target v...\" per target; followers move from one W\n"
    "            to the next as given (a frame a W: --step sets the frame rate)\n"
    "  velocity, acceleration\n"
    "            d/dT and d2/dT2 of the linear or spline animator NAME at each\n"
    "            sequence time T: a line \"T v...\"\n"
    "  sample-distance\n"
    "            the linear or spline animator NAME at distance S along its\n"
    "            curve from the first valid key: a line \"S v...\"\n"
    "  follow    run the follower NAME from its initialization at t = 0: tick\n"
    "            k = 1, 2, ... at t = k*DT while t <= T (no line for t = 0), a line\n"
    "            \"t v... active\" per tick (active: isActive, 0 or 1); a tick that\n"
    "            passes T by no more than 1e-5 T and DT/2 (a rounded DT, as\n"
    "            0.0166667) runs at T and prints T. An event at time T\n"
    "            (set_destination or set_value) is applied before the first tick at\n"
    "            or after T, events of equal times in the order given; a chaser's\n"
    "            transition starts at T itself, a damper moves on over the tick's\n"
    "            whole time. V: comma-separated numbers, axis-angle for rotations,\n"
    "            all the points of an array (n*3 or n*2)\n"
    "  plot      an SVG picture (-o OUT.svg; '-': standard output) with one panel per\n"
    "            NAME: an animator over its duration (two periods when it loops,\n"
    "            the seam dashed; keys marked, --tangents draws their tangents),\n"
    "            a follower driven by --tick/--until/--event as for follow, or a\n"
    "            target played through animate from world time --from to --to\n"
    "            (default: one period of its tracks); at most 2,000,000 line points\n"
    "            and 200,000 key marks a picture. An option no panel takes is a\n"
    "            usage error\n"
    "  dump      header, sections (stored and raw sizes), every object record\n"
    "            with its fields and where its arrays live; damage is reported\n"
    "            where it is found\n";

/* Apart from `usage`: C11 promises strings of 4095 characters. */
static const char usage_options[] =
    "\n"
    "Options:\n"
    "  -f, --format=FORMAT  text (default), csv (a header row, one column per\n"
    "                     component of the widest row) or json (an array of\n"
    "                     objects): list (csv: a row per field), sample,\n"
    "                     animate, velocity, acceleration, sample-distance,\n"
    "                     follow\n"
    "      --from=A, --to=B, --step=S, --samples=N\n"
    "                     instead of times: A, A+S, ... up to B (a last time past\n"
    "                     B by no more than 1e-5 B and S/2 is B: a rounded S), or N\n"
    "                     times evenly spaced from A to B (both included); A\n"
    "                     defaults to 0, B to the animator's duration (1 for a\n"
    "                     fraction, the curve's length for a distance, one period\n"
    "                     of every track for animate). plot: --from, --to of a\n"
    "                     target, --samples per panel (default 400)\n"
    "      --rotation=FORM  how rotations print: quaternion (x y z w) or\n"
    "                     axis-angle (x y z angle, radians). Default: as the\n"
    "                     animator states them: X3D interpolators and followers in\n"
    "                     axis-angle (their SFRotation), sequences and targets in\n"
    "                     quaternions (what is stored and played): sample, animate,\n"
    "                     follow\n"
    "      --tick=DT, --until=T, --capacity=N, --event=T:destination=V,\n"
    "      --event=T:value=V\n"
    "                     follow (and plot of a follower): the ticks, how many\n"
    "                     transitions a chaser holds (default: as a player's; for\n"
    "                     a damper, a usage error), the events\n"
    "  -o, --output=FILE  plot: the SVG ('-': standard output), never the file read,\n"
    "                     written all at once or not at all\n"
    "      --tangents     plot: draw an animator's key tangents\n"
    "  -h, --help         show this help and exit\n"
    "  -V, --version      show the versions of kfplay and libkf (and what it inflates\n"
    "                     with) and exit\n"
    "\n"
    "Options go anywhere; short ones combine and take their value attached or\n"
    "apart (-fcsv, -f csv), long ones with =VALUE or the value apart; '--' ends\n"
    "the options. A negative number is a time, not an option; numbers are\n"
    "decimal, as kfc reads them (2, -0.5, .25, 1e3). FILE '-' is standard input.\n"
    "A FILE that is not a .kfb but a YAML source or a file kfc imports (glTF,\n"
    "M3G, X3D) is named as such, with the kfc command that makes a .kfb of it\n"
    "in the current folder.\n"
    "\n"
    "Times are in seconds: sequence times T, world times W, and the DT and T of\n"
    "--tick, --until and --event (but sample's T of an X3D interpolator is a\n"
    "fraction, and sample-distance's S a distance along the curve).\n"
    "\n"
    "Exit status (the same as kfc's):\n"
    "  0  success\n"
    "  1  invalid input: a damaged or foreign file, an unknown name, a time\n"
    "     after the command that is no number\n"
    "  2  usage error, an option's value malformed or out of range included\n"
    "  3  I/O error (cannot read the input or write the output)\n"
    "  4  out of memory\n";

static int cmd_list(const kfp_context *ctx, char **args, int count)
{
    const kf_anim *anim = ctx->anim;
    char q[KFP_QUOTE_SIZE];
    if (count != 0)
        return kfp_usage_error("list takes nothing after it, not %s", kfp_quote(q, args[0]));
    kfp_list l;
    kfp_list_begin(&l, stdout, ctx->options->format);
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_SEQUENCE); i++) {
        kf_sequence_info s;
        kf_sequence_get_info(kf_anim_sequence(anim, i), &s);
        kfp_list_object(&l, "sequence", i, s.name);
        kfp_list_word(&l, "interpolation", kf_interpolation_name(s.interpolation));
        kfp_list_word(&l, "repeat", kf_repeat_name(s.repeat));
        kfp_list_count(&l, "components", s.components);
        kfp_list_count(&l, "keys", s.key_count);
        kfp_list_pair(&l, "valid_range", s.valid_first, s.valid_last, "..", 0);
        kfp_list_number(&l, "duration", s.duration, 0);
        /* Only what a sequence has: plain sequences list as they always did. */
        kfp_list_flag(&l, "tcb", s.tcb);
        double length;
        if (s.arc_length && kf_sequence_length(kf_anim_sequence(anim, i), &length) == KF_OK)
            kfp_list_number(&l, "length", length, 0);
        kfp_list_end_object(&l);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_INTERPOLATOR); i++) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, i), &p);
        kfp_list_object(&l, "interpolator", i, p.name);
        kfp_list_word(&l, "node", kf_node_name(p.node));
        kfp_list_count(&l, "keys", p.key_count);
        if (p.key_value)
            kfp_list_count(&l, "keyValue", p.value_count);
        if (p.velocity_count)
            kfp_list_count(&l, "keyVelocity", p.velocity_count);
        if (p.ease_in_ease_out)
            kfp_list_count(&l, "easeInEaseOut", p.key_count);
        kfp_list_flag(&l, "closed", p.closed);
        kfp_list_flag(&l, "normalizeVelocity", p.normalize_velocity);
        kfp_list_count(&l, "components", p.components);
        kfp_list_end_object(&l);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_FOLLOWER); i++) {
        kf_follower_info f;
        kf_follower_get_info(kf_anim_follower(anim, i), &f);
        kfp_list_object(&l, "follower", i, f.name);
        kfp_list_word(&l, "node", kf_follower_node_name(f.node));
        kfp_list_count(&l, "components", f.components);
        if (kf_follower_node_is_array(f.node))
            kfp_list_count(&l, "points", f.element_count);
        if (kf_follower_node_is_damper(f.node)) {
            kfp_list_number(&l, "tau", f.tau, 0);
            kfp_list_count(&l, "order", f.order);
            kfp_list_number(&l, "tolerance", f.tolerance, 0);
        } else {
            kfp_list_number(&l, "duration", f.duration, 0);
        }
        kfp_list_end_object(&l);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_CONTROLLER); i++) {
        kf_controller_info c;
        kf_anim_controller_info(anim, i, &c);
        /* Doubles as kfc -d writes them: the shortest text that reads back. */
        kfp_list_object(&l, "controller", i, c.name);
        kfp_list_number(&l, "speed", c.speed, 1);
        kfp_list_number(&l, "weight", c.weight, 1);
        kfp_list_pair(&l, "active_interval", c.active_start, c.active_end, "..", 1);
        kfp_list_pair(&l, "reference", c.ref_world, c.ref_sequence, ",", 1);
        kfp_list_end_object(&l);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_TARGET); i++) {
        kf_target_info t;
        kf_anim_target_info(anim, i, &t);
        kfp_list_object(&l, "target", i, t.name);
        kfp_list_word(&l, "property",
                      t.property == KF_PROPERTY_CUSTOM ? "custom" : kf_property_name(t.property));
        kfp_list_count(&l, "components", t.components);
        const int latest = kf_anim_target_blend(anim, i) == KF_BLEND_LATEST;
        kfp_list_choice(&l, "blend", latest ? "latest" : "sum", !latest);
        kfp_list_end_object(&l);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_TRACK); i++) {
        kf_track_info t;
        kf_anim_track_info(anim, i, &t);
        kf_target_info target;
        kf_anim_target_info(anim, t.target, &target);
        kf_controller_info c = {0};
        if (t.controller != KF_NO_INDEX)
            kf_anim_controller_info(anim, t.controller, &c);
        kfp_list_object(&l, "track", i, NULL);
        kfp_list_name(&l, "animator", kfp_object_name(anim, t.animator_kind, t.animator));
        kfp_list_name(&l, "controller", t.controller != KF_NO_INDEX ? c.name : NULL);
        kfp_list_name(&l, "target", target.name);
        if (t.animator_kind == KF_KIND_INTERPOLATOR) {
            kf_interpolator_info ease = {0};
            if (t.ease != KF_NO_INDEX)
                kf_interpolator_get_info(kf_anim_interpolator(anim, t.ease), &ease);
            kfp_list_number(&l, "cycleInterval", t.cycle_interval, 1);
            kfp_list_word(&l, "loop", t.loop ? "true" : "false");
            kfp_list_name(&l, "ease", t.ease != KF_NO_INDEX ? ease.name : NULL);
        }
        kfp_list_end_object(&l);
    }
    kfp_list_end(&l);
    return 0;
}

/* "a sequence", "an X3D interpolator", ... for what `name` names in `anim`,
 * or NULL. Animators first: their namespace is shared. */
static const char *kind_of(const kf_anim *anim, const char *name)
{
    if (kf_anim_find(anim, KF_KIND_SEQUENCE, name) != KF_NO_INDEX)
        return "a sequence";
    if (kf_anim_find(anim, KF_KIND_INTERPOLATOR, name) != KF_NO_INDEX)
        return "an X3D interpolator";
    if (kf_anim_find(anim, KF_KIND_FOLLOWER, name) != KF_NO_INDEX)
        return "a follower";
    if (kf_anim_find(anim, KF_KIND_TARGET, name) != KF_NO_INDEX)
        return "a target";
    if (kf_anim_find(anim, KF_KIND_CONTROLLER, name) != KF_NO_INDEX)
        return "a controller";
    return NULL;
}

/* The error for a NAME that is not what `command` plays: what it is and
 * which command plays it. */
static int wrong_name(const kf_anim *anim, const char *command, const char *name)
{
    const char *kind = kind_of(anim, name);
    const char *use = NULL;
    char q[KFP_QUOTE_SIZE];
    kfp_quote(q, name);
    if (!kind) {
        static const kf_kind animators[] = {KF_KIND_SEQUENCE, KF_KIND_INTERPOLATOR};
        static const kf_kind followers[] = {KF_KIND_FOLLOWER};
        const int follow = strcmp(command, "follow") == 0;
        char hint[256];
        kfp_names_like(anim, follow ? followers : animators, follow ? 1 : 2, name, hint,
                       sizeof hint);
        kfp_error("no %s named %s%s (kfplay FILE list shows the names)",
                  strcmp(command, "follow") == 0 ? "follower" : "animator", q, hint);
        return EXIT_INVALID;
    }
    if (strcmp(kind, "a target") == 0)
        use = "animate plays the targets (kfplay FILE animate W...), plot draws one";
    else if (strcmp(kind, "a controller") == 0)
        use = "animate plays what it controls (kfplay FILE animate W...)";
    else if (strcmp(kind, "a follower") == 0)
        use = "follow runs it (kfplay FILE follow NAME --tick DT --until T)";
    else
        use = "sample plays it (kfplay FILE sample NAME T...)";
    kfp_error("%s is %s, not %s: %s", q, kind,
              strcmp(command, "follow") == 0 ? "a follower" : "an animator", use);
    return EXIT_INVALID;
}

/* `value` (4 floats) in the form --rotation asks for, from `authored_quat`
 * (whether it is a quaternion as given). */
static void rotation_as_asked(float *value, int authored_quat, kfp_rotation asked)
{
    const int want_quat =
        asked == KFP_ROTATION_AUTHORED ? authored_quat : asked == KFP_ROTATION_QUATERNION;
    float out[4];
    if (want_quat && !authored_quat) {
        kf_axis_angle_to_quat(value, out);
        memcpy(value, out, sizeof out);
    } else if (!want_quat && authored_quat) {
        kf_quat_to_axis_angle(value, out);
        memcpy(value, out, sizeof out);
    }
}

/* An interpolator at each fraction: rotations as axis-angle (SFRotation)
 * unless --rotation says otherwise. */
/* A fraction outside both [0, 1] and the keys is clamped to the first or
 * last key's value, which reads as an answer: most likely a time given
 * where a fraction is asked (milliseconds, say). Said once, the sampling
 * done all the same. A range is monotonic: its ends tell. */
static void warn_fractions_outside(const kfp_times *t, const kf_interpolator_info *info)
{
    const double lo = fmin(0.0, info->key[0]), hi = fmax(1.0, info->key[info->key_count - 1]);
    double first = 0.0;
    uint64_t outside = 0;
    const uint64_t n = t->list ? t->count : 0;
    const double ends[2] = {t->from, t->to};
    for (uint64_t i = 0; i < (t->list ? n : 2); i++) {
        const double f = t->list ? t->list[i] : ends[i];
        if (f < lo || f > hi) {
            if (!outside++)
                first = f;
        }
    }
    if (!outside)
        return;
    char more[48] = "";
    if (t->list && outside > 1)
        snprintf(more, sizeof more, " (and %llu more)", (unsigned long long)(outside - 1));
    kfp_warning("fraction %.9g%s is outside [%.9g, %.9g]: the interpolator holds its %s key's "
                "value there (its argument is a fraction of its cycle%s)",
                first, more, lo, hi, first < lo ? "first" : "last",
                first > hi ? ", not a time: milliseconds?" : "");
}

static int sample_interpolator(const kfp_context *ctx, const kf_interpolator *p, char **args,
                               int count)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(p, &info);
    const int rotation = info.node == KF_NODE_ORIENTATION_INTERPOLATOR ||
                         info.node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
    kfp_times times;
    int status = kfp_times_init(&times, ctx->options, args, count, 1.0, "sample", "fractions");
    if (!status)
        warn_fractions_outside(&times, &info);
    float *value = malloc(info.components * sizeof *value);
    if (!status && !value) {
        kfp_error("out of memory");
        status = EXIT_NOMEM;
    }
    if (!status) {
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, ctx->options->format, "fraction", NULL, NULL,
                       info.components);
        for (uint64_t i = 0; i < times.count; i++) {
            const double f = kfp_times_at(&times, i);
            kf_interpolator_sample(p, f, NULL, value);
            /* The player's value is a quaternion; X3D writes axis-angle. */
            if (rotation) {
                float axis_angle[4];
                kf_quat_to_axis_angle(value, axis_angle);
                memcpy(value, axis_angle, sizeof axis_angle);
                rotation_as_asked(value, 0, ctx->options->rotation);
            }
            kfp_rows_add(&rows, f, NULL, value, info.components, 0);
        }
        kfp_rows_end(&rows);
    }
    kfp_times_free(&times);
    free(value);
    return status;
}

/* What an animator command computes at one argument. */
typedef enum query { QUERY_SAMPLE, QUERY_VELOCITY, QUERY_ACCELERATION, QUERY_DISTANCE } query;

static const char *const query_names[] = {"sample", "velocity", "acceleration", "sample-distance"};

static kf_result run_query(query q, const kf_sequence *s, double x, float *value)
{
    switch (q) {
    case QUERY_VELOCITY:
        return kf_sequence_velocity(s, x, NULL, value);
    case QUERY_ACCELERATION:
        return kf_sequence_acceleration(s, x, NULL, value);
    case QUERY_DISTANCE:
        return kf_sequence_sample_distance(s, x, value, NULL);
    default:
        kf_sequence_sample(s, x, NULL, value);
        return KF_OK;
    }
}

/* NAME X...: a line "X v..." per argument. */
static int animator_query(const kfp_context *ctx, char **args, int count, query q)
{
    const kf_anim *anim = ctx->anim;
    if (count < 1)
        return kfp_usage_error("%s needs the NAME of an animator", query_names[q]);
    char name[KFP_QUOTE_SIZE];
    kfp_quote(name, args[0]);
    uint32_t index = kf_anim_find(anim, KF_KIND_SEQUENCE, args[0]);
    if (index == KF_NO_INDEX) {
        index = kf_anim_find(anim, KF_KIND_INTERPOLATOR, args[0]);
        if (index != KF_NO_INDEX && q != QUERY_SAMPLE) {
            kfp_error("animator %s is an X3D interpolator; derivatives and "
                      "distances need a linear or spline sequence",
                      name);
            return EXIT_INVALID;
        }
        if (index != KF_NO_INDEX)
            return sample_interpolator(ctx, kf_anim_interpolator(anim, index), args + 1, count - 1);
        return wrong_name(anim, query_names[q], args[0]);
    }
    const kf_sequence *s = kf_anim_sequence(anim, index);
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    if (q != QUERY_SAMPLE && info.interpolation != KF_INTERPOLATION_LINEAR &&
        info.interpolation != KF_INTERPOLATION_SPLINE &&
        !(q != QUERY_DISTANCE && info.interpolation == KF_INTERPOLATION_HERMITE)) {
        kfp_error("animator %s is %s; derivatives and distances need linear or spline", name,
                  kf_interpolation_name(info.interpolation));
        return EXIT_INVALID;
    }
    double end = info.duration;
    if (q == QUERY_DISTANCE && kf_sequence_length(s, &end) != KF_OK)
        end = NAN;
    static const char *const what[] = {"times", "times", "times", "distances"};
    kfp_times times;
    int status =
        kfp_times_init(&times, ctx->options, args + 1, count - 1, end, query_names[q], what[q]);
    const uint32_t components = kf_sequence_components(s);
    /* A slerp or squad sequence holds quaternions. */
    const int rotation = q == QUERY_SAMPLE && components == 4 &&
                         (info.interpolation == KF_INTERPOLATION_SLERP ||
                          info.interpolation == KF_INTERPOLATION_SQUAD);
    float *value = malloc(components * sizeof *value);
    if (!status && !value) {
        kfp_error("out of memory");
        status = EXIT_NOMEM;
    }
    if (!status) {
        /* Random access per argument: they need not be in order. */
        static const char *const keys[] = {"t", "t", "t", "s"};
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, ctx->options->format, keys[q], NULL, NULL, components);
        for (uint64_t i = 0; i < times.count && status == 0; i++) {
            const double x = kfp_times_at(&times, i);
            if (run_query(q, s, x, value) != KF_OK) {
                kfp_error("cannot evaluate %s", name);
                status = EXIT_INVALID;
                break;
            }
            if (rotation)
                rotation_as_asked(value, 1, ctx->options->rotation);
            kfp_rows_add(&rows, x, NULL, value, components, 0);
        }
        kfp_rows_end(&rows);
    }
    kfp_times_free(&times);
    free(value);
    return status;
}

static int cmd_sample(const kfp_context *ctx, char **args, int count)
{
    return animator_query(ctx, args, count, QUERY_SAMPLE);
}

static int cmd_velocity(const kfp_context *ctx, char **args, int count)
{
    return animator_query(ctx, args, count, QUERY_VELOCITY);
}

static int cmd_acceleration(const kfp_context *ctx, char **args, int count)
{
    return animator_query(ctx, args, count, QUERY_ACCELERATION);
}

static int cmd_sample_distance(const kfp_context *ctx, char **args, int count)
{
    return animator_query(ctx, args, count, QUERY_DISTANCE);
}

static int cmd_animate(const kfp_context *ctx, char **args, int count)
{
    const kf_anim *anim = ctx->anim;
    kf_player *player = NULL;
    kfp_times times;
    int status = kfp_times_init(&times, ctx->options, args, count,
                                kfp_period_end(anim, KF_NO_INDEX), "animate", "world times");
    if (!status && kf_player_create(anim, NULL, &player) != KF_OK) {
        kfp_error("out of memory");
        status = EXIT_NOMEM;
    }
    if (status)
        goto done;
    uint32_t widest = 0;
    for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
        kf_target_info info;
        kf_anim_target_info(anim, t, &info);
        widest = info.components > widest ? info.components : widest;
    }
    kfp_rows rows;
    kfp_rows_begin(&rows, stdout, ctx->options->format, "w", "target", NULL, widest);
    for (uint64_t i = 0; i < times.count; i++) {
        const double w = kfp_times_at(&times, i);
        kf_player_update(player, w);
        for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
            kf_target_info info;
            kf_anim_target_info(anim, t, &info);
            const float *v = kf_player_value(player, t);
            float rotation[4];
            if (info.property == KF_PROPERTY_ORIENTATION && info.components == 4 &&
                ctx->options->rotation == KFP_ROTATION_AXIS_ANGLE) {
                memcpy(rotation, v, sizeof rotation);
                rotation_as_asked(rotation, 1, ctx->options->rotation);
                v = rotation;
            }
            kfp_rows_add(&rows, w, info.name, v, info.components, 0);
        }
    }
    kfp_rows_end(&rows);
done:
    kf_player_destroy(player);
    kfp_times_free(&times);
    return status;
}

static void follow_row(void *user, double t, const float *value, uint32_t count, int active)
{
    kfp_rows_add(user, t, NULL, value, count, active);
}

static int cmd_follow(const kfp_context *ctx, char **args, int count)
{
    if (count < 1)
        return kfp_usage_error("follow needs the NAME of a follower");
    char fixed[256], q[KFP_QUOTE_SIZE];
    /* Numbers after the name read as an event's vector split at its spaces
     * only where the follower's value holds that many. */
    const uint32_t named =
        count > 1 ? kf_anim_find(ctx->anim, KF_KIND_FOLLOWER, args[0]) : KF_NO_INDEX;
    if (named != KF_NO_INDEX &&
        (uint32_t)count <= kf_follower_components(kf_anim_follower(ctx->anim, named)) &&
        kfp_event_split(ctx->options, args + 1, count - 1, fixed, sizeof fixed))
        return kfp_usage_error("follow takes one NAME, not %s too: an event's value is "
                               "written with commas and no spaces (--event %s)",
                               kfp_quote(q, args[1]), fixed);
    if (count > 1)
        return kfp_usage_error("follow takes one NAME, not %s too (times are --tick and "
                               "--until)",
                               kfp_quote(q, args[1]));
    uint32_t index = kf_anim_find(ctx->anim, KF_KIND_FOLLOWER, args[0]);
    if (index == KF_NO_INDEX)
        return wrong_name(ctx->anim, "follow", args[0]);
    const kf_follower *f = kf_anim_follower(ctx->anim, index);
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    /* Only the file says which kind NAME is, so the table of the options
     * each command takes cannot refuse this one: a damper holds no
     * transitions, and a --capacity it ignored would look obeyed. */
    if ((ctx->options->given & KFP_OPT_CAPACITY) && kf_follower_node_is_damper(info.node))
        return kfp_usage_error("follow: --capacity is a chaser's option; %s is a damper (%s)",
                               kfp_quote(q, args[0]), kf_follower_node_name(info.node));
    kfp_follow run;
    int status = kfp_follow_setup(&run, f, ctx->options, "follow");
    if (!status) {
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, ctx->options->format, "t", NULL, "active",
                       kfp_follow_row_components(f));
        status = kfp_follow_run(&run, follow_row, &rows);
        kfp_rows_end(&rows);
    }
    kfp_follow_free(&run);
    return status;
}

static int cmd_plot(const kfp_context *ctx, char **args, int count)
{
    return kfp_plot(ctx->anim, ctx->path, ctx->options, args, count);
}

enum {
    RANGE = KFP_OPT_FROM | KFP_OPT_TO | KFP_OPT_STEP | KFP_OPT_SAMPLES,
    FOLLOW = KFP_OPT_TICK | KFP_OPT_UNTIL | KFP_OPT_CAPACITY | KFP_OPT_EVENT
};

static const struct command {
    const char *name;
    int (*run)(const kfp_context *ctx, char **args, int count);
    unsigned options; /* the KFP_OPT_ it takes */
} commands[] = {
    {"list", cmd_list, KFP_OPT_FORMAT},
    {"sample", cmd_sample, KFP_OPT_FORMAT | RANGE | KFP_OPT_ROTATION},
    {"animate", cmd_animate, KFP_OPT_FORMAT | RANGE | KFP_OPT_ROTATION},
    {"velocity", cmd_velocity, KFP_OPT_FORMAT | RANGE},
    {"acceleration", cmd_acceleration, KFP_OPT_FORMAT | RANGE},
    {"sample-distance", cmd_sample_distance, KFP_OPT_FORMAT | RANGE},
    {"follow", cmd_follow, KFP_OPT_FORMAT | FOLLOW | KFP_OPT_ROTATION},
    {"plot", cmd_plot,
     KFP_OPT_OUTPUT | KFP_OPT_TANGENTS | KFP_OPT_FROM | KFP_OPT_TO | KFP_OPT_SAMPLES | FOLLOW},
    {"dump", NULL, 0}, /* reads the file itself: it must describe damaged ones too */
};

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

static int run(const kfp_command_line *cl)
{
    char *const *op = cl->operands;
    char q[KFP_QUOTE_SIZE];
    if (cl->operand_count < 2)
        return kfp_usage_error(cl->operand_count ? "missing the COMMAND after %s"
                                                 : "missing FILE and COMMAND%s",
                               cl->operand_count ? kfp_quote(q, op[0]) : "");
    /* "kfplay FILE COMMAND ..." or, as in `kfplay dump FILE`, "kfplay COMMAND FILE ...". */
    const char *path = op[0];
    const struct command *cmd = find_command(op[1]);
    if (!cmd && find_command(op[0])) {
        cmd = find_command(op[0]);
        path = op[1];
    }
    if (!cmd) {
        /* A command mistyped ('sampel') is named as the options are. */
        kfc_suggest s;
        kfc_suggest_begin(&s, NULL, op[1], strlen(op[1]));
        for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
            kfc_suggest_offer(&s, commands[i].name, strlen(commands[i].name));
        char like[128];
        return kfp_usage_error("unknown command %s (list, sample, animate, velocity, "
                               "acceleration, sample-distance, follow, plot, dump)%s",
                               kfp_quote(q, op[1]), kfc_suggest_text(&s, like, sizeof like));
    }
    const unsigned extra = cl->options.given & ~cmd->options;
    if (extra)
        return kfp_usage_error("%s takes no %s", cmd->name, kfp_option_name(extra & -extra));
    char **args = cl->operands + 2;
    const int count = cl->operand_count - 2;
    if (!cmd->run && count > 0)
        return kfp_usage_error("dump takes nothing after the file, not %s", kfp_quote(q, args[0]));

    kfp_input in;
    int status = kfp_read_input(path, &in);
    if (status)
        return status;
    /* A file that is not a .kfb but something kfplay knows (a source, a
     * file kfc imports, nothing at all): said as plainly to dump as to the
     * others, rather than its bytes read as a header. */
    char mixup[1536]; /* (two file names: kfp_input_mixup) */
    const char *what =
        in.size >= KFB_IDENTIFIER_SIZE && memcmp(in.data, KFB_IDENTIFIER, KFB_IDENTIFIER_SIZE) == 0
            ? NULL
            : kfp_input_mixup(path, in.data, in.size, mixup, sizeof mixup);
    if (!cmd->run && what) {
        kfp_file_error(kfp_input_name(path), "%s", what);
        status = EXIT_INVALID;
    } else if (!cmd->run) {
        status = kfp_dump(kfp_input_name(path), &in);
    } else {
        kf_anim *anim;
        kf_error err;
        kf_result r = kfp_load(&in, &anim, &err);
        if (r != KF_OK) {
            const char *why = r == KF_ERROR_NOT_KFB || in.size == 0 ? what : NULL;
            kfp_file_error(kfp_input_name(path), "%s", why ? why : err.message);
            status = r == KF_ERROR_OUT_OF_MEMORY ? EXIT_NOMEM : EXIT_INVALID;
        } else {
            kfp_context ctx = {anim, path, &cl->options};
            status = cmd->run(&ctx, args, count);
            kf_anim_free(anim);
        }
    }
    kfp_input_free(&in);
    return status;
}

int main(int argc, char **argv)
{
    kfp_command_line cl;
    int status = kfp_args_parse(argc, argv, &cl);
    if (!status && cl.help) {
        fputs(usage, stdout);
        fputs(usage_options, stdout);
    } else if (!status && cl.version) {
        printf("kfplay %s (libkf %s)\n", KF_VERSION_STRING, kf_version());
        printf("libkf inflates with %s\n", kf_inflate_library());
    } else if (!status) {
        status = run(&cl);
    }
    kfp_command_line_free(&cl);
    /* A write that failed sets the error flag, and may leave nothing for
     * fflush to fail on: then errno is still the failed write's, unless
     * the stream never said (0). */
    errno = ferror(stdout) ? errno : 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        const int err = errno;
        if (err)
            kfp_error("cannot write the output: %s", strerror(err));
        else
            kfp_error("cannot write the output");
        status = EXIT_IO;
    }
    return status;
}
