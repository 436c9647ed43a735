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
 *
 * Numbers print as %.9g (float32 round-trips). Everything after NAME (or
 * after `animate`) is a number, negative ones included: there is no option
 * parsing there. Errors go to stderr; exit status 1 for bad input, 2 for
 * bad usage.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kf.h"

enum { EXIT_INPUT = 1, EXIT_USAGE = 2 };

static const char usage[] =
    "usage: kfplay FILE list\n"
    "       kfplay FILE sample NAME T...\n"
    "       kfplay FILE animate W...\n"
    "       kfplay FILE velocity NAME T...\n"
    "       kfplay FILE acceleration NAME T...\n"
    "       kfplay FILE sample-distance NAME S...\n"
    "       kfplay FILE follow NAME --tick DT --until T [--capacity N]\n"
    "                               [--event T:destination=V] [--event T:value=V]...\n"
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
    "Exit status: 0 success, 1 invalid file, name or number, 2 usage error.\n";

/* Parses every argument as a finite number, or reports the first that is not. */
static int parse_numbers(char **args, int count, double *out)
{
    for (int i = 0; i < count; i++) {
        char *end;
        errno = 0;
        out[i] = strtod(args[i], &end);
        if (end == args[i] || *end || !isfinite(out[i])) {
            fprintf(stderr, "kfplay: not a finite number: '%s'\n", args[i]);
            return 0;
        }
    }
    return 1;
}

static void print_values(const float *v, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        printf(" %.9g", v[k] + 0.0f); /* + 0: print -0 as 0 */
    putchar('\n');
}

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

