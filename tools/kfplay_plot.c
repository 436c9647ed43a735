/* SPDX-License-Identifier: MIT */
/*
 * What `kfplay plot` draws: each NAME becomes one kfp_panel (kfplay_svg.c
 * draws it). The values are the ones the other commands print: a sequence's
 * as `sample` prints them, an interpolator's too (rotations as axis-angle),
 * a follower's as `follow`, a target's as `animate`.
 */
#include "kfplay_plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfc_number.h"
#include "kfc_output.h"
#include "kfc_text.h"
#include "kfplay_follow.h"
#include "kfplay_names.h"
#include "kfplay_svg.h"

enum { DEFAULT_SAMPLES = 400, MAX_SAMPLES = 100000 };

/* A name as kfplay writes every name (kf_text_name, unquoted): a title
 * shows a name holding ESC or U+009B as its \xNN, as a message would. */
static const char *title_name(char out[KFP_QUOTE_SIZE], const char *name)
{
    return kf_text_name(out, KFP_QUOTE_SIZE, name, strlen(name), 0);
}

/*
 * What one picture may draw, whatever the file: the points of its lines
 * (samples x components, every panel's together) and its key marks (keys x
 * components, each tangent counted as another). A file's sizes (a sequence
 * of 100,000 components, a million keys) would otherwise make a picture of
 * gigabytes from a few hundred bytes; within these bounds an SVG stays under
 * about 60 MB (a line point takes at most 17 bytes, a key mark or half a
 * tangent at most 130) and plotting's memory under 100 MB. A request beyond them is refused, naming
 * the panel, before it is drawn. man kfplay states the bound.
 */
#define MAX_LINE_POINTS 2000000.0
#define MAX_KEY_MARKS   200000.0

typedef struct plot_budget {
    double points, marks; /* drawn so far, by earlier panels */
} plot_budget;

/* Counts a panel's points and marks; 0 (and a message) when the picture
 * would pass a bound. Counted in doubles: the products cannot wrap. */
static int within_budget(plot_budget *b, const char *name, double samples, double keys,
                         double components, double marks_per_key)
{
    const double points = samples * components, marks = keys * components * marks_per_key;
    char q[KFP_QUOTE_SIZE];
    if (b->points + points > MAX_LINE_POINTS) {
        kfp_error("plot: %s: %.0f samples x %.0f components make %.0f line points; a "
                  "picture draws at most %.0f (fewer --samples or names)",
                  kfp_quote(q, name), samples, components, b->points + points, MAX_LINE_POINTS);
        return 0;
    }
    if (b->marks + marks > MAX_KEY_MARKS) {
        kfp_error("plot: %s: %.0f keys x %.0f components make %.0f key marks; a picture "
                  "draws at most %.0f",
                  kfp_quote(q, name), keys, components, b->marks + marks, MAX_KEY_MARKS);
        return 0;
    }
    b->points += points;
    b->marks += marks;
    return 1;
}

typedef struct plot_options {
    plot_budget *budget;
    const char *output;
    int tangents;
    double from, to;
    int have_from, have_to;
    double samples;
    const kfp_options *command_line; /* follow's --tick, --until, --capacity, --event */
} plot_options;

static const char *const xyz[] = {"x", "y", "z"};
static const char *const xyzw[] = {"x", "y", "z", "w"};
static const char *const axis_angle[] = {"axis x", "axis y", "axis z", "angle"};
static const char *const rgb[] = {"r", "g", "b"};

static void *alloc_array(size_t count, size_t size)
{
    return calloc(count ? count : 1, size);
}

static int out_of_memory(void)
{
    kfp_error("out of memory");
    return KFP_EXIT_NOMEM;
}

/* Sample positions over [x0, x1]: an even grid, plus each of `marks` and a
 * point just before it, so that jumps at keys and seams draw upright. */
