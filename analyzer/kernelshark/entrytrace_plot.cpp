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
#include <cstring>
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
	EtsBox(int sd, size_t index, bool lost, int row, int x0, int y0, int x1, int y1)
	: KsPlot::Shape(4), _sd(sd), _index(index), _lost(lost), _row(row)
	{
		setPoint(0, x0, y0);
		setPoint(1, x0, y1);
		setPoint(2, x1, y1);
		setPoint(3, x1, y0);
	}

	/*
	 * Near zero inside the box (the deeper its row the nearer, so that a
	 * click on a nested stage picks it, not its parent), else far away.
	 * The slack: a pixel sideways, and upwards the two pixels by which
	 * KernelShark's GL projection draws shapes above their coordinates.
	 */
	double distance(int x, int y) const override
	{
		if (x >= pointX(0) - 1 && x <= pointX(2) + 1 &&
		    y >= pointY(0) - 2 && y <= pointY(1))
			return 0.01 * (8 - std::min(_row, 8));	/* a nested box wins */
		return std::numeric_limits<double>::max();
	}

private:
	/* By index: the context may have been reloaded since the paint. */
	int	_sd;
	size_t	_index;
	bool	_lost;
	int	_row;

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

/* The entry of this stream nearest to ts, either side. */
static const kshark_entry *nearest(const kshark_trace_histo *histo, int sd, int64_t ts)
{
	size_t n = histo->data_size, i = lower_bound_ts(histo, ts);
	const kshark_entry *after = nullptr, *before = nullptr;

	for (size_t j = i, k = 0; j < n && k < ETS_MARK_SCAN; j++, k++)
		if (histo->data[j]->stream_id == sd) {
			after = histo->data[j];
			break;
		}
	for (size_t j = i, k = 0; j > 0 && k < ETS_MARK_SCAN; j--, k++)
		if (histo->data[j - 1]->stream_id == sd) {
			before = histo->data[j - 1];
			break;
		}
	if (!before)
		return after;
	if (!after)
		return before;
	return ts - before->ts <= after->ts - ts ? before : after;
}

/*
 * KernelShark's markers sit on entries, not on arbitrary times, and an
 * entrytrace kernel's stage is stamped where no event is (its event comes
 * later).  So A and B go to the entries nearest to the stage's own start
 * and end, and how far those are from it is said (ctx->mark_off_a/b, the
 * label, the log): 0 and 0 where the stage's ends are events, as on a
 * stock kernel.
 */
void ets_mark_box(struct ets_context *ctx, const struct ets_box *box)
{
	const kshark_trace_histo *histo = ctx->histo;
	const kshark_entry *a, *b;
	int64_t end = box->start + (int64_t)box->dur;

	ctx->marked = false;
	if (!histo || !histo->data || !histo->data_size)
		return;
	a = nearest(histo, ctx->sd, box->start);
	b = nearest(histo, ctx->sd, end);
	if (!a || !b)
		return;
	ctx->marked = true;
	ctx->mark_a = a->ts;
	ctx->mark_b = b->ts;
	ctx->mark_off_a = a->ts - box->start;
	ctx->mark_off_b = b->ts - end;
	if (!main_window)
		return;
	markEntryA(main_window, a);
	markEntryB(main_window, b);
}

/* ------------------------------------------------------------------ */
/* Draw                                                                */

static ksplot_font label_font, small_font;

static ksplot_font *font(void)
{
	static bool tried;

	if (!tried) {
		tried = true;
		ksplot_init_font(&label_font, 13, TT_FONT_FILE);
	}
	return ksplot_font_is_loaded(&label_font) ? &label_font : nullptr;
}

/* For names inside boxes and the legend. */
static ksplot_font *small(void)
{
	static bool tried;

	if (!tried) {
		tried = true;
		ksplot_init_font(&small_font, 10, TT_FONT_FILE);
	}
	return ksplot_font_is_loaded(&small_font) ? &small_font : nullptr;
}

/* Black text on light colours, white on dark ones. */
static bool dark(struct ets_rgb c)
{
	return 299 * c.r + 587 * c.g + 114 * c.b < 128000;
}

/* The text of the last double-clicked box, just above its graph; its right end. */
static int add_label(struct ets_context *ctx, const struct ets_box *box,
		     KsPlot::Graph *graph, std::vector<KsPlot::PlotObject *> *shapes, int x)
{
	ksplot_font *f = font();
	char text[256];
	int len, width, xmax;

	if (!f)
		return x;
	len = ets_box_text(ctx, box, text, sizeof(text));
	if (len <= 0)
		return x;
	width = f->char_width * std::min(len, (int)sizeof(text) - 1) + f->height / 2;
	xmax = graph->bin(graph->size() - 1)._base.x();
	if (x + width > xmax)
		x = std::max(xmax - width, graph->bin(0)._base.x());

	KsPlot::Point pos(x, graph->base() - graph->height() - 3);
	shapes->push_back(new KsPlot::TextBox(f, text, KsPlot::Color(255, 255, 200),
					      pos, width, f->height));
	return x + width;
}

/*
 * The legend: the stages drawn in this paint, each a small swatch of its
 * colour and its name, right-aligned just above the graph (where the
 * clicked box's text goes on the left).
 */
