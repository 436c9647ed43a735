/* The `tracks:` section: a list of AnimationTracks; an interpolator's track
 * may give the TimeSensor that drives it. */
#include <stdint.h>

#include "kfc_schema.h"
#include "kfc_source_sections.h"

enum {
    F_ANIMATOR,
    F_CONTROLLER,
    F_TARGET,
    F_COMPONENTS,
    F_CYCLE_INTERVAL, /* the TimeSensor of an interpolator track */
    F_LOOP,
    F_EASE,
    F_COUNT
};

static const char *const field_names[F_COUNT] = {
    "animator", "controller", "target", "components", "cycleInterval", "loop", "ease",
};

static const kfc_node *error_node(const kfc_node *track, const kfc_node *const *fields,
                                  const kf_error *error)
{
    const kfc_node *at = NULL;
    switch (error->field) {
    case KF_FIELD_ANIMATOR:
        at = fields[F_ANIMATOR];
        break;
    case KF_FIELD_CONTROLLER:
        at = fields[F_CONTROLLER];
        break;
    case KF_FIELD_TARGET:
        at = fields[F_TARGET];
        break;
    case KF_FIELD_COMPONENTS:
        /* Without an explicit count, the target's property implies it. */
        at = fields[F_COMPONENTS] ? fields[F_COMPONENTS] : fields[F_TARGET];
        break;
    case KF_FIELD_CYCLE_INTERVAL:
    case KF_FIELD_LOOP:
    case KF_FIELD_EASE:
        /* The field named, else (a TimeSensor on a sequence) the first
         * TimeSensor field written. */
        at = fields[error->field == KF_FIELD_LOOP   ? F_LOOP
                    : error->field == KF_FIELD_EASE ? F_EASE
                                                    : F_CYCLE_INTERVAL];
        for (int f = F_CYCLE_INTERVAL; !at && f <= F_EASE; f++)
            at = fields[f];
        break;
    default:
        break;
    }
    return at ? at : track;
}

kfc_status kfc_source_track(kfc_source *src, const kfc_node *unused, const kfc_node *track)
{
    (void)unused; /* tracks have no names */
    const kfc_node *fields[F_COUNT];
    kfc_status st = kfc_fields(track, field_names, F_COUNT, fields, src->diag);
    if (st || (st = kfc_require(track, fields[F_ANIMATOR], "animator", src->diag))
        || (st = kfc_require(track, fields[F_TARGET], "target", src->diag)))
        return st;
    kf_track_desc desc = {NULL, NULL, NULL, 0};
    if ((st = kfc_get_string(fields[F_ANIMATOR], &desc.animator, src->diag))
        || (fields[F_CONTROLLER]
            && (st = kfc_get_string(fields[F_CONTROLLER], &desc.controller, src->diag)))
        || (st = kfc_get_string(fields[F_TARGET], &desc.target, src->diag))
        || (fields[F_COMPONENTS]
            && (st = kfc_get_uint(fields[F_COMPONENTS], 1, UINT32_MAX, &desc.components,
                                  src->diag))))
        return st;
    /* A TimeSensor when any of its fields is written. */
    kf_time_sensor_desc sensor = {1.0, 0, NULL};
    const int timed = fields[F_CYCLE_INTERVAL] || fields[F_LOOP] || fields[F_EASE];
    if ((fields[F_CYCLE_INTERVAL]
         && (st = kfc_get_float(fields[F_CYCLE_INTERVAL], &sensor.cycle_interval, src->diag)))
        || (fields[F_LOOP] && (st = kfc_get_bool(fields[F_LOOP], &sensor.loop, src->diag)))
        || (fields[F_EASE] && (st = kfc_get_string(fields[F_EASE], &sensor.ease, src->diag))))
        return st;
    kf_error error;
    kf_result r = kf_builder_add_interpolator_track(src->builder, &desc, timed ? &sensor : NULL,
                                                    &error);
    if (r != KF_OK)
        return kfc_source_builder_failed(src, r, &error, error_node(track, fields, &error));
    return KFC_OK;
}