static size_t grid(double x0, double x1, size_t n, const double *marks, size_t mark_count,
                   double **out)
{
    const size_t total = n + 2 * mark_count;
    double *x = alloc_array(total, sizeof *x);
    if (!x)
        return 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        x[m++] = x0 + (x1 - x0) * (double)i / (double)(n - 1);
    const double before = (x1 - x0) * 1e-7;
    for (size_t i = 0; i < mark_count; i++) {
        if (marks[i] - before > x0)
            x[m++] = marks[i] - before;
        if (marks[i] >= x0 && marks[i] <= x1)
            x[m++] = marks[i];
    }
    for (size_t i = 1; i < m; i++) { /* insertion sort: the marks are few and nearly sorted */
        double v = x[i];
        size_t j = i;
        for (; j > 0 && x[j - 1] > v; j--)
            x[j] = x[j - 1];
        x[j] = v;
    }
    *out = x;
    return m;
}

static int is_rotation_node(kf_node node)
{
    return node == KF_NODE_ORIENTATION_INTERPOLATOR ||
           node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
}

static const char *const *names_for(uint32_t components, int rotation_quat)
{
    if (components == 4 && rotation_quat)
        return xyzw;
    if (components == 3)
        return xyz;
    return NULL;
}

static int plot_sequence(const kf_sequence *s, const plot_options *o, kfp_panel *p)
{
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    const uint32_t nc = info.components;
    const int periods = info.repeat == KF_REPEAT_LOOP ? 2 : 1;
    const uint32_t valid = info.valid_first <= info.valid_last
                               ? info.valid_last - info.valid_first + 1
                               : info.key_count - info.valid_first + info.valid_last + 1;
    char tn[KFP_QUOTE_SIZE];
    snprintf(p->title, sizeof p->title, "%s: %s %s sequence, %u keys", title_name(tn, info.name),
             kf_repeat_name(info.repeat), kf_interpolation_name(info.interpolation),
             (unsigned)valid);
    p->x_label = "sequence time";
    const int derivable = info.interpolation == KF_INTERPOLATION_LINEAR ||
                          info.interpolation == KF_INTERPOLATION_SPLINE;
    /* The grid's samples: the even ones, and two at each key and seam. */
    const double keys = (double)valid * periods;
    if (!within_budget(o->budget, info.name, o->samples + 2.0 * (keys + periods - 1), keys, nc,
                       o->tangents && derivable ? 3 : 1))
        return KFP_EXIT_INVALID;
    p->components = nc;
    p->component_names = names_for(nc, info.interpolation == KF_INTERPOLATION_SLERP ||
                                           info.interpolation == KF_INTERPOLATION_SQUAD);
    p->keys = (size_t)valid * (size_t)periods;
    p->key_x = alloc_array(p->keys, sizeof *p->key_x);
    p->key_y = alloc_array(p->keys * nc, sizeof *p->key_y);
    p->seams = (size_t)periods - 1;
    p->seam_x = alloc_array(p->seams, sizeof *p->seam_x);
    float *value = alloc_array(nc, sizeof *value);
    if (!p->key_x || !p->key_y || !p->seam_x || !value) {
        free(value);
        return out_of_memory();
    }
    for (int period = 0; period < periods; period++) {
        for (uint32_t k = 0; k < valid; k++) {
            float t;
            const size_t j = (size_t)period * valid + k;
            kf_sequence_key(s, (info.valid_first + k) % info.key_count, &t, value);
            p->key_x[j] = t + period * info.duration;
            for (uint32_t c = 0; c < nc; c++)
                p->key_y[j * nc + c] = value[c];
        }
    }
    for (size_t i = 0; i < p->seams; i++)
        p->seam_x[i] = (double)(i + 1) * info.duration;

    double *marks = alloc_array(p->keys + p->seams, sizeof *marks);
    if (!marks) {
        free(value);
        return out_of_memory();
    }
    memcpy(marks, p->key_x, p->keys * sizeof *marks);
    memcpy(marks + p->keys, p->seam_x, p->seams * sizeof *marks);
    p->n = grid(0, periods * info.duration, (size_t)o->samples, marks, p->keys + p->seams, &p->x);
    free(marks);
    p->y = p->n ? alloc_array(p->n * nc, sizeof *p->y) : NULL;
    if (!p->y) {
        free(value);
        return out_of_memory();
    }
    for (size_t i = 0; i < p->n; i++) {
        kf_sequence_sample(s, p->x[i], NULL, value);
        for (uint32_t c = 0; c < nc; c++)
            p->y[i * nc + c] = value[c];
    }

    char q[KFP_QUOTE_SIZE];
    if (o->tangents && !derivable)
        kfp_warning("%s: --tangents: only linear and spline sequences have tangents; none "
                    "drawn",
                    kfp_quote(q, info.name));
    if (o->tangents && derivable) {
        p->slope_in = alloc_array(p->keys * nc, sizeof *p->slope_in);
        p->slope_out = alloc_array(p->keys * nc, sizeof *p->slope_out);
        if (!p->slope_in || !p->slope_out) {
            free(value);
            return out_of_memory();
        }
        /* The derivative on each side of the key: they differ where the
         * curve has a corner (continuity != 0, linear keys). */
        const double side = info.duration * 1e-6;
        for (size_t k = 0; k < p->keys; k++) {
            for (int out = 0; out < 2; out++) {
                double *slope = out ? p->slope_out : p->slope_in;
                if (kf_sequence_velocity(s, p->key_x[k] + (out ? side : -side), NULL, value) !=
                    KF_OK)
                    memset(value, 0, nc * sizeof *value);
                for (uint32_t c = 0; c < nc; c++)
                    slope[k * nc + c] = value[c];
            }
        }
    }
    free(value);
    return 0;
}

