/*
 * draw.c - what the pages share to draw with: HTML and CSV escaping,
 * the style sheet, the modes' colours and the charts' axes. report.html
 * (html.c), trend.html and trend.csv (trend.c), the CSVs (csv.c) and the
 * targets-at-once page (fleet.c) call it; it calls none of them, so no
 * renderer reaches into another.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"

enum pb_error rp_html_text(struct pb_buf *b, const char *s)
{
	enum pb_error err = PB_OK;

	for (; !err && s && *s; s++) {
		switch (*s) {
		case '<':
			err = pb_buf_addstr(b, "&lt;");
			break;
		case '>':
			err = pb_buf_addstr(b, "&gt;");
			break;
		case '&':
			err = pb_buf_addstr(b, "&amp;");
			break;
		case '"':
			err = pb_buf_addstr(b, "&quot;");
			break;
		case '\'':
			err = pb_buf_addstr(b, "&#39;");
			break;
		default:
			err = pb_buf_add(b, s, 1);
		}
	}
	return err;
}

enum pb_error rp_csv_field(struct pb_buf *b, const char *s)
{
	const char *p;
	enum pb_error err;

	/* RFC 4180: quote when needed, double the quotes inside */
	if (!strpbrk(s, ",\"\r\n"))
		return pb_buf_addstr(b, s);
	err = pb_buf_addstr(b, "\"");
	for (p = s; !err && *p; p++)
		err = *p == '"' ? pb_buf_addstr(b, "\"\"")
				: pb_buf_add(b, p, 1);
	return err ? err : pb_buf_addstr(b, "\"");
}

/* a step of 1, 2 or 5 times a power of ten giving about n ticks */
double rp_nice_step(double max, int n)
{
	double raw = max / n, mag, norm;

	/* a run.json edited by hand can hold any number: no axis of it */
	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

double rp_y_axis(struct pb_buf *b, double x0, double x1, double y0, double h,
		 double *lo, double max, const char *unit)
{
	double step, top, v, y;
	int k;

	/* a figure no axis can hold (a hand-edited 1e308) is not drawn to */
	if (!isfinite(*lo) || !isfinite(max) || max - *lo > 1e15) {
		*lo = 0;
		max = 1;
	}
	if (!(max > *lo))
		max = *lo + 1;
	step = rp_nice_step(max - *lo, 5);
	top = ceil(max / step) * step;
	*lo = floor(*lo / step) * step;
	/* ticks counted, never summed: at most a dozen whatever the floats */
	for (k = 0, v = *lo; k <= 12 && v <= top + step / 2;
	     k++, v = *lo + (double)k * step) {
		bool zero = fabs(v) < step / 2;

		y = y0 + h - h * (v - *lo) / (top - *lo);
		pb_buf_printf(b,
			      "<line class=grid x1=%.1f x2=%.1f y1=%.1f "
			      "y2=%.1f stroke=\"%s\" />"
			      "<text class=tick x=%.1f y=%.1f "
			      "text-anchor=end>%g</text>\n",
			      x0, x1, y, y, zero ? "#444" : "#ddd", x0 - 4,
			      y + 4, zero ? 0 : v);
	}
	pb_buf_printf(b,
		      "<line x1=%.1f x2=%.1f y1=%.1f y2=%.1f stroke=#444 />"
		      "<text class=unit x=%.1f y=%.1f>%s</text>\n",
		      x0, x0, y0, y0 + h, x0 - 40, y0 - 8, unit);
	return top;
}

/* the page's style: one column that fits 900 px and prints on A4 */
const char rp_html_style[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em auto;max-width:860px;"
	"padding:0 12px;color:#222}table{border-collapse:collapse;margin:"
	"1em 0}td,th{border:1px solid #bbb;padding:3px 6px;vertical-align:"
	"top;overflow-wrap:break-word}.kv td,.fail "
	"td{overflow-wrap:anywhere}th{background:#eee;text-align:left}.n{"
	"text-align:right;font-variant-numeric:tabular-nums;white-space:"
	"nowrap}.sum{font-size:12px}.sum td,.sum th{padding:2px 4px}.sum "
	"td:first-child,.fail td:first-child{"
	"white-space:nowrap}.bad{color:#b00;font-weight:bold}."
	"good{color:#070;font-weight:bold}.warn{color:#8a5a00}.sw{display:"
	"inline-block;width:.8em;height:.8em;margin-right:.35em;vertical-"
	"align:baseline}.note{color:#555;font-size:12px}.kv{margin:0;"
	"font-size:12px}.kv th{background:#f6f6f6;font-weight:normal}ul.kv{"
	"padding-left:1.2em}.head th{width:9em}.tick{font-size:10px;fill:"
	"#333}.unit,.lg,.val{font-size:11px;fill:#222}.lbl{font-size:12px;"
	"fill:#222}.chart{display:block;margin:1em 0;max-width:100%;height:"
	"auto}pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;"
	"overflow-wrap:anywhere}.runline{color:#444;margin:.2em 0 .8em}"
	"h1{margin:.2em 0}details{margin:.6em 0}summary{cursor:pointer;"
	"color:#245}ul.answer{font-size:15px}"
	"@page{size:A4;margin:12mm}@media print{body{"
	"margin:0;max-width:none;padding:0;font-size:12px}.sum{font-size:"
	"10px}.sum td,.sum th{padding:1px 3px}.chart,table{page-break-"
	"inside:avoid}}";

const char *rp_mode_colour(enum pb_mode mode)
{
	static const char *const c[PB_MODE__COUNT] = {
		[PB_MODE_THIN] = "#E69F00",  /* orange */
		[PB_MODE_LAZY] = "#CC79A7",  /* reddish purple */
		[PB_MODE_EAGER] = "#009E73", /* bluish green */
		[PB_MODE_RDM] = "#0072B2",   /* blue */
		[PB_MODE_RDMP] = "#56B4E9",  /* sky blue */
	};

	return (unsigned)mode < PB_MODE__COUNT ? c[mode] : "#555555";
}
