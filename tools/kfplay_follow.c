/* SPDX-License-Identifier: MIT */
#include "kfplay_follow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfplay_args.h"

static int is_orientation(kf_follower_node node)
{
    return node == KF_FOLLOWER_NODE_ORIENTATION_CHASER ||
           node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
}

/* Parses "T:destination=V" / "T:value=V" into *e, V converted to the
 * follower's value (axis-angle to quaternion). Returns 0, KFP_EXIT_INPUT or
 * KFP_EXIT_USAGE. */
static int parse_event(const kf_follower *f, const char *spec, kfp_follow_event *e)
{
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    const char *colon = strchr(spec, ':');
    const char *kind = colon ? colon + 1 : NULL;
    const char *eq = kind ? strchr(kind, '=') : NULL;
    if (!eq) {
        fprintf(stderr, "kfplay: an event is T:destination=V or T:value=V, not '%s'\n", spec);
        return KFP_EXIT_USAGE;
    }
    size_t kind_len = (size_t)(eq - kind);
    if (kind_len == 11 && strncmp(kind, "destination", 11) == 0)
        e->set_value = 0;
    else if (kind_len == 5 && strncmp(kind, "value", 5) == 0)
        e->set_value = 1;
    else {
        fprintf(stderr, "kfplay: event '%s': the kind is destination or value\n", spec);
        return KFP_EXIT_USAGE;
    }
    char time_text[64];
    size_t time_len = (size_t)(colon - spec);
    if (time_len >= sizeof time_text) {
        fprintf(stderr, "kfplay: event '%s': the time is too long\n", spec);
        return KFP_EXIT_INPUT;
    }
    memcpy(time_text, spec, time_len);
    time_text[time_len] = '\0';
    if (!kfp_parse_number(time_text, &e->time))
        return KFP_EXIT_INPUT;

    /* The numbers as authored: per point, axis-angle for rotations. */
    const uint32_t want = info.element_count * kf_follower_node_field_components(info.node);
    double *numbers = malloc((size_t)want * sizeof *numbers);
    e->value = malloc((size_t)info.components * sizeof *e->value);
    if (!numbers || !e->value) {
        free(numbers);
        fprintf(stderr, "kfplay: out of memory\n");
        return KFP_EXIT_INPUT;
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
            status = KFP_EXIT_INPUT;
            break;
        }
        memcpy(text, p, len);
        text[len] = '\0';
        double x;
        if (!kfp_parse_number(text, &x)) {
            status = KFP_EXIT_INPUT;
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
            fprintf(stderr,
                    "kfplay: event '%s': %u numbers; %s '%s' takes %u points of %u "
                    "(%u numbers)\n",
                    spec, (unsigned)got, kf_follower_node_name(info.node), info.name,
                    (unsigned)info.element_count,
                    (unsigned)kf_follower_node_field_components(info.node), (unsigned)want);
        else
            fprintf(stderr, "kfplay: event '%s': %u numbers; %s '%s' takes %u\n", spec,
                    (unsigned)got, kf_follower_node_name(info.node), info.name, (unsigned)want);
        status = KFP_EXIT_INPUT;
    }
    if (!status) {
        if (info.components == 4 && want == 4 && is_orientation(info.node)) {
            float aa[4] = {(float)numbers[0], (float)numbers[1], (float)numbers[2],
                           (float)numbers[3]};
            kf_axis_angle_to_quat(aa, e->value);
        } else {
            for (uint32_t i = 0; i < want; i++)
                e->value[i] = (float)numbers[i];
        }
        for (uint32_t i = 0; i < info.components; i++) {
            if (!isfinite(e->value[i])) {
                fprintf(stderr, "kfplay: event '%s': a number is outside the float range\n", spec);
                status = KFP_EXIT_INPUT;
                break;
            }
        }
    }
    free(numbers);
    return status;
}

/* Stable: equal times keep the command-line order. */
static void sort_events(kfp_follow_event *events, int count)
{
    for (int i = 1; i < count; i++) {
        kfp_follow_event e = events[i];
        int j = i;
        for (; j > 0 && events[j - 1].time > e.time; j--)
            events[j] = events[j - 1];
        events[j] = e;
    }
}