static int plot_interpolator(const kf_interpolator *ip, const plot_options *o, kfp_panel *p)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(ip, &info);
    const int rotation = is_rotation_node(info.node);
    const uint32_t nc = info.components;
    char tn[KFP_QUOTE_SIZE];
    snprintf(p->title, sizeof p->title, "%s: %s, %u keys", title_name(tn, info.name),
             kf_node_name(info.node), (unsigned)info.key_count);
    p->x_label = "fraction";
    if (!within_budget(o->budget, info.name, o->samples + 2.0 * info.key_count, info.key_count, nc,
                       1))
        return KFP_EXIT_INVALID;
    p->components = nc;
    p->component_names = rotation                                  ? axis_angle
                         : info.node == KF_NODE_COLOR_INTERPOLATOR ? rgb
                                                                   : names_for(nc, 0);
    char q[KFP_QUOTE_SIZE];
    if (o->tangents)
        kfp_warning("%s: --tangents: X3D interpolators are drawn without tangents",
                    kfp_quote(q, info.name));
    p->keys = info.key_count;
    p->key_x = alloc_array(p->keys, sizeof *p->key_x);
    p->key_y = alloc_array(p->keys * nc, sizeof *p->key_y);
    if (!p->key_x || !p->key_y)
        return out_of_memory();
    for (size_t k = 0; k < p->keys; k++)
        p->key_x[k] = info.key[k];
    p->n = grid(0, 1, (size_t)o->samples, p->key_x, p->keys, &p->x);
    p->y = p->n ? alloc_array(p->n * nc, sizeof *p->y) : NULL;
    float *value = alloc_array(nc, sizeof *value);
    if (!p->y || !value) {
        free(value);
        return out_of_memory();
    }
    /* Keys as authored where the keyValue is laid out as the output is (a
     * repeated key then shows both its values); rotations and EaseInEaseOut
     * as sampled at their fractions. */
    const int authored =
        !rotation && info.key_value &&
        (uint64_t)info.value_count * info.dimension == (uint64_t)info.key_count * nc;
    if (authored)
        for (size_t i = 0; i < p->keys * nc; i++)
            p->key_y[i] = info.key_value[i];
    for (size_t i = 0; i < p->n + (authored ? 0 : p->keys); i++) {
        const int is_key = i >= p->n;
        const double x = is_key ? p->key_x[i - p->n] : p->x[i];
        kf_interpolator_sample(ip, x, NULL, value);
        if (rotation) {
            float aa[4];
            kf_quat_to_axis_angle(value, aa);
            memcpy(value, aa, sizeof aa);
        }
        double *row = is_key ? p->key_y + (i - p->n) * nc : p->y + i * nc;
        for (uint32_t c = 0; c < nc; c++)
            row[c] = value[c];
    }
    free(value);
    return 0;
}

