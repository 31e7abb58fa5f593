/* plot.c — the SVG: one panel per case, memory against step, the bad run
 * in red and the good run in blue; solid lines are PyTorch's allocator,
 * dashed lines NVML's device memory used. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"

#define MIB (1024.0 * 1024.0)
#define PANEL_W 560
#define PANEL_H 300
#define COLUMNS 2
#define HEADER_H 76
#define LEFT 64
#define RIGHT 16
#define TOP 52
#define BOTTOM 40
#define BAD_COLOR "#d62728"
#define GOOD_COLOR "#1f77b4"

typedef double (*Series)(const Step *step);

static double series__allocated(const Step *step) { return step->allocated / MIB; }
static double series__peak(const Step *step) { return step->peak / MIB; }
static double series__reserved(const Step *step) { return step->reserved / MIB; }
static double series__device(const Step *step) { return step->device_used / MIB; }

/* What the solid lines show: the memory the case's metric is about. */
static Series plot__series(Metric metric, const char **label) {
  if (metric == METRIC_PEAK) {
    *label = "peak allocated in step (MB)";
    return series__peak;
  }
  if (metric == METRIC_STEP_TIME) {
    *label = "reserved after step (MB)";
    return series__reserved;
  }
  *label = "allocated after step (MB)";
  return series__allocated;
}

typedef struct {
  double x0, y0; /* the panel's top left corner */
  double max_step, max_mb;
  double tick_mb; /* the spacing of the y-axis labels */
} Frame;

static double frame__x(const Frame *self, double step) {
  return self->x0 + LEFT + (step - 1) / fmax(1, self->max_step - 1) * (PANEL_W - LEFT - RIGHT);
}

static double frame__y(const Frame *self, double mb) {
  return self->y0 + PANEL_H - BOTTOM - mb / self->max_mb * (PANEL_H - TOP - BOTTOM);
}

/* 1, 2 or 5 times a power of ten, so that about 4 steps cover `range`. */
static double plot__tick(double range) {
  double raw = range / 4, power = pow(10, floor(log10(raw)));
  double unit = raw / power;
  return power * (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10);
}

static void plot__frame_extent(Frame *self, const CaseResult *result, Series series) {
  const Run *runs[2] = {&result->bad, &result->good};
  self->max_step = 2;
  self->max_mb = 1;
  for (int r = 0; r < 2; r++) {
    for (uint32_t i = 0; i < runs[r]->steps.size; i++) {
      const Step *step = &runs[r]->steps.contents[i];
      self->max_step = fmax(self->max_step, step->step);
      double values[2] = {series(step), series__device(step)};
      for (int v = 0; v < 2; v++) if (!isnan(values[v])) self->max_mb = fmax(self->max_mb, values[v]);
    }
  }
  self->tick_mb = plot__tick(self->max_mb * 1.05);
  self->max_mb = ceil(self->max_mb * 1.05 / self->tick_mb) * self->tick_mb;
}

static void plot__axes(Text *out, const Frame *frame, const char *label) {
  double left = frame->x0 + LEFT, right = frame->x0 + PANEL_W - RIGHT;
  double top = frame->y0 + TOP, bottom = frame->y0 + PANEL_H - BOTTOM;
  text_append(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' fill='none' stroke='#999'/>\n", left, top,
              right - left, bottom - top);
  for (double mb = 0; mb <= frame->max_mb * 1.0001; mb += frame->tick_mb) {
    double y = frame__y(frame, mb);
    text_append(out, "<line x1='%.1f' y1='%.1f' x2='%.1f' y2='%.1f' stroke='#eee'/>\n", left, y, right, y);
    text_append(out, "<text x='%.1f' y='%.1f' text-anchor='end' font-size='10'>%g</text>\n", left - 4, y + 3, mb);
  }
  double step_tick = fmax(1, plot__tick(frame->max_step));
  for (double step = step_tick; step <= frame->max_step; step += step_tick) {
    text_append(out, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='10'>%g</text>\n",
                frame__x(frame, step), bottom + 13, step);
  }
  text_append(out, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='10'>step</text>\n",
              (left + right) / 2, bottom + 28);
  text_append(out, "<text x='%.1f' y='%.1f' font-size='10' fill='#555'>", left, top - 4);
  text_append_xml(out, label);
  text_append(out, "</text>\n");
}