static int cmd_list(const kf_anim *anim, char **args, int count)
{
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
static int sample_interpolator(const kf_interpolator *p, char **args, int count)
{
    kf_interpolator_info info;
    kf_interpolator_get_info(p, &info);
    const int rotation = info.node == KF_NODE_ORIENTATION_INTERPOLATOR ||
                         info.node == KF_NODE_SQUAD_ORIENTATION_INTERPOLATOR;
    double *fractions = malloc((size_t)count * sizeof *fractions + 1);
    float *value = malloc(info.components * sizeof *value);
    int status = EXIT_INPUT;
    if (fractions && value && parse_numbers(args, count, fractions)) {
        for (int i = 0; i < count; i++) {
            kf_interpolator_sample(p, fractions[i], NULL, value);
            if (rotation) {
                float axis_angle[4];
                kf_quat_to_axis_angle(value, axis_angle);
                memcpy(value, axis_angle, sizeof axis_angle);
            }
            printf("%.9g", fractions[i]);
            print_values(value, info.components);
        }
        status = 0;
    }
    free(fractions);
    free(value);
    return status;
}

/* What an animator command computes at one argument. */
typedef enum query {
    QUERY_SAMPLE,
    QUERY_VELOCITY,
    QUERY_ACCELERATION,
    QUERY_DISTANCE
} query;

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
static int animator_query(const kf_anim *anim, char **args, int count, query q)
{
    if (count < 1) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    uint32_t index = kf_anim_find(anim, KF_KIND_SEQUENCE, args[0]);
    if (index == KF_NO_INDEX) {
        index = kf_anim_find(anim, KF_KIND_INTERPOLATOR, args[0]);
        if (index != KF_NO_INDEX && q != QUERY_SAMPLE) {
            fprintf(stderr, "kfplay: animator '%s' is an X3D interpolator; derivatives and "
                    "distances need a linear or spline sequence\n", args[0]);
            return EXIT_INPUT;
        }
        if (index != KF_NO_INDEX)
            return sample_interpolator(kf_anim_interpolator(anim, index), args + 1, count - 1);
        fprintf(stderr, "kfplay: no animator named '%s'\n", args[0]);
        return EXIT_INPUT;
    }
    const kf_sequence *s = kf_anim_sequence(anim, index);
    kf_sequence_info info;
    kf_sequence_get_info(s, &info);
    if (q != QUERY_SAMPLE && info.interpolation != KF_INTERPOLATION_LINEAR && info.interpolation != KF_INTERPOLATION_SPLINE &&
        !(q != QUERY_DISTANCE && info.interpolation == KF_INTERPOLATION_HERMITE)) {
        fprintf(stderr, "kfplay: animator '%s' is %s; derivatives and distances need linear or "
                "spline\n", args[0], kf_interpolation_name(info.interpolation));
        return EXIT_INPUT;
    }
    double *xs = malloc((size_t)(count - 1) * sizeof *xs + 1);
    float *value = malloc(kf_sequence_components(s) * sizeof *value);
    int status = EXIT_INPUT;
    if (xs && value && parse_numbers(args + 1, count - 1, xs)) {
        /* Random access per argument: they need not be in order. */
        status = 0;
        for (int i = 0; i < count - 1 && status == 0; i++) {
            if (run_query(q, s, xs[i], value) != KF_OK) {
                fprintf(stderr, "kfplay: cannot evaluate '%s'\n", args[0]);
                status = EXIT_INPUT;
                break;
            }
            printf("%.9g", xs[i]);
            print_values(value, kf_sequence_components(s));
        }
    }
    free(xs);
    free(value);
    return status;
}

static int cmd_sample(const kf_anim *anim, char **args, int count)
{
    return animator_query(anim, args, count, QUERY_SAMPLE);
}

static int cmd_velocity(const kf_anim *anim, char **args, int count)
{
    return animator_query(anim, args, count, QUERY_VELOCITY);
}

static int cmd_acceleration(const kf_anim *anim, char **args, int count)
{
    return animator_query(anim, args, count, QUERY_ACCELERATION);
}

static int cmd_sample_distance(const kf_anim *anim, char **args, int count)
{
    return animator_query(anim, args, count, QUERY_DISTANCE);
}

static int cmd_animate(const kf_anim *anim, char **args, int count)
{
    double *times = malloc((size_t)count * sizeof *times + 1);
    kf_player *player = NULL;
    int status = EXIT_INPUT;
    if (!times || !parse_numbers(args, count, times))
        goto done;
    if (kf_player_create(anim, NULL, &player) != KF_OK) {
        fprintf(stderr, "kfplay: out of memory\n");
        goto done;
    }
    for (int i = 0; i < count; i++) {
        kf_player_update(player, times[i]);
        for (uint32_t t = 0; t < kf_anim_count(anim, KF_KIND_TARGET); t++) {
            kf_target_info info;
            kf_anim_target_info(anim, t, &info);
            printf("%.9g %s", times[i], info.name);
            print_values(kf_player_value(player, t), info.components);
        }
    }
    status = 0;
done:
    kf_player_destroy(player);
    free(times);
    return status;
}

/* ---- follow ---------------------------------------------------------------- */

typedef struct follow_event {
    double time;
    int    set_value;  /* 0: set_destination */
    float *value;      /* kf_follower_components floats */
} follow_event;

/* Parses one finite number; reports it otherwise. */
static int parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    if (end == text || *end || !isfinite(*out)) {
        fprintf(stderr, "kfplay: not a finite number: '%s'\n", text);
        return 0;
    }
    return 1;
}

/* Parses "T:destination=V" / "T:value=V" into *e, V converted to the
 * follower's value (axis-angle to quaternion). Returns 0, EXIT_INPUT or
 * EXIT_USAGE. */
