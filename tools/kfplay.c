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
 * The commands that print numbers take --format text|csv|json
 * (kfplay_format.c). The command may also come first ("kfplay dump FILE").
 *
 * Numbers print as %.9g (float32 round-trips). Everything after NAME (or
 * after `animate`) is a number, negative ones included: there is no option
 * parsing there. Errors go to stderr; exit status 1 for bad input, 2 for
 * bad usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf.h"
#include "kfplay_args.h"
#include "kfplay_dump.h"
#include "kfplay_follow.h"
#include "kfplay_format.h"
#include "kfplay_plot.h"

enum { EXIT_INPUT = KFP_EXIT_INPUT, EXIT_USAGE = KFP_EXIT_USAGE };

/* What every command is given. */
typedef struct kfp_context {
    const kf_anim *anim;
    kfp_format format;
} kfp_context;

static const char usage[] =
    "usage: kfplay FILE list\n"
    "       kfplay FILE sample NAME T...\n"
    "       kfplay FILE animate W...\n"
    "       kfplay FILE velocity NAME T...\n"
    "       kfplay FILE acceleration NAME T...\n"
    "       kfplay FILE sample-distance NAME S...\n"
    "       kfplay FILE follow NAME --tick DT --until T [--capacity N]\n"
    "                               [--event T:destination=V] [--event T:value=V]...\n"
    "       kfplay FILE plot NAME... -o OUT.svg [--tangents] [--from W] [--to W]\n"
    "                               [--tick DT --until T [--event ...]...]\n"
    "       kfplay dump FILE\n"
    "       kfplay --help | --version\n"
    "\n"
    "  list      every object: name, kind, details\n"
    "  sample    the animator NAME at each sequence time T (an X3D interpolator:\n"
    "            at each fraction T): a line \"T v...\"; rotations print as axis-angle\n"
    "            x y z angle, multi-valued outputs as all their components\n"
    "  animate   play every track at each world time W, controllers as stored:\n"
    "            a line \"W target v...\" per target\n"
    "  velocity, acceleration\n"
    "            d/dT and d2/dT2 of the linear or spline animator NAME at each\n"
    "            sequence time T: a line \"T v...\"\n"
    "  sample-distance\n"
    "            the linear or spline animator NAME at distance S along its\n"
    "            curve from the first valid key: a line \"S v...\"\n"
    "  follow    run the follower NAME from its initialization at t = 0: tick k = 1, 2, ...\n"
    "            at t = k*DT while t <= T (no line for t = 0), a line \"t v... active\"\n"
    "            per tick (active: isActive, 0 or 1). An event at time T (set_destination\n"
    "            or set_value) is applied before the first tick at or after T, events of\n"
    "            equal times in the order given; a chaser's transition starts at T itself.\n"
    "            V: comma-separated numbers, axis-angle for rotations, all the points of\n"
    "            an array (n*3 or n*2); rotations print as axis-angle too. --capacity:\n"
    "            how many transitions a chaser holds (default: as a player's).\n"
    "\n"
    "  plot      an SVG picture (-o OUT.svg; '-': standard output) with one panel per\n"
    "            NAME: an animator over its duration (two periods when it loops,\n"
    "            the seam dashed; keys marked, --tangents draws their tangents),\n"
    "            a follower driven by --tick/--until/--event as for follow, or a\n"
    "            target played through animate from world time --from to --to\n"
    "            (default: one period of its tracks); at most 2,000,000 line points\n"
    "            and 200,000 key marks a picture\n"
    "  dump      header, sections (stored and raw sizes), every object record\n"
    "            with its fields and where its arrays live; damage is reported\n"
    "            where it is found\n"
    "\n"
    "sample, animate, velocity, acceleration, sample-distance and follow take\n"
    "--format text (default), csv (a header row) or json (an array of objects).\n"
    "\n"
    "Exit status: 0 success, 1 invalid file, name or number, 2 usage error.\n";

static const char *animator_name(const kf_anim *anim, const kf_track_info *t)
{
    if (t->animator_kind == KF_KIND_INTERPOLATOR) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, t->animator), &p);
        return p.name;
    }
    if (t->animator_kind == KF_KIND_FOLLOWER) {
        kf_follower_info f;
        kf_follower_get_info(kf_anim_follower(anim, t->animator), &f);
        return f.name;
    }
    kf_sequence_info s;
    kf_sequence_get_info(kf_anim_sequence(anim, t->animator), &s);
    return s.name;
}

