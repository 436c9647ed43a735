/* SPDX-License-Identifier: MIT */
#include "kfplay_svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Okabe & Ito's palette without its yellow, which vanishes on white paper;
 * the dash patterns and marker shapes keep the lines apart in grey. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000"};
static const char *const dashes[] = {"none",        "8 3",  "2 2", "10 3 2 3",
                                     "5 2 1 2 1 2", "14 4", "3 5"};
#define STYLES (sizeof colours / sizeof colours[0])

enum {
    WIDTH = 760,
    PANEL_HEIGHT = 300,
    LEFT = 76,
    RIGHT = 150, /* the legend */
    TOP = 34,
    BOTTOM = 48,
    MAX_TICKS = 40
};

static double nice_number(double x, int round_it)
{
    const double e = floor(log10(x));
    const double f = x / pow(10.0, e);
    double nf;
    if (round_it)
        nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
    else
        nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nf * pow(10.0, e);
}

void kfp_nice_ticks(double lo, double hi, int target, double *first, double *last, double *step)
{
    if (!(hi > lo)) {
        /* One value: a range around it that still has round ticks. */
        const double pad = lo != 0 ? fabs(lo) * 0.1 : 1.0;
        lo -= pad;
        hi += pad;
    }
    const double range = nice_number(hi - lo, 0);
    *step = nice_number(range / (target - 1), 1);
    *first = floor(lo / *step) * *step;
    *last = ceil(hi / *step) * *step;
}

/* Decimals that print every multiple of `step` exactly. */
static int decimals(double step)
{
    int d = 0;
    while (d < 9 && fabs(step * pow(10.0, d) - nearbyint(step * pow(10.0, d))) > 1e-6)
        d++;
    return d;
}

static void text_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            /* XML 1.0 has no place for control characters. */
            putc((unsigned char)*s < 0x20 ? '?' : *s, out);
        }
    }
}

typedef struct axes {
    double x0, x1, y0, y1;  /* data range */
    double left, top, w, h; /* plot area in pixels */
} axes;

static double px(const axes *a, double x)
{
    return a->left + (x - a->x0) / (a->x1 - a->x0) * a->w;
}

static double py(const axes *a, double y)
{
    return a->top + a->h - (y - a->y0) / (a->y1 - a->y0) * a->h;
}

/* A tangent's end far off the panel (a steep slope) is clipped anyway: kept
 * within 1e5 px, its number stays short, so that each mark's bytes are
 * bounded (kfplay_plot.c's budget) and its direction is unchanged to the eye. */
static double off_panel(double y)
{
    return fmax(-1e5, fmin(1e5, y));
}

/* A marker of shape `style` (circle, square, triangle, diamond, ...). */
static void marker(FILE *out, const char *cls, unsigned style, double x, double y,
                   const char *colour)
{
    const char *common = "fill=\"#ffffff\" stroke-width=\"1.5\"";
    switch (style % 4) {
    case 0:
        fprintf(out, "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" stroke=\"%s\" %s/>",
                cls, x, y, colour, common);
        break;
    case 1:
        fprintf(out,
                "<rect class=\"%s\" x=\"%.2f\" y=\"%.2f\" width=\"6.5\" height=\"6.5\" "
                "stroke=\"%s\" %s/>",
                cls, x - 3.25, y - 3.25, colour, common);
        break;
    case 2:
        fprintf(out, "<path class=\"%s\" d=\"M%.2f %.2fl4 7h-8z\" stroke=\"%s\" %s/>", cls, x,
                y - 4.5, colour, common);
        break;
    default:
        fprintf(out,
                "<path class=\"%s\" d=\"M%.2f %.2fl4.5 4.5l-4.5 4.5l-4.5 -4.5z\" "
                "stroke=\"%s\" %s/>",
                cls, x, y - 4.5, colour, common);
        break;
    }
    putc('\n', out);
}

static void component_name(const kfp_panel *p, uint32_t c, char *buf, size_t size)
{
    if (p->component_names)
        snprintf(buf, size, "%s", p->component_names[c]);
    else
        snprintf(buf, size, "v%u", (unsigned)c);
}