static int parse_event(const kf_follower *f, const char *spec, follow_event *e)
{
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    const char *colon = strchr(spec, ':');
    const char *kind = colon ? colon + 1 : NULL;
    const char *eq = kind ? strchr(kind, '=') : NULL;
    if (!eq) {
        fprintf(stderr, "kfplay: an event is T:destination=V or T:value=V, not '%s'\n", spec);
        return EXIT_USAGE;
    }
    size_t kind_len = (size_t)(eq - kind);
    if (kind_len == 11 && strncmp(kind, "destination", 11) == 0)
        e->set_value = 0;
    else if (kind_len == 5 && strncmp(kind, "value", 5) == 0)
        e->set_value = 1;
    else {
        fprintf(stderr, "kfplay: event '%s': the kind is destination or value\n", spec);
        return EXIT_USAGE;
    }
    char time_text[64];
    size_t time_len = (size_t)(colon - spec);
    if (time_len >= sizeof time_text) {
        fprintf(stderr, "kfplay: event '%s': the time is too long\n", spec);
        return EXIT_INPUT;
    }
    memcpy(time_text, spec, time_len);
    time_text[time_len] = '\0';
    if (!parse_number(time_text, &e->time))
        return EXIT_INPUT;

    /* The numbers as authored: per point, axis-angle for rotations. */
    const uint32_t want = info.element_count * kf_follower_node_field_components(info.node);
    double *numbers = malloc((size_t)want * sizeof *numbers);
    e->value = malloc((size_t)info.components * sizeof *e->value);
    if (!numbers || !e->value) {
        free(numbers);
        fprintf(stderr, "kfplay: out of memory\n");
        return EXIT_INPUT;
    }
    uint32_t got = 0;
    const char *p = eq + 1;
    int status = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char text[64];
        if (len >= sizeof text) {
            fprintf(stderr, "kfplay: event '%s': a number is too long\n", spec);
            status = EXIT_INPUT;
            break;
        }
        memcpy(text, p, len);
        text[len] = '\0';
        double x;
        if (!parse_number(text, &x)) {
            status = EXIT_INPUT;
            break;
        }
        if (got < want)
            numbers[got] = x;
        got++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!status && got != want) {
        if (kf_follower_node_is_array(info.node))
            fprintf(stderr, "kfplay: event '%s': %u numbers; %s '%s' takes %u points of %u "
                    "(%u numbers)\n", spec, (unsigned)got, kf_follower_node_name(info.node),
                    info.name, (unsigned)info.element_count,
                    (unsigned)kf_follower_node_field_components(info.node), (unsigned)want);
        else
            fprintf(stderr, "kfplay: event '%s': %u numbers; %s '%s' takes %u\n", spec,
                    (unsigned)got, kf_follower_node_name(info.node), info.name, (unsigned)want);
        status = EXIT_INPUT;
    }
    if (!status) {
        if (info.components == 4 && want == 4 &&
            (info.node == KF_FOLLOWER_NODE_ORIENTATION_CHASER || info.node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER)) {
            float aa[4] = {(float)numbers[0], (float)numbers[1], (float)numbers[2],
                           (float)numbers[3]};
            kf_axis_angle_to_quat(aa, e->value);
        } else {
            for (uint32_t i = 0; i < want; i++)
                e->value[i] = (float)numbers[i];
        }
        for (uint32_t i = 0; i < info.components; i++) {
            if (!isfinite(e->value[i])) {
                fprintf(stderr, "kfplay: event '%s': a number is outside the float range\n",
                        spec);
                status = EXIT_INPUT;
                break;
            }
        }
    }
    free(numbers);
    return status;
}

/* Stable: equal times keep the command-line order. */
static void sort_events(follow_event *events, int count)
{
    for (int i = 1; i < count; i++) {
        follow_event e = events[i];
        int j = i;
        for (; j > 0 && events[j - 1].time > e.time; j--)
            events[j] = events[j - 1];
        events[j] = e;
    }
}

static void print_follower_value(const kf_follower_info *info, const float *v)
{
    if (info->node == KF_FOLLOWER_NODE_ORIENTATION_CHASER || info->node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER) {
        float aa[4];
        kf_quat_to_axis_angle(v, aa);
        for (int k = 0; k < 4; k++)
            printf(" %.9g", aa[k] + 0.0f); /* + 0: print -0 as 0 */
        return;
    }
    for (uint32_t k = 0; k < info->components; k++)
        printf(" %.9g", v[k] + 0.0f);
}

