/* SPDX-License-Identifier: MIT */
/* kf_controller.c - AnimationController timing (docs/math.md §2.1). */
#include <float.h>
#include <math.h>

#include "kf_private.h"

double kf_controller_position(const kf_controller *c, double world_time)
{
    return c ? kf_controller_position_at(c, world_time) : 0.0;
}

int kf_controller_is_active(const kf_controller *c, double world_time)
{
    return c ? kf_controller_active_at(c, world_time) : 0;
}

kf_result kf_controller_set_position(kf_controller *c, double sequence_time, double world_time)
{
    if (!c || !isfinite(sequence_time) || !isfinite(world_time))
        return KF_ERROR_ARGUMENT;
    c->ref_sequence = sequence_time;
    c->ref_world = world_time;
    return KF_OK;
}

kf_result kf_controller_set_speed(kf_controller *c, double speed, double world_time)
{
    if (!c || !isfinite(speed) || !isfinite(world_time))
        return KF_ERROR_ARGUMENT;
    /* Re-base at world_time so the position does not jump. */
    c->ref_sequence = kf_controller_position(c, world_time);
    c->ref_world = world_time;
    c->speed = speed;
    return KF_OK;
}

kf_result kf_controller_set_weight(kf_controller *c, double weight)
{
    if (!c || !(weight >= 0.0) || !(weight <= KF_MAX_WEIGHT))
        return KF_ERROR_ARGUMENT;
    c->weight = weight;
    return KF_OK;
}

kf_result kf_controller_set_active_interval(kf_controller *c, double start, double end)
{
    if (!c || !isfinite(start) || !isfinite(end) || start > end)
        return KF_ERROR_ARGUMENT;
    c->active_start = start;
    c->active_end = end;
    return KF_OK;
}

void kf_controller_get_info(const kf_controller *c, kf_controller_info *info)
{
    if (!info)
        return;
    if (!c) {
        *info = (kf_controller_info){"", 0, 0, 0, 0, 0, 0};
        return;
    }
    *info = (kf_controller_info){c->name,       c->speed,     c->weight,      c->active_start,
                                 c->active_end, c->ref_world, c->ref_sequence};
}