static int cmd_list(const kfp_context *ctx, char **args, int count)
{
    const kf_anim *anim = ctx->anim;
    (void)args;
    if (count != 0) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_SEQUENCE); i++) {
        kf_sequence_info s;
        kf_sequence_get_info(kf_anim_sequence(anim, i), &s);
        printf("%s sequence interpolation=%s repeat=%s components=%u keys=%u valid_range=%u..%u "
               "duration=%.9g",
               s.name, kf_interpolation_name(s.interpolation), kf_repeat_name(s.repeat),
               s.components, s.key_count, s.valid_first, s.valid_last, s.duration);
        /* Only what a sequence has: plain sequences list as they always did. */
        if (s.tcb)
            fputs(" tcb", stdout);
        double length;
        if (s.arc_length && kf_sequence_length(kf_anim_sequence(anim, i), &length) == KF_OK)
            printf(" length=%.9g", length);
        putchar('\n');
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_INTERPOLATOR); i++) {
        kf_interpolator_info p;
        kf_interpolator_get_info(kf_anim_interpolator(anim, i), &p);
        printf("%s interpolator node=%s keys=%u", p.name, kf_node_name(p.node), p.key_count);
        if (p.key_value)
            printf(" keyValue=%u", p.value_count);
        if (p.velocity_count)
            printf(" keyVelocity=%u", p.velocity_count);
        if (p.ease_in_ease_out)
            printf(" easeInEaseOut=%u", p.key_count);
        printf("%s%s components=%u\n", p.closed ? " closed" : "",
               p.normalize_velocity ? " normalizeVelocity" : "", p.components);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_FOLLOWER); i++) {
        kf_follower_info f;
        kf_follower_get_info(kf_anim_follower(anim, i), &f);
        printf("%s follower node=%s components=%u", f.name, kf_follower_node_name(f.node),
               f.components);
        if (kf_follower_node_is_array(f.node))
            printf(" points=%u", f.element_count);
        if (kf_follower_node_is_damper(f.node))
            printf(" tau=%.9g order=%u tolerance=%.9g\n", f.tau, f.order, f.tolerance);
        else
            printf(" duration=%.9g\n", f.duration);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_CONTROLLER); i++) {
        kf_controller_info c;
        kf_anim_controller_info(anim, i, &c);
        printf("%s controller speed=%.17g weight=%.17g active_interval=%.17g..%.17g "
               "reference=%.17g,%.17g\n",
               c.name, c.speed, c.weight, c.active_start, c.active_end, c.ref_world,
               c.ref_sequence);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_TARGET); i++) {
        kf_target_info t;
        kf_anim_target_info(anim, i, &t);
        printf("%s target property=%s components=%u\n", t.name,
               t.property == KF_PROPERTY_CUSTOM ? "custom" : kf_property_name(t.property),
               t.components);
    }
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_TRACK); i++) {
        kf_track_info t;
        kf_anim_track_info(anim, i, &t);
        kf_target_info target;
        kf_anim_target_info(anim, t.target, &target);
        kf_controller_info c = {0};
        if (t.controller != KF_NO_INDEX)
            kf_anim_controller_info(anim, t.controller, &c);
        printf("#%u track animator=%s controller=%s target=%s", i, animator_name(anim, &t),
               t.controller != KF_NO_INDEX ? c.name : "-", target.name);
        if (t.animator_kind == KF_KIND_INTERPOLATOR) {
            kf_interpolator_info ease = {0};
            if (t.ease != KF_NO_INDEX)
                kf_interpolator_get_info(kf_anim_interpolator(anim, t.ease), &ease);
            printf(" cycleInterval=%.9g loop=%s ease=%s", t.cycle_interval,
                   t.loop ? "true" : "false", t.ease != KF_NO_INDEX ? ease.name : "-");
        }
        putchar('\n');
    }
    return 0;
}