typedef struct follow_sink {
    kfp_panel *p;
    size_t capacity;
    int failed;
} follow_sink;

static void follow_row(void *user, double t, const float *value, uint32_t count, int active)
{
    (void)active;
    follow_sink *sink = user;
    kfp_panel *p = sink->p;
    if (sink->failed)
        return;
    if (p->n == sink->capacity) {
        size_t capacity = sink->capacity ? sink->capacity * 2 : 256;
        double *x = realloc(p->x, capacity * sizeof *x);
        if (x)
            p->x = x;
        double *y = x ? realloc(p->y, capacity * count * sizeof *y) : NULL;
        if (y)
            p->y = y;
        if (!x || !y) {
            sink->failed = 1;
            return;
        }
        sink->capacity = capacity;
    }
    p->x[p->n] = t;
    for (uint32_t c = 0; c < count; c++)
        p->y[p->n * count + c] = value[c];
    p->n++;
}

static int plot_follower(const kf_follower *f, const plot_options *o, kfp_panel *p)
{
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    kfp_follow run;
    int status = kfp_follow_setup(&run, f, o->command_line, "plot");
    if (status) {
        kfp_follow_free(&run);
        return status;
    }
    /* Plotting draws lines: a million points is more than any picture shows. */
    if (run.until / run.tick > 1e6) {
        kfp_follow_free(&run);
        return kfp_usage_error("plot: more than 1e6 ticks");
    }
    if (!within_budget(o->budget, info.name, floor(run.until / run.tick) + 1,
                       (double)run.event_count, kfp_follow_row_components(f), 0)) {
        kfp_follow_free(&run);
        return KFP_EXIT_INVALID;
    }
    const int rotation = info.node == KF_FOLLOWER_NODE_ORIENTATION_CHASER ||
                         info.node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
    char tn[KFP_QUOTE_SIZE];
    snprintf(p->title, sizeof p->title, "%s: %s, %d event%s", title_name(tn, info.name),
             kf_follower_node_name(info.node), run.event_count, run.event_count == 1 ? "" : "s");
    p->x_label = "time (s)";
    p->x_from = 0; /* the follower starts at t = 0; its first tick comes later */
    p->x_to = run.until;
    p->components = kfp_follow_row_components(f);
    p->component_names =
        rotation ? axis_angle
        : info.node == KF_FOLLOWER_NODE_COLOR_CHASER || info.node == KF_FOLLOWER_NODE_COLOR_DAMPER
            ? rgb
            : names_for(p->components, 0);
    p->events = (size_t)run.event_count;
    p->event_x = alloc_array(p->events, sizeof *p->event_x);
    if (!p->event_x) {
        kfp_follow_free(&run);
        return out_of_memory();
    }
    for (size_t i = 0; i < p->events; i++)
        p->event_x[i] = run.events[i].time;
    follow_sink sink = {p, 0, 0};
    status = kfp_follow_run(&run, follow_row, &sink);
    kfp_follow_free(&run);
    if (!status && sink.failed)
        status = out_of_memory();
    if (!status && p->n == 0) {
        kfp_error("plot: no tick before --until");
        status = KFP_EXIT_INVALID;
    }
    return status;
}

double kfp_period_end(const kf_anim *anim, uint32_t target)
{
    double end = 0;
    for (uint32_t i = 0; i < kf_anim_count(anim, KF_KIND_TRACK); i++) {
        kf_track_info t;
        kf_anim_track_info(anim, i, &t);
        if ((target != KF_NO_INDEX && t.target != target) || t.controller == KF_NO_INDEX)
            continue;
        kf_controller_info c;
        kf_anim_controller_info(anim, t.controller, &c);
        double period = 0;
        if (t.animator_kind == KF_KIND_SEQUENCE) {
            kf_sequence_info s;
            kf_sequence_get_info(kf_anim_sequence(anim, t.animator), &s);
            period = s.duration;
        } else if (t.animator_kind == KF_KIND_INTERPOLATOR) {
            period = t.cycle_interval;
        }
        if (c.speed > 0 && period > 0)
            end = fmax(end, c.ref_world + (period - c.ref_sequence) / c.speed);
    }
    return end > 0 && isfinite(end) ? end : 1;
}