int kfp_follow_parse(kfp_follow *run, const kf_follower *f, char **args, int count)
{
    memset(run, 0, sizeof *run);
    run->follower = f;
    run->capacity = KF_FOLLOWER_DEFAULT_CAPACITY;
    int have_tick = 0, have_until = 0, status = 0;
    run->events = calloc((size_t)count + 1, sizeof *run->events);
    if (!run->events) {
        fprintf(stderr, "kfplay: out of memory\n");
        return KFP_EXIT_INPUT;
    }
    for (int i = 0; i < count && !status; i += 2) {
        const char *option = args[i];
        if (i + 1 >= count) {
            fprintf(stderr, "kfplay: %s needs a value\n", option);
            status = KFP_EXIT_USAGE;
        } else if (strcmp(option, "--tick") == 0) {
            if (!kfp_parse_number(args[i + 1], &run->tick))
                status = KFP_EXIT_INPUT;
            else if (!(run->tick > 0.0)) {
                fprintf(stderr, "kfplay: --tick must be positive\n");
                status = KFP_EXIT_INPUT;
            }
            have_tick = 1;
        } else if (strcmp(option, "--until") == 0) {
            if (!kfp_parse_number(args[i + 1], &run->until))
                status = KFP_EXIT_INPUT;
            have_until = 1;
        } else if (strcmp(option, "--capacity") == 0) {
            if (!kfp_parse_number(args[i + 1], &run->capacity))
                status = KFP_EXIT_INPUT;
            else if (!(run->capacity >= 1 && run->capacity <= 1e6 &&
                       run->capacity == floor(run->capacity))) {
                fprintf(stderr, "kfplay: --capacity must be a whole number from 1 to 1000000\n");
                status = KFP_EXIT_INPUT;
            }
        } else if (strcmp(option, "--event") == 0) {
            status = parse_event(f, args[i + 1], &run->events[run->event_count++]);
        } else {
            fprintf(stderr, "kfplay: unknown option '%s'\n", option);
            status = KFP_EXIT_USAGE;
        }
    }
    if (!status && (!have_tick || !have_until)) {
        fprintf(stderr, "kfplay: follow needs --tick and --until\n");
        status = KFP_EXIT_USAGE;
    }
    /* One row per tick: refuse what no one could mean. */
    if (!status && run->until / run->tick > 1e9) {
        fprintf(stderr, "kfplay: more than 1e9 ticks\n");
        status = KFP_EXIT_INPUT;
    }
    if (!status)
        sort_events(run->events, run->event_count);
    return status;
}

uint32_t kfp_follow_row_components(const kf_follower *follower)
{
    kf_follower_info info;
    kf_follower_get_info(follower, &info);
    return info.components;
}

int kfp_follow_run(const kfp_follow *run, kfp_follow_row row, void *user)
{
    kf_follower_info info;
    kf_follower_get_info(run->follower, &info);
    kf_follower_state *state = NULL;
    if (kf_follower_state_create(run->follower, (uint32_t)run->capacity, NULL, &state) != KF_OK) {
        fprintf(stderr, "kfplay: out of memory\n");
        return KFP_EXIT_INPUT;
    }
    const double tick = run->tick, slack = 1e-9 * tick;
    int next = 0;
    for (uint64_t k = 1;; k++) {
        const double t = (double)k * tick; /* multiplied: no drift */
        if (!(t <= run->until + slack))
            break;
        for (; next < run->event_count && run->events[next].time - slack <= t; next++) {
            const kfp_follow_event *e = &run->events[next];
            if (e->set_value)
                kf_follower_set_value(state, e->value, e->time);
            else
                kf_follower_set_destination(state, e->value, e->time);
        }
        kf_follower_update(state, t);
        const float *v = kf_follower_value(state);
        if (is_orientation(info.node)) {
            float aa[4];
            kf_quat_to_axis_angle(v, aa);
            row(user, t, aa, 4, kf_follower_is_active(state));
        } else {
            row(user, t, v, info.components, kf_follower_is_active(state));
        }
    }
    kf_follower_state_destroy(state);
    return 0;
}

void kfp_follow_free(kfp_follow *run)
{
    for (int i = 0; i < run->event_count; i++)
        free(run->events[i].value);
    free(run->events);
    memset(run, 0, sizeof *run);
}