/* One run's curve; dashed draws NVML's. */
static void plot__curve(Text *out, const Frame *frame, const Run *run, Series series, const char *color,
                        bool dashed) {
  Text points = array_new();
  for (uint32_t i = 0; i < run->steps.size; i++) {
    const Step *step = &run->steps.contents[i];
    double mb = series(step);
    if (!isnan(mb)) text_append(&points, "%.1f,%.1f ", frame__x(frame, step->step), frame__y(frame, mb));
  }
  if (points.size) {
    text_append(out, "<polyline fill='none' stroke='%s' stroke-width='%s'%s points='%s'/>\n", color,
                dashed ? "1" : "2", dashed ? " stroke-dasharray='4 3' opacity='0.7'" : "", text_string(&points));
  }
  array_delete(&points);
}

/* A cross where the bad run raised. */
static void plot__crash(Text *out, const Frame *frame, const Run *run, Series series) {
  if (!run->raised) return;
  double mb = run->steps.size ? series(array_back(&run->steps)) : 0;
  double x = frame__x(frame, run->error_step), y = frame__y(frame, isnan(mb) ? 0 : mb);
  text_append(out, "<path d='M%.1f %.1fl8 8m0 -8l-8 8' stroke='%s' stroke-width='2'/>\n", x - 4, y - 4, BAD_COLOR);
  text_append(out, "<text x='%.1f' y='%.1f' font-size='10' fill='%s'>raised at step %u</text>\n", x + 8, y - 6,
              BAD_COLOR, run->error_step);
}

static void plot__titles(Text *out, const Frame *frame, const CaseResult *result) {
  const Script *bad = &result->repro->bad;
  Text summary = array_new();
  output_case_summary(&summary, result);
  text_append(out, "<text x='%.1f' y='%.1f' font-size='13' font-weight='bold'>%s %s</text>\n", frame->x0 + 8,
              frame->y0 + 18, bad->rule, bad->name);
  text_append(out, "<text x='%.1f' y='%.1f' font-size='11'>", frame->x0 + 8, frame->y0 + 34);
  text_append_xml(out, text_string(&summary));
  text_append(out, "</text>\n");
  array_delete(&summary);
}

static void plot__panel(Text *out, const CaseResult *result, double x0, double y0) {
  const char *label;
  Series series = plot__series(result->repro->bad.metric, &label);
  Frame frame = {x0, y0, 0, 0, 0};
  plot__frame_extent(&frame, result, series);
  plot__titles(out, &frame, result);
  plot__axes(out, &frame, label);
  plot__curve(out, &frame, &result->good, series__device, GOOD_COLOR, true);
  plot__curve(out, &frame, &result->bad, series__device, BAD_COLOR, true);
  plot__curve(out, &frame, &result->good, series, GOOD_COLOR, false);
  plot__curve(out, &frame, &result->bad, series, BAD_COLOR, false);
  plot__crash(out, &frame, &result->bad, series);
}

static void plot__legend(Text *out) {
  static const char *const ITEMS[4][3] = {
      {BAD_COLOR, "", "bad (the pitfall)"},
      {GOOD_COLOR, "", "good (the fix)"},
      {"#555", "4 3", "NVML device memory used"},
      {"#555", "", "PyTorch allocator"},
  };
  double x = 8;
  for (int i = 0; i < 4; i++, x += 190) {
    text_append(out, "<line x1='%.0f' y1='58' x2='%.0f' y2='58' stroke='%s' stroke-width='2'%s%s%s/>\n", x, x + 24,
                ITEMS[i][0], *ITEMS[i][1] ? " stroke-dasharray='" : "", ITEMS[i][1], *ITEMS[i][1] ? "'" : "");
    text_append(out, "<text x='%.0f' y='62' font-size='11'>%s</text>\n", x + 30, ITEMS[i][2]);
  }
}

char *output_svg(const CaseResults *results, const char *caption) {
  uint32_t rows = (results->size + COLUMNS - 1) / COLUMNS;
  double width = COLUMNS * PANEL_W, height = HEADER_H + rows * PANEL_H + 8;
  Text out = array_new();
  text_append(&out,
              "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' viewBox='0 0 %.0f %.0f' "
              "font-family='sans-serif'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
              width, height, width, height);
  text_append(&out, "<text x='8' y='20' font-size='15' font-weight='bold'>gpulint verify: memory against step</text>\n");
  text_append(&out, "<text x='8' y='38' font-size='11'>");
  text_append_xml(&out, caption ? caption : "");
  text_append(&out, "</text>\n");
  plot__legend(&out);
  for (uint32_t i = 0; i < results->size; i++) {
    text_append(&out, "<g>\n");
    plot__panel(&out, &results->contents[i], (i % COLUMNS) * PANEL_W, HEADER_H + (i / COLUMNS) * PANEL_H);
    text_append(&out, "</g>\n");
  }
  text_append(&out, "</svg>\n");
  return text_take(&out);
}