static int cmd_follow(const kf_anim *anim, char **args, int count)
{
    if (count < 1) {
        fputs(usage, stderr);
        return EXIT_USAGE;
    }
    uint32_t index = kf_anim_find(anim, KF_KIND_FOLLOWER, args[0]);
    if (index == KF_NO_INDEX) {
        fprintf(stderr, "kfplay: no follower named '%s'\n", args[0]);
        return EXIT_INPUT;
    }
    const kf_follower *f = kf_anim_follower(anim, index);
    kf_follower_info info;
    kf_follower_get_info(f, &info);

    double tick = 0.0, until = 0.0, capacity = KF_FOLLOWER_DEFAULT_CAPACITY;
    int have_tick = 0, have_until = 0, status = 0, events = 0;
    follow_event *event = calloc((size_t)count, sizeof *event);
    kf_follower_state *state = NULL;
    if (!event) {
        fprintf(stderr, "kfplay: out of memory\n");
        return EXIT_INPUT;
    }
    for (int i = 1; i < count && !status; i += 2) {
        const char *option = args[i];
        if (i + 1 >= count) {
            fprintf(stderr, "kfplay: %s needs a value\n", option);
            status = EXIT_USAGE;
        } else if (strcmp(option, "--tick") == 0) {
            if (!parse_number(args[i + 1], &tick))
                status = EXIT_INPUT;
            else if (!(tick > 0.0)) {
                fprintf(stderr, "kfplay: --tick must be positive\n");
                status = EXIT_INPUT;
            }
            have_tick = 1;
        } else if (strcmp(option, "--until") == 0) {
            if (!parse_number(args[i + 1], &until))
                status = EXIT_INPUT;
            have_until = 1;
        } else if (strcmp(option, "--capacity") == 0) {
            if (!parse_number(args[i + 1], &capacity))
                status = EXIT_INPUT;
            else if (!(capacity >= 1 && capacity <= 1e6 && capacity == floor(capacity))) {
                fprintf(stderr, "kfplay: --capacity must be a whole number from 1 to 1000000\n");
                status = EXIT_INPUT;
            }
        } else if (strcmp(option, "--event") == 0) {
            status = parse_event(f, args[i + 1], &event[events++]);
        } else {
            fprintf(stderr, "kfplay: unknown option '%s'\n%s", option, usage);
            status = EXIT_USAGE;
        }
    }
    if (!status && (!have_tick || !have_until)) {
        fprintf(stderr, "kfplay: follow needs --tick and --until\n");
        status = EXIT_USAGE;
    }
    /* One line per tick: refuse what no one could mean. */
    if (!status && until / tick > 1e9) {
        fprintf(stderr, "kfplay: more than 1e9 ticks\n");
        status = EXIT_INPUT;
    }
    if (!status && kf_follower_state_create(f, (uint32_t)capacity, NULL, &state) != KF_OK) {
        fprintf(stderr, "kfplay: out of memory\n");
        status = EXIT_INPUT;
    }
    if (!status) {
        sort_events(event, events);
        const double slack = 1e-9 * tick;
        int next = 0;
        for (uint64_t k = 1;; k++) {
            const double t = (double)k * tick; /* multiplied: no drift */
            if (!(t <= until + slack))
                break;
            for (; next < events && event[next].time - slack <= t; next++) {
                const follow_event *e = &event[next];
                if (e->set_value)
                    kf_follower_set_value(state, e->value, e->time);
                else
                    kf_follower_set_destination(state, e->value, e->time);
            }
            kf_follower_update(state, t);
            printf("%.9g", t);
            print_follower_value(&info, kf_follower_value(state));
            printf(" %d\n", kf_follower_is_active(state));
        }
    }
    kf_follower_state_destroy(state);
    for (int i = 0; i < events; i++)
        free(event[i].value);
    free(event);
    return status;
}

static const struct command {
    const char *name;
    int (*run)(const kf_anim *anim, char **args, int count);
} commands[] = {
    {"list", cmd_list},
    {"sample", cmd_sample},
    {"animate", cmd_animate},
    {"velocity", cmd_velocity},
    {"acceleration", cmd_acceleration},
    {"sample-distance", cmd_sample_distance},
    {"follow", cmd_follow},
};

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
    const struct command *cmd = NULL;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[2], commands[i].name) == 0)
            cmd = &commands[i];
    if (!cmd) {
        fprintf(stderr, "kfplay: unknown command '%s'\n%s", argv[2], usage);
        return EXIT_USAGE;
    }
    kf_anim *anim;
    kf_error err;
    if (kf_load_file(argv[1], NULL, &anim, &err) != KF_OK) {
        fprintf(stderr, "kfplay: %s: %s\n", argv[1], err.message);
        return EXIT_INPUT;
    }
    int status = cmd->run(anim, argv + 3, argc - 3);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "kfplay: writing the output failed\n");
        status = EXIT_INPUT;
    }
    kf_anim_free(anim);
    return status;
}