static void y_range(const kfp_panel *p, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < p->n * p->components; i++) {
        if (isfinite(p->y[i])) {
            *lo = fmin(*lo, p->y[i]);
            *hi = fmax(*hi, p->y[i]);
        }
    }
    for (size_t i = 0; i < p->keys * p->components; i++) {
        if (isfinite(p->key_y[i])) {
            *lo = fmin(*lo, p->key_y[i]);
            *hi = fmax(*hi, p->key_y[i]);
        }
    }
    if (!(*lo <= *hi))
        *lo = *hi = 0;
}

static void panel(FILE *out, const kfp_panel *p, int index, double top)
{
    axes a;
    a.left = LEFT;
    a.top = top + TOP;
    a.w = WIDTH - LEFT - RIGHT;
    a.h = PANEL_HEIGHT - TOP - BOTTOM;
    double xs, ys, ylo, yhi;
    a.x0 = p->n ? p->x[0] : 0;
    a.x1 = p->n ? p->x[p->n - 1] : 1;
    if (p->x_to > p->x_from) {
        a.x0 = p->x_from;
        a.x1 = p->x_to;
    }
    if (!(a.x1 > a.x0))
        a.x1 = a.x0 + 1;
    y_range(p, &ylo, &yhi);
    kfp_nice_ticks(ylo, yhi, 6, &a.y0, &a.y1, &ys);
    double xfirst, xlast;
    kfp_nice_ticks(a.x0, a.x1, 10, &xfirst, &xlast, &xs);

    fprintf(out, "<g class=\"panel\" id=\"panel%d\">\n", index);
    fprintf(out,
            "<clipPath id=\"clip%d\"><rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
            "height=\"%.2f\"/></clipPath>\n",
            index, a.left, a.top, a.w, a.h);
    fprintf(out,
            "<text class=\"title\" x=\"%.2f\" y=\"%.2f\" font-size=\"14\" "
            "font-weight=\"bold\">",
            a.left, top + 20);
    text_escaped(out, p->title);
    fputs("</text>\n", out);

    /* Grid and ticks: x ticks lie inside the data range, y ticks bound it. */
    const int xd = decimals(xs), yd = decimals(ys);
    /* Counted loops: far from 0 (a world time of 1e15), k + 1 may not
     * differ from k in a double. */
    const double kx = ceil(a.x0 / xs - 1e-9), ky = nearbyint(a.y0 / ys);
    for (int i = 0; i < MAX_TICKS && (kx + i) * xs <= a.x1 + 1e-9 * xs; i++) {
        const double x = (kx + i) * xs, X = px(&a, x);
        fprintf(out,
                "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#dddddd\"/>\n",
                X, a.top, X, a.top + a.h);
        fprintf(out,
                "<text class=\"xtick-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">"
                "%.*f</text>\n",
                X, a.top + a.h + 16, xd, x + 0.0);
    }
    for (int i = 0; i < MAX_TICKS && (ky + i) * ys <= a.y1 + 1e-9 * ys; i++) {
        const double y = (ky + i) * ys, Y = py(&a, y);
        fprintf(out,
                "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#dddddd\"/>\n",
                a.left, Y, a.left + a.w, Y);
        fprintf(out,
                "<text class=\"ytick-label\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">"
                "%.*f</text>\n",
                a.left - 6, Y + 4, yd, y + 0.0);
    }
    fprintf(out,
            "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
            "fill=\"none\" stroke=\"#333333\"/>\n",
            a.left, a.top, a.w, a.h);
    fprintf(out, "<text class=\"xlabel\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">",
            a.left + a.w / 2, a.top + a.h + 36);
    text_escaped(out, p->x_label);
    fputs("</text>\n", out);

    for (size_t i = 0; i < p->seams; i++) {
        const double X = px(&a, p->seam_x[i]);
        fprintf(out,
                "<line class=\"seam\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#555555\" stroke-dasharray=\"6 4\"/>\n",
                X, a.top, X, a.top + a.h);
        fprintf(out,
                "<text class=\"seam-label\" x=\"%.2f\" y=\"%.2f\" font-size=\"10\" "
                "fill=\"#555555\">loop</text>\n",
                X + 3, a.top + 11);
    }
    for (size_t i = 0; i < p->events; i++) {
        const double X = px(&a, p->event_x[i]);
        fprintf(out,
                "<line class=\"event\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"#555555\" stroke-dasharray=\"1 3\"/>\n",
                X, a.top, X, a.top + a.h);
        fprintf(out,
                "<text class=\"event-label\" x=\"%.2f\" y=\"%.2f\" font-size=\"10\" "
                "fill=\"#555555\">event</text>\n",
                X + 3, a.top + 11);
    }

    fprintf(out, "<g clip-path=\"url(#clip%d)\">\n", index);
    for (uint32_t c = 0; c < p->components; c++) {
        fprintf(out,
                "<polyline class=\"series\" data-component=\"%u\" fill=\"none\" "
                "stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\" points=\"",
                (unsigned)c, colours[c % STYLES], dashes[c % STYLES]);
        /* A value that is not finite has no place on the chart: skipped. */
        for (size_t i = 0, first = 1; i < p->n; i++) {
            const double y = p->y[i * p->components + c];
            if (!isfinite(y))
                continue;
            fprintf(out, "%s%.2f,%.2f", first ? "" : " ", px(&a, p->x[i]), py(&a, y));
            first = 0;
        }
        fputs("\"/>\n", out);
    }
    if (p->slope_in) {
        /* Each key's incoming and outgoing tangent, a tenth of the width long. */
        const double half = (a.x1 - a.x0) / 20;
        for (size_t k = 0; k < p->keys; k++) {
            for (uint32_t c = 0; c < p->components; c++) {
                const size_t j = k * p->components + c;
                const double x = p->key_x[k], y = p->key_y[j];
                if (!isfinite(y) || !isfinite(p->slope_in[j]) || !isfinite(p->slope_out[j]))
                    continue;
                fprintf(out,
                        "<polyline class=\"tangent\" fill=\"none\" stroke=\"%s\" "
                        "stroke-width=\"1\" points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>\n",
                        colours[c % STYLES], px(&a, x - half),
                        off_panel(py(&a, y - half * p->slope_in[j])), px(&a, x), py(&a, y),
                        px(&a, x + half), off_panel(py(&a, y + half * p->slope_out[j])));
            }
        }
    }
    fputs("</g>\n", out);
    for (size_t k = 0; k < p->keys; k++)
        for (uint32_t c = 0; c < p->components; c++)
            if (isfinite(p->key_y[k * p->components + c]))
                marker(out, "key", c, px(&a, p->key_x[k]), py(&a, p->key_y[k * p->components + c]),
                       colours[c % STYLES]);

    /* Legend: a sample of each line, its marker and its name. */
    const double lx = a.left + a.w + 16;
    for (uint32_t c = 0; c < p->components && c < 16; c++) {
        const double ly = a.top + 8 + 18.0 * c;
        char name[32];
        component_name(p, c, name, sizeof name);
        fprintf(out,
                "<g class=\"legend\"><line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
                "stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\"/>",
                lx, ly, lx + 34, ly, colours[c % STYLES], dashes[c % STYLES]);
        if (p->keys)
            marker(out, "legend-key", c, lx + 17, ly, colours[c % STYLES]);
        fprintf(out, "<text x=\"%.2f\" y=\"%.2f\">", lx + 42, ly + 4);
        text_escaped(out, name);
        fputs("</text></g>\n", out);
    }
    if (p->components > 16)
        fprintf(out, "<text class=\"legend\" x=\"%.2f\" y=\"%.2f\">... %u in all</text>\n", lx,
                a.top + 8 + 18.0 * 16 + 4, (unsigned)p->components);
    fputs("</g>\n", out);
}

int kfp_svg_write(FILE *out, const kfp_panel *panels, size_t count)
{
    const double height = (double)PANEL_HEIGHT * (double)(count ? count : 1);
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" "
            "viewBox=\"0 0 %d %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" "
            "font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
            WIDTH, height, WIDTH, height);
    for (size_t i = 0; i < count; i++)
        panel(out, &panels[i], (int)i, (double)PANEL_HEIGHT * (double)i);
    fputs("</svg>\n", out);
    return ferror(out) ? 1 : 0;
}

void kfp_panel_free(kfp_panel *p)
{
    free(p->x);
    free(p->y);
    free(p->key_x);
    free(p->key_y);
    free(p->slope_in);
    free(p->slope_out);
    free(p->seam_x);
    free(p->event_x);
    memset(p, 0, sizeof *p);
}
