// SPDX-License-Identifier: LGPL-2.1
/*
 * Plots as SVG: one panel per stage, each the cumulative distribution of
 * one or two histograms on a log time axis.  Written directly rather than
 * through gnuplot: the output is a few hundred lines of text, needs no
 * extra package at run time, is the same byte for byte on every machine
 * (tests compare it) and opens in any browser.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "entrytrace-local.h"

#define PANEL_W 380
#define PANEL_H 250
#define PAD_L 52
#define PAD_R 14
#define PAD_T 34
#define PAD_B 40
#define COLS 3
#define HEAD 56

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
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
		default:
			fputc(*s, out);
		}
	}
}

/*
 * An axis label with a decimal prefix: a time (ns: 300ns, 3us, 30ms) or a
 * count (instructions, cycles: 300, 3k, 30M).
 */
static void fmt_axis(double v, bool ns, char *buf, size_t size)
{
	static const char *const time_sfx[] = { "ns", "us", "ms", "s" };
	static const char *const count_sfx[] = { "", "k", "M", "G" };
	int e = 0;

	while (e < 3 && v >= 1e3) {
		v /= 1e3;
		e++;
	}
	snprintf(buf, size, "%g%s", v, ns ? time_sfx[e] : count_sfx[e]);
}

/* The x range of a panel: from the smallest value to the 99.9th percentile. */
static void range(const struct et_plot_panel *p, double *lo, double *hi)
{
	*lo = 0;
	*hi = 0;
	for (int i = 0; i < p->nr_series; i++) {
		const struct et_hist *h = p->series[i].hist;
		double a, b;

		if (!h || !h->count)
			continue;
		a = h->min > 0 ? (double)h->min : 1;
		b = (double)et_hist_quantile(h, 0.999);
		if (b <= a)
			b = a * 2;
		if (!*lo || a < *lo)
			*lo = a;
		if (b > *hi)
			*hi = b;
	}
	if (!*lo) {
		*lo = 1;
		*hi = 10;
	}
	*lo = pow(10, floor(log10(*lo)));
	*hi = pow(10, ceil(log10(*hi)));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

static double xpos(double v, double lo, double hi, double x0, double w)
{
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return x0 + w * (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
}

static void curve(FILE *out, const struct et_hist *h, const char *color,
		  double lo, double hi, double x0, double y0, double w, double ht)
{
	uint64_t run = 0;
	double px = xpos((double)h->min, lo, hi, x0, w), py = y0 + ht;

	fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"%.1f,%.1f",
		color, px, py);
	for (uint32_t i = h->first; i < h->nr_buckets; i++) {
		double x, y;

		if (!et_hist_bucket(h, i))
			continue;
		run += et_hist_bucket(h, i);
		x = xpos((double)et_hist_upper(i) + 1, lo, hi, x0, w);
		y = y0 + ht * (1 - (double)run / (double)h->count);
		fprintf(out, " %.1f,%.1f %.1f,%.1f", x, py, x, y);
		py = y;
		if (x >= x0 + w)
			break;
	}
	fprintf(out, " %.1f,%.1f\"/>\n", x0 + w, py);
}

/* @unit: of the values, "ns" (times, labelled 1us, 1ms...) or a count's */
static void panel(FILE *out, const struct et_plot_panel *p, const char *unit, double ox,
		  double oy)
{
	bool ns = !strcmp(unit, "ns");
	double x0 = ox + PAD_L, y0 = oy + PAD_T;
	double w = PANEL_W - PAD_L - PAD_R, ht = PANEL_H - PAD_T - PAD_B;
	double lo, hi;
	char buf[32];

	range(p, &lo, &hi);
	fprintf(out, "<g>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\" font-weight=\"bold\">",
		x0, oy + 18);
	esc(out, p->title);
	fprintf(out, "</text>\n");
	if (p->note) {
		fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" fill=\"#444\">", x0,
			oy + 30);
		esc(out, p->note);
		fprintf(out, "</text>\n");
	}
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n",
		x0, y0, w, ht);
	for (double v = lo; v <= hi * 1.0001; v *= 10) {
		double x = xpos(v, lo, hi, x0, w);

		fmt_axis(v, ns, buf, sizeof(buf));
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			x, y0, x, y0 + ht);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%s</text>\n",
			x, y0 + ht + 13, buf);
	}
	for (int q = 0; q <= 4; q++) {
		double y = y0 + ht * (1 - q / 4.0);

		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\">%.2f</text>\n",
			x0 - 4, y + 3, q / 4.0);
	}
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\">%s in stage (log)</text>\n",
		x0 + w / 2, y0 + ht + 27, ns ? "time" : unit);
	for (int i = 0; i < p->nr_series; i++)
		if (p->series[i].hist && p->series[i].hist->count &&
		    !p->series[i].hist->moments_only)
			curve(out, p->series[i].hist, p->series[i].color, lo, hi, x0, y0, w, ht);
	fprintf(out, "</g>\n");
}