/* An interpolator at each fraction: rotations as axis-angle (SFRotation). */
static int sample_interpolator(const kf_interpolator *p, kfp_format format, char **args, int count)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(p, &info);
    const int rotation = info.node == KF_NODE_ORIENTATION_INTERPOLATOR ||
                         info.node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
    double *fractions = malloc((size_t)count * sizeof *fractions + 1);
    float *value = malloc(info.components * sizeof *value);
    int status = EXIT_INPUT;
    if (fractions && value && kfp_parse_numbers(args, count, fractions)) {
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, format, "fraction", NULL, NULL, info.components);
        for (int i = 0; i < count; i++) {
            kf_interpolator_sample(p, fractions[i], NULL, value);
            if (rotation) {
                float axis_angle[4];
                kf_quat_to_axis_angle(value, axis_angle);
                memcpy(value, axis_angle, sizeof axis_angle);
            }
            kfp_rows_add(&rows, fractions[i], NULL, value, info.components, 0);
        }
        kfp_rows_end(&rows);
        status = 0;
    }
    free(fractions);
    free(value);
    return status;
}

/* What an animator command computes at one argument. */
typedef enum query { QUERY_SAMPLE, QUERY_VELOCITY, QUERY_ACCELERATION, QUERY_DISTANCE } query;

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
    if (count < 1) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    uint32_t index = kf_anim_find(anim, KF_KIND_SEQUENCE, args[0]);
    if (index == KF_NO_INDEX) {
        index = kf_anim_find(anim, KF_KIND_INTERPOLATOR, args[0]);
        if (index != KF_NO_INDEX && q != QUERY_SAMPLE) {
            fprintf(stderr,
                    "kfplay: animator '%s' is an X3D interpolator; derivatives and "
                    "distances need a linear or spline sequence\n",
                    args[0]);
            return EXIT_INPUT;
        }
        if (index != KF_NO_INDEX)
            return sample_interpolator(kf_anim_interpolator(anim, index), ctx->format, args + 1,
                                       count - 1);
        fprintf(stderr, "kfplay: no animator named '%s'\n", args[0]);
        return EXIT_INPUT;
    }
    const kf_sequence *s = kf_anim_sequence(anim, index);
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    if (q != QUERY_SAMPLE && info.interpolation != KF_INTERPOLATION_LINEAR &&
        info.interpolation != KF_INTERPOLATION_SPLINE &&
        !(q != QUERY_DISTANCE && info.interpolation == KF_INTERPOLATION_HERMITE)) {
        fprintf(stderr,
                "kfplay: animator '%s' is %s; derivatives and distances need linear or "
                "spline\n",
                args[0], kf_interpolation_name(info.interpolation));
        return EXIT_INPUT;
    }
    double *xs = malloc((size_t)(count - 1) * sizeof *xs + 1);
    float *value = malloc(kf_sequence_components(s) * sizeof *value);
    int status = EXIT_INPUT;
    if (xs && value && kfp_parse_numbers(args + 1, count - 1, xs)) {
        /* Random access per argument: they need not be in order. */
        static const char *const keys[] = {"t", "t", "t", "s"};
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, ctx->format, keys[q], NULL, NULL, kf_sequence_components(s));
        status = 0;
        for (int i = 0; i < count - 1 && status == 0; i++) {
            if (run_query(q, s, xs[i], value) != KF_OK) {
                fprintf(stderr, "kfplay: cannot evaluate '%s'\n", args[0]);
                status = EXIT_INPUT;
                break;
            }
            kfp_rows_add(&rows, xs[i], NULL, value, kf_sequence_components(s), 0);
        }
        kfp_rows_end(&rows);
    }
    free(xs);
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
    double *times = malloc((size_t)count * sizeof *times + 1);
    kf_player *player = NULL;
    int status = EXIT_INPUT;
    if (!times || !kfp_parse_numbers(args, count, times))
        goto done;
    if (kf_player_create(anim, NULL, &player) != KF_OK) {
        fprintf(stderr, "kfplay: out of memory\n");
        goto done;
    }
    uint32_t widest = 0;
    for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
        kf_target_info info;
        kf_anim_target_info(anim, t, &info);
        widest = info.components > widest ? info.components : widest;
    }
    kfp_rows rows;
    kfp_rows_begin(&rows, stdout, ctx->format, "w", "target", NULL, widest);
    for (int i = 0; i < count; i++) {
        kf_player_update(player, times[i]);
        for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
            kf_target_info info;
            kf_anim_target_info(anim, t, &info);
            kfp_rows_add(&rows, times[i], info.name, kf_player_value(player, t), info.components,
                         0);
        }
    }
    kfp_rows_end(&rows);
    status = 0;
done:
    kf_player_destroy(player);
    free(times);
    return status;
}

static void follow_row(void *user, double t, const float *value, uint32_t count, int active)
{
    kfp_rows_add(user, t, NULL, value, count, active);
}