static int plot_target(const kf_anim *anim, uint32_t target, const plot_options *o, kfp_panel *p)
{
    kf_target_info info;
    kf_anim_target_info(anim, target, &info);
    const double from = o->have_from ? o->from : 0;
    const double to = o->have_to ? o->to : kfp_period_end(anim, target);
    if (!(to > from) || !isfinite(to - from))
        return kfp_usage_error("plot: --to must be after --from");
    /* World times are doubles: at seconds since 1970, 9 digits would not
     * tell the ends apart. */
    char from_text[KFC_NUMBER_TEXT], to_text[KFC_NUMBER_TEXT];
    kfc_format_double(from_text, from);
    kfc_format_double(to_text, to);
    char tn[KFP_QUOTE_SIZE];
    snprintf(p->title, sizeof p->title, "%s: target (%s), played from %s s to %s s",
             title_name(tn, info.name),
             info.property == KF_PROPERTY_CUSTOM ? "custom" : kf_property_name(info.property),
             from_text, to_text);
    p->x_label = "world time (s)";
    if (!within_budget(o->budget, info.name, o->samples, 0, info.components, 0))
        return KFP_EXIT_INVALID;
    p->components = info.components;
    p->component_names = names_for(info.components, info.property == KF_PROPERTY_ORIENTATION);
    p->n = grid(from, to, (size_t)o->samples, NULL, 0, &p->x);
    p->y = p->n ? alloc_array(p->n * info.components, sizeof *p->y) : NULL;
    kf_player *player = NULL;
    if (!p->y || kf_player_create(anim, NULL, &player) != KF_OK)
        return out_of_memory();
    for (size_t i = 0; i < p->n; i++) {
        kf_player_update(player, p->x[i]);
        const float *v = kf_player_value(player, target);
        for (uint32_t c = 0; c < info.components; c++)
            p->y[i * info.components + c] = v[c];
    }
    kf_player_destroy(player);
    return 0;
}

/* What a NAME draws: the kind of panel, and which object. */
typedef enum panel_kind {
    PANEL_SEQUENCE,
    PANEL_INTERPOLATOR,
    PANEL_CHASER,
    PANEL_DAMPER,
    PANEL_TARGET
} panel_kind;

typedef struct panel_source {
    panel_kind kind;
    uint32_t index;
} panel_source;

/* The plot options each kind of panel takes (-o is the picture's); man
 * kfplay says the same. --tangents is an animator's: a linear or spline
 * sequence draws them, the other animators say that they have none.
 * --capacity is a chaser's: a damper holds no transitions. */
static const struct {
    const char *what; /* "a sequence", after "'NAME' is" */
    unsigned options;
} panel_kinds[] = {
    [PANEL_SEQUENCE] = {"a sequence", KFP_OPT_SAMPLES | KFP_OPT_TANGENTS},
    [PANEL_INTERPOLATOR] = {"an X3D interpolator", KFP_OPT_SAMPLES | KFP_OPT_TANGENTS},
    [PANEL_CHASER] = {"a follower (a chaser)",
                      KFP_OPT_TICK | KFP_OPT_UNTIL | KFP_OPT_CAPACITY | KFP_OPT_EVENT},
    [PANEL_DAMPER] = {"a follower (a damper)", KFP_OPT_TICK | KFP_OPT_UNTIL | KFP_OPT_EVENT},
    [PANEL_TARGET] = {"a target", KFP_OPT_FROM | KFP_OPT_TO | KFP_OPT_SAMPLES},
};

/* For an option no panel takes: the panels that would. */
static const char *panels_taking(unsigned bit)
{
    switch (bit) {
    case KFP_OPT_FROM:
    case KFP_OPT_TO:
        return "a target's panel";
    case KFP_OPT_SAMPLES:
        return "an animator's or a target's panel";
    case KFP_OPT_TANGENTS:
        return "an animator's panel";
    case KFP_OPT_CAPACITY:
        return "a chaser's panel";
    default:
        return "a follower's panel";
    }
}