int et_plot_cdf_svg(FILE *out, const char *title, const char *unit,
		    const struct et_plot_panel *panels, int n)
{
	int rows = (n + COLS - 1) / COLS, cols = n < COLS ? n : COLS;
	int width = (cols ? cols : 1) * PANEL_W + 20, height = HEAD + rows * PANEL_H + 10;
	double lx = 14;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"14\" y=\"22\" font-size=\"15\" font-weight=\"bold\">",
		width, height, width, height);
	esc(out, title);
	fprintf(out, "</text>\n");
	/* legend from the first panel's series */
	for (int i = 0; n && i < panels[0].nr_series; i++) {
		fprintf(out, "<line x1=\"%.0f\" y1=\"40\" x2=\"%.0f\" y2=\"40\" stroke=\"%s\" stroke-width=\"3\"/>\n",
			lx, lx + 24, panels[0].series[i].color);
		fprintf(out, "<text x=\"%.0f\" y=\"44\" font-size=\"12\">", lx + 30);
		esc(out, panels[0].series[i].label);
		fprintf(out, "</text>\n");
		lx += 40 + 7 * (panels[0].series[i].label ? strlen(panels[0].series[i].label) : 0);
	}
	fprintf(out, "<text x=\"%.0f\" y=\"44\" font-size=\"11\" fill=\"#444\">cumulative fraction of syscalls; x axis to the 99.9th percentile</text>\n",
		lx + 10);
	for (int i = 0; i < n; i++)
		panel(out, &panels[i], unit, 10 + (i % COLS) * PANEL_W, HEAD + (i / COLS) * PANEL_H);
	fprintf(out, "</svg>\n");
	return ferror(out) ? -1 : 0;
}

int et_plot_init(struct et_plot *p, int max)
{
	p->n = 0;
	p->max = max;
	p->panels = calloc(max, sizeof(*p->panels));
	p->text = calloc(max, sizeof(*p->text));
	if (p->panels && p->text)
		return 0;
	et_plot_free(p);
	return -1;
}

struct et_plot_panel *et_plot_add(struct et_plot *p, const char *title, const char *note)
{
	struct et_plot_panel *pp;

	if (p->n >= p->max)
		return NULL;
	snprintf(p->text[p->n][0], sizeof(p->text[p->n][0]), "%s", title);
	snprintf(p->text[p->n][1], sizeof(p->text[p->n][1]), "%s", note);
	pp = &p->panels[p->n];
	*pp = (struct et_plot_panel){ .title = p->text[p->n][0], .note = p->text[p->n][1] };
	p->n++;
	return pp;
}

void et_plot_free(struct et_plot *p)
{
	free(p->panels);
	free(p->text);
	p->panels = NULL;
	p->text = NULL;
	p->n = p->max = 0;
}