static int add_legend(KsPlot::Graph *graph, std::vector<KsPlot::PlotObject *> *shapes,
		      const std::vector<bool> &drawn, int xmin, int xlast)
{
	ksplot_font *f = small();
	int x = xlast, n = 0, y = graph->base() - graph->height() - 3;

	if (!f)
		return 0;
	for (int st = (int)drawn.size() - 1; st >= 0; st--) {
		if (!drawn[st])
			continue;
		const char *name = ets_stage_name(st);
		int w = f->char_width * (int)strlen(name) * 6 / 5 + f->height, sw = 8;

		if (x - w - sw - 8 < xmin)	/* left of it: the click label */
			break;
		x -= w + sw + 8;
		auto *t = new KsPlot::TextBox(f, name, KsPlot::Color(235, 235, 235),
					      KsPlot::Point(x + sw + 2, y), w, f->height);
		auto *sq = new KsPlot::Rectangle;

		sq->setFill(true);
		sq->setPoint(0, x, y - f->height + 2);
		sq->setPoint(1, x, y - 1);
		sq->setPoint(2, x + sw, y - 1);
		sq->setPoint(3, x + sw, y - f->height + 2);
		sq->_color = to_color(ets_stage_rgb(st));
		shapes->push_back(t);
		shapes->push_back(sq);
		n++;
	}
	return n;
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
	/*
	 * Two rows over the upper 85% of the graph: the syscall (30%), and its
	 * stages below (70%), a child inside its parent, inset 2 px a level.
	 */
	const int top = graph->base() - graph->height() + 1;
	const int area = graph->height() * 85 / 100;
	const int sys_h = std::max(area * 3 / 10, 3);
	const int stage_h = std::max(area - sys_h - 1, 3);
	const int rows = std::max(ctx->rows, 1);
	std::vector<int> covered(rows, INT_MIN);
	long selected_x = LONG_MIN;
	int n = 0, n_lost = 0, n_labels = 0, n_legend = 0;
	std::vector<bool> drawn_stages(ets_stage_end);	/* by stage id */
	ksplot_font *lf = small();
	std::vector<KsPlot::PlotObject *> mine, labels;

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

		int y0, y1;

		if (row == 0) {
			y0 = top;
			y1 = top + sys_h - 1;
		} else {
			int inset = std::min(2 * (row - 1), stage_h / 2 - 1);

			y0 = top + sys_h + 1 + inset;
			y1 = top + sys_h + stage_h - inset;
		}
		auto *shape = new EtsBox(sd, index, lost, row, x0, y0, x1, y1);
		struct ets_rgb rgb = ets_stage_rgb(box->stage);

		shape->_color = to_color(rgb);
		shape->_size = 1;
		mine.push_back(shape);	/* drawn in order: a child over its parent */
		n++;
		n_lost += lost;
		if (box->stage >= 0 && box->stage < ets_stage_end)
			drawn_stages[box->stage] = true;

		/* zoomed in: the name inside the box, where it fits */
		if (lf && y1 - y0 + 1 >= lf->height) {
			char nbuf[ETS_NAME_LEN + 8];
			const char *name = box->stage == ets_total_stage ?
				ets_box_name(ctx, box, nbuf, sizeof(nbuf)) : ets_stage_name(box->stage);
			int w = lf->char_width * (int)strlen(name) * 6 / 5 + lf->height / 2;

			if (x1 - x0 >= w) {
				KsPlot::Point pos(x0 + 2, y0 + (y1 - y0 + 1 + lf->height) / 2 - 1);
				auto *t = new KsPlot::TextBox(lf, name, to_color(rgb), pos, w - 2,
							      lf->height);

				t->_color = dark(rgb) ? KsPlot::Color(255, 255, 255) :
							KsPlot::Color(0, 0, 0);
				labels.push_back(t);	/* over every box */
				n_labels++;
			}
		}
	}

	mine.insert(mine.end(), labels.begin(), labels.end());
	int label_end = xfirst;

	if (selected_x != LONG_MIN)
		label_end = add_label(ctx, &ctx->boxes[ctx->selected], graph, &mine,
				      (int)std::max(selected_x, (long)xfirst));
	n_legend = add_legend(graph, &mine, drawn_stages, label_end + 10, xlast);
	/* KernelShark draws its list front to back: keep our order */
	for (auto it = mine.rbegin(); it != mine.rend(); ++it)
		shapes->push_front(*it);

	ctx->drawn += n;
	ctx->drawn_lost += n_lost;
	ets_log("draw stream=%d %s=%d shapes=%d lost=%d total=%llu height=%d x=%d..%d "
		"labels=%d legend=%d syscall_h=%d stage_h=%d",
		sd, by_cpu ? "cpu" : "pid", val, n, n_lost,
		(unsigned long long)ctx->drawn, graph->height(), xfirst, xlast, n_labels,
		n_legend, sys_h, stage_h);
}

/* No menu: the hook only hands over the main window, for the markers. */
extern "C" ETS_EXPORT void *KSHARK_MENU_PLUGIN_INITIALIZER(void *gui_ptr)
{
	main_window = gui_ptr;
	return nullptr;
}
