// SPDX-License-Identifier: LGPL-2.1
/*
 * KernelShark plugin for entrytrace: draw side.
 *
 * C++ because KernelShark's plotting interface is: the draw handler's
 * argument carries a KsPlot::Graph and a list of KsPlot::PlotObject, and a
 * shape reacts to a double click through a virtual method.  Everything
 * else is in entrytrace_kshark.c.
 *
 * Each task graph (and each CPU graph, for the syscalls entered on that
 * CPU) gets rows of boxes over its upper 70%: the syscall on top, its
 * stages below, children of a stage one row lower.  KernelShark's own
 * running-task bar stays visible underneath.  Boxes narrower than a pixel
 * are widened to one, and a box whose pixels are already covered in its
 * row is skipped, so a zoomed-out view costs at most one shape per pixel
 * per row.  A syscall that crossed lost events gets a red outline and red
 * hatching.  Double-click a box: its text is printed (stdout, the log) and
 * shown above the graph, and markers A and B go to its first and last
 * event, so KernelShark shows the time between them.
 */
#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "KsPlotTools.hpp"
#include "KsPlugins.hpp"
#include "KsPluginsGUI.hpp"

#include "entrytrace_kshark.h"

/* KernelShark's main window, for the markers; set by the menu hook. */
static void *main_window;

static KsPlot::Color to_color(struct ets_rgb c)
{
	return KsPlot::Color(c.r, c.g, c.b);
}

class EtsBox : public KsPlot::Shape {
public:
	EtsBox(int sd, size_t index, bool lost, int x0, int y0, int x1, int y1)
	: KsPlot::Shape(4), _sd(sd), _index(index), _lost(lost)
	{
		setPoint(0, x0, y0);
		setPoint(1, x0, y1);
		setPoint(2, x1, y1);
		setPoint(3, x1, y0);
	}

	/*
	 * Zero inside the box, else far away.  The slack: a pixel sideways,
	 * and upwards the two pixels by which KernelShark's GL projection
	 * draws shapes above their coordinates.
	 */
	double distance(int x, int y) const override
	{
		if (x >= pointX(0) - 1 && x <= pointX(2) + 1 &&
		    y >= pointY(0) - 2 && y <= pointY(1))
			return 0;
		return std::numeric_limits<double>::max();
	}

private:
	/* By index: the context may have been reloaded since the paint. */
	int	_sd;
	size_t	_index;
	bool	_lost;

	void _draw(const KsPlot::Color &col, float size) const override;
	void _doubleClick() const override;
};

void EtsBox::_draw(const KsPlot::Color &col, float size) const
{
	ksplot_draw_polygon(_points, _nPoints, col.color_c_ptr(), size);
	if (!_lost)
		return;

	KsPlot::Color red = to_color(ets_lost_rgb);
	int x0 = pointX(0), x1 = pointX(2), y0 = pointY(0), y1 = pointY(1);
	int h = y1 - y0;

	/* Hatching: diagonals every 6 pixels, clipped to the box. */
	for (int x = x0 - h; x < x1; x += 6) {
		int ax = std::max(x, x0), bx = std::min(x + h, x1);

		if (bx <= ax)
			continue;
		ksplot_point a = { ax, y1 - (ax - x) };
		ksplot_point b = { bx, y1 - (bx - x) };

		ksplot_draw_line(&a, &b, red.color_c_ptr(), 1);
	}
	ksplot_draw_polygon_contour(_points, _nPoints, red.color_c_ptr(), 2);
}

void EtsBox::_doubleClick() const
{
	struct ets_context *ctx = ets_get_context(_sd);

	if (ctx && _index < ctx->nr_boxes)
		ets_box_clicked(ctx, &ctx->boxes[_index]);
}

/* ------------------------------------------------------------------ */
/* Markers                                                             */