static int find_panel(const kf_anim *anim, const char *name, panel_source *src)
{
    static const struct {
        kf_kind kind;
        panel_kind panel;
    } order[] = {{KF_KIND_SEQUENCE, PANEL_SEQUENCE},
                 {KF_KIND_INTERPOLATOR, PANEL_INTERPOLATOR},
                 {KF_KIND_FOLLOWER, PANEL_CHASER},
                 {KF_KIND_TARGET, PANEL_TARGET}};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        if ((src->index = kf_anim_find(anim, order[k].kind, name)) != KF_NO_INDEX) {
            src->kind = order[k].panel;
            if (src->kind == PANEL_CHASER) {
                kf_follower_info info;
                kf_follower_get_info(kf_anim_follower(anim, src->index), &info);
                if (kf_follower_node_is_damper(info.node))
                    src->kind = PANEL_DAMPER;
            }
            return 0;
        }
    }
    /* A controller is named as the things plot draws are, but is none of
     * them: said as sample says it, not as a name the file lacks. */
    char q[KFP_QUOTE_SIZE];
    kfp_quote(q, name);
    if (kf_anim_find(anim, KF_KIND_CONTROLLER, name) != KF_NO_INDEX)
        kfp_error("%s is a controller, not an animator, follower or target: animate plays "
                  "what it controls (kfplay FILE animate W...)",
                  q);
    else {
        static const kf_kind drawn[] = {KF_KIND_SEQUENCE, KF_KIND_INTERPOLATOR, KF_KIND_FOLLOWER,
                                        KF_KIND_TARGET};
        char hint[256];
        kfp_names_like(anim, drawn, 4, name, hint, sizeof hint);
        kfp_error("no animator, follower or target named %s%s (kfplay FILE list shows the names)",
                  q, hint);
    }
    return KFP_EXIT_INVALID;
}

/*
 * An option of the plot that no panel of the picture takes is a usage
 * error, naming the option and what each panel is. An option one panel
 * takes is the picture's (--tick with a sequence and a follower drives the
 * follower).
 */
static int check_options_apply(const kfp_options *c, char **names, const panel_source *src,
                               int count)
{
    unsigned taken = KFP_OPT_OUTPUT;
    for (int i = 0; i < count; i++)
        taken |= panel_kinds[src[i].kind].options;
    const unsigned extra = c->given & ~taken;
    if (!extra)
        return 0;
    const unsigned bit = extra & -extra;
    char list[512];
    size_t used = 0;
    list[0] = '\0';
    for (int i = 0; i < count && used < sizeof list - 1; i++) {
        char q[KFP_QUOTE_SIZE];
        int n = snprintf(list + used, sizeof list - used, "%s%s is %s", i ? ", " : "",
                         kfp_quote(q, names[i]), panel_kinds[src[i].kind].what);
        used = n < 0 ? sizeof list - 1 : used + (size_t)n;
    }
    return kfp_usage_error("plot: %s is for %s; %s%s", kfp_option_name(bit), panels_taking(bit),
                           list, used >= sizeof list - 1 ? "..." : "");
}

static int plot_panel(const kf_anim *anim, const panel_source *src, const plot_options *o,
                      kfp_panel *p)
{
    switch (src->kind) {
    case PANEL_SEQUENCE:
        return plot_sequence(kf_anim_sequence(anim, src->index), o, p);
    case PANEL_INTERPOLATOR:
        return plot_interpolator(kf_anim_interpolator(anim, src->index), o, p);
    case PANEL_CHASER:
    case PANEL_DAMPER:
        return plot_follower(kf_anim_follower(anim, src->index), o, p);
    default:
        return plot_target(anim, src->index, o, p);
    }
}

/* -o never names the file kfplay read (for "-", the file standard input
 * reads, if any): by any of its names, a symbolic or a hard link; nor is
 * "-" standard output opened on it (kfc_output_check takes "-" as
 * standard output's file, as it takes /dev/fd/1). */
