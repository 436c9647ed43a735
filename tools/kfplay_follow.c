/* SPDX-License-Identifier: MIT */
#include "kfplay_follow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_orientation(kf_follower_node node)
{
    return node == KF_FOLLOWER_NODE_ORIENTATION_CHASER ||
           node == KF_FOLLOWER_NODE_ORIENTATION_DAMPER;
}

/* Parses "T:destination=V" / "T:value=V" into *e, V converted to the
 * follower's value (axis-angle to quaternion). Returns 0, KFP_EXIT_USAGE
 * (an --event's value, malformed or not the follower's, is an option's
 * value, as kfc refuses its own) or KFP_EXIT_NOMEM. */
static int parse_event(const kf_follower *f, const char *spec, kfp_follow_event *e)
{
    kf_follower_info info;
    kf_follower_get_info(f, &info);
    char q[KFP_QUOTE_SIZE], name[KFP_QUOTE_SIZE];
    kfp_quote(q, spec);
    const char *colon = strchr(spec, ':');
    const char *kind = colon ? colon + 1 : NULL;
    const char *eq = kind ? strchr(kind, '=') : NULL;
    if (!eq) {
        return kfp_usage_error("an event is T:destination=V or T:value=V, not %s", q);
    }
    size_t kind_len = (size_t)(eq - kind);
    if (kind_len == 11 && strncmp(kind, "destination", 11) == 0)
        e->set_value = 0;
    else if (kind_len == 5 && strncmp(kind, "value", 5) == 0)
        e->set_value = 1;
    else {
        return kfp_usage_error("event %s: the kind is destination or value", q);
    }
    char time_text[64];
    size_t time_len = (size_t)(colon - spec);
    if (time_len >= sizeof time_text)
        return kfp_usage_error("event %s: the time is too long", q);
    memcpy(time_text, spec, time_len);
    time_text[time_len] = '\0';
    /* A number's message names the event: "event '1:value=x'". */
    char *what = malloc(strlen(q) + sizeof "event ");
    if (!what) {
        kfp_error("out of memory");
        return KFP_EXIT_NOMEM;
    }
    strcat(strcpy(what, "event "), q);
    int status = kfp_option_number(what, time_text, &e->time);
    if (status) {
        free(what);
        return status;
    }

    /* The numbers as authored: per point, axis-angle for rotations. */
    const uint32_t want = info.element_count * kf_follower_node_field_components(info.node);
    double *numbers = malloc((size_t)want * sizeof *numbers);
    e->value = malloc((size_t)info.components * sizeof *e->value);
    if (!numbers || !e->value) {
        free(numbers);
        free(what);
        kfp_error("out of memory");
        return KFP_EXIT_NOMEM;
    }
    uint32_t got = 0;
    const char *p = eq + 1;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char text[64];
        if (len >= sizeof text) {
            status = kfp_usage_error("event %s: a number is too long", q);
            break;
        }
        memcpy(text, p, len);
        text[len] = '\0';
        double x;
        if ((status = kfp_option_number(what, text, &x)) != 0)
            break;
        if (got < want)
            numbers[got] = x;
        got++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (!status && got != want) {
        kfp_quote(name, info.name);
        if (kf_follower_node_is_array(info.node))
            status = kfp_usage_error("event %s: %u numbers; %s %s takes %u points of %u (%u "
                                     "numbers)",
                                     q, (unsigned)got, kf_follower_node_name(info.node), name,
                                     (unsigned)info.element_count,
                                     (unsigned)kf_follower_node_field_components(info.node),
                                     (unsigned)want);
        else
            status = kfp_usage_error("event %s: %u numbers; %s %s takes %u", q, (unsigned)got,
                                     kf_follower_node_name(info.node), name, (unsigned)want);
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
                status = kfp_usage_error("event %s: a number is outside the float range", q);
                break;
            }
        }
    }
    free(numbers);
    free(what);
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

int kfp_follow_setup(kfp_follow *run, const kf_follower *f, const kfp_options *o,
                     const char *command)
{
    memset(run, 0, sizeof *run);
    run->follower = f;
    run->capacity = KF_FOLLOWER_DEFAULT_CAPACITY;
    run->quaternions = o->rotation == KFP_ROTATION_QUATERNION;
    run->tick = o->tick;
    run->until = o->until;
    /* Every check here is of options' values: a usage error, as kfc's are. */
    if ((o->given & KFP_OPT_TICK) && !(run->tick > 0.0))
        return kfp_usage_error("--tick must be positive");
    if (o->given & KFP_OPT_CAPACITY) {
        run->capacity = o->capacity;
        if (!(run->capacity >= 1 && run->capacity <= 1e6 && run->capacity == floor(run->capacity)))
            return kfp_usage_error("--capacity must be a whole number from 1 to 1000000");
    }
    if (!(o->given & KFP_OPT_TICK) || !(o->given & KFP_OPT_UNTIL))
        return kfp_usage_error("%s needs --tick and --until to run a follower", command);
    /* Ticks fall at DT, 2 DT, ... up to T (kfp_follow_run): none is
     * nothing to print. */
    if (!(run->tick <= run->until + kfp_time_reach(run->tick, run->until)))
        return kfp_usage_error("--tick %.9g is longer than --until %.9g: no tick to print (the "
                               "first falls at DT)",
                               run->tick, run->until);
    /* One row per tick: refuse what no one could mean. */
    if (run->until / run->tick > 1e9)
        return kfp_usage_error("more than 1e9 ticks");
    run->events = calloc((size_t)o->event_count + 1, sizeof *run->events);
    if (!run->events) {
        kfp_error("out of memory");
        return KFP_EXIT_NOMEM;
    }
    int status = 0;
    for (int i = 0; i < o->event_count && !status; i++)
        status = parse_event(f, o->events[i], &run->events[run->event_count++]);
    if (!status)
        sort_events(run->events, run->event_count);
    /* An event is sent at the first tick at or after it, the last tick at
     * T (kfp_follow_run): one after T is never sent. */
    for (int i = 0; i < run->event_count && !status; i++)
        if (run->events[i].time - 1e-9 * run->tick > run->until) {
            status = kfp_usage_error("--event at %.9g is after --until %.9g: it would never be "
                                     "sent (times are seconds)",
                                     run->events[i].time, run->until);
        }
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
        kfp_error("out of memory");
        return KFP_EXIT_NOMEM;
    }
    const double tick = run->tick, slack = 1e-9 * tick;
    /* (a tick past T by a rounded DT's error is T's, run at T) */
    const double reach = kfp_time_reach(tick, run->until);
    const int places = kfp_time_places(0, tick);
    int next = 0;
    for (uint64_t k = 1;; k++) {
        double t = kfp_time_decimal((double)k * tick, places); /* multiplied: no drift */
        if (!(t <= run->until + reach))
            break;
        if (t > run->until)
            t = run->until;
        for (; next < run->event_count && run->events[next].time - slack <= t; next++) {
            const kfp_follow_event *e = &run->events[next];
            if (e->set_value)
                kf_follower_set_value(state, e->value, e->time);
            else
                kf_follower_set_destination(state, e->value, e->time);
        }
        kf_follower_update(state, t);
        const float *v = kf_follower_value(state);
        if (is_orientation(info.node) && !run->quaternions) {
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