static int cmd_follow(const kfp_context *ctx, char **args, int count)
{
    if (count < 1) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    uint32_t index = kf_anim_find(ctx->anim, KF_KIND_FOLLOWER, args[0]);
    if (index == KF_NO_INDEX) {
        fprintf(stderr, "kfplay: no follower named '%s'\n", args[0]);
        return EXIT_INPUT;
    }
    const kf_follower *f = kf_anim_follower(ctx->anim, index);
    kfp_follow run;
    int status = kfp_follow_parse(&run, f, args + 1, count - 1);
    if (status == EXIT_USAGE)
        fputs(usage, stderr);
    if (!status) {
        kfp_rows rows;
        kfp_rows_begin(&rows, stdout, ctx->format, "t", NULL, "active",
                       kfp_follow_row_components(f));
        status = kfp_follow_run(&run, follow_row, &rows);
        kfp_rows_end(&rows);
    }
    kfp_follow_free(&run);
    return status;
}

static int cmd_plot(const kfp_context *ctx, char **args, int count)
{
    return kfp_plot(ctx->anim, args, count);
}

static const struct command {
    const char *name;
    int (*run)(const kfp_context *ctx, char **args, int count);
    int rows; /* 1: prints rows of numbers, so takes --format */
} commands[] = {
    {"list", cmd_list, 0},
    {"sample", cmd_sample, 1},
    {"animate", cmd_animate, 1},
    {"velocity", cmd_velocity, 1},
    {"acceleration", cmd_acceleration, 1},
    {"sample-distance", cmd_sample_distance, 1},
    {"follow", cmd_follow, 1},
    {"plot", cmd_plot, 0},
    {"dump", NULL, 0}, /* reads the file itself: it must describe damaged ones too */
};

static const struct command *find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

/* Takes every "--format F" / "--format=F" out of args[0..*count). Numbers
 * never start with "--", so this cannot take one of them. */
static int take_format(char **args, int *count, kfp_format *format)
{
    int kept = 0;
    for (int i = 0; i < *count; i++) {
        const char *value = NULL;
        if (strcmp(args[i], "--format") == 0) {
            if (i + 1 == *count) {
                fprintf(stderr, "kfplay: --format needs a value: text, csv or json\n");
                return 0;
            }
            value = args[++i];
        } else if (strncmp(args[i], "--format=", 9) == 0) {
            value = args[i] + 9;
        } else {
            args[kept++] = args[i];
            continue;
        }
        if (!kfp_format_parse(value, format)) {
            fprintf(stderr, "kfplay: unknown format '%s': text, csv or json\n", value);
            return 0;
        }
    }
    *count = kept;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("kfplay %s (libkf %s)\n", KF_VERSION_STRING, kf_version());
        return 0;
    }
    if (argc < 3) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    /* "kfplay FILE COMMAND ..." or, as in `kfplay dump FILE`, "kfplay COMMAND FILE ...". */
    const char *path = argv[1];
    const struct command *cmd = find_command(argv[2]);
    if (!cmd && find_command(argv[1])) {
        cmd = find_command(argv[1]);
        path = argv[2];
    }
    if (!cmd) {
        fprintf(stderr, "kfplay: unknown command '%s'\n%s", argv[2], usage);
        return EXIT_USAGE;
    }
    char **args = argv + 3;
    int count = argc - 3;
    kfp_context ctx = {NULL, KFP_FORMAT_TEXT};
    if (!take_format(args, &count, &ctx.format))
        return EXIT_USAGE;
    if (ctx.format != KFP_FORMAT_TEXT && !cmd->rows) {
        fprintf(stderr, "kfplay: %s has no --format\n", cmd->name);
        return EXIT_USAGE;
    }
    int status;
    if (!cmd->run) {
        status = kfp_dump(path, args, count);
    } else {
        kf_anim *anim;
        kf_error err;
        if (kf_load_file(path, NULL, &anim, &err) != KF_OK) {
            fprintf(stderr, "kfplay: %s: %s\n", path, err.message);
            return EXIT_INPUT;
        }
        ctx.anim = anim;
        status = cmd->run(&ctx, args, count);
        kf_anim_free(anim);
    }
    if (fflush(stdout) != 0) {
        fprintf(stderr, "kfplay: writing the output failed\n");
        status = EXIT_INPUT;
    }
    return status;
}