/* Entries are sorted by time: the first at or after ts. */
static size_t lower_bound_ts(const kshark_trace_histo *histo, int64_t ts)
{
	kshark_entry **data = histo->data;
	size_t lo = 0, hi = histo->data_size;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (data[mid]->ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#define ETS_MARK_SCAN 100000

void ets_mark_box(struct ets_context *ctx, const struct ets_box *box)
{
	const kshark_trace_histo *histo = ctx->histo;
	const kshark_entry *a = nullptr, *b = nullptr;
	int64_t end = box->start + (int64_t)box->dur;
	size_t i, n;

	if (!main_window || !histo || !histo->data || !histo->data_size)
		return;

	auto mine = [&](const kshark_entry *e) {
		return e->stream_id == ctx->sd && e->pid == box->pid;
	};

	n = histo->data_size;
	i = lower_bound_ts(histo, box->start);
	for (size_t k = 0; i < n && k < ETS_MARK_SCAN; i++, k++)
		if (mine(histo->data[i])) {
			a = histo->data[i];
			break;
		}
	i = lower_bound_ts(histo, end + 1);
	for (size_t k = 0; i > 0 && k < ETS_MARK_SCAN; i--, k++) {
		const kshark_entry *e = histo->data[i - 1];

		if (a && e->ts < a->ts)
			break;
		if (mine(e)) {
			b = e;
			break;
		}
	}
	if (a)
		markEntryA(main_window, a);
	if (b && b != a)
		markEntryB(main_window, b);
}

/* ------------------------------------------------------------------ */
/* Draw                                                                */

static ksplot_font label_font;

static ksplot_font *font(void)
{
	static bool tried;

	if (!tried) {
		tried = true;
		ksplot_init_font(&label_font, 13, TT_FONT_FILE);
	}
	return ksplot_font_is_loaded(&label_font) ? &label_font : nullptr;
}

/* The text of the last double-clicked box, just above its graph. */
static void add_label(struct ets_context *ctx, const struct ets_box *box,
		      KsPlot::Graph *graph, KsPlot::PlotObjList *shapes, int x)
{
	ksplot_font *f = font();
	char text[256];
	int len, width, xmax;

	if (!f)
		return;
	len = ets_box_text(ctx, box, text, sizeof(text));
	if (len <= 0)
		return;
	width = f->char_width * std::min(len, (int)sizeof(text) - 1) + f->height / 2;
	xmax = graph->bin(graph->size() - 1)._base.x();
	if (x + width > xmax)
		x = std::max(xmax - width, graph->bin(0)._base.x());

	KsPlot::Point pos(x, graph->base() - graph->height() - 3);
	shapes->push_front(new KsPlot::TextBox(f, text, KsPlot::Color(255, 255, 200),
					       pos, width, f->height));
}

void ets_draw(struct kshark_cpp_argv *argv_c, int sd, int val, int draw_action)
{
	struct ets_context *ctx = ets_get_context(sd);
	KsCppArgV *argv = KS_ARGV_TO_CPP(argv_c);
	KsPlot::PlotObjList *shapes = argv->_shapes;
	KsPlot::Graph *graph = argv->_graph;
	kshark_trace_histo *histo = argv->_histo;
	const int64_t *maxend;
	size_t first, last;
	bool by_cpu;

	if (!ctx || !ctx->nr_boxes || !graph || !histo || graph->size() <= 0 ||
	    histo->bin_size <= 0)
		return;
	ctx->histo = histo;

	if (draw_action & KSHARK_TASK_DRAW) {
		ets_task_range(ctx, val, &first, &last);
		maxend = ctx->pid_maxend;
		by_cpu = false;
	} else if (draw_action & KSHARK_CPU_DRAW) {
		ets_cpu_range(ctx, val, &first, &last);
		maxend = ctx->cpu_maxend;
		by_cpu = true;
	} else {
		return;
	}

	const int nbins = graph->size();
	const int xfirst = graph->bin(0)._base.x();
	const int xlast = graph->bin(nbins - 1)._base.x() + 1;
	const int64_t vmin = histo->min;
	const int64_t vend = histo->min + (int64_t)nbins * histo->bin_size;
	const double px_per_ns = 1.0 / (double)histo->bin_size;
	const int top = graph->base() - graph->height() + 1;
	const int area = graph->height() * 7 / 10;
	const int rows = std::max(ctx->rows, 1);
	const int row_h = std::max(area / rows, 2);
	std::vector<int> covered(rows, INT_MIN);
	long selected_x = LONG_MIN;
	int n = 0, n_lost = 0;

	size_t i = ets_first_ending_after(maxend, first, last, vmin);
	for (; i < last; i++) {
		size_t index = by_cpu ? ctx->by_cpu[i] : i;
		const struct ets_box *box = &ctx->boxes[index];
		bool lost = box->flags & ets_lost_flag;
		int64_t end = box->start + (int64_t)box->dur;
		int row = std::min(ets_box_row(box), rows - 1);
		double fx0, fx1;
		int x0, x1;

		if (box->start >= vend)
			break;
		if (end < vmin)
			continue;

		fx0 = xfirst + (box->start - vmin) * px_per_ns;
		fx1 = xfirst + (end - vmin) * px_per_ns;
		x0 = (int)std::floor(std::max(fx0, (double)xfirst - 1));
		x1 = (int)std::ceil(std::min(fx1, (double)xlast + 1));
		if (x1 <= x0)
			x1 = x0 + 1;
		if ((long)index == ctx->selected)
			selected_x = x0;
		if (x1 <= covered[row] && !lost)
			continue;
		covered[row] = std::max(covered[row], x1);

		int y0 = top + row * row_h;
		int y1 = y0 + row_h - 1;
		auto *shape = new EtsBox(sd, index, lost, x0, y0, x1, y1);

		shape->_color = to_color(ets_stage_rgb(box->stage));
		shape->_size = 1;
		shapes->push_front(shape);
		n++;
		n_lost += lost;
	}

	if (selected_x != LONG_MIN)
		add_label(ctx, &ctx->boxes[ctx->selected], graph, shapes,
			  (int)std::max(selected_x, (long)xfirst));

	ctx->drawn += n;
	ctx->drawn_lost += n_lost;
	ets_log("draw stream=%d %s=%d shapes=%d lost=%d total=%llu height=%d x=%d..%d",
		sd, by_cpu ? "cpu" : "pid", val, n, n_lost,
		(unsigned long long)ctx->drawn, graph->height(), xfirst, xlast);
}

/* No menu: the hook only hands over the main window, for the markers. */
extern "C" ETS_EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	main_window = gui_ptr;
	return nullptr;
}