static int check_output_not_input(const char *input, const char *output)
{
    kfc_file_read named = {(char *)input, NULL, NULL};
    kfc_files_read inputs = {.items = &named,
                             .count = strcmp(input, "-") != 0,
                             .capacity = 1,
                             .stdin_read = strcmp(input, "-") == 0};
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    if (kfc_output_check(output, "output", &inputs, NULL, NULL, &diag) == KFC_OK)
        return 0;
    return kfp_usage_error("plot: %s", diag.message);
}

/* The picture, written as kfc writes its outputs (kfc_output.h): through a
 * temporary file renamed into place once all of it was written, so that a
 * failure leaves an earlier file as it was; a FIFO or a device written in
 * place; "-" standard output. A failure says why. */
static int write_picture(const char *path, const kfp_panel *panels, size_t count)
{
    kfc_output out;
    kfc_diag diag;
    memset(&diag, 0, sizeof diag);
    kfc_status st = kfc_output_open(&out, path, &diag);
    if (st == KFC_OK) {
        errno = 0;
        /* The stream's first failed write left its errno, the reason. */
        if (kfp_svg_write(out.file, panels, count) && !out.error)
            out.error = errno ? errno : EIO;
        st = out.error ? kfc_output_write_failed(&out, &diag) : kfc_output_commit(&out, &diag);
    }
    if (st == KFC_OK)
        return 0;
    kfc_diag_print(stderr, path, &diag);
    return st == KFC_NOMEM ? KFP_EXIT_NOMEM : KFP_EXIT_IO;
}

/* The plot options of the command line. */
static int take_options(const kfp_options *c, plot_options *o, int name_count)
{
    o->command_line = c;
    o->output = c->output;
    o->tangents = c->tangents;
    o->from = c->from;
    o->have_from = (c->given & KFP_OPT_FROM) != 0;
    o->to = c->to;
    o->have_to = (c->given & KFP_OPT_TO) != 0;
    o->samples = DEFAULT_SAMPLES;
    if (c->given & KFP_OPT_SAMPLES) {
        if (!(c->samples >= 2 && c->samples <= MAX_SAMPLES))
            return kfp_usage_error("--samples must be from 2 to %d", MAX_SAMPLES);
        o->samples = floor(c->samples);
    }
    if (!name_count && !o->output)
        return kfp_usage_error("plot needs at least one NAME and -o OUT.svg");
    if (!name_count)
        return kfp_usage_error("plot needs at least one NAME");
    if (!o->output)
        return kfp_usage_error("plot needs -o OUT.svg, the picture's file ('-': standard "
                               "output)");
    return 0;
}

int kfp_plot(const kf_anim *anim, const char *input, const kfp_options *options, char **names,
             int count)
{
    plot_options o;
    plot_budget budget = {0, 0};
    memset(&o, 0, sizeof o);
    o.budget = &budget;
    kfp_panel *panels = alloc_array((size_t)count, sizeof *panels);
    panel_source *sources = alloc_array((size_t)count, sizeof *sources);
    const int name_count = count;
    int status;
    if (!panels || !sources)
        status = out_of_memory();
    else
        status = take_options(options, &o, name_count);
    if (!status)
        status = check_output_not_input(input, o.output);
    /* Numbers after the names, with an --event given: its value's
     * components, split by the shell at their spaces. */
    char fixed[256], q[KFP_QUOTE_SIZE];
    for (int i = 1; i < name_count && !status; i++)
        if (kfp_event_split(options, names + i, name_count - i, fixed, sizeof fixed))
            status = kfp_usage_error("plot: %s is a number, not a name: an event's value is "
                                     "written with commas and no spaces (--event %s)",
                                     kfp_quote(q, names[i]), fixed);
    for (int i = 0; i < name_count && !status; i++)
        status = find_panel(anim, names[i], &sources[i]);
    if (!status)
        status = check_options_apply(options, names, sources, name_count);
    for (int i = 0; i < name_count && !status; i++)
        status = plot_panel(anim, &sources[i], &o, &panels[i]);

    /* The picture is written only once every panel could be drawn. */
    if (!status)
        status = write_picture(o.output, panels, (size_t)name_count);
    for (int i = 0; panels && i < count; i++)
        kfp_panel_free(&panels[i]);
    free(panels);
    free(sources);
    return status;
}
